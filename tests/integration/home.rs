//! The home page of a logged-in player (issue 19 item 7): what waits for them, their running
//! campaigns with the turn, their latest battles and rosters; visitors keep the page that says
//! what Muster does.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, Visitor, PASSWORD};

fn roster(name: &str, nation: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": nation,
           "points_limit": 150, "force_commander": {"name": format!("{name} general")},
           "groups": [
             {"commander": {"name": "Left"}, "elements": [
               {"name": format!("{name} 1st"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 2nd"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 3rd"), "type": "infantry", "size": "medium"}]},
             {"commander": {"name": "Right"}, "elements": [
               {"name": format!("{name} 4th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 5th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 6th"), "type": "infantry", "size": "medium"}]}]})
}

async fn call(v: &Visitor, token: &str, method: &str, path: &str, body: Value) -> Value {
    let req = match method {
        "POST" => v.client.post(v.url(path)),
        "PUT" => v.client.put(v.url(path)),
        _ => v.client.get(v.url(path)),
    };
    let res = req
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = res.status();
    let text = res.text().await.expect("body");
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).expect("JSON")
}

/// The part of the home page between two markers.
fn between<'a>(page: &'a str, from: &str, to: &str) -> &'a str {
    let start = page
        .find(from)
        .unwrap_or_else(|| panic!("{from} on {page}"));
    let end = page[start..].find(to).map_or(page.len(), |e| start + e);
    &page[start..end]
}

#[tokio::test]
async fn a_logged_in_player_sees_what_waits_and_their_latest_work() {
    let app = spawn_app().await;

    // A visitor gets the page that says what Muster does.
    let visitor = app.get_html("/").await;
    assert!(visitor.contains("Create an account") && visitor.contains("Know your odds"));
    assert!(!visitor.contains("Waiting for you"));

    let howe = app.other_visitor();
    assert_eq!(
        howe.register("howe@example.org", "General Howe", PASSWORD)
            .await
            .status(),
        303
    );
    let token = howe.api_token("howe@example.org", PASSWORD).await;

    // A new player: empty panels that say where to start.
    let home = howe.get_html("/").await;
    assert!(home.contains("Welcome back, General Howe"), "{home}");
    assert!(home.contains("Nothing waits for you"));
    assert!(home.contains("No rosters yet") && home.contains("No battles yet"));
    assert!(
        !home.contains("Know your odds"),
        "the marketing page is for visitors"
    );

    // Seven rosters: the five latest show, with a link to all seven.
    let mut ids = Vec::new();
    for n in 1..=7 {
        let created = call(
            &howe,
            &token,
            "POST",
            "/api/v1/rosters",
            roster(&format!("Brigade {n}"), "british"),
        )
        .await;
        ids.push(created["id"].as_i64().expect("id"));
    }
    let home = howe.get_html("/").await;
    let rosters = between(&home, "id=\"desk-rosters\"", "</section>");
    for n in 3..=7 {
        assert!(rosters.contains(&format!(">Brigade {n}<")), "{rosters}");
    }
    assert!(!rosters.contains(">Brigade 1<") && !rosters.contains(">Brigade 2<"));
    assert!(rosters.contains("All 7 rosters") && rosters.contains("150 / 150 pts"));
    assert!(rosters.contains("legal"));

    // A campaign: enlisting, then, once started, its turn and what it asks of the player.
    let created = call(
        &howe,
        &token,
        "POST",
        "/api/v1/campaigns",
        json!({"name": "Jerseys 1776", "map": "philadelphia-1777", "points": 150, "turns": 3, "sides": ["", ""]}),
    )
    .await;
    let cid = created["id"].as_i64().expect("id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    call(
        &howe,
        &token,
        "POST",
        &format!("/api/v1/campaigns/{cid}/join"),
        json!({"code": code, "side": 0, "roster_id": ids[0]}),
    )
    .await;
    let wash = app.other_visitor();
    assert_eq!(
        wash.register("washington@example.org", "George Washington", PASSWORD)
            .await
            .status(),
        303
    );
    let wtoken = wash.api_token("washington@example.org", PASSWORD).await;
    let wr = call(
        &wash,
        &wtoken,
        "POST",
        "/api/v1/rosters",
        roster("Continentals", "american"),
    )
    .await;
    call(
        &wash,
        &wtoken,
        "POST",
        &format!("/api/v1/campaigns/{cid}/join"),
        json!({"code": code, "side": 1, "roster_id": wr["id"]}),
    )
    .await;
    let home = howe.get_html("/").await;
    let campaigns = between(&home, "id=\"desk-campaigns\"", "</section>");
    assert!(
        campaigns.contains("Jerseys 1776") && campaigns.contains("Enlisting"),
        "{campaigns}"
    );
    assert!(campaigns.contains("you organise"));
    call(
        &howe,
        &token,
        "POST",
        &format!("/api/v1/campaigns/{cid}/start"),
        json!({}),
    )
    .await;
    let home = wash.get_html("/").await;
    let campaigns = between(&home, "id=\"desk-campaigns\"", "</section>");
    assert!(
        campaigns.contains("Turn 1 of 3 · Orders open"),
        "{campaigns}"
    );
    assert!(!campaigns.contains("you organise"));
    let waiting = between(&home, "id=\"attention-title\"", "</section>");
    assert!(waiting.contains("Give your order for turn 1."), "{waiting}");
    // Orders open is in the inbox too, and the home page points there.
    assert!(
        waiting.contains("unread notice") && waiting.contains("href=\"/inbox\""),
        "{waiting}"
    );

    // A deadline shows with the campaign's turn.
    let due_at = chrono::Utc::now() + chrono::Duration::days(3);
    let due = due_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    call(
        &howe,
        &token,
        "PUT",
        &format!("/api/v1/campaigns/{cid}/deadline"),
        json!({"deadline": due}),
    )
    .await;
    let home = wash.get_html("/").await;
    let campaigns = between(&home, "id=\"desk-campaigns\"", "</section>");
    assert!(
        campaigns.contains("orders due by") && campaigns.contains(&due_at.format("%Y").to_string()),
        "{campaigns}"
    );

    // A battle set up against a guest shows among the recent battles.
    call(
        &howe,
        &token,
        "POST",
        "/api/v1/battles",
        json!({"first": format!("r:{}", ids[1]), "second": format!("r:{}", ids[2]),
               "second_player": "Cornwallis", "scenario": "take_the_field"}),
    )
    .await;
    let home = howe.get_html("/").await;
    let battles = between(&home, "id=\"desk-battles\"", "</section>");
    assert!(battles.contains("Brigade 2 against Brigade 3"), "{battles}");

    // Nobody sees another player's desk.
    let theirs = wash.get_html("/").await;
    assert!(!theirs.contains("Brigade 7"));
}
