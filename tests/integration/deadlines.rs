//! Turn deadlines over HTTP: the organiser sets, changes and clears a deadline and a default
//! turn length (nobody else may); a deadline a second or two ahead closes the turn by itself,
//! forces without orders holding; and with two servers on one PostgreSQL database the turn is
//! closed exactly once.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_server, TestDb, Visitor, PASSWORD};

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

/// Calls the API with a bearer token (none: as a visitor); answers the status and the JSON.
async fn call(
    at: &Visitor,
    token: Option<&str>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let http = reqwest::Client::new();
    let url = at.url(&format!("/api/v1{path}"));
    let req = match method {
        "GET" => http.get(url),
        "PUT" => http.put(url),
        _ => http.post(url),
    };
    let req = match token {
        Some(t) => req.bearer_auth(t),
        None => req,
    };
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn ok(at: &Visitor, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let (status, v) = call(at, Some(token), method, path, body).await;
    assert!(status < 300, "{method} {path}: {status} {v}");
    v
}

async fn user(at: &Visitor, email: &str) -> String {
    let res = reqwest::Client::new()
        .post(at.url("/api/v1/users"))
        .json(&json!({"email": email, "password": PASSWORD}))
        .send()
        .await
        .expect("register");
    assert_eq!(res.status(), 201, "register {email}");
    at.api_token(email, PASSWORD).await
}

/// A campaign of two: the organiser plays the British, `player` the Americans. Not started.
async fn campaign(at: &Visitor, organiser: &str, player: &str, name: &str) -> i64 {
    let created = ok(
        at,
        organiser,
        "POST",
        "/campaigns",
        Some(json!({"name": name, "map": "philadelphia-1777", "points": 200, "turns": 3, "sides": ["", ""]})),
    )
    .await;
    let id = created["id"].as_i64().expect("id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    for (i, (t, nation)) in [(organiser, "british"), (player, "american")]
        .into_iter()
        .enumerate()
    {
        let r = ok(
            at,
            t,
            "POST",
            "/rosters",
            Some(roster(&format!("{name} {i}"), nation)),
        )
        .await;
        ok(
            at,
            t,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": i, "roster_id": r["id"]})),
        )
        .await;
    }
    id
}

fn rfc3339_in(secs: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::seconds(secs))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

async fn log(at: &Visitor, token: &str, id: i64) -> Vec<Value> {
    ok(at, token, "GET", &format!("/campaigns/{id}/log"), None).await["entries"]
        .as_array()
        .expect("entries")
        .clone()
}

fn count(entries: &[Value], kind: &str, turn: i64) -> usize {
    entries
        .iter()
        .filter(|e| e["kind"] == kind && e["turn"] == turn)
        .count()
}

/// Waits until the campaign has left turn 1's orders (or fails after a while).
async fn wait_for_turn_2(at: &Visitor, token: &str, id: i64) -> Value {
    let start = Instant::now();
    loop {
        let c = ok(at, token, "GET", &format!("/campaigns/{id}"), None).await;
        if c["turn"].as_i64() != Some(1) || c["phase"] != "orders" {
            return c;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the deadline did not close turn 1: {c}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn the_organiser_sets_changes_and_clears_deadlines_and_nobody_else_may() {
    let app = spawn_app().await;
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let outsider = user(&app, "outsider@example.org").await;
    let id = campaign(&app, &org, &player, "Brandywine").await;
    let path = format!("/campaigns/{id}/deadline");

    // Before the start only the default length may be set; a deadline needs an open turn.
    let (status, v) = call(
        &app,
        Some(&org),
        "PUT",
        &path,
        Some(json!({"deadline": rfc3339_in(3600)})),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    let c = ok(
        &app,
        &org,
        "PUT",
        &path,
        Some(json!({"turn_length_hours": 72})),
    )
    .await;
    assert_eq!(c["turn_length_hours"], 72);
    assert!(c["deadline"].is_null());

    // The start opens turn 1 with its deadline three days on.
    let before = chrono::Utc::now().timestamp();
    let c = ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    assert_eq!(c["deadline"]["turn"], 1, "{c}");
    let at = chrono::DateTime::parse_from_rfc3339(c["deadline"]["at"].as_str().expect("at"))
        .expect("RFC 3339")
        .timestamp();
    assert!(
        (at - before - 72 * 3600).abs() < 60,
        "three days from the start"
    );
    assert!(c["deadline"]["words"].as_str().unwrap().ends_with("UTC"));

    // Only the organiser: a player is refused, a non-member finds nothing, a visitor must log in.
    let wish = json!({"deadline": rfc3339_in(86_400), "turn_length_hours": 72});
    for (token, expected) in [(Some(&player), 403), (Some(&outsider), 404), (None, 401)] {
        let (status, v) = call(
            &app,
            token.map(String::as_str),
            "PUT",
            &path,
            Some(wish.clone()),
        )
        .await;
        assert_eq!(status, expected, "{v}");
        assert!(v["error"]["message"].is_string(), "{v}");
    }
    let c = ok(&app, &player, "GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(
        c["deadline"]["at"].as_str().map(|s| s.to_string()),
        Some(
            chrono::DateTime::from_timestamp(at, 0)
                .unwrap()
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        ),
        "unchanged by the refusals"
    );

    // The organiser moves it; a past deadline or a silly length is refused with the field named.
    let moved = rfc3339_in(86_400);
    let c = ok(
        &app,
        &org,
        "PUT",
        &path,
        Some(json!({"deadline": moved, "turn_length_hours": 72})),
    )
    .await;
    assert_eq!(c["deadline"]["at"], moved.as_str());
    let (status, v) = call(
        &app,
        Some(&org),
        "PUT",
        &path,
        Some(json!({"deadline": rfc3339_in(-60), "turn_length_hours": 72})),
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["error"]["details"][0]["field"], "deadline", "{v}");
    let (status, v) = call(
        &app,
        Some(&org),
        "PUT",
        &path,
        Some(json!({"deadline": moved, "turn_length_hours": 0})),
    )
    .await;
    assert_eq!(status, 422, "{v}");

    // The player sees it on the campaign page and in the list, and in the API's list.
    let list = ok(&app, &player, "GET", "/campaigns", None).await;
    assert_eq!(list["campaigns"][0]["deadline"], moved.as_str(), "{list}");
    let pv = app.other_visitor();
    pv.login("player@example.org", PASSWORD).await;
    let page = pv.get_html(&format!("/campaigns/{id}")).await;
    assert!(page.contains("orders due by"), "{page}");
    assert!(pv.get_html("/campaigns").await.contains("orders due by"));

    // Clearing both: no deadline, and each change is in the log.
    let c = ok(&app, &org, "PUT", &path, Some(json!({}))).await;
    assert!(
        c["deadline"].is_null() && c["turn_length_hours"].is_null(),
        "{c}"
    );
    let entries = log(&app, &org, id).await;
    let kinds: Vec<&str> = entries.iter().filter_map(|e| e["kind"].as_str()).collect();
    for k in ["turn_length_set", "deadline_set", "deadline_cleared"] {
        assert!(kinds.contains(&k), "{k} in {kinds:?}");
    }
    assert_eq!(
        kinds.iter().filter(|k| **k == "deadline_set").count(),
        2,
        "default and moved"
    );
    assert!(entries.iter().any(|e| e["text"]
        .as_str()
        .is_some_and(|t| t.contains("cleared turn 1's deadline"))));
    assert!(!pv.get_html("/campaigns").await.contains("orders due by"));
}

#[tokio::test]
async fn the_deadline_form_on_the_organisers_page() {
    let app = spawn_app().await;
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let id = campaign(&app, &org, &player, "Germantown").await;
    ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    let page = format!("/campaigns/{id}/organiser");

    let ov = app.other_visitor();
    ov.login("organiser@example.org", PASSWORD).await;
    let html = ov.get_html(&page).await;
    assert!(html.contains("id=\"deadline-form\""), "{html}");
    assert!(html.contains("The open turn has no deadline."));
    // Typed in UTC, in the browser's date-and-time field's shape.
    let at = (chrono::Utc::now() + chrono::Duration::days(2))
        .format("%Y-%m-%dT%H:%M")
        .to_string();
    let res = ov
        .post_form(
            &page,
            &page,
            &[
                ("tool", "deadline"),
                ("deadline_at", &at),
                ("length_days", "3"),
                ("length_hours", ""),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let html = ov.get_html(&page).await;
    assert!(html.contains("Orders are due by <strong>"), "{html}");
    assert!(html.contains("value=\"3\""), "the length is shown");
    let shown = ov.get_html(&format!("/campaigns/{id}")).await;
    assert!(shown.contains("orders due by"), "on the campaign page");

    // A refused form says why and keeps what was typed.
    let res = ov
        .post_form(
            &page,
            &page,
            &[
                ("tool", "deadline"),
                ("deadline_at", "next Tuesday"),
                ("length_days", "3"),
                ("length_hours", "5"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Give the deadline as a date and time in UTC"),
        "{html}"
    );
    assert!(
        html.contains("value=\"next Tuesday\"") && html.contains("value=\"5\""),
        "{html}"
    );

    // A player may not use it (nor see the organiser's page).
    let pv = app.other_visitor();
    pv.login("player@example.org", PASSWORD).await;
    let res = pv
        .post_form(
            &format!("/campaigns/{id}"),
            &page,
            &[
                ("tool", "deadline"),
                ("deadline_at", ""),
                ("length_days", ""),
                ("length_hours", ""),
            ],
        )
        .await;
    assert_eq!(res.status(), 403);
    let c = ok(&app, &org, "GET", &format!("/campaigns/{id}"), None).await;
    assert!(
        c["deadline"].is_object(),
        "the player's post changed nothing: {c}"
    );
}

#[tokio::test]
async fn a_deadline_closes_the_turn_by_itself_and_missing_orders_hold() {
    let app = spawn_app().await;
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let id = campaign(&app, &org, &player, "Monmouth").await;
    ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    // Nobody orders. The next turn gets a day from the default length.
    ok(
        &app,
        &org,
        "PUT",
        &format!("/campaigns/{id}/deadline"),
        Some(json!({"deadline": rfc3339_in(2), "turn_length_hours": 24})),
    )
    .await;

    let c = wait_for_turn_2(&app, &player, id).await;
    assert_eq!(c["turn"], 2, "no contact: the next turn began at once: {c}");
    assert_eq!(c["phase"], "orders");
    assert_eq!(
        c["deadline"]["turn"], 2,
        "the default length gives turn 2 its deadline: {c}"
    );

    let entries = log(&app, &player, id).await;
    assert_eq!(count(&entries, "deadline_passed", 1), 1);
    assert_eq!(count(&entries, "turn_closed", 1), 1);
    let closed = entries
        .iter()
        .find(|e| e["kind"] == "turn_closed")
        .expect("closed");
    let orders = closed["event"]["orders"]
        .as_object()
        .expect("orders revealed");
    assert_eq!(orders.len(), 2);
    assert!(
        orders.values().all(|o| o["order"] == "hold"),
        "missing orders hold: {closed}"
    );
    let passed = entries
        .iter()
        .find(|e| e["kind"] == "deadline_passed")
        .expect("passed");
    assert!(
        passed["text"]
            .as_str()
            .unwrap()
            .contains("closed by the deadline"),
        "{passed}"
    );
    // The log still rebuilds the state.
    let audit = ok(&app, &org, "GET", &format!("/campaigns/{id}/audit"), None).await;
    assert_eq!(audit["rebuilt_matches"], true, "{audit}");
}

#[tokio::test]
async fn two_servers_on_one_postgres_close_a_deadline_turn_exactly_once() {
    let db = TestDb::create();
    if !db.is_postgres() {
        println!(
            "skipped: set MUSTER_TEST_POSTGRES_URL to run two servers on one PostgreSQL database"
        );
        return;
    }
    // Both servers look for due deadlines often, so that they race for the same ones.
    let fast = ("MUSTER_SCHEDULER_POLL_MS", "20");
    let (a, _a_data) = spawn_server(db.url(), &[fast]).await;
    let (b, _b_data) = spawn_server(db.url(), &[fast]).await;
    let org = user(&a, "organiser@example.org").await;
    let player = user(&a, "player@example.org").await;
    let mut ids = Vec::new();
    for n in 0..3 {
        let id = campaign(&a, &org, &player, &format!("Saratoga {n}")).await;
        ok(&b, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
        ids.push(id);
    }
    let at = rfc3339_in(2);
    for (n, id) in ids.iter().enumerate() {
        let server = if n % 2 == 0 { &a } else { &b };
        ok(
            server,
            &org,
            "PUT",
            &format!("/campaigns/{id}/deadline"),
            Some(json!({"deadline": at})),
        )
        .await;
    }
    for id in &ids {
        wait_for_turn_2(&b, &player, *id).await;
    }
    // Give a late second close every chance to show itself.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for id in &ids {
        let entries = log(&a, &org, *id).await;
        assert_eq!(
            count(&entries, "turn_closed", 1),
            1,
            "campaign {id}: {entries:?}"
        );
        assert_eq!(count(&entries, "deadline_passed", 1), 1, "campaign {id}");
        assert_eq!(
            count(&entries, "turn_began", 1) + count(&entries, "turn_began", 2),
            1,
            "campaign {id}"
        );
        let c = ok(&b, &org, "GET", &format!("/campaigns/{id}"), None).await;
        assert_eq!(
            (c["turn"].as_i64(), c["deadline"].is_null()),
            (Some(2), true),
            "{c}"
        );
    }
}

#[tokio::test]
async fn waiting_deadlines_hold_no_place_in_the_odds_queue() {
    let db = TestDb::create();
    // Every odds run is a job, nobody here runs them, and the queue takes one.
    let (app, _data) = spawn_server(
        db.url(),
        &[
            ("MUSTER_WORK_DIRECT_COST", "0"),
            ("MUSTER_JOB_WORKERS", "0"),
            ("MUSTER_JOB_QUEUE_MAX", "1"),
        ],
    )
    .await;
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let id = campaign(&app, &org, &player, "Cowpens").await;
    ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    // A close and a reminder now wait in the jobs table for their time.
    ok(
        &app,
        &org,
        "PUT",
        &format!("/campaigns/{id}/deadline"),
        Some(json!({"deadline": rfc3339_in(3 * 86_400)})),
    )
    .await;

    let odds = json!({"attacker": roster("Crown", "british"), "defender": roster("Patriots", "american"), "seed": 7, "runs": 200});
    let (status, queued) = call(
        &app,
        Some(&org),
        "POST",
        "/lotf/battles/odds",
        Some(odds.clone()),
    )
    .await;
    assert_eq!(status, 202, "the organiser's odds run is queued: {queued}");
    assert_eq!(queued["queued_ahead"], 0, "nothing ahead of it: {queued}");
    let job = ok(
        &app,
        &org,
        "GET",
        &format!("/jobs/{}", queued["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(job["status"], "queued");
    // The one place is the organiser's odds job, not a deadline.
    let (status, v) = call(
        &app,
        Some(&player),
        "POST",
        "/lotf/battles/odds",
        Some(odds),
    )
    .await;
    assert_eq!(status, 503, "{v}");
    // And the deadline still stands.
    let c = ok(&app, &player, "GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(c["deadline"]["turn"], 1);
}

/// Claims the due deadline close as `server` would, straight from the database.
fn claim_close(pool: &muster::store::DbPool, server: &str) -> Option<muster::store::jobs::JobRow> {
    let mut conn = pool.get().expect("connection");
    let lease = chrono::Utc::now().naive_utc() + chrono::Duration::seconds(30);
    muster::store::jobs::claim_of(
        &mut conn,
        server,
        lease,
        &[muster::app::deadlines::KIND_CLOSE],
    )
    .expect("claim")
}

fn run_close(
    pool: &muster::store::DbPool,
    server: &str,
    job: &muster::store::jobs::JobRow,
) -> &'static str {
    use muster::app::campaigns::deadlines::{close_turn_at_deadline, JobEnd};
    let rules = muster::rules::Systems::builtin().expect("rules");
    let mut conn = pool.get().expect("connection");
    match close_turn_at_deadline(&mut conn, &rules, server, &job.id, &job.params) {
        JobEnd::Done => "done",
        JobEnd::NotOurs => "not ours",
        JobEnd::Failed(e) => panic!("the close failed: {e}"),
    }
}

#[tokio::test]
async fn a_deadline_job_run_again_or_taken_back_changes_nothing() {
    let db = TestDb::create();
    // This server's own scheduler looks once at start and then sleeps: the test runs the jobs.
    let (app, _data) = spawn_server(db.url(), &[("MUSTER_SCHEDULER_POLL_MS", "600000")]).await;
    let pool = muster::store::connect(
        &muster::config::DatabaseConfig::parse(db.url()).expect("url"),
        2,
    )
    .expect("pool");
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let id = campaign(&app, &org, &player, "Camden").await;
    ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    let path = format!("/campaigns/{id}/deadline");
    ok(
        &app,
        &org,
        "PUT",
        &path,
        Some(json!({"deadline": rfc3339_in(1)})),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // Server X claims the due close; meanwhile the organiser moves the deadline a day on. The
    // move takes the job back, so X's run changes nothing and the turn stays open.
    let job = claim_close(&pool, "server-x").expect("the close is due");
    let moved = rfc3339_in(86_400);
    ok(&app, &org, "PUT", &path, Some(json!({"deadline": moved}))).await;
    assert_eq!(run_close(&pool, "server-x", &job), "not ours");
    let c = ok(&app, &org, "GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(
        (c["turn"].as_i64(), c["deadline"]["at"].as_str()),
        (Some(1), Some(moved.as_str())),
        "{c}"
    );
    assert!(
        claim_close(&pool, "server-x").is_none(),
        "the moved close is not due yet"
    );

    // Brought forward again, it closes the turn once; the same job run again by another server
    // (as after a lost lease) finds it done and does nothing.
    ok(
        &app,
        &org,
        "PUT",
        &path,
        Some(json!({"deadline": rfc3339_in(1)})),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let job = claim_close(&pool, "server-x").expect("due again");
    assert_eq!(run_close(&pool, "server-x", &job), "done");
    assert_eq!(run_close(&pool, "server-y", &job), "not ours");
    // Even a stale copy of the job queued and claimed afresh finds the turn closed.
    {
        let mut conn = pool.get().expect("connection");
        muster::store::jobs::schedule(
            &mut conn,
            &job.id,
            &job.kind,
            &job.title,
            &job.params,
            chrono::Utc::now().naive_utc(),
        )
        .expect("requeued");
    }
    let stale = claim_close(&pool, "server-y").expect("the stale copy");
    assert_eq!(run_close(&pool, "server-y", &stale), "done");

    let entries = log(&app, &org, id).await;
    assert_eq!(count(&entries, "turn_closed", 1), 1, "{entries:?}");
    assert_eq!(count(&entries, "deadline_passed", 1), 1);
    let c = ok(&app, &org, "GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(c["turn"], 2, "{c}");
}

/// The organiser's force id and the player's, as the campaign answers them.
async fn my_force(at: &Visitor, token: &str, id: i64) -> String {
    ok(at, token, "GET", &format!("/campaigns/{id}"), None).await["my_force"]
        .as_str()
        .expect("a force")
        .to_string()
}

async fn deadline_notices(at: &Visitor, token: &str) -> Vec<Value> {
    ok(at, token, "GET", "/notifications", None).await["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|n| n["kind"] == "deadline_near")
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_reminder_reaches_the_inbox_of_players_without_orders() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let org = user(&app, "organiser@example.org").await;
    let player = user(&app, "player@example.org").await;
    let id = campaign(&app, &org, &player, "Monmouth").await;
    ok(&app, &org, "POST", &format!("/campaigns/{id}/start"), None).await;
    // The organiser orders his force to hold; the player gives no order.
    let force = my_force(&app, &org, id).await;
    ok(
        &app,
        &org,
        "POST",
        &format!("/campaigns/{id}/orders"),
        Some(json!({"force": force, "order": {"order": "hold"}})),
    )
    .await;
    // A two-hour turn is reminded of halfway through (unit-tested in the rules core); the test
    // brings that moment forward in the jobs table rather than waiting an hour.
    ok(
        &app,
        &org,
        "PUT",
        &format!("/campaigns/{id}/deadline"),
        Some(json!({"deadline": rfc3339_in(2 * 3600)})),
    )
    .await;
    assert!(deadline_notices(&app, &player).await.is_empty());
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let moved = diesel::sql_query(format!(
        "UPDATE jobs SET run_after = created_at WHERE id = 'deadline-remind-{id}'"
    ))
    .execute(&mut conn)
    .expect("reminder job");
    assert_eq!(moved, 1, "the reminder is scheduled as a job");

    let start = Instant::now();
    let notices = loop {
        let found = deadline_notices(&app, &player).await;
        if !found.is_empty() {
            break found;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no reminder arrived"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(notices.len(), 1, "{notices:?}");
    let title = notices[0]["title"].as_str().expect("title");
    assert!(
        title.contains("Monmouth") && title.contains("turn 1") && title.contains("UTC"),
        "{title}"
    );
    assert_eq!(notices[0]["link"], format!("/campaigns/{id}"));
    // The organiser gave his order: nothing to remind him of.
    assert!(deadline_notices(&app, &org).await.is_empty());
    // The turn is still open: a reminder closes nothing.
    let c = ok(&app, &org, "GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(
        (c["turn"].as_i64(), c["phase"].as_str()),
        (Some(1), Some("orders"))
    );
}
