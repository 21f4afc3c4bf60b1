//! All the King's Men rosters against the real server: creating an army from the form, the
//! editor's posts in the game's words, illegal drafts that save and say why, the roster page,
//! text and JSON export and import, the starting points (the seeded random force generator with
//! its rolls shown, the three sample battles with their set-up and victory text), and the API's
//! catalogue, validation and random force.

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, Visitor, PASSWORD};

fn id_from(res: &reqwest::Response) -> i64 {
    location(res)
        .trim_start_matches("/rosters/")
        .split(['/', '?', '#'])
        .next()
        .unwrap()
        .parse()
        .expect("roster id in the redirect")
}

/// The version shown in the editor's hidden fields.
fn version_of(html: &str) -> String {
    let marker = "name=\"version\" value=\"";
    let start = html.find(marker).expect("a version field") + marker.len();
    html[start..start + html[start..].find('"').unwrap()].to_string()
}

/// Posts one editor action with the current version.
async fn edit(v: &Visitor, id: i64, fields: &[(&str, &str)]) -> reqwest::Response {
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

/// Unit ids (`u-…`) in page order.
fn unit_ids(html: &str) -> Vec<String> {
    html.match_indices("<tr id=\"u-")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"").replace("&#39;", "'")
}

const UNIT: &[(&str, &str)] = &[
    ("u_officer", "on"),
    ("u_ensign", "on"),
    ("u_general", "g1"),
    ("u_quality", ""),
    ("u_gun", ""),
    ("u_rank_and_file", ""),
    ("u_break_point", ""),
];

fn unit_fields<'a>(action: &'a str, name: &'a str, kind: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut f = vec![("action", action), ("u_name", name), ("u_type", kind)];
    f.extend_from_slice(UNIT);
    f
}

#[tokio::test]
async fn atkm_build_an_army_in_the_editor_and_see_it_judged() {
    let app = spawn_app().await;
    app.register("morgan@example.org", "Morgan", PASSWORD).await;

    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[
                ("name", "Flying Army"),
                ("system", "atkm"),
                ("atkm_period", "awi"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "create an army");
    let id = id_from(&res);
    let page = unescape(&app.get_html(&format!("/rosters/{id}/edit")).await);
    assert!(
        page.contains("All the King's Men · American Revolution"),
        "{page}"
    );
    assert!(
        page.contains("Commanding General") && page.contains("Rank and file"),
        "the editor speaks the game's words"
    );
    assert!(
        page.contains(">Woodland Indians (7 to 12 warriors; needs the Woodland Indians rule)<"),
        "the type list comes from the catalogue and says which need a rule"
    );
    assert!(
        !page.contains("value=\"dragoons\""),
        "only the catalogue's types"
    );

    // A standard infantry unit: legal at once.
    let res = edit(
        &app,
        id,
        &unit_fields("add_unit", "1st Maryland", "infantry"),
    )
    .await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let view = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(view.contains("1st Maryland"));
    assert!(view.contains("12 privates, officer and ensign"));
    assert!(view.contains("collapses at 4"), "infantry break point 4");
    assert!(view.contains("Legal"), "{view}");

    // Woodland Indians without their rule: the draft saves and says why (rule_not_enabled).
    let res = edit(
        &app,
        id,
        &unit_fields("add_unit", "Catawba", "woodland_indians"),
    )
    .await;
    assert_eq!(res.status(), 303);
    let view = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(view.contains("Illegal"));
    assert!(
        view.contains("need the optional rule 'Woodland Indians'"),
        "{view}"
    );
    assert!(view.contains("collapses at 6"), "12 warriors break at half");

    // Ticking the rule makes it legal.
    let res = edit(
        &app,
        id,
        &[
            ("action", "settings"),
            ("name", "Flying Army"),
            ("period", "awi"),
            ("advanced_rules", "woodland_indians"),
            ("advanced_rules", "elite_militia"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let view = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(view.contains("Legal"), "{view}");
    assert!(
        view.contains("Woodland Indians, ")
            || view.contains("Elite and militia units, Woodland Indians")
    );

    // A 16-man militia regiment without the unit-sizes rule: an error beside the unit.
    let ids = unit_ids(&app.get_html(&format!("/rosters/{id}/edit")).await);
    assert_eq!(ids.len(), 2);
    let mut fields = unit_fields("update_unit", "Virginia militia", "infantry");
    fields.retain(|(k, _)| *k != "u_rank_and_file" && *k != "u_quality");
    fields.push(("unit", &ids[0]));
    fields.push(("u_rank_and_file", "16"));
    fields.push(("u_quality", "militia"));
    fields.push(("u_label", "militia"));
    let res = edit(&app, id, &fields).await;
    assert_eq!(res.status(), 303);
    let view = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(view.contains("Virginia militia"));
    assert!(view.contains("Militia: defends one colour worse"), "{view}");
    assert!(
        view.contains("without the optional rule 'unit sizes'"),
        "{view}"
    );

    // A value the catalogue does not offer is refused before saving.
    let res = edit(&app, id, &unit_fields("add_unit", "Hussars", "hussars")).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Choose a unit type from the list."));
    let mut bad = unit_fields("add_unit", "Odd", "infantry");
    bad.retain(|(k, _)| *k != "u_rank_and_file");
    bad.push(("u_rank_and_file", "many"));
    let res = edit(&app, id, &bad).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Give the rank and file as a whole number from 1 to 99"));

    // A Lieutenant General with a command of his own.
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_general"),
            ("g_name", "Pickens"),
            ("g_role", "lieutenant"),
            ("g_rating", "2"),
            ("g_radius", "12"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let view = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(view.contains("Pickens") && view.contains("Lieutenant General"));
    assert!(
        view.contains("has no personal command") || view.contains("Pickens's command"),
        "{view}"
    );
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_general"),
            ("g_name", "Nobody"),
            ("g_role", "lieutenant"),
            ("g_rating", "4"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422, "the form offers ratings 1 to 3 only");

    // Text and JSON export; the JSON imports back unchanged.
    let text = unescape(&app.get_html(&format!("/rosters/{id}/export.txt")).await);
    assert!(
        text.contains("All the King's Men — American Revolution"),
        "{text}"
    );
    assert!(text
        .contains("Virginia militia: Infantry; 16 privates, officer and ensign; collapses at 4"));
    let first = app.get_html(&format!("/rosters/{id}/export.json")).await;
    assert!(first.contains("\"format\": \"muster.atkm.roster/1\""));
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

    // Broken JSON names its line; the wrong shape names its path.
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                "{\"format\": \"muster.atkm.roster/1\",\n \"units\": }",
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("line 2"));
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                r#"{"format": "muster.atkm.roster/1", "name": "x", "units": [{"type": "infantry", "figures": 12}]}"#,
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("units[0].figures"));
}

#[tokio::test]
async fn atkm_starting_points_show_their_rolls_and_their_battles() {
    let app = spawn_app().await;
    app.register("lee@example.org", "Lee", PASSWORD).await;

    let start = unescape(&app.get_html("/rosters/new?system=atkm").await);
    for battle in ["Monmouth", "Cowpens", "North Point"] {
        assert!(start.contains(battle), "{battle} is offered");
    }
    assert!(start.contains("Set-up") && start.contains("Victory"));
    assert!(
        start.contains("The first army to collapse (3 or fewer of its 7 units left) loses"),
        "Cowpens' victory text (K-41)"
    );
    assert!(start.contains("value=\"cowpens_1781_americans\""));

    // A sample side: the book's order of battle, legal with its two optional rules.
    let res = app
        .post_form(
            "/rosters/new?system=atkm",
            "/rosters/new/sample",
            &[("system", "atkm"), ("force", "cowpens_1781_americans")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let cowpens = id_from(&res);
    let view = unescape(&app.get_html(&format!("/rosters/{cowpens}")).await);
    assert!(view.contains("Legal"), "{view}");
    assert!(view.contains("Daniel Morgan") && view.contains("1st Maryland"));
    assert!(view.contains("7 units"));
    assert!(view.contains("collapses with 3 of 7 units left"));
    assert!(view.contains("Militia (treat as militia): defends one colour worse"));
    let res = app
        .post_form(
            "/rosters/new?system=atkm",
            "/rosters/new/sample",
            &[("system", "atkm"), ("force", "waterloo")],
        )
        .await;
    assert_eq!(res.status(), 400);

    // A random force: the seed and every roll are kept and shown; the same seed, the same army.
    let roll = |seed: &'static str| {
        let app = &app;
        async move {
            let res = app
                .post_form(
                    "/rosters/new?system=atkm",
                    "/rosters/new/random",
                    &[
                        ("system", "atkm"),
                        ("name", "Rolled"),
                        ("units", "8"),
                        ("period", "awi"),
                        ("seed", seed),
                        ("advanced_rules", "elite_militia"),
                        ("advanced_rules", "artillery_sizes"),
                    ],
                )
                .await;
            assert_eq!(res.status(), 303);
            id_from(&res)
        }
    };
    let a = roll("1781").await;
    let b = roll("1781").await;
    let view = unescape(&app.get_html(&format!("/rosters/{a}")).await);
    assert!(view.contains("seed 1781"), "{view}");
    assert_eq!(
        view.matches("Rolled: unit type 2d6").count(),
        8,
        "each unit shows its roll"
    );
    let units = |id: i64| {
        let app = &app;
        async move {
            let doc: Value =
                serde_json::from_str(&app.get_html(&format!("/rosters/{id}/export.json")).await)
                    .unwrap();
            doc["units"].clone()
        }
    };
    assert_eq!(
        units(a).await,
        units(b).await,
        "the same seed gives the same army"
    );
    assert_eq!(units(a).await.as_array().unwrap().len(), 8);
    let res = app
        .post_form(
            "/rosters/new?system=atkm",
            "/rosters/new/random",
            &[("system", "atkm"), ("units", "0"), ("seed", "5")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Roll from 1 to"));
}

/// A document that breaks rules of the check, and what the API says about it.
fn wrong_army() -> Value {
    json!({"format": "atkm.roster/1", "name": "Everything wrong", "period": "awi",
    "advanced_rules": [],
    "generals": [
      {"id": "g1", "name": "A", "rating": 4, "role": "commanding"},
      {"id": "g2", "name": "B", "rating": 2, "role": "commanding"}
    ],
    "units": [
      {"type": "dragoons", "general": "g1"},
      {"type": "infantry", "general": "g9", "rank_and_file": 16},
      {"type": "horse_artillery", "general": "g1", "gun": "heavy"},
      {"type": "cavalry", "general": "g1", "quality": "elite", "break_point": 6},
      {"type": "skirmishers", "general": "g1", "officer": false}
    ]})
}

#[tokio::test]
async fn atkm_api_serves_the_catalogue_validation_and_random_forces() {
    let app = spawn_app().await;
    let catalogue: Value = app.get("/api/v1/atkm/catalog").await.json().await.unwrap();
    assert_eq!(catalogue["scenarios"].as_array().unwrap().len(), 3);
    let types = catalogue["unit_types"].as_array().unwrap();
    let cavalry = types.iter().find(|t| t["id"] == "cavalry").unwrap();
    assert_eq!(
        cavalry["restored"], "K-1",
        "lost cells are marked as Muster's reading"
    );

    let res = reqwest::Client::new()
        .post(app.url("/api/v1/atkm/validate"))
        .json(&wrong_army())
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
    for (code, severity, path) in [
        ("commanding_general_count", "error", "generals"),
        ("general_rating_out_of_range", "error", "generals[0].rating"),
        ("unknown_type", "error", "units[0].type"),
        ("unit_without_general", "error", "units[1].general"),
        ("size_not_standard", "error", "units[1].rank_and_file"),
        ("heavy_gun_on_horse_artillery", "error", "units[2].gun"),
        ("rule_not_enabled", "error", "units[3].quality"),
        (
            "break_point_not_below_size",
            "error",
            "units[3].break_point",
        ),
        ("missing_officer_or_ensign", "error", "units[4]"),
    ] {
        assert!(
            found
                .iter()
                .any(|f| (f.0.as_str(), f.1.as_str(), f.2.as_str()) == (code, severity, path)),
            "{code} at {path}: {found:?}"
        );
    }

    // Broken JSON → 400 with its line; the wrong shape → 422 naming the field.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/atkm/validate"))
        .body("{\n\"format\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("line 2"));
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/atkm/validate"))
        .json(&json!({"format": "muster.atkm.roster/1",
            "generals": [{"id": "g1", "rating": 2, "role": "commanding", "dice": 3}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let error: Value = res.json().await.unwrap();
    assert_eq!(
        error["error"]["details"][0]["field"], "generals[0].dice",
        "{error}"
    );

    // An array of armies gets an array of reports.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/atkm/validate"))
        .json(&json!([wrong_army(), {"format": "muster.atkm.roster/1", "name": "Empty"}]))
        .send()
        .await
        .unwrap();
    let reports: Value = res.json().await.unwrap();
    assert_eq!(reports.as_array().unwrap().len(), 2);

    // The random force generator: seeded, every roll in the answer.
    let ask = |body: Value| {
        let app = &app;
        async move {
            reqwest::Client::new()
                .post(app.url("/api/v1/atkm/random_force"))
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let one: Value = ask(json!({"seed": 7, "units": 5, "elite_militia": true}))
        .await
        .json()
        .await
        .unwrap();
    let two: Value = ask(json!({"seed": 7, "units": 5, "elite_militia": true}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(one, two);
    assert_eq!(one["document"]["random"]["seed"], 7);
    assert_eq!(one["document"]["units"].as_array().unwrap().len(), 5);
    assert!(one["document"]["units"][0]["random_roll"]["unit_type"].is_array());
    assert_eq!(one["report"]["legal"], true, "{one}");
    assert_eq!(ask(json!({"units": 0})).await.status(), 422);
    assert_eq!(
        ask(json!({"units": 5, "colour": "red"})).await.status(),
        400
    );

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    for path in ["/api/v1/atkm/validate", "/api/v1/atkm/random_force"] {
        assert!(doc["paths"][path]["post"].is_object(), "{path}");
    }
    assert!(doc["paths"]["/api/v1/atkm/catalog"]["get"].is_object());
}
