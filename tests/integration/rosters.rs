//! The roster builder: pages and API, versions, sharing, import and export, authorisation.

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, Visitor, PASSWORD};

/// Creates an empty roster through the page and returns its id.
async fn new_roster(v: &Visitor, name: &str, limit: &str) -> i64 {
    let res = v
        .post_form(
            "/rosters",
            "/rosters",
            &[
                ("name", name),
                ("war", "american_revolution"),
                ("nation", "american"),
                ("points_limit", limit),
                ("mode", "standard"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "create roster");
    let loc = location(&res);
    loc.trim_start_matches("/rosters/")
        .trim_end_matches("/edit")
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
    let version = version_of(&page);
    let token = csrf_from(&page);
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

/// Group ids in page order.
fn group_ids(html: &str) -> Vec<String> {
    html.match_indices("<section class=\"panel group-panel\" id=\"g-")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

fn total(html: &str) -> u32 {
    let marker = "id=\"total-points\">";
    let start = html.find(marker).unwrap() + marker.len();
    html[start..start + html[start..].find('<').unwrap()]
        .parse()
        .unwrap()
}

async fn add_element(v: &Visitor, id: i64, group: &str, name: &str, size: &str, upgrade: &str) {
    let res = edit(
        v,
        id,
        &[
            ("action", "add_element"),
            ("group", group),
            ("el_name", name),
            ("el_type", "infantry"),
            ("el_size", size),
            ("el_weapon", ""),
            ("el_upgrade", upgrade),
        ],
    )
    .await;
    assert_eq!(res.status(), 303, "add {name}");
}

/// Two groups of four medium infantry (8 × 25 = 200 points) with named commanders.
async fn build_two_groups(v: &Visitor, id: i64) -> Vec<String> {
    edit(v, id, &[("action", "add_group"), ("commander", "Sullivan")]).await;
    edit(v, id, &[("action", "add_group"), ("commander", "Greene")]).await;
    let groups = group_ids(&v.get_html(&format!("/rosters/{id}/edit")).await);
    for (gi, g) in groups.iter().enumerate() {
        for n in 0..4 {
            add_element(
                v,
                id,
                g,
                &format!("Regiment {}{}", gi + 1, n + 1),
                "medium",
                "",
            )
            .await;
        }
    }
    groups
}

#[tokio::test]
async fn build_a_roster_and_watch_points_and_findings() {
    let app = spawn_app().await;
    app.register("builder@example.org", "Builder", PASSWORD)
        .await;
    let id = new_roster(&app, "Continentals", "250").await;
    let editor = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        editor.contains("The force has no groups") || editor.contains("at least 2"),
        "an empty roster says what it lacks"
    );

    let groups = build_two_groups(&app, id).await;
    assert_eq!(groups.len(), 2);
    let editor = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert_eq!(total(&editor), 200);
    assert!(
        editor.contains("badge-good\">Legal"),
        "2 groups of 4 medium infantry at 250 points is legal"
    );
    // M-103: the Force Commander was never named; the roster stays legal and its page says
    // which post still wants a name.
    let page = app.get_html(&format!("/rosters/{id}")).await;
    assert!(
        page.contains("Not named yet: Force Commander.")
            && page.contains("so the roster stays legal"),
        "{page}"
    );

    // Elite on three elements breaks the cap of 2 for 8 elements (R-6).
    add_element(&app, id, &groups[0], "Elite A", "medium", "elite").await;
    add_element(&app, id, &groups[1], "Elite B", "medium", "elite").await;
    add_element(&app, id, &groups[1], "Elite C", "medium", "elite").await;
    let editor = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        editor.contains("3 elements have Elite; a force of 11 elements allows 2"),
        "{editor}"
    );
    assert!(editor.contains("Illegal"));

    // The list shows the draft as illegal; it was saved anyway.
    let list = app.get_html("/rosters").await;
    assert!(list.contains("Continentals") && list.contains("badge-bad\">Illegal"));
}

#[tokio::test]
async fn an_element_the_catalogue_does_not_allow_is_refused_and_the_form_keeps_what_was_typed() {
    let app = spawn_app().await;
    app.register("typo@example.org", "Typo", PASSWORD).await;
    let id = new_roster(&app, "Test", "150").await;
    edit(&app, id, &[("action", "add_group"), ("commander", "Knox")]).await;
    let g = group_ids(&app.get_html(&format!("/rosters/{id}/edit")).await).remove(0);
    let res = edit(
        &app,
        id,
        &[
            ("action", "add_element"),
            ("group", &g),
            ("el_name", "Knox's guns"),
            ("el_type", "artillery"),
            ("el_size", "tiny"),
            ("el_weapon", ""),
            ("el_upgrade", ""),
        ],
    )
    .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("R-2"), "{html}");
    assert!(
        html.contains("value=\"Knox&#39;s guns\"") || html.contains("value=\"Knox&#x27;s guns\""),
        "typed name kept"
    );
    assert_eq!(
        total(&app.get_html(&format!("/rosters/{id}/edit")).await),
        0,
        "nothing was added"
    );
}

#[tokio::test]
async fn a_second_edit_based_on_an_old_version_is_refused_and_nothing_is_lost() {
    let app = spawn_app().await;
    app.register("twotabs@example.org", "Two Tabs", PASSWORD)
        .await;
    let id = new_roster(&app, "Tabs", "150").await;
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    let (version, token) = (version_of(&page), csrf_from(&page));

    let post = |fields: Vec<(&'static str, String)>| {
        let mut all = fields;
        all.push(("version", version.clone()));
        all.push(("csrf_token", token.clone()));
        app.client
            .post(app.url(&format!("/rosters/{id}/edit")))
            .form(&all)
            .send()
    };
    let first = post(vec![
        ("action", "add_group".into()),
        ("commander", "First Tab".into()),
    ])
    .await
    .unwrap();
    assert_eq!(first.status(), 303);
    let second = post(vec![
        ("action", "add_group".into()),
        ("commander", "Second Tab".into()),
    ])
    .await
    .unwrap();
    assert_eq!(second.status(), 409);
    let html = second.text().await.unwrap();
    assert!(html.contains("changed somewhere else"));
    assert!(html.contains("First Tab"), "the current version is shown");
    assert!(
        html.contains("Second Tab"),
        "the refused change is shown too"
    );
    assert!(html.contains("Apply my change to version 2"));

    let editor = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        editor.contains("First Tab") && !editor.contains("Second Tab"),
        "the first edit stands, the second was not applied"
    );

    // The API refuses a stale PUT the same way.
    let token = app.api_token("twotabs@example.org", PASSWORD).await;
    let api = reqwest::Client::new();
    let current: Value = api
        .get(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut doc = current["document"].clone();
    doc["name"] = json!("Renamed");
    let ok = api
        .put(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&token)
        .json(&json!({"version": current["version"], "document": doc}))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.headers()["etag"], "\"3\"");
    let stale = api
        .put(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&token)
        .header("if-match", "\"2\"")
        .json(&json!({"document": current["document"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), 409);
    let body: Value = stale.json().await.unwrap();
    assert_eq!(body["error"]["code"], "conflict");
    let now: Value = api
        .get(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(now["name"], "Renamed");
    assert_eq!(now["version"], 3);
}

#[tokio::test]
async fn sharing_shows_the_roster_to_anyone_until_revoked() {
    let app = spawn_app().await;
    app.register("sharer@example.org", "Sharer", PASSWORD).await;
    let id = new_roster(&app, "Shared force", "150").await;
    let res = app
        .post_form(
            &format!("/rosters/{id}"),
            &format!("/rosters/{id}/share"),
            &[],
        )
        .await;
    assert_eq!(location(&res), format!("/rosters/{id}?done=shared"));
    let page = app.get_html(&format!("/rosters/{id}?done=shared")).await;
    let start = page.find("/shared/").expect("share link shown");
    let path = &page[start..start + page[start..].find('"').unwrap()];

    let stranger = app.other_visitor();
    let res = stranger.get(path).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("Shared force") && html.contains("read-only"));
    assert!(!html.contains("/edit\""), "no edit link for visitors");

    app.post_form(
        &format!("/rosters/{id}"),
        &format!("/rosters/{id}/unshare"),
        &[],
    )
    .await;
    assert_eq!(stranger.get(path).await.status(), 404);
}

#[tokio::test]
async fn every_roster_route_is_for_its_owner_only() {
    let app = spawn_app().await;
    app.register("owner@example.org", "Owner", PASSWORD).await;
    let id = new_roster(&app, "Private", "150").await;
    let other = app.other_visitor();
    other.register("other@example.org", "Other", PASSWORD).await;
    let visitor = app.other_visitor();

    let pages = ["", "/edit", "/delete", "/export.json", "/export.txt"];
    for suffix in pages {
        let path = format!("/rosters/{id}{suffix}");
        assert_eq!(app.get(&path).await.status(), 200, "owner GET {path}");
        assert_eq!(
            other.get(&path).await.status(),
            404,
            "other user GET {path}"
        );
        let res = visitor.get(&path).await;
        assert_eq!(res.status(), 303, "visitor GET {path}");
        assert!(location(&res).starts_with("/login"));
    }
    for action in ["duplicate", "share", "unshare", "delete", "edit"] {
        let path = format!("/rosters/{id}/{action}");
        let token = csrf_from(&other.get_html("/rosters").await);
        let res = other
            .client
            .post(other.url(&path))
            .form(&[
                ("csrf_token", token.as_str()),
                ("version", "1"),
                ("action", "add_group"),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "other user POST {path}");
        let token = csrf_from(&visitor.get_html("/login").await);
        let res = visitor
            .client
            .post(visitor.url(&path))
            .form(&[("csrf_token", token.as_str())])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 303, "visitor POST {path}");
    }
    assert!(
        !other.get_html("/rosters").await.contains("Private"),
        "not in another user's list"
    );

    let owner_token = app.api_token("owner@example.org", PASSWORD).await;
    let other_token = app.api_token("other@example.org", PASSWORD).await;
    let api = reqwest::Client::new();
    for (method, path) in [
        ("GET", format!("/api/v1/rosters/{id}")),
        ("PUT", format!("/api/v1/rosters/{id}")),
        ("DELETE", format!("/api/v1/rosters/{id}")),
        ("POST", format!("/api/v1/rosters/{id}/duplicate")),
        ("GET", format!("/api/v1/rosters/{id}/export")),
    ] {
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let res = api
            .request(m.clone(), app.url(&path))
            .bearer_auth(&other_token)
            .json(&json!({"version": 1, "document": {}}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "other user {method} {path}");
        let res = api.request(m, app.url(&path)).send().await.unwrap();
        assert_eq!(res.status(), 401, "visitor {method} {path}");
    }
    let list: Value = api
        .get(app.url("/api/v1/rosters"))
        .bearer_auth(&other_token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list.as_array().unwrap().len(), 0);
    let res = api
        .get(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&owner_token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "the owner still has it");
}

#[tokio::test]
async fn duplicate_and_delete_with_confirmation() {
    let app = spawn_app().await;
    app.register("dup@example.org", "Dup", PASSWORD).await;
    let id = new_roster(&app, "Original", "150").await;
    let res = app
        .post_form("/rosters", &format!("/rosters/{id}/duplicate"), &[])
        .await;
    let copy: i64 = location(&res)
        .trim_start_matches("/rosters/")
        .trim_end_matches("/edit")
        .parse()
        .unwrap();
    assert!(app
        .get_html(&format!("/rosters/{copy}/edit"))
        .await
        .contains("Original (copy)"));

    let confirm = app.get_html(&format!("/rosters/{id}/delete")).await;
    assert!(confirm.contains("Delete “Original”?"));
    let res = app
        .post_form(
            &format!("/rosters/{id}/delete"),
            &format!("/rosters/{id}/delete"),
            &[],
        )
        .await;
    assert_eq!(location(&res), "/rosters?done=deleted");
    assert_eq!(app.get(&format!("/rosters/{id}")).await.status(), 404);
    assert_eq!(
        app.get(&format!("/rosters/{copy}")).await.status(),
        200,
        "the copy is untouched"
    );
}

async fn import_text(v: &Visitor, text: &str) -> reqwest::Response {
    v.post_form("/rosters/import", "/rosters/import", &[("document", text)])
        .await
}

#[tokio::test]
async fn every_historical_order_of_battle_survives_import_export_import_unchanged() {
    let app = spawn_app().await;
    app.register("historian@example.org", "Historian", PASSWORD)
        .await;
    let battles: Value = app
        .get("/api/v1/lotf/historical")
        .await
        .json()
        .await
        .unwrap();
    let mut forces = 0;
    for battle in battles.as_array().unwrap() {
        let id = battle["id"].as_str().unwrap();
        let full: Value = app
            .get(&format!("/api/v1/lotf/historical/{id}"))
            .await
            .json()
            .await
            .unwrap();
        for side in full["sides"].as_array().unwrap() {
            for force in side["forces"].as_array().unwrap() {
                let res = import_text(&app, &force.to_string()).await;
                assert_eq!(res.status(), 303, "{id}: {}", force["name"]);
                let rid: i64 = location(&res)
                    .trim_start_matches("/rosters/")
                    .split('/')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let first = app.get_html(&format!("/rosters/{rid}/export.json")).await;
                let res = import_text(&app, &first).await;
                let rid2: i64 = location(&res)
                    .trim_start_matches("/rosters/")
                    .split('/')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let second = app.get_html(&format!("/rosters/{rid2}/export.json")).await;
                assert_eq!(
                    first, second,
                    "{id}: export → import → export changes nothing"
                );
                forces += 1;
            }
        }
    }
    assert!(forces >= 40, "every force of every refight ({forces})");
}

#[tokio::test]
async fn a_broken_import_reports_where_and_changes_nothing() {
    let app = spawn_app().await;
    app.register("broken@example.org", "Broken", PASSWORD).await;
    let res = import_text(
        &app,
        "{\"format\": \"muster.lotf.roster/1\",\n \"name\": \"X\", \"war\": \"napoleonic\"}",
    )
    .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("could not be read") && html.contains("line 2"),
        "{html}"
    );
    assert!(
        html.contains("napoleonic"),
        "the pasted text stays in the box"
    );
    assert!(
        app.get_html("/rosters").await.contains("No rosters"),
        "nothing was created"
    );
}

#[tokio::test]
async fn the_plain_text_export_lists_groups_points_and_legality() {
    let app = spawn_app().await;
    app.register("text@example.org", "Text", PASSWORD).await;
    let id = new_roster(&app, "Text force", "250").await;
    build_two_groups(&app, id).await;
    let text = app.get_html(&format!("/rosters/{id}/export.txt")).await;
    assert!(text.starts_with("Text force\n"));
    assert!(text.contains("Group 1 — Sullivan (100 pts)"), "{text}");
    assert!(
        text.contains("Regiment 11: medium infantry, Smoothbore musket — 25 pts"),
        "{text}"
    );
    assert!(
        text.contains("Total: 200 points / 250") && text.contains("Legal under Land of the Free"),
        "{text}"
    );
}

#[tokio::test]
async fn start_from_the_books_lists_and_orders_of_battle() {
    let app = spawn_app().await;
    app.register("book@example.org", "Book", PASSWORD).await;
    let page = app
        .get_html("/rosters/new?war=american_revolution&nation=british")
        .await;
    let marker = "name=\"count_";
    let start = page.find(marker).expect("entries listed") + marker.len();
    let key = &page[start..start + page[start..].find('"').unwrap()];
    let count_field = format!("count_{key}");
    let res = app
        .post_form(
            "/rosters/new",
            "/rosters/new/book",
            &[
                ("war", "american_revolution"),
                ("nation", "british"),
                (&count_field, "5"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let editor = app
        .get_html(&location(&res).replace("?done=created", ""))
        .await;
    assert_eq!(
        group_ids(&editor).len(),
        2,
        "five elements make groups of four and one"
    );

    let res = app
        .post_form(
            "/rosters/new",
            "/rosters/new/refight",
            &[("refight", "cowpens:0:0")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let editor = app.get_html(&location(&res)).await;
    assert!(
        editor.contains("Historical mode"),
        "orders of battle load in historical mode"
    );
}

#[tokio::test]
async fn the_roster_api_creates_lists_exports_and_deletes() {
    let app = spawn_app().await;
    let token = app.api_user("api-rosters@example.org").await;
    let api = reqwest::Client::new();
    let doc = json!({
        "format": "muster.lotf.roster/1", "name": "API force", "war": "war_of_1812", "nation": "british",
        "points_limit": 150, "force_commander": {"name": "Brock"},
        "groups": [{"commander": {"name": "Procter"}, "elements": [
            {"name": "41st Foot", "type": "infantry", "size": "large"},
            {"name": "Rockets", "type": "artillery", "size": "small", "weapon": "rockets"}]}]
    });
    let res = api
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .json(&doc)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["version"], 1);
    assert_eq!(created["rule_system"], "lotf");
    assert_eq!(created["report"]["legal"], false, "one group is too few");
    assert!(
        created["document"]["groups"][0]["elements"][0]["id"].is_string(),
        "ids assigned"
    );

    let list: Value = api
        .get(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list[0]["name"], "API force");

    let exported = api
        .get(app.url(&format!("/api/v1/rosters/{id}/export")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(exported.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .contains("api-force.json"));
    let exported: Value = exported.json().await.unwrap();
    let res = api
        .post(app.url("/api/v1/rosters/import"))
        .bearer_auth(&token)
        .json(&exported)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let imported: Value = res.json().await.unwrap();
    assert_eq!(
        imported["document"], exported,
        "import keeps the document, ids included"
    );

    let text = api
        .get(app.url(&format!("/api/v1/rosters/{id}/export?format=text")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("NOT LEGAL"));

    let res = api
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"format\": \"muster.lotf.roster/1\", \"war\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);

    let res = api
        .post(app.url(&format!("/api/v1/rosters/{id}/duplicate")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = api
        .delete(app.url(&format!("/api/v1/rosters/{id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(
        api.get(app.url(&format!("/api/v1/rosters/{id}")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn a_roster_saved_with_an_older_catalogue_opens_and_says_so() {
    use diesel::prelude::*;
    use muster::store::schema::rosters;

    let app = spawn_app().await;
    app.register("old@example.org", "Old", PASSWORD).await;
    let id = new_roster(&app, "Old force", "150").await;
    {
        // As if saved by an earlier Muster with an earlier catalogue.
        let pool = app.pool();
        let mut conn = pool.get().unwrap();
        let doc: String = rosters::table
            .find(id)
            .select(rosters::document)
            .first(&mut conn)
            .unwrap();
        let current = muster::rules::systems::lotf::Catalogue::builtin()
            .unwrap()
            .version()
            .to_string();
        let old = doc.replace(&current, "lotf-2025.9");
        assert_ne!(doc, old, "the document records its catalogue version");
        diesel::update(rosters::table.find(id))
            .set(rosters::document.eq(old))
            .execute(&mut conn)
            .unwrap();
    }
    let editor = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(
        editor.contains("saved with catalogue lotf-2025.9"),
        "{editor}"
    );
    let view = app.get_html(&format!("/rosters/{id}")).await;
    assert!(view.contains("(saved with lotf-2025.9)"));
    // Saving records the new version.
    edit(&app, id, &[("action", "add_group"), ("commander", "Knox")]).await;
    assert!(!app
        .get_html(&format!("/rosters/{id}/edit"))
        .await
        .contains("lotf-2025.9"));
}

#[tokio::test]
async fn a_roster_too_large_to_be_a_force_is_refused_on_import_and_over_the_api() {
    let app = spawn_app().await;
    app.register("huge@example.org", "Huge", PASSWORD).await;
    let elements: Vec<Value> = (0..25)
        .map(|i| json!({"name": format!("E{i}"), "type": "infantry", "size": "small"}))
        .collect();
    let doc = json!({"format": "muster.lotf.roster/1", "name": "Horde", "war": "american_revolution", "nation": "british",
                     "points_limit": 150, "groups": [{"commander": {"name": "X"}, "elements": elements}]});
    let res = import_text(&app, &doc.to_string()).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("at most 20 elements"));
    let token = app.api_token("huge@example.org", PASSWORD).await;
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(&token)
        .json(&doc)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    assert!(
        app.get_html("/rosters").await.contains("No rosters"),
        "nothing stored"
    );
}

/// The roster list reads summary columns a page at a time (issue 17): 50 to a page with a
/// pager, a search on the name (any case, `%` and `_` taken literally) and three orders.
#[tokio::test]
async fn the_roster_list_pages_searches_and_sorts() {
    let app = spawn_app().await;
    app.register("many@example.org", "Many", PASSWORD).await;
    for k in 1..=52 {
        new_roster(&app, &format!("Company {k:02}"), "150").await;
    }
    new_roster(&app, "Brandywine left wing", "200").await;

    let first = app.get_html("/rosters").await;
    assert!(first.contains("53 rosters, page 1 of 2"), "{first}");
    assert!(first.contains("rel=\"next\" href=\"/rosters?page=2\""));
    assert!(!first.contains("rel=\"prev\""));
    // Most recently changed first: the last one made leads.
    let rows = |html: &str| html.matches("<tr>").count() - 1;
    assert_eq!(rows(&first), 50);
    let second = app.get_html("/rosters?page=2").await;
    assert_eq!(rows(&second), 3);
    assert!(second.contains("rel=\"prev\" href=\"/rosters\""));
    assert!(
        second.contains("Company 01"),
        "the oldest is on the last page"
    );

    let found = app.get_html("/rosters?q=BRANDY").await;
    assert!(found.contains("1 roster<"), "{found}");
    assert!(found.contains("Brandywine left wing") && !found.contains("Company 07"));
    assert!(
        found.contains("value=\"BRANDY\""),
        "the search box keeps the text"
    );

    let literal = app.get_html("/rosters?q=%25").await;
    assert!(
        literal.contains("No rosters that match"),
        "a % is a character, not a wildcard"
    );

    let by_name = app.get_html("/rosters?sort=name").await;
    let at = |html: &str, name: &str| html.find(name).expect(name);
    assert!(at(&by_name, "Brandywine left wing") < at(&by_name, "Company 01"));
    assert!(by_name.contains("aria-sort=\"ascending\""));
    let next = by_name
        .split("rel=\"next\" href=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a next link");
    assert!(
        next.contains("sort=name") && next.contains("page=2"),
        "{next}"
    );

    let by_points = app.get_html("/rosters?sort=points").await;
    assert!(at(&by_points, "Brandywine left wing") < at(&by_points, "Company 52"));

    // A page past the end is empty, not an error, and says so (not "No rosters yet"); a bad
    // page number is page 1.
    let past = app.get("/rosters?page=9").await;
    assert_eq!(past.status(), 200);
    let past = past.text().await.unwrap();
    assert!(
        past.contains("There is no page 9: the list has 2 pages") && !past.contains("No rosters"),
        "{past}"
    );
    assert!(app
        .get_html("/rosters?page=x")
        .await
        .contains("page 1 of 2"));
}

/// The roster search ignores case beyond ASCII on both backends: "béarn" finds "BÉARN" and
/// "É" finds "é" (SQLite's own lower() leaves "É" as it is, so the server gives it Rust's).
#[tokio::test]
async fn the_roster_search_ignores_case_beyond_ascii() {
    let app = spawn_app().await;
    app.register("bearn@example.org", "Béarn", PASSWORD).await;
    new_roster(&app, "Régiment de BÉARN", "150").await;
    new_roster(&app, "La Sarre", "150").await;

    let found = app.get_html("/rosters?q=b%C3%A9arn").await;
    assert!(found.contains("1 roster<"), "{found}");
    assert!(found.contains("Régiment de BÉARN") && !found.contains("La Sarre"));

    let upper = app.get_html("/rosters?q=%C3%89").await;
    assert!(
        upper.contains("1 roster<") && upper.contains("Régiment de BÉARN"),
        "{upper}"
    );
}

/// Issue 17's page weight: the editor of a 36-element roster (six groups of six) is under
/// 40 KB of HTML, and each element still has its edit row.
#[tokio::test]
async fn the_editor_of_a_36_element_roster_stays_under_40_kb() {
    let app = spawn_app().await;
    app.register("heavy@example.org", "Heavy", PASSWORD).await;
    let groups: Vec<serde_json::Value> = (0..6)
        .map(|g| {
            let elements: Vec<serde_json::Value> = (0..6)
                .map(|k| {
                    serde_json::json!({"name": format!("{} Foot", g * 6 + k + 1),
                                       "type": "infantry", "size": "medium"})
                })
                .collect();
            serde_json::json!({"name": format!("Brigade {}", g + 1),
                               "commander": {"name": format!("Brigadier {}", g + 1)},
                               "elements": elements})
        })
        .collect();
    let doc = serde_json::json!({"format": "muster.lotf.roster/1", "name": "Heavy", "war": "american_revolution",
                                 "nation": "british", "points_limit": 900,
                                 "force_commander": {"name": "General"}, "groups": groups});
    let res = import_text(&app, &doc.to_string()).await;
    assert_eq!(res.status(), 303, "imported");
    let at = location(&res);
    assert!(at.contains("/edit"), "the import opens the editor: {at}");
    let editor = app.get_html(&at).await;
    assert!(
        editor.contains("36 Foot") && editor.contains("Brigade 6"),
        "the whole force is on the page"
    );
    assert!(
        editor.len() < 40_000,
        "the editor of 36 elements is {} bytes",
        editor.len()
    );
}

/// An imported roster with a points limit of 0 (no limit, M-2) can be renamed in the editor as
/// it stands; one whose limit the editor could not take is refused at import with the bound.
#[tokio::test]
async fn an_imported_points_limit_is_one_the_editor_can_save() {
    let app = spawn_app().await;
    app.register("limits@example.org", "Limits", PASSWORD).await;
    let doc = |limit: u64| {
        json!({"format": "muster.lotf.roster/1", "name": "Militia", "war": "american_revolution",
               "nation": "american", "mode": "historical", "points_limit": limit})
        .to_string()
    };
    let res = import_text(&app, &doc(200_000)).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("at most 100000 (200000 given)"), "{html}");

    let res = import_text(&app, &doc(0)).await;
    assert_eq!(res.status(), 303);
    let id: i64 = location(&res)
        .trim_start_matches("/rosters/")
        .split('/')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("roster id");
    let page = app.get_html(&format!("/rosters/{id}/edit")).await;
    assert!(page.contains(r#"name="points_limit""#));
    // 0 reads as no limit everywhere: not "0 / 0 pts" in the over-limit red.
    assert!(
        page.contains("/ no limit pts") && !page.contains("total-over"),
        "{page}"
    );
    let list = app.get_html("/rosters").await;
    assert!(!list.contains("0 / 0"), "{list}");
    let res = edit(
        &app,
        id,
        &[
            ("action", "settings"),
            ("name", "Militia of the Bay"),
            ("war", "american_revolution"),
            ("nation", "american"),
            ("points_limit", "0"),
            ("mode", "historical"),
        ],
    )
    .await;
    assert_eq!(
        res.status(),
        303,
        "{}",
        res.text().await.unwrap_or_default()
    );
    assert!(app
        .get_html(&format!("/rosters/{id}/edit"))
        .await
        .contains("Militia of the Bay"));
}
