//! The JSON API: tokens, the error shape, revocation.

use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::helpers::{csrf_from, spawn_app, PASSWORD, TEST_SECRET};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

async fn me(app: &crate::helpers::TestApp, token: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(app.url("/api/v1/me"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn register_get_a_token_and_read_the_account() {
    let app = spawn_app().await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/users"))
        .json(&json!({"email": "api@example.org", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let user: Value = res.json().await.unwrap();
    assert_eq!(user["display_name"], "api");

    let res = reqwest::Client::new()
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"email": "api@example.org", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let expires = body["expires_at"].as_str().unwrap();
    let expires = chrono::DateTime::parse_from_rfc3339(expires).expect("RFC 3339 expiry");
    assert!(expires > chrono::Utc::now() + chrono::Duration::days(29));
    let token = body["token"].as_str().unwrap();

    let res = me(&app, token).await;
    assert_eq!(res.status(), 200);
    let me_json: Value = res.json().await.unwrap();
    assert_eq!(me_json["email"], "api@example.org");

    let res = reqwest::Client::new()
        .patch(app.url("/api/v1/me"))
        .bearer_auth(token)
        .json(&json!({"display_name": "Major API"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.unwrap()["display_name"],
        "Major API"
    );
}

#[tokio::test]
async fn invalid_input_gets_the_json_error_shape_with_details() {
    let app = spawn_app().await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/users"))
        .json(&json!({"email": "nope", "password": "short"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "validation_failed");
    let fields: Vec<&str> = body["error"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["email", "password"]);

    let res = reqwest::Client::new()
        .post(app.url("/api/v1/auth/token"))
        .header("content-type", "application/json")
        .body("{\"email\": \"a@b.c\",\n \"password\": }")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_request");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 2"),
        "{body}"
    );
}

#[tokio::test]
async fn wrong_credentials_are_401_and_do_not_say_whether_the_email_exists() {
    let app = spawn_app().await;
    app.api_user("known@example.org").await;
    let mut messages = Vec::new();
    for email in ["known@example.org", "unknown@example.org"] {
        let res = reqwest::Client::new()
            .post(app.url("/api/v1/auth/token"))
            .json(&json!({"email": email, "password": "wrong password!"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 401);
        messages.push(res.json::<Value>().await.unwrap()["error"].clone());
    }
    assert_eq!(messages[0], messages[1]);
}

#[tokio::test]
async fn a_tampered_token_is_refused() {
    let app = spawn_app().await;
    let token = app.api_user("tamper@example.org").await;
    let mut parts: Vec<String> = token.split('.').map(String::from).collect();
    // Claim to be user 2 with the original signature.
    let mut claims: Value = serde_json::from_slice(&B64.decode(&parts[1]).unwrap()).unwrap();
    claims["sub"] = json!("2");
    parts[1] = B64.encode(serde_json::to_vec(&claims).unwrap());
    let forged = parts.join(".");
    let res = me(&app, &forged).await;
    assert_eq!(res.status(), 401);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"]["code"],
        "unauthenticated"
    );
    assert_eq!(me(&app, "not-a-token").await.status(), 401);
    assert_eq!(
        me(&app, &token).await.status(),
        200,
        "the genuine token still works"
    );
}

/// Signs claims the way the server does, to make a token whose only fault is its expiry.
fn sign(claims: &Value) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(TEST_SECRET.as_bytes()).unwrap();
    mac.update(b"muster jwt v1");
    let key = mac.finalize().into_bytes();
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        claims,
        &jsonwebtoken::EncodingKey::from_secret(&key),
    )
    .unwrap()
}

#[tokio::test]
async fn an_expired_token_is_refused_even_with_a_good_signature() {
    let app = spawn_app().await;
    let token = app.api_user("old@example.org").await;
    let mut claims: Value =
        serde_json::from_slice(&B64.decode(token.split('.').nth(1).unwrap()).unwrap()).unwrap();
    // Re-signing the same claims is accepted: the check below is about expiry alone.
    assert_eq!(me(&app, &sign(&claims)).await.status(), 200);
    claims["exp"] = json!(chrono::Utc::now().timestamp() - 10);
    assert_eq!(me(&app, &sign(&claims)).await.status(), 401);
}

#[tokio::test]
async fn a_revoked_token_is_refused() {
    let app = spawn_app().await;
    let token = app.api_user("revoke@example.org").await;
    let other = app.api_token("revoke@example.org", PASSWORD).await;
    let res = reqwest::Client::new()
        .delete(app.url("/api/v1/auth/token"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(me(&app, &token).await.status(), 401);
    assert_eq!(
        me(&app, &other).await.status(),
        200,
        "only the token used was revoked"
    );
}

#[tokio::test]
async fn changing_the_password_revokes_every_token() {
    let app = spawn_app().await;
    let token = app.api_user("change@example.org").await;
    let second = app.api_token("change@example.org", PASSWORD).await;
    let res = reqwest::Client::new()
        .put(app.url("/api/v1/me/password"))
        .bearer_auth(&token)
        .json(&json!({"current_password": "wrong one!!", "new_password": "another long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    assert_eq!(
        me(&app, &token).await.status(),
        200,
        "a refused change revokes nothing"
    );

    let res = reqwest::Client::new()
        .put(app.url("/api/v1/me/password"))
        .bearer_auth(&token)
        .json(&json!({"current_password": PASSWORD, "new_password": "another long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(me(&app, &token).await.status(), 401);
    assert_eq!(me(&app, &second).await.status(), 401);
    app.api_token("change@example.org", "another long password")
        .await;
}

#[tokio::test]
async fn the_session_cookie_works_on_the_api_only_with_the_csrf_header() {
    let app = spawn_app().await;
    app.register("cookie@example.org", "Cookie", PASSWORD).await;
    let res = app.client.get(app.url("/api/v1/me")).send().await.unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        res.json::<Value>().await.unwrap()["error"]["code"],
        "csrf_rejected"
    );

    let token = csrf_from(&app.get_html("/account").await);
    let res = app
        .client
        .get(app.url("/api/v1/me"))
        .header("x-csrf-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.unwrap()["email"],
        "cookie@example.org"
    );

    let res = app
        .client
        .get(app.url("/api/v1/me"))
        .header("x-csrf-token", "forged")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

#[tokio::test]
async fn anonymous_api_calls_get_401() {
    let app = spawn_app().await;
    let res = reqwest::Client::new()
        .get(app.url("/api/v1/me"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let res = reqwest::Client::new()
        .get(app.url("/api/v1/admin/users"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn admin_endpoints_need_the_admin_role() {
    let app = spawn_app().await;
    let player = app.api_user("p@example.org").await;
    let admin = app.api_user("a@example.org").await;
    app.make_admin("a@example.org");
    let res = reqwest::Client::new()
        .get(app.url("/api/v1/admin/users"))
        .bearer_auth(&player)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = reqwest::Client::new()
        .get(app.url("/api/v1/admin/users"))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let users: Value = res.json().await.unwrap();
    let p = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == "p@example.org")
        .unwrap();
    let id = p["id"].as_i64().unwrap();
    let res = reqwest::Client::new()
        .post(app.url(&format!("/api/v1/admin/users/{id}/disable")))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["disabled"], true);
    assert_eq!(me(&app, &player).await.status(), 401);
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/admin/users/999999/disable"))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
}
