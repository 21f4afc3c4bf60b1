//! The admin role and page.

use crate::helpers::{location, spawn_app, PASSWORD};

#[tokio::test]
async fn only_admins_see_the_admin_page() {
    let app = spawn_app().await;
    let res = app.get("/admin/users").await;
    assert_eq!(res.status(), 303);
    assert!(location(&res).starts_with("/login?next=/admin/users"));

    app.register("player@example.org", "Player", PASSWORD).await;
    let res = app.get("/admin/users").await;
    assert_eq!(res.status(), 403);
    assert!(res.text().await.unwrap().contains("for administrators"));
}

#[tokio::test]
async fn an_admin_can_disable_an_account_which_then_cannot_log_in() {
    let app = spawn_app().await;
    app.register("boss@example.org", "Boss", PASSWORD).await;
    app.make_admin("boss@example.org");

    let player = app.other_visitor();
    player
        .register("trouble@example.org", "Trouble", PASSWORD)
        .await;
    assert_eq!(player.get("/account").await.status(), 200);
    let token = app.api_token("trouble@example.org", PASSWORD).await;

    let page = app.get_html("/admin/users").await;
    assert!(page.contains("trouble@example.org") && page.contains("boss@example.org"));
    assert!(page.contains(">Admin</a>"), "admins see the Admin link");
    assert!(
        page.contains("data-confirm=\"Disable trouble@example.org? They are logged out everywhere"),
        "disabling a player asks first: {page}"
    );

    let pool = app.pool();
    let id = {
        let mut conn = pool.get().unwrap();
        muster::store::users::find_by_email(&mut conn, "trouble@example.org")
            .unwrap()
            .unwrap()
            .id
    };
    let res = app
        .post_form("/admin/users", &format!("/admin/users/{id}/disable"), &[])
        .await;
    assert_eq!(location(&res), "/admin/users?done=disabled");
    assert!(app.get_html("/admin/users").await.contains("Disabled"));

    assert_eq!(
        player.get("/account").await.status(),
        303,
        "the disabled player's session ended"
    );
    let me = reqwest::Client::new()
        .get(app.url("/api/v1/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 401, "and their API token");
    let again = app.other_visitor();
    let res = again.login("trouble@example.org", PASSWORD).await;
    assert_eq!(res.status(), 401);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("do not match an active account"));

    let res = app
        .post_form("/admin/users", &format!("/admin/users/{id}/enable"), &[])
        .await;
    assert_eq!(location(&res), "/admin/users?done=enabled");
    assert_eq!(
        again.login("trouble@example.org", PASSWORD).await.status(),
        303
    );
}

#[tokio::test]
async fn an_admin_cannot_disable_themselves() {
    let app = spawn_app().await;
    app.register("solo@example.org", "Solo", PASSWORD).await;
    app.make_admin("solo@example.org");
    let pool = app.pool();
    let id = {
        let mut conn = pool.get().unwrap();
        muster::store::users::find_by_email(&mut conn, "solo@example.org")
            .unwrap()
            .unwrap()
            .id
    };
    let res = app
        .post_form("/admin/users", &format!("/admin/users/{id}/disable"), &[])
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(app.get("/account").await.status(), 200);
}
