//! Background jobs over the API: a long simulation's progress and, once finished, its result.

use actix_web::{get, web, HttpResponse};

use crate::app::jobs::JobStatus;
use crate::web::auth::ApiUser;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// A background job
///
/// Progress of a long battle-odds job (`done` of `total` battles) and, once finished, its
/// result. Only the user who started it can see it.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = String, Path, description = "Job id")), responses(
    (status = 200, description = "The job", body = JobStatus),
    (status = 404, description = "No such job of yours", body = ErrorBody)
))]
#[get("/jobs/{id}")]
pub async fn job_status(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let job = state.app.jobs.get(&id, user.id).ok_or(AppError::NotFound)?;
    Ok(HttpResponse::Ok().json(job.status()))
}
