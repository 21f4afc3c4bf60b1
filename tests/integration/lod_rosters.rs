//! Liberty or Death! rosters against the real server: creating an army from the form, from a
//! list's entries and from an example army, the editor's posts, the roster page, text and JSON
//! export and import, the API's catalogue and validation, and the command line.

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, TempDir, Visitor, PASSWORD};

pub(crate) fn id_from(res: &reqwest::Response) -> i64 {
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

/// Brigade (`"b-"`) or unit (`"u-"`) ids in page order, from the editor or the roster page.
pub(crate) fn ids(html: &str, prefix: &str) -> Vec<String> {
    let marker = match prefix {
        "b-" => "group-panel\" id=\"b-",
        _ => "<tr id=\"u-",
    };
    let sheet_marker = "group-sheet\" id=\"b-";
    let mut found: Vec<String> = Vec::new();
    for m in [marker, sheet_marker] {
        for (i, hit) in html.match_indices(m) {
            if m == sheet_marker && prefix != "b-" {
                continue;
            }
            let rest = &html[i + hit.len()..];
            found.push(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    found
}

pub(crate) async fn new_army(v: &Visitor, name: &str, list: &str) -> i64 {
    let res = v
        .post_form(
            "/rosters",
            "/rosters",
            &[("name", name), ("system", "lod"), ("army_list", list)],
        )
        .await;
    assert_eq!(res.status(), 303, "create an army");
    id_from(&res)
}

#[tokio::test]
async fn build_an_army_in_the_editor_and_see_it_judged() {
    let app = spawn_app().await;
    app.register("greene@example.org", "Greene", PASSWORD).await;

    // The form names the army list; a missing list is asked for, not guessed.
    let res = app
        .post_form(
            "/rosters",
            "/rosters",
            &[("name", "No list"), ("system", "lod")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Choose an army list."));

    let start = app
        .get_html("/rosters/new?system=lod&army_list=british")
        .await;
    assert!(
        start.contains(">1 base<") && !start.contains("1 bases"),
        "a one-base battery says so in the singular: {start}"
    );
    let id = new_army(&app, "Crown forces", "british").await;
    let view = app.get_html(&format!("/rosters/{id}")).await;
    assert!(
        view.contains(r#"href="/lod/reference">Quick reference"#),
        "the roster links to its own system's quick reference"
    );
    assert!(
        view.contains("Not named yet: C-in-C") && view.contains("so it stays legal"),
        "M-103: a new army's page says which posts still want a name"
    );
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(page.contains("British army") && page.contains("C-in-C"));
    assert!(page.contains("1st Brigade"), "a new army has one brigade");
    assert!(
        page.contains("Jagers") && page.contains("Hessian ally"),
        "allied entries are offered and marked (L-49)"
    );
    assert!(
        !page.contains("Continental Regiment"),
        "another list's entries are not offered"
    );
    let list = app.get_html("/rosters").await;
    assert!(
        list.contains("British army"),
        "the army list stands as the nation"
    );
    assert!(!list.contains("0 / —"), "no points for a game without them");
    assert!(
        list.contains("name=\"army_list\"") && list.contains("name=\"points_limit\""),
        "without JavaScript the form shows every system's own fields"
    );
    let delete = app.get_html(&format!("/rosters/{id}/delete")).await;
    assert!(delete.contains("Crown forces") && !delete.contains("points"));

    // Name the C-in-C, the first General; add a second brigade.
    let res = edit(
        &app,
        id,
        &[
            ("action", "settings"),
            ("name", "Crown forces"),
            ("army_list", "british"),
            ("c_in_c", "Sir Henry Clinton"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    let brigade = ids(&page, "b-")[0].clone();
    edit(
        &app,
        id,
        &[
            ("action", "rename_brigade"),
            ("brigade", &brigade),
            ("brigade_name", "Guards Brigade"),
            ("general", "Edward Mathew"),
        ],
    )
    .await;
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_brigade"),
            ("general", "Von Knyphausen"),
            ("brigade_name", "Hessian Brigade"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);

    // Units: a size the entry does not offer is refused by the form, with what it offers.
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_entry", "light_infantry"),
            ("u_bases", "3"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Light Infantry comes with 4 or 5 bases."));
    for (entry, bases, grenadiers) in [
        ("guard_infantry", "5", "detached"),
        ("grenadier_infantry", "4", ""),
        ("regular_infantry_regiment", "4", ""),
    ] {
        let res = edit(
            &app,
            id,
            &[
                ("action", "add_unit"),
                ("brigade", &brigade),
                ("u_entry", entry),
                ("u_bases", bases),
                ("u_grenadiers", grenadiers),
            ],
        )
        .await;
        assert_eq!(res.status(), 303, "{entry}");
    }
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        page.contains("Guard Infantry, 4 bases (8/16/24)"),
        "Grenadiers Detached fields one base fewer (L-50)"
    );
    assert!(page.contains("Elite Infantry") && page.contains("STUBBORN"));
    assert!(
        page.contains("Hessian Brigade has no units."),
        "the empty new brigade is an illegal draft that saved"
    );

    // Grenadiers Detached on an entry without it is refused by the form.
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_entry", "grenadier_infantry"),
            ("u_bases", "4"),
            ("u_grenadiers", "detached"),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);

    // Change a unit's bases; then a combination the rules refuse saves with its finding.
    let units = ids(&page, "u-");
    assert_eq!(units.len(), 3, "{units:?}");
    let regiment = units[2].clone();
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_unit"),
            ("unit", &regiment),
            ("u_name", "23rd Foot"),
            ("u_entry", "regular_infantry_regiment"),
            ("u_bases", "5"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        page.contains("23rd Foot")
            && page.contains("Regular Infantry Regiment, 5 bases (10/20/30)")
    );
    let res = edit(
        &app,
        id,
        &[
            ("action", "update_unit"),
            ("unit", &regiment),
            ("u_name", "23rd Foot"),
            ("u_entry", "regular_infantry_regiment"),
            ("u_bases", "3"),
            ("u_grenadiers", "detached"),
        ],
    )
    .await;
    assert_eq!(res.status(), 303, "an illegal draft still saves");
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(page.contains("would leave 2 bases"), "{page}");

    // An allied unit, moved into the empty brigade.
    let hessian = ids(&page, "b-")[1].clone();
    edit(
        &app,
        id,
        &[
            ("action", "add_unit"),
            ("brigade", &brigade),
            ("u_entry", "hessian.jagers"),
            ("u_bases", "4"),
        ],
    )
    .await;
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    let jagers = ids(&page, "u-")
        .into_iter()
        .find(|u| !units.contains(u))
        .unwrap();
    let res = edit(
        &app,
        id,
        &[
            ("action", "move_unit"),
            ("unit", &jagers),
            ("to_brigade", &hessian),
        ],
    )
    .await;
    assert_eq!(res.status(), 303);

    // The roster page: units with W/S/AB, findings beside them, the derived figures.
    let sheet = app.get_html(&format!("/rosters/{id}")).await;
    assert!(sheet.contains("W/S/AB"));
    assert!(sheet.contains("Sir Henry Clinton") && sheet.contains("General Edward Mathew"));
    assert!(sheet.contains("Jagers, 4 bases (4/8/12)") && sheet.contains("Hessian ally"));
    assert!(
        sheet.contains("comes from the Hessian list"),
        "allied_list_entry (L-49)"
    );
    assert!(sheet.contains("4 units") && sheet.contains("break point</strong> 2"));
    assert!(sheet.contains("Command Points</strong> 2 + D3"));
    assert!(sheet.contains("would leave 2 bases") && sheet.contains("Illegal"));
    assert!(!sheet.contains(" pts"), "no points anywhere");

    // Remove the illegal detachment's regiment; the army is legal with warnings.
    edit(&app, id, &[("action", "remove_unit"), ("unit", &regiment)]).await;
    let text = app.get_html(&format!("/rosters/{id}/export.txt")).await;
    assert!(text.contains("Legal under Liberty or Death!"), "{text}");
    assert!(text.contains("C-in-C: Sir Henry Clinton"));
    assert!(text.contains("Guards Brigade — General Edward Mathew"));
    assert!(
        text.contains("Guard Infantry, 4 bases (8/16/24)") && text.contains("Grenadiers Detached")
    );
    assert!(
        text.contains("3 units in 2 brigades · break point 2 units broken · Command Points 2 + D3")
    );
    assert!(text.contains("(brigade_size_advice)") && text.contains("(allied_list_entry)"));
}

#[tokio::test]
async fn start_from_a_list_or_an_example_and_round_trip_the_document() {
    let app = spawn_app().await;
    app.register("howe@example.org", "Howe", PASSWORD).await;

    let page = app
        .get_html("/rosters/new?system=lod&army_list=continental")
        .await;
    assert!(page.contains("Continental Regiment") && page.contains("count_riflemen"));
    assert!(page.contains("Example: a British field force"));
    let res = app
        .post_form(
            "/rosters/new?system=lod",
            "/rosters/new/list",
            &[
                ("system", "lod"),
                ("army_list", "continental"),
                ("count_continental_regiment", "5"),
                ("bases_continental_regiment", "4"),
                ("count_riflemen", "2"),
                ("bases_riflemen", "3"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let id = id_from(&res);
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert_eq!(
        ids(&page, "b-").len(),
        2,
        "seven units make brigades of six and one"
    );
    assert!(page.contains("Continental Regiment, 4 bases (8/16/24)"));
    assert!(page.contains("Riflemen, 3 bases (3/6/9)"));

    // Impossible counts and sizes are refused in words, not quietly replaced.
    let res = app
        .post_form(
            "/rosters/new?system=lod",
            "/rosters/new/list",
            &[
                ("system", "lod"),
                ("army_list", "continental"),
                ("count_continental_regiment", "99"),
                ("count_riflemen", "1"),
                ("bases_riflemen", "5"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("Give a whole number from 0 to 12 for Continental Regiment.")
            && page.contains("Riflemen comes with 3 or 4 bases."),
        "{page}"
    );

    let res = app
        .post_form(
            "/rosters/new?system=lod",
            "/rosters/new/example",
            &[("system", "lod"), ("example", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let example = id_from(&res);
    let sheet = app.get_html(&format!("/rosters/{example}")).await;
    assert!(sheet.contains("Example: a British field force") && sheet.contains("Legal"));

    // JSON export → import → export changes nothing; the import goes to the document's system.
    let first = app
        .get_html(&format!("/rosters/{example}/export.json"))
        .await;
    assert!(first.contains("\"format\": \"muster.lod.roster/1\""));
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

    // Broken JSON names its line and column; the wrong shape names its path.
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                "{\"format\": \"muster.lod.roster/1\",\n \"army_list\": }",
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("line 2"), "{html}");
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[(
                "document",
                r#"{"format": "muster.lod.roster/1", "army_list": "british", "brigades": [{"general": {"name": "A"}, "units": [{"entry": "guard_infantry", "bases": 4, "size": "large"}]}]}"#,
            )],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("brigades[0].units[0].size"), "{html}");

    // The roster API: document and report.
    let token = app.api_user("howe-api@example.org").await;
    let api = reqwest::Client::new();
    let doc: Value = serde_json::from_str(&first).unwrap();
    let res = api
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .json(&doc)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["document"]["army_list"], "british");
    assert_eq!(created["report"]["legal"], true);
    assert_eq!(created["report"]["break_point"], 4);
}

/// A document that breaks every rule the check knows, and what the API says about it.
fn every_finding() -> Value {
    json!({"format": "lod.roster/1", "name": "Everything wrong", "army_list": "british",
    "c_in_c": {"id": "x", "name": "Clinton"},
    "brigades": [
        {"id": "x", "name": "Odd brigade", "general": {"name": "A"}, "units": [
            {"entry": "musket_men", "bases": 4},
            {"entry": "continental_regiment", "bases": 4},
            {"entry": "jagers", "bases": 4},
            {"entry": "grenadier_infantry", "bases": 2},
            {"entry": "grenadier_infantry", "bases": 4, "grenadiers_detached": true},
            {"entry": "regular_infantry_regiment", "bases": 3, "grenadiers_detached": true},
            {"entry": "light_infantry", "bases": 4}
        ]},
        {"name": "No General", "units": [{"entry": "light_infantry", "bases": 4}]},
        {"name": "Empty", "general": {"name": "B"}, "units": []}
    ]})
}

#[tokio::test]
async fn the_api_serves_the_catalogue_and_every_finding() {
    let app = spawn_app().await;
    let catalogue: Value = app.get("/api/v1/lod/catalog").await.json().await.unwrap();
    let lists = catalogue["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 3);
    assert_eq!(lists[1]["allies"], json!(["hessian"]));
    assert!(catalogue["kinds"][0]["sizes"].as_array().unwrap().len() == 3);

    let res = reqwest::Client::new()
        .post(app.url("/api/v1/lod/validate"))
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
        ("unknown_entry", "error", "brigades[0].units[0].entry"),
        ("entry_not_in_list", "error", "brigades[0].units[1].entry"),
        ("allied_list_entry", "warning", "brigades[0].units[2].entry"),
        ("size_not_allowed", "error", "brigades[0].units[3].bases"),
        (
            "grenadiers_detached_not_allowed",
            "error",
            "brigades[0].units[4].grenadiers_detached",
        ),
        (
            "grenadiers_detached_too_small",
            "error",
            "brigades[0].units[5].grenadiers_detached",
        ),
        ("brigade_size_advice", "warning", "brigades[0].units"),
        ("brigade_without_general", "error", "brigades[1].general"),
        ("brigade_size_advice", "warning", "brigades[1].units"),
        ("empty_brigade", "error", "brigades[2].units"),
        ("duplicate_id", "warning", "brigades[0]"),
    ];
    for (code, severity, path) in want {
        assert!(
            found
                .iter()
                .any(|f| (f.0.as_str(), f.1.as_str(), f.2.as_str()) == (code, severity, path)),
            "{code} at {path}: {found:?}"
        );
    }
    assert_eq!(found.len(), want.len(), "{found:?}");
    assert_eq!(report["units"], 8);
    assert_eq!(report["break_point"], 4);
    assert_eq!(report["command_points_before_d3"], 3);

    // The two findings no roster can hold at once with the rest.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/lod/validate"))
        .json(&json!([
            {"format": "muster.lod.roster/1", "army_list": "french", "brigades": []},
            {"format": "muster.lod.roster/1", "army_list": "hessian", "brigades": []}
        ]))
        .send()
        .await
        .unwrap();
    let reports: Value = res.json().await.unwrap();
    let codes = |r: &Value| -> Vec<String> {
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(codes(&reports[0]), ["unknown_army_list", "no_brigades"]);
    assert_eq!(codes(&reports[1]), ["no_brigades"]);

    // Broken JSON → 400 with line and column; the wrong shape → 422 with the path.
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/lod/validate"))
        .body("{\n\"format\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("line 2"));
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/lod/validate"))
        .json(
            &json!({"format": "muster.lod.roster/1", "army_list": "british",
            "brigades": [{"general": {"name": "A", "rating": 3}, "units": []}]}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let error: Value = res.json().await.unwrap();
    assert_eq!(
        error["error"]["details"][0]["field"], "brigades[0].general.rating",
        "{error}"
    );

    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["paths"]["/api/v1/lod/validate"]["post"].is_object());
    assert!(doc["paths"]["/api/v1/lod/catalog"]["get"].is_object());
}

#[test]
fn the_command_line_validates_armies_and_prints_the_catalogue() {
    const BIN: &str = env!("CARGO_BIN_EXE_muster");
    let dir = TempDir::new("lod-cli");
    let bad = dir.0.join("bad.json");
    std::fs::write(&bad, every_finding().to_string()).unwrap();
    let good = dir.0.join("good.json");
    std::fs::write(
        &good,
        include_str!("../../src/rules/systems/lod/data/examples/hessian.json"),
    )
    .unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(BIN)
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
    };
    let out = run(&["validate", good.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (line["system"].as_str(), line["legal"].as_bool()),
        (Some("lod"), Some(true))
    );

    // The neutral tag names no system: --system reads it as Liberty or Death!.
    let out = run(&["validate", "--system", "lod", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["findings"].as_array().unwrap().len(), 11);
    assert!(String::from_utf8_lossy(&out.stderr).contains("ILLEGAL, 8 units in 3 brigades"));

    let out = run(&["catalog", "--system", "lod"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Hessian army list")
            && text.contains("Jagers")
            && text.contains("3 = 6/12/18")
    );
    let out = run(&["catalog", "--system", "lod", "--json"]);
    let catalogue: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(catalogue["lists"].as_array().unwrap().len(), 3);
}
