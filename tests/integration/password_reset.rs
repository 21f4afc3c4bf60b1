//! Password reset by e-mail through a real SMTP listener: the same answer for every address,
//! a single-use link that expires, every other session ended; throttled; and without SMTP the
//! login page says to ask the administrator, as before.

use diesel::prelude::*;

use crate::helpers::{client, location, spawn_app, spawn_server, TestDb, Visitor, PASSWORD};
use crate::mail_sink::SmtpSink;

const NEW_PASSWORD: &str = "a brand new password";

fn visitor(address: &str) -> Visitor {
    Visitor {
        address: address.to_string(),
        client: client(),
    }
}

async fn ask(v: &Visitor, email: &str) -> reqwest::Response {
    v.post_form("/password/forgot", "/password/forgot", &[("email", email)])
        .await
}

#[tokio::test]
async fn a_reset_link_arrives_works_once_and_logs_out_every_other_session() {
    let sink = SmtpSink::start();
    let db = TestDb::create();
    let (app, _data) = spawn_server(
        db.url(),
        &[
            ("MUSTER_SMTP_URL", &sink.url()),
            ("MUSTER_MAIL_FROM", "muster@club.test"),
        ],
    )
    .await;
    app.register("howe@example.org", "Howe", PASSWORD).await;
    // Another device stays logged in until the reset.
    let laptop = visitor(&app.address);
    assert_eq!(
        laptop.login("howe@example.org", PASSWORD).await.status(),
        303
    );
    let token = app.api_token("howe@example.org", PASSWORD).await;

    let stranger = visitor(&app.address);
    let login = stranger.get_html("/login").await;
    assert!(login.contains("href=\"/password/forgot\""), "{login}");
    assert!(!login.contains("Ask your club"), "{login}");

    // The same answer whether or not the address has an account.
    let known = ask(&stranger, "howe@example.org").await;
    assert_eq!(known.status(), 200);
    let known = known.text().await.unwrap();
    let unknown = ask(&stranger, "nobody@example.org").await;
    assert_eq!(unknown.status(), 200);
    let unknown = unknown.text().await.unwrap();
    let answer = |html: &str, email: &str| html.replace(email, "EMAIL");
    assert_eq!(
        answer(&known, "howe@example.org")
            .split("<main")
            .nth(1)
            .map(|m| m.split("</main>").next().unwrap_or("").to_string()),
        answer(&unknown, "nobody@example.org")
            .split("<main")
            .nth(1)
            .map(|m| m.split("</main>").next().unwrap_or("").to_string()),
    );
    assert!(known.contains("on its way"), "{known}");

    let mail = sink
        .wait_for("howe@example.org", "Reset your Muster password")
        .await;
    let link = mail
        .link(&format!("{}/password/reset/", app.address))
        .expect("a reset link");
    let path = link.trim_start_matches(&app.address).to_string();
    assert!(sink.find("nobody@example.org", "").is_none());

    // The link's page; a wrong entry keeps the link usable.
    let page = stranger.get(&path).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Choose a new password"));
    let res = stranger
        .post_form(
            &path,
            &path,
            &[("new_password", "short"), ("confirm_password", "short")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("at least 10 characters"));
    let res = stranger
        .post_form(
            &path,
            &path,
            &[
                ("new_password", NEW_PASSWORD),
                ("confirm_password", NEW_PASSWORD),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/login?done=reset");

    // Every session ended: the browser, the laptop and the API token.
    assert_eq!(app.get("/account").await.status(), 303);
    assert_eq!(laptop.get("/account").await.status(), 303);
    let me = reqwest::Client::new()
        .get(app.url("/api/v1/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 401);
    // The new password works, the old one does not.
    assert_eq!(
        stranger.login("howe@example.org", PASSWORD).await.status(),
        401
    );
    assert_eq!(
        stranger
            .login("howe@example.org", NEW_PASSWORD)
            .await
            .status(),
        303
    );

    // A second use is refused.
    let again = visitor(&app.address);
    let res = again.get(&path).await;
    assert_eq!(res.status(), 410);
    assert!(res.text().await.unwrap().contains("used or has expired"));
    let res = again
        .post_form(
            "/password/forgot",
            &path,
            &[
                ("new_password", "yet another password"),
                ("confirm_password", "yet another password"),
            ],
        )
        .await;
    assert_eq!(res.status(), 410);
    assert_eq!(
        again
            .login("howe@example.org", "yet another password")
            .await
            .status(),
        401
    );

    // An expired link is refused.
    let mails_before = sink.count();
    assert_eq!(ask(&again, "howe@example.org").await.status(), 200);
    let start = std::time::Instant::now();
    while sink.count() == mails_before {
        assert!(start.elapsed().as_secs() < 15, "no second reset mail");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let second = sink.mails.lock().unwrap().last().cloned().unwrap();
    let second_path = second
        .link(&format!("{}/password/reset/", app.address))
        .unwrap()
        .trim_start_matches(&app.address)
        .to_string();
    assert_ne!(second_path, path, "a fresh token");
    {
        use muster::store::schema::password_resets::dsl as r;
        let pool =
            muster::store::connect(&muster::config::DatabaseConfig::parse(db.url()).unwrap(), 1)
                .unwrap();
        let mut conn = pool.get().unwrap();
        let past = chrono::Utc::now().naive_utc() - chrono::TimeDelta::hours(2);
        diesel::update(r::password_resets.filter(r::used_at.is_null()))
            .set(r::expires_at.eq(past))
            .execute(&mut conn)
            .unwrap();
        let stored: Vec<String> = r::password_resets
            .select(r::token_hash)
            .load(&mut conn)
            .unwrap();
        let raw = second_path.trim_start_matches("/password/reset/");
        assert!(
            stored.iter().all(|h| !h.contains(raw)),
            "only the token's hash is stored"
        );
    }
    assert_eq!(again.get(&second_path).await.status(), 410);
}

#[tokio::test]
async fn reset_requests_are_throttled() {
    let sink = SmtpSink::start();
    let db = TestDb::create();
    let (app, _data) = spawn_server(
        db.url(),
        &[
            ("MUSTER_SMTP_URL", &sink.url()),
            ("MUSTER_MAIL_FROM", "muster@club.test"),
        ],
    )
    .await;
    for _ in 0..3 {
        assert_eq!(ask(&app, "someone@example.org").await.status(), 200);
    }
    let res = ask(&app, "someone@example.org").await;
    assert_eq!(res.status(), 429);
    assert!(res.headers().get("retry-after").is_some());
}

#[tokio::test]
async fn without_smtp_the_login_page_says_to_ask_the_administrator() {
    let app = spawn_app().await;
    let login = app.get_html("/login").await;
    assert!(
        login.contains("Ask your club's Muster administrator"),
        "{login}"
    );
    assert!(!login.contains("/password/forgot"));
    let page = app.get_html("/password/forgot").await;
    assert!(page.contains("does not send e-mail"), "{page}");
    app.register("howe@example.org", "Howe", PASSWORD).await;
    app.logout().await;
    let res = ask(&app, "howe@example.org").await;
    assert_eq!(res.status(), 409);
    let count: i64 = {
        use muster::store::schema::password_resets::dsl as r;
        let pool = app.pool();
        let mut conn = pool.get().unwrap();
        r::password_resets.count().get_result(&mut conn).unwrap()
    };
    assert_eq!(count, 0, "no link made");
}
