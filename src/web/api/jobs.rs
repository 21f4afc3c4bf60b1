//! Background jobs over the API: a long simulation's progress and, once finished, its result;
//! its owner can cancel it.

use actix_web::{delete, get, web, HttpResponse};

use crate::app::jobs::{self, JobStatus};
use crate::web::auth::ApiUser;
use crate::web::error::ErrorBody;
use crate::web::state::AppState;
use crate::web::AppError;

/// A background job
///
/// Progress of a long battle-odds job (`queued`, then `running` with `done` of `total`
/// battles) and, once finished, its result. Jobs are kept in the database, so any server
/// answers and a restart loses none. Only the user who started it can see it.
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
    let job = jobs::status(&state.app, &id, user.id).await?;
    Ok(HttpResponse::Ok().json(job))
}

/// Cancel a background job
///
/// Stops a queued or running job of yours; the server running it stops within about a
/// second. Answers the job, now `cancelled`.
#[utoipa::path(tag = "battles", security(("bearer" = [])), params(("id" = String, Path, description = "Job id")), responses(
    (status = 200, description = "The job, cancelled", body = JobStatus),
    (status = 404, description = "No such job of yours", body = ErrorBody),
    (status = 409, description = "The job has already ended", body = ErrorBody)
))]
#[delete("/jobs/{id}")]
pub async fn cancel_job(
    state: web::Data<AppState>,
    ApiUser(user): ApiUser,
    id: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let job = jobs::cancel(&state.app, &id, user.id).await?;
    Ok(HttpResponse::Ok().json(job))
}
