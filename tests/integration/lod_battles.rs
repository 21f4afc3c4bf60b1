//! Liberty or Death! battles as records: set up from two rosters on the page and over the API,
//! a result recorded from the table (each unit's end state, Generals killed), confirmed or
//! disputed by the other player, and the report scored by the victory rules (4.7, L-47).

use muster::store::{self, rosters::RosterContent};
use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, TestApp, PASSWORD};

fn continental() -> Value {
    json!({"format": "muster.lod.roster/1", "name": "Continentals", "army_list": "continental",
           "c_in_c": {"id": "cinc", "name": "Greene"},
           "brigades": [
             {"id": "b1", "name": "Maryland Brigade", "general": {"id": "smallwood", "name": "Smallwood"},
              "units": [
                {"id": "md1", "name": "1st Maryland", "entry": "continental_regiment", "bases": 4},
                {"id": "md2", "name": "2nd Maryland", "entry": "continental_regiment", "bases": 4}]},
             {"id": "b2", "name": "Militia Brigade", "general": {"id": "stevens", "name": "Stevens"},
              "units": [
                {"id": "va", "name": "Virginia Militia", "entry": "militia_regiment", "bases": 5},
                {"id": "rifles", "name": "Rifle Company", "entry": "riflemen", "bases": 3}]}]})
}

fn british() -> Value {
    json!({"format": "muster.lod.roster/1", "name": "Crown Forces", "army_list": "british",
           "c_in_c": {"id": "cinc", "name": "Cornwallis"},
           "brigades": [
             {"id": "b1", "name": "Guards Brigade", "general": {"id": "ohara", "name": "O'Hara"},
              "units": [
                {"id": "g1", "name": "1st Guards", "entry": "guard_infantry", "bases": 4},
                {"id": "r23", "name": "23rd Foot", "entry": "regular_infantry_regiment", "bases": 5, "grenadiers_detached": true},
                {"id": "r33", "name": "33rd Foot", "entry": "regular_infantry_regiment", "bases": 4},
                {"id": "gun", "name": "Royal Artillery", "entry": "artillery_6pdr", "bases": 2}]}]})
}

/// A Liberty or Death! roster stored for `email`; returns its id.
pub(crate) fn lod_roster(app: &TestApp, email: &str, doc: &Value) -> i64 {
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let owner = store::users::find_by_email(&mut conn, email)
        .expect("query")
        .expect("user exists");
    let content = RosterContent {
        rule_system: "lod".into(),
        name: doc["name"].as_str().unwrap().into(),
        war: "american_revolution".into(),
        nation: doc["army_list"].as_str().unwrap().into(),
        points: 0,
        points_limit: None,
        legal: true,
        error_count: 0,
        warning_count: 0,
        catalogue_version: "test".into(),
        document: doc.to_string(),
    };
    store::rosters::create(&mut conn, owner.id, &content)
        .expect("insert roster")
        .id
}

/// The British lose two regiments and end with a SHAKEN gun; one Continental unit is WORN and
/// Stevens fell. The British army reached its break point (2 of 4): the Continentals score
/// 5 + 5 + 3 + 10 = 23 VPs, the British 1; a difference of 22 is a major victory.
fn page_result(form: &str, attacker_prefix: &str) -> Vec<(String, String)> {
    let defender_prefix = if attacker_prefix == "a" { "d" } else { "a" };
    let mut fields = vec![("turns".to_string(), "5".to_string())];
    for (i, _) in form.match_indices("name=\"end_") {
        let rest = &form[i + "name=\"".len()..];
        let key = &rest[..rest.find('"').unwrap()];
        let end = if key == format!("end_{defender_prefix}_g1") {
            "broken"
        } else if key == format!("end_{defender_prefix}_r23") {
            "routed_off"
        } else if key == format!("end_{defender_prefix}_gun") {
            "shaken"
        } else if key == format!("end_{attacker_prefix}_md2") {
            "worn"
        } else {
            "steady"
        };
        fields.push((key.to_string(), end.to_string()));
    }
    fields.push((format!("killed_{attacker_prefix}_stevens"), "1".into()));
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(form)));
    fields
}

#[tokio::test]
async fn a_tabletop_battle_set_up_on_the_page_is_recorded_confirmed_and_scored() {
    let app = spawn_app().await;
    app.register("greene@example.org", "Greene", PASSWORD).await;
    let ours = lod_roster(&app, "greene@example.org", &continental());
    let theirs = lod_roster(&app, "greene@example.org", &british());
    let cornwallis = app.other_visitor();
    cornwallis
        .register("cornwallis@example.org", "Cornwallis", PASSWORD)
        .await;

    // The set-up form offers one rule system's forces at a time.
    let list = app.get_html("/battles?system=lod").await;
    assert!(
        list.contains(&format!("value=\"r:{ours}\"")) && list.contains("Example armies"),
        "the LoD rosters and example armies are offered: {list}"
    );
    assert!(
        list.contains("An open field, 8 turns"),
        "the only scenario: {list}"
    );
    assert!(
        !list.contains("Roll on the book's 2d6 table"),
        "no other system's scenarios: {list}"
    );

    let res = app
        .post_form(
            "/battles?system=lod",
            "/battles",
            &[
                ("system", "lod"),
                ("first", format!("r:{ours}").as_str()),
                ("second", format!("r:{theirs}").as_str()),
                ("first_player", ""),
                ("second_player", "cornwallis@example.org"),
                ("scenario", "open_field"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    let id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    crate::helpers::accept_invitation(&cornwallis, id).await;

    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Set up, not fought yet"), "{page}");
    assert!(
        page.contains("Continentals against Crown Forces"),
        "the first force attacks: {page}"
    );
    assert!(
        page.contains("Command Points</strong>") && page.contains("on the C-in-C's D3"),
        "Command Points are rolled (L-42): {page}"
    );
    assert!(
        page.contains("plays first every turn (L-1)") && page.contains("has the initiative"),
        "initiative is rolled: {page}"
    );
    assert!(
        page.contains("Regular Infantry Regiment, 4 bases (8/16/24)"),
        "the 23rd fields 4 bases with its grenadiers detached (L-50): {page}"
    );
    let sheet = app
        .get_html(&format!("/battles/{id}/print/defender/sheet"))
        .await;
    assert!(
        sheet.contains("Crown Forces") && sheet.contains("Royal Artillery"),
        "a side prints for the table: {sheet}"
    );
    let cards = app
        .get(&format!("/battles/{id}/print/defender/cards"))
        .await;
    assert_eq!(cards.status(), 400, "cards are refused in words");
    assert!(cards.text().await.unwrap().contains("army sheet"));

    // A unit left out and turns beyond the game's length are refused, each named; the form
    // keeps what was entered.
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    assert!(
        form.contains("routed off the table") && form.contains("Smallwood"),
        "{form}"
    );
    let mut fields = page_result(&form, "a");
    fields[0].1 = "9".into();
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("between 1 and 8"), "{html}");
    assert!(
        html.contains("<option value=\"routed_off\" selected>"),
        "the entries are kept: {html}"
    );

    // Checking shows the arithmetic and saves nothing.
    fields[0].1 = "5".into();
    let mut check = fields.clone();
    check.push(("preview".into(), "1".into()));
    let html = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&check)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("Not saved yet")
            && html.contains("Continentals wins a major victory, 23 VPs to 1"),
        "{html}"
    );
    assert!(app
        .get_html(&format!("/battles/{id}"))
        .await
        .contains("Set up, not fought yet"));

    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("waiting for the other player"), "{page}");
    assert!(
        page.contains("Continentals wins a major victory, 23 VPs to 1"),
        "{page}"
    );
    assert!(
        page.contains("+10 for breaking the enemy army"),
        "the break point bonus (L-47): {page}"
    );
    assert!(
        page.contains("lost 2 of 4 units; break point 2 (reached)"),
        "{page}"
    );
    assert!(page.contains("routed off the table"), "{page}");
    assert!(
        page.contains("<td>Stevens</td><td>Militia Brigade</td><td>killed</td>"),
        "Generals killed are shown: {page}"
    );

    let res = cornwallis
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/confirm"),
            &[("version", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = cornwallis.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Confirmed"), "{page}");
    assert!(cornwallis
        .get_html("/battles")
        .await
        .contains("<strong>1</strong> lost"));

    // A correction starts from the confirmed result (issue 18): the unit routed off and the
    // General killed are filled in again, and the turns played.
    let res = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/correct"),
            &[("version", "3")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let record = crate::helpers::location(&res);
    let correction = app.get_html(&record).await;
    assert!(
        correction.contains("<option value=\"routed_off\" selected>"),
        "{correction}"
    );
    assert!(
        correction.contains("value=\"1\" checked> Stevens"),
        "the General killed: {correction}"
    );
    assert!(
        correction.contains("value=\"5\""),
        "the turns: {correction}"
    );
}

#[tokio::test]
async fn over_the_api_a_result_is_checked_recorded_and_disputed() {
    let app = spawn_app().await;
    let token = app.api_user("greene@example.org").await;
    let other = app.api_user("cornwallis@example.org").await;
    let ours = lod_roster(&app, "greene@example.org", &continental());
    let api = reqwest::Client::new();

    // An example army stands in for the enemy.
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(
            &json!({"first": format!("r:{ours}"), "second": "h:example:british",
                      "second_player": "cornwallis@example.org"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let battle: Value = res.json().await.unwrap();
    let id = battle["id"].as_i64().unwrap();
    // Set up by e-mail, it is an invitation: Cornwallis accepts it first.
    let res = api
        .post(app.url(&format!("/api/v1/battles/{id}/accept")))
        .bearer_auth(&other)
        .json(&json!({"version": battle["version"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "accepted");

    let res = api
        .get(app.url(&format!("/api/v1/battles/{id}/setup")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let setup: Value = res.json().await.unwrap();
    assert_eq!(setup["format"], "muster.lod.battle/1");
    assert_eq!(setup["scenario"], "open_field");
    let cp = setup["attacker"]["command_points"].as_u64().unwrap();
    let d3 = setup["attacker"]["c_in_c_roll"].as_u64().unwrap();
    assert!((1..=3).contains(&d3) && cp == 2 + d3, "{setup}");
    let enemy: Vec<String> = setup["defender"]["roster"]["brigades"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["units"].as_array().unwrap())
        .map(|u| u["id"].as_str().unwrap().to_string())
        .collect();

    let record = |report: Value| {
        let (api, app, token) = (api.clone(), &app, token.clone());
        async move {
            api.post(app.url(&format!("/api/v1/battles/{id}/record")))
                .bearer_auth(token)
                .json(&json!({"version": 1, "report": report}))
                .send()
                .await
                .unwrap()
        }
    };
    // A unit's end state that is not one of the five, and a unit left out: both named.
    let res = record(json!({"turns_played": 8,
        "attacker": {"units": {"md1": "fine", "md2": "steady", "va": "steady"}},
        "defender": {"units": enemy.iter().map(|u| (u.clone(), json!("steady"))).collect::<serde_json::Map<_, _>>()}}))
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let fields: Vec<&str> = body["error"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert!(
        fields.contains(&"attacker.units.md1") && fields.contains(&"attacker.units.rifles"),
        "{body}"
    );

    // Every enemy unit WORN, ours STEADY after 8 turns: 1 VP each, a draw while it stays
    // within 5.
    let ours_steady: serde_json::Map<String, Value> = ["md1", "md2", "va", "rifles"]
        .iter()
        .map(|u| (u.to_string(), json!("steady")))
        .collect();
    let res = record(json!({"turns_played": 8,
        "attacker": {"units": ours_steady},
        "defender": {"units": enemy.iter().map(|u| (u.clone(), json!("worn"))).collect::<serde_json::Map<_, _>>()}}))
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "provisional", "{body}");
    let vp = enemy.len() as u64;
    assert_eq!(body["result"]["attacker"]["vp"], vp, "{body}");
    assert_eq!(body["result"]["defender"]["vp"], 0, "{body}");
    assert_eq!(
        body["result"]["band"],
        if vp >= 13 {
            "major"
        } else if vp >= 6 {
            "minor"
        } else {
            "draw"
        },
        "{body}"
    );

    let res = api
        .post(app.url(&format!("/api/v1/battles/{id}/dispute")))
        .bearer_auth(&other)
        .json(&json!({"version": 2, "comment": "The Guards were STEADY"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "disputed", "{body}");
}
