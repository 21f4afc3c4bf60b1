//! An AWI wargames rules campaign over HTTP: created with its battle size in bases, two armies
//! enlisted (a given ability kept, a missing one rolled D6+2, W-4), a turn that ends in a
//! battle on the open field, the result recorded from the table in figures and confirmed, and
//! Muster's campaign rules (spec 3, W-44) applied to both armies: half the lost figures back,
//! a unit that left the table rolled for, a lost gun gone, a fallen brigadier replaced (W-29),
//! the others' abilities kept.

use serde_json::{json, Value};

use crate::awi_battles::awi_roster;
use crate::helpers::spawn_app;
use crate::lod_campaign::{call, march_to_kennett, ok};

pub(crate) fn crown() -> Value {
    json!({"format": "muster.awi.oob/1", "name": "Crown", "side": "British",
           "cinc": {"id": "cornwallis", "name": "Cornwallis"},
           "brigades": [
             {"id": "b1", "name": "Webster's Brigade", "brigadier": {"id": "webster", "name": "Webster", "ability": 6},
              "units": [
                {"id": "foot33", "name": "33rd Foot", "type": "infantry", "grade": "trained", "bases": 6},
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
                {"id": "gun", "name": "Field gun", "type": "artillery", "grade": "trained", "gun": "light", "gunners": 2}]},
             {"id": "b2", "name": "Morgan's Brigade", "brigadier": {"id": "morgan", "name": "Morgan", "ability": 5},
              "units": [
                {"id": "rifles", "name": "Riflemen", "type": "skirmishers", "grade": "raw", "bases": 3, "arms": "rifle"},
                {"id": "horse", "name": "Washington's horse", "type": "cavalry", "grade": "trained", "bases": 2}]}]})
}

fn units_of(force: &Value) -> Vec<(String, Value)> {
    force["roster"]["brigades"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["units"].as_array().cloned().unwrap_or_default())
        .map(|u| (u["id"].as_str().unwrap().to_string(), u))
        .collect()
}

fn ability(force: &Value, brigade: usize) -> Option<u64> {
    force["roster"]["brigades"][brigade]["brigadier"]["ability"].as_u64()
}

#[tokio::test]
async fn an_awi_campaign_fights_a_battle_and_its_aftermath_changes_the_armies() {
    let app = spawn_app().await;
    let cornwallis = app.api_user("cornwallis@example.com").await;
    let greene = app.api_user("greene@example.com").await;

    // The battle size counts bases; a points-sized one is refused in those words.
    let (status, body) = call(
        &app,
        &cornwallis,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "awi", "name": "Carolinas", "map": "philadelphia-1777",
                    "points": 500, "turns": 3}),
        ),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body.to_string()
            .contains("The battle size is 2 to 400 bases."),
        "{body}"
    );
    let created = ok(
        &app,
        &cornwallis,
        "POST",
        "/campaigns",
        Some(
            json!({"system": "awi", "name": "Carolinas", "map": "philadelphia-1777",
                    "points": 30, "turns": 3}),
        ),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();

    let ours = awi_roster(&app, "cornwallis@example.com", &crown());
    let theirs = awi_roster(&app, "greene@example.com", &continental());
    let mut big = continental();
    big["brigades"][0]["units"][0]["bases"] = json!(30);
    let too_big = awi_roster(&app, "greene@example.com", &big);
    ok(
        &app,
        &cornwallis,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": ours})),
    )
    .await;
    let (status, body) = call(
        &app,
        &greene,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": too_big})),
    )
    .await;
    assert_eq!(
        status, 422,
        "43 bases do not fit a 30-base campaign: {body}"
    );
    assert!(body.to_string().contains("at most 30"), "{body}");
    ok(
        &app,
        &greene,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": theirs})),
    )
    .await;
    ok(
        &app,
        &cornwallis,
        "POST",
        &format!("/campaigns/{id}/start"),
        None,
    )
    .await;
    march_to_kennett(&app, id, &cornwallis, &greene).await;
    let state = ok(&app, &cornwallis, "GET", &format!("/campaigns/{id}"), None).await;
    let record = state["battles"][0]["record"]
        .as_i64()
        .unwrap_or_else(|| panic!("a battle: {state}"));
    let setup = ok(
        &app,
        &cornwallis,
        "GET",
        &format!("/battles/{record}/setup"),
        None,
    )
    .await;
    assert_eq!(setup["format"], "muster.awi.battle/1");
    assert_eq!(setup["scenario"], "open_field");
    let crown_attacks = setup["attacker"]["roster"]["name"] == "Crown";
    let (crown_side, continental_side) = if crown_attacks {
        ("attacker", "defender")
    } else {
        ("defender", "attacker")
    };
    // Every brigadier fights at the ability the campaign keeps: Webster's as given, Huger's
    // rolled D6+2 at enlistment (W-4); nothing is rolled again at set-up.
    assert_eq!(
        setup[crown_side]["roster"]["brigades"][0]["brigadier"]["ability"],
        6
    );
    let huger = setup[continental_side]["roster"]["brigades"][0]["brigadier"]["ability"]
        .as_u64()
        .unwrap_or_else(|| panic!("Huger was rated at enlistment: {setup}"));
    assert!((3..=8).contains(&huger), "D6+2: {huger}");
    assert!(setup[continental_side]["rolled"]
        .as_array()
        .is_none_or(|r| r.is_empty()));

    // The Continentals break: the 1st Maryland routing with 4 figures lost, the militia off the
    // table, the gun taken, Huger killed. The 33rd lost 9 figures of 18.
    let mut report = json!({"moves": 8});
    report[crown_side] = json!({"units": [{"id": "foot33", "figures_lost": 9}]});
    report[continental_side] = json!({"units": [
        {"id": "md1", "figures_lost": 4, "state": "routing"},
        {"id": "va", "figures_lost": 3, "state": "left_table"},
        {"id": "gun", "figures_lost": 2, "state": "destroyed"}],
        "generals_killed": ["huger"]});
    let saved = ok(
        &app,
        &greene,
        "POST",
        &format!("/battles/{record}/record"),
        Some(json!({"version": 1, "report": report})),
    )
    .await;
    ok(
        &app,
        &cornwallis,
        "POST",
        &format!("/battles/{record}/confirm"),
        Some(json!({"version": saved["version"]})),
    )
    .await;

    let log = ok(
        &app,
        &cornwallis,
        "GET",
        &format!("/campaigns/{id}/log"),
        None,
    )
    .await;
    let kinds: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or(""))
        .collect();
    for kind in [
        "battle_fought",
        "commander_replaced",
        "element_reduced",
        "element_lost",
        "experience",
    ] {
        assert!(kinds.contains(&kind), "{kind}: {kinds:?}");
    }

    // The Crown: 9 figures lost, 4 back, 5 stay away: one whole base (W-44). Webster, who won
    // a major victory, has 6 or 7.
    let crown = ok(
        &app,
        &cornwallis,
        "GET",
        &format!("/campaigns/{id}/forces/f1"),
        None,
    )
    .await;
    let units = units_of(&crown);
    let bases = |units: &[(String, Value)], id: &str| {
        units
            .iter()
            .find(|(u, _)| u == id)
            .map(|(_, u)| u["bases"].clone())
    };
    assert_eq!(bases(&units, "foot33"), Some(json!(5)), "{crown}");
    assert_eq!(bases(&units, "legion"), Some(json!(4)));
    assert_eq!(
        crown["roster"]["brigades"][0]["brigadier"]["name"],
        "Webster"
    );
    let webster = crown["ratings"]["webster"].as_u64().unwrap();
    assert!(matches!(webster, 6 | 7), "+1 on a 6 only: {crown}");
    assert_eq!(crown["ratings"]["cornwallis"], 0, "the CinC has no rating");

    // The Continentals: the Maryland regiment gets 2 of its 4 figures back and keeps 6 bases;
    // the militia is lost on 1–3 or returns at 3 bases; the gun is gone; Huger's successor has
    // a new name; Morgan kept his brigade.
    let main = ok(
        &app,
        &greene,
        "GET",
        &format!("/campaigns/{id}/forces/f2"),
        None,
    )
    .await;
    let units = units_of(&main);
    assert_eq!(bases(&units, "md1"), Some(json!(6)), "{main}");
    if let Some(b) = bases(&units, "va") {
        assert_eq!(b, json!(3), "half its 6 bases: {main}");
    }
    assert_eq!(bases(&units, "gun"), None, "a lost gun is gone: {main}");
    assert_eq!(bases(&units, "rifles"), Some(json!(3)));
    let successor = main["roster"]["brigades"][0]["brigadier"]["name"]
        .as_str()
        .unwrap_or("");
    assert!(!successor.is_empty() && successor != "Huger", "{main}");
    assert_eq!(
        ability(&main, 1),
        Some(5),
        "the roster keeps what was given"
    );
    let new_man = main["ratings"]["huger"].as_u64().unwrap();
    assert!((2..=7).contains(&new_man), "D6+1 (W-29): {main}");
    let morgan = main["ratings"]["morgan"].as_u64().unwrap();
    assert!(
        matches!(morgan, 4 | 5),
        "−1 on a 1 only, after a major defeat: {main}"
    );

    // The pages speak of bases and brigadiers; the log tells each loss in the game's words.
    app.login("greene@example.com", crate::helpers::PASSWORD)
        .await;
    let page = app.get_html(&format!("/campaigns/{id}")).await;
    assert!(page.contains("30-base battles"), "{page}");
    let page = app.get_html(&format!("/campaigns/{id}/forces/f2")).await;
    assert!(page.contains(" of 30 bases"), "{page}");
    assert!(
        page.contains("<h2>CinC</h2>")
            && page.contains("Brigadier")
            && !page.contains("Force Commander"),
        "the force speaks the game's words: {page}"
    );
    assert!(!page.contains("Reinforcements"), "nothing to buy: {page}");
    let log = app.get_html(&format!("/campaigns/{id}/log")).await;
    assert!(log.contains("Field gun is lost."), "{log}");
    assert!(
        log.contains("D6+1"),
        "the new brigadier's ability (W-29): {log}"
    );
    let form = app.get_html("/campaigns?system=awi").await;
    assert!(
        form.contains("half the lost figures come back") && !form.contains("reinforcement points"),
        "only the rules that apply, in the game's words: {form}"
    );
    // The force prints as it stands: the 33rd at 5 bases.
    let cards = app
        .get_html(&format!("/campaigns/{id}/forces/f1/print/cards"))
        .await;
    assert!(
        cards.contains("33rd Foot") && cards.contains("Carolinas, turn"),
        "{cards}"
    );
}
