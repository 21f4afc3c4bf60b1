//! An All the King's Men campaign over HTTP: created with its battle size in units, two armies
//! enlisted, a turn that ends in an open battle, the result recorded from the table and
//! confirmed, and the losses carried over exactly as the battle left them (K-51): figures,
//! officers and ensigns, collapsed units gone.

use serde_json::{json, Value};

use crate::atkm_battles::{atkm_roster, rebels, redcoats};
use crate::helpers::{spawn_app, TestApp};
use crate::lod_campaign::{call, ok, route};

/// Unit `id` of a force's roster as the campaign keeps it.
fn unit<'a>(force: &'a Value, id: &str) -> Option<&'a Value> {
    force["roster"]["units"]
        .as_array()
        .and_then(|us| us.iter().find(|u| u["id"] == id))
}

/// Creates a 6-unit campaign on the Philadelphia map, enlists the Redcoats (side 0) and the
/// Rebels (side 1), starts it and marches both to Kennett: the battle's record id.
pub(crate) async fn campaign_to_contact(app: &TestApp, howe: &str, greene: &str) -> (i64, i64) {
    let (status, body) = call(
        app,
        howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "atkm", "name": "Brandywine", "map": "philadelphia-1777",
                    "points": 200, "turns": 3}),
        ),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.to_string()
            .contains("The battle size is 2 to 60 units."),
        "{body}"
    );
    let created = ok(
        app,
        howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "atkm", "name": "Brandywine", "map": "philadelphia-1777",
                    "points": 6, "turns": 3}),
        ),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();
    let british = atkm_roster(app, "howe@example.com", &redcoats());
    let american = atkm_roster(app, "greene@example.com", &rebels());
    // An army of the War of 1812 is not raised for the Revolution (K-52).
    let mut late = rebels();
    late["name"] = json!("Baltimore");
    late["period"] = json!("war_of_1812");
    let late = atkm_roster(app, "greene@example.com", &late);
    ok(
        app,
        howe,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": british})),
    )
    .await;
    let (status, body) = call(
        app,
        greene,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": late})),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("American Revolution"), "{body}");
    ok(
        app,
        greene,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": american})),
    )
    .await;
    ok(app, howe, "POST", &format!("/campaigns/{id}/start"), None).await;
    let map = ok(app, howe, "GET", &format!("/campaigns/{id}/map"), None).await;
    for (from_to_1, from_to_2) in [
        (
            ("head_of_elk", "iron_hill"),
            ("philadelphia", "chadds_ford"),
        ),
        (("iron_hill", "kennett"), ("chadds_ford", "kennett")),
    ] {
        for (token, force, (a, b)) in [(howe, "f1", from_to_1), (greene, "f2", from_to_2)] {
            ok(
                app,
                token,
                "POST",
                &format!("/campaigns/{id}/orders"),
                Some(
                    json!({"force": force, "order": {"order": "move", "route": route(&map, a, b)}}),
                ),
            )
            .await;
        }
    }
    let state = ok(app, howe, "GET", &format!("/campaigns/{id}"), None).await;
    let record = state["battles"][0]["record"]
        .as_i64()
        .unwrap_or_else(|| panic!("a battle: {state}"));
    (id, record)
}

/// Records and confirms the battle: the Redcoats lose the 5th Foot and the dragoons (their
/// army collapses, K-16), the 4th Foot three privates and its colours; the Rebels' 1st
/// Virginia loses two privates and its officer. Returns the record's result.
pub(crate) async fn record_the_battle(
    app: &TestApp,
    howe: &str,
    greene: &str,
    record: i64,
) -> Value {
    let setup = ok(app, howe, "GET", &format!("/battles/{record}/setup"), None).await;
    assert_eq!(setup["format"], "muster.atkm.battle/1", "{setup}");
    assert_eq!(setup["scenario"], "open_battle", "{setup}");
    assert_eq!(
        setup["attacker"]["roster"]["carried_losses"], true,
        "a campaign battle's armies are as the campaign keeps them"
    );
    let british_attack = setup["attacker"]["roster"]["name"] == "Redcoats";
    let (british, american) = if british_attack {
        ("attacker", "defender")
    } else {
        ("defender", "attacker")
    };
    let mut report = json!({"turns_played": 5});
    report[british] = json!({"units": [
        {"id": "u1", "rank_and_file_end": 9, "ensign_lost": true},
        {"id": "u2", "collapsed": true},
        {"id": "u3", "collapsed": true}]});
    report[american] = json!({"units": [
        {"id": "u1", "rank_and_file_end": 10, "officer_lost": true}]});
    let saved = ok(
        app,
        greene,
        "POST",
        &format!("/battles/{record}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert_eq!(saved["result"]["winner"], american, "{saved}");
    ok(
        app,
        howe,
        "POST",
        &format!("/battles/{record}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;
    saved
}

/// What the battle left: asserts each force carries its losses exactly (K-51).
pub(crate) async fn assert_losses_carried(app: &TestApp, howe: &str, greene: &str, id: i64) {
    let log = ok(app, howe, "GET", &format!("/campaigns/{id}/log"), None).await;
    let text = log.to_string();
    assert!(
        text.contains(
            "comes out of the battle at 9 rank and file, officer, no ensign (colours taken)"
        ),
        "{text}"
    );
    assert!(text.contains("5th Foot is lost."), "{text}");
    assert!(
        !text.contains("rolled 0"),
        "no casualty roll is made: {text}"
    );

    let redcoats = ok(
        app,
        howe,
        "GET",
        &format!("/campaigns/{id}/forces/f1"),
        None,
    )
    .await;
    let foot = unit(&redcoats, "u1").unwrap_or_else(|| panic!("4th Foot: {redcoats}"));
    assert_eq!(foot["rank_and_file"], 9, "{foot}");
    assert_eq!(foot["ensign"], false, "{foot}");
    assert_eq!(foot["officer"], true, "{foot}");
    assert!(unit(&redcoats, "u2").is_none(), "the 5th Foot collapsed");
    assert!(unit(&redcoats, "u3").is_none(), "the dragoons collapsed");
    assert!(unit(&redcoats, "u4").is_some(), "the Jägers stand");

    let rebels = ok(
        app,
        greene,
        "GET",
        &format!("/campaigns/{id}/forces/f2"),
        None,
    )
    .await;
    let virginia = unit(&rebels, "u1").unwrap_or_else(|| panic!("1st Virginia: {rebels}"));
    assert_eq!(virginia["rank_and_file"], 10, "{virginia}");
    assert_eq!(virginia["officer"], false, "{virginia}");
    for other in ["u2", "u3", "u4"] {
        assert!(unit(&rebels, other).is_some(), "{other} stands: {rebels}");
    }
}

#[tokio::test]
async fn an_all_the_kings_men_campaign_carries_a_battles_losses_over() {
    let app = spawn_app().await;
    let howe = app.api_user("howe@example.com").await;
    let greene = app.api_user("greene@example.com").await;
    let (id, record) = campaign_to_contact(&app, &howe, &greene).await;
    let saved = record_the_battle(&app, &howe, &greene, record).await;
    assert!(saved["result"].is_object(), "{saved}");
    assert_losses_carried(&app, &howe, &greene, id).await;

    // The pages speak of units and of the game's generals and rules.
    app.login("howe@example.com", crate::helpers::PASSWORD)
        .await;
    let page = app.get_html(&format!("/campaigns/{id}")).await;
    assert!(page.contains("6-unit battles"), "{page}");
    let page = app.get_html(&format!("/campaigns/{id}/forces/f1")).await;
    assert!(page.contains("Commanding General"), "{page}");
    assert!(
        page.contains("9 rank and file, officer, no ensign (colours taken)"),
        "{page}"
    );
    assert!(!page.contains("Force Commander"), "{page}");
    let form = app.get_html("/campaigns?system=atkm").await;
    assert!(
        form.contains("Figures, officers and ensigns lost carry over")
            && !form.contains("reinforcement points")
            && !form.contains("field promotion"),
        "only the rules that apply, in the game's words"
    );
    // The force's cards print as it stands.
    let cards = app
        .get_html(&format!("/campaigns/{id}/forces/f1/print/cards"))
        .await;
    assert!(cards.contains("4th Foot"), "{cards}");
    assert!(!cards.contains("5th Foot"), "a collapsed unit has no card");
}
