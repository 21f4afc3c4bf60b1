//! The AWI wargames rules from end to end on one server and one browser, as a club would use
//! them: an order of battle built from scratch in the editor and one from an example, both
//! validated, cards and the quick reference printed in Chromium, every odds endpoint asked, a
//! battle simulated and replayed (and its odds counted over 100 runs), a tabletop battle
//! recorded and confirmed, and a campaign turn that ends in a battle whose aftermath changes the
//! armies (W-44). CI runs it on SQLite and on PostgreSQL.

use serde_json::{json, Value};

use crate::awi_battles::awi_roster;
use crate::awi_campaign::crown;
use crate::awi_rosters::{edit, id_from, ids};
use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, PASSWORD};
use crate::lod_campaign::{call, march_to_kennett, ok};
use crate::lod_print::{out_dir, spilling};

const GREENE: &str = "greene-awi-e2e@example.org";
const CORNWALLIS: &str = "cornwallis-awi-e2e@example.org";

/// Unit ids of one side of a stored set-up.
fn unit_ids(setup: &Value, side: &str) -> Vec<String> {
    setup[side]["roster"]["brigades"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["units"].as_array().unwrap())
        .map(|u| u["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn awi_wargames_rules_from_end_to_end() {
    let app = spawn_app().await;
    app.register(GREENE, "Greene", PASSWORD).await;
    let token = app.api_token(GREENE, PASSWORD).await;
    let other = app.api_user(CORNWALLIS).await;
    let api = reqwest::Client::new();
    let post = |path: &str, body: Value| {
        api.post(app.url(path))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };

    // 1. An order of battle from scratch: the empty one, then units added in the editor.
    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[
                ("name", "Southern Army"),
                ("system", "awi"),
                ("side", "Continental"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let scratch = id_from(&res);
    let page = app.get_html(&format!("/rosters/{scratch}/edit")).await;
    let brigade = ids(&page, "b-")[0].clone();
    for unit in [
        vec![
            ("u_name", "1st Maryland"),
            ("u_type", "infantry"),
            ("u_grade", "trained"),
            ("u_bases", "6"),
        ],
        vec![
            ("u_name", "Virginia militia"),
            ("u_type", "infantry"),
            ("u_grade", "militia"),
            ("u_bases", "4"),
        ],
        vec![
            ("u_name", "Field gun"),
            ("u_type", "artillery"),
            ("u_grade", "trained"),
            ("u_gun", "light"),
            ("u_gunners", "2"),
        ],
    ] {
        let mut fields = vec![("action", "add_unit"), ("brigade", brigade.as_str())];
        fields.extend(unit);
        let res = edit(&app, scratch, &fields).await;
        assert_eq!(res.status(), 303, "{fields:?}");
    }

    // 2. One from a starting point: the British example.
    let res = app
        .post_form(
            "/rosters/new?system=awi",
            "/rosters/new/example",
            &[("system", "awi"), ("example", "0")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example = id_from(&res);

    // 3. Both validated over the API.
    let mut documents = Vec::new();
    for id in [scratch, example] {
        let stored: Value = api
            .get(app.url(&format!("/api/v1/rosters/{id}")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let document = stored["document"].clone();
        let report: Value = api
            .post(app.url("/api/v1/awi/validate"))
            .json(&document)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(report["legal"], true, "{report}");
        documents.push(document);
    }
    assert_ne!(documents[0]["name"], documents[1]["name"]);

    // 4. Cards and the two-sided quick reference in Chromium, on A4.
    if let Some(b) = Browser::start("awi_wargames_rules_from_end_to_end").await {
        b.open(&app.url("/login")).await;
        b.fill("#email", GREENE).await;
        b.fill("#password", PASSWORD).await;
        b.click("form.stacked-form button[type=submit]").await;
        b.wait_for_path("/").await;
        let out = out_dir();
        let reference = pdf(&b, &app.url("/awi/reference?paper=a4"), false).await;
        assert_eq!(
            page_count(&reference, &out.join("awi-e2e-reference.pdf")),
            2,
            "the quick reference is two sides"
        );
        let cards = pdf(
            &b,
            &app.url(&format!("/rosters/{scratch}/print/cards?paper=a4")),
            false,
        )
        .await;
        assert_eq!(
            page_count(&cards, &out.join("awi-e2e-cards.pdf")),
            1,
            "three units, four cards to a page"
        );
        let spills = spilling(&b, ".card").await;
        assert!(spills.is_empty(), "cards overflow: {spills:?}");
        b.close().await;
    }

    // 5. Every odds endpoint.
    let firing: Value = post(
        "/api/v1/awi/odds/firing",
        json!({"firer": {"type": "infantry", "grade": "trained", "bases_firing": 6},
               "target": {"type": "infantry", "general_attached": true}, "range_inches": 4}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(firing["p_hit_fraction"], "4/10", "{firing}");
    let melee: Value = post(
        "/api/v1/awi/odds/melee",
        json!({"a": {"type": "infantry", "elements": 1, "charged": true},
               "b": {"type": "infantry", "elements": 1}}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    let total: f64 = ["p_a_wins", "p_draw", "p_b_wins"]
        .iter()
        .map(|k| melee[k].as_f64().unwrap_or(0.0))
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{melee}");
    let test: Value = post(
        "/api/v1/awi/odds/test",
        json!({"kind": "morale", "grade": "militia", "reason": "being_charged"}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert!(test["rulings"].to_string().contains("W-6"), "{test}");

    // 6. A simulated battle, replayed from its set-up; then its odds over 100 battles.
    let fought: Value = post(
        "/api/v1/awi/simulate",
        json!({"attacker": documents[0], "defender": documents[1], "seed": 1781}),
    )
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
    let replayed: Value = post("/api/v1/awi/simulate", fought["setup"].clone())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        replayed["outcome"], fought["outcome"],
        "a set-up replays exactly"
    );
    let odds: Value = post(
        "/api/v1/awi/simulate/odds",
        json!({"attacker": documents[0], "defender": documents[1], "seed": 5, "runs": 100}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(odds["runs"], 100, "{odds}");

    // 7. A tabletop battle against Cornwallis, recorded by Greene and confirmed by Cornwallis:
    //    every unit of the second army leaves the table, so it breaks (W-31).
    let res = post(
        "/api/v1/battles",
        json!({"first": format!("r:{scratch}"), "second": format!("r:{example}"),
               "second_player": CORNWALLIS}),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 201);
    let battle = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    ok(
        &app,
        &other,
        "POST",
        &format!("/battles/{battle}/accept"),
        Some(json!({"version": 1})),
    )
    .await;
    let setup = ok(
        &app,
        &token,
        "GET",
        &format!("/battles/{battle}/setup"),
        None,
    )
    .await;
    assert_eq!(setup["format"], "muster.awi.battle/1");
    let routed: Vec<Value> = unit_ids(&setup, "defender")
        .into_iter()
        .map(|u| json!({"id": u, "state": "left_table"}))
        .collect();
    let report = json!({"moves": 9, "attacker": {"units": []}, "defender": {"units": routed}});
    let saved = ok(
        &app,
        &token,
        "POST",
        &format!("/battles/{battle}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    ok(
        &app,
        &other,
        "POST",
        &format!("/battles/{battle}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    let page = app.get_html(&format!("/battles/{battle}")).await;
    assert!(page.contains("Major victory"), "{page}");

    // 8. A campaign in bases: both armies enlisted, two turns of marches meet at Kennett, the
    //    battle is recorded and confirmed, and the 1st Maryland's losses carry over (W-44).
    let created = ok(
        &app,
        &token,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "awi", "name": "Southern campaign", "map": "philadelphia-1777",
                    "points": 30, "turns": 3}),
        ),
    )
    .await;
    let campaign = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();
    let crown = awi_roster(&app, CORNWALLIS, &crown());
    ok(
        &app,
        &other,
        "POST",
        &format!("/campaigns/{campaign}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": crown})),
    )
    .await;
    ok(
        &app,
        &token,
        "POST",
        &format!("/campaigns/{campaign}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": scratch})),
    )
    .await;
    ok(
        &app,
        &token,
        "POST",
        &format!("/campaigns/{campaign}/start"),
        None,
    )
    .await;
    march_to_kennett(&app, campaign, &other, &token).await;
    let state = ok(&app, &token, "GET", &format!("/campaigns/{campaign}"), None).await;
    let record = state["battles"][0]["record"]
        .as_i64()
        .unwrap_or_else(|| panic!("the turn ends in a battle: {state}"));
    let setup = ok(
        &app,
        &token,
        "GET",
        &format!("/battles/{record}/setup"),
        None,
    )
    .await;
    let greene_side = if setup["attacker"]["roster"]["name"] == "Southern Army" {
        "attacker"
    } else {
        "defender"
    };
    let maryland = setup[greene_side]["roster"]["brigades"][0]["units"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut report = json!({"moves": 6});
    report[greene_side] = json!({"units": [{"id": maryland, "figures_lost": 9}]});
    let (status, saved) = call(
        &app,
        &token,
        "POST",
        &format!("/battles/{record}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert!(status < 300, "{saved}");
    ok(
        &app,
        &other,
        "POST",
        &format!("/battles/{record}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    let force = ok(
        &app,
        &token,
        "GET",
        &format!("/campaigns/{campaign}/forces/f2"),
        None,
    )
    .await;
    let unit = &force["roster"]["brigades"][0]["units"][0];
    assert_eq!(unit["id"], maryland.as_str());
    assert_eq!(
        unit["bases"], 5,
        "9 figures lost, 4 back: one whole base stays away (W-44): {force}"
    );
    let rating = force["roster"]["brigades"][0]["brigadier"]["id"]
        .as_str()
        .and_then(|id| force["ratings"][id].as_u64())
        .unwrap_or(0);
    assert!(
        (3..=8).contains(&rating),
        "the brigadier's ability was rolled and kept: {force}"
    );
}
