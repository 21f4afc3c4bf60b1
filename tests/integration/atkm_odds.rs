//! All the King's Men exact odds over HTTP: each kind's route answers with its pools and
//! distributions (the book's first fire example builds 12 green dice against 8 yellow), errors
//! name the field at fault, and the page `/atkm/odds` shows the dice, the distribution and the
//! "at least" view.

use serde_json::{json, Value};

use crate::helpers::spawn_app;

async fn ask(app: &crate::helpers::TestApp, kind: &str, body: &Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url(&format!("/api/v1/atkm/odds/{kind}")))
        .json(body)
        .send()
        .await
        .unwrap()
}

fn sum(v: &Value) -> f64 {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum()
}

#[tokio::test]
async fn atkm_odds_api_answers_every_kind_exactly() {
    let app = spawn_app().await;
    // The book's first example: a 12-man line (front two ranks fire) against 8 yellow privates.
    let res = ask(
        &app,
        "fire",
        &json!({"attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"},
                "defender": {"type": "infantry", "figures": 8, "colour": "yellow"},
                "range_inches": 10}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let fire: Value = res.json().await.unwrap();
    assert_eq!(fire["attack"]["dice"], 12);
    assert_eq!(fire["attack"]["colour"], "green");
    assert_eq!(fire["defence"]["dice"], 8);
    assert_eq!(fire["defence"]["colour"], "yellow");
    assert!((sum(&fire["casualties"]) - 1.0).abs() < 1e-12);
    assert!(fire["rulings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r == "K-9"));

    let melee: Value = ask(
        &app,
        "melee",
        &json!({"attacker": {"type": "cavalry", "figures": 5},
                "defender": {"type": "infantry", "figures": 7, "colour": "yellow"}}),
    )
    .await
    .json()
    .await
    .unwrap();
    let total = melee["attacker_wins"].as_f64().unwrap()
        + melee["defender_wins"].as_f64().unwrap()
        + melee["tie"].as_f64().unwrap()
        + melee["both_collapse"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-12, "{melee}");
    assert_eq!(melee["formed"]["attack"]["dice"], 10, "2 dice a trooper");

    let command: Value = ask(&app, "command", &json!({"rating": 2}))
        .await
        .json()
        .await
        .unwrap();
    // Two dice, keep the highest: P(1) = 1/36.
    assert!((command["command_points"][1].as_f64().unwrap() - 1.0 / 36.0).abs() < 1e-12);
    let leaders: Value = ask(&app, "leaders", &json!({"marksmen": false}))
        .await
        .json()
        .await
        .unwrap();
    assert!((leaders["officer_lost"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);

    // Errors: an unknown kind, a field out of range, broken JSON.
    assert_eq!(ask(&app, "morale", &json!({})).await.status(), 404);
    let res = ask(
        &app,
        "fire",
        &json!({"attacker": {"type": "infantry", "firing_figures": 6},
                "defender": {"type": "infantry", "figures": 12}, "range_inches": 13}),
    )
    .await;
    assert_eq!(res.status(), 422);
    let error: Value = res.json().await.unwrap();
    assert_eq!(
        error["error"]["details"][0]["field"], "range_inches",
        "{error}"
    );
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/atkm/odds/fire"))
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    for kind in ["fire", "melee", "command", "leaders"] {
        assert!(doc["paths"][format!("/api/v1/atkm/odds/{kind}")]["post"].is_object());
    }
}

#[tokio::test]
async fn atkm_odds_page_shows_the_dice_the_distribution_and_at_least() {
    let app = spawn_app().await;
    let page = app.get_html("/atkm/odds").await;
    for kind in ["fire", "melee", "command", "leaders"] {
        assert!(
            page.contains(&format!("id=\"form-{kind}\"")),
            "a form for {kind}"
        );
    }
    let request = r#"{"attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"}, "defender": {"type": "infantry", "figures": 8, "colour": "yellow"}, "range_inches": 10}"#;
    let url = format!(
        "/atkm/odds?kind=fire&request={}",
        serde_urlencoded::to_string([("r", request)])
            .unwrap()
            .trim_start_matches("r=")
    );
    let res = app.get(&url).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("How the dice were built"));
    assert!(
        html.contains("<b class=\"pool-dice\">12</b>")
            && html.contains("<b class=\"pool-dice\">8</b>")
    );
    assert!(html.contains("at least n"));
    assert!(
        html.contains("<td>0</td><td class=\"num\">") && html.contains("100.00 %"),
        "at least 0 casualties is certain"
    );
    let res = app.get("/atkm/odds?kind=fire&request=%7B").await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("The request is not JSON"));
    let res = app
        .get("/atkm/odds?kind=fire&request=%7B%22attacker%22%3A3%7D")
        .await;
    assert_eq!(res.status(), 422);
}
