//! What every handler can reach: the pool, the keys, the settings.

use hmac::{Hmac, Mac};
use jsonwebtoken::{DecodingKey, EncodingKey};
use sha2::Sha256;
use std::net::IpAddr;

use crate::web::auth::throttle::LoginThrottle;

pub struct AppState {
    /// The application layer: database, rule systems, background jobs.
    pub app: crate::app::Context,
    pub keys: Keys,
    pub secure_cookies: bool,
    /// `MUSTER_PUBLIC_URL`, without a trailing slash.
    pub public_url: Option<String>,
    pub trusted_proxy: Option<IpAddr>,
    pub throttle: LoginThrottle,
}

impl AppState {
    /// An absolute link to `path` for sharing: under `MUSTER_PUBLIC_URL` when it is set,
    /// otherwise under the address the request came in on.
    pub fn absolute_url(&self, req: &actix_web::HttpRequest, path: &str) -> String {
        match &self.public_url {
            Some(base) => format!("{base}{path}"),
            None => {
                let info = req.connection_info();
                format!("{}://{}{path}", info.scheme(), info.host())
            }
        }
    }
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
