//! All the King's Men from end to end on one server and one browser, as a club would use it:
//! an army written from scratch and one from the random force generator, both validated, cards
//! and the quick reference printed in Chromium, every odds endpoint asked, a battle simulated
//! and replayed, a tabletop battle recorded and confirmed, and a campaign turn that ends in a
//! battle whose losses carry over into the armies (K-51). CI runs it on SQLite and PostgreSQL.

use serde_json::{json, Value};

use crate::atkm_battles::redcoats;
use crate::atkm_campaign::{assert_losses_carried, campaign_to_contact, record_the_battle};
use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, PASSWORD};
use crate::lod_campaign::ok;
use crate::lod_print::{out_dir, spilling};

const HOWE: &str = "howe@example.com";
const GREENE: &str = "greene@example.com";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_the_kings_men_from_end_to_end() {
    let app = spawn_app().await;
    app.register(HOWE, "Howe", PASSWORD).await;
    let howe = app.api_token(HOWE, PASSWORD).await;
    let greene = app.api_user(GREENE).await;
    let api = reqwest::Client::new();

    // 1. An army from scratch, and 2. one from a starting point: the seeded random force.
    let random: Value = api
        .post(app.url("/api/v1/atkm/random_force"))
        .json(&json!({"seed": 1777, "units": 4, "name": "Rolled army"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let rolled = random["document"].clone();
    assert_eq!(
        rolled["units"].as_array().map(Vec::len),
        Some(4),
        "{random}"
    );
    let mut ids = Vec::new();
    let mut documents = Vec::new();
    for doc in [redcoats(), rolled] {
        let stored: Value = api
            .post(app.url("/api/v1/rosters"))
            .bearer_auth(&howe)
            .json(&doc)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = stored["id"].as_i64().unwrap_or_else(|| panic!("{stored}"));
        ids.push(id);
        // 3. Both validated over the API.
        let report: Value = api
            .post(app.url("/api/v1/atkm/validate"))
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
    if let Some(b) = Browser::start("all_the_kings_men_from_end_to_end").await {
        b.open(&app.url("/login")).await;
        b.fill("#email", HOWE).await;
        b.fill("#password", PASSWORD).await;
        b.click("form.stacked-form button[type=submit]").await;
        b.wait_for_path("/").await;
        let out = out_dir();
        let reference = pdf(&b, &app.url("/atkm/reference?paper=a4"), false).await;
        assert_eq!(
            page_count(&reference, &out.join("atkm-e2e-reference.pdf")),
            2,
            "the quick reference is two sides"
        );
        let cards = pdf(
            &b,
            &app.url(&format!("/rosters/{}/print/cards?paper=a4", ids[0])),
            false,
        )
        .await;
        assert!(page_count(&cards, &out.join("atkm-e2e-cards.pdf")) >= 1);
        let spills = spilling(&b, ".card").await;
        assert!(spills.is_empty(), "cards overflow: {spills:?}");
        b.close().await;
    }

    // 5. Every odds endpoint, each summing to one.
    let ask = |kind: &str, body: Value| {
        let req = api
            .post(app.url(&format!("/api/v1/atkm/odds/{kind}")))
            .json(&body);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let fire = ask(
        "fire",
        json!({"attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"},
               "defender": {"type": "infantry", "figures": 8, "colour": "yellow"},
               "range_inches": 10}),
    )
    .await;
    let total: f64 = fire["casualties"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{fire}");
    let melee = ask(
        "melee",
        json!({"attacker": {"type": "cavalry", "figures": 5},
               "defender": {"type": "infantry", "figures": 7, "colour": "yellow"}}),
    )
    .await;
    let total: f64 = ["attacker_wins", "defender_wins", "tie", "both_collapse"]
        .iter()
        .map(|k| melee[k].as_f64().unwrap_or(0.0))
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{melee}");
    let command = ask("command", json!({"rating": 2})).await;
    assert!(
        (command["command_points"][1].as_f64().unwrap() - 1.0 / 36.0).abs() < 1e-12,
        "{command}"
    );
    let leaders = ask("leaders", json!({"marksmen": false})).await;
    assert!(
        (leaders["officer_lost"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12,
        "{leaders}"
    );

    // 6. A simulated battle, then replayed from its set-up: the same battle and log.
    let fought: Value = api
        .post(app.url("/api/v1/atkm/simulate"))
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
        .post(app.url("/api/v1/atkm/simulate"))
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

    // 7. A tabletop battle against Greene, recorded by Howe and confirmed by Greene: the second
    //    army loses three of its four units and collapses (K-16).
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&howe)
        .json(
            &json!({"first": format!("r:{}", ids[0]), "second": format!("r:{}", ids[1]),
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
    let beaten = if setup["attacker"]["roster"]["name"] == "Redcoats" {
        "defender"
    } else {
        "attacker"
    };
    let units: Vec<Value> = setup[beaten]["roster"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|u| json!({"id": u["id"], "collapsed": true}))
        .collect();
    let mut report = json!({"turns_played": 6});
    report[beaten] = json!({ "units": units });
    let saved = ok(
        &app,
        &howe,
        "POST",
        &format!("/battles/{battle}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert_ne!(saved["result"]["winner"], beaten, "{saved}");
    assert!(saved["result"]["winner"].is_string(), "{saved}");
    ok(
        &app,
        &greene,
        "POST",
        &format!("/battles/{battle}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    let page = app.get_html(&format!("/battles/{battle}")).await;
    assert!(page.contains("Redcoats"), "{page}");

    // 8. A campaign turn that ends in a battle at Kennett, recorded and confirmed; the armies
    //    carry its losses over exactly (K-51).
    let (campaign, record) = campaign_to_contact(&app, &howe, &greene).await;
    record_the_battle(&app, &howe, &greene, record).await;
    assert_losses_carried(&app, &howe, &greene, campaign).await;
}
