//! Notifications over HTTP: the inbox and its badge, e-mail through a real SMTP listener
//! (respecting each player's choices, with one-click unsubscribe), nothing sent without SMTP
//! settings, a campaign's turn told to its players and posted to its webhook without orders,
//! and who may use which route.

use std::time::Duration;

use diesel::prelude::*;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{
    accept_invitation, client, csrf_from, location, spawn_app, spawn_server, TestDb, Visitor,
    PASSWORD,
};
use crate::mail_sink::{SmtpSink, WebhookSink};

const FROM: &str = "Muster <muster@club.test>";

fn roster(name: &str, nation: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": nation,
           "points_limit": 150, "force_commander": {"name": format!("{name} general")},
           "groups": [
             {"name": "Left", "commander": {"name": format!("{name} left")}, "elements": [
               {"name": format!("{name} 1st"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 2nd"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 3rd"), "type": "infantry", "size": "medium"}]},
             {"name": "Right", "commander": {"name": format!("{name} right")}, "elements": [
               {"name": format!("{name} 4th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 5th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 6th"), "type": "infantry", "size": "medium"}]}]})
}

fn visitor(address: &str) -> Visitor {
    Visitor {
        address: address.to_string(),
        client: client(),
    }
}

async fn create_roster(v: &Visitor, token: &str, name: &str, nation: &str) -> i64 {
    let res = reqwest::Client::new()
        .post(v.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&roster(name, nation))
        .send()
        .await
        .unwrap();
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// Howe sets up a battle against Washington (who accepts) and records a result from the
/// table: Washington's to confirm. Answers the battle's id.
async fn recorded_battle(howe: &Visitor, token: &str, washington: &Visitor) -> i64 {
    let (a, d) = (
        create_roster(howe, token, "Crown", "british").await,
        create_roster(howe, token, "Congress", "british").await,
    );
    let res = howe
        .post_form(
            "/battles",
            "/battles",
            &[
                ("first", &format!("r:{a}")),
                ("second", &format!("r:{d}")),
                ("first_player", ""),
                ("second_player", "washington@example.org"),
                ("scenario", "reconnoiter"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    let id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    accept_invitation(washington, id).await;
    let form = howe.get_html(&format!("/battles/{id}/record")).await;
    let mut fields = vec![("turns".to_string(), "6".to_string())];
    for (i, _) in form.match_indices("name=\"state_") {
        let rest = &form[i + "name=\"".len()..];
        let key = &rest[..rest.find('"').unwrap()];
        fields.push((key.to_string(), "fit".to_string()));
    }
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(&form)));
    let res = howe
        .client
        .post(howe.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303, "result recorded");
    id
}

/// The outbox's rows, straight from the database.
fn outbox(db_url: &str) -> Vec<(String, String)> {
    use muster::store::schema::outbox::dsl as o;
    let db = muster::config::DatabaseConfig::parse(db_url).unwrap();
    let pool = muster::store::connect(&db, 1).unwrap();
    let mut conn = pool.get().unwrap();
    o::outbox
        .select((o::channel, o::target))
        .order(o::id)
        .load(&mut conn)
        .unwrap()
}

fn badge(html: &str) -> String {
    let at = html.find("class=\"nav-inbox\"").expect("the inbox link");
    let rest = &html[at..];
    let label = rest.find("aria-label=\"").expect("a label") + "aria-label=\"".len();
    rest[label..label + rest[label..].find('"').unwrap()].to_string()
}

#[tokio::test]
async fn a_recorded_result_reaches_the_opponent_by_inbox_and_by_mail_as_they_choose() {
    let sink = SmtpSink::start();
    let db = TestDb::create();
    let (howe, _data) = spawn_server(
        db.url(),
        &[("MUSTER_SMTP_URL", &sink.url()), ("MUSTER_MAIL_FROM", FROM)],
    )
    .await;
    howe.register("howe@example.org", "Howe", PASSWORD).await;
    let token = howe.api_token("howe@example.org", PASSWORD).await;
    let washington = visitor(&howe.address);
    washington
        .register("washington@example.org", "Washington", PASSWORD)
        .await;
    let empty = washington.get_html("/inbox").await;
    assert!(empty.contains("Nothing here yet"), "{empty}");
    assert_eq!(badge(&empty), "Inbox, nothing unread");

    let id = recorded_battle(&howe, &token, &washington).await;

    // The inbox and the badge on every page.
    let inbox = washington.get_html("/inbox").await;
    assert!(
        inbox.contains("waits for your confirmation")
            && inbox.contains(&format!("href=\"/battles/{id}\"")),
        "{inbox}"
    );
    assert_eq!(
        badge(&washington.get_html("/battles").await),
        "Inbox, 1 unread"
    );
    // The one who recorded it is told nothing.
    assert!(howe.get_html("/inbox").await.contains("Nothing here yet"));

    // The mail, with its link and one-click unsubscribe headers.
    let mail = sink
        .wait_for("washington@example.org", "waits for your confirmation")
        .await;
    assert!(mail.header("From").unwrap().contains("muster@club.test"));
    assert!(
        mail.text()
            .contains(&format!("{}/battles/{id}", howe.address)),
        "{}",
        mail.text()
    );
    let unsubscribe = mail.header("List-Unsubscribe").expect("List-Unsubscribe");
    assert_eq!(
        mail.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = unsubscribe.trim_matches(['<', '>']).to_string();
    assert!(unsubscribe.starts_with(&howe.address), "{unsubscribe}");
    assert!(
        sink.find("howe@example.org", "").is_none(),
        "howe gets no mail"
    );

    // Following the link shows a button and changes nothing; the button (or the mail
    // program's one-click POST, without a CSRF token) stops the mails of that kind.
    let stranger = client();
    let page = stranger.get(&unsubscribe).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Stop these e-mails"));
    let account = washington.get_html("/account").await;
    assert!(
        account.contains("name=\"mail_result_to_confirm\" value=\"on\" checked"),
        "still on after a GET: {account}"
    );
    let done = stranger
        .post(&unsubscribe)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert!(done.text().await.unwrap().contains("no longer e-mails you"));
    let account = washington.get_html("/account").await;
    assert!(
        account.contains("name=\"mail_result_to_confirm\" value=\"on\">")
            && account.contains("name=\"mail_orders_open\" value=\"on\" checked"),
        "{account}"
    );
    // A token that is no one's finds nothing.
    let res = stranger
        .get(howe.url("/unsubscribe/not-a-token/result_to_confirm"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);

    // The next result reaches the inbox but not the mailbox.
    let second = recorded_battle(&howe, &token, &washington).await;
    assert!(washington
        .get_html("/inbox")
        .await
        .contains(&format!("href=\"/battles/{second}\"")));
    assert_eq!(
        badge(&washington.get_html("/inbox").await),
        "Inbox, 2 unread"
    );
    let mails_to_washington = outbox(db.url())
        .iter()
        .filter(|(channel, to)| channel == "mail" && to == "washington@example.org")
        .count();
    assert_eq!(mails_to_washington, 1, "no mail after unsubscribing");

    // The account page turns it back on (and others off) with a plain form.
    let res = washington
        .post_form(
            "/account",
            "/account/notifications",
            &[("mail_result_to_confirm", "on")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let account = washington.get_html("/account?done=notifications").await;
    assert!(account.contains("Your e-mail choices were saved."));
    assert!(account.contains("name=\"mail_result_to_confirm\" value=\"on\" checked"));
    assert!(account.contains("name=\"mail_orders_open\" value=\"on\">"));

    // Marking read: one, then all. Someone else's notice is not theirs to mark.
    let inbox = washington.get_html("/inbox").await;
    let end = inbox.find("/read\"").unwrap();
    let start = inbox[..end].rfind('/').unwrap() + 1;
    let notice: i64 = inbox[start..end].parse().unwrap();
    let res = howe
        .post_form("/inbox", &format!("/inbox/{notice}/read"), &[])
        .await;
    assert_eq!(res.status(), 404, "howe cannot mark washington's notice");
    assert_eq!(
        badge(&washington.get_html("/inbox").await),
        "Inbox, 2 unread"
    );
    let res = washington
        .post_form("/inbox", &format!("/inbox/{notice}/read"), &[])
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(
        badge(&washington.get_html("/inbox").await),
        "Inbox, 1 unread"
    );
    let res = washington.post_form("/inbox", "/inbox/read-all", &[]).await;
    assert_eq!(res.status(), 303);
    let inbox = washington.get_html("/inbox?done=all").await;
    assert_eq!(badge(&inbox), "Inbox, nothing unread");
    assert!(
        inbox.contains(&format!("href=\"/battles/{second}\"")),
        "read notices stay"
    );

    // Forms without the CSRF token are refused; a visitor is sent to log in.
    let res = washington
        .client
        .post(washington.url("/inbox/read-all"))
        .form(&[("x", "y")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let stranger = visitor(&howe.address);
    let res = stranger.get("/inbox").await;
    assert_eq!(res.status(), 303);
    assert!(location(&res).starts_with("/login"), "{}", location(&res));
    let res = stranger.post_form("/login", "/inbox/read-all", &[]).await;
    assert!(
        res.status() == 303 || res.status() == 401,
        "{}",
        res.status()
    );
}

#[tokio::test]
async fn without_smtp_settings_nothing_is_sent_and_the_inbox_still_works() {
    let app = spawn_app().await;
    app.register("howe@example.org", "Howe", PASSWORD).await;
    let token = app.api_token("howe@example.org", PASSWORD).await;
    let washington = app.other_visitor();
    washington
        .register("washington@example.org", "Washington", PASSWORD)
        .await;
    let id = recorded_battle(&app, &token, &washington).await;
    assert!(washington
        .get_html("/inbox")
        .await
        .contains(&format!("href=\"/battles/{id}\"")));
    assert_eq!(badge(&washington.get_html("/").await), "Inbox, 1 unread");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(outbox(app.db.url()).is_empty(), "nothing queued to send");

    // The same inbox over the API, each player's own.
    let http = reqwest::Client::new();
    let wash_token = app.api_token("washington@example.org", PASSWORD).await;
    let inbox: Value = http
        .get(app.url("/api/v1/notifications"))
        .bearer_auth(&wash_token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(inbox["unread"], 1, "{inbox}");
    assert_eq!(inbox["items"][0]["kind"], "result_to_confirm");
    assert_eq!(inbox["items"][0]["link"], format!("/battles/{id}"));
    let notice = inbox["items"][0]["id"].as_i64().unwrap();
    let res = http
        .post(app.url(&format!("/api/v1/notifications/{notice}/read")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404, "howe cannot mark washington's notice");
    let res = http
        .get(app.url("/api/v1/notifications"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let marked: Value = http
        .post(app.url("/api/v1/notifications/read"))
        .bearer_auth(&wash_token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(marked["marked"], 1);
    assert_eq!(
        badge(&washington.get_html("/").await),
        "Inbox, nothing unread"
    );
    let account = washington.get_html("/account").await;
    assert!(account.contains("does not send e-mail"), "{account}");
    assert!(!account.contains("mail_result_to_confirm"));
    // The e-mail choices are the signed-in player's own: a visitor is sent to log in.
    let stranger = app.other_visitor();
    let res = stranger.get("/inbox").await;
    assert!(location(&res).starts_with("/login"), "{}", location(&res));
    let res = stranger
        .post_form(
            "/login",
            "/account/notifications",
            &[("mail_orders_open", "on")],
        )
        .await;
    assert!(
        res.status() == 303 && location(&res).starts_with("/login"),
        "{} {}",
        res.status(),
        location(&res)
    );
}

/// Registers through the API and logs the visitor in with a cookie; answers the token.
async fn player(v: &Visitor, email: &str) -> String {
    let token = v.api_user(email).await;
    assert_eq!(v.login(email, PASSWORD).await.status(), 303);
    token
}

async fn api(v: &Visitor, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let http = reqwest::Client::new();
    let url = v.url(&format!("/api/v1{path}"));
    let req = match method {
        "GET" => http.get(url),
        _ => http.post(url),
    }
    .bearer_auth(token);
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    let res = req.send().await.unwrap();
    let status = res.status();
    let v: Value = res.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{method} {path}: {status} {v}");
    v
}

#[tokio::test]
async fn a_campaign_turn_is_told_to_its_players_and_posted_to_its_webhook_without_orders() {
    let hook = WebhookSink::start();
    let app = spawn_app().await;
    let howe = app.other_visitor();
    let washington = app.other_visitor();
    let outsider = app.other_visitor();
    let howe_token = player(&howe, "howe@example.com").await;
    let washington_token = player(&washington, "washington@example.com").await;
    player(&outsider, "outsider@example.com").await;

    let created = api(
        &howe,
        &howe_token,
        "POST",
        "/campaigns",
        Some(
            json!({"name": "Brandywine Season", "map": "philadelphia-1777", "points": 200,
                    "turns": 2, "sides": ["", ""]}),
        ),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();
    for (i, (v, token, nation)) in [
        (&howe, &howe_token, "british"),
        (&washington, &washington_token, "american"),
    ]
    .into_iter()
    .enumerate()
    {
        let r = api(
            v,
            token,
            "POST",
            "/rosters",
            Some(roster(&format!("Force {i}"), nation)),
        )
        .await;
        api(
            v,
            token,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": i, "roster_id": r["id"]})),
        )
        .await;
    }

    // The webhook: only the organiser sets it; a bad address is refused and kept.
    let organiser_page = format!("/campaigns/{id}/organiser");
    let res = washington
        .post_form(
            &format!("/campaigns/{id}"),
            &format!("/campaigns/{id}/webhook"),
            &[("url", &hook.url())],
        )
        .await;
    assert_eq!(res.status(), 403, "a player is not the organiser");
    let res = outsider
        .post_form(
            "/campaigns",
            &format!("/campaigns/{id}/webhook"),
            &[("url", &hook.url())],
        )
        .await;
    assert_eq!(res.status(), 404, "an outsider does not see the campaign");
    let res = visitor(&app.address)
        .post_form(
            "/login",
            &format!("/campaigns/{id}/webhook"),
            &[("url", &hook.url())],
        )
        .await;
    assert!(
        res.status() == 303 || res.status() == 401,
        "{}",
        res.status()
    );
    let res = howe
        .post_form(
            &organiser_page,
            &format!("/campaigns/{id}/webhook"),
            &[("url", "ftp://x/y")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("https://") && html.contains("value=\"ftp://x/y\""),
        "{html}"
    );
    let res = howe
        .post_form(
            &organiser_page,
            &format!("/campaigns/{id}/webhook"),
            &[("url", &hook.url())],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = howe
        .get_html(&format!("{organiser_page}?done=webhook"))
        .await;
    assert!(
        page.contains("Posts now go to <strong>127.0.0.1</strong>"),
        "{page}"
    );
    assert!(
        !page.contains("secret-token"),
        "the address's secret is not shown"
    );

    // The start opens turn 1's orders: Washington is told, Howe (who started it) is not.
    api(
        &howe,
        &howe_token,
        "POST",
        &format!("/campaigns/{id}/start"),
        None,
    )
    .await;
    let inbox = washington.get_html("/inbox").await;
    assert!(
        inbox.contains("Brandywine Season: turn 1 began; orders are open"),
        "{inbox}"
    );
    assert!(inbox.contains(&format!("href=\"/campaigns/{id}\"")));
    assert!(!howe.get_html("/inbox").await.contains("turn 1 began"));

    // Both hold; the last order closes the turn.
    for (v, token, force) in [
        (&howe, &howe_token, "f1"),
        (&washington, &washington_token, "f2"),
    ] {
        api(
            v,
            token,
            "POST",
            &format!("/campaigns/{id}/orders"),
            Some(json!({"force": force, "order": {"order": "hold"}})),
        )
        .await;
    }
    let inbox = howe.get_html("/inbox").await;
    assert!(
        inbox.contains("Brandywine Season: turn 1 closed; no battles"),
        "{inbox}"
    );
    assert!(inbox.contains("turn 2 began; orders are open"), "{inbox}");
    assert!(!outsider.get_html("/inbox").await.contains("Brandywine"));

    let post = hook.wait_for("turn 1 closed").await;
    let body: Value = serde_json::from_str(&post).expect("JSON");
    let content = body["content"].as_str().expect("Discord's content field");
    assert!(content.contains("Brandywine Season"), "{content}");
    assert!(content.contains(&format!("/campaigns/{id}")), "{content}");
    for order_word in ["hold", "march", "moving", "f1", "f2"] {
        assert!(
            !content.to_lowercase().contains(order_word),
            "{order_word}: {content}"
        );
    }

    // Removing it stops the posts.
    let res = howe
        .post_form(
            &organiser_page,
            &format!("/campaigns/{id}/webhook"),
            &[("url", "")],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert!(howe
        .get_html(&organiser_page)
        .await
        .contains("No webhook is set."));
    // Both changes are in the campaign's log, naming the host but never the address's secret.
    let log = howe.get_html(&format!("/campaigns/{id}/log")).await;
    assert!(
        log.contains("webhook: turn closings and finished battles are posted to 127.0.0.1"),
        "{log}"
    );
    assert!(log.contains("removed the campaign"), "{log}");
    assert!(!log.contains("secret-token"), "{log}");
}

#[tokio::test]
async fn the_inbox_badge_shows_the_count_and_clears_on_reading() {
    // A phone-sized window: the badge must show there too, and the pages fit.
    let Some(browser) =
        Browser::start_phone("the_inbox_badge_shows_the_count_and_clears_on_reading", 390).await
    else {
        return;
    };
    let app = spawn_app().await;
    app.register("howe@example.org", "Howe", PASSWORD).await;
    let token = app.api_token("howe@example.org", PASSWORD).await;
    let washington = app.other_visitor();
    washington
        .register("washington@example.org", "Washington", PASSWORD)
        .await;
    recorded_battle(&app, &token, &washington).await;

    browser.open(&app.url("/login")).await;
    browser.fill("#email", "washington@example.org").await;
    browser.fill("#password", PASSWORD).await;
    browser.click("form.stacked-form button[type=submit]").await;
    browser.wait_for_path("/").await;
    assert_eq!(browser.text(".nav-inbox .badge-count").await, "1");
    let label = browser
        .find(".nav-inbox")
        .await
        .attr("aria-label")
        .await
        .unwrap();
    assert_eq!(label.as_deref(), Some("Inbox, 1 unread"));
    browser.click(".nav-inbox").await;
    browser.wait_for_path("/inbox").await;
    // The inbox and the account page fit the phone.
    for path in ["/inbox", "/account"] {
        browser.open(&app.url(path)).await;
        let sizes = browser
            .client
            .execute(
                "const r = document.documentElement; return [r.scrollWidth, r.clientWidth];",
                vec![],
            )
            .await
            .expect("measure");
        let (scroll, width) = (sizes[0].as_f64().unwrap(), sizes[1].as_f64().unwrap());
        assert!(
            scroll <= width + 1.0 && width <= 391.0,
            "{path}: {scroll} px wide in {width}"
        );
    }
    browser.open(&app.url("/inbox")).await;
    browser.click("form[action='/inbox/read-all'] button").await;
    browser.wait_for_path("/inbox?done=all").await;
    let label = browser
        .find(".nav-inbox")
        .await
        .attr("aria-label")
        .await
        .unwrap();
    assert_eq!(label.as_deref(), Some("Inbox, nothing unread"));
    let badges = browser
        .client
        .find_all(fantoccini::Locator::Css(".nav-inbox .badge-count"))
        .await
        .unwrap();
    assert!(badges.is_empty(), "the badge is gone");
    browser.close().await;
}

#[tokio::test]
async fn two_servers_on_one_database_send_each_mail_once() {
    use muster::app::notifications::Payload;
    use muster::store::notifications::{enqueue, NewMessage, MAIL};
    let sink = SmtpSink::start();
    let db = TestDb::create();
    let settings = [
        ("MUSTER_SMTP_URL", sink.url()),
        ("MUSTER_MAIL_FROM", FROM.to_string()),
    ];
    let settings: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (_first, _d1) = spawn_server(db.url(), &settings).await;
    let (_second, _d2) = spawn_server(db.url(), &settings).await;
    const MAILS: usize = 24;
    {
        let pool =
            muster::store::connect(&muster::config::DatabaseConfig::parse(db.url()).unwrap(), 1)
                .unwrap();
        let mut conn = pool.get().unwrap();
        for n in 0..MAILS {
            let body = serde_json::to_string(&Payload::Notice {
                title: format!("Notice {n}"),
                link: "/inbox".into(),
                kind: "orders_open".into(),
            })
            .unwrap();
            enqueue(
                &mut conn,
                &NewMessage {
                    channel: MAIL,
                    target: "player@example.org",
                    subject: &format!("Notice {n}"),
                    body: &body,
                    unsubscribe_url: None,
                },
            )
            .unwrap();
        }
    }
    let start = std::time::Instant::now();
    while sink.count() < MAILS {
        assert!(
            start.elapsed().as_secs() < 30,
            "{} of {MAILS} arrived",
            sink.count()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Time for a second sending, if there were to be one.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut subjects: Vec<String> = sink
        .mails
        .lock()
        .unwrap()
        .iter()
        .map(|m| m.header("Subject").unwrap_or_default())
        .collect();
    assert_eq!(subjects.len(), MAILS, "each mail once");
    subjects.sort();
    subjects.dedup();
    assert_eq!(subjects.len(), MAILS, "no mail twice");
    assert!(
        outbox(db.url()).len() == MAILS,
        "the sent rows stay for a while, marked sent"
    );
}
