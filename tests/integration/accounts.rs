//! Accounts through the pages, as a player would use them.

use crate::helpers::{location, spawn_app, PASSWORD};

#[tokio::test]
async fn register_see_account_log_out_and_log_in_again() {
    let app = spawn_app().await;

    let res = app.register("anne@example.org", "Anne", PASSWORD).await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/account?done=welcome");

    let account = app.get_html("/account?done=welcome").await;
    assert!(account.contains("Welcome to Muster"), "{account}");
    assert!(account.contains("anne@example.org"));
    assert!(account.contains(">Anne</a>"), "nav shows the display name");

    let res = app.logout().await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/login?done=logged_out");

    let res = app.get("/account").await;
    assert_eq!(res.status(), 303, "the account page needs a login");
    assert_eq!(location(&res), "/login?next=/account");

    let res = app.login("Anne@Example.org ", PASSWORD).await;
    assert_eq!(res.status(), 303);
    assert_eq!(
        location(&res),
        "/",
        "emails are matched without case or spaces"
    );
    assert_eq!(app.get("/account").await.status(), 200);
}

/// A form sent after the login ran out cannot be sent again by a redirect: the login returns the
/// player to the page the form was on (an address of this site only), not to the form's address,
/// which answers only POST.
#[tokio::test]
async fn a_form_sent_while_logged_out_returns_to_its_page_after_the_login() {
    let app = spawn_app().await;
    let token = crate::helpers::csrf_from(&app.get_html("/login").await);
    let send = |referer: Option<String>| {
        let mut req = app
            .client
            .post(app.url("/battles/5/confirm"))
            .form(&[("csrf_token", token.as_str())]);
        if let Some(r) = referer {
            req = req.header("Referer", r);
        }
        req.send()
    };
    let res = send(Some(app.url("/battles/5?tab=result")))
        .await
        .expect("POST");
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/login?next=/battles/5%3Ftab%3Dresult");
    let res = send(None).await.expect("POST");
    assert_eq!(location(&res), "/login?next=/battles/5", "one step up");
    let res = send(Some("https://evil.example/phish".into()))
        .await
        .expect("POST");
    assert_eq!(
        location(&res),
        "/login?next=/battles/5",
        "never another site"
    );
}

#[tokio::test]
async fn login_returns_to_the_page_that_asked_for_it_but_never_off_site() {
    let app = spawn_app().await;
    app.register("bob@example.org", "Bob", PASSWORD).await;
    app.logout().await;

    let page = app.get_html("/login?next=/account").await;
    assert!(page.contains("name=\"next\" value=\"/account\""));
    let res = app
        .post_form(
            "/login",
            "/login",
            &[
                ("email", "bob@example.org"),
                ("password", PASSWORD),
                ("next", "/account"),
            ],
        )
        .await;
    assert_eq!(location(&res), "/account");

    app.logout().await;
    let res = app
        .post_form(
            "/login",
            "/login",
            &[
                ("email", "bob@example.org"),
                ("password", PASSWORD),
                ("next", "//evil.example/"),
            ],
        )
        .await;
    assert_eq!(location(&res), "/");
    // Browsers drop a tab, which would turn "/<tab>/evil" into "//evil".
    let res = app.get("/login?next=/%09/evil.example").await;
    assert_eq!(
        location(&res),
        "/",
        "a signed-in visitor is sent home, not off-site"
    );
}

#[tokio::test]
async fn bad_registration_input_re_renders_the_form_with_messages_and_the_typed_values() {
    let app = spawn_app().await;
    let res = app.register("not-an-email", "Carl <b>", "short").await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Enter an email address like name@example.org."),
        "{html}"
    );
    assert!(html.contains("at least 10 characters"), "{html}");
    assert!(
        html.contains("value=\"not-an-email\""),
        "the email stays typed in"
    );
    assert!(
        html.contains("value=\"Carl &#60;b&#62;\"") || html.contains("value=\"Carl &lt;b&gt;\""),
        "escaped: {html}"
    );
    assert!(!html.contains("Carl <b>"), "never unescaped");

    let res = app.register("", "", "").await;
    assert_eq!(
        res.status(),
        422,
        "an empty form is a form error, not a crash"
    );
}

#[tokio::test]
async fn a_taken_email_is_a_field_error() {
    let app = spawn_app().await;
    app.register("dora@example.org", "Dora", PASSWORD).await;
    let other = app.other_visitor();
    let res = other.register("DORA@example.org", "Dora 2", PASSWORD).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("already exists"));
}

#[tokio::test]
async fn display_name_defaults_to_the_email_before_the_at_sign_and_can_be_changed() {
    let app = spawn_app().await;
    app.register("ezra.pound@example.org", "", PASSWORD).await;
    assert!(app.get_html("/account").await.contains(">ezra.pound</a>"));

    let res = app
        .post_form("/account", "/account/profile", &[("display_name", "  ")])
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("1 to 60 characters"));

    let res = app
        .post_form(
            "/account",
            "/account/profile",
            &[("display_name", "Colonel Ezra")],
        )
        .await;
    assert_eq!(location(&res), "/account?done=profile");
    assert!(app.get_html("/account").await.contains(">Colonel Ezra</a>"));
}

#[tokio::test]
async fn changing_the_password_logs_out_other_devices_but_not_this_one() {
    let app = spawn_app().await;
    app.register("fay@example.org", "Fay", PASSWORD).await;
    let laptop = app.other_visitor();
    laptop.login("fay@example.org", PASSWORD).await;
    assert_eq!(laptop.get("/account").await.status(), 200);

    let wrong = app
        .post_form(
            "/account",
            "/account/password",
            &[
                ("current_password", "not my password"),
                ("new_password", "a brand new password"),
                ("confirm_password", "a brand new password"),
            ],
        )
        .await;
    assert_eq!(wrong.status(), 422);
    assert!(wrong
        .text()
        .await
        .unwrap()
        .contains("not your current password"));

    let mismatch = app
        .post_form(
            "/account",
            "/account/password",
            &[
                ("current_password", PASSWORD),
                ("new_password", "a brand new password"),
                ("confirm_password", "a different password"),
            ],
        )
        .await;
    assert_eq!(mismatch.status(), 422);
    assert!(mismatch.text().await.unwrap().contains("differ"));

    let res = app
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
    assert_eq!(location(&res), "/account?done=password");
    assert_eq!(
        app.get("/account").await.status(),
        200,
        "this browser stays logged in"
    );
    assert_eq!(
        laptop.get("/account").await.status(),
        303,
        "the other device is logged out"
    );

    let again = app.other_visitor();
    assert_eq!(
        again.login("fay@example.org", PASSWORD).await.status(),
        401,
        "old password no longer works"
    );
    assert_eq!(
        location(&again.login("fay@example.org", "a brand new password").await),
        "/"
    );
}

#[tokio::test]
async fn login_failures_look_the_same_whether_or_not_the_email_exists() {
    let app = spawn_app().await;
    app.register("gus@example.org", "Gus", PASSWORD).await;
    app.logout().await;

    let wrong_password = app.login("gus@example.org", "wrong password!").await;
    let unknown_email = app.login("nobody@example.org", "wrong password!").await;
    assert_eq!(wrong_password.status(), 401);
    assert_eq!(unknown_email.status(), 401);
    let a = wrong_password.text().await.unwrap();
    let b = unknown_email.text().await.unwrap();
    let msg = "That email and password do not match an active account.";
    assert!(a.contains(msg) && b.contains(msg));
    assert!(
        a.contains("value=\"gus@example.org\""),
        "the email stays typed in"
    );
}

#[tokio::test]
async fn repeated_login_failures_are_throttled_per_account() {
    let app = spawn_app().await;
    app.register("hal@example.org", "Hal", PASSWORD).await;
    app.logout().await;
    for _ in 0..5 {
        assert_eq!(
            app.login("hal@example.org", "wrong password!")
                .await
                .status(),
            401
        );
    }
    let res = app.login("hal@example.org", PASSWORD).await;
    assert_eq!(
        res.status(),
        429,
        "even the right password waits once the limit is reached"
    );
    assert!(res.headers().get("retry-after").is_some());
    let text = res.text().await.unwrap();
    assert!(text.contains("Too many attempts"));
    // The wait in words ("about 15 minutes" in production; this test's window is seconds long).
    assert!(
        text.contains("Try again in ") && !text.contains("Wait "),
        "{text}"
    );
    // Another account from the same address is not locked out by Hal's failures.
    app.other_visitor()
        .register("ivy@example.org", "Ivy", PASSWORD)
        .await;
    let ivy = app.other_visitor();
    assert_eq!(ivy.login("ivy@example.org", PASSWORD).await.status(), 303);
}

/// A blank email with the optional display name left empty is told about the email only, not
/// asked for a name the form says may be left empty; the campaign form gives its real sizes.
#[tokio::test]
async fn a_blank_email_is_the_only_problem_named_and_forms_state_their_ranges() {
    let app = crate::helpers::spawn_app().await;
    let res = app.register("", "", crate::helpers::PASSWORD).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains(r#"id="email-error""#),
        "the email is asked for"
    );
    assert!(
        !html.contains("Give a display name"),
        "the optional name is not asked for"
    );
    app.register("sizes@example.org", "", crate::helpers::PASSWORD)
        .await;
    let page = app.get_html("/campaigns").await;
    assert!(
        page.contains(r#"name="points" type="number" min="50" max="2000""#)
            && page.contains("Battle size (50 to 2000 points)"),
        "the battle size field has the bounds the server checks"
    );
}

/// The home page speaks of every rule system Muster serves, and its Print and Odds cards lead to
/// each system's own sheet and calculator.
#[tokio::test]
async fn the_home_page_names_every_served_system() {
    let app = spawn_app().await;
    let home = app.get_html("/").await;
    for link in [
        r#"href="/lotf/odds""#,
        r#"href="/lod/odds""#,
        r#"href="/lotf/reference""#,
        r#"href="/lod/reference""#,
    ] {
        assert!(home.contains(link), "{link} in {home}");
    }
    assert!(
        home.contains("Liberty or Death!") && !home.contains("supported first"),
        "{home}"
    );
}
