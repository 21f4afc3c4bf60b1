//! Exact odds, simulated battles and battle odds: API, jobs and the command line.

use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TempDir, TestApp};

fn force(name: &str, infantry: usize) -> Value {
    let elements: Vec<Value> = (0..infantry)
        .map(|i| json!({"name": format!("{name} foot {i}"), "type": "infantry", "size": "medium"}))
        .collect();
    let (first, second) = elements.split_at(infantry / 2);
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": "british",
           "points_limit": 25 * infantry, "force_commander": {"name": format!("{name} general")},
           "groups": [{"commander": {"name": "Left"}, "elements": first}, {"commander": {"name": "Right"}, "elements": second}]})
}

async fn post(app: &TestApp, path: &str, token: Option<&str>, body: &Value) -> reqwest::Response {
    let mut req = reqwest::Client::new().post(app.url(path)).json(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn exact_shooting_odds_explain_the_pool_and_sum_to_one() {
    let app = spawn_app().await;
    let req = json!({"shooter": {"type": "infantry", "size": "large"}, "target": {"type": "infantry", "size": "medium", "in_cover": true},
                     "range_inches": 2});
    let res = post(&app, "/api/v1/lotf/odds/shooting", None, &req).await;
    assert_eq!(res.status(), 200);
    let odds: Value = res.json().await.unwrap();
    let total: f64 = odds["hits_distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "distribution sums to 1: {total}"
    );
    let explanation = odds["pool_explanation"].as_str().unwrap();
    assert!(
        explanation.contains("point blank") && explanation.contains("cover"),
        "{explanation}"
    );
    assert!(odds["rulings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r == "R-15"));

    let res = post(&app, "/api/v1/lotf/odds/shooting", None, &json!({"shooter": {"type": "artillery", "size": "tiny"}, "target": {"type": "infantry", "size": "small"}, "range_inches": 10})).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"]["details"][0]["message"]
            .as_str()
            .unwrap()
            .contains("R-2"),
        "{body}"
    );

    let res = post(
        &app,
        "/api/v1/lotf/odds/morale",
        None,
        &json!({"morale": 7, "kind": "discipline"}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let morale: Value = res.json().await.unwrap();
    assert!(
        (morale["p_pass"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-9,
        "7+ on 2d6 is 21/36: {morale}"
    );
}

#[tokio::test]
async fn a_simulated_battle_replays_exactly_from_its_set_up() {
    let app = spawn_app().await;
    let req0 = json!({"attacker": force("Crown", 6), "defender": force("Congress", 6)});
    assert_eq!(
        post(&app, "/api/v1/lotf/battles/simulate", None, &req0)
            .await
            .status(),
        401,
        "logged-in users only"
    );
    let token = app.api_user("sim@example.org").await;
    let token = Some(token.as_str());
    let req = json!({"attacker": force("Crown", 6), "defender": force("Congress", 6), "scenario": "hold_the_ground", "seed": 1777});
    let first: Value = post(&app, "/api/v1/lotf/battles/simulate", token, &req)
        .await
        .json()
        .await
        .unwrap();
    let second: Value = post(&app, "/api/v1/lotf/battles/simulate", token, &req)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["outcome"], second["outcome"],
        "same request, same battle"
    );
    assert!(
        !first["outcome"]["log"].as_array().unwrap().is_empty(),
        "a narrated log"
    );
    let replay: Value = post(
        &app,
        "/api/v1/lotf/battles/simulate",
        token,
        &first["setup"],
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        replay["outcome"], first["outcome"],
        "the stored set-up reproduces the battle"
    );

    // The command line fights the same battle from the exported set-up.
    let dir = TempDir::new("setup");
    let path = dir.0.join("battle.json");
    std::fs::write(&path, first["setup"].to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["simulate", "--json", "--setup"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "winner",
        "victory_level",
        "attacker_vp",
        "defender_vp",
        "attacker_points_lost",
        "defender_points_lost",
        "elements",
        "commanders",
    ] {
        assert_eq!(
            cli[key], first["outcome"][key],
            "{key} matches between the API and the command line"
        );
    }

    let bad = post(&app, "/api/v1/lotf/battles/simulate", token, &json!({"attacker": force("A", 4), "defender": force("B", 4), "scenario": "siege_of_yorktown"})).await;
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text().await.unwrap().contains("take_the_field"),
        "names the scenarios"
    );
}

#[tokio::test]
async fn battle_odds_need_a_login_and_long_runs_become_a_job() {
    let app = spawn_app().await;
    let req =
        json!({"attacker": force("Big", 8), "defender": force("Small", 4), "seed": 3, "runs": 400});
    assert_eq!(
        post(&app, "/api/v1/lotf/battles/odds", None, &req)
            .await
            .status(),
        401
    );

    let token = app.api_user("odds@example.org").await;
    let res = post(&app, "/api/v1/lotf/battles/odds", Some(&token), &req).await;
    assert_eq!(res.status(), 200);
    let odds: Value = res.json().await.unwrap();
    assert_eq!(odds["runs"], 400);
    let p = odds["attacker_win"]["p"].as_f64().unwrap();
    assert!(p > 0.85, "8 medium infantry beat 4 most of the time ({p})");
    assert!(
        odds["attacker_win"]["low"].as_f64().unwrap() <= p
            && p <= odds["attacker_win"]["high"].as_f64().unwrap()
    );

    let long = json!({"attacker": force("Big", 4), "defender": force("Small", 4), "seed": 5, "runs": 12000});
    let res = post(&app, "/api/v1/lotf/battles/odds", Some(&token), &long).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let url = job["status_url"].as_str().unwrap().to_string();
    assert_eq!(
        post(&app, "/api/v1/lotf/battles/odds", Some(&token), &long)
            .await
            .status(),
        409,
        "one job at a time"
    );

    let other = app.api_user("nosy@example.org").await;
    let res = reqwest::Client::new()
        .get(app.url(&url))
        .bearer_auth(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404, "another user cannot see the job");

    let mut last_done = 0;
    for _ in 0..600 {
        let status: Value = reqwest::Client::new()
            .get(app.url(&url))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let done = status["done"].as_u64().unwrap();
        assert!(done >= last_done, "progress never goes back");
        last_done = done;
        if status["status"] == "done" {
            assert_eq!(status["result"]["runs"], 12000);
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the job did not finish");
}

#[tokio::test]
async fn the_odds_page_shows_results_charts_and_how_the_pool_was_built() {
    let app = spawn_app().await;
    let page = app.get_html("/lotf/odds?calc=shooting&s_type=infantry&s_size=large&t_type=infantry&t_size=medium&t_cover=1&range=2").await;
    assert!(
        page.contains("point blank") && page.contains("cover"),
        "the pool explanation is shown"
    );
    assert!(
        page.contains("<svg") && page.contains("Chance of each number of hits"),
        "with a bar chart"
    );
    assert!(page.contains("Expected hits"));
    let page = app
        .get_html(
            "/lotf/odds?calc=melee&a_type=cavalry&a_size=large&d_type=infantry&d_size=small&a_support=2",
        )
        .await;
    assert!(page.contains("Attacker wins:") && page.contains("Who wins the melee"));
    let page = app
        .get_html(
            "/lotf/odds?calc=morale&m_morale=7&m_kind=discipline&m_commander=1&m_rating=competent",
        )
        .await;
    assert!(page.contains("Chance to pass:"));
    let page = app
        .get_html("/lotf/odds?calc=shooting&s_type=artillery&s_size=tiny")
        .await;
    assert!(
        page.contains("class=\"alert\""),
        "an impossible element is explained, not a crash"
    );
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=infantry&a_size=tiny&d_type=cavalry&d_size=large")
        .await;
    assert!(
        page.contains("R-28") && page.contains("Added to the hits as result modifiers"),
        "charge limits and result modifiers are shown"
    );
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=artillery&a_size=large")
        .await;
    assert!(page.contains("Artillery never charges"));
    let page = app.get_html("/lotf/odds?calc=morale&m_morale=-5").await;
    assert!(
        page.contains("from 2 to 12") && !page.contains("Chance to pass:"),
        "out-of-range input is refused, not replaced"
    );
    for bad in ["999", "-1", "abc", "4"] {
        let page = app
            .get_html(&format!("/lotf/odds?calc=melee&a_type=infantry&a_size=large&a_support={bad}&d_type=cavalry&d_size=tiny"))
            .await;
        assert!(
            page.contains("The attacker&#39;s supporters must be a whole number from 0 to 3"),
            "a supporter count of {bad} is refused, not cut to three or read as none"
        );
        assert!(!page.contains("Attacker wins:"), "no result for {bad}");
    }
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=infantry&a_size=large&a_support=3&d_type=cavalry&d_size=tiny")
        .await;
    assert!(page.contains("Attacker wins:"), "three supporters are fine");
    let res = app.get("/lotf/odds?calc=melee&a_size=enormous").await;
    assert_eq!(
        res.status(),
        200,
        "nonsense input renders the page with a message"
    );
}

#[tokio::test]
async fn fight_it_out_gives_a_report_that_replays_and_odds_that_can_run_in_the_background() {
    let app = spawn_app().await;
    assert_eq!(
        app.get("/lotf/fight").await.status(),
        303,
        "logged-in users only"
    );
    app.register("general@example.org", "General", crate::helpers::PASSWORD)
        .await;
    let form = app.get_html("/lotf/fight").await;
    assert!(
        form.contains("h:cowpens:0:0"),
        "historical forces are offered"
    );

    let res = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/battle",
            &[
                ("attacker", "h:cowpens:0:0"),
                ("defender", "h:cowpens:1:0"),
                ("scenario", "take_the_field"),
                ("seed", ""),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let report_url = crate::helpers::location(&res);
    assert!(
        report_url.starts_with("/lotf/fight/battle?") && report_url.contains("seed="),
        "{report_url}"
    );
    assert!(!report_url.contains("csrf"), "no token in the address");
    let report = app.get_html(&report_url).await;
    assert!(
        report.contains("<p class=\"subtitle\">Take the Field ·"),
        "the scenario by its name (issue 18)"
    );
    // A seed that is no number gives the form back as it was filled in, with what to fix.
    for (path, seed) in [
        ("/lotf/fight/battle", "-1"),
        ("/lotf/fight/battle", "abc"),
        ("/lotf/fight/odds", "abc"),
    ] {
        let res = app
            .post_form(
                "/lotf/fight",
                path,
                &[
                    ("attacker", "h:cowpens:0:0"),
                    ("defender", "h:cowpens:1:0"),
                    ("scenario", "ambush"),
                    ("seed", seed),
                    ("runs", "1000"),
                ],
            )
            .await;
        assert_eq!(res.status(), 422, "{path} with seed {seed}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("The seed is a whole number from 0 up")
                && html.contains(r#"<option value="ambush" selected>"#)
                && html.contains(r#"<option value="h:cowpens:1:0" selected>"#)
                && html.contains(&format!(
                    r#"name="seed" type="number" min="0" value="{seed}""#
                )),
            "{path} with seed {seed}: the form is kept"
        );
    }
    let report = app.get_html(&report_url).await;
    assert!(
        report.contains("outcome-banner") && report.contains("Turn 1"),
        "a narrated report"
    );
    assert!(report.contains("Points lost"));
    let again = app.get_html(&report_url).await;
    let log = |html: &str| html[html.find("battle-log").unwrap()..].to_string();
    assert_eq!(
        log(&report),
        log(&again),
        "the same seed gives the same battle"
    );

    let res = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/odds",
            &[
                ("attacker", "h:cowpens:0:0"),
                ("defender", "h:cowpens:1:0"),
                ("scenario", "take_the_field"),
                ("seed", "9"),
                ("runs", "1000"),
            ],
        )
        .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("1000 battles") && html.contains("95 % interval"),
        "{html}"
    );

    // Background odds for two small rosters of the user's own (the smallest run that goes to the background).
    let token = app
        .api_token("general@example.org", crate::helpers::PASSWORD)
        .await;
    let mut ids = Vec::new();
    for name in ["Light Bobs", "Line"] {
        let res = reqwest::Client::new()
            .post(app.url("/api/v1/rosters"))
            .bearer_auth(&token)
            .json(&force(name, 4))
            .send()
            .await
            .unwrap();
        ids.push(res.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
    }
    let (a, d) = (format!("r:{}", ids[0]), format!("r:{}", ids[1]));
    let runs = (battles_limits::DIRECT + 1).to_string();
    let res = app
        .post_form(
            "/lotf/fight",
            "/lotf/fight/odds",
            &[
                ("attacker", &a),
                ("defender", &d),
                ("scenario", "take_the_field"),
                ("seed", "9"),
                ("runs", &runs),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let job_url = crate::helpers::location(&res);
    let page = app.get_html(&job_url).await;
    assert!(
        page.contains("<progress") || page.contains(&format!("{runs} battles")),
        "progress or result shown"
    );
    let stranger = app.other_visitor();
    stranger
        .register("spy@example.org", "Spy", crate::helpers::PASSWORD)
        .await;
    assert_eq!(stranger.get(&job_url).await.status(), 404);
    for _ in 0..900 {
        let page = app.get_html(&job_url).await;
        if !page.contains("<progress") {
            assert!(page.contains(&format!("{runs} battles")), "{page}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the background odds did not finish");
}

mod battles_limits {
    pub const DIRECT: u32 = muster::web::systems::lotf::battle_request::DIRECT_RUNS_MAX;
}

/// R-28 as amended: a small element may not charge (or counter-charge) a tiny one. The odds page
/// says so beside the odds, and the quick reference states the limit as the rules core applies it.
#[tokio::test]
async fn a_small_element_charging_a_tiny_one_is_flagged_r28() {
    let app = spawn_app().await;
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=cavalry&a_size=small&d_type=infantry&d_size=tiny")
        .await;
    assert!(
        page.contains("Attacker wins:") && page.contains("may not charge a tiny one (R-28)"),
        "the odds are shown with the warning"
    );
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=cavalry&a_size=small&d_type=infantry&d_size=medium")
        .await;
    assert!(page.contains("Attacker wins:") && !page.contains("(R-28)"));
    let reference = app.get_html("/lotf/reference").await;
    assert!(
        reference.contains("small may charge small or medium"),
        "the quick reference states the amended limit"
    );
    assert!(!reference.contains("small may charge up to medium"));
}

/// R-32: the quick reference says how many objectives each scenario has; Take the Field has four.
#[tokio::test]
async fn the_quick_reference_gives_take_the_field_four_objectives_r32() {
    let app = spawn_app().await;
    let reference = app.get_html("/lotf/reference").await;
    assert!(
        reference.contains("Take the Field: 4 objectives"),
        "the objectives per scenario are on the quick reference"
    );
    assert!(reference.contains("Hold the Ground: 3 objectives"));
}

/// R-33: the odds calculator asks for an attached commander's rating and uses his Morale, over the
/// API (a 422 naming `commander_rating` when it is missing) and on the page (a select beside the
/// "commander attached" box); the OpenAPI document describes the field.
#[tokio::test]
async fn the_odds_use_an_attached_commanders_morale_from_his_rating_r33() {
    let app = spawn_app().await;
    let res = post(
        &app,
        "/api/v1/lotf/odds/morale",
        None,
        &json!({"element": {"type": "infantry", "size": "medium"}, "kind": "discipline",
                "situation": {"commander_attached": true}}),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["field"], "commander_rating",
        "{body}"
    );
    assert!(
        body["error"]["details"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("R-33"),
        "{body}"
    );
    let res = post(
        &app,
        "/api/v1/lotf/odds/morale",
        None,
        &json!({"element": {"type": "infantry", "size": "medium"}, "kind": "discipline",
                "situation": {"commander_attached": true}, "commander_rating": "incompetent"}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let morale: Value = res.json().await.unwrap();
    assert_eq!(
        morale["target"], 8,
        "the Incompetent commander's Morale: {morale}"
    );
    assert!(
        (morale["p_pass"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-9,
        "2d6 + 1 against 8: {morale}"
    );
    let res = post(
        &app,
        "/api/v1/lotf/odds/shooting",
        None,
        &json!({"shooter": {"type": "infantry", "size": "large"},
                "target": {"type": "infantry", "size": "medium", "commander_attached": true},
                "range_inches": 6}),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["field"], "target.commander_rating",
        "{body}"
    );

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    for op in ["/api/v1/lotf/odds/morale", "/api/v1/lotf/odds/shooting"] {
        assert!(
            doc["paths"][op]["post"]["requestBody"]
                .to_string()
                .contains("commander_rating"),
            "{op} documents commander_rating"
        );
    }

    let page = app.get_html("/lotf/odds").await;
    assert!(
        page.contains(r#"name="m_rating""#) && page.contains(r#"value="highly_skilled""#),
        "the morale form asks for the rating"
    );
    assert!(
        page.contains(r#"name="t_rating""#),
        "so does the volley form, for the target"
    );
    let page = app
        .get_html("/lotf/odds?calc=morale&m_kind=discipline&m_commander=1&m_rating=incompetent")
        .await;
    assert!(
        page.contains("Chance to pass:") && page.contains("≥ 8") && page.contains("R-33"),
        "the Incompetent commander's 8 is the target, with the ruling cited"
    );
    let page = app
        .get_html("/lotf/odds?calc=morale&m_kind=discipline&m_commander=1")
        .await;
    assert!(
        page.contains("class=\"alert\"")
            && page.contains("rating")
            && !page.contains("Chance to pass:"),
        "ticking the box without a rating is explained, not guessed"
    );
}

/// The fight report's casualty tables name unnamed groups as the rest of Muster does ("Group 1",
/// issue 18), though the narration says "group 1" mid-sentence.
#[tokio::test]
async fn the_fight_report_capitalises_group_names() {
    let app = spawn_app().await;
    app.register("general@example.org", "General", crate::helpers::PASSWORD)
        .await;
    let token = app
        .api_token("general@example.org", crate::helpers::PASSWORD)
        .await;
    let mut ids = Vec::new();
    for name in ["Blue", "Buff"] {
        let res = post(&app, "/api/v1/rosters", Some(&token), &force(name, 6)).await;
        assert_eq!(res.status(), 201);
        ids.push(res.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
    }
    let report = app
        .get_html(&format!(
            "/lotf/fight/battle?attacker=r:{}&defender=r:{}&scenario=take_the_field&seed=7",
            ids[0], ids[1]
        ))
        .await;
    assert!(report.contains("<td>Group 1</td>"), "{report}");
    assert!(!report.contains("<td>group "), "{report}");
}
