//! A campaign's turn deadline over the API: the organiser sets, changes or clears the open
//! turn's deadline and the default turn length. The deadline itself is part of the campaign
//! (`GET /api/v1/campaigns/{id}`) and of the list.

use actix_web::{put, web, HttpResponse};

use crate::app::campaigns::deadlines::{self as deadlines, DeadlineInput};
use crate::app::campaigns::load_for;
use crate::web::api::campaigns::CampaignJson;
use crate::web::auth::ApiUser;
use crate::web::campaign_view::{campaign_json, system_of};
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// Set the turn deadline
///
/// Organiser only. The body is the whole wish: `deadline` (RFC 3339; null or absent: no
/// deadline for the open turn) and `turn_length_hours` (each new turn's deadline that many
/// hours after it begins; null or absent: none). At the deadline the turn closes by itself and
/// forces without orders hold. Each change is a log entry; what already stands is not logged
/// again. A deadline needs an open turn and must be in the future, within a year.
#[utoipa::path(tag = "campaigns", security(("bearer" = [])), params(("id" = i64, Path, description = "Campaign id")), request_body = DeadlineInput, responses(
    (status = 200, description = "The campaign with its deadline", body = CampaignJson),
    (status = 403, description = "Not the organiser", body = ErrorBody),
    (status = 404, description = "No such campaign of yours", body = ErrorBody),
    (status = 409, description = "No open turn, or the campaign has ended", body = ErrorBody),
    (status = 422, description = "A deadline in the past, or a turn length out of range", body = ErrorBody)
))]
#[put("/campaigns/{id}/deadline")]
pub async fn put_deadline(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<i64>,
    body: web::Json<DeadlineInput>,
) -> Result<HttpResponse, AppError> {
    let c = load_for(&state.app, &user.actor(), id.into_inner()).await?;
    let c = deadlines::set(&state.app, &c, &user.actor(), body.into_inner()).await?;
    Ok(HttpResponse::Ok().json(campaign_json(&c, system_of(&state, &c)?)))
}
