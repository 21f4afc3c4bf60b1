//! A campaign is fought with one rule system: a roster of another system is refused, by both
//! systems' names, when a player joins on the page or over the API, and nothing is enlisted;
//! the join page offers only rosters of the campaign's system. Only Land of the Free is served,
//! so the other system's roster is put straight into the database.

use serde_json::{json, Value};

use crate::battle_systems::stored_roster;
use crate::helpers::{location, spawn_app, TestApp, PASSWORD};

const MIXED: &str =
    "This campaign is fought with Land of the Free; that roster is for Liberty or Death!";

/// A Land of the Free campaign on the Philadelphia map, created over the API: its id and
/// invite code.
async fn lotf_campaign(app: &TestApp, organiser: &str) -> (i64, String) {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/campaigns"))
        .bearer_auth(organiser)
        .json(
            &json!({"system": "lotf", "name": "Philadelphia 1777", "map": "philadelphia-1777",
                      "points": 200, "turns": 3}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "campaign created");
    let body: Value = res.json().await.unwrap();
    (
        body["id"].as_i64().expect("id"),
        body["invite_code"].as_str().expect("code").to_string(),
    )
}

/// A Land of the Free roster legal at 200 points, for the war of the Philadelphia map.
async fn lotf_roster(app: &TestApp, token: &str, name: &str) -> i64 {
    let group = |g: &str| {
        json!({"name": g, "commander": {"name": format!("{name} {g}")}, "elements": (1..=3)
            .map(|i| json!({"name": format!("{name} {g} {i}"), "type": "infantry",
                            "size": "medium"}))
            .collect::<Vec<_>>()})
    };
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&json!({"format": "muster.lotf.roster/1", "name": name,
                      "war": "american_revolution", "nation": "american", "points_limit": 200,
                      "force_commander": {"name": format!("{name} general")},
                      "groups": [group("Left"), group("Right")]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "roster created");
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// The kinds of the campaign's log entries, as its organiser reads them.
async fn log_kinds(app: &TestApp, organiser: &str, id: i64) -> Vec<String> {
    let res = reqwest::Client::new()
        .get(app.url(&format!("/api/v1/campaigns/{id}/log")))
        .bearer_auth(organiser)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let log: Value = res.json().await.unwrap();
    log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

/// What a player may see of a campaign over the API: members only.
async fn campaign_status(app: &TestApp, token: &str, id: i64) -> u16 {
    reqwest::Client::new()
        .get(app.url(&format!("/api/v1/campaigns/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_roster_of_another_system_cannot_join_on_the_page() {
    let app = spawn_app().await;
    let organiser = app.api_user("organiser@example.org").await;
    let (id, code) = lotf_campaign(&app, &organiser).await;
    app.register("washington@example.org", "Washington", PASSWORD)
        .await;
    let token = app.api_token("washington@example.org", PASSWORD).await;
    let ours = lotf_roster(&app, &token, "Main Army").await;
    // Same war, same owner: only the rule system differs.
    let theirs = stored_roster(&app, "washington@example.org", "lod", "Continentals");

    let join = format!("/campaigns/join/{code}");
    let page = app.get_html(&join).await;
    assert!(
        page.contains(&format!(r#"<option value="{ours}">Main Army ("#)),
        "the Land of the Free roster is offered: {page}"
    );
    assert!(
        !page.contains("Continentals") && !page.contains(&format!(r#"<option value="{theirs}""#)),
        "a roster of another system is not offered: {page}"
    );

    // A form sent with the other roster anyway is refused by both systems' names.
    let theirs = theirs.to_string();
    let res = app
        .post_form(&join, &join, &[("side", "1"), ("roster", theirs.as_str())])
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        page.contains(MIXED),
        "the refusal names both systems: {page}"
    );
    assert!(
        page.contains(r#"id="enlist-form""#),
        "the form is there to choose again"
    );
    assert!(!log_kinds(&app, &organiser, id)
        .await
        .contains(&"enlisted".to_string()));
    assert_eq!(
        campaign_status(&app, &token, id).await,
        404,
        "the player did not become a member"
    );

    // The campaign's own system's roster enlists.
    let ours = ours.to_string();
    let res = app
        .post_form(&join, &join, &[("side", "1"), ("roster", ours.as_str())])
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), format!("/campaigns/{id}"));
    assert_eq!(
        log_kinds(&app, &organiser, id)
            .await
            .iter()
            .filter(|k| *k == "enlisted")
            .count(),
        1
    );
}

#[tokio::test]
async fn a_roster_of_another_system_cannot_join_over_the_api() {
    let app = spawn_app().await;
    let organiser = app.api_user("organiser@example.org").await;
    let (id, code) = lotf_campaign(&app, &organiser).await;
    let token = app.api_user("greene@example.org").await;
    let ours = lotf_roster(&app, &token, "Southern Army").await;
    let theirs = stored_roster(&app, "greene@example.org", "lod", "Continentals");
    let join = |roster: i64| {
        let (app, token, code) = (&app, token.clone(), code.clone());
        async move {
            reqwest::Client::new()
                .post(app.url(&format!("/api/v1/campaigns/{id}/join")))
                .bearer_auth(token)
                .json(&json!({"code": code, "side": 1, "roster_id": roster}))
                .send()
                .await
                .unwrap()
        }
    };

    let res = join(theirs).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["details"][0]["field"], "roster", "{body}");
    assert_eq!(body["error"]["details"][0]["message"], MIXED, "{body}");
    assert!(!log_kinds(&app, &organiser, id)
        .await
        .contains(&"enlisted".to_string()));
    assert_eq!(campaign_status(&app, &token, id).await, 404, "not a member");

    let res = join(ours).await;
    assert_eq!(res.status(), 201, "the campaign's own system enlists");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["my_force"], "f1", "{body}");
}
