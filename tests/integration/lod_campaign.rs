//! A Liberty or Death! campaign over HTTP: created with its battle size in units, two armies
//! enlisted, a turn that ends in a battle on the open field, the result recorded from the table
//! and confirmed, and Muster's campaign rules (spec 3.4) applied to both armies.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};
use crate::lod_battles::lod_roster;

pub(crate) fn army(name: &str, list: &str, units: &[(&str, &str, u32)]) -> Value {
    let units: Vec<Value> = units
        .iter()
        .map(|(id, entry, bases)| json!({"id": id, "name": id, "entry": entry, "bases": bases}))
        .collect();
    json!({"format": "muster.lod.roster/1", "name": name, "army_list": list,
           "c_in_c": {"id": "cinc", "name": format!("{name} C-in-C")},
           "brigades": [{"id": "b1", "name": "First", "general": {"id": "gen", "name": format!("{name} General")},
                         "units": units}]})
}

pub(crate) async fn call(
    app: &TestApp,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let url = app.url(&format!("/api/v1{path}"));
    let http = reqwest::Client::new();
    let req = match method {
        "GET" => http.get(url),
        _ => http.post(url),
    }
    .bearer_auth(token);
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

pub(crate) async fn ok(
    app: &TestApp,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Value {
    let (status, v) = call(app, token, method, path, body).await;
    assert!(status < 300, "{method} {path}: {status} {v}");
    v
}

/// Two turns' marches that bring force f1 (from Head of Elk) and force f2 (from Philadelphia)
/// together at Kennett on the Philadelphia map; with every order in, each turn closes by itself.
pub(crate) async fn march_to_kennett(app: &TestApp, campaign: i64, f1: &str, f2: &str) {
    let map = ok(app, f1, "GET", &format!("/campaigns/{campaign}/map"), None).await;
    for (first, second) in [
        (
            ("head_of_elk", "iron_hill"),
            ("philadelphia", "chadds_ford"),
        ),
        (("iron_hill", "kennett"), ("chadds_ford", "kennett")),
    ] {
        for (token, force, (a, b)) in [(f1, "f1", first), (f2, "f2", second)] {
            ok(
                app,
                token,
                "POST",
                &format!("/campaigns/{campaign}/orders"),
                Some(
                    json!({"force": force, "order": {"order": "move", "route": route(&map, a, b)}}),
                ),
            )
            .await;
        }
    }
}

pub(crate) fn route(map: &Value, a: &str, b: &str) -> String {
    map["routes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| (r["from"] == a && r["to"] == b) || (r["from"] == b && r["to"] == a))
        .map(|r| r["id"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no route {a}–{b}"))
}

#[tokio::test]
async fn a_liberty_or_death_campaign_fights_a_battle_and_its_aftermath_changes_the_armies() {
    let app = spawn_app().await;
    let howe = app.api_user("howe@example.com").await;
    let washington = app.api_user("washington@example.com").await;

    // The battle size counts units; a points-sized one is refused in those words.
    let (status, body) = call(
        &app,
        &howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "lod", "name": "Philadelphia", "map": "philadelphia-1777",
                    "points": 200, "turns": 3}),
        ),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.to_string()
            .contains("The battle size is 2 to 60 units."),
        "{body}"
    );
    let created = ok(
        &app,
        &howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "lod", "name": "Philadelphia", "map": "philadelphia-1777",
                    "points": 8, "turns": 3}),
        ),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();

    let british = lod_roster(
        &app,
        "howe@example.com",
        &army(
            "Crown",
            "british",
            &[
                ("foot", "regular_infantry_regiment", 5),
                ("guards", "guard_infantry", 4),
                ("dragoons", "light_dragoon_regiment", 6),
            ],
        ),
    );
    let too_big = lod_roster(
        &app,
        "washington@example.com",
        &army(
            "Horde",
            "continental",
            &["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"]
                .map(|id| (id, "militia_regiment", 3)),
        ),
    );
    let continental = lod_roster(
        &app,
        "washington@example.com",
        &army(
            "Main Army",
            "continental",
            &[
                ("line", "continental_regiment", 5),
                ("green", "green_militia_regiment", 4),
                ("rifles", "riflemen", 4),
            ],
        ),
    );
    ok(
        &app,
        &howe,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": british})),
    )
    .await;
    let (status, body) = call(
        &app,
        &washington,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": too_big})),
    )
    .await;
    assert_eq!(
        status, 422,
        "nine units do not fit an 8-unit campaign: {body}"
    );
    assert!(body.to_string().contains("at most 8"), "{body}");
    ok(
        &app,
        &washington,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": continental})),
    )
    .await;
    ok(&app, &howe, "POST", &format!("/campaigns/{id}/start"), None).await;
    let map = ok(&app, &howe, "GET", &format!("/campaigns/{id}/map"), None).await;

    // Two turns' marches bring the armies together at Kennett.
    for (from_to_1, from_to_2) in [
        (
            ("head_of_elk", "iron_hill"),
            ("philadelphia", "chadds_ford"),
        ),
        (("iron_hill", "kennett"), ("chadds_ford", "kennett")),
    ] {
        for (token, force, (a, b)) in [(&howe, "f1", from_to_1), (&washington, "f2", from_to_2)] {
            ok(
                &app,
                token,
                "POST",
                &format!("/campaigns/{id}/orders"),
                Some(
                    json!({"force": force, "order": {"order": "move", "route": route(&map, a, b)}}),
                ),
            )
            .await;
        }
        // With every order in, the turn closes by itself.
    }
    let state = ok(&app, &howe, "GET", &format!("/campaigns/{id}"), None).await;
    let record = state["battles"][0]["record"]
        .as_i64()
        .unwrap_or_else(|| panic!("a battle: {state}"));
    let setup = ok(
        &app,
        &howe,
        "GET",
        &format!("/battles/{record}/setup"),
        None,
    )
    .await;
    assert_eq!(setup["format"], "muster.lod.battle/1");
    assert_eq!(setup["scenario"], "open_field");
    let british_attack = setup["attacker"]["roster"]["army_list"] == "british";
    let (british_side, continental_side) = if british_attack {
        ("attacker", "defender")
    } else {
        ("defender", "attacker")
    };

    // The Crown's army breaks: every unit BROKEN or routed off, its General killed; the
    // Continentals end STEADY, WORN and SHAKEN.
    let mut report = json!({"turns_played": 4});
    report[british_side] = json!({"units": {"foot": "broken", "guards": "routed_off", "dragoons": "broken"},
                                  "generals_killed": ["gen"]});
    report[continental_side] =
        json!({"units": {"line": "steady", "green": "worn", "rifles": "shaken"}});
    let recorder = &washington;
    let saved = ok(
        &app,
        recorder,
        "POST",
        &format!("/battles/{record}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert_eq!(saved["result"]["band"], "major", "{saved}");
    ok(
        &app,
        &howe,
        "POST",
        &format!("/battles/{record}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;

    let log = ok(&app, &howe, "GET", &format!("/campaigns/{id}/log"), None).await;
    let kinds: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or(""))
        .collect();
    assert!(kinds.contains(&"battle_fought"), "{kinds:?}");
    assert!(kinds.contains(&"commander_replaced"), "{kinds:?}");

    let crown = ok(
        &app,
        &howe,
        "GET",
        &format!("/campaigns/{id}/forces/f1"),
        None,
    )
    .await;
    let text = crown.to_string();
    // Each British unit was lost on 1–3 or came back one row smaller (3.4).
    let roster = &crown["roster"];
    let units: Vec<(String, u64)> = roster["brigades"]
        .as_array()
        .map(|bs| {
            bs.iter()
                .flat_map(|b| b["units"].as_array().cloned().unwrap_or_default())
                .map(|u| {
                    (
                        u["id"].as_str().unwrap().to_string(),
                        u["bases"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    for (id, bases) in &units {
        let expected = match id.as_str() {
            "foot" => 4,
            "guards" => 3,
            "dragoons" => 4,
            other => panic!("unexpected unit {other}: {text}"),
        };
        assert_eq!(*bases, expected, "{id} came back one row smaller: {text}");
    }
    let lost_or_reduced = kinds
        .iter()
        .filter(|k| **k == "element_lost" || **k == "element_reduced")
        .count();
    assert!(lost_or_reduced >= 3, "every broken unit rolled: {kinds:?}");
    let general = roster["brigades"][0]["general"]["name"]
        .as_str()
        .unwrap_or("");
    assert_ne!(
        general, "Crown General",
        "the fallen General was replaced: {text}"
    );
    assert!(!general.is_empty(), "{text}");

    // The Continentals: STEADY and WORN units are untouched; the SHAKEN rifles kept 4 bases or
    // shrank to 3.
    let main = ok(
        &app,
        &washington,
        "GET",
        &format!("/campaigns/{id}/forces/f2"),
        None,
    )
    .await;
    let bases_of = |id: &str| {
        main["roster"]["brigades"][0]["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == id)
            .map(|u| u["bases"].as_u64().unwrap())
    };
    assert_eq!(bases_of("green"), Some(4), "{main}");
    assert!(matches!(bases_of("rifles"), Some(3) | Some(4)), "{main}");
    // The line regiment ended STEADY after a major victory: it is a Continental Regiment still,
    // or climbed its ladder to an Experienced Infantry Regiment (at most 4 bases).
    let line = main["roster"]["brigades"][0]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "line")
        .cloned()
        .unwrap();
    match line["entry"].as_str().unwrap() {
        "continental_regiment" => assert_eq!(line["bases"], 5),
        "experienced_infantry_regiment" => {
            assert_eq!(line["bases"], 4);
            assert!(kinds.contains(&"element_promoted"));
        }
        other => panic!("unexpected entry {other}"),
    }

    // The pages speak of units, and the battle's report of VPs.
    app.login("washington@example.com", crate::helpers::PASSWORD)
        .await;
    let page = app.get_html(&format!("/campaigns/{id}")).await;
    assert!(page.contains("8-unit battles"), "{page}");
    let page = app.get_html(&format!("/campaigns/{id}/forces/f2")).await;
    assert!(page.contains("3 of 8 units"), "{page}");
    assert!(
        page.contains("<h2>C-in-C</h2>")
            && page.contains("General:")
            && !page.contains("Force Commander"),
        "the force speaks the game's words: {page}"
    );
    assert!(
        page.contains("(8/16/24)"),
        "units show their values: {page}"
    );
    let form = app.get_html("/campaigns?system=lod").await;
    assert!(
        !form.contains("reinforcement points") && form.contains("experience ladder"),
        "only the rules that apply, in the game's words"
    );
    assert!(!page.contains("Reinforcements"), "nothing to buy: {page}");
    let page = app.get_html(&format!("/battles/{record}")).await;
    assert!(page.contains("Main Army wins a major victory"), "{page}");
}
