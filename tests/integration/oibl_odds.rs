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

fn page_url(kind: &str, request: &str) -> String {
    format!(
        "/oibl/odds?{}",
        serde_urlencoded::to_string([("kind", kind), ("request", request)]).unwrap()
    )
}

#[tokio::test]
async fn oibl_odds_page_shows_what_the_api_answers_and_names_a_bad_field() {
    let app = spawn_app().await;
    let page = app.get_html("/oibl/odds").await;
    for kind in ["fire", "morale", "melee", "charge", "general"] {
        assert!(
            page.contains(&format!("id=\"form-{kind}\"")),
            "a form for {kind}"
        );
    }
    // The odds page is among the system's tools.
    assert!(app.get_html("/").await.contains("href=\"/oibl/odds\""));

    // Fire: 18 figures at 5" read row 16–18; the page shows the API's chances, exactly and at
    // least (10 % none, 90 % at least one, 30 % exactly three), and how the dice were built.
    let request = r#"{"firing_figures": 18, "firer_quality": "regular", "range_inches": 5, "target": {"figures": 18, "formation": "close_order", "cover": "light"}}"#;
    let api: Value = app
        .client
        .post(app.url("/api/v1/oibl/odds/fire"))
        .header("content-type", "application/json")
        .body(request)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let res = app.get(&page_url("fire", request)).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("How the dice were built"), "{html}");
    let dice = api["dice"].as_str().unwrap();
    let plain = ["&#39;", "&#x27;", "&#34;", "&quot;"]
        .iter()
        .zip(["'", "'", "\"", "\""])
        .fold(html.clone(), |t, (escaped, c)| t.replace(escaped, c))
        .replace("&amp;", "&");
    assert!(plain.contains(dice), "the API's dice in the page: {dice}");
    for (i, point) in api["distribution"].as_array().unwrap().iter().enumerate() {
        let exactly = point["p"].as_f64().unwrap();
        let at_least = api["at_least"][i]["p"].as_f64().unwrap();
        assert!(
            html.contains(&format!(
                "<th scope=\"row\">{i}</th><td class=\"exactly\">{:.1} %</td><td class=\"at-least\">{:.1} %</td>",
                exactly * 100.0,
                at_least * 100.0
            )),
            "row {i} of the casualties as the API has it: {api}"
        );
    }
    // Light cover is a modifier the page names with its value, and the rulings are listed.
    let cover = &api["modifiers"][0];
    assert!(html.contains(&format!(
        "{}: {:+}",
        cover["words"].as_str().unwrap(),
        cover["value"].as_i64().unwrap()
    )));
    assert!(html.contains("Rulings used: B-1, B-2"), "the rulings");

    // Morale: a Regular outflanked at half strength passes on 0–3 (40 %), fails by 1 on a 4
    // (10 %), by 2 or more on 5–9 (50 %); the totals run from +4 to +13.
    let html = app
        .get_html(&page_url(
            "morale",
            r#"{"quality": "regular", "outflanked": true, "start_figures": 18, "figures": 9}"#,
        ))
        .await;
    for want in ["40.0 %", "10.0 %", "50.0 %", "<th scope=\"row\">13</th>"] {
        assert!(html.contains(want), "{want} in the morale answer");
    }
    // The general: 5 casualties roll 3 dice; killed 1 − (29/30)³ = 9.7 %.
    let html = app
        .get_html(&page_url("general", r#"{"casualties": 5}"#))
        .await;
    assert!(html.contains("Dice rolled: <strong>3</strong>"), "{html}");
    assert!(html.contains("9.7 %"), "the risk of death");
    // Melee and charge: who wins, and every way the charge ends.
    let html = app.get_html(&page_url("melee", r#"{"attacker": {"quality": "regular", "figures": 2, "cavalry": true}, "defender": {"quality": "regular", "figures": 2, "infantry": true}}"#)).await;
    assert!(
        html.contains("How the melee ends") && html.contains("41.3 %"),
        "{html}"
    );
    let html = app.get_html(&page_url("charge", r#"{"attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true}, "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}"#)).await;
    assert!(html.contains("How the charge ends") && html.contains("Contact: the melee is fought"));
    assert!(
        html.contains("id=\"answer-link\""),
        "a link that asks again"
    );

    // A bad value is refused with 422 naming its field, on the page and in the API, and the
    // form keeps what was typed.
    let bad = r#"{"firing_figures": 12, "target": {"figures": 12, "cover": "thick"}}"#;
    let res = app.get(&page_url("fire", bad)).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("role=\"alert\">target.cover: "), "{html}");
    assert!(
        html.contains("&#34;thick&#34;") || html.contains("&quot;thick&quot;"),
        "the form keeps the request"
    );
    let res = app
        .client
        .post(app.url("/api/v1/oibl/odds/fire"))
        .header("content-type", "application/json")
        .body(bad)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let error: Value = res.json().await.unwrap();
    assert_eq!(
        error["error"]["details"][0]["field"], "target.cover",
        "{error}"
    );
    // A rule the core refuses names its field too; an unknown field and broken JSON as well.
    let res = app
        .get(&page_url(
            "fire",
            r#"{"firing_figures": 12, "range_inches": -3, "target": {"figures": 12}}"#,
        ))
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("range_inches must be"));
    let res = app
        .get(&page_url(
            "melee",
            r#"{"attacker": {"figures": 6, "horses": 2}, "defender": {"figures": 6}}"#,
        ))
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("attacker.horses: "));
    let res = app.get(&page_url("morale", "{")).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("The request is not JSON"));
    let res = app.get(&page_url("dice", "{}")).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("kind: "));
}
