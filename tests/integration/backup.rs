//! `muster backup` and `muster restore`: a database filled through the server is backed up from
//! SQLite while the server runs, restored into PostgreSQL, backed up again and restored into a
//! fresh SQLite; every table matches row for row, and the restored servers answer as the first
//! did and let their users log in. Without a PostgreSQL server the SQLite → SQLite leg runs.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use chrono::Timelike;
use diesel::connection::SimpleConnection;
use diesel::Connection;
use serde_json::{json, Value};

use crate::helpers::{client, test_config, with_database, TempDir, TestDb, Visitor, PASSWORD};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

fn muster(database_url: &str, data_dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("MUSTER_DATA_DIR", data_dir)
        .env("MUSTER_LOG", "warn");
    cmd
}

fn run(mut cmd: Command, what: &str) -> String {
    let started = Instant::now();
    let out = cmd.output().expect("run muster");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{what} failed: {stderr}");
    eprintln!("{what}: {:.2} s", started.elapsed().as_secs_f64());
    stderr
}

fn back_up(url: &str, data: &Path, file: &Path) -> Value {
    let mut cmd = muster(url, data);
    cmd.arg("backup").arg("--output").arg(file);
    run(cmd, &format!("backup of {url}"));
    serde_json::from_str(&std::fs::read_to_string(file).expect("backup file")).expect("JSON")
}

fn restore(url: &str, data: &Path, file: &Path) {
    let mut cmd = muster(url, data);
    cmd.arg("restore").arg("--input").arg(file);
    run(cmd, &format!("restore into {url}"));
}

/// A server on the given database, sharing the tests' signing secret.
fn serve(url: &str, data: &Path) -> Visitor {
    let app = muster::web::Application::build(&test_config(url, data)).expect("server starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    Visitor {
        address,
        client: client(),
    }
}

/// A new PostgreSQL database, when a server answers (MUSTER_TEST_POSTGRES_URL, or the local
/// default); `None` skips that leg.
fn postgres_database() -> Option<TestDb> {
    let admin_url = std::env::var("MUSTER_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let mut admin = diesel::PgConnection::establish(&admin_url).ok()?;
    let name = format!(
        "muster_restore_{}_{}",
        std::process::id(),
        muster::app::dice::random_token(6)
            .to_lowercase()
            .replace(['-', '_'], "x")
    );
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create database");
    let url = with_database(&admin_url, &name);
    Some(TestDb::Postgres {
        admin_url,
        name,
        url,
    })
}

async fn api(v: &Visitor, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let url = v.url(&format!("/api/v1{path}"));
    let req = match (method, body) {
        ("GET", _) => v.client.get(url),
        (_, Some(b)) => v.client.post(url).json(&b),
        (_, None) => v.client.post(url),
    };
    let res = req.bearer_auth(token).send().await.expect("request");
    let status = res.status();
    let value: Value = res.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{method} {path}: {status} {value}");
    value
}

async fn token(v: &Visitor, email: &str) -> String {
    let res = v
        .client
        .post(v.url("/api/v1/auth/token"))
        .json(&json!({"email": email, "password": PASSWORD}))
        .send()
        .await
        .expect("token");
    assert_eq!(res.status(), 200, "{email} logs in");
    res.json::<Value>().await.expect("json")["token"]
        .as_str()
        .expect("token")
        .to_string()
}

fn lotf_roster(name: &str, nation: &str) -> Value {
    let group = |g: &str| {
        let elements: Vec<Value> = (1..=3)
            .map(|i| json!({"name": format!("{name} {g} {i}"), "type": "infantry", "size": "medium"}))
            .collect();
        json!({"name": g, "commander": {"name": format!("{name} {g}")}, "elements": elements})
    };
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
           "nation": nation, "points_limit": 150, "force_commander": {"name": format!("{name} general")},
           "groups": [group("Left"), group("Right")]})
}

/// The rows with every timestamp cut to the microsecond: PostgreSQL keeps no finer time than
/// that, while SQLite keeps what it was given (nanoseconds).
fn to_microseconds(v: &Value) -> Value {
    match v {
        Value::String(s) => {
            match chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f") {
                Ok(t) => Value::String(
                    t.with_nanosecond(t.nanosecond() / 1000 * 1000)
                        .unwrap_or(t)
                        .format("%Y-%m-%dT%H:%M:%S%.6f")
                        .to_string(),
                ),
                Err(_) => v.clone(),
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(to_microseconds).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), to_microseconds(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What the server answers about everything in it, as a user sees it.
async fn answers(v: &Visitor, tokens: &[String], battles: &[i64], campaign: i64) -> Vec<Value> {
    let mut out = Vec::new();
    for t in tokens {
        out.push(api(v, t, "GET", "/me", None).await);
        out.push(api(v, t, "GET", "/rosters", None).await);
    }
    // Each battle with its open side and any request for the engine (issue 19).
    for battle in battles {
        out.push(api(v, &tokens[0], "GET", &format!("/battles/{battle}"), None).await);
    }
    for path in [
        format!("/campaigns/{campaign}"),
        format!("/campaigns/{campaign}/log"),
        format!("/campaigns/{campaign}/standings"),
    ] {
        out.push(api(v, &tokens[0], "GET", &path, None).await);
    }
    out
}

#[tokio::test]
async fn a_populated_database_moves_from_sqlite_to_postgresql_and_back_with_nothing_lost() {
    let work = TempDir::new("backup");
    let data = work.0.join("data");
    let source_url = work.0.join("source.db").to_string_lossy().into_owned();
    let source = serve(&source_url, &data);

    // ---- Fill it through the server: two players, rosters of both systems, a fought battle,
    // a campaign with orders and an adjustment, and a browser session.
    for (email, name) in [
        ("howe@example.com", "Howe"),
        ("washington@example.com", "Washington"),
    ] {
        let res = source
            .client
            .post(source.url("/api/v1/users"))
            .json(&json!({"email": email, "display_name": name, "password": PASSWORD}))
            .send()
            .await
            .expect("register");
        assert_eq!(res.status(), 201, "register {email}");
    }
    let tokens = vec![
        token(&source, "howe@example.com").await,
        token(&source, "washington@example.com").await,
    ];
    let red = api(
        &source,
        &tokens[0],
        "POST",
        "/rosters",
        Some(lotf_roster("Red", "british")),
    )
    .await;
    let blue = api(
        &source,
        &tokens[1],
        "POST",
        "/rosters",
        Some(lotf_roster("Blue", "american")),
    )
    .await;
    let reserve = api(
        &source,
        &tokens[0],
        "POST",
        "/rosters",
        Some(lotf_roster("Reserve", "american")),
    )
    .await;
    api(
        &source,
        &tokens[0],
        "POST",
        "/rosters",
        Some(
            json!({"format": "muster.lod.roster/1", "army_list": "british", "brigades": [
            {"general": {"name": "Fraser"}, "units": [{"entry": "guard_infantry", "bases": 4}]}]}),
        ),
    )
    .await;
    let battle = api(
        &source,
        &tokens[0],
        "POST",
        "/battles",
        Some(json!({"first": format!("r:{}", red["id"]), "second": format!("r:{}", reserve["id"]), "second_player": "Guest Gus",
                    "scenario": "take_the_field"})),
    )
    .await;
    let battle_id = battle["id"].as_i64().expect("battle id");
    let fought = api(
        &source,
        &tokens[0],
        "POST",
        &format!("/battles/{battle_id}/simulate"),
        Some(json!({"version": 1})),
    )
    .await;
    assert_eq!(fought["status"], "confirmed");
    // Club night (issue 19): a battle whose side waits for Washington's roster, and one whose
    // engine Howe asked for.
    let open = api(
        &source,
        &tokens[0],
        "POST",
        "/battles",
        Some(
            json!({"first": format!("r:{}", red["id"]), "second": "open",
                    "second_player": "washington@example.com"}),
        ),
    )
    .await;
    assert_eq!(open["open_side"]["waiting"], true, "{open}");
    let asked = api(
        &source,
        &tokens[0],
        "POST",
        "/battles",
        Some(
            json!({"first": format!("r:{}", red["id"]), "second": format!("r:{}", reserve["id"]),
                    "second_player": "washington@example.com", "scenario": "take_the_field"}),
        ),
    )
    .await;
    let asked_id = asked["id"].as_i64().expect("battle id");
    let accepted = api(
        &source,
        &tokens[1],
        "POST",
        &format!("/battles/{asked_id}/accept"),
        Some(json!({"version": asked["version"]})),
    )
    .await;
    let asked = api(
        &source,
        &tokens[0],
        "POST",
        &format!("/battles/{asked_id}/engine/ask"),
        Some(json!({"version": accepted["version"]})),
    )
    .await;
    assert_eq!(asked["engine_request"]["by_you"], true, "{asked}");
    let battle_ids = [battle_id, open["id"].as_i64().expect("battle id"), asked_id];
    let created = api(
        &source,
        &tokens[0],
        "POST",
        "/campaigns",
        Some(json!({"name": "Philadelphia 1777", "map": "philadelphia-1777", "points": 200, "turns": 3, "sides": ["", ""]})),
    )
    .await;
    let campaign = created["id"].as_i64().expect("campaign id");
    for (i, roster) in [&red, &blue].into_iter().enumerate() {
        api(
            &source,
            &tokens[i],
            "POST",
            &format!("/campaigns/{campaign}/join"),
            Some(json!({"code": created["invite_code"], "side": i, "roster_id": roster["id"]})),
        )
        .await;
    }
    api(
        &source,
        &tokens[0],
        "POST",
        &format!("/campaigns/{campaign}/start"),
        None,
    )
    .await;
    api(
        &source,
        &tokens[0],
        "POST",
        &format!("/campaigns/{campaign}/adjustments"),
        Some(json!({"side": 1, "points": 2, "reason": "Late start"})),
    )
    .await;
    api(
        &source,
        &tokens[1],
        "POST",
        &format!("/campaigns/{campaign}/orders"),
        Some(json!({"force": "f2", "order": {"order": "hold"}})),
    )
    .await;
    assert_eq!(
        source.login("howe@example.com", PASSWORD).await.status(),
        303
    );
    let before = answers(&source, &tokens, &battle_ids, campaign).await;

    // ---- SQLite → (PostgreSQL →) SQLite, backing up while the first server runs.
    let first = back_up(&source_url, &data, &work.0.join("first.json"));
    assert_eq!(first["format"], "muster.backup/1");
    assert_eq!(first["made_from"], "SQLite");
    for (table, at_least) in [
        ("users", 2),
        ("sessions", 3),
        ("rosters", 3),
        ("battles", 1),
        ("campaigns", 1),
        ("campaign_members", 2),
        ("campaign_log", 5),
        ("battle_open_sides", 1),
        ("battle_engine_requests", 1),
        ("settings", 0),
    ] {
        let n = first["tables"][table].as_array().map_or(0, Vec::len);
        assert!(n >= at_least, "{table}: {n} rows");
    }
    let rule_systems: Vec<&Value> = first["tables"]["rosters"]
        .as_array()
        .expect("rosters")
        .iter()
        .map(|r| &r["rule_system"])
        .collect();
    assert!(
        rule_systems.contains(&&json!("lotf")) && rule_systems.contains(&&json!("lod")),
        "{rule_systems:?}"
    );

    let mut last = first.clone();
    let pg = postgres_database();
    let _pg_server;
    if let Some(pg) = &pg {
        restore(pg.url(), &data, &work.0.join("first.json"));
        let server = serve(pg.url(), &data);
        assert_eq!(
            answers(&server, &tokens, &battle_ids, campaign).await,
            before,
            "PostgreSQL answers as SQLite did"
        );
        let moved = back_up(pg.url(), &data, &work.0.join("moved.json"));
        assert_eq!(moved["made_from"], "PostgreSQL");
        assert_eq!(
            to_microseconds(&moved["tables"]),
            to_microseconds(&first["tables"]),
            "PostgreSQL holds every row as SQLite did"
        );
        // The sequences moved on: new rows get new ids.
        let newer = api(
            &server,
            &tokens[1],
            "POST",
            "/rosters",
            Some(lotf_roster("Green", "american")),
        )
        .await;
        let newest_before = first["tables"]["rosters"]
            .as_array()
            .and_then(|r| r.last())
            .map(|r| r["id"].clone());
        assert!(
            newer["id"].as_i64() > newest_before.and_then(|v| v.as_i64()),
            "{newer}"
        );
        _pg_server = server;
        last = moved;
    } else {
        eprintln!("no PostgreSQL server answers: only the SQLite → SQLite leg runs");
    }
    let file = work.0.join(if pg.is_some() {
        "moved.json"
    } else {
        "first.json"
    });
    let fresh_url = work.0.join("fresh.db").to_string_lossy().into_owned();
    restore(&fresh_url, &data, &file);
    let again = back_up(&fresh_url, &data, &work.0.join("again.json"));
    assert_eq!(again["tables"], last["tables"], "every row came back");
    assert_eq!(
        to_microseconds(&again["tables"]),
        to_microseconds(&first["tables"]),
        "nothing changed on the way"
    );
    let fresh = serve(&fresh_url, &data);
    assert_eq!(
        answers(&fresh, &tokens, &battle_ids, campaign).await,
        before,
        "the restored server answers the same"
    );
    token(&fresh, "washington@example.com").await;
    assert_eq!(
        fresh.login("howe@example.com", PASSWORD).await.status(),
        303,
        "a page login works"
    );

    let help = Command::new(BIN).arg("--help").output().expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("backup") && help.contains("restore"),
        "{help}"
    );

    // ---- A database with data in it is refused, and left as it was.
    let mut cmd = muster(&source_url, &data);
    cmd.arg("restore")
        .arg("--input")
        .arg(work.0.join("first.json"));
    let out = cmd.output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("already holds data") && stderr.contains("2 users"),
        "{stderr}"
    );
    assert_eq!(
        answers(&source, &tokens, &battle_ids, campaign).await,
        before
    );
}
