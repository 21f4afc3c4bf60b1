//! AWI battles as records: set up from two orders of battle on the page (abilities rolled
//! where not given, W-4; the roll-off for the first move, W-1), a result recorded from the
//! table in the game's terms (figures lost, routing, gone, destroyed; generals killed),
//! checked, saved, confirmed by the other player, and scored by Muster's victory rule (W-31).

use muster::store::{self, rosters::RosterContent};
use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, TestApp, PASSWORD};

fn crown() -> Value {
    json!({"format": "muster.awi.oob/1", "name": "Crown", "side": "British",
           "cinc": {"id": "cornwallis", "name": "Cornwallis"},
           "brigades": [
             {"id": "b1", "name": "Webster's Brigade", "brigadier": {"id": "webster", "name": "Webster", "ability": 6},
              "units": [
                {"id": "foot33", "name": "33rd Foot", "type": "infantry", "grade": "trained", "bases": 6},
                {"id": "foot23", "name": "23rd Foot", "type": "infantry", "grade": "trained", "bases": 4},
                {"id": "legion", "name": "Legion horse", "type": "cavalry", "grade": "trained", "bases": 4},
                {"id": "gun3", "name": "3pdr", "type": "artillery", "grade": "trained", "gun": "light", "gunners": 3}]}]})
}

fn continental() -> Value {
    json!({"format": "muster.awi.oob/1", "name": "Continentals", "side": "Continental",
           "cinc": {"id": "greene", "name": "Greene"},
           "brigades": [
             {"id": "b1", "name": "Huger's Brigade", "brigadier": {"id": "huger", "name": "Huger"},
              "units": [
                {"id": "md1", "name": "1st Maryland", "type": "infantry", "grade": "trained", "bases": 6},
                {"id": "va", "name": "Virginia militia", "type": "infantry", "grade": "militia", "bases": 6},
                {"id": "rifles", "name": "Riflemen", "type": "skirmishers", "grade": "raw", "bases": 3, "arms": "rifle"},
                {"id": "gun", "name": "Field gun", "type": "artillery", "grade": "trained", "gun": "light", "gunners": 2}]}]})
}

pub(crate) fn awi_roster(app: &TestApp, email: &str, doc: &Value) -> i64 {
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let owner = store::users::find_by_email(&mut conn, email)
        .expect("query")
        .expect("user exists");
    let content = RosterContent {
        rule_system: "awi".into(),
        name: doc["name"].as_str().unwrap().into(),
        war: "american_revolution".into(),
        nation: doc["side"].as_str().unwrap().into(),
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

/// The Continentals lose the 1st Maryland (routing at the end), the Virginia militia (gone)
/// and their gun, and Huger falls; the 33rd lost 9 of 18 figures (3 bases left of 6: at half
/// strength). 2 of the Continentals' 3 units (guns not counted) are gone: half rounded up, so
/// their army broke. Crown scores 3 (gone) + 2 (routing) + 2 (gun) + 5 (broke) = 12; the
/// Continentals 1 (the 33rd at half). Difference 11: a major victory (W-31).
fn result_fields(form: &str) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = vec![("moves".into(), "7".into())];
    for (k, v) in [
        ("lost_a_foot33", "9"),
        ("state_d_md1", "routing"),
        ("lost_d_md1", "4"),
        ("state_d_va", "left_table"),
        ("state_d_gun", "destroyed"),
        ("lost_d_gun", "2"),
        ("killed_d_huger", "1"),
    ] {
        fields.push((k.into(), v.into()));
    }
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(form)));
    fields
}

#[tokio::test]
async fn awi_a_tabletop_battle_is_set_up_recorded_confirmed_and_scored() {
    let app = spawn_app().await;
    app.register("webster@example.org", "Webster", PASSWORD)
        .await;
    let ours = awi_roster(&app, "webster@example.org", &crown());
    let theirs = awi_roster(&app, "webster@example.org", &continental());
    let greene = app.other_visitor();
    greene
        .register("greene@example.org", "Greene", PASSWORD)
        .await;

    let list = app.get_html("/battles?system=awi").await;
    assert!(
        list.contains(&format!("value=\"r:{ours}\"")) && list.contains("Example forces"),
        "the AWI orders of battle and example forces are offered: {list}"
    );
    assert!(list.contains("An open field, 6 turns"));

    let res = app
        .post_form(
            "/battles?system=awi",
            "/battles",
            &[
                ("system", "awi"),
                ("first", format!("r:{ours}").as_str()),
                ("second", format!("r:{theirs}").as_str()),
                ("first_player", ""),
                ("second_player", "greene@example.org"),
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
    crate::helpers::accept_invitation(&greene, id).await;

    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("6 bases of trained infantry (18 figures, 360 men)"),
        "{page}"
    );
    assert!(
        page.contains("Brigadier Webster (Webster&#39;s Brigade, ability 6)"),
        "a given ability stands: {page}"
    );
    assert!(
        !page.contains("Brigadier Huger (Huger&#39;s Brigade, ability not rolled)"),
        "Huger's ability was rolled at set-up (W-4): {page}"
    );
    assert!(page.contains("Moves first"), "the roll-off (W-1): {page}");
    let sheet = app
        .get_html(&format!("/battles/{id}/print/defender/sheet"))
        .await;
    assert!(sheet.contains("Continentals") && sheet.contains("Field gun"));
    let cards = app
        .get_html(&format!("/battles/{id}/print/attacker/cards"))
        .await;
    assert!(cards.contains("Legion horse"));

    // More figures lost than the unit has is refused by the rules core, naming the field.
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    assert!(
        form.contains("name=\"lost_a_foot33\"") && form.contains("Huger"),
        "{form}"
    );
    let mut fields = result_fields(&form);
    fields.push(("lost_a_legion".into(), "99".into()));
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);

    // Checking shows the arithmetic and saves nothing.
    let fields = result_fields(&form);
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
            && html.contains("Crown wins: major victory, 12 points to 1"),
        "{html}"
    );

    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Crown wins: major victory, 12 points to 1"),
        "{page}"
    );
    assert!(page.contains("Routing, 4 of 18 figures lost"), "{page}");
    assert!(
        page.contains("9 of 18 figures lost, at or below half strength"),
        "{page}"
    );
    assert!(
        page.contains("Brigadier Huger (Huger&#39;s Brigade, ability ")
            && page.contains("): killed"),
        "Huger fell: {page}"
    );

    let res = greene
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/confirm"),
            &[("version", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = greene.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Confirmed"), "{page}");

    // A correction starts from the confirmed result.
    let res = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/correct"),
            &[("version", "3")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let correction = app.get_html(&location(&res)).await;
    assert!(
        correction.contains("<option value=\"left_table\" selected>"),
        "{correction}"
    );
    assert!(correction.contains("value=\"9\""), "{correction}");
    assert!(
        correction.contains("name=\"killed_d_huger\" value=\"1\" checked"),
        "{correction}"
    );
}
