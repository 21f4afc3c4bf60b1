//! Concurrent writers on one campaign: every action succeeds, on SQLite (writers queue inside
//! the server instead of meeting "database is busy") and on PostgreSQL (the campaign row is
//! locked for each change instead of failing its version check). Every acknowledged write is
//! there after.

use std::time::Instant;

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

const WRITERS: usize = 64;

async fn call(
    http: &reqwest::Client,
    app: &TestApp,
    token: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let url = app.url(&format!("/api/v1{path}"));
    let req = match body {
        Some(b) => http.post(url).json(&b),
        None => http.get(url),
    };
    let res = req.bearer_auth(token).send().await.expect("request");
    let status = res.status().as_u16();
    let value = res.json().await.unwrap_or(Value::Null);
    (status, value)
}

fn roster(nation: &str) -> Value {
    let group = |g: &str| {
        let elements: Vec<Value> = (1..=3)
            .map(|i| json!({"name": format!("{g} {i}"), "type": "infantry", "size": "medium"}))
            .collect();
        json!({"name": g, "commander": {"name": g}, "elements": elements})
    };
    json!({"format": "muster.lotf.roster/1", "name": format!("{nation} force"),
           "war": "american_revolution", "nation": nation, "points_limit": 150,
           "force_commander": {"name": "General"},
           "groups": [group("Left"), group("Right")]})
}

#[tokio::test]
async fn sixty_four_concurrent_campaign_writers_lose_nothing_and_meet_no_busy_database() {
    let app = spawn_app().await;
    let http = reqwest::Client::new();
    let organiser = app.api_user("organiser@example.com").await;
    let player = app.api_user("player@example.com").await;
    let (status, created) = call(
        &http,
        &app,
        &organiser,
        "/campaigns",
        Some(
            json!({"name": "Busy night", "map": "philadelphia-1777", "points": 200,
                    "turns": 3, "sides": ["", ""]}),
        ),
    )
    .await;
    assert!(status < 300, "{status} {created}");
    let id = created["id"].as_i64().expect("campaign id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    for (side, (token, nation)) in [(&organiser, "british"), (&player, "american")]
        .into_iter()
        .enumerate()
    {
        let (status, r) = call(&http, &app, token, "/rosters", Some(roster(nation))).await;
        assert!(status < 300, "{status} {r}");
        let body = json!({"code": code, "side": side, "roster_id": r["id"]});
        let (status, j) = call(
            &http,
            &app,
            token,
            &format!("/campaigns/{id}/join"),
            Some(body),
        )
        .await;
        assert!(status < 300, "{status} {j}");
    }
    let (status, s) = call(
        &http,
        &app,
        &organiser,
        &format!("/campaigns/{id}/start"),
        Some(json!({})),
    )
    .await;
    assert!(status < 300, "{status} {s}");

    // Organiser adjustments, each +1 point to side 1 with its own reason, interleaved with
    // orders for the organiser's force, all at once.
    let started = Instant::now();
    let tasks: Vec<_> = (0..WRITERS)
        .map(|i| {
            let (http, app_url, organiser) = (http.clone(), app.url(""), organiser.clone());

            tokio::spawn(async move {
                let (token, path, body) = match i % 4 {
                    // Only the organiser's force orders, so the turn stays open throughout.
                    0 | 2 => (
                        organiser,
                        "orders",
                        json!({"force": "f1", "order": {"order": "hold"}}),
                    ),
                    _ => (
                        organiser,
                        "adjustments",
                        json!({"side": 1, "points": 1, "reason": format!("writer {i}")}),
                    ),
                };
                let res = http
                    .post(format!("{app_url}/api/v1/campaigns/{id}/{path}"))
                    .bearer_auth(token)
                    .json(&body)
                    .send()
                    .await
                    .expect("request");
                let status = res.status().as_u16();
                let text = res.text().await.unwrap_or_default();
                (i, path, status, text)
            })
        })
        .collect();
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.expect("writer task"));
    }
    let elapsed = started.elapsed();
    let count = |f: &dyn Fn(u16) -> bool| results.iter().filter(|r| f(r.2)).count();
    let (ok, conflict, server) = (
        count(&|s| (200..300).contains(&s)),
        count(&|s| s == 409),
        count(&|s| s >= 500),
    );
    eprintln!(
        "{} writers on {}: {ok} succeeded, {conflict} version conflicts, {server} server errors, \
         {:.1} acknowledged writes per second",
        WRITERS,
        if app.db.is_postgres() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        ok as f64 / elapsed.as_secs_f64()
    );
    // Writers to one campaign take turns (SQLite: one writer at a time; PostgreSQL: the
    // campaign row is locked for the change), so none of them meets a conflict either.
    for (i, path, status, text) in &results {
        assert!(*status < 300, "writer {i} ({path}) got {status}: {text}");
    }

    // Every acknowledged adjustment is in the log and in the standings, and nothing more.
    let acknowledged: Vec<usize> = results
        .iter()
        .filter(|r| r.1 == "adjustments" && r.2 < 300)
        .map(|r| r.0)
        .collect();
    let (_, log) = call(
        &http,
        &app,
        &organiser,
        &format!("/campaigns/{id}/log"),
        None,
    )
    .await;
    let text = log.to_string();
    for i in &acknowledged {
        assert!(
            text.contains(&format!("\"writer {i}\"")),
            "adjustment {i} is missing from the log"
        );
    }
    let (_, standings) = call(
        &http,
        &app,
        &organiser,
        &format!("/campaigns/{id}/standings"),
        None,
    )
    .await;
    assert_eq!(
        standings["sides"][1]["adjustment"].as_i64(),
        Some(acknowledged.len() as i64),
        "{standings}"
    );
}
