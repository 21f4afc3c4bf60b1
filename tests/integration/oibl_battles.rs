//! One if by Land battles as records (issue 21, item 7): set up from two orders of battle on the
//! page or from the example brigades over the API (`oibl:example:<key>`), every missing
//! commander rating rolled (B-8) and the seed stored; a result recorded from the table in the
//! game's own terms (figures and guns lost, routing, off the table; commanders wounded or killed;
//! turns played), a wrong entry refused by its field, checked, saved, confirmed or disputed by
//! the other player, and decided by Muster's victory rule (B-34, B-35, B-63) or the players'.

use serde_json::{json, Value};

use crate::helpers::{accept_invitation, csrf_from, location, spawn_app, TestApp, PASSWORD};

fn redcoats() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Redcoats", "nation": "british",
           "brigades": [
             {"id": "b1", "name": "Webster's Brigade",
              "commander": {"id": "webster", "name": "Webster", "rating": 2},
              "units": [
                {"id": "foot33", "name": "33rd Foot", "class": "british_line", "stands": 6, "quality": "veteran"},
                {"id": "foot23", "name": "23rd Foot", "class": "british_line", "stands": 4, "quality": "regular"},
                {"id": "guns", "name": "Royal Artillery", "class": "artillery", "stands": 1, "quality": "veteran", "gun": "light", "guns": 2}]}]})
}

fn rebels() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Rebels", "nation": "american",
           "brigades": [
             {"id": "b1", "name": "Huger's Brigade",
              "commander": {"id": "huger", "name": "Huger"},
              "units": [
                {"id": "md1", "name": "1st Maryland", "class": "continental", "stands": 6, "quality": "veteran"},
                {"id": "va", "name": "Virginia militia", "class": "militia", "stands": 4, "quality": "poor"},
                {"id": "rifles", "name": "Riflemen", "class": "militia_rifle", "stands": 4, "quality": "regular"},
                {"id": "gun", "name": "Field gun", "class": "artillery", "stands": 1, "quality": "regular", "gun": "light"}]}]})
}

/// Imports an order of battle through the page, as a player would.
async fn import(app: &TestApp, doc: &Value) -> i64 {
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &doc.to_string())],
        )
        .await;
    assert_eq!(res.status(), 303, "the order of battle is imported");
    location(&res)
        .trim_start_matches("/rosters/")
        .split(['/', '?'])
        .next()
        .and_then(|id| id.parse().ok())
        .expect("the roster's id")
}

async fn post_record(app: &TestApp, id: i64, fields: &[(String, String)]) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// The Rebels defend: the 1st Maryland (18 figures) loses 7 and is routing at the end, the
/// Virginia militia (16) leave the table, and Huger is killed. 2 of 4 units lost: half, so the
/// Rebels are beaten (B-34) and the Redcoats win decisively. The 33rd lost 4 of 18.
fn result_fields(form: &str) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = vec![("turns".into(), "7".into())];
    for (k, v) in [
        ("lost_a_foot33", "4"),
        ("lost_d_md1", "7"),
        ("routed_d_md1", "1"),
        ("off_d_va", "1"),
        ("fate_d_huger", "killed"),
        ("fate_a_webster", "light_wound"),
        ("result", ""),
    ] {
        fields.push((k.into(), v.into()));
    }
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(form)));
    fields
}

#[tokio::test]
async fn oibl_a_tabletop_battle_is_set_up_recorded_confirmed_and_decided() {
    let app = spawn_app().await;
    app.register("webster@example.org", "Webster", PASSWORD)
        .await;
    let ours = import(&app, &redcoats()).await;
    let theirs = import(&app, &rebels()).await;
    let greene = app.other_visitor();
    greene
        .register("greene@example.org", "Greene", PASSWORD)
        .await;
    let stranger = app.other_visitor();
    stranger
        .register("stranger@example.org", "Stranger", PASSWORD)
        .await;

    let list = app.get_html("/battles?system=oibl").await;
    assert!(
        list.contains(&format!("value=\"r:{ours}\""))
            && list.contains("value=\"h:oibl:example:american\"")
            && list.contains("Example brigades"),
        "the orders of battle and the example brigades are offered: {list}"
    );
    assert!(
        !list.contains("value=\"h:oibl:example:empty\""),
        "an empty order of battle cannot fight: {list}"
    );
    assert!(list.contains("Defended line"), "{list}");

    let res = app
        .post_form(
            "/battles?system=oibl",
            "/battles",
            &[
                ("system", "oibl"),
                ("first", format!("r:{ours}").as_str()),
                ("second", format!("r:{theirs}").as_str()),
                ("first_player", ""),
                ("second_player", "greene@example.org"),
                ("scenario", "defended_line"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    let id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    accept_invitation(&greene, id).await;

    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Defended line"), "{page}");
    assert!(
        page.contains("Webster (Webster&#39;s Brigade, X 2)"),
        "a given rating stands: {page}"
    );
    assert!(
        page.contains("Rebels: the commander of Huger&#39;s Brigade rolled")
            && page.contains("(B-8)"),
        "Huger's missing rating was rolled at set-up (B-8): {page}"
    );
    assert!(
        page.contains("Huger (Huger&#39;s Brigade, X "),
        "and he is named with it: {page}"
    );
    assert!(
        page.contains("Continental infantry, veteran (Morale Number 8) · 6 stands, 18 figures"),
        "{page}"
    );
    assert!(
        page.contains("2 × light cannon, 4 crew figures"),
        "two guns, two crew each (B-7): {page}"
    );
    assert!(
        page.contains("beaten with 2 units lost at a turn&#39;s end (B-34)"),
        "{page}"
    );
    let sheet = app
        .get_html(&format!("/battles/{id}/print/defender/sheet"))
        .await;
    assert!(
        sheet.contains("Rebels") && sheet.contains("Field gun") && sheet.contains("Huger"),
        "{sheet}"
    );
    let cards = app
        .get_html(&format!("/battles/{id}/print/attacker/cards"))
        .await;
    assert!(cards.contains("33rd Foot"), "{cards}");

    // Only the players see the record form; a form without its token is refused.
    assert_eq!(
        stranger
            .get(&format!("/battles/{id}/record"))
            .await
            .status(),
        404
    );
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&[("turns", "5"), ("version", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    let form = app.get_html(&format!("/battles/{id}/record")).await;
    for field in [
        "name=\"lost_a_foot33\"",
        "name=\"guns_a_guns\"",
        "name=\"routed_d_md1\"",
        "name=\"off_d_va\"",
        "name=\"fate_d_huger\"",
        "name=\"result\"",
    ] {
        assert!(form.contains(field), "{field}: {form}");
    }
    assert!(
        !form.contains("name=\"guns_a_foot33\""),
        "only a battery has guns to lose: {form}"
    );

    // More figures lost than the unit had, and more guns than the battery had: refused, each
    // named by its field, nothing saved.
    let mut fields = result_fields(&form);
    fields.push(("lost_d_rifles".into(), "9".into()));
    fields.push(("guns_a_guns".into(), "3".into()));
    let res = post_record(&app, id, &fields).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Figures lost by Riflemen is a whole number from 0 to 8"),
        "{html}"
    );
    assert!(
        html.contains("Guns lost by Royal Artillery is a whole number from 0 to 2"),
        "{html}"
    );
    assert!(
        html.contains("value=\"9\""),
        "the form keeps what was typed"
    );
    let mut fields = result_fields(&form);
    fields[0].1 = "0".into();
    let res = post_record(&app, id, &fields).await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Say how many turns were played"));
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(!page.contains("wins"), "nothing was saved: {page}");

    // Checking shows the arithmetic and saves nothing.
    let fields = result_fields(&form);
    let mut check = fields.clone();
    check.push(("preview".into(), "1".into()));
    let html = post_record(&app, id, &check).await.text().await.unwrap();
    assert!(
        html.contains("Not saved yet") && html.contains("Redcoats wins: a decisive victory (B-34)"),
        "{html}"
    );

    let res = post_record(&app, id, &fields).await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Redcoats wins: a decisive victory (B-34)"),
        "{page}"
    );
    assert!(
        page.contains("Rebels: 2 of 4 units lost (routing, destroyed or off the table; beaten at 2, B-34) — beaten"),
        "{page}"
    );
    assert!(page.contains("11 of 18 figures left · routing"), "{page}");
    assert!(
        page.contains("16 of 16 figures left · off the table"),
        "{page}"
    );
    assert!(page.contains("14 of 18 figures left"), "{page}");
    assert!(page.contains("): killed"), "Huger fell: {page}");
    assert!(page.contains("X 2): lightly wounded"), "{page}");

    // Greene, the other player, confirms it.
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
        correction.contains("name=\"lost_d_md1\" type=\"number\" min=\"0\" max=\"18\" value=\"7\""),
        "{correction}"
    );
    assert!(
        correction.contains("name=\"off_d_va\" value=\"1\" checked"),
        "{correction}"
    );
    assert!(
        correction.contains("<option value=\"killed\" selected>"),
        "{correction}"
    );
}

async fn api(
    app: &TestApp,
    token: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .request(method, app.url(&format!("/api/v1{path}")))
        .bearer_auth(token);
    if let Some(body) = body {
        req = req.json(&body);
    }
    req.send().await.unwrap()
}

/// Over the API: the example brigades by their own names (`oibl:example:<key>`, never another
/// system's `example:`), a report refused by its JSON path, the B-35 share of figures when
/// time runs out, the players' own result, and a dispute.
#[tokio::test]
async fn oibl_example_brigades_are_recorded_over_the_api_and_disputed() {
    let app = spawn_app().await;
    app.register("clinton@example.org", "Clinton", PASSWORD)
        .await;
    let gates = app.other_visitor();
    gates.register("gates@example.org", "Gates", PASSWORD).await;
    let token = app.api_token("clinton@example.org", PASSWORD).await;
    let gates_token = gates.api_token("gates@example.org", PASSWORD).await;
    // An unknown scenario is refused by its field (B-51 names the two Muster offers).
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        "/battles",
        Some(
            json!({"first": "h:oibl:example:british", "second": "h:oibl:example:american",
                    "second_player": "gates@example.org", "scenario": "siege_of_boston"}),
        ),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"]["details"][0]["field"], "scenario", "{body}");
    assert!(
        body.to_string().contains("open field or a defended line"),
        "{body}"
    );
    // `example:british` alone is another system's example, never this one's.
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        "/battles",
        Some(
            json!({"first": "h:oibl:example:british", "second": "h:example:british",
                    "second_player": "gates@example.org"}),
        ),
    )
    .await;
    assert_ne!(
        res.status(),
        201,
        "a One if by Land brigade against another system's force"
    );
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        "/battles",
        Some(
            json!({"first": "h:oibl:example:british", "second": "h:oibl:example:american",
                    "second_player": "gates@example.org", "scenario": "open_field"}),
        ),
    )
    .await;
    assert_eq!(res.status(), 201);
    let battle: Value = res.json().await.unwrap();
    assert_eq!(battle["rule_system"], "oibl", "{battle}");
    assert_eq!(battle["scenario"], "open_field", "{battle}");
    let id = battle["id"].as_i64().unwrap();
    let res = api(
        &app,
        &gates_token,
        reqwest::Method::POST,
        &format!("/battles/{id}/accept"),
        Some(json!({"version": 1})),
    )
    .await;
    assert_eq!(res.status(), 200);
    let setup: Value = api(
        &app,
        &token,
        reqwest::Method::GET,
        &format!("/battles/{id}/setup"),
        None,
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(setup["format"], "muster.oibl.battle/1");
    assert_eq!(setup["turns"], 12, "B-35");
    assert_eq!(
        setup["attacker"]["roster"]["name"],
        "Example: a British brigade"
    );
    assert!(setup["seed"].is_u64(), "the seed is stored: {setup}");

    // Impossible entries are refused, each named by its path in the report.
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        &format!("/battles/{id}/record"),
        Some(json!({"version": 1, "report": {"turns": 12,
            "attacker": {"units": [{"id": "u1", "figures_lost": 19}, {"id": "u1", "guns_lost": 1}]},
            "defender": {"units": [{"id": "u9"}], "commanders": [{"id": "c1", "fate": "captured"}]}}})),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["field"], "report",
        "an unknown fate makes the report unreadable: {body}"
    );
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        &format!("/battles/{id}/record"),
        Some(json!({"version": 1, "report": {"turns": 12,
            "attacker": {"units": [{"id": "u1", "figures_lost": 19}, {"id": "u3", "guns_lost": 1}]},
            "defender": {"units": [{"id": "u9"}]}}})),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let fields: Vec<String> = body["error"]["details"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter_map(|p| p["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    for f in [
        "attacker.units[0].figures_lost",
        "attacker.units[1].guns_lost",
        "defender.units[0]",
    ] {
        assert!(fields.iter().any(|x| x == f), "{f}: {body}");
    }
    assert!(body.to_string().contains("is not a battery"), "{body}");

    // Time runs out with neither army beaten: the British lost 6 of 62 figures, the Americans
    // 10 of 62, so the British win a marginal victory (B-35).
    let res = api(
        &app,
        &token,
        reqwest::Method::POST,
        &format!("/battles/{id}/record"),
        Some(json!({"version": 1, "report": {"turns": 12,
            "attacker": {"units": [{"id": "u1", "figures_lost": 6}]},
            "defender": {"units": [{"id": "u1", "figures_lost": 8}, {"id": "u5", "figures_lost": 2}]}}})),
    )
    .await;
    assert_eq!(res.status(), 200);
    let saved: Value = res.json().await.unwrap();
    assert_eq!(saved["winner"], "attacker", "{saved}");
    assert_eq!(saved["victory_level"], "marginal", "{saved}");
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Example: a British brigade wins: a marginal victory (B-35)"),
        "{page}"
    );
    assert!(page.contains("6 of 62 figures lost (9.7 %)"), "{page}");
    assert!(
        page.contains("0 of 2 figures left · destroyed (B-33)"),
        "the American gun lost its whole crew: {page}"
    );

    // Gates disputes it.
    let res = api(
        &app,
        &gates_token,
        reqwest::Method::POST,
        &format!("/battles/{id}/dispute"),
        Some(json!({"version": saved["version"], "comment": "The militia held the ridge"})),
    )
    .await;
    assert_eq!(
        res.status(),
        200,
        "{}",
        res.text().await.unwrap_or_default()
    );
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Disputed") && page.contains("The militia held the ridge"),
        "{page}"
    );
}

/// The players' own result (a scenario's objectives, spec 5.5) stands over Muster's rule; a
/// game stopped early with nobody beaten is decided on the figures (B-63).
#[tokio::test]
async fn oibl_the_players_result_stands_and_an_early_stop_is_decided_on_the_figures() {
    let app = spawn_app().await;
    app.register("clinton@example.org", "Clinton", PASSWORD)
        .await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let res = app
            .post_form(
                "/battles?system=oibl",
                "/battles",
                &[
                    ("system", "oibl"),
                    ("first", "h:oibl:example:british"),
                    ("second", "h:oibl:example:american"),
                    ("first_player", ""),
                    ("second_player", "A Guest"),
                    ("scenario", "open_field"),
                    ("roles", "given"),
                ],
            )
            .await;
        assert_eq!(res.status(), 303);
        ids.push(
            location(&res)
                .trim_start_matches("/battles/")
                .parse::<i64>()
                .unwrap(),
        );
    }
    // The British lose more, but the Americans' objective was lost: the players say so.
    let form = app.get_html(&format!("/battles/{}/record", ids[0])).await;
    let fields: Vec<(String, String)> = vec![
        ("turns".into(), "10".into()),
        ("lost_a_u1".into(), "9".into()),
        ("result".into(), "attacker".into()),
        ("version".into(), "1".into()),
        ("csrf_token".into(), csrf_from(&form)),
    ];
    assert_eq!(post_record(&app, ids[0], &fields).await.status(), 303);
    let page = app.get_html(&format!("/battles/{}", ids[0])).await;
    assert!(
        page.contains("Example: a British brigade wins, by the players&#39; own result"),
        "{page}"
    );
    assert!(page.contains("scenario&#39;s objectives"), "{page}");

    // Stopped after 4 of 12 turns, nobody beaten, the Americans lost more.
    let form = app.get_html(&format!("/battles/{}/record", ids[1])).await;
    let fields: Vec<(String, String)> = vec![
        ("turns".into(), "4".into()),
        ("lost_d_u1".into(), "3".into()),
        ("fate_d_c1".into(), "serious_wound".into()),
        ("version".into(), "1".into()),
        ("csrf_token".into(), csrf_from(&form)),
    ];
    assert_eq!(post_record(&app, ids[1], &fields).await.status(), 303);
    let page = app.get_html(&format!("/battles/{}", ids[1])).await;
    assert!(
        page.contains("Example: a British brigade wins: a marginal victory (B-35)"),
        "{page}"
    );
    assert!(
        page.contains("The game stopped after 4 of 12 turns with neither army beaten"),
        "B-63: {page}"
    );
    assert!(page.contains("seriously wounded"), "{page}");
}

/// A stored battle fought by Muster's simulator through the system's seam: the page says who
/// won by Muster's rule and why, how every unit ended, and tells the battle as it was fought;
/// the pack still prints the sides as they were set up.
#[tokio::test]
async fn oibl_a_stored_battle_is_fought_by_the_simulator() {
    let app = spawn_app().await;
    app.register("solo@example.org", "Solo", PASSWORD).await;
    let res = app
        .post_form(
            "/battles?system=oibl",
            "/battles",
            &[
                ("system", "oibl"),
                ("first", "h:oibl:example:american"),
                ("second", "h:oibl:example:british"),
                ("first_player", ""),
                ("second_player", "A Guest"),
                ("scenario", "defended_line"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    let res = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/simulate"),
            &[("version", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("wins: a decisive victory (B-34)")
            || page.contains("wins: a marginal victory (B-35)")
            || page.contains("A draw"),
        "decided by Muster's rule: {page}"
    );
    assert_eq!(
        page.matches("units lost (routing, destroyed or off the table; beaten at 3, B-34)")
            .count(),
        2,
        "both armies' counts against B-34: {page}"
    );
    assert_eq!(
        page.matches("figures left").count(),
        10,
        "every unit's end is told: {page}"
    );
    assert!(page.contains("How it went"), "the narration: {page}");
    let pack = app.get_html(&format!("/battles/{id}/print/pack")).await;
    assert!(
        pack.contains("A Guest") && pack.contains("light cover"),
        "{pack}"
    );
}
