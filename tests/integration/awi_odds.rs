//! The AWI exact-odds API over HTTP: a firing case worked by hand from the spec (4.2), and
//! refusals that name the field.

use serde_json::{json, Value};

use crate::helpers::spawn_app;

#[tokio::test]
async fn awi_odds_api_answers_firing_exactly_and_refuses_in_words() {
    let app = spawn_app().await;
    let client = reqwest::Client::new();
    // 6 bases of trained musketry at 4" (close, W-18): need 7, p = 4/10 a die. P(no hit) =
    // 0.6^6 = 0.046656; P(2 or more) = 1 − 0.6^6 − 6·0.4·0.6^5 = 0.76672; the attached
    // general dies on D10 ≤ casualties, so with E[casualties] = 2.4 the chance is 0.24 (W-29).
    let res = client
        .post(app.url("/api/v1/awi/odds/firing"))
        .json(
            &json!({"firer": {"type": "infantry", "grade": "trained", "bases_firing": 6},
                      "target": {"type": "infantry", "general_attached": true},
                      "range_inches": 4}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["need"], 7);
    assert_eq!(answer["band"], "close");
    let close = |v: &Value, want: f64| (v.as_f64().unwrap_or(-1.0) - want).abs() < 1e-9;
    assert!(close(&answer["p_hit"], 0.4));
    assert!(close(&answer["casualties"][0]["p"], 0.046656), "{answer}");
    assert!(close(&answer["p_two_or_more"], 0.76672), "{answer}");
    assert!(close(&answer["p_general_killed"], 0.24), "{answer}");
    assert!(answer["rulings"].as_array().is_some_and(|r| !r.is_empty()));

    // Beyond a musket's last band (8"): refused, naming the field.
    let res = client
        .post(app.url("/api/v1/awi/odds/firing"))
        .json(&json!({"firer": {"type": "infantry", "bases_firing": 6},
                      "target": {"type": "infantry"}, "range_inches": 9}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let error: Value = res.json().await.unwrap();
    assert!(error["error"]["details"][0]["field"].is_string(), "{error}");

    let res = client
        .post(app.url("/api/v1/awi/odds/dice"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let res = client
        .post(app.url("/api/v1/awi/odds/firing"))
        .body("{\"firer\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/v1/awi/odds/{kind}"]["post"].is_object());
}

fn page_url(kind: &str, request: &str) -> String {
    format!(
        "/awi/odds?{}",
        serde_urlencoded::to_string([("kind", kind), ("request", request)]).unwrap()
    )
}

#[tokio::test]
async fn awi_odds_page_shows_what_the_api_answers_and_names_a_bad_field() {
    let app = spawn_app().await;
    let page = app.get_html("/awi/odds").await;
    for kind in ["firing", "melee", "test"] {
        assert!(
            page.contains(&format!("id=\"form-{kind}\"")),
            "a form for {kind}"
        );
    }
    // The odds page is among the system's tools.
    assert!(app.get_html("/").await.contains("href=\"/awi/odds\""));

    // Firing: the page shows the API's chance of no hit and of at least one, as percentages.
    let request = r#"{"firer": {"type": "infantry", "grade": "trained", "bases_firing": 6}, "target": {"type": "infantry", "general_attached": true}, "range_inches": 4}"#;
    let api: Value = reqwest::Client::new()
        .post(app.url("/api/v1/awi/odds/firing"))
        .body(request)
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let none = api["casualties"][0]["p"].as_f64().unwrap();
    let one_or_more = api["casualties"][1]["at_least"].as_f64().unwrap();
    let res = app.get(&page_url("firing", request)).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("How the dice were built"), "{html}");
    assert!(html.contains(api["dice_built"].as_str().unwrap()));
    assert!(html.contains(&format!("<td class=\"exactly\">{:.1} %</td>", none * 100.0)));
    assert!(html.contains(&format!(
        "<td class=\"at-least\">{:.1} %</td>",
        one_or_more * 100.0
    )));
    assert!(html.contains("At least"), "the cumulative view");
    assert!(html.contains("Rulings used: W-1"), "the rulings");
    assert!(html.contains("24.0 %"), "the attached general's risk");

    // Melee and a test are answered too, with who wins and the result bands.
    let melee = r#"{"a": {"type": "infantry", "elements": 1, "charged": true}, "b": {"type": "infantry", "elements": 1}, "include_entering_tests": true}"#;
    let html = app.get_html(&page_url("melee", melee)).await;
    assert!(html.contains("Who wins the melee") && html.contains("entering test"));
    let html = app
        .get_html(&page_url("test", r#"{"kind": "brigadier", "ability": 6}"#))
        .await;
    assert!(
        html.contains("60.0 %"),
        "a brigadier of ability 6 passes 6 in 10"
    );

    // A range beyond the musket's reach is refused, naming the field; so is broken JSON.
    let res = app
        .get(&page_url(
            "firing",
            r#"{"firer": {"type": "infantry", "bases_firing": 6}, "target": {}, "range_inches": 9}"#,
        ))
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("range_inches:"), "{html}");
    assert!(html.contains("range_inches"), "the form keeps the request");
    let res = app.get(&page_url("melee", "{")).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("The request is not JSON"));
    let res = app.get(&page_url("dice", "{}")).await;
    assert_eq!(res.status(), 422);
}
