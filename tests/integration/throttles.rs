//! Login, registration and password-change throttles: successes never count, an account is
//! slowed rather than locked, two servers on one database share the counts, and password
//! changes are limited with 429 and Retry-After.

use std::time::Duration;

use serde_json::json;

use crate::helpers::{client, spawn_app, TestApp, Visitor, PASSWORD};

async fn token_status(v: &Visitor, email: &str, password: &str) -> reqwest::Response {
    v.client
        .post(v.url("/api/v1/auth/token"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .expect("token request")
}

fn retry_after(res: &reqwest::Response) -> u64 {
    res.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds")
}

/// A second server on the same database, as a second machine behind a load balancer would be.
fn second_server(app: &TestApp) -> Visitor {
    let server = muster::web::Application::build(&app.config).expect("the second server starts");
    let address = format!("http://127.0.0.1:{}", server.port());
    tokio::spawn(server.run_until_stopped());
    Visitor {
        address,
        client: client(),
    }
}

#[tokio::test]
async fn forty_successful_logins_from_one_address_are_never_refused() {
    let app = spawn_app().await;
    for n in 0..4 {
        app.other_visitor()
            .register(
                &format!("member{n}@example.org"),
                &format!("Member {n}"),
                PASSWORD,
            )
            .await;
    }
    // A club night: everyone behind the club's one address logs in, again and again.
    for i in 0..40 {
        let email = format!("member{}@example.org", i % 4);
        let res = token_status(&app, &email, PASSWORD).await;
        assert_eq!(res.status(), 200, "login {i} of {email}");
    }
    // A page login too, after all of them.
    assert_eq!(
        app.other_visitor()
            .login("member0@example.org", PASSWORD)
            .await
            .status(),
        303
    );
}

#[tokio::test]
async fn failures_slow_an_account_down_but_its_owner_gets_in_after_the_wait() {
    let app = spawn_app().await;
    app.other_visitor()
        .register("hal@example.org", "Hal", PASSWORD)
        .await;
    for _ in 0..5 {
        let res = token_status(&app, "hal@example.org", "wrong password!").await;
        assert_eq!(res.status(), 401);
    }
    let res = token_status(&app, "hal@example.org", PASSWORD).await;
    assert_eq!(res.status(), 429, "the next try waits a little");
    let wait = retry_after(&res);
    assert!(
        (1..=2).contains(&wait),
        "a short first wait, not a lockout: {wait}"
    );
    tokio::time::sleep(Duration::from_secs(wait) + Duration::from_millis(200)).await;
    let res = token_status(&app, "hal@example.org", PASSWORD).await;
    assert_eq!(
        res.status(),
        200,
        "the right password gets in after the wait"
    );
    // The other accounts behind the same address were never affected.
    app.other_visitor()
        .register("ivy@example.org", "Ivy", PASSWORD)
        .await;
    assert_eq!(
        token_status(&app, "ivy@example.org", PASSWORD)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn parallel_guesses_get_no_more_tries_than_the_limit() {
    let app = spawn_app().await;
    app.other_visitor()
        .register("kim@example.org", "Kim", PASSWORD)
        .await;
    let guesses: Vec<_> = (0..12)
        .map(|i| {
            let v = app.other_visitor();
            tokio::spawn(async move {
                token_status(&v, "kim@example.org", &format!("guess number {i}"))
                    .await
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for g in guesses {
        statuses.push(g.await.expect("guess"));
    }
    let tried = statuses.iter().filter(|s| **s == 401).count();
    let waited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(tried + waited, 12, "{statuses:?}");
    assert!(
        tried <= 5,
        "at most five guesses were checked: {statuses:?}"
    );
}

#[tokio::test]
async fn two_servers_on_one_database_share_the_throttle() {
    let app = spawn_app().await;
    let other = second_server(&app);
    app.other_visitor()
        .register("jo@example.org", "Jo", PASSWORD)
        .await;
    for _ in 0..5 {
        assert_eq!(
            token_status(&app, "jo@example.org", "wrong password!")
                .await
                .status(),
            401
        );
    }
    let res = token_status(&other, "jo@example.org", "wrong password!").await;
    assert_eq!(
        res.status(),
        429,
        "the second server knows of the first one's failures"
    );
    assert!(retry_after(&res) >= 1);
    // And a success on the second server is usable on the first.
    let wait = retry_after(&res);
    tokio::time::sleep(Duration::from_secs(wait) + Duration::from_millis(200)).await;
    assert_eq!(
        token_status(&other, "jo@example.org", PASSWORD)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn password_changes_are_throttled_per_account() {
    let app = spawn_app().await;
    let token = app.api_user("pat@example.org").await;
    let change = |current: &'static str| {
        app.client
            .put(app.url("/api/v1/me/password"))
            .bearer_auth(&token)
            .json(&json!({"current_password": current, "new_password": "a brand new password"}))
            .send()
    };
    for i in 0..5 {
        let res = change("not the password").await.expect("change");
        assert_eq!(res.status(), 422, "attempt {i} is checked");
    }
    let res = change("not the password").await.expect("change");
    assert_eq!(res.status(), 429);
    assert!(retry_after(&res) > 60, "wait for the window to pass");
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body["error"]["code"], "too_many_requests");
    // The page form is limited by the same count.
    let v = app.other_visitor();
    v.login("pat@example.org", PASSWORD).await;
    let res = v
        .post_form(
            "/account",
            "/account/password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "a brand new password"),
                ("confirm_password", "a brand new password"),
            ],
        )
        .await;
    assert_eq!(res.status(), 429);
    assert!(retry_after(&res) > 60);
}
