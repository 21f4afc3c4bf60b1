//! CSRF, security headers, error pages and static files.

use crate::helpers::{csrf_from, spawn_app, PASSWORD};

#[tokio::test]
async fn a_form_without_its_csrf_token_is_refused_with_a_403_page() {
    let app = spawn_app().await;
    app.get("/register").await; // the browser has a CSRF cookie, but the form lacks the token
    let res = app
        .client
        .post(app.url("/register"))
        .form(&[("email", "mallory@example.org"), ("password", PASSWORD)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = res.text().await.unwrap();
    assert!(
        html.contains("This form has expired or did not come from Muster"),
        "{html}"
    );
    assert!(
        html.contains("class=\"site-header\""),
        "the error page has the site's layout"
    );

    // Nothing was created: the account does not exist.
    assert_eq!(
        app.other_visitor()
            .login("mallory@example.org", PASSWORD)
            .await
            .status(),
        401
    );
}

#[tokio::test]
async fn a_token_from_another_visitor_does_not_work() {
    let app = spawn_app().await;
    let attacker = app.other_visitor();
    let stolen = csrf_from(&attacker.get_html("/register").await);
    app.get("/register").await;
    let res = app
        .client
        .post(app.url("/register"))
        .form(&[
            ("email", "victim@example.org"),
            ("password", PASSWORD),
            ("csrf_token", &stolen),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
}

#[tokio::test]
async fn logging_out_needs_the_token_too() {
    let app = spawn_app().await;
    app.register("jo@example.org", "Jo", PASSWORD).await;
    let res = app.client.post(app.url("/logout")).send().await.unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(app.get("/account").await.status(), 200, "still logged in");
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/login",
        "/no-such-page",
        "/static/muster.css",
        "/api/v1/openapi.json",
        "/healthz",
    ] {
        let res = app.get(path).await;
        let h = res.headers();
        let csp = h
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("CSP on {path}"))
            .to_str()
            .unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert!(h.get("referrer-policy").is_some(), "{path}");
    }
}

#[tokio::test]
async fn pages_have_no_inline_scripts_or_styles() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/login",
        "/register",
        "/no-such-page",
        "/lotf/odds?calc=shooting",
        "/lotf/reference",
    ] {
        let html = app.get_html(path).await;
        assert!(
            !html.contains("<script>") && !html.contains("<style"),
            "{path}"
        );
        assert!(!html.contains(" style=\""), "{path} has an inline style");
        assert!(!html.contains(" onclick="), "{path} has an inline handler");
    }
}

#[tokio::test]
async fn unknown_pages_get_a_404_page_and_unknown_api_paths_the_json_shape() {
    let app = spawn_app().await;
    let res = app.get("/no/such/page").await;
    assert_eq!(res.status(), 404);
    let html = res.text().await.unwrap();
    assert!(html.contains("Page not found") && html.contains("Go to the home page"));

    let res = app.get("/api/v1/no-such-thing").await;
    assert_eq!(res.status(), 404);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["error"]["code"], "not_found");
    assert!(body["error"]["message"].as_str().unwrap().len() > 5);
    assert!(body["error"]["details"].is_array());
}

#[tokio::test]
async fn a_wrong_method_is_a_405_in_the_site_style() {
    let app = spawn_app().await;
    let res = app.client.delete(app.url("/login")).send().await.unwrap();
    assert_eq!(res.status(), 405);
    assert!(res.text().await.unwrap().contains("class=\"site-header\""));
}

#[tokio::test]
async fn static_files_are_cached_by_content_hash() {
    let app = spawn_app().await;
    let home = app.get_html("/").await;
    let start = home
        .find("/static/muster.css?v=")
        .expect("versioned stylesheet link");
    let href = &home[start..start + home[start..].find('"').unwrap()];
    let res = app.get(href).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/css"));
    assert!(res.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    assert!(
        res.headers().get("set-cookie").is_none(),
        "static files set no cookies"
    );
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(app.url(href))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(app.get("/static/secret.txt").await.status(), 404);
}

#[tokio::test]
async fn session_and_csrf_cookies_are_http_only_and_same_site() {
    let app = spawn_app().await;
    let res = app.register("kim@example.org", "Kim", PASSWORD).await;
    let cookies: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let session = cookies
        .iter()
        .find(|c| c.starts_with("muster_session="))
        .expect("session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(session.contains("Max-Age="), "sessions expire: {session}");
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("muster_csrf=") && c.contains("HttpOnly")));
}

#[tokio::test]
async fn health_check_reports_the_database() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    let expected = if app.db.is_postgres() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    assert_eq!(body["database"], expected);
}

fn set_cookie(res: &reqwest::Response, name: &str) -> String {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| {
            c.strip_prefix(&format!("{name}="))
                .map(|rest| rest.split(';').next().unwrap_or("").to_string())
        })
        .unwrap_or_else(|| panic!("no {name} cookie set"))
}

#[tokio::test]
async fn a_csrf_cookie_planted_by_someone_else_does_not_let_them_forge_a_logged_in_form() {
    let app = spawn_app().await;
    let victim = app.register("victim@example.org", "Victim", PASSWORD).await;
    let session = set_cookie(&victim, "muster_session");

    // The attacker's own nonce and the token that goes with it, as an anonymous visitor.
    let attacker = reqwest::Client::new();
    let page = attacker.get(app.url("/register")).send().await.unwrap();
    let nonce = set_cookie(&page, "muster_csrf");
    let token = csrf_from(&page.text().await.unwrap());

    // Suppose the attacker managed to plant that nonce in the victim's browser.
    let forged = reqwest::Client::new()
        .post(app.url("/account/profile"))
        .header(
            "cookie",
            format!("muster_session={session}; muster_csrf={nonce}"),
        )
        .form(&[("display_name", "Pwned"), ("csrf_token", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(
        forged.status(),
        403,
        "the token is bound to the victim's session"
    );
    assert!(app.get_html("/account").await.contains(">Victim</a>"));
}
