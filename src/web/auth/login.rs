//! Logging in: who is asking (the client's address, for throttling) and checking an email
//! and password under the login throttle.

use actix_web::HttpRequest;

use crate::app::accounts;
use crate::store::users;
use crate::web::state::AppState;
use crate::web::AppError;

/// The address to throttle by: the peer, or the last `X-Forwarded-For` hop when the peer is
/// the trusted proxy.
pub fn client_address(req: &HttpRequest, state: &AppState) -> String {
    let peer = req.peer_addr().map(|a| a.ip());
    if let (Some(peer), Some(proxy)) = (peer, state.trusted_proxy) {
        if peer == proxy {
            if let Some(forwarded) = req
                .headers()
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|ip| ip.trim().parse::<std::net::IpAddr>().ok())
            {
                return forwarded.to_string();
            }
        }
    }
    peer.map(|p| p.to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Checks an email and password, with throttling. Every failure gives the same answer,
/// whether or not the email exists or the account is disabled.
pub async fn authenticate(
    state: &AppState,
    address: &str,
    email: &str,
    password: &str,
) -> Result<users::User, AppError> {
    if email.len() > 254 || password.len() > 1024 {
        return Err(AppError::InvalidCredentials);
    }
    let admitted = match state.throttle.attempt(&state.app, email, address).await? {
        Ok(admitted) => admitted,
        Err(retry_after_secs) => return Err(AppError::TooManyRequests { retry_after_secs }),
    };
    // The attempt counts as a failure until it has succeeded.
    let user = accounts::check_password(&state.app, email, password).await?;
    state.throttle.succeeded(&state.app, admitted).await?;
    Ok(user)
}
