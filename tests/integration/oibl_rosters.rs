//! One if by Land rosters against the real server: an empty order of battle from the form, a
//! starting point, the editor's posts in the game's words (an illegal draft saves, a value the
//! game lacks is refused), the roster page, text and JSON export and import, and the API's
//! catalogue and validation.

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, Visitor, PASSWORD};

fn id_from(res: &reqwest::Response) -> i64 {
    location(res)
        .trim_start_matches("/rosters/")
        .split(['/', '?'])
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

/// The page's text with the quotes askama escapes put back.
pub(crate) fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"").replace("&#39;", "'")
}

pub(crate) async fn new_order_of_battle(v: &Visitor, name: &str, nation: &str) -> i64 {
    let res = v
        .post_form(
            "/rosters",
            "/rosters",
            &[("name", name), ("system", "oibl"), ("side", nation)],
        )
        .await;
    assert_eq!(res.status(), 303, "create an order of battle");
    id_from(&res)
}

#[tokio::test]
async fn oibl_build_an_order_of_battle_in_the_editor_and_see_it_judged() {
    let app = spawn_app().await;
    app.register("morgan@example.org", "Morgan", PASSWORD).await;

    // The form asks for the side rather than guessing it.
    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[("name", "No side"), ("system", "oibl")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Choose the side this order of battle is for."));

    let id = new_order_of_battle(&app, "Flying Army", "american").await;
    let page = unescape(&app.get_html(&format!("/rosters/{id}/edit")).await);
    assert!(page.contains("One if by Land · American"));
    assert!(
        page.contains("1st Brigade"),
        "a new order of battle has one brigade"
    );
    for offered in [
        "Continental infantry (3 a stand)",
        "Militia (musket) (4 a stand)",
        "Veteran (Morale Number 8)",
        "Wretched (Morale Number 5)",
        "X = 3",
    ] {
        assert!(page.contains(offered), "the editor offers {offered}");
    }
    assert!(!page.contains("Guard ("), "no quality the game lacks");
    let brigade = ids(&page, "b-")[0].clone();

    // A quality the game does not have is refused by the form; a unit it has is added.
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_name", "Levies"),
            ("u_class", "militia"),
            ("u_quality", "guard"),
            ("u_stands", "4"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);
    for (name, class, quality, stands) in [
        ("1st Maryland", "continental", "veteran", "6"),
        ("Levies", "militia", "poor", "4"),
    ] {
        let res = edit(
            &app,
            id,
            &[
                ("action", "add_unit"),
                ("brigade", &brigade),
                ("u_name", name),
                ("u_class", class),
                ("u_quality", quality),
                ("u_stands", stands),
            ],
        )
        .await;
        assert_eq!(res.status(), 303, "{name}");
    }
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    let units = ids(&page, "u-");
    assert_eq!(units.len(), 2, "{units:?}");
    assert!(
        page.contains("6 stands × 3 figures"),
        "Normal Infantry: 3 a stand"
    );
    assert!(
        page.contains("4 stands × 4 figures"),
        "Militia basing: 4 a stand"
    );

    // Bayonets on militia and close order contradict the class, yet the draft saves; the
    // close order the scenario grants is shown as a warning.
    let levies = units[1].clone();
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_unit"),
            ("unit", &levies),
            ("u_name", "Levies"),
            ("u_class", "militia"),
            ("u_quality", "poor"),
            ("u_stands", "4"),
            ("u_figures", "14"),
            ("u_bayonets", "yes"),
            ("u_auth_close_order", "on"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303, "an illegal draft still saves");
    let sheet = unescape(&app.get_html(&format!("/rosters/{id}")).await);
    assert!(sheet.contains("Illegal"));
    assert!(
        sheet.contains("may not have bayonets"),
        "bayonets_not_allowed"
    );
    assert!(
        sheet.contains("14</strong> figures of 16"),
        "under strength"
    );
    assert!(
        sheet.contains("close order (scenario)"),
        "the grant is marked as the scenario's"
    );
    assert!(
        sheet.contains("Morale Number") && sheet.contains(">6<"),
        "Poor: 6"
    );

    // Ratings: the form offers 0 to 3 (B-8) and refuses anything else.
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_brigade"),
            ("brigade", &brigade),
            ("commander", "Morgan"),
            ("rating", "4"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Choose a rating from 0 to 3"));
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_brigade"),
            ("brigade", &brigade),
            ("commander", "Morgan"),
            ("rating", "2"),
            ("brigade_name", "Light Corps"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);

    // Take the bayonets off again: legal, with the grant still a warning.
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_unit"),
            ("unit", &levies),
            ("u_name", "Levies"),
            ("u_class", "militia"),
            ("u_quality", "poor"),
            ("u_stands", "4"),
            ("u_figures", "14"),
            ("u_auth_close_order", "on"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let text = app.get_html(&format!("/rosters/{id}/export.txt")).await;
    assert!(
        text.contains("Flying Army — One if by Land, American"),
        "{text}"
    );
    assert!(text.contains("Light Corps — Morgan, rating 2"), "{text}");
    assert!(
        text.contains("1st Maryland: Continental infantry, Veteran (Morale Number 8), 6 stands × 3 figures, 18 figures"),
        "{text}"
    );
    assert!(text.contains("2 units, 32 figures"), "18 + 14: {text}");
    assert!(text.contains("legal"), "{text}");
    assert!(
        text.contains("Warning:"),
        "the scenario grant is named: {text}"
    );
    let list = app.get_html("/rosters").await;
    assert!(list.contains("Flying Army") && list.contains("American"));
}

#[tokio::test]
async fn oibl_start_from_an_example_and_round_trip_the_document() {
    let app = spawn_app().await;
    app.register("greene@example.org", "Greene", PASSWORD).await;
    let start = app.get_html("/rosters/new?system=oibl").await;
    assert!(start.contains("Example: a Continental brigade"), "{start}");
    assert!(start.contains("Example: a British brigade"));
    let index = start
        .split("<option value=\"")
        .find(|o| o.contains("Example: a Continental brigade"))
        .and_then(|o| o.split('"').next())
        .expect("the American example's index")
        .to_string();
    let res = app
        .post_form(
            "/rosters/new?system=oibl",
            "/rosters/new/example",
            &[("system", "oibl"), ("example", &index)],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example = id_from(&res);
    let page = app.get_html(&format!("/rosters/{example}")).await;
    assert!(page.contains("1st Continental Regiment") && page.contains("Rifle Company"));
    assert!(page.contains("Legal"), "the example is legal");
    assert!(
        page.contains("5 units") && page.contains("62 figures"),
        "18 + 18 + 16 + 8 and 2 crew"
    );

    // JSON export → import → export changes nothing; the import goes to the document's system.
    let first = app
        .get_html(&format!("/rosters/{example}/export.json"))
        .await;
    assert!(first.contains("\"format\": \"muster.oibl.roster/1\""));
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &first)],
        )
        .await;
    assert_eq!(res.status(), 303, "import");
    let again = id_from(&res);
    let second = app.get_html(&format!("/rosters/{again}/export.json")).await;
    let (a, b): (Value, Value) = (
        serde_json::from_str(&first).unwrap(),
        serde_json::from_str(&second).unwrap(),
    );
    assert_eq!(
        a["brigades"], b["brigades"],
        "the units come back unchanged"
    );

    // Broken JSON is refused with its place; a field the format lacks is named by its path.
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                "{\"format\": \"muster.oibl.roster/1\",\n \"nation\": }",
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
                r#"{"format": "muster.oibl.roster/1", "nation": "british", "brigades": [{"name": "A", "units": [{"class": "british_line", "stands": 6, "quality": "regular", "pikes": true}]}]}"#,
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("brigades[0].units[0].pikes"), "{html}");
}

/// A document with one of every kind of mistake the check knows about.
fn every_finding() -> Value {
    json!({"format": "oibl.roster/1", "name": "Everything wrong", "nation": "american",
    "brigades": [
      {"name": "Bad", "commander": {"name": "Nobody", "rating": 5}, "units": [
        {"name": "Guards", "class": "continental", "stands": 6, "quality": "guard"},
        {"name": "Pikemen", "class": "pikemen", "stands": 4, "quality": "regular"},
        {"name": "Armed militia", "class": "militia", "stands": 4, "quality": "poor", "bayonets": true},
        {"name": "Riflemen in line", "class": "militia_rifle", "stands": 4, "quality": "regular",
         "formations": ["close_order"], "marksmen": true},
        {"name": "Big", "class": "continental", "stands": 2, "quality": "regular", "figures": 9},
        {"name": "Gun", "class": "artillery", "stands": 1, "quality": "regular"}
      ]},
      {"name": "Empty", "units": []}
    ]})
}

#[tokio::test]
async fn oibl_api_catalogue_and_validation() {
    let app = spawn_app().await;
    let catalogue: Value = app.get("/api/v1/oibl/catalog").await.json().await.unwrap();
    let rows = catalogue["combat_table"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10, "2–3 up to 28–30");
    assert_eq!(rows[0]["cells"][7], 1, "2–3 figures first hit at 7");
    assert_eq!(
        rows[9]["cells"][0], 2,
        "the cliff: 30 figures at 0 remove 2 (B-2)"
    );
    assert_eq!(rows[9]["cells"][12], 6);
    assert_eq!(catalogue["meta"]["system"], "oibl");

    let res = app
        .client
        .post(app.url("/api/v1/oibl/validate"))
        .json(&every_finding())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(report["legal"], false);
    let codes: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    for code in [
        "quality_unknown",
        "class_unknown",
        "bayonets_not_allowed",
        "formation_not_allowed",
        "marksmen",
        "figures_exceed_stands",
        "gun_class_missing",
        "commander_rating_out_of_range",
        "brigade_without_units",
        "missing_brigade_commander",
    ] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    let guards = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "quality_unknown")
        .unwrap();
    assert_eq!(guards["path"], "brigades[0].units[0].quality");
    assert_eq!(guards["severity"], "error");

    // An array gives an array of reports; broken JSON its line; a non-roster its path.
    let res = app
        .client
        .post(app.url("/api/v1/oibl/validate"))
        .json(&json!([
            {"format": "muster.oibl.roster/1", "nation": "french", "brigades": []},
            {"format": "muster.oibl.roster/1", "nation": "german", "brigades": []}
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let reports: Value = res.json().await.unwrap();
    assert_eq!(reports.as_array().map(Vec::len), Some(2));
    let res = app
        .client
        .post(app.url("/api/v1/oibl/validate"))
        .header("content-type", "application/json")
        .body("{\"format\": \"muster.oibl.roster/1\",\n \"brigades\": [}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("line 2"));
    let res = app
        .client
        .post(app.url("/api/v1/oibl/validate"))
        .json(&json!({"format": "muster.lod.roster/1", "army_list": "british"}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        422,
        "another system's document is not an order of battle"
    );

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/v1/oibl/validate"]["post"].is_object());
    assert!(doc["paths"]["/api/v1/oibl/catalog"]["get"].is_object());
}

#[tokio::test]
async fn oibl_orders_of_battle_are_offered_for_battles_but_one_without_units_cannot_fight() {
    let app = spawn_app().await;
    app.register("clinton@example.org", "Clinton", PASSWORD)
        .await;
    let ours = new_order_of_battle(&app, "Ours", "british").await;
    let theirs = new_order_of_battle(&app, "Theirs", "american").await;
    let page = app.get_html("/battles?system=oibl").await;
    assert!(
        page.contains(&format!("value=\"r:{ours}\"")),
        "the set-up form offers the orders of battle: {page}"
    );
    let token = app.api_token("clinton@example.org", PASSWORD).await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(
            &json!({"first": format!("r:{ours}"), "second": format!("r:{theirs}"),
                       "second_player": "Guest Gus"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        422,
        "no battle is set up that could not be fought"
    );
    let body: Value = res.json().await.unwrap();
    assert!(
        body.to_string().contains("has no unit that can fight"),
        "{body}"
    );
}
