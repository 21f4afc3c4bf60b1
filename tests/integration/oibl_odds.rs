//! One if by Land exact odds over HTTP: each kind of `POST /api/v1/oibl/odds/{kind}` against a
//! case worked by hand from the spec, and the refusals (an unknown kind, broken JSON, a request
//! that cannot be answered).

use serde_json::{json, Value};

use crate::helpers::spawn_app;

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

#[tokio::test]
async fn oibl_odds_answer_each_kind_exactly() {
    let app = spawn_app().await;
    let ask = |kind: &str, body: Value| {
        let request = app
            .client
            .post(app.url(&format!("/api/v1/oibl/odds/{kind}")))
            .json(&body);
        async move { request.send().await.unwrap() }
    };

    // Fire: 18 figures read row 16–18 with no modifier (range 5", no point blank): a d10 of 0
    // misses, 1–3 remove one, 4–6 two, 7–9 three (B-1, B-2).
    let res = ask(
        "fire",
        json!({"firing_figures": 18, "firer_quality": "regular", "range_inches": 5,
               "target": {"figures": 18, "formation": "close_order"}}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let fire: Value = res.json().await.unwrap();
    let p: Vec<f64> = fire["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["p"].as_f64().unwrap())
        .collect();
    assert_eq!(p.len(), 4);
    for (got, want) in p.iter().zip([0.1, 0.3, 0.3, 0.3]) {
        assert!((got - want).abs() < 1e-12, "{p:?}");
    }
    assert!(close(&fire["mean"], 1.8));
    assert!(fire["rulings"].as_array().unwrap().contains(&json!("B-2")));

    // Morale: Regular, Morale Number 7, no modifier: 0–7 pass, 8 fails by 1, 9 by 2 (B-10).
    let morale: Value = ask("morale", json!({"quality": "regular"}))
        .await
        .json()
        .await
        .unwrap();
    assert!(close(&morale["p_pass"], 0.8));
    assert!(close(&morale["p_failed_by_1"], 0.1));
    assert!(close(&morale["p_failed_by_2"], 0.1));

    // Risk to Generals: 5 casualties roll ⌈5/2⌉ = 3 dice; killed 1 − (29/30)³ (B-32).
    let general: Value = ask("general", json!({"casualties": 5}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(general["dice"], 3);
    assert!(close(&general["p_killed"], 1.0 - (29.0f64 / 30.0).powi(3)));

    // Melee and the charge chain: the four outcomes (and the ways a charge ends) sum to one.
    let melee: Value = ask(
        "melee",
        json!({"attacker": {"quality": "regular", "figures": 2, "cavalry": true},
               "defender": {"quality": "regular", "figures": 2, "infantry": true}}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        melee["rounds"], 1,
        "mounted cavalry against foot: one round (B-21)"
    );
    let o = &melee["outcomes"];
    let sum: f64 = [
        "attacker_wins",
        "defender_wins",
        "both_rout",
        "attacker_repulsed",
    ]
    .iter()
    .map(|k| o[k].as_f64().unwrap())
    .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{o}");
    let charge: Value = ask(
        "charge",
        json!({"attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true},
               "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}),
    )
    .await
    .json()
    .await
    .unwrap();
    // The declaration test of a Veteran (Morale Number 8) fails by 1 only on a 9.
    assert!(
        close(&charge["ends"]["charger_falls_back"], 0.1),
        "{charge}"
    );
    let ends: f64 = charge["ends"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_f64().unwrap())
        .sum();
    assert!((ends - 1.0).abs() < 1e-9, "{charge}");

    // Refusals in words.
    let res = ask("shooting", json!({})).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("fire, morale, melee, charge, general"));
    let res = app
        .client
        .post(app.url("/api/v1/oibl/odds/fire"))
        .header("content-type", "application/json")
        .body("{\"firing_figures\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = ask("fire", json!({"target": {"figures": 18}})).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Give firing_figures or gun."));

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/v1/oibl/odds/{kind}"]["post"].is_object());
}
