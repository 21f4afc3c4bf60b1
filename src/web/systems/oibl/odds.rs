//! One if by Land exact odds over the API: `POST /api/v1/oibl/odds/{kind}` for each kind the
//! rules core answers (`fire`, `morale`, `melee`, `charge`, `general`, with the field names of
//! the spec's calculator section, 4.7). The answers are enumerations over the d10s, each naming
//! the rulings it used. No login needed: this is pure computation, run off the request threads
//! under the caller's work limits.

use actix_web::{post, web, HttpRequest, HttpResponse};

use crate::app::work::Caller;
use crate::rules::systems::oibl::odds;
use crate::web::auth::login::client_address;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(odds_kind);
}

/// Exact One if by Land odds
///
/// Answers one odds request: `fire` (casualties of one roll on the Combat Table, with every
/// firing modifier and its edges), `morale` (pass, failed by 1, failed by 2 or more), `melee`
/// (the four outcomes over one or two rounds with the post-melee tests), `charge` (the whole
/// charge chain before contact, then the melee) or `general` (the Risk to Generals). The body
/// takes the field names of the specification's calculator section; `docs/systems/oibl.md` has
/// a complete example of each. Every answer is exact (an enumeration over the d10s) and names
/// the rulings it used.
#[utoipa::path(tag = "one-if-by-land",
    params(("kind" = String, Path, description = "fire, morale, melee, charge or general")),
    request_body(content = serde_json::Value, description = "The request of that kind"),
    responses(
        (status = 200, description = "The exact answer", body = serde_json::Value),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 422, description = "An unknown kind, or a request that cannot be answered, in words", body = ErrorBody),
        (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody)
))]
#[post("/odds/{kind}")]
pub async fn odds_kind(
    req: HttpRequest,
    state: web::Data<AppState>,
    kind: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    // An unknown kind is answered by the rules core in words (422), naming the kinds it has.
    let kind = kind.into_inner();
    let value: serde_json::Value =
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest {
            message: format!("The JSON body could not be read: {e}."),
            details: vec![],
        })?;
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let answer = state
        .app
        .work
        .run(&caller, move |_cancel| {
            odds::answer(&rules.oibl, &kind, &value).map_err(|e| AppError::Validation {
                message: "These odds cannot be worked out.".into(),
                details: vec![ErrorDetail {
                    field: None,
                    message: e.0,
                }],
            })
        })
        .await??;
    Ok(HttpResponse::Ok().json(answer))
}
