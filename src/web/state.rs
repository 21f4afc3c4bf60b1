//! What every handler can reach: the pool, the keys, the settings.

use hmac::{Hmac, Mac};
use jsonwebtoken::{DecodingKey, EncodingKey};
use sha2::Sha256;
use std::net::IpAddr;

use crate::app::throttles::LoginThrottle;

pub struct AppState {
    /// The application layer: database, rule systems, background jobs.
    pub app: crate::app::Context,
    pub keys: Keys,
    pub secure_cookies: bool,
    /// `MUSTER_PUBLIC_URL`, without a trailing slash.
    pub public_url: Option<String>,
    pub trusted_proxy: Option<IpAddr>,
    pub throttle: LoginThrottle,
    /// How long a client may take to send a whole request body.
    pub body_timeout: std::time::Duration,
    /// This server's sender of notification mail and webhook posts (and whether it has SMTP).
    pub outbox: std::sync::Arc<crate::app::mail::Outbox>,
}

impl AppState {
    /// An absolute link to `path` for sharing (share, public-battle and invite links).
    ///
    /// Under `MUSTER_PUBLIC_URL` when it is set. Otherwise `X-Forwarded-Host`/`-Proto` count
    /// only when the request came from `MUSTER_TRUSTED_PROXY`; anyone else could forge them and,
    /// say through a poisoned cache, hand out links to their own site. Without a trusted proxy
    /// the request's own `Host` header is used: a client can set that too, but the link goes
    /// back only to the one who asked (and pages are never cached, `Cache-Control: no-store`).
    pub fn absolute_url(&self, req: &actix_web::HttpRequest, path: &str) -> String {
        if let Some(base) = &self.public_url {
            return format!("{base}{path}");
        }
        let from_proxy = match (req.peer_addr(), self.trusted_proxy) {
            (Some(peer), Some(proxy)) => peer.ip() == proxy,
            _ => false,
        };
        let forwarded = from_proxy
            .then(|| {
                let info = req.connection_info();
                (info.scheme().to_string(), info.host().to_string())
            })
            .filter(|(_, host)| is_plain_host(host));
        let (scheme, host) = if let Some(forwarded) = forwarded {
            forwarded
        } else {
            let host = req
                .headers()
                .get(actix_web::http::header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| is_plain_host(h))
                .map(str::to_string)
                .unwrap_or_else(|| req.app_config().host().to_string());
            let scheme = if req.app_config().secure() {
                "https"
            } else {
                "http"
            };
            (scheme.to_string(), host)
        };
        format!("{scheme}://{host}{path}")
    }
}

/// A host and optional port, nothing that could change the link's meaning (no `/`, `@`, spaces).
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
}

/// Keys derived from the one server secret, each for one purpose.
pub struct Keys {
    pub jwt_encoding: EncodingKey,
    pub jwt_decoding: DecodingKey,
    csrf_key: Vec<u8>,
}

impl Keys {
    pub fn from_secret(secret: &str) -> Self {
        let jwt_key = derive(secret.as_bytes(), b"muster jwt v1");
        Self {
            jwt_encoding: EncodingKey::from_secret(&jwt_key),
            jwt_decoding: DecodingKey::from_secret(&jwt_key),
            csrf_key: derive(secret.as_bytes(), b"muster csrf v1"),
        }
    }

    pub fn csrf_mac(&self) -> Hmac<Sha256> {
        // HMAC accepts keys of any length, so this cannot fail.
        <Hmac<Sha256> as Mac>::new_from_slice(&self.csrf_key)
            .unwrap_or_else(|_| unreachable!("HMAC takes any key length"))
    }
}

fn derive(secret: &[u8], purpose: &[u8]) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
    mac.update(purpose);
    mac.finalize().into_bytes().to_vec()
}

/// The application state from a request (for extractors and middleware).
pub(crate) fn state_of(
    req: &actix_web::HttpRequest,
) -> Result<actix_web::web::Data<AppState>, crate::web::AppError> {
    req.app_data::<actix_web::web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| crate::web::AppError::internal("application state missing"))
}
