//! The Liberty or Death! API: the catalogue and roster validation under `/api/v1/lod/`.
//! (In progress: issue 14.)

pub fn configure(_cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {}
