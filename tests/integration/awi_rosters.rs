//! AWI orders of battle against the real server: creating one from the form, empty or from an
//! example force, the editor's posts in the game's words (CinC, brigade, brigadier, ability,
//! type, grade, bases, arms, gun, gunners), illegal drafts that save with their findings, the
//! roster page, text and JSON export and import, and the API's catalogue and validation.

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, Visitor, PASSWORD};

pub(crate) fn id_from(res: &reqwest::Response) -> i64 {
    location(res)
        .trim_start_matches("/rosters/")
        .split(['/', '?'])
        .next()
        .unwrap()
        .parse()
        .expect("roster id in the redirect")
}

fn version_of(html: &str) -> String {
    let marker = "name=\"version\" value=\"";
    let start = html.find(marker).expect("a version field") + marker.len();
    html[start..start + html[start..].find('"').unwrap()].to_string()
}

/// Posts one editor action with the current version.
pub(crate) async fn edit(v: &Visitor, id: i64, fields: &[(&str, &str)]) -> reqwest::Response {
    let page = v.get_html(&format!("/rosters/{id}/edit")).await;
    let (version, token) = (version_of(&page), csrf_from(&page));
    let mut all: Vec<(&str, &str)> = fields.to_vec();
    all.push(("version", &version));
    all.push(("csrf_token", &token));
    v.client
        .post(v.url(&format!("/rosters/{id}/edit")))
        .form(&all)
        .send()
        .await
        .unwrap()
}

/// Brigade (`"b-"`) or unit (`"u-"`) ids in page order, from the editor.
pub(crate) fn ids(html: &str, prefix: &str) -> Vec<String> {
    let marker = match prefix {
        "b-" => "group-panel\" id=\"b-",
        _ => "<tr id=\"u-",
    };
    html.match_indices(marker)
        .map(|(i, hit)| {
            let rest = &html[i + hit.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"").replace("&#39;", "'")
}

#[tokio::test]
async fn awi_build_an_order_of_battle_in_the_editor_and_see_it_judged() {
    let app = spawn_app().await;
    app.register("cornwallis@example.org", "Cornwallis", PASSWORD)
        .await;

    let list = app.get_html("/rosters").await;
    assert!(
        list.contains("AWI wargames rules") && list.contains("name=\"side\""),
        "the new-roster form offers the system and its own field"
    );
    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[("name", ""), ("system", "awi"), ("side", "British")],
        )
        .await;
    assert_eq!(res.status(), 422, "a name is asked for");
    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[
                ("name", "Southern campaign"),
                ("system", "awi"),
                ("side", "British"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let id = id_from(&res);

    // The empty starting point: a CinC post and one brigade whose ability is to be rolled.
    let page = unescape(&app.get_html(&format!("/rosters/{id}/edit")).await);
    for word in [
        "CinC",
        "Brigadier",
        "Ability",
        "Troop type",
        "Grade",
        "Bases",
        "Gunners",
    ] {
        assert!(
            page.contains(word),
            "the editor speaks the game's words: {word}"
        );
    }
    assert!(page.contains("To be rolled (D6+2)"), "W-4");
    assert!(
        page.contains("has no units"),
        "an empty brigade is an illegal draft that saved"
    );
    assert!(page.contains("Note:") || page.contains("ability rating yet"));
    // Only what the catalogue allows: four types, four grades, light and medium guns, 1-4
    // gunners, ability 1-10.
    for value in [
        "infantry",
        "skirmishers",
        "cavalry",
        "artillery",
        "elite",
        "militia",
        "light",
        "medium",
    ] {
        assert!(
            page.contains(&format!("value=\"{value}\"")),
            "{value} offered"
        );
    }
    assert!(
        !page.contains("value=\"heavy\""),
        "no heavy guns in these rules"
    );
    assert!(page.contains("value=\"10\">10<") && !page.contains("value=\"11\">11<"));
    assert!(
        page.contains("value=\"rifle\" data-types=\"skirmishers\""),
        "rifles are offered to skirmishers only (W-34)"
    );
    let brigade = ids(&page, "b-")[0].clone();

    // Name the CinC and the brigadier, rate him.
    let res = edit(
        &app,
        id,
        &[
            ("action", "settings"),
            ("name", "Southern campaign"),
            ("side", "British"),
            ("cinc", "Cornwallis"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_brigade"),
            ("brigade", &brigade),
            ("brigade_name", "Webster's Brigade"),
            ("brigadier", "Webster"),
            ("ability", "6"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    // An ability outside 1-10 is refused by the form (W-4).
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_brigade"),
            ("brigade", &brigade),
            ("brigadier", "Webster"),
            ("ability", "11"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);

    // Units of each type.
    for fields in [
        vec![
            ("u_name", "33rd Foot"),
            ("u_type", "infantry"),
            ("u_grade", "trained"),
            ("u_bases", "6"),
        ],
        vec![
            ("u_name", "Jägers"),
            ("u_type", "skirmishers"),
            ("u_grade", "elite"),
            ("u_bases", "2"),
            ("u_arms", "rifle"),
        ],
        vec![
            ("u_name", "Legion horse"),
            ("u_type", "cavalry"),
            ("u_grade", "trained"),
            ("u_bases", "4"),
        ],
        vec![
            ("u_name", "3pdr"),
            ("u_type", "artillery"),
            ("u_grade", "trained"),
            ("u_gun", "light"),
            ("u_gunners", "3"),
        ],
    ] {
        let mut all = vec![("action", "add_unit"), ("brigade", brigade.as_str())];
        all.extend(fields);
        let res = edit(&app, id, &all).await;
        assert_eq!(res.status(), 303, "{all:?}");
    }
    // Rifles on close-order infantry are refused by the form (W-34); zero bases too.
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_type", "infantry"),
            ("u_grade", "raw"),
            ("u_bases", "4"),
            ("u_arms", "rifle"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Only skirmishers may carry rifles"));
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_type", "infantry"),
            ("u_grade", "raw"),
            ("u_bases", "0"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);

    let page = unescape(&app.get_html(&format!("/rosters/{id}/edit")).await);
    assert!(
        page.contains("6 bases of trained infantry (18 figures, 360 men)"),
        "{page}"
    );
    assert!(page.contains("2 bases of elite skirmishers, rifles (4 figures, 60 men)"));
    assert!(page.contains("Light gun, 3 gunners (trained)"));
    assert!(
        page.contains("Rifle: close 0–6\", long 6–12\""),
        "rifle bands from the catalogue"
    );
    assert!(
        !page.contains("has no units"),
        "the brigade is no longer empty"
    );

    // Change a unit; move one into a second brigade; leave the CinC post vacant.
    let units = ids(&page, "u-");
    assert_eq!(units.len(), 4, "{units:?}");
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_unit"),
            ("unit", &units[0]),
            ("u_name", "33rd Foot"),
            ("u_type", "infantry"),
            ("u_grade", "elite"),
            ("u_bases", "8"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_brigade"),
            ("brigade_name", "Tarleton's Legion"),
            ("brigadier", "Tarleton"),
            ("ability", ""),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    let legion = ids(&page, "b-")[1].clone();
    let res = edit(
        &app,
        id,
        &[
            ("action", "move_unit"),
            ("unit", &units[2]),
            ("to_brigade", &legion),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let res = edit(
        &app,
        id,
        &[
            ("action", "settings"),
            ("name", "Southern campaign"),
            ("side", "British"),
            ("cinc", ""),
        ],
    )
    .await;
    assert_eq!(
        res.status(),
        303,
        "a vacant CinC is an illegal draft that saves"
    );

    // The roster page: derived figures, findings, the break threshold (W-31).
    let sheet = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(sheet.contains("8 bases of elite infantry (24 figures, 480 men)"));
    assert!(sheet.contains("brigadier Webster, ability 6"));
    assert!(sheet.contains("brigadier Tarleton, ability to be rolled (D6+2)"));
    assert!(sheet.contains("commander-in-chief") && sheet.contains("Illegal"));
    assert!(
        sheet.contains("3 units") && sheet.contains("1 gun"),
        "guns are counted apart from units"
    );
    assert!(
        sheet.contains("with 2 units routed, destroyed or gone"),
        "half of 3, rounded up"
    );
    assert!(
        sheet.contains("/awi/reference"),
        "the roster links its quick reference"
    );

    // Plain text for forums.
    let text = app.get_html(&format!("/rosters/{id}/export.txt")).await;
    assert!(
        text.contains("CinC: none") && text.contains("NOT COMPLETE"),
        "{text}"
    );
    assert!(text.contains("Tarleton's Legion — brigadier Tarleton, ability to be rolled (D6+2)"));
    assert!(text.contains("(missing_cinc)") && text.contains("(ability_to_be_rolled)"));
}

#[tokio::test]
async fn awi_start_from_an_example_and_round_trip_the_document() {
    let app = spawn_app().await;
    app.register("greene@example.org", "Greene", PASSWORD).await;

    let start = app.get_html("/rosters/new?system=awi").await;
    assert!(start.contains("An empty order of battle") && start.contains("An example force"));
    assert!(
        start.contains("(British:") && start.contains("(Continental:"),
        "one example per side"
    );
    let res = app
        .post_form(
            "/rosters/new?system=awi",
            "/rosters/new/empty",
            &[
                ("system", "awi"),
                ("name", "Empty one"),
                ("side", "Continental"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let res = app
        .post_form(
            "/rosters/new?system=awi",
            "/rosters/new/example",
            &[("system", "awi"), ("example", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example = id_from(&res);
    let sheet = app.get_html(&format!("/rosters/{example}")).await;
    assert!(
        sheet.contains("Continental") && sheet.contains("Legal"),
        "{sheet}"
    );

    // JSON export → import → export changes nothing; the import goes to the document's system.
    let first = app
        .get_html(&format!("/rosters/{example}/export.json"))
        .await;
    assert!(first.contains("\"format\": \"muster.awi.oob/1\""));
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &first)],
        )
        .await;
    assert_eq!(res.status(), 303);
    let again = id_from(&res);
    let second = app.get_html(&format!("/rosters/{again}/export.json")).await;
    assert_eq!(first, second);

    // The wrong shape names its path.
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                r#"{"format": "muster.awi.oob/1", "name": "x", "brigades": [{"brigadier": {"name": "A"}, "units": [{"type": "infantry", "name": ["not", "text"]}]}]}"#,
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("brigades[0].units[0]"));

    // The roster API: document and report.
    let token = app.api_user("greene-api@example.org").await;
    let doc: Value = serde_json::from_str(&first).unwrap();
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .json(&doc)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["document"]["side"], "Continental");
    assert_eq!(created["report"]["legal"], true);
}

/// A document that breaks every structural rule of spec 2.2.
fn every_finding() -> Value {
    json!({"format": "awi.oob/1", "name": "Everything wrong",
    "brigades": [
        {"id": "x", "name": "Odd", "brigadier": {"id": "x", "name": "A", "ability": 11}, "units": [
            {"name": "a", "type": "dragoons", "grade": "trained", "bases": 4},
            {"name": "b", "type": "infantry", "grade": "veteran", "bases": 4},
            {"name": "c", "type": "infantry", "grade": "trained", "bases": 0},
            {"name": "d", "type": "infantry", "grade": "trained", "bases": 4, "arms": "rifle"},
            {"name": "e", "type": "artillery", "grade": "trained", "gun": "heavy", "gunners": 3},
            {"name": "f", "type": "artillery", "grade": "trained", "gun": "light", "gunners": 5},
            {"name": "g", "type": "cavalry", "grade": "trained", "bases": 2, "gunners": 2}
        ]},
        {"name": "No brigadier", "units": [{"type": "infantry", "grade": "raw", "bases": 4}]},
        {"name": "Empty", "brigadier": {"name": "B"}, "units": []}
    ]})
}

#[tokio::test]
async fn awi_the_api_serves_the_catalogue_and_every_finding() {
    let app = spawn_app().await;
    let catalogue: Value = app.get("/api/v1/awi/catalog").await.json().await.unwrap();
    assert_eq!(catalogue["types"].as_array().unwrap().len(), 4);
    assert_eq!(catalogue["grades"].as_array().unwrap().len(), 4);
    assert_eq!(catalogue["hit"]["base_need"], 7);
    assert!(
        catalogue["morale"]["modifiers"].as_array().unwrap().len() >= 10,
        "W-7"
    );

    let res = reqwest::Client::new()
        .post(app.url("/api/v1/awi/validate"))
        .json(&every_finding())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(report["legal"], false);
    let found: Vec<(String, String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            assert!(!f["message"].as_str().unwrap().is_empty());
            (
                f["code"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("missing_cinc", "error", "cinc"),
        (
            "ability_out_of_range",
            "error",
            "brigades[0].brigadier.ability",
        ),
        ("unknown_type", "error", "brigades[0].units[0].type"),
        ("unknown_grade", "error", "brigades[0].units[1].grade"),
        ("bases_invalid", "error", "brigades[0].units[2].bases"),
        ("arms_not_allowed", "error", "brigades[0].units[3].arms"),
        ("gun_class_invalid", "error", "brigades[0].units[4].gun"),
        (
            "gunners_out_of_range",
            "error",
            "brigades[0].units[5].gunners",
        ),
        (
            "field_not_allowed_for_type",
            "error",
            "brigades[0].units[6].gunners",
        ),
        (
            "brigade_without_brigadier",
            "error",
            "brigades[1].brigadier",
        ),
        ("empty_brigade", "error", "brigades[2].units"),
        (
            "ability_to_be_rolled",
            "info",
            "brigades[2].brigadier.ability",
        ),
        ("duplicate_id", "warning", "brigades[0].brigadier"),
    ];
    for (code, severity, path) in want {
        assert!(
            found
                .iter()
                .any(|f| (f.0.as_str(), f.1.as_str(), f.2.as_str()) == (code, severity, path)),
            "{code} at {path}: {found:?}"
        );
    }

    // Broken JSON → 400 with line and column; an array gets an array of reports.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/awi/validate"))
        .body("{\n\"format\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("line 2"));
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/awi/validate"))
        .json(
            &json!([every_finding(), {"format": "muster.awi.oob/1", "name": "x", "brigades": []}]),
        )
        .send()
        .await
        .unwrap();
    let reports: Value = res.json().await.unwrap();
    assert_eq!(reports.as_array().map(Vec::len), Some(2));
    // Another system's document is refused, naming the format.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/awi/validate"))
        .json(&json!({"format": "muster.lod.roster/1", "brigades": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/v1/awi/validate"]["post"].is_object());
    assert!(doc["paths"]["/api/v1/awi/catalog"]["get"].is_object());
}
