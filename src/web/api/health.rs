use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::web::state::AppState;
use crate::web::AppError;

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` when the database answers.
    status: &'static str,
    /// `SQLite` or `PostgreSQL`.
    database: String,
    version: &'static str,
}

/// Health check
///
/// Answers 200 when the database answers a query, 503 otherwise. Needs no login.
#[utoipa::path(tag = "health", responses(
    (status = 200, description = "The service and its database are up", body = Health),
    (status = 503, description = "The database does not answer", body = crate::web::error::ErrorBody)
))]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    state.app.ping().await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok",
        database: state.app.backend.to_string(),
        version: env!("CARGO_PKG_VERSION"),
    }))
}
