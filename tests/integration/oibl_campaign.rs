//! A One if by Land campaign over HTTP: created with its battle size in figures, two orders of
//! battle enlisted (a missing commander rating rolled on B-8's table), a turn that ends in a
//! battle, the result recorded from the table and confirmed, and the aftermath carried over
//! (B-70, B-71): figures with half the lost ones back as replacements, stands following them, a
//! gun taken, a destroyed unit gone, a fallen commander's successor rolled. With the casualty
//! switch off the same battle changes no unit.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp, PASSWORD};
use crate::lod_campaign::{call, march_to_kennett, ok};

/// The Southern Army: the 1st Maryland (6 stands of 3), a park of two medium guns (crew 3
/// each), and a militia brigade; Howard's rating is left to the dice (B-8).
pub(crate) fn southern_army() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Southern Army", "nation": "american",
        "brigades": [
          {"id": "b1", "name": "Maryland Brigade", "commander": {"id": "c1", "name": "Howard"},
           "units": [
             {"id": "u1", "name": "1st Maryland", "class": "continental", "stands": 6,
              "quality": "veteran"},
             {"id": "u2", "name": "Park", "class": "artillery", "stands": 2, "quality": "regular",
              "gun": "medium", "guns": 2, "crew": 3}]},
          {"id": "b2", "name": "Militia", "commander": {"id": "c2", "name": "Pickens", "rating": 0},
           "units": [
             {"id": "u3", "name": "Carolina Militia", "class": "militia", "stands": 4,
              "quality": "poor"}]}]})
}

/// The Crown's brigade: two regiments of foot.
pub(crate) fn crown_brigade() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Crown Brigade", "nation": "british",
        "brigades": [
          {"id": "b1", "name": "Webster's", "commander": {"id": "c1", "name": "Webster", "rating": 1},
           "units": [
             {"id": "u1", "name": "23rd Foot", "class": "british_line", "stands": 6,
              "quality": "veteran"},
             {"id": "u2", "name": "33rd Foot", "class": "british_line", "stands": 6,
              "quality": "regular"}]}]})
}

/// Stores `doc` as a roster of the token's owner; its id.
pub(crate) async fn oibl_roster(app: &TestApp, token: &str, doc: &Value) -> i64 {
    let stored = ok(app, token, "POST", "/rosters", Some(doc.clone())).await;
    stored["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("a stored roster: {stored}"))
}

/// Unit `id` of a force's roster as the campaign keeps it.
pub(crate) fn unit<'a>(force: &'a Value, id: &str) -> Option<&'a Value> {
    force["roster"]["brigades"]
        .as_array()?
        .iter()
        .flat_map(|b| b["units"].as_array().into_iter().flatten())
        .find(|u| u["id"] == id)
}

/// Creates a 200-figure campaign on the Philadelphia map with house rules `rules`, enlists the
/// Crown Brigade (side 0, `howe`) and the Southern Army (side 1, `greene`), starts it and
/// marches both to Kennett: the campaign's id and the battle's record id.
pub(crate) async fn oibl_campaign_to_contact(
    app: &TestApp,
    howe: &str,
    greene: &str,
    rules: Value,
) -> (i64, i64) {
    let created = ok(
        app,
        howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "oibl", "name": "Carolinas", "map": "philadelphia-1777",
                    "points": 200, "turns": 3, "rules": rules}),
        ),
    )
    .await;
    let id = created["id"].as_i64().expect("a campaign id");
    let code = created["invite_code"].as_str().expect("a code").to_string();
    let crown = oibl_roster(app, howe, &crown_brigade()).await;
    let southern = oibl_roster(app, greene, &southern_army()).await;
    for (token, side, roster) in [(howe, 0, crown), (greene, 1, southern)] {
        ok(
            app,
            token,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": side, "roster_id": roster})),
        )
        .await;
    }
    ok(app, howe, "POST", &format!("/campaigns/{id}/start"), None).await;
    march_to_kennett(app, id, howe, greene).await;
    let state = ok(app, howe, "GET", &format!("/campaigns/{id}"), None).await;
    let record = state["battles"][0]["record"]
        .as_i64()
        .unwrap_or_else(|| panic!("a battle: {state}"));
    (id, record)
}

/// Records and confirms the battle at Kennett: the Southern Army's 1st Maryland loses 6
/// figures and routs, the militia are destroyed, the park loses a gun and 2 crew, Howard is
/// killed; the Crown loses 4 figures of the 23rd. The Southern Army has lost two of three
/// units: the Crown wins decisively (B-34). Returns the confirmed record.
pub(crate) async fn record_kennett(app: &TestApp, howe: &str, greene: &str, record: i64) -> Value {
    let setup = ok(app, howe, "GET", &format!("/battles/{record}/setup"), None).await;
    assert_eq!(setup["format"], "muster.oibl.battle/1", "{setup}");
    let crown_attacks = setup["attacker"]["roster"]["name"] == "Crown Brigade";
    let (crown, southern) = if crown_attacks {
        ("attacker", "defender")
    } else {
        ("defender", "attacker")
    };
    let rating = setup[southern]["roster"]["brigades"][0]["commander"]["rating"].clone();
    assert!(
        rating.as_i64().is_some_and(|r| (0..=2).contains(&r)),
        "Howard fights at the rating rolled at enlistment (B-8): {setup}"
    );
    let mut report = json!({"turns": 7});
    report[southern] = json!({
        "units": [
          {"id": "u1", "figures_lost": 6, "routed": true},
          {"id": "u2", "figures_lost": 2, "guns_lost": 1},
          {"id": "u3", "figures_lost": 15, "destroyed": true}],
        "commanders": [{"id": "c1", "fate": "killed"}]});
    report[crown] = json!({"units": [{"id": "u1", "figures_lost": 4}]});
    let saved = ok(
        app,
        greene,
        "POST",
        &format!("/battles/{record}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    assert_eq!(saved["result"]["winner"], crown, "{saved}");
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

/// What the battle at Kennett left (B-70, B-71): asserts the log and both forces.
pub(crate) async fn assert_kennett_carried(app: &TestApp, howe: &str, greene: &str, id: i64) {
    let log = ok(app, howe, "GET", &format!("/campaigns/{id}/log"), None).await;
    let text = log.to_string();
    for line in [
        "1st Maryland comes out of the battle at 15 figures.",
        "Park comes out of the battle at 5 figures.",
        "Park comes out of the battle at one gun fewer.",
        "Carolina Militia is lost.",
        "23rd Foot comes out of the battle at 16 figures.",
        "Howard has fallen",
        "(B-70)",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert!(
        !text.contains("33rd Foot comes out"),
        "an unhurt unit is untouched"
    );

    let southern = ok(
        app,
        greene,
        "GET",
        &format!("/campaigns/{id}/forces/f2"),
        None,
    )
    .await;
    let maryland = unit(&southern, "u1").unwrap_or_else(|| panic!("1st Maryland: {southern}"));
    assert_eq!(maryland["figures"], 15, "18 − 6 + 3 replacements (B-71)");
    assert_eq!(
        maryland["stands"], 5,
        "stands go as their figures go (B-38)"
    );
    let park = unit(&southern, "u2").unwrap_or_else(|| panic!("the park: {southern}"));
    assert_eq!(park["guns"], 1, "the gun taken is gone");
    assert_eq!(park["figures"], 3, "one gun's crew");
    assert!(
        unit(&southern, "u3").is_none(),
        "the militia were destroyed"
    );
    let howard = &southern["roster"]["brigades"][0]["commander"];
    assert_ne!(
        howard["name"], "Howard",
        "a new man leads the brigade: {howard}"
    );
    let crown = ok(
        app,
        howe,
        "GET",
        &format!("/campaigns/{id}/forces/f1"),
        None,
    )
    .await;
    let foot = unit(&crown, "u1").unwrap_or_else(|| panic!("the 23rd: {crown}"));
    assert_eq!(foot["figures"], 16, "18 − 4 + 2 (B-71)");
}

#[tokio::test]
async fn a_one_if_by_land_campaign_carries_figures_guns_and_commanders_over() {
    let app = spawn_app().await;
    let howe = app.api_user("howe@example.com").await;
    let greene = app.api_user("greene@example.com").await;

    // The battle size counts figures; one figure cannot roll (B-33).
    let (status, body) = call(
        &app,
        &howe,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "oibl", "name": "Too small", "map": "philadelphia-1777",
                    "points": 1, "turns": 3}),
        ),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.to_string()
            .contains("The battle size is 2 to 3000 figures."),
        "{body}"
    );

    let (id, record) = oibl_campaign_to_contact(&app, &howe, &greene, json!({})).await;
    let log = ok(
        &app,
        howe.as_str(),
        "GET",
        &format!("/campaigns/{id}/log"),
        None,
    )
    .await;
    assert!(
        log.to_string().contains("B-8's table"),
        "Howard's rating was rolled at enlistment: {log}"
    );
    record_kennett(&app, &howe, &greene, record).await;

    assert_kennett_carried(&app, &howe, &greene, id).await;

    // The pages speak of figures, brigades and the game's commanders.
    app.login("howe@example.com", PASSWORD).await;
    let page = app.get_html(&format!("/campaigns/{id}")).await;
    assert!(page.contains("200-figure battles"), "{page}");
    let page = app.get_html(&format!("/campaigns/{id}/forces/f2")).await;
    assert!(page.contains("Brigade commander"), "{page}");
    assert!(page.contains("15 figures in 5 stands"), "{page}");
    assert!(!page.contains("Force Commander"), "{page}");
    let form = app.get_html("/campaigns?system=oibl").await;
    assert!(
        form.contains("Figures and guns carry over")
            && !form.contains("reinforcement points")
            && !form.contains("field promotion"),
        "only the rules that apply, in the game's words"
    );
    // The force's cards print as it stands.
    let cards = app
        .get_html(&format!("/campaigns/{id}/forces/f2/print/cards"))
        .await;
    assert!(cards.contains("1st Maryland"), "{cards}");
    assert!(
        !cards.contains("Carolina Militia"),
        "a destroyed unit has no card"
    );
}

/// With the casualty switch off, the same battle leaves every unit as it was; a fallen
/// commander is still replaced.
#[tokio::test]
async fn without_carried_casualties_a_battle_changes_no_unit() {
    let app = spawn_app().await;
    let howe = app.api_user("howe@example.com").await;
    let greene = app.api_user("greene@example.com").await;
    let (id, record) = oibl_campaign_to_contact(
        &app,
        &howe,
        &greene,
        json!({"persistent_casualties": false}),
    )
    .await;
    record_kennett(&app, &howe, &greene, record).await;
    let southern = ok(
        &app,
        &greene,
        "GET",
        &format!("/campaigns/{id}/forces/f2"),
        None,
    )
    .await;
    let maryland = unit(&southern, "u1").unwrap_or_else(|| panic!("1st Maryland: {southern}"));
    assert_eq!(
        (maryland["stands"].as_i64(), maryland.get("figures")),
        (Some(6), None)
    );
    assert!(unit(&southern, "u3").is_some(), "the militia come back");
    let log = ok(&app, &greene, "GET", &format!("/campaigns/{id}/log"), None).await;
    let text = log.to_string();
    assert!(!text.contains("comes out of the battle at"), "{text}");
    assert!(text.contains("Howard has fallen"), "{text}");
}
