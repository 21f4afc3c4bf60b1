//! The Liberty or Death! odds calculator: the API under `/api/v1/lod/odds/` and the page at
//! `/lod/odds`. (In progress: issue 14.)

use actix_web::web::ServiceConfig;

pub fn configure(_cfg: &mut ServiceConfig) {}

pub fn configure_api(_cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {}
