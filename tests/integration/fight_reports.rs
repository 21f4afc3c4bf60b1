//! Issue 18: fight reports that look finished, in both rule systems. The narration is one
//! `<details>` per turn played, each with a one-line summary and a diagram of the table at the
//! turn's end whose markers are the elements (units) then on the table; the two sides carry
//! their own colour and mark through headings, tables, chart and diagrams; a stored outcome
//! from before the diagrams existed still reads; and the turns print expanded without the script.

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{spawn_app, TestApp, PASSWORD};
use crate::lod_battles::lod_roster;

/// Each turn's `<details>` of a report, in order.
fn turn_sections(html: &str) -> Vec<&str> {
    html.match_indices("<details class=\"turn\"")
        .map(|(i, _)| {
            let rest = &html[i..];
            &rest[..rest.find("</details>").expect("a turn's end")]
        })
        .collect()
}

fn markers(section: &str, side: &str) -> usize {
    section
        .matches(&format!("class=\"marker marker-{side}"))
        .count()
}

/// The section of one side's table(s), by its side class.
fn side_section<'a>(html: &'a str, side: &str) -> &'a str {
    let start = html
        .find(&format!("<section class=\"side side-{side}\""))
        .unwrap_or_else(|| panic!("no {side} section with its side class"));
    let rest = &html[start..];
    &rest[..rest.find("</section>").expect("the section's end")]
}

/// The cells of each body row of the first table after `header` in `html`.
fn rows_after<'a>(html: &'a str, header: &str) -> Vec<Vec<&'a str>> {
    let start = html.find(header).unwrap_or_else(|| panic!("no {header}"));
    let table = &html[start..];
    let table = &table[..table.find("</table>").expect("the table's end")];
    let body = &table[table.find("<tbody>").expect("a body")..];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let cell = &cell[cell.find('>').expect("cell") + 1..];
                    &cell[..cell.find("</td>").expect("cell end")]
                })
                .collect()
        })
        .collect()
}

/// The turns played, as a report's subtitle tells them ("· 4 turns ·").
fn turns_in_subtitle(html: &str) -> usize {
    let sub = &html[html.find("class=\"subtitle\"").expect("a subtitle")..];
    let sub = &sub[..sub.find("</p>").expect("its end")];
    let words: Vec<&str> = sub.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.starts_with("turn"))
        .expect("the turns");
    words[at - 1].parse().expect("a number of turns")
}

/// Every turn has its summary and a diagram; the last diagram shows exactly as many markers per
/// side as the side's table says are still on the table.
fn check_turns(html: &str, turns_played: usize, standing: [usize; 2], what: &str) {
    let turns = turn_sections(html);
    assert_eq!(turns.len(), turns_played, "{what}: one <details> per turn");
    assert!(turns_played > 0, "{what}: a battle of no turns");
    for (i, t) in turns.iter().enumerate() {
        assert!(t.contains(&format!("Turn {}", i + 1)), "{what}: {t}");
        assert!(
            t.contains("class=\"turn-summary\""),
            "{what}: a summary: {t}"
        );
        assert!(
            t.contains("<svg") && t.contains("turn-diagram"),
            "{what}: a diagram: {t}"
        );
        assert!(
            markers(t, "attacker") + markers(t, "defender") > 0,
            "{what}: turn {} shows no one",
            i + 1
        );
    }
    let last = turns.last().expect("a last turn");
    assert_eq!(
        [markers(last, "attacker"), markers(last, "defender")],
        standing,
        "{what}: the last turn's diagram against the sides' tables"
    );
}

/// Both sides' tables carry their side's class, the legend names both, and the narration and
/// summaries mark lines by side.
fn check_sides(html: &str, what: &str) {
    for side in ["attacker", "defender"] {
        let section = side_section(html, side);
        assert!(section.contains("<table"), "{what}: the {side}'s table");
        assert!(
            section.contains(&format!("side-mark side-{side}")),
            "{what}: the {side}'s heading has its mark"
        );
        assert!(
            html.contains(&format!("<span class=\"side-key side-{side}\">")),
            "{what}: the legend names the {side}"
        );
        assert!(
            html.contains(&format!("class=\"side-line side-{side}\"")),
            "{what}: narration lines about the {side} in its colour"
        );
    }
}

async fn sign_up(app: &TestApp, email: &str) {
    let res = app.register(email, "Reporter", PASSWORD).await;
    assert_eq!(res.status(), 303, "registered");
}

#[tokio::test]
async fn land_of_the_free_reports_show_a_turn_each_with_its_diagram_in_the_sides_colours() {
    let app = spawn_app().await;
    sign_up(&app, "lotf-reports@example.org").await;
    let url = "/lotf/fight/battle?attacker=h:cowpens:0:0&defender=h:cowpens:1:0&scenario=take_the_field&seed=7";
    let html = app.get_html(url).await;
    let standing = |side: &str| {
        rows_after(side_section(&html, side), "<thead>")
            .iter()
            .filter(|cells| {
                let state = cells.last().copied().unwrap_or_default();
                !["removed", "left the field", "never arrived"].contains(&state)
            })
            .count()
    };
    check_turns(
        &html,
        turns_in_subtitle(&html),
        [standing("attacker"), standing("defender")],
        "lotf fight",
    );
    check_sides(&html, "lotf fight");
    assert!(
        html.contains("class=\"bar side-attacker\"")
            && html.contains("class=\"bar side-defender\""),
        "the chart's bars in the sides' colours"
    );
    assert!(
        turn_sections(&html)[0].contains("points"),
        "a turn's summary tells the points lost"
    );
}

#[tokio::test]
async fn liberty_or_death_reports_show_a_turn_each_with_its_diagram_in_the_sides_colours() {
    let app = spawn_app().await;
    sign_up(&app, "lod-reports@example.org").await;
    let html = app
        .get_html("/lod/fight/battle?attacker=x:0&defender=x:1&seed=7")
        .await;
    let standing = |side: &str| {
        rows_after(side_section(&html, side), "<thead>")
            .iter()
            .filter(|cells| {
                let state = cells.get(1).copied().unwrap_or_default();
                state != "BROKEN" && state != "routed off the table"
            })
            .count()
    };
    check_turns(
        &html,
        turns_in_subtitle(&html),
        [standing("attacker"), standing("defender")],
        "lod fight",
    );
    check_sides(&html, "lod fight");
    assert!(
        turn_sections(&html)[0].contains("unit"),
        "a turn's summary tells the units lost"
    );
}

/// A battle set up against a guest and fought by Muster; returns its id and stored result.
async fn fought(
    app: &TestApp,
    token: &str,
    first: &str,
    second: &str,
    scenario: &str,
) -> (i64, Value) {
    let api = reqwest::Client::new();
    let mut body = json!({"first": first, "second": second, "second_player": "Guest Gus"});
    if !scenario.is_empty() {
        body["scenario"] = json!(scenario);
    }
    let res = api
        .post(app.url("/api/v1/battles"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "set up");
    let id = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let res = api
        .post(app.url(&format!("/api/v1/battles/{id}/simulate")))
        .bearer_auth(token)
        .json(&json!({"version": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "fought");
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let row = muster::store::battles::find(&mut conn, id)
        .unwrap()
        .expect("the battle");
    let result: Value = serde_json::from_str(row.result.as_deref().expect("a result")).unwrap();
    (id, result)
}

/// The stored result without the positions, as outcomes were stored before them.
fn store_without_positions(app: &TestApp, id: i64, mut result: Value) {
    use diesel::prelude::*;
    use muster::store::schema::battles;
    // Land of the Free keeps its outcome under "outcome"; Liberty or Death! is the outcome.
    if let Some(o) = result.as_object_mut() {
        o.remove("positions");
    }
    if let Some(o) = result.get_mut("outcome").and_then(Value::as_object_mut) {
        o.remove("positions");
    }
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    diesel::update(battles::table.find(id))
        .set(battles::result.eq(Some(result.to_string())))
        .execute(&mut *conn)
        .unwrap();
}

#[tokio::test]
async fn a_stored_battle_reads_by_turn_with_diagrams_and_one_stored_before_them_still_reads() {
    let app = spawn_app().await;
    let token = app.api_user("stored-reports@example.org").await;
    app.login("stored-reports@example.org", PASSWORD).await;

    // Land of the Free: the outcome sits under "outcome", elements keyed `side:id`.
    let (id, result) = fought(
        &app,
        &token,
        "h:cowpens:0:0",
        "h:cowpens:1:0",
        "take_the_field",
    )
    .await;
    let outcome = &result["outcome"];
    assert!(
        outcome["positions"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "a stored battle keeps the positions: {outcome}"
    );
    let standing = |side: &str| {
        outcome["elements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["side"] == side && e["removed"] == false && e["never_arrived"] == false)
            .count()
    };
    let turns = outcome["turns_played"].as_u64().unwrap() as usize;
    let page = app.get_html(&format!("/battles/{id}")).await;
    check_turns(
        &page,
        turns,
        [standing("attacker"), standing("defender")],
        "lotf stored",
    );
    check_sides(&page, "lotf stored");

    store_without_positions(&app, id, result.clone());
    let res = app.get(&format!("/battles/{id}")).await;
    assert_eq!(res.status(), 200, "an old outcome still renders");
    let old = res.text().await.unwrap();
    let sections = turn_sections(&old);
    assert_eq!(sections.len(), turns, "still one <details> per turn");
    assert!(
        !old.contains("turn-diagram"),
        "no diagram without positions"
    );
    assert!(
        sections.iter().all(|t| t.contains("turn-summary")),
        "the summaries come from the points by turn, which old outcomes have"
    );

    // Liberty or Death!: the outcome is the result itself, units by side.
    let lod = lod_roster(
        &app,
        "stored-reports@example.org",
        &json!({"format": "muster.lod.roster/1", "name": "Continentals", "army_list": "continental",
                "c_in_c": {"name": "Greene"},
                "brigades": [{"name": "Maryland Brigade", "general": {"name": "Smallwood"},
                  "units": [{"name": "1st Maryland", "entry": "continental_regiment", "bases": 4},
                            {"name": "2nd Maryland", "entry": "continental_regiment", "bases": 4},
                            {"name": "Virginia Militia", "entry": "militia_regiment", "bases": 5}]}]}),
    );
    let (id, result) = fought(&app, &token, &format!("r:{lod}"), "h:example:british", "").await;
    assert!(
        result["positions"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "a stored battle keeps the positions: {result}"
    );
    let standing = |side: &str| {
        result[side]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["end"] != "broken" && u["end"] != "routed_off")
            .count()
    };
    let turns = result["turns_played"].as_u64().unwrap() as usize;
    let page = app.get_html(&format!("/battles/{id}")).await;
    check_turns(
        &page,
        turns,
        [standing("attacker"), standing("defender")],
        "lod stored",
    );
    check_sides(&page, "lod stored");

    store_without_positions(&app, id, result);
    let res = app.get(&format!("/battles/{id}")).await;
    assert_eq!(res.status(), 200, "an old outcome still renders");
    let old = res.text().await.unwrap();
    assert_eq!(
        turn_sections(&old).len(),
        turns,
        "still one <details> per turn"
    );
    assert!(
        !old.contains("turn-diagram"),
        "no diagram without positions"
    );
}

#[tokio::test]
async fn unnamed_groups_read_group_2_in_the_report_as_everywhere_else() {
    let app = spawn_app().await;
    let token = app.api_user("groups@example.org").await;
    app.login("groups@example.org", PASSWORD).await;
    // Two forces of unnamed groups: the engine calls them "group 1", "group 2"…
    let force = |name: &str, nation: &str| {
        let groups: Vec<Value> = (0..3)
            .map(|_| {
                json!({"commander": {"name": ""},
                       "elements": (0..3).map(|_| json!({"type": "infantry", "size": "small"})).collect::<Vec<_>>()})
            })
            .collect();
        json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
               "nation": nation, "points_limit": 300, "groups": groups})
    };
    let mut ids = Vec::new();
    for (name, nation) in [("Redcoats", "british"), ("Bluecoats", "american")] {
        let res = reqwest::Client::new()
            .post(app.url("/api/v1/rosters"))
            .bearer_auth(&token)
            .json(&force(name, nation))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "roster stored");
        ids.push(res.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
    }
    // With these dice the attacker's second group breaks, which the engine tells as "The
    // attacker group 2 is broken."; its commander falls too.
    let page = app
        .get_html(&format!(
            "/lotf/fight/battle?attacker=r:{}&defender=r:{}&scenario=take_the_field&seed=2",
            ids[0], ids[1]
        ))
        .await;
    let told = &page[page.find("How it went").expect("the narration")..];
    assert!(
        told.contains("The attacker Group 2 is broken."),
        "the narration as Muster writes it: {told}"
    );
    assert!(
        page.contains("(Group 2, "),
        "the fallen commander's post: {page}"
    );
    assert!(
        !page.contains("group 2"),
        "never \"group 2\" on the page: {page}"
    );
}

/// Pixels the page scrolls sideways beyond its window.
async fn overflow(b: &Browser) -> f64 {
    b.client
        .execute(
            "const r = document.documentElement; return r.scrollWidth - r.clientWidth;",
            vec![],
        )
        .await
        .expect("measure")
        .as_f64()
        .unwrap_or(0.0)
}

async fn log_in(b: &Browser, app: &TestApp, email: &str) {
    b.open(&app.url("/login")).await;
    b.fill("#email", email).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_expand_all_at_once_fit_a_phone_and_print_expanded_without_the_script() {
    let app = spawn_app().await;
    if app.db.is_postgres() {
        return;
    }
    let email = "browser-reports@example.org";
    app.api_user(email).await;
    let reports = [
        "/lotf/fight/battle?attacker=h:cowpens:0:0&defender=h:cowpens:1:0&scenario=take_the_field&seed=7",
        "/lod/fight/battle?attacker=x:0&defender=x:1&seed=7",
    ];
    let shots = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/browser-shots/fight-reports");
    std::fs::create_dir_all(&shots).expect("screenshot directory");

    // With the script, at a phone's width: one button opens every turn, and the page, diagrams
    // and all, stays within the phone.
    let Some(b) = Browser::start_phone("fight reports on a phone", 390).await else {
        return;
    };
    log_in(&b, &app, email).await;
    for (n, url) in reports.iter().enumerate() {
        b.open(&app.url(url)).await;
        let closed = b
            .client
            .execute(
                "return document.querySelectorAll('details.turn:not([open])').length",
                vec![],
            )
            .await
            .unwrap();
        assert!(
            closed.as_u64().unwrap_or(0) > 0,
            "{url}: turns start closed"
        );
        b.click(".turn-tools button").await;
        let closed = b
            .client
            .execute(
                "return document.querySelectorAll('details.turn:not([open])').length",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            closed.as_u64(),
            Some(0),
            "{url}: \"Expand all\" opens every turn"
        );
        assert!(b.text(".turn-tools button").await.contains("Collapse all"));
        assert!(overflow(&b).await <= 1.0, "{url}: wider than a phone");
        b.client
            .execute(
                "document.querySelector('details.turn:last-of-type').scrollIntoView()",
                vec![],
            )
            .await
            .unwrap();
        b.screenshot(&shots.join(format!("{n}-phone-last-turn.png")))
            .await;
    }
    b.close().await;

    // Without the script, printed: the closed turns print open, diagrams and narration.
    let Some(b) = Browser::start_with("fight reports printed without the script", false).await
    else {
        return;
    };
    log_in(&b, &app, email).await;
    b.open(&app.url(reports[0])).await;
    let last_turn = b
        .client
        .find_all(fantoccini::Locator::Css("details.turn"))
        .await
        .unwrap()
        .len();
    let hidden_line = format!("Turn {last_turn} begins.");
    let line = b
        .client
        .find(fantoccini::Locator::Css(
            "details.turn:last-of-type .turn-lines p",
        ))
        .await
        .unwrap();
    assert!(
        !line.is_displayed().await.unwrap(),
        "on screen a closed turn hides its narration"
    );
    b.screenshot(&shots.join("lotf-desktop.png")).await;
    let pdf = b.print_pdf().await;
    let path = shots.join("lotf-report.pdf");
    std::fs::write(&path, &pdf).expect("write the PDF");
    match std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
    {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains(&hidden_line),
                "the last turn's narration is printed: {text}"
            );
        }
        _ => eprintln!("pdftotext is missing: the printed turns were not read back"),
    }
    b.close().await;
}
