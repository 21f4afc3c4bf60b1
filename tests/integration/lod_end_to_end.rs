//! Liberty or Death! from end to end on one server and one browser, as a club would use it: an
//! army built from scratch in the editor and one from an example, both validated, cards and the
//! quick reference printed in Chromium, every odds endpoint asked, a battle simulated and
//! replayed, a tabletop battle recorded and confirmed, and a campaign turn that ends in a battle
//! whose aftermath changes the armies. CI runs it on SQLite and on PostgreSQL.

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, PASSWORD};
use crate::lod_campaign::{army, call, ok, route};
use crate::lod_print::{out_dir, spilling};
use crate::lod_rosters::{edit, id_from, ids, new_army};

const GREENE: &str = "greene-e2e@example.org";
const CORNWALLIS: &str = "cornwallis-e2e@example.org";

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
async fn liberty_or_death_from_end_to_end() {
    let app = spawn_app().await;
    app.register(GREENE, "Greene", PASSWORD).await;
    let token = app.api_token(GREENE, PASSWORD).await;
    let other = app.api_user(CORNWALLIS).await;
    let api = reqwest::Client::new();

    // 1. An army from scratch: a Continental army, then units chosen in the editor.
    let scratch = new_army(&app, "Greene's Southern Army", "continental").await;
    let page = app.get_html(&format!("/rosters/{scratch}/edit")).await;
    let brigade = ids(&page, "b-")[0].clone();
    for (entry, bases) in [
        ("continental_regiment", "4"),
        ("militia_regiment", "4"),
        ("riflemen", "3"),
        ("artillery_6pdr", "2"),
    ] {
        let res = edit(
            &app,
            scratch,
            &[
                ("action", "add_unit"),
                ("brigade", &brigade),
                ("u_entry", entry),
                ("u_bases", bases),
            ],
        )
        .await;
        assert_eq!(res.status(), 303, "add {entry}");
    }
    let page = app.get_html(&format!("/rosters/{scratch}")).await;
    assert!(
        page.contains("Continental Regiment, 4 bases (8/16/24)"),
        "{page}"
    );

    // 2. An army from a starting point: the British example.
    let res = app
        .post_form(
            "/rosters/new?system=lod",
            "/rosters/new/example",
            &[("system", "lod"), ("example", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example = id_from(&res);

    // 3. Both validated over the API: the example is legal; the scratch army is legal with the
    //    advice that a brigade of four is fine.
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
            .post(app.url("/api/v1/lod/validate"))
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

    // 4. Cards and the two-sided quick reference in Chromium, on A4.
    if let Some(b) = Browser::start("liberty_or_death_from_end_to_end").await {
        b.open(&app.url("/login")).await;
        b.fill("#email", GREENE).await;
        b.fill("#password", PASSWORD).await;
        b.click("form.stacked-form button[type=submit]").await;
        b.wait_for_path("/").await;
        let out = out_dir();
        let reference = pdf(&b, &app.url("/lod/reference?paper=a4"), false).await;
        assert_eq!(
            page_count(&reference, &out.join("e2e-reference.pdf")),
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
            page_count(&cards, &out.join("e2e-cards.pdf")),
            1,
            "four profiles, four cards to a page"
        );
        let spills = spilling(&b, ".card").await;
        assert!(spills.is_empty(), "cards overflow: {spills:?}");
        b.close().await;
    }

    // 5. Every odds endpoint.
    let shooting: Value = api
        .post(app.url("/api/v1/lod/odds/shooting"))
        .json(
            &json!({"range_inches": 20, "concentrate_fire": false, "defensive_fire": false,
            "shooter": {"list": "continental", "entry": "riflemen", "bases": 3, "hits": 0},
            "target": {"list": "continental", "entry": "minutemen", "bases": 3, "hits": 0,
                       "in_cover": true, "obscured": false, "enfiladed": false,
                       "fortified": false, "in_command": true, "supported": false}}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shooting["dice"], 2, "case LOD-S2: {shooting}");
    let melee: Value = api
        .post(app.url("/api/v1/lod/odds/melee"))
        .json(&json!({
            "a": {"list": "british", "entry": "guard_infantry", "bases": 4, "hits": 0,
                  "charging": true, "direct_bases": 4},
            "b": {"list": "continental", "entry": "continental_regiment", "bases": 4, "hits": 0,
                  "direct_bases": 4}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let total = ["p_a_wins", "p_b_wins", "p_draw", "p_both_broken_by_hits"]
        .iter()
        .map(|k| melee[k].as_f64().unwrap_or(0.0))
        .sum::<f64>();
    assert!((total - 1.0).abs() < 1e-9, "{melee}");
    let test: Value = api
        .post(app.url("/api/v1/lod/odds/test"))
        .json(
            &json!({"kind": "morale", "trigger": "lost_melee", "list": "continental",
                      "entry": "militia_regiment", "bases": 4, "hits": 0, "in_command": true}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let p = test["p_pass"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0, "{test}");
    assert!(test["rulings"].to_string().contains("L-8"), "{test}");

    // 6. A simulated battle, then replayed from its set-up: the same battle and log.
    let fought: Value = api
        .post(app.url("/api/v1/lod/simulate"))
        .bearer_auth(&token)
        .json(&json!({"attacker": documents[0], "defender": documents[1], "seed": 1777}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(fought["outcome"]["log"]
        .as_array()
        .is_some_and(|l| !l.is_empty()));
    let replayed: Value = api
        .post(app.url("/api/v1/lod/simulate"))
        .bearer_auth(&token)
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

    // 7. A tabletop battle against Cornwallis, recorded by Greene and confirmed by Cornwallis.
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(
            &json!({"first": format!("r:{scratch}"), "second": format!("r:{example}"),
                      "second_player": CORNWALLIS}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let battle = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    // Set up by e-mail, it is an invitation: Cornwallis accepts it first.
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
    let mut report = json!({"turns_played": 5});
    for (side, state) in [("attacker", "worn"), ("defender", "broken")] {
        report[side] = json!({"units": unit_ids(&setup, side)
            .into_iter()
            .map(|u| (u, json!(state)))
            .collect::<serde_json::Map<_, _>>()});
    }
    let saved = ok(
        &app,
        &token,
        "POST",
        &format!("/battles/{battle}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert_eq!(saved["result"]["band"], "major", "{saved}");
    ok(
        &app,
        &other,
        "POST",
        &format!("/battles/{battle}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    let page = app.get_html(&format!("/battles/{battle}")).await;
    assert!(page.contains("major victory"), "{page}");

    // 8. A campaign: both armies enlisted, two turns of marches meet at Kennett, the battle is
    //    recorded and confirmed, and the Crown's broken units are lost or come back smaller.
    let created = ok(
        &app,
        &token,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "lod", "name": "Southern campaign", "map": "philadelphia-1777",
                    "points": 8, "turns": 3}),
        ),
    )
    .await;
    let campaign = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();
    let crown = api
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&other)
        .json(&army(
            "Crown",
            "british",
            &[
                ("foot", "regular_infantry_regiment", 5),
                ("guards", "guard_infantry", 4),
                ("dragoons", "light_dragoon_regiment", 6),
            ],
        ))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["id"]
        .as_i64()
        .unwrap();
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
    let map = ok(
        &app,
        &token,
        "GET",
        &format!("/campaigns/{campaign}/map"),
        None,
    )
    .await;
    for (crown_move, greene_move) in [
        (
            ("head_of_elk", "iron_hill"),
            ("philadelphia", "chadds_ford"),
        ),
        (("iron_hill", "kennett"), ("chadds_ford", "kennett")),
    ] {
        for (who, force, (a, b)) in [(&other, "f1", crown_move), (&token, "f2", greene_move)] {
            ok(
                &app,
                who,
                "POST",
                &format!("/campaigns/{campaign}/orders"),
                Some(
                    json!({"force": force, "order": {"order": "move", "route": route(&map, a, b)}}),
                ),
            )
            .await;
        }
    }
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
    let crown_side = if setup["attacker"]["roster"]["army_list"] == "british" {
        "attacker"
    } else {
        "defender"
    };
    let greene_side = if crown_side == "attacker" {
        "defender"
    } else {
        "attacker"
    };
    let mut report = json!({"turns_played": 3});
    report[crown_side] =
        json!({"units": {"foot": "broken", "guards": "broken", "dragoons": "shaken"}});
    report[greene_side] = json!({"units": unit_ids(&setup, greene_side)
        .into_iter()
        .map(|u| (u, json!("steady")))
        .collect::<serde_json::Map<_, _>>()});
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
        &other,
        "GET",
        &format!("/campaigns/{campaign}/forces/f1"),
        None,
    )
    .await;
    let bases: Vec<(String, u64)> = force["roster"]["brigades"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["units"].as_array().cloned().unwrap_or_default())
        .map(|u| {
            (
                u["id"].as_str().unwrap().to_string(),
                u["bases"].as_u64().unwrap(),
            )
        })
        .collect();
    for (id, before) in [("foot", 5), ("guards", 4)] {
        let now = bases.iter().find(|(u, _)| u == id).map(|(_, b)| *b);
        assert!(
            now.is_none_or(|b| b < before),
            "the BROKEN {id} is lost or smaller (3.4): {force}"
        );
    }
}
