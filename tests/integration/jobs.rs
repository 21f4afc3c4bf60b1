//! Bounded work and durable jobs: a request beyond the work limits is told to come back later
//! (429 or 503 with Retry-After) while `/healthz` still answers; long simulations are jobs in
//! the database that any server runs, that survive their server stopping, report progress and
//! can be cancelled.

use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::{spawn_server, TestDb, Visitor};

fn force(name: &str, infantry: usize) -> Value {
    let elements: Vec<Value> = (0..infantry)
        .map(|i| json!({"name": format!("{name} foot {i}"), "type": "infantry", "size": "medium"}))
        .collect();
    let (first, second) = elements.split_at(infantry / 2);
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": "british",
           "points_limit": 25 * infantry, "force_commander": {"name": format!("{name} general")},
           "groups": [{"commander": {"name": "Left"}, "elements": first}, {"commander": {"name": "Right"}, "elements": second}]})
}

fn odds_request(seed: u64, runs: u32) -> Value {
    json!({"attacker": force("Crown", 6), "defender": force("Patriots", 5), "seed": seed, "runs": runs})
}

async fn post(v: &Visitor, path: &str, token: Option<&str>, body: &Value) -> reqwest::Response {
    let mut req = reqwest::Client::new().post(v.url(path)).json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.expect("POST")
}

/// Asks for odds that go to the background queue; answers the queued job's status (202).
async fn queue_odds(v: &Visitor, token: &str, seed: u64, runs: u32) -> Value {
    let res = post(
        v,
        "/api/v1/lotf/battles/odds",
        Some(token),
        &odds_request(seed, runs),
    )
    .await;
    assert_eq!(res.status(), 202);
    res.json().await.expect("json")
}

fn job_id(status: &Value) -> String {
    status["id"].as_str().expect("id").to_string()
}

async fn job(v: &Visitor, token: &str, id: &str) -> Value {
    let res = reqwest::Client::new()
        .get(v.url(&format!("/api/v1/jobs/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .expect("GET job");
    assert_eq!(res.status(), 200, "the job of {id}");
    res.json().await.expect("json")
}

/// Polls the job until `until` holds (about 60 s at most), checking progress never goes back.
async fn wait_for(v: &Visitor, token: &str, id: &str, until: impl Fn(&Value) -> bool) -> Value {
    wait_for_progress(v, token, id, until, Progress::NeverBack).await
}

/// Whether the progress a job reports may go back while it is watched.
#[derive(PartialEq)]
enum Progress {
    NeverBack,
    /// A job another server claims again is fought again from the start.
    MayRestart,
}

async fn wait_for_progress(
    v: &Visitor,
    token: &str,
    id: &str,
    until: impl Fn(&Value) -> bool,
    progress: Progress,
) -> Value {
    let mut last_done = 0;
    for _ in 0..600 {
        let status = job(v, token, id).await;
        let done = status["done"].as_u64().expect("done");
        if status["status"] == "running" {
            assert!(
                done >= last_done || progress == Progress::MayRestart,
                "progress never goes back: {status}"
            );
            last_done = done;
        }
        if until(&status) {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the job never reached the expected state");
}

fn retry_after(res: &reqwest::Response) -> u64 {
    res.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After header in seconds")
}

#[tokio::test]
async fn beyond_the_work_limits_requests_are_told_when_to_come_back_and_health_still_answers() {
    let db = TestDb::create();
    // One piece of work at a time on the whole server, one per caller.
    let (app, _data) = spawn_server(
        db.url(),
        &[("MUSTER_WORK_LIMIT", "1"), ("MUSTER_WORK_PER_CALLER", "1")],
    )
    .await;
    let token = app_token(&app, "busy@example.org").await;

    // A long direct run (10 000 battles of 15 units) holds the only place.
    let long = json!({"attacker": force("Crown", 8), "defender": force("Patriots", 7), "seed": 1, "runs": 10000});
    let (address, held_token) = (app.address.clone(), token.clone());
    let holder = tokio::spawn(async move {
        reqwest::Client::new()
            .post(format!("{address}/api/v1/lotf/battles/odds"))
            .bearer_auth(held_token)
            .json(&long)
            .send()
            .await
    });
    tokio::time::sleep(Duration::from_millis(700)).await;

    let mine = post(
        &app,
        "/api/v1/lotf/battles/odds",
        Some(&token),
        &odds_request(2, 10),
    )
    .await;
    assert_eq!(mine.status(), 429, "the same user is at their own limit");
    assert!(retry_after(&mine) > 0);
    let body: Value = mine.json().await.expect("json");
    assert_eq!(body["error"]["code"], "too_many_requests");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("still running")),
        "says why, in the words of what was asked: {body}"
    );

    let anonymous = post(&app, "/api/v1/lotf/validate", None, &force("Solo", 2)).await;
    assert_eq!(anonymous.status(), 503, "the server's limit is full");
    assert!(retry_after(&anonymous) > 0);

    // The same user's page answers with the error page, and says when to come back too.
    app.login("busy@example.org", crate::helpers::PASSWORD)
        .await;
    let page = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/odds",
            &[
                ("attacker", "h:cowpens:0:0"),
                ("defender", "h:cowpens:1:0"),
                ("scenario", "take_the_field"),
                ("seed", "5"),
                ("runs", "10"),
            ],
        )
        .await;
    assert_eq!(page.status(), 429);
    assert!(retry_after(&page) > 0);
    assert!(page.text().await.expect("body").contains("<html"));

    let health = app.get("/healthz").await;
    assert_eq!(
        health.status(),
        200,
        "the health check does not wait for the work"
    );

    // The client of the long run goes away. Actix does not reliably notice an HTTP/1 client
    // leaving while its handler waits, so the run may go on to its end (bounded by
    // MUSTER_WORK_DIRECT_COST; docs/reliability.md); either way the place is given back.
    holder.abort();
    let mut freed = false;
    for _ in 0..1200 {
        let res = post(&app, "/api/v1/lotf/validate", None, &force("Solo", 2)).await;
        if res.status() == 200 {
            freed = true;
            break;
        }
        assert_eq!(res.status(), 503);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        freed,
        "the place came back after the client left and the run ended"
    );
}

async fn app_token(app: &Visitor, email: &str) -> String {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/users"))
        .json(&json!({"email": email, "password": crate::helpers::PASSWORD}))
        .send()
        .await
        .expect("register");
    assert_eq!(res.status(), 201, "register {email}");
    app.api_token(email, crate::helpers::PASSWORD).await
}

/// Every odds request becomes a job: these tests need no long runs.
const QUEUE_ALL: (&str, &str) = ("MUSTER_WORK_DIRECT_COST", "0");

#[tokio::test]
async fn a_job_queued_on_one_server_is_run_by_another_and_read_on_either() {
    let db = TestDb::create();
    // Server A runs no jobs itself; server B on the same database does.
    let (a, _a_data) = spawn_server(db.url(), &[QUEUE_ALL, ("MUSTER_JOB_WORKERS", "0")]).await;
    let token = app_token(&a, "shared@example.org").await;
    let queued = queue_odds(&a, &token, 7, 600).await;
    assert_eq!(queued["status"], "queued");
    let id = job_id(&queued);
    assert_eq!(
        post(
            &a,
            "/api/v1/lotf/battles/odds",
            Some(&token),
            &odds_request(8, 600)
        )
        .await
        .status(),
        409,
        "one job per user, across servers"
    );

    let (b, _b_data) = spawn_server(db.url(), &[QUEUE_ALL, ("MUSTER_JOB_WORKERS", "1")]).await;
    let finished = wait_for(&b, &token, &id, |s| s["status"] == "done").await;
    assert_eq!(finished["done"], 600);
    assert_eq!(finished["result"]["runs"], 600);
    let seen_on_a = job(&a, &token, &id).await;
    assert_eq!(seen_on_a["status"], "done", "server A reads what B did");
    assert_eq!(seen_on_a["result"], finished["result"]);

    // The same battles answered directly give the same odds.
    let (direct, _d_data) = spawn_server(db.url(), &[("MUSTER_JOB_WORKERS", "0")]).await;
    let res = post(
        &direct,
        "/api/v1/lotf/battles/odds",
        Some(&token),
        &odds_request(7, 600),
    )
    .await;
    assert_eq!(res.status(), 200);
    let answered: Value = res.json().await.expect("json");
    assert_eq!(answered["runs"], finished["result"]["runs"]);
    for key in ["attacker_win", "draw", "defender_win"] {
        let (x, y) = (
            answered[key]["p"].as_f64().expect("p"),
            finished["result"][key]["p"].as_f64().expect("p"),
        );
        assert!((x - y).abs() < 1e-9, "{key}: {x} directly, {y} as a job");
    }
}

#[tokio::test]
async fn a_job_whose_server_stopped_is_finished_by_the_next_server() {
    let db = TestDb::create();
    let (first, _first_data) =
        spawn_server(db.url(), &[QUEUE_ALL, ("MUSTER_JOB_WORKERS", "0")]).await;
    let token = app_token(&first, "restart@example.org").await;
    let id = job_id(&queue_odds(&first, &token, 11, 500).await);

    // A server claimed the job and stopped mid-run: its lease is already over.
    let config = muster::config::Config::from_lookup(|k| {
        (k == "DATABASE_URL").then(|| db.url().to_string())
    })
    .expect("config");
    let pool = muster::store::connect(&config.database, 1).expect("pool");
    let mut conn = pool.get().expect("conn");
    let gone = muster::store::jobs::now() - chrono::Duration::seconds(5);
    let claimed = muster::store::jobs::claim(&mut conn, "server-that-stopped", gone)
        .expect("claim")
        .expect("the queued job");
    assert_eq!(claimed.id, id);
    muster::store::jobs::heartbeat(&mut conn, &id, "server-that-stopped", 120, gone)
        .expect("progress");
    drop(conn);
    assert_eq!(job(&first, &token, &id).await["status"], "running");

    let (next, _next_data) =
        spawn_server(db.url(), &[QUEUE_ALL, ("MUSTER_JOB_WORKERS", "1")]).await;
    // The first look may still see the stopped server's 120 before the next
    // server claims the job again and starts it over.
    let finished = wait_for_progress(
        &next,
        &token,
        &id,
        |s| s["status"] == "done",
        Progress::MayRestart,
    )
    .await;
    assert_eq!(finished["result"]["runs"], 500, "redone in full");
}

#[tokio::test]
async fn a_cancelled_job_stops_and_frees_its_worker_and_the_queue_has_a_cap() {
    let db = TestDb::create();
    let (app, _data) = spawn_server(
        db.url(),
        &[
            QUEUE_ALL,
            ("MUSTER_JOB_WORKERS", "1"),
            ("MUSTER_JOB_QUEUE_MAX", "1"),
        ],
    )
    .await;
    let token = app_token(&app, "cancel@example.org").await;
    let id = job_id(&queue_odds(&app, &token, 3, 100_000).await);
    let running = wait_for(&app, &token, &id, |s| {
        s["status"] == "running" && s["done"].as_u64().unwrap_or(0) > 0
    })
    .await;
    assert_eq!(
        running["total"], 100_000,
        "progress is reported while it runs"
    );

    // Someone else cannot cancel it.
    let nosy = app_token(&app, "nosy@example.org").await;
    let res = reqwest::Client::new()
        .delete(app.url(&format!("/api/v1/jobs/{id}")))
        .bearer_auth(&nosy)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(res.status(), 404);

    // The only worker is busy, so a second user's job waits; the queue is then full.
    let waiting = job_id(&queue_odds(&app, &nosy, 4, 300).await);
    let third = app_token(&app, "third@example.org").await;
    let full = post(
        &app,
        "/api/v1/lotf/battles/odds",
        Some(&third),
        &odds_request(5, 300),
    )
    .await;
    assert_eq!(full.status(), 503, "the queue is full");
    assert!(retry_after(&full) > 0);

    let res = reqwest::Client::new()
        .delete(app.url(&format!("/api/v1/jobs/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.expect("json")["status"],
        "cancelled"
    );

    // The worker stops the cancelled run and takes the waiting job.
    let finished = wait_for(&app, &nosy, &waiting, |s| s["status"] == "done").await;
    assert_eq!(finished["result"]["runs"], 300);
    let cancelled = job(&app, &token, &id).await;
    assert_eq!(cancelled["status"], "cancelled");
    assert!(cancelled["done"].as_u64().expect("done") < 100_000);
    let again = reqwest::Client::new()
        .delete(app.url(&format!("/api/v1/jobs/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(
        again.status(),
        409,
        "an ended job cannot be cancelled again"
    );
}

#[tokio::test]
async fn the_progress_page_offers_to_stop_a_job() {
    let db = TestDb::create();
    let (app, _data) = spawn_server(db.url(), &[QUEUE_ALL, ("MUSTER_JOB_WORKERS", "0")]).await;
    app.register("page@example.org", "Page", crate::helpers::PASSWORD)
        .await;
    let res = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/odds",
            &[
                ("attacker", "h:cowpens:0:0"),
                ("defender", "h:cowpens:1:0"),
                ("scenario", "take_the_field"),
                ("seed", "5"),
                ("runs", "200"),
            ],
        )
        .await;
    let to = crate::helpers::location(&res);
    assert!(to.starts_with("/lotf/fight/jobs/"), "{} {to}", res.status());
    let page = app.get_html(&to).await;
    assert!(page.contains("Waiting for a free worker"), "{page}");
    assert!(page.contains("Stop this simulation"));
    // Left and come back to: the fight page points to the waiting job, and a second odds run
    // gives the form again with the same pointer, not a bare refusal.
    let fight = app.get_html("/lotf/fight").await;
    assert!(
        fight.contains(&format!("href=\"{to}\"")) && fight.contains("still waiting or running"),
        "{fight}"
    );
    let second = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/odds",
            &[
                ("attacker", "h:cowpens:0:0"),
                ("defender", "h:cowpens:1:0"),
                ("scenario", "take_the_field"),
                ("seed", "6"),
                ("runs", "200"),
            ],
        )
        .await;
    assert_eq!(second.status(), 409);
    let second = second.text().await.unwrap();
    assert!(
        second.contains("You already have a simulation waiting or running")
            && second.contains(&format!("href=\"{to}\""))
            && second.contains("id=\"fight-form\""),
        "{second}"
    );
    let res = app.post_form(&to, &format!("{to}/cancel"), &[]).await;
    assert_eq!(crate::helpers::location(&res), to);
    let page = app.get_html(&to).await;
    assert!(page.contains("stopped before it finished"), "{page}");
    assert!(!page.contains("Stop this simulation"));
    assert!(
        !app.get_html("/lotf/fight")
            .await
            .contains("still waiting or running"),
        "a stopped job is no longer pointed to"
    );
}
