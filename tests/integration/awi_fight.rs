//! AWI wargames rules battles fought by the engine on the web (issue 20, item 6): a narrated
//! battle that replays from its seed and from its set-up file, the API's battle and odds, odds
//! fought as a background job with progress, and a stored battle handed to the engine.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, PASSWORD};

const BRITISH: &str = "x:example:british";
const CONTINENTAL: &str = "x:example:continental";

#[tokio::test]
async fn awi_a_battle_replays_from_its_seed_and_set_up_and_odds_run_as_a_job() {
    let app = spawn_app().await;
    assert_eq!(app.get("/awi/fight").await.status(), 303, "players only");
    app.register("tarleton@example.org", "Tarleton", PASSWORD)
        .await;
    let form = app.get_html("/awi/fight").await;
    assert!(
        form.contains(&format!("value=\"{BRITISH}\" selected"))
            && form.contains(&format!("value=\"{CONTINENTAL}\" selected")),
        "the example forces face each other by default: {form}"
    );
    assert!(!form.contains("x:example:empty"), "no empty force to fight");

    // The form without its CSRF token is refused.
    let res = app
        .client
        .post(app.url("/awi/fight/battle"))
        .form(&[("attacker", BRITISH), ("defender", CONTINENTAL)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    let res = app
        .post_form(
            "/awi/fight",
            "/awi/fight/battle",
            &[
                ("attacker", BRITISH),
                ("defender", CONTINENTAL),
                ("seed", ""),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let report_url = location(&res);
    assert!(report_url.starts_with("/awi/fight/battle?") && report_url.contains("seed="));
    assert!(!report_url.contains("csrf"), "no token in the address");
    let res = app
        .post_form(
            "/awi/fight",
            "/awi/fight/odds",
            &[
                ("attacker", CONTINENTAL),
                ("defender", BRITISH),
                ("seed", "x"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("The seed is a whole number")
            && html.contains(&format!("<option value=\"{CONTINENTAL}\" selected>")),
        "the form is kept with what to fix"
    );

    let report = app.get_html(&report_url).await;
    assert!(
        report.contains("outcome-banner") && report.contains("Turn 1"),
        "{report}"
    );
    assert!(
        report.contains("points"),
        "the result is told in Muster's points (W-31)"
    );
    assert!(report.contains("Move 1:"), "the narration by move");
    let log = |html: &str| html[html.find("battle-log").expect("a log")..].to_string();
    let again = app.get_html(&report_url).await;
    assert_eq!(
        log(&report),
        log(&again),
        "the same seed gives the same battle"
    );

    // The set-up file fights the same battle again over the API.
    let query = &report_url["/awi/fight/battle?".len()..];
    let res = app.get(&format!("/awi/fight/setup.json?{query}")).await;
    assert!(res
        .headers()
        .get("content-disposition")
        .is_some_and(|v| v.to_str().unwrap_or("").contains("awi-battle-")));
    let setup: Value = res.json().await.unwrap();
    assert_eq!(setup["format"], "muster.awi.battle/1");
    let token = app.api_token("tarleton@example.org", PASSWORD).await;
    let client = reqwest::Client::new();
    let post = |path: &str, body: &Value| {
        client
            .post(app.url(path))
            .bearer_auth(&token)
            .json(body)
            .send()
    };
    let first: Value = post("/api/v1/awi/simulate", &setup)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let second: Value = post("/api/v1/awi/simulate", &setup)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["outcome"], second["outcome"],
        "a set-up replays exactly"
    );
    assert_eq!(first["setup"], setup);
    assert_eq!(first["outcome"]["format"], "muster.awi.result/1");
    // The page's text with its escapes read back.
    let page_log = ["&#39;", "&#x27;", "&#34;", "&quot;", "&lt;", "&gt;"]
        .iter()
        .zip(["'", "'", "\"", "\"", "<", ">"])
        .fold(log(&report), |text, (escaped, plain)| {
            text.replace(escaped, plain)
        })
        .replace("&amp;", "&");
    for line in first["outcome"]["log"].as_array().unwrap().iter().take(8) {
        let text = line.as_str().unwrap();
        assert!(
            page_log.contains(text),
            "the page told the same battle: {text}"
        );
    }
    // The short form: two orders of battle and a seed; without the log when asked.
    let short = json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"],
                       "seed": 11, "narrate": false});
    let quiet: Value = post("/api/v1/awi/simulate", &short)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(quiet["setup"]["seed"], 11);
    assert!(quiet["outcome"].get("log").is_none(), "{quiet}");
    let res = client
        .post(app.url("/api/v1/awi/simulate"))
        .json(&setup)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401, "logged-in users only");
    let res = post(
        "/api/v1/awi/simulate",
        &json!({"attacker": {"format": "muster.awi.oob/1", "name": "Nobody", "brigades": []},
                "defender": setup["defender"]["roster"]}),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 422, "a force that cannot fight is refused");

    // Odds over the API, answered at once, with Wilson intervals.
    let odds: Value = post(
        "/api/v1/awi/simulate/odds",
        &json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"],
                "seed": 5, "runs": 120}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(odds["runs"], 120);
    let total: f64 = ["attacker_win", "draw", "defender_win"]
        .iter()
        .map(|k| odds[k]["p"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{odds}");
    assert!(odds["attacker_win"]["low"].as_f64() <= odds["attacker_win"]["p"].as_f64());
    let res = post(
        "/api/v1/awi/simulate/odds",
        &json!({"attacker": setup["attacker"]["roster"],
                    "defender": setup["defender"]["roster"], "runs": 0}),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 422, "runs out of range");

    // Odds from the page run as a background job with its progress page.
    let res = app
        .post_form(
            "/awi/fight",
            "/awi/fight/odds",
            &[
                ("attacker", BRITISH),
                ("defender", CONTINENTAL),
                ("seed", "9"),
                ("runs", "200"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let job_url = location(&res);
    assert!(job_url.starts_with("/awi/fight/jobs/"), "{job_url}");
    let mut page = String::new();
    for _ in 0..300 {
        page = app.get_html(&job_url).await;
        if page.contains("95 % interval") {
            break;
        }
        assert!(page.contains("job-bar"), "progress while it runs: {page}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        page.contains("200 battles") && page.contains("95 % interval (Wilson)"),
        "{page}"
    );
    assert!(page.contains("wins"));
    let other = app.other_visitor();
    assert_ne!(
        other.get(&job_url).await.status(),
        200,
        "a job is its owner's"
    );
}

#[tokio::test]
async fn awi_a_stored_battle_is_fought_by_the_engine() {
    let app = spawn_app().await;
    app.register("morgan@example.org", "Morgan", PASSWORD).await;
    let res = app
        .post_form(
            "/battles?system=awi",
            "/battles",
            &[
                ("system", "awi"),
                ("first", "h:awi:example:continental"),
                ("second", "h:awi:example:british"),
                ("first_player", ""),
                ("second_player", "Guest Tarleton"),
                ("scenario", "open_field"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    let battle = location(&res);
    let page = app.get_html(&battle).await;
    assert!(page.contains("Let Muster fight it"), "{page}");
    let res = app
        .post_form(&battle, &format!("{battle}/simulate"), &[("version", "1")])
        .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&battle).await;
    assert!(
        (page.contains("wins:") || page.contains("A draw")) && page.contains("points"),
        "the engine's result is shown: {page}"
    );
    assert!(!page.contains("Let Muster fight it"), "decided once");
}
