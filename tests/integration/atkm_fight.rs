//! All the King's Men battles on the web (`/atkm/fight`): a narrated battle between your own
//! roster, a sample battle's force or a random force that replays from its seed and from its
//! set-up file, a sample battle fought with its own end (K-39–K-41), the odds as a background
//! job with Wilson intervals, and the API's battle and odds with their errors.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, TestApp, PASSWORD};

const EXAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/rules/systems/atkm/data/examples"
);

fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The narration of a report page, unescaped.
fn log_of(html: &str) -> String {
    let start = html.find("battle-log").expect("the report has a log");
    unescape(&html[start..])
}

/// Posts a form as the logged-in visitor, without its CSRF token.
async fn without_token(app: &TestApp, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// Posts the fight form and follows the redirect to the report.
async fn fight(app: &TestApp, attacker: &str, defender: &str, seed: &str) -> (String, String) {
    let res = app
        .post_form(
            "/atkm/fight",
            "/atkm/fight/battle",
            &[
                ("attacker", attacker),
                ("defender", defender),
                ("seed", seed),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "{attacker} v {defender}");
    let url = location(&res);
    assert!(url.starts_with("/atkm/fight/battle?") && url.contains("seed="));
    assert!(!url.contains("csrf"), "no token in the address");
    let html = app.get_html(&url).await;
    (url, html)
}

#[tokio::test]
async fn atkm_a_battle_replays_from_its_seed_and_its_set_up_file() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/atkm/fight").await.status(),
        303,
        "logged-in users only"
    );
    app.register("atkm-fighter@example.org", "Fighter", PASSWORD)
        .await;
    // A roster of the player's own: Morgan's Americans, imported under another name.
    let mut mine: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{EXAMPLES}/cowpens_1781_americans.json")).unwrap(),
    )
    .unwrap();
    mine["name"] = json!("Morgan's riflemen");
    for key in ["id", "scenario", "side"] {
        mine.as_object_mut().unwrap().remove(key);
    }
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &mine.to_string())],
        )
        .await;
    assert_eq!(res.status(), 303, "the roster is imported");
    let roster_id = location(&res)
        .trim_start_matches("/rosters/")
        .split(['/', '?'])
        .next()
        .unwrap()
        .to_string();

    let form = app.get_html("/atkm/fight").await;
    let own = format!("r:{roster_id}");
    for offered in [
        own.as_str(),
        "sample:cowpens_1781_british",
        "sample:monmouth_1778_americans",
        "random:5",
    ] {
        assert!(form.contains(offered), "{offered} is offered");
    }
    assert!(
        app.get_html("/").await.contains("/atkm/fight"),
        "the tool is listed"
    );

    // No CSRF token: refused.
    let res = without_token(&app, "/atkm/fight/battle", &[("attacker", "random:5")]).await;
    assert_eq!(res.status(), 403, "the form needs its token");

    // A seed that is no number gives the form back as filled in, with what to fix.
    for path in ["/atkm/fight/battle", "/atkm/fight/odds"] {
        let res = app
            .post_form(
                "/atkm/fight",
                path,
                &[("attacker", &own), ("defender", "random:8"), ("seed", "-1")],
            )
            .await;
        assert_eq!(res.status(), 422, "{path}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("The seed is a whole number from 0 up")
                && html.contains(r#"<option value="random:8" selected>"#),
            "{path}: the form is kept"
        );
    }

    // Your roster against a sample force: the same seed, the same battle.
    let (url, report) = fight(&app, &own, "sample:cowpens_1781_british", "").await;
    let report = unescape(&report);
    assert!(
        report.contains("outcome-banner")
            && report.contains("Turn 1")
            && report.contains("Morgan's riflemen against Cowpens 1781: Tarleton's British")
            && report.contains("An open battle")
            && report.contains("Rank and file"),
        "{report}"
    );
    let again = app.get_html(&url).await;
    assert_eq!(
        log_of(&report),
        log_of(&again),
        "the same seed gives the same battle"
    );

    // Its set-up file, pasted into the replay form, fights the same battle again.
    let query = &url["/atkm/fight/battle?".len()..];
    let file = app.get(&format!("/atkm/fight/setup.json?{query}")).await;
    assert_eq!(file.status(), 200);
    assert!(file
        .headers()
        .get("content-disposition")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("atkm-battle-"));
    let setup_text = file.text().await.unwrap();
    let setup: Value = serde_json::from_str(&setup_text).unwrap();
    assert_eq!(setup["format"], "muster.atkm.battle/1");
    let res = app
        .post_form(
            "/atkm/fight",
            "/atkm/fight/replay",
            &[("setup", &setup_text)],
        )
        .await;
    assert_eq!(res.status(), 200);
    let replayed = res.text().await.unwrap();
    assert_eq!(
        log_of(&replayed),
        log_of(&report),
        "the set-up file replays the battle"
    );
    // A file that is not a set-up gives the form back with what is wrong, the text kept.
    let res = app
        .post_form(
            "/atkm/fight",
            "/atkm/fight/replay",
            &[("setup", r#"{"format": "muster.lod.battle/1"}"#)],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = unescape(&res.text().await.unwrap());
    assert!(
        html.contains("not an All the King's Men battle") && html.contains("muster.lod.battle/1"),
        "{html}"
    );

    // Over the API the set-up fights the same battle, every time.
    let token = app.api_token("atkm-fighter@example.org", PASSWORD).await;
    let client = reqwest::Client::new();
    let simulate = |body: Value| {
        client
            .post(app.url("/api/v1/atkm/simulate"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let first: Value = simulate(setup.clone()).await.unwrap().json().await.unwrap();
    let second: Value = simulate(setup.clone()).await.unwrap().json().await.unwrap();
    assert_eq!(first["outcome"], second["outcome"], "a set-up replays");
    assert_eq!(first["setup"], setup);
    assert_eq!(first["outcome"]["format"], "muster.atkm.result/1");
    let page_log = log_of(&report);
    let lines = first["outcome"]["log"].as_array().unwrap();
    assert!(!lines.is_empty());
    // Every line, the last ("the battle ends: …") too; the page starts each with a capital.
    let page_log = page_log.to_lowercase();
    for line in lines {
        let text = line.as_str().unwrap();
        let told = text
            .split_once(": ")
            .map_or(text, |(_, t)| t)
            .to_lowercase();
        assert!(
            page_log.contains(&told),
            "the page told the same battle: {told}"
        );
    }
    let quiet: Value = simulate(
        json!({"format": setup["format"], "scenario": setup["scenario"],
        "turns": setup["turns"], "attacker": setup["attacker"], "defender": setup["defender"],
        "seed": setup["seed"], "narrate": false}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert!(quiet["outcome"].get("log").is_none(), "{quiet}");
    assert_eq!(quiet["outcome"]["winner"], first["outcome"]["winner"]);
}

#[tokio::test]
async fn atkm_sample_battles_end_their_own_way_and_random_forces_show_their_rolls() {
    let app = spawn_app().await;
    app.register("atkm-sample@example.org", "Sampler", PASSWORD)
        .await;
    // North Point, chosen from the defender's side first: the book's attacker still attacks,
    // and the battle lasts three turns at most (K-40).
    let (_, report) = fight(
        &app,
        "sample:north_point_1814_americans",
        "sample:north_point_1814_british",
        "7",
    )
    .await;
    let report = unescape(&report);
    assert!(
        report.contains("North Point")
            && report.contains("of at most 3")
            && report.contains("How this sample battle is won")
            && report.contains("the British attack"),
        "{report}"
    );
    assert!(
        report.contains("Attacker:</span> North Point 1814: Ross's British"),
        "the British attack at North Point"
    );
    assert!(!report.contains("id=\"turn-4\""), "no fourth turn");

    // Two random forces: rolled from the seed, their rolls told before the battle, the same
    // seed rolling the same forces.
    let (url, report) = fight(&app, "random:5", "random:10", "11").await;
    let report = unescape(&report);
    assert!(
        report.contains("Random army A (5 units) against Random army B (10 units)")
            && report.contains("Before the battle")
            && report.contains("Random army A (5 units): Unit 1: rolled"),
        "{report}"
    );
    assert_eq!(log_of(&report), log_of(&app.get_html(&url).await));
    // A force that is not on the list is refused by name.
    let res = app
        .post_form(
            "/atkm/fight",
            "/atkm/fight/battle",
            &[("attacker", "random:99"), ("defender", "random:5")],
        )
        .await;
    let res = app.get(&location(&res)).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Choose a force from the list."));
    // Somebody else's roster is not found.
    assert_eq!(
        app.get("/atkm/fight/battle?attacker=r:999999&defender=random:5&seed=1")
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn atkm_odds_run_as_a_job_with_wilson_intervals_and_the_api_answers_its_errors() {
    let app = spawn_app().await;
    app.register("atkm-odds@example.org", "Odds", PASSWORD)
        .await;
    // The page: a background job with progress, ending with the intervals.
    let res = app
        .post_form(
            "/atkm/fight",
            "/atkm/fight/odds",
            &[
                ("attacker", "sample:cowpens_1781_british"),
                ("defender", "sample:cowpens_1781_americans"),
                ("seed", "9"),
                ("runs", "200"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let job_url = location(&res);
    assert!(job_url.starts_with("/atkm/fight/jobs/"), "{job_url}");
    let mut page = String::new();
    for _ in 0..300 {
        page = app.get_html(&job_url).await;
        if page.contains("95 % interval") {
            break;
        }
        assert!(page.contains("job-bar"), "{page}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let page = unescape(&page);
    assert!(
        page.contains("200 battles")
            && page.contains("95 % interval (Wilson)")
            && page.contains("Cowpens 1781: Tarleton's British wins")
            && page.contains("turns on average"),
        "{page}"
    );
    let other = app.other_visitor();
    assert_ne!(
        other.get(&job_url).await.status(),
        200,
        "a job is its owner's"
    );
    // Stopping needs the form's token.
    let res = without_token(&app, &format!("{job_url}/cancel"), &[]).await;
    assert_eq!(res.status(), 403);

    // The API: answered at once for a few battles, with intervals that hold their share.
    let token = app.api_token("atkm-odds@example.org", PASSWORD).await;
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(format!("{EXAMPLES}/{name}.json")).unwrap())
            .unwrap()
    };
    let (british, americans) = (read("cowpens_1781_british"), read("cowpens_1781_americans"));
    let client = reqwest::Client::new();
    let post = |path: &str, body: Value, token: Option<&str>| {
        let req = client.post(app.url(path)).json(&body);
        match token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
        .send()
    };
    let body = json!({"attacker": british, "defender": americans, "seed": 5, "runs": 150});
    let res = post("/api/v1/atkm/simulate/odds", body.clone(), Some(&token))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let odds: Value = res.json().await.unwrap();
    assert_eq!(odds["runs"], 150);
    let mut total = 0.0;
    for k in ["attacker", "defender", "draw"] {
        let (p, low, high) = (
            odds[k]["p"].as_f64().unwrap(),
            odds[k]["low"].as_f64().unwrap(),
            odds[k]["high"].as_f64().unwrap(),
        );
        assert!(low <= p && p <= high, "{k}: {odds}");
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-9, "{odds}");
    let again: Value = post("/api/v1/atkm/simulate/odds", body, Some(&token))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again, odds, "the same seed gives the same odds");

    // The short form fights a sample battle when both rosters are its two sides.
    let res = post(
        "/api/v1/atkm/simulate",
        json!({"attacker": americans, "defender": british, "seed": 3}),
        Some(&token),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 200);
    let fought: Value = res.json().await.unwrap();
    assert_eq!(fought["setup"]["scenario"], "cowpens_1781");
    assert_eq!(fought["setup"]["seed"], 3);

    // Errors: no login, broken JSON, a missing side, a bad seed or run count, an unknown battle.
    let res = post("/api/v1/atkm/simulate", json!({}), None)
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let res = post("/api/v1/atkm/simulate/odds", json!({"runs": 5}), None)
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let res = client
        .post(app.url("/api/v1/atkm/simulate"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"attacker\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    for (path, body, says) in [
        (
            "/api/v1/atkm/simulate",
            json!({"attacker": british}),
            "Give the defender's roster",
        ),
        (
            "/api/v1/atkm/simulate",
            json!({"attacker": british, "defender": americans, "seed": -4}),
            "seed is a whole number",
        ),
        (
            "/api/v1/atkm/simulate",
            json!({"attacker": british, "defender": americans, "scenario": "yorktown"}),
            "not one of the sample battles",
        ),
        (
            "/api/v1/atkm/simulate",
            json!({"attacker": {"format": "muster.lod.roster/1"}, "defender": americans}),
            "attacker",
        ),
        (
            "/api/v1/atkm/simulate/odds",
            json!({"attacker": british, "defender": americans, "runs": 0}),
            "runs must be from 1 to",
        ),
    ] {
        let res = post(path, body, Some(&token)).await.unwrap();
        assert_eq!(res.status(), 422, "{path}: {says}");
        let err: Value = res.json().await.unwrap();
        assert!(err.to_string().contains(says), "{says}: {err}");
    }
}

/// In Chromium at a phone's width: the form is filled and clicked, the report tells the battle
/// without widening the page, and its Replay link tells the same battle again.
#[tokio::test]
async fn atkm_fight_in_a_browser_on_a_phone() {
    use crate::browser::Browser;
    const WIDTH: u32 = 390;
    let app = spawn_app().await;
    app.register("atkm-phone@example.org", "Phone", PASSWORD)
        .await;
    let Some(b) = Browser::start_phone("atkm_fight_in_a_browser_on_a_phone", WIDTH).await else {
        return;
    };
    b.open(&app.url("/login")).await;
    b.fill("#email", "atkm-phone@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;

    b.open(&app.url("/atkm/fight")).await;
    b.select("#attacker", "sample:north_point_1814_british")
        .await;
    b.select("#defender", "sample:north_point_1814_americans")
        .await;
    b.fill("#seed", "5").await;
    b.click("#fight-form button[type=submit]").await;
    let banner = b
        .wait_for_text(".outcome-banner", |t| {
            t.contains("win") || t.contains("draw")
        })
        .await;
    let path = b.path().await;
    assert!(
        path.starts_with("/atkm/fight/battle?") && path.contains("seed=5"),
        "{path}"
    );
    let widths = b
        .client
        .execute(
            "const r = document.documentElement; return [r.scrollWidth, r.clientWidth];",
            vec![],
        )
        .await
        .expect("measure");
    let (scroll, client) = (
        widths[0].as_f64().unwrap_or(0.0),
        widths[1].as_f64().unwrap_or(0.0),
    );
    assert!(
        client <= f64::from(WIDTH) + 1.0 && scroll <= client + 1.0,
        "the report is {scroll} px wide in a {client} px window"
    );
    let log = b.text(".battle-log").await;
    b.click("a[href^='/atkm/fight/battle?']").await;
    let again = b.wait_for_text(".outcome-banner", |t| !t.is_empty()).await;
    assert_eq!(again, banner, "Replay fights the same battle");
    assert_eq!(b.text(".battle-log").await, log);
    b.close().await;
}
