//! All the King's Men battles as records: set up on the page from the sample battles' forces or
//! two rosters (the book's attacker at Cowpens, K-49's roll for an open battle, the seed
//! stored), a result recorded from the table in the game's terms (rank and file lost, officer
//! and ensign lost, collapsed; generals' ratings after casualties; turns played), checked,
//! saved, confirmed or disputed by the other player, and decided by the book's victory rules
//! (K-16, K-41). Only the players see the record form; every form carries its CSRF token.

use muster::store::{self, rosters::RosterContent};
use serde_json::{json, Value};

use crate::helpers::{accept_invitation, csrf_from, location, spawn_app, TestApp, PASSWORD};

fn line(id: &str, name: &str, kind: &str) -> Value {
    json!({"id": id, "name": name, "type": kind, "general": "g1"})
}

pub(crate) fn redcoats() -> Value {
    json!({"format": "muster.atkm.roster/1", "name": "Redcoats", "period": "awi",
           "generals": [{"id": "g1", "name": "Howe", "rating": 3, "role": "commanding"}],
           "units": [line("u1", "4th Foot", "infantry"), line("u2", "5th Foot", "infantry"),
                     line("u3", "Light Dragoons", "cavalry"), line("u4", "Jägers", "skirmishers")]})
}

pub(crate) fn rebels() -> Value {
    json!({"format": "muster.atkm.roster/1", "name": "Rebels", "period": "awi",
           "generals": [{"id": "g1", "name": "Greene", "rating": 2, "role": "commanding"}],
           "units": [line("u1", "1st Virginia", "infantry"), line("u2", "2nd Virginia", "infantry"),
                     line("u3", "Riflemen", "skirmishers"), line("u4", "Field gun", "foot_artillery")]})
}

pub(crate) fn atkm_roster(app: &TestApp, email: &str, doc: &Value) -> i64 {
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let owner = store::users::find_by_email(&mut conn, email)
        .expect("query")
        .expect("user exists");
    let content = RosterContent {
        rule_system: "atkm".into(),
        name: doc["name"].as_str().unwrap().into(),
        war: "awi".into(),
        nation: String::new(),
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

async fn set_up(app: &TestApp, fields: &[(&str, &str)]) -> i64 {
    let res = app
        .post_form("/battles?system=atkm", "/battles", fields)
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .expect("the battle's id")
}

/// Cowpens as the book has it (the British attack, K-41). Tarleton's British lose their
/// dragoons (4 of 6 troopers down: 2 left, their break point), the Legion Infantry (8 of 12
/// down), the gun (collapsed) and the 71st (collapsed), and the Fusiliers' officer and colours:
/// 3 of 7 units left, so their army collapsed (K-16). Morgan falls from rating 2 to 1.
fn cowpens_result(form: &str) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = vec![("turns".into(), "9".into())];
    for (k, v) in [
        ("lost_a_u1", "4"),
        ("lost_a_u2", "8"),
        ("collapsed_a_u3", "1"),
        ("collapsed_a_u5", "1"),
        ("officer_a_u4", "1"),
        ("ensign_a_u4", "1"),
        ("lost_d_u1", "3"),
        ("rating_d_g1", "1"),
    ] {
        fields.push((k.into(), v.into()));
    }
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(form)));
    fields
}

#[tokio::test]
async fn atkm_a_sample_battle_is_set_up_recorded_confirmed_and_decided() {
    let app = spawn_app().await;
    app.register("tarleton@example.org", "Tarleton", PASSWORD)
        .await;
    let morgan = app.other_visitor();
    morgan
        .register("morgan@example.org", "Morgan", PASSWORD)
        .await;

    let list = app.get_html("/battles?system=atkm").await;
    assert!(
        list.contains("value=\"h:sample:cowpens_1781_british\"")
            && list.contains("The sample battles&#39; forces"),
        "the sample battles' forces are offered: {list}"
    );
    assert!(
        list.contains("Cowpens, 17 January 1781: the book&#39;s sample battle"),
        "{list}"
    );

    let id = set_up(
        &app,
        &[
            ("system", "atkm"),
            ("first", "h:sample:cowpens_1781_americans"),
            ("second", "h:sample:cowpens_1781_british"),
            ("first_player", ""),
            ("second_player", "morgan@example.org"),
            ("scenario", "cowpens_1781"),
            ("roles", "given"),
        ],
    )
    .await;
    accept_invitation(&morgan, id).await;

    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Cowpens 1781"), "{page}");
    let british = page
        .find("Attacker: Cowpens 1781: Tarleton")
        .expect("the British attack (K-41)");
    assert!(
        page[british..].contains("Defender: Cowpens 1781: Morgan"),
        "{page}"
    );
    assert!(
        page.contains("Infantry · 12 privates, officer and ensign · collapses at 4"),
        "{page}"
    );
    assert!(
        page.contains("Banastre Tarleton (commanding, rating 2)"),
        "{page}"
    );
    assert!(
        page.contains("7 units; the army collapses with 3 or fewer left (K-16)"),
        "{page}"
    );
    let sheet = app
        .get_html(&format!("/battles/{id}/print/defender/sheet"))
        .await;
    assert!(sheet.contains("1st Maryland"), "{sheet}");
    let cards = app
        .get_html(&format!("/battles/{id}/print/attacker/cards"))
        .await;
    assert!(cards.contains("Legion Infantry"), "{cards}");

    // A wrong entry is refused, naming the unit and the field, and the entries are kept.
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    assert!(
        form.contains("name=\"lost_a_u1\"") && form.contains("name=\"rating_d_g1\""),
        "{form}"
    );
    let mut fields = cowpens_result(&form);
    fields[1].1 = "99".into();
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains(
            "Rank and file lost by Mixed Legion and 17th Light Dragoons is a whole number from 0 to 6."
        ),
        "{html}"
    );
    assert!(html.contains("lost_a_u1"), "the field is named: {html}");
    assert!(
        html.contains("value=\"99\""),
        "the entries are kept: {html}"
    );

    // Checking shows who won and why, and saves nothing.
    let fields = cowpens_result(&form);
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
            && html.contains("Morgan&#39;s Americans wins: a victory")
            && html.contains("3 of 7 units left"),
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
        page.contains("Morgan&#39;s Americans wins: a victory"),
        "{page}"
    );
    assert!(
        page.contains("the attacking army collapsed (K-16)"),
        "{page}"
    );
    assert!(page.contains("2 of 6 left · collapsed"), "{page}");
    assert!(
        page.contains("12 of 12 left · officer lost · colours taken"),
        "{page}"
    );
    assert!(page.contains("collapsed, its gun destroyed"), "{page}");
    assert!(
        page.contains("Daniel Morgan (commanding, rating 2): rating fell from 2 to 1"),
        "{page}"
    );

    let res = morgan
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/confirm"),
            &[("version", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = morgan.get_html(&format!("/battles/{id}")).await;
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
        correction.contains("name=\"lost_a_u2\" type=\"number\" min=\"0\" max=\"12\" value=\"8\""),
        "{correction}"
    );
    assert!(
        correction.contains("name=\"ensign_a_u4\" value=\"1\" checked"),
        "{correction}"
    );
    assert!(
        correction.contains("<option value=\"1\" selected>1</option>"),
        "Morgan's rating: {correction}"
    );
}

#[tokio::test]
async fn atkm_an_open_battle_from_two_rosters_is_disputed_and_kept_to_its_players() {
    let app = spawn_app().await;
    app.register("howe@example.org", "Howe", PASSWORD).await;
    let ours = atkm_roster(&app, "howe@example.org", &redcoats());
    let theirs = atkm_roster(&app, "howe@example.org", &rebels());
    let greene = app.other_visitor();
    greene
        .register("greene@example.org", "Greene", PASSWORD)
        .await;
    let stranger = app.other_visitor();
    stranger
        .register("stranger@example.org", "Stranger", PASSWORD)
        .await;

    let list = app.get_html("/battles?system=atkm").await;
    assert!(list.contains(&format!("value=\"r:{ours}\"")), "{list}");
    // Another player's roster cannot be set up.
    let res = stranger
        .post_form(
            "/battles?system=atkm",
            "/battles",
            &[
                ("system", "atkm"),
                ("first", format!("r:{ours}").as_str()),
                ("second", "h:sample:cowpens_1781_british"),
                ("first_player", ""),
                ("second_player", "Guest"),
                ("scenario", "open_battle"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_ne!(res.status(), 303, "a stranger cannot field Howe's roster");

    let id = set_up(
        &app,
        &[
            ("system", "atkm"),
            ("first", format!("r:{ours}").as_str()),
            ("second", format!("r:{theirs}").as_str()),
            ("first_player", ""),
            ("second_player", "greene@example.org"),
            ("scenario", "open_battle"),
            ("roles", "roll"),
        ],
    )
    .await;
    accept_invitation(&greene, id).await;
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("An open battle"), "{page}");
    assert!(
        page.contains("Who attacks: Redcoats rolled"),
        "K-49: {page}"
    );
    assert!(page.contains("Howe (commanding, rating 3)"), "{page}");
    let attacker_prefix = if page.find("Attacker: Redcoats").is_some() {
        "a"
    } else {
        "d"
    };
    let rebels_prefix = if attacker_prefix == "a" { "d" } else { "a" };

    // Only the players see the record form; the stranger is told nothing.
    assert_eq!(
        stranger
            .get(&format!("/battles/{id}/record"))
            .await
            .status(),
        404
    );
    assert_eq!(stranger.get(&format!("/battles/{id}")).await.status(), 404);
    // A form without its CSRF token is refused.
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&[("turns", "5"), ("version", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    // The Rebels lose both Virginia regiments to their break point: 2 of 4 units left, half:
    // the army collapsed (K-16) and the Redcoats win.
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    let fields: Vec<(String, String)> = vec![
        ("turns".into(), "6".into()),
        (format!("lost_{rebels_prefix}_u1"), "8".into()),
        (format!("lost_{rebels_prefix}_u2"), "9".into()),
        (format!("lost_{attacker_prefix}_u3"), "1".into()),
        ("version".into(), "1".into()),
        ("csrf_token".into(), csrf_from(&form)),
    ];
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Redcoats wins: a victory"), "{page}");
    assert!(page.contains("Rebels: 2 of 4 units left"), "{page}");

    // Greene disputes it, with a reason.
    let res = greene
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/dispute"),
            &[
                ("version", "2"),
                ("comment", "The 2nd Virginia still stood"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Disputed") && page.contains("The 2nd Virginia still stood"),
        "{page}"
    );
}
