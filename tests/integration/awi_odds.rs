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
