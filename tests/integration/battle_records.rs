//! Battles as records over HTTP: set up from two rosters, record a tabletop result, confirm it,
//! read the report; the same for a simulated battle; refusals that keep the form's input.

use std::process::Command;

use serde_json::{json, Value};

use crate::helpers::{csrf_from, location, spawn_app, TempDir, TestApp, Visitor, PASSWORD};

fn roster(name: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": "british",
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

async fn create_roster(app: &TestApp, token: &str, name: &str) -> i64 {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&roster(name))
        .send()
        .await
        .unwrap();
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// Sets up a battle through the page; returns its id.
async fn set_up(
    v: &Visitor,
    first: &str,
    second: &str,
    second_player: &str,
    scenario: &str,
) -> i64 {
    let res = v
        .post_form(
            "/battles",
            "/battles",
            &[
                ("first", first),
                ("second", second),
                ("first_player", ""),
                ("second_player", second_player),
                ("scenario", scenario),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "battle set up");
    location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap()
}

/// The record form's fields for a result where the defender lost two medium infantry.
fn record_fields(page: &str, defender_losses: usize) -> Vec<(String, String)> {
    let mut fields = vec![("turns".to_string(), "6".to_string())];
    let mut lost = 0;
    for (i, _) in page.match_indices("name=\"state_") {
        let rest = &page[i + "name=\"".len()..];
        let key = &rest[..rest.find('"').unwrap()];
        let state = if key.starts_with("state_d_") && lost < defender_losses {
            lost += 1;
            "shattered"
        } else {
            "fit"
        };
        fields.push((key.to_string(), state.to_string()));
    }
    fields.push(("version".into(), "1".into()));
    fields.push(("csrf_token".into(), csrf_from(page)));
    fields
}

#[tokio::test]
async fn record_a_tabletop_result_have_it_confirmed_and_read_the_report() {
    let app = spawn_app().await;
    app.register("howe@example.org", "Howe", PASSWORD).await;
    let token = app.api_token("howe@example.org", PASSWORD).await;
    let (a, d) = (
        create_roster(&app, &token, "Crown").await,
        create_roster(&app, &token, "Congress").await,
    );
    let washington = app.other_visitor();
    washington
        .register("washington@example.org", "Washington", PASSWORD)
        .await;

    let id = set_up(
        &app,
        &format!("r:{a}"),
        &format!("r:{d}"),
        "washington@example.org",
        "reconnoiter",
    )
    .await;
    crate::helpers::accept_invitation(&washington, id).await;
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Set up, not fought yet") && page.contains("rolled"),
        "ratings were rolled: {page}"
    );
    assert!(page.contains("Washington"), "the opponent is named");

    // An impossible entry: nine turns. The form comes back with what was typed.
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    // The form says beforehand that a broken force concedes (M-26, issue 18).
    assert!(
        form.contains("more broken groups than unbroken ones concedes"),
        "{form}"
    );
    assert!(
        form.contains(r#"<span class="muted">(Medium)</span>"#),
        "each element shows its size, so elements of one name can be told apart: {form}"
    );
    let mut fields = record_fields(&form, 2);
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
    assert!(html.contains("1 to 6 turns"), "{html}");
    assert!(html.contains("value=\"9\""), "the typed turns are kept");
    assert_eq!(
        html.matches("<option value=\"shattered\" selected>")
            .count(),
        2,
        "the typed states are kept"
    );

    // Every problem at once: an unreadable hit count and nine turns together; turns that are
    // no number are asked for in the form's own range.
    let hits_key = fields
        .iter()
        .find(|(k, _)| k.starts_with("state_a_"))
        .map(|(k, _)| k.replacen("state_", "hits_", 1))
        .expect("an attacker element");
    for (turns, said) in [
        ("9", "1 to 6 turns"),
        ("abc", "The number of turns is a whole number from 1 to 6."),
    ] {
        let mut both = fields.clone();
        both[0].1 = turns.into();
        both.push((hits_key.clone(), "-1".into()));
        let res = app
            .client
            .post(app.url(&format!("/battles/{id}/record")))
            .form(&both)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 422);
        let html = res.text().await.unwrap();
        assert!(
            html.contains("hits are a whole number from 0") && html.contains(said),
            "turns {turns}: both problems are named"
        );
    }

    // The real result: the defender lost 50 of 150 points = 33 % → Major Victory (R-21).
    fields[0].1 = "6".into();
    // Checking first shows the arithmetic and saves nothing.
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
            && html.contains("Crown would win — ")
            && html.contains("Major Victory 6:2"),
        "{html}"
    );
    assert!(
        !html.contains("2:6"),
        "the score is given once, the winner's first"
    );
    assert!(
        app.get_html(&format!("/battles/{id}"))
            .await
            .contains("Set up, not fought yet"),
        "nothing saved by the check"
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
    assert!(page.contains("waiting for the other player"));
    assert!(page.contains("Crown wins: 6 victory points to 2"), "{page}");
    assert!(page.contains("33.3 %"), "the arithmetic is shown");
    assert!(
        !page.contains("Confirm the result"),
        "the recorder cannot confirm their own result"
    );

    let home = washington.get_html("/").await;
    assert!(
        home.contains("Waiting for you") && home.contains(&format!("/battles/{id}")),
        "the opponent is told"
    );
    // Issue 18: the opponent reads that the result waits for them, not for "the other player".
    assert!(
        home.contains("waiting for you to confirm or dispute it")
            && !home.contains("waiting for the other player"),
        "{home}"
    );
    let theirs = washington.get_html(&format!("/battles/{id}")).await;
    assert!(
        theirs.contains("waiting for you to confirm or dispute it")
            && !theirs.contains("waiting for the other player"),
        "the opponent's battle page"
    );
    let res = washington
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/confirm"),
            &[("version", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = washington.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Confirmed") && page.contains("Shattered"));
    assert!(washington
        .get_html("/")
        .await
        .contains("Nothing waits for you"));

    // A confirmed result cannot be recorded again.
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        409,
        "a decided battle shows the recorder its page, saying the result was not saved"
    );
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("so the one you sent was not saved"));
    assert!(
        app.get_html(&format!("/battles/{id}"))
            .await
            .contains("Confirmed"),
        "and changes nothing"
    );
    // The roster lists the battle it fought.
    assert!(app
        .get_html(&format!("/rosters/{a}"))
        .await
        .contains(&format!("/battles/{id}")));
    // The record counts it.
    assert!(app
        .get_html("/battles")
        .await
        .contains("<strong>1</strong> won"));
    assert!(washington
        .get_html("/battles")
        .await
        .contains("<strong>1</strong> lost"));

    // A stranger sees nothing until a player makes the report public.
    let stranger = app.other_visitor();
    stranger
        .register("stranger@example.org", "Stranger", PASSWORD)
        .await;
    assert_eq!(stranger.get(&format!("/battles/{id}")).await.status(), 404);
    washington
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/publish"),
            &[],
        )
        .await;
    let page = washington.get_html(&format!("/battles/{id}")).await;
    let start = page.find("/battles/public/").expect("public link");
    let path = &page[start..start + page[start..].find('"').unwrap()];
    let anyone = app.other_visitor();
    assert!(anyone.get_html(path).await.contains("Crown wins"));
}

#[tokio::test]
async fn a_disputed_result_can_be_corrected_as_a_new_version() {
    let app = spawn_app().await;
    app.register("a@example.org", "A", PASSWORD).await;
    let token = app.api_token("a@example.org", PASSWORD).await;
    let (r1, r2) = (
        create_roster(&app, &token, "Blue").await,
        create_roster(&app, &token, "Buff").await,
    );
    let b = app.other_visitor();
    b.register("b@example.org", "B", PASSWORD).await;
    let id = set_up(
        &app,
        &format!("r:{r1}"),
        &format!("r:{r2}"),
        "b@example.org",
        "ambush",
    )
    .await;
    crate::helpers::accept_invitation(&b, id).await;
    // The list names the scenario as the book does, not by its id (issue 18).
    let list = app.get_html("/battles").await;
    assert!(list.contains("<td>Ambush</td>"), "{list}");
    // Accept again (a double click): the battle page, saying why, not an error page.
    let again = b
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/accept"),
            &[("version", "1")],
        )
        .await;
    assert_eq!(again.status(), 409);
    let again = again.text().await.unwrap();
    assert!(
        again.contains("no invitation waiting for an answer") && again.contains("battle-report"),
        "{again}"
    );
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    let fields = record_fields(&form, 1);
    app.client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    // The same form sent again (from the browser's history) saves nothing, and says so.
    let resent = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(resent.status(), 409);
    assert!(resent
        .text()
        .await
        .unwrap()
        .contains("already has a result, shown below, so the one you sent was not saved"));
    // A dispute needs a reason: a blank one keeps the player on the battle page with the message.
    let blank = b
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/dispute"),
            &[("version", "2"), ("comment", "   ")],
        )
        .await;
    assert_eq!(blank.status(), 422);
    let blank = blank.text().await.unwrap();
    assert!(
        blank.contains("Nothing was disputed: say what is wrong with the result")
            && !blank.contains("cannot be set up")
            && blank.contains("action=\"/battles/"),
        "{blank}"
    );
    let res = b
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/dispute"),
            &[("version", "2"), ("comment", "My 4th was only Shaken")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Disputed") && page.contains("My 4th was only Shaken"));
    let res = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/correct"),
            &[("version", "3")],
        )
        .await;
    let new_id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .trim_end_matches("/record")
        .parse()
        .unwrap();
    assert_ne!(new_id, id);
    assert!(
        app.get_html(&format!("/battles/{id}"))
            .await
            .contains("Disputed"),
        "the old result stands until the correction is confirmed"
    );
    assert!(app
        .get_html(&format!("/battles/{new_id}"))
        .await
        .contains(&format!(
            "This corrects <a href=\"/battles/{id}\">battle {id}</a>: that result stands until \
             this one is confirmed"
        )));
    // The correction's form starts from the result it corrects (issue 18): the one defender
    // element recorded Shattered is Shattered again, the rest Fit.
    let correction = app.get_html(&format!("/battles/{new_id}/record")).await;
    assert_eq!(
        correction
            .matches("<option value=\"shattered\" selected>")
            .count(),
        1,
        "{correction}"
    );
    let shattered = fields
        .iter()
        .find(|(_, v)| v == "shattered")
        .map(|(k, _)| k.clone())
        .expect("one element recorded shattered");
    let at = correction
        .find(&format!("name=\"{shattered}\""))
        .expect("its select");
    assert!(correction[at..]
        .split("</select>")
        .next()
        .unwrap()
        .contains("value=\"shattered\" selected"));
    let again = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/correct"),
            &[("version", "3")],
        )
        .await;
    assert_eq!(again.status(), 409, "one correction at a time");
    let sim = app
        .post_form(
            &format!("/battles/{new_id}"),
            &format!("/battles/{new_id}/simulate"),
            &[("version", "1")],
        )
        .await;
    assert_eq!(
        sim.status(),
        409,
        "a correction cannot be handed to the simulator"
    );

    let form = app.get_html(&format!("/battles/{new_id}/record")).await;
    app.client
        .post(app.url(&format!("/battles/{new_id}/record")))
        .form(&record_fields(&form, 0))
        .send()
        .await
        .unwrap();
    let res = b
        .post_form(
            &format!("/battles/{new_id}"),
            &format!("/battles/{new_id}/confirm"),
            &[("version", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert!(
        app.get_html(&format!("/battles/{id}"))
            .await
            .contains("Voided"),
        "the confirmed correction voids the old version, which stays visible"
    );
    assert!(app
        .get_html(&format!("/battles/{new_id}"))
        .await
        .contains("Confirmed"));
}

#[tokio::test]
async fn against_a_guest_the_recorded_result_stands_as_single_party() {
    let app = spawn_app().await;
    app.register("solo@example.org", "Solo", PASSWORD).await;
    let token = app.api_token("solo@example.org", PASSWORD).await;
    let r = create_roster(&app, &token, "Mine").await;
    let id = set_up(&app, &format!("r:{r}"), "h:cowpens:1:0", "Uncle Bob", "").await;
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Uncle Bob (guest)") && page.contains("Scenario: 2d6 rolled"),
        "{page}"
    );
    let form = app.get_html(&format!("/battles/{id}/record")).await;
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&record_fields(&form, 0))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Confirmed") && page.contains("single-party"));
    assert!(
        !page.contains("Delete this battle"),
        "a recorded battle stays in the record"
    );
    let kept = app
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/withdraw"),
            &[],
        )
        .await;
    assert_eq!(kept.status(), 409);

    // One set up twice by mistake, against a guest and not fought, can be deleted by its player.
    let twice = set_up(&app, &format!("r:{r}"), "h:cowpens:1:0", "Uncle Bob", "").await;
    let page = app.get_html(&format!("/battles/{twice}")).await;
    assert!(
        page.contains("Delete this battle (it has not been fought)"),
        "{page}"
    );
    let gone = app
        .post_form(
            &format!("/battles/{twice}"),
            &format!("/battles/{twice}/withdraw"),
            &[],
        )
        .await;
    assert_eq!(gone.status(), 303);
    assert_eq!(app.get(&format!("/battles/{twice}")).await.status(), 404);
}

#[tokio::test]
async fn a_simulated_battle_reads_the_same_every_time_and_its_set_up_replays_it() {
    let app = spawn_app().await;
    app.register("sim@example.org", "Sim", PASSWORD).await;
    let token = app.api_token("sim@example.org", PASSWORD).await;
    let api = reqwest::Client::new();
    let (a, d) = (
        create_roster(&app, &token, "Red").await,
        create_roster(&app, &token, "Green").await,
    );
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(&token)
        .json(&json!({"first": format!("r:{a}"), "second": format!("r:{d}"), "second_player": "Guest Gus", "scenario": "take_the_field"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let battle: Value = res.json().await.unwrap();
    let id = battle["id"].as_i64().unwrap();
    let res = api
        .post(app.url(&format!("/api/v1/battles/{id}/simulate")))
        .bearer_auth(&token)
        .json(&json!({"version": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let fought: Value = res.json().await.unwrap();
    assert_eq!(fought["status"], "confirmed");
    let first = app.get_html(&format!("/battles/{id}")).await;
    let second = app.get_html(&format!("/battles/{id}")).await;
    let strip = |h: &str| h[h.find("<article").unwrap()..h.find("</article>").unwrap()].to_string();
    assert_eq!(
        strip(&first),
        strip(&second),
        "the report is stored, not fought again"
    );
    assert!(first.contains("How it went") && first.contains("Turn 1"));

    let setup = api
        .get(app.url(&format!("/api/v1/battles/{id}/setup")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let dir = TempDir::new("battle");
    let path = dir.0.join("setup.json");
    std::fs::write(&path, &setup).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["simulate", "--json", "--setup"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replay: Value = serde_json::from_slice(&out.stdout).unwrap();
    let stored = &fought["result"]["outcome"];
    for key in [
        "winner",
        "victory_level",
        "attacker_vp",
        "defender_vp",
        "attacker_points_lost",
        "defender_points_lost",
        "elements",
        "commanders",
    ] {
        assert_eq!(
            replay[key], stored[key],
            "{key}: the exported set-up reproduces the battle"
        );
    }
    assert_eq!(
        api.post(app.url(&format!("/api/v1/battles/{id}/simulate")))
            .bearer_auth(&token)
            .json(&json!({"version": 2}))
            .send()
            .await
            .unwrap()
            .status(),
        409
    );
}

#[tokio::test]
async fn only_the_players_may_act_on_a_battle() {
    let app = spawn_app().await;
    app.register("p1@example.org", "P1", PASSWORD).await;
    let token = app.api_token("p1@example.org", PASSWORD).await;
    let r = create_roster(&app, &token, "Mine").await;
    let id = set_up(
        &app,
        &format!("r:{r}"),
        "h:cowpens:1:0",
        "A guest",
        "reconnoiter",
    )
    .await;
    let other = app.other_visitor();
    other.register("p3@example.org", "P3", PASSWORD).await;
    for path in ["", "/record"] {
        assert_eq!(
            other.get(&format!("/battles/{id}{path}")).await.status(),
            404
        );
    }
    for action in [
        "simulate", "record", "confirm", "dispute", "correct", "publish",
    ] {
        let token = csrf_from(&other.get_html("/battles").await);
        let res = other
            .client
            .post(other.url(&format!("/battles/{id}/{action}")))
            .form(&[("csrf_token", token.as_str()), ("version", "1")])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{action}");
    }
    let anon = app.other_visitor();
    assert_eq!(anon.get(&format!("/battles/{id}")).await.status(), 303);
    let other_token = app.api_token("p3@example.org", PASSWORD).await;
    let res = reqwest::Client::new()
        .get(app.url(&format!("/api/v1/battles/{id}")))
        .bearer_auth(&other_token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    // You must play in a battle you set up.
    let res = app
        .post_form(
            "/battles",
            "/battles",
            &[
                ("first", &format!("r:{r}")),
                ("second", "h:cowpens:1:0"),
                ("first_player", "Guest One"),
                ("second_player", "Guest Two"),
                ("scenario", "reconnoiter"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("You must play one of the sides"));
}

/// Sets up a battle of two of the token's rosters against a guest over the API; returns its id.
async fn set_up_against_guest(app: &TestApp, token: &str, first: i64, second: i64) -> i64 {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/battles"))
        .bearer_auth(token)
        .json(
            &json!({"first": format!("r:{first}"), "second": format!("r:{second}"),
                      "second_player": "Guest Gus", "scenario": "take_the_field"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "battle set up");
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// A page's table, where the list is (the invitations above it name battles too).
fn table(html: &str) -> &str {
    let start = html.find("<table").expect("a table");
    &html[start..start + html[start..].find("</table>").expect("the table's end")]
}

/// The rows of a page's table (its header row left out).
fn table_rows(html: &str) -> usize {
    html.matches("<tr>").count().saturating_sub(1)
}

/// The address the page's `rel` link (`next` or `prev`) leads to, as the HTML has it.
fn rel_link(html: &str, rel: &str) -> Option<String> {
    let marker = format!("rel=\"{rel}\" href=\"");
    let rest = &html[html.find(&marker)? + marker.len()..];
    Some(
        rest[..rest.find('"')?]
            .replace("&#38;", "&")
            .replace("&amp;", "&"),
    )
}

#[tokio::test]
async fn the_battle_list_pages_searches_and_sorts_and_its_record_and_invitations_count_every_battle(
) {
    let app = spawn_app().await;
    app.register("many@example.org", "Many", PASSWORD).await;
    let token = app.api_token("many@example.org", PASSWORD).await;

    // The oldest battle: another player invites Many. It ends up on the last page.
    let clinton = app.other_visitor();
    clinton
        .register("clinton@example.org", "Clinton", PASSWORD)
        .await;
    let clinton_token = app.api_token("clinton@example.org", PASSWORD).await;
    let (redcoats, loyalists) = (
        create_roster(&app, &clinton_token, "Redcoats").await,
        create_roster(&app, &clinton_token, "Loyalists").await,
    );
    let invited = set_up(
        &clinton,
        &format!("r:{redcoats}"),
        &format!("r:{loyalists}"),
        "many@example.org",
        "reconnoiter",
    )
    .await;

    // Three battles the simulator decides, then 50 more: the decided ones end up on page 2.
    let line = create_roster(&app, &token, "Line").await;
    let brandywine = create_roster(&app, &token, "Brandywine Rangers").await;
    let wildcards = create_roster(&app, &token, "50%_Off").await;
    let foes = create_roster(&app, &token, "Foes").await;
    let api = reqwest::Client::new();
    let mut decided = Vec::new();
    for _ in 0..3 {
        let id = set_up_against_guest(&app, &token, line, foes).await;
        let res = api
            .post(app.url(&format!("/api/v1/battles/{id}/simulate")))
            .bearer_auth(&token)
            .json(&json!({"version": 1}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        decided.push(res.json::<Value>().await.unwrap());
    }
    set_up_against_guest(&app, &token, brandywine, foes).await;
    set_up_against_guest(&app, &token, wildcards, foes).await;
    for _ in 0..48 {
        set_up_against_guest(&app, &token, line, foes).await;
    }
    // Many set each battle up with the first force, which attacks.
    let count = |winner: &str| decided.iter().filter(|b| b["winner"] == winner).count();
    assert_eq!(count("attacker") + count("tie") + count("defender"), 3);
    let record = format!(
        "Your record: <strong>{}</strong> won, <strong>{}</strong> drawn, <strong>{}</strong> lost",
        count("attacker"),
        count("tie"),
        count("defender")
    );

    let first = app.get_html("/battles").await;
    assert!(first.contains("54 battles, page 1 of 2"), "{first}");
    assert_eq!(table_rows(&first), 50);
    assert_eq!(rel_link(&first, "next").as_deref(), Some("/battles?page=2"));
    assert!(rel_link(&first, "prev").is_none());
    assert!(
        !first.contains(" wins ") && !first.contains("Tie "),
        "no decided battle is on the first page"
    );
    assert!(
        first.contains(&record),
        "the record counts the battles on page 2: {record}\n{first}"
    );
    // The invitation, on page 2 of the list, still waits at the top of page 1.
    assert!(first.contains("Clinton invites you to a battle"));
    assert!(first.contains(&format!("action=\"/battles/{invited}/accept\"")));
    assert!(first.contains(&format!("action=\"/battles/{invited}/decline\"")));
    // Newest first: the last one set up leads, Brandywine is further down.
    let at = |html: &str, text: &str| html.find(text).unwrap_or_else(|| panic!("{text}"));
    assert!(at(&first, "Line against Foes") < at(&first, "Brandywine Rangers against Foes"));

    let second = app.get_html("/battles?page=2").await;
    assert_eq!(table_rows(&second), 4);
    assert!(second.contains("54 battles, page 2 of 2"));
    assert_eq!(rel_link(&second, "prev").as_deref(), Some("/battles"));
    assert!(second.contains(&record), "the same record on every page");
    assert!(second.contains("Clinton invites you to a battle"));
    assert!(table(&second).contains("Redcoats against Loyalists"));
    assert!(second.contains("Invitation: waiting for your answer"));
    assert_eq!(
        second.matches("Confirmed").count(),
        3,
        "the decided battles are here"
    );

    // The home page finds the invitation too.
    assert!(app
        .get_html("/")
        .await
        .contains("Clinton invites you to a battle"));

    // A search finds part of a title in any case, and keeps its text in the box.
    let found = app.get_html("/battles?q=bRANDY").await;
    assert!(found.contains("1 battle found<"), "{found}");
    assert_eq!(table_rows(&found), 1);
    assert!(found.contains("Brandywine Rangers against Foes"));
    assert!(found.contains("value=\"bRANDY\""));
    assert!(found.contains(&record), "the record is never searched");
    // `%` and `_` are characters, not wildcards.
    for wildcard in ["%25", "_", "0%25_o"] {
        let found = app.get_html(&format!("/battles?q={wildcard}")).await;
        assert_eq!(table_rows(&found), 1, "{wildcard}");
        assert!(found.contains("50%_Off against Foes"), "{wildcard}");
    }
    let none = app.get_html("/battles?q=%25%25").await;
    assert!(
        none.contains("No battles whose title contains “%%”"),
        "{none}"
    );

    // By title: A to Z, and the pages keep the order.
    let by_title = app.get_html("/battles?sort=title").await;
    assert!(by_title.contains("aria-sort=\"ascending\""));
    assert!(at(&by_title, "50%_Off against Foes") < at(&by_title, "Brandywine Rangers"));
    assert!(at(&by_title, "Brandywine Rangers") < at(&by_title, "Line against Foes"));
    assert!(
        !table(&by_title).contains("Redcoats against Loyalists"),
        "last, on page 2"
    );
    assert_eq!(
        rel_link(&by_title, "next").as_deref(),
        Some("/battles?sort=title&page=2")
    );
    let searched_title = app.get_html("/battles?q=foes&sort=title&page=2").await;
    assert_eq!(
        rel_link(&searched_title, "prev").as_deref(),
        Some("/battles?q=foes&sort=title"),
        "the search and order are kept from page to page"
    );

    // Bad numbers and sorts are the first page in the list's own order, never an error.
    for query in ["page=x", "page=0", "page=-1", "sort=setup", "page=1e3"] {
        let res = app.get(&format!("/battles?{query}")).await;
        assert_eq!(res.status(), 200, "{query}");
        let html = res.text().await.unwrap();
        assert!(html.contains("page 1 of 2"), "{query}");
        assert!(
            at(&html, "Line against Foes") < at(&html, "Brandywine"),
            "{query}"
        );
    }
    let past = app.get_html("/battles?page=9").await;
    assert!(past.contains("There is no page 9: the list has 2 pages."));
    assert!(past.contains("54 battles<"), "not 'page 9 of 2': {past}");
    assert_eq!(rel_link(&past, "prev").as_deref(), Some("/battles?page=2"));

    // A set-up refused comes back with the list as it was, the search kept.
    let res = app
        .post_form(
            "/battles",
            "/battles?q=brandy",
            &[("first", ""), ("second", ""), ("scenario", "reconnoiter")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let refused = res.text().await.unwrap();
    assert!(refused.contains("role=\"alert\""), "{refused}");
    assert!(refused.contains("1 battle found<") && refused.contains("value=\"brandy\""));
    assert!(
        refused.contains("action=\"/battles?q=brandy\""),
        "{refused}"
    );
}
