//! Liberty or Death! battles on the web: a narrated battle that replays from its seed and from
//! its set-up file, the API's battle and odds, and odds fought as a background job.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, PASSWORD};

#[tokio::test]
async fn a_battle_replays_from_its_seed_and_its_set_up_and_odds_run_in_the_background() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/lod/fight").await.status(),
        303,
        "logged-in users only"
    );
    app.register("lod-fighter@example.org", "Fighter", PASSWORD)
        .await;
    let form = app.get_html("/lod/fight").await;
    assert!(
        form.contains("x:0") && form.contains("x:1"),
        "the example armies are offered"
    );

    let res = app
        .post_form(
            "/lod/fight",
            "/lod/fight/battle",
            &[("attacker", "x:0"), ("defender", "x:1"), ("seed", "")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let report_url = location(&res);
    assert!(report_url.starts_with("/lod/fight/battle?") && report_url.contains("seed="));
    assert!(!report_url.contains("csrf"), "no token in the address");
    // A seed that is no number gives the form back as filled in, with what to fix.
    for path in ["/lod/fight/battle", "/lod/fight/odds"] {
        let res = app
            .post_form(
                "/lod/fight",
                path,
                &[("attacker", "x:1"), ("defender", "x:0"), ("seed", "-1")],
            )
            .await;
        assert_eq!(res.status(), 422, "{path}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("The seed is a whole number from 0 up")
                && html.contains(r#"<option value="x:1" selected>"#),
            "{path}: the form is kept"
        );
    }
    let report = app.get_html(&report_url).await;
    assert!(
        report.contains("outcome-banner") && report.contains("Turn 1"),
        "{report}"
    );
    assert!(report.contains("VPs"), "the result is told in VPs");
    let log = |html: &str| html[html.find("battle-log").unwrap()..].to_string();
    let again = app.get_html(&report_url).await;
    assert_eq!(
        log(&report),
        log(&again),
        "the same seed gives the same battle"
    );

    // The set-up file fights the same battle again over the API.
    let query = &report_url["/lod/fight/battle?".len()..];
    let setup: Value = app
        .get(&format!("/lod/fight/setup.json?{query}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(setup["format"], "muster.lod.battle/1");
    let token = app.api_token("lod-fighter@example.org", PASSWORD).await;
    let client = reqwest::Client::new();
    let fight = |body: Value| {
        client
            .post(app.url("/api/v1/lod/simulate"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let first: Value = fight(setup.clone()).await.unwrap().json().await.unwrap();
    let second: Value = fight(setup.clone()).await.unwrap().json().await.unwrap();
    assert_eq!(
        first["outcome"], second["outcome"],
        "a set-up replays exactly"
    );
    assert_eq!(first["setup"], setup);
    let lines = first["outcome"]["log"].as_array().unwrap();
    let page_log = log(&report);
    for line in lines.iter().take(5) {
        let text = line["text"]
            .as_str()
            .unwrap()
            .replace('\'', "&#x27;")
            .replace('"', "&quot;");
        assert!(
            page_log.contains(&text),
            "the page told the same battle: {text}"
        );
    }
    let unauthenticated = reqwest::Client::new()
        .post(app.url("/api/v1/lod/simulate"))
        .json(&setup)
        .send()
        .await
        .unwrap();
    assert_eq!(unauthenticated.status(), 401);
    let res = fight(json!({"attacker": {"format": "muster.lod.roster/1", "army_list": "british"}, "defender": setup["defender"]["roster"]}))
        .await
        .unwrap();
    assert_eq!(res.status(), 422, "an army without units cannot fight");

    // Odds over the API, answered at once.
    let odds: Value = client
        .post(app.url("/api/v1/lod/simulate/odds"))
        .bearer_auth(&token)
        .json(&json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"], "seed": 5, "runs": 150}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(odds["runs"], 150);
    let total = ["attacker_win", "draw", "defender_win"]
        .iter()
        .map(|k| odds[k]["p"].as_f64().unwrap())
        .sum::<f64>();
    assert!((total - 1.0).abs() < 1e-9, "{odds}");

    // Odds from the page run as a background job with a progress page.
    let res = app
        .post_form(
            "/lod/fight",
            "/lod/fight/odds",
            &[
                ("attacker", "x:0"),
                ("defender", "x:2"),
                ("seed", "9"),
                ("runs", "200"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let job_url = location(&res);
    assert!(job_url.starts_with("/lod/fight/jobs/"), "{job_url}");
    let mut page = String::new();
    for _ in 0..100 {
        page = app.get_html(&job_url).await;
        if page.contains("95 % interval") {
            break;
        }
        assert!(
            page.contains("job-bar") || page.contains("95 % interval"),
            "{page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        page.contains("200 battles") && page.contains("95 % interval"),
        "{page}"
    );
    let other = app.other_visitor();
    assert_ne!(
        other.get(&job_url).await.status(),
        200,
        "a job is its owner's"
    );
}

/// `muster simulate --system lod` replays a saved set-up exactly, and `muster calibrate` prints
/// one judged row per match.
#[test]
fn the_command_line_replays_a_saved_set_up_and_calibrates() {
    use std::process::Command;
    const BIN: &str = env!("CARGO_BIN_EXE_muster");
    let examples = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/rules/systems/lod/data/examples"
    );
    let dir = tempfile_dir();
    let setup = dir.join("battle.json");
    let run = |args: &[&str]| Command::new(BIN).args(args).output().unwrap();
    let first = run(&[
        "simulate",
        "--system",
        "lod",
        &format!("{examples}/continental.json"),
        &format!("{examples}/hessian.json"),
        "--seed",
        "42",
        "--save-setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(
        text.contains("-- Turn 1 --") && text.contains("VPs"),
        "{text}"
    );
    let again = run(&[
        "simulate",
        "--system",
        "lod",
        "--setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        text,
        "the set-up replays"
    );

    let cal = run(&["calibrate", "--system", "lod", "--battles", "40", "--json"]);
    assert!(matches!(cal.status.code(), Some(0 | 1)));
    let rows: Value = serde_json::from_slice(&cal.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(
        rows.len() >= 6,
        "mirror and two-to-one rows for several mixes"
    );
    for row in rows {
        assert_eq!(row["battles"], 40);
        assert!(row["ok"].is_boolean());
    }
    let _ = std::fs::remove_dir_all(dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-lod-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
