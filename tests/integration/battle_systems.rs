//! A battle is fought between forces of one rule system: a roster of another system is refused
//! by name on the page and over the API, before either force is read. Only Land of the Free is
//! served, so the other system's roster is put straight into the database.

use muster::store::{self, rosters::RosterContent};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp, PASSWORD};

/// A roster stored as rule system `system`, owned by `email`; returns its id.
pub(crate) fn stored_roster(app: &TestApp, email: &str, system: &str, name: &str) -> i64 {
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let owner = store::users::find_by_email(&mut conn, email)
        .expect("query")
        .expect("user exists");
    let content = RosterContent {
        rule_system: system.into(),
        name: name.into(),
        war: "american_revolution".into(),
        nation: "british".into(),
        points: 100,
        points_limit: None,
        legal: true,
        error_count: 0,
        warning_count: 0,
        catalogue_version: "test".into(),
        document: json!({"format": format!("muster.{system}.roster/1"), "name": name}).to_string(),
    };
    store::rosters::create(&mut conn, owner.id, &content)
        .expect("insert roster")
        .id
}

async fn lotf_roster(app: &TestApp, token: &str, name: &str) -> i64 {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
                      "nation": "british", "points_limit": 150,
                      "groups": [{"elements": [{"name": "1st", "type": "infantry", "size": "medium"}]}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "roster created");
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

const MIXED: &str =
    "The two forces play by different rule systems: the first by Land of the Free, \
                     the second by Liberty or Death!";

#[tokio::test]
async fn forces_of_two_rule_systems_cannot_meet_on_the_page() {
    let app = spawn_app().await;
    app.register("mix@example.org", "Mix", PASSWORD).await;
    let token = app.api_token("mix@example.org", PASSWORD).await;
    let ours = lotf_roster(&app, &token, "Crown").await;
    let theirs = stored_roster(&app, "mix@example.org", "lod", "Continentals");

    let res = app
        .post_form(
            "/battles",
            "/battles",
            &[
                ("first", format!("r:{ours}").as_str()),
                ("second", format!("r:{theirs}").as_str()),
                ("first_player", ""),
                ("second_player", "Guest Gus"),
                ("scenario", ""),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422, "a mix is refused");
    let page = res.text().await.unwrap();
    assert!(
        page.contains(MIXED),
        "the refusal names both systems: {page}"
    );
    assert!(
        page.contains("Guest Gus"),
        "the form keeps what was entered: {page}"
    );
    let list = app.get_html("/battles").await;
    assert!(
        list.contains("No battles yet"),
        "nothing was set up: {list}"
    );
}

#[tokio::test]
async fn forces_of_two_rule_systems_cannot_meet_over_the_api() {
    let app = spawn_app().await;
    app.register("mixapi@example.org", "Mix", PASSWORD).await;
    let token = app.api_token("mixapi@example.org", PASSWORD).await;
    let ours = lotf_roster(&app, &token, "Crown").await;
    let theirs = stored_roster(&app, "mixapi@example.org", "lod", "Continentals");
    let api = reqwest::Client::new();

    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(
            &json!({"first": format!("r:{ours}"), "second": format!("r:{theirs}"),
                      "second_player": "Guest Gus"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422, "a mix is refused");
    let body: Value = res.json().await.unwrap();
    let detail = &body["error"]["details"][0];
    assert_eq!(detail["field"], "second", "{body}");
    assert!(
        detail["message"].as_str().unwrap_or("").contains(MIXED),
        "the refusal names both systems: {body}"
    );

    // Two forces of one system that cannot fight (orders of battle with no units): refused in
    // words, not a failure.
    let one = stored_roster(&app, "mixapi@example.org", "oibl", "Militia");
    let other = stored_roster(&app, "mixapi@example.org", "oibl", "Line");
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(
            &json!({"first": format!("r:{one}"), "second": format!("r:{other}"),
                      "second_player": "Guest Gus"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body.to_string()
            .contains("Militia has no unit that can fight"),
        "{body}"
    );
}
