//! One if by Land from end to end on one server and one browser, as a club would use it: an
//! order of battle written from scratch and one from a starting point, both validated, cards and
//! the quick reference printed in Chromium, every odds endpoint asked, a battle simulated and
//! replayed, a tabletop battle recorded and confirmed, and a campaign turn that ends in a battle
//! whose aftermath changes the forces (B-70, B-71). CI runs it on SQLite and PostgreSQL.

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{location, spawn_app, PASSWORD};
use crate::lod_campaign::ok;
use crate::lod_print::{out_dir, spilling};
use crate::oibl_campaign::{
    assert_kennett_carried, crown_brigade, oibl_campaign_to_contact, record_kennett,
};

const HOWE: &str = "howe@example.com";
const GREENE: &str = "greene@example.com";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_if_by_land_from_end_to_end() {
    let app = spawn_app().await;
    app.register(HOWE, "Howe", PASSWORD).await;
    let howe = app.api_token(HOWE, PASSWORD).await;
    let greene = app.api_user(GREENE).await;
    let api = reqwest::Client::new();

    // 1. An order of battle from scratch, over the API.
    let scratch: Value = api
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&howe)
        .json(&crown_brigade())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let scratch = scratch["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{scratch}"));
    // 2. One from a starting point: the Continental example brigade.
    let start = app.get_html("/rosters/new?system=oibl").await;
    let index = start
        .split("<option value=\"")
        .find(|o| o.contains("Example: a Continental brigade"))
        .and_then(|o| o.split('"').next())
        .expect("the American example")
        .to_string();
    let res = app
        .post_form(
            "/rosters/new?system=oibl",
            "/rosters/new/example",
            &[("system", "oibl"), ("example", &index)],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example: i64 = location(&res)
        .trim_start_matches("/rosters/")
        .split(['/', '?'])
        .next()
        .and_then(|id| id.parse().ok())
        .expect("the new roster's id");
    let ids = [scratch, example];

    // 3. Both validated over the API.
    let mut documents = Vec::new();
    for id in ids {
        let text = app.get_html(&format!("/rosters/{id}/export.json")).await;
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let report: Value = api
            .post(app.url("/api/v1/oibl/validate"))
            .json(&doc)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(report["legal"], true, "{report}");
        documents.push(doc);
    }

    // 4. Cards and the two-sided quick reference in Chromium, on A4.
    if let Some(b) = Browser::start("one_if_by_land_from_end_to_end").await {
        b.open(&app.url("/login")).await;
        b.fill("#email", HOWE).await;
        b.fill("#password", PASSWORD).await;
        b.click("form.stacked-form button[type=submit]").await;
        b.wait_for_path("/").await;
        let out = out_dir();
        let reference = pdf(&b, &app.url("/oibl/reference?paper=a4"), false).await;
        assert_eq!(
            page_count(&reference, &out.join("oibl-e2e-reference.pdf")),
            2,
            "the quick reference is two sides"
        );
        let cards = pdf(
            &b,
            &app.url(&format!("/rosters/{example}/print/cards?paper=a4")),
            false,
        )
        .await;
        assert!(page_count(&cards, &out.join("oibl-e2e-cards.pdf")) >= 1);
        let spills = spilling(&b, ".card").await;
        assert!(spills.is_empty(), "cards overflow: {spills:?}");
        b.close().await;
    }

    // 5. Every odds endpoint: each distribution sums to one.
    let ask = |kind: &str, body: Value| {
        let req = api
            .post(app.url(&format!("/api/v1/oibl/odds/{kind}")))
            .json(&body);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let close = |v: &Value, want: f64| v.as_f64().is_some_and(|g| (g - want).abs() < 1e-12);
    let fire = ask(
        "fire",
        json!({"firing_figures": 18, "firer_quality": "regular", "range_inches": 5,
               "target": {"figures": 18, "formation": "close_order"}}),
    )
    .await;
    let total: f64 = fire["distribution"]
        .as_array()
        .unwrap_or_else(|| panic!("{fire}"))
        .iter()
        .filter_map(|d| d["p"].as_f64())
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{fire}");
    let morale = ask("morale", json!({"quality": "regular"})).await;
    assert!(close(&morale["p_pass"], 0.8), "Morale Number 7: {morale}");
    let general = ask("general", json!({"casualties": 5})).await;
    assert!(
        close(&general["p_killed"], 1.0 - (29.0f64 / 30.0).powi(3)),
        "{general}"
    );
    let melee = ask(
        "melee",
        json!({"attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true},
               "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}),
    )
    .await;
    let sum: f64 = melee["outcomes"]
        .as_object()
        .unwrap_or_else(|| panic!("{melee}"))
        .values()
        .filter_map(Value::as_f64)
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{melee}");
    let charge = ask(
        "charge",
        json!({"attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true},
               "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}),
    )
    .await;
    let ends: f64 = charge["ends"]
        .as_object()
        .unwrap_or_else(|| panic!("{charge}"))
        .values()
        .filter_map(Value::as_f64)
        .sum();
    assert!((ends - 1.0).abs() < 1e-9, "{charge}");

    // 6. A simulated battle, then replayed from its set-up: the same battle and log.
    let fought: Value = api
        .post(app.url("/api/v1/oibl/simulate"))
        .bearer_auth(&howe)
        .json(&json!({"attacker": documents[0], "defender": documents[1], "seed": 1777}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        fought["outcome"]["log"]
            .as_array()
            .is_some_and(|l| !l.is_empty()),
        "{fought}"
    );
    let replayed: Value = api
        .post(app.url("/api/v1/oibl/simulate"))
        .bearer_auth(&howe)
        .json(&fought["setup"])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        replayed["outcome"], fought["outcome"],
        "a set-up replays exactly"
    );

    // 7. A tabletop battle against Greene, recorded by Howe and confirmed by Greene: the
    //    example brigade has three of its five units routed and is broken (B-34).
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&howe)
        .json(
            &json!({"first": format!("r:{scratch}"), "second": format!("r:{example}"),
                      "second_player": GREENE}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let battle = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    ok(
        &app,
        &greene,
        "POST",
        &format!("/battles/{battle}/accept"),
        Some(json!({"version": 1})),
    )
    .await;
    let setup = ok(
        &app,
        &howe,
        "GET",
        &format!("/battles/{battle}/setup"),
        None,
    )
    .await;
    let beaten = if setup["attacker"]["roster"]["name"] == "Crown Brigade" {
        "defender"
    } else {
        "attacker"
    };
    let units: Vec<Value> = setup[beaten]["roster"]["brigades"][0]["units"]
        .as_array()
        .unwrap_or_else(|| panic!("{setup}"))
        .iter()
        .take(3)
        .map(|u| json!({"id": u["id"], "figures_lost": 2, "routed": true}))
        .collect();
    let mut report = json!({"turns": 6});
    report[beaten] = json!({ "units": units });
    let saved = ok(
        &app,
        &howe,
        "POST",
        &format!("/battles/{battle}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert!(saved["result"]["winner"].is_string(), "{saved}");
    assert_ne!(saved["result"]["winner"], beaten, "{saved}");
    ok(
        &app,
        &greene,
        "POST",
        &format!("/battles/{battle}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    let page = app.get_html(&format!("/battles/{battle}")).await;
    assert!(page.contains("Crown Brigade"), "{page}");

    // 8. A campaign turn that ends in a battle at Kennett, recorded and confirmed; the forces
    //    carry its figures, guns and fallen commander over (B-70, B-71).
    let (campaign, record) = oibl_campaign_to_contact(&app, &howe, &greene, json!({})).await;
    record_kennett(&app, &howe, &greene, record).await;
    assert_kennett_carried(&app, &howe, &greene, campaign).await;
}
