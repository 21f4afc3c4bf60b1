//! Static files, compiled into the binary so `muster` runs from any directory. URLs carry a
//! content hash, so browsers may cache them for a year and still see every change.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::web::AppError;

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "muster.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/muster.css"),
    },
    Asset {
        name: "muster.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../static/muster.js"),
    },
    Asset {
        name: "favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../../static/favicon.svg"),
    },
    Asset {
        name: "print.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/print.css"),
    },
    Asset {
        name: "paper-a4.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/paper-a4.css"),
    },
    Asset {
        name: "paper-letter.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../static/paper-letter.css"),
    },
];

fn hashes() -> &'static Vec<String> {
    static HASHES: OnceLock<Vec<String>> = OnceLock::new();
    HASHES.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| {
                let digest = Sha256::digest(a.body);
                digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
            })
            .collect()
    })
}

/// The versioned URL of a static file, e.g. `/static/muster.css?v=1a2b3c4d5e6f`.
pub fn url(name: &str) -> String {
    match ASSETS.iter().position(|a| a.name == name) {
        Some(i) => format!("/static/{}?v={}", name, hashes()[i]),
        None => format!("/static/{name}"),
    }
}

pub async fn serve(req: HttpRequest, name: web::Path<String>) -> Result<HttpResponse, AppError> {
    let i = ASSETS
        .iter()
        .position(|a| a.name == name.as_str())
        .ok_or(AppError::NotFound)?;
    let (asset, hash) = (&ASSETS[i], &hashes()[i]);
    let etag = format!("\"{hash}\"");
    if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish());
    }
    let versioned = req
        .query_string()
        .split('&')
        .any(|p| p == format!("v={hash}"));
    let cache = if versioned {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    Ok(HttpResponse::Ok()
        .content_type(asset.content_type)
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, etag))
        .body(asset.body))
}
