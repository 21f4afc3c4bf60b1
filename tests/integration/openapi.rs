//! The OpenAPI document describes every API route, and every route it names exists.

use serde_json::Value;

use crate::helpers::spawn_app;

#[tokio::test]
async fn every_api_operation_has_a_summary_and_a_description_and_exists() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.contains_key("/api/v1/auth/token") && paths.contains_key("/healthz"));
    let mut checked = 0;
    for (path, ops) in paths {
        for (method, op) in ops.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or("");
            let description = op["description"].as_str().unwrap_or("");
            assert!(!summary.trim().is_empty(), "{method} {path} has no summary");
            assert!(
                !description.trim().is_empty(),
                "{method} {path} has no description"
            );
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path} documents no responses"
            );

            // An id that exists where ids are fixed data; a missing account answers 401 first.
            let example_id = if path.contains("historical") {
                "brandywine"
            } else {
                "1"
            };
            let concrete = path.replace("{id}", example_id);
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let res = reqwest::Client::new()
                .request(method.clone(), app.url(&concrete))
                .send()
                .await
                .unwrap();
            assert!(
                res.status() != 404 && res.status() != 405,
                "{method} {path} is documented but not served ({})",
                res.status()
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} operations documented");
}

/// API routes must be registered through `utoipa_actix_web` (which documents them); a plain
/// `.route("/api/...")` would bypass the document. The only exception is the document itself.
#[test]
fn no_api_route_is_registered_outside_the_documented_registration() {
    let server_rs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/web/server.rs")).unwrap();
    let manual: Vec<&str> = server_rs
        .lines()
        .filter(|l| l.contains("\"/api/") || l.contains("\"/healthz"))
        .filter(|l| !l.contains("/api/v1/openapi.json"))
        .collect();
    assert!(manual.is_empty(), "undocumented API routes: {manual:?}");
}
