//! At the table (issue 19, item 8): the phone page of a set-up battle being played, for its two
//! players only; every tap a form post carrying the version it was based on, a stale one refused
//! (409) with the newer table shown; "Finish" opens the record form filled in from the table.
//! Both rule systems, over HTTP, on SQLite and PostgreSQL.

use crate::helpers::{
    accept_invitation, csrf_from, location, spawn_app, TestApp, Visitor, PASSWORD,
};

/// A battle of `system` set up by owner@ (attacker) against opponent@ (who accepts), with
/// other@ registered too. Returns the battle's id, the opponent's and the other player's
/// visitors.
pub(crate) async fn set_up_battle(app: &TestApp, system: &str) -> (i64, Visitor, Visitor) {
    app.register("owner@example.org", "Owner", PASSWORD).await;
    let opponent = app.other_visitor();
    opponent
        .register("opponent@example.org", "Opponent", PASSWORD)
        .await;
    let other = app.other_visitor();
    other.register("other@example.org", "Other", PASSWORD).await;
    let (first, second, scenario) = match system {
        "lotf" => ("h:cowpens:0:0", "h:cowpens:1:0", "take_the_field"),
        "atkm" => (
            "h:sample:cowpens_1781_british",
            "h:sample:cowpens_1781_americans",
            "cowpens_1781",
        ),
        "awi" => (
            "h:awi:example:continental",
            "h:awi:example:british",
            "open_field",
        ),
        "oibl" => (
            "h:oibl:example:american",
            "h:oibl:example:british",
            "open_field",
        ),
        _ => ("h:example:continental", "h:example:british", "open_field"),
    };
    let form = format!("/battles?system={system}");
    let res = app
        .post_form(
            &form,
            "/battles",
            &[
                ("system", system),
                ("first", first),
                ("second", second),
                ("first_player", ""),
                ("second_player", "opponent@example.org"),
                ("scenario", scenario),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "the {system} battle is set up");
    let id: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .expect("the battle's id");
    accept_invitation(&opponent, id).await;
    (id, opponent, other)
}

/// The first tap target on the table page whose key starts with `prefix` (`a.` or `d.`).
fn first_target(page: &str, what: &str, prefix: &str) -> String {
    let marker = format!("name=\"what\" value=\"{what}\">");
    for (at, _) in page.match_indices(&marker) {
        let rest = &page[at..];
        let t = "name=\"target\" value=\"";
        let start = rest.find(t).expect("a target") + t.len();
        let target = &rest[start..start + rest[start..].find('"').expect("end")];
        if target.starts_with(prefix) {
            return target.to_string();
        }
    }
    panic!("no {what} control for {prefix} on the page:\n{page}");
}

/// The version the table page's forms carry.
fn version_of(page: &str) -> String {
    let marker = "name=\"version\" value=\"";
    let start = page.find(marker).expect("a version field") + marker.len();
    page[start..start + page[start..].find('"').expect("end")].to_string()
}

async fn tap(
    who: &Visitor,
    id: i64,
    version: &str,
    what: &str,
    target: &str,
    value: &str,
) -> reqwest::Response {
    let table = format!("/battles/{id}/table");
    who.post_form(
        &table,
        &table,
        &[
            ("version", version),
            ("what", what),
            ("target", target),
            ("value", value),
        ],
    )
    .await
}

async fn only_the_players_see_and_tap_the_table(system: &str) {
    let app = spawn_app().await;
    let (id, opponent, other) = set_up_battle(&app, system).await;
    let table = format!("/battles/{id}/table");

    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains(&format!("href=\"{table}\"")),
        "the battle page links to the table: {page}"
    );
    for (who, name) in [(&app.visitor, "the owner"), (&opponent, "the opponent")] {
        let res = who.get(&table).await;
        assert_eq!(res.status(), 200, "{name} opens the table ({system})");
        let html = res.text().await.unwrap();
        assert!(html.contains("At the table:"), "{html}");
        assert!(html.contains("Turn") && html.contains("1 of"), "{html}");
        assert!(
            html.contains("name=\"csrf_token\""),
            "every tap is a form with the CSRF token: {html}"
        );
    }
    // Another player of the club sees nothing at the address, and cannot tap.
    assert_eq!(other.get(&table).await.status(), 404, "{system}");
    let res = other
        .post_form(
            "/",
            &table,
            &[("version", "0"), ("what", "turn"), ("value", "1")],
        )
        .await;
    assert_eq!(res.status(), 404, "another player cannot tap ({system})");
    assert_eq!(
        other.get(&format!("{table}/finish")).await.status(),
        404,
        "{system}"
    );
    // A visitor is sent to log in.
    let visitor = app.other_visitor();
    let res = visitor.get(&table).await;
    assert_eq!(res.status(), 303, "{system}");
    assert!(location(&res).starts_with("/login"), "{}", location(&res));
    // Nothing was saved by the refused taps: the table is still at version 0, and opening it
    // wrote nothing (reading never writes).
    assert_eq!(version_of(&app.get_html(&table).await), "0");
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    assert_eq!(
        muster::store::battle_tables::find(&mut conn, id).expect("query"),
        None,
        "{system}"
    );
}

#[tokio::test]
async fn only_the_players_see_and_tap_the_table_lotf() {
    only_the_players_see_and_tap_the_table("lotf").await;
}

#[tokio::test]
async fn only_the_players_see_and_tap_the_table_lod() {
    only_the_players_see_and_tap_the_table("lod").await;
}

#[tokio::test]
async fn only_the_players_see_and_tap_the_table_atkm() {
    only_the_players_see_and_tap_the_table("atkm").await;
}

#[tokio::test]
async fn only_the_players_see_and_tap_the_table_oibl() {
    only_the_players_see_and_tap_the_table("oibl").await;
}

async fn a_stale_tap_is_refused_and_the_newer_table_shown(system: &str) {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, system).await;
    let table = format!("/battles/{id}/table");
    let page = app.get_html(&table).await;
    let unit = first_target(&page, "hits", "a.");

    // Without JavaScript a tap is a plain form post that comes back to the table.
    let res = tap(&app, id, "0", "hits", &unit, "1").await;
    assert_eq!(res.status(), 303, "{system}");
    assert_eq!(location(&res), table);
    let page = app.get_html(&table).await;
    assert_eq!(version_of(&page), "1");
    assert!(page.contains("Saved (version 1)"), "{page}");

    // The opponent's phone still shows version 0: its tap is refused, nothing overwritten.
    let res = tap(&opponent, id, "0", "turn", "", "1").await;
    assert_eq!(res.status(), 409, "a stale tap ({system})");
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Someone else changed the table first"),
        "the page says why: {html}"
    );
    assert_eq!(version_of(&html), "1", "and shows the newer table");
    assert!(html.contains("1 of"), "still turn 1: {html}");

    // Tapped again on the newer table, it is saved.
    let res = tap(&opponent, id, "1", "turn", "", "1").await;
    assert_eq!(res.status(), 303, "{system}");
    let page = opponent.get_html(&table).await;
    assert_eq!(version_of(&page), "2");
    assert!(page.contains("2 of"), "turn 2: {page}");

    // A tap past a count's range is refused in words and saves nothing.
    let res = tap(&opponent, id, "2", "disorder", &unit, "-1").await;
    assert_eq!(res.status(), 422, "{system}");
    let html = res.text().await.unwrap();
    assert!(html.contains("That tap was not saved"), "{html}");
    assert_eq!(version_of(&html), "2");

    // A wrong CSRF token is refused.
    let res = opponent
        .client
        .post(opponent.url(&table))
        .form(&[
            ("version", "2"),
            ("what", "turn"),
            ("value", "1"),
            ("csrf_token", "forged"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "{system}");
}

#[tokio::test]
async fn a_stale_tap_is_refused_and_the_newer_table_shown_lotf() {
    a_stale_tap_is_refused_and_the_newer_table_shown("lotf").await;
}

#[tokio::test]
async fn a_stale_tap_is_refused_and_the_newer_table_shown_lod() {
    a_stale_tap_is_refused_and_the_newer_table_shown("lod").await;
}

/// Two phones tapping at the same moment on the same version: one tap is saved, the other is
/// refused and shows the saved table; never both, never an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_phones_tapping_at_once_never_overwrite_each_other() {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, "lod").await;
    for round in 0..3 {
        let version = round.to_string();
        let (a, b) = tokio::join!(
            tap(&app, id, &version, "turn", "", "1"),
            tap(&opponent, id, &version, "command_points", "d", "1"),
        );
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [303, 409], "round {round}");
    }
    let page = app.get_html(&format!("/battles/{id}/table")).await;
    assert_eq!(version_of(&page), "3", "three taps saved, one a round");
}

#[tokio::test]
async fn finish_fills_in_the_lotf_record_form() {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, "lotf").await;
    let table = format!("/battles/{id}/table");
    let page = app.get_html(&table).await;
    let routed = first_target(&page, "gone", "d.");
    let shaken = first_target(&page, "level", "a.");
    let commander = first_target(&page, "commander", "d.");
    let mut version = 0;
    for (who, what, target, value) in [
        (&app.visitor, "turn", "", "1"),
        (&opponent, "turn", "", "1"),
        (&app.visitor, "gone", routed.as_str(), "1"),
        (&opponent, "level", shaken.as_str(), "1"),
        (&app.visitor, "hits", shaken.as_str(), "1"),
        (&app.visitor, "hits", shaken.as_str(), "1"),
        (&opponent, "commander", commander.as_str(), "1"),
        (&app.visitor, "objective", "1", "1"),
        (&opponent, "objective", "3", "1"),
        (&app.visitor, "objective", "2", "2"),
    ] {
        let res = tap(who, id, &version.to_string(), what, target, value).await;
        assert_eq!(res.status(), 303, "{what} {target} {value}");
        version += 1;
    }
    let page = app.get_html(&table).await;
    assert!(page.contains("Routed off the table"), "{page}");
    assert!(page.contains("2 of") && page.contains("3 of"), "{page}");
    assert!(page.contains(
        "href=\"/battles/{id}/table/finish\""
            .replace("{id}", &id.to_string())
            .as_str()
    ));

    let res = app.get(&format!("{table}/finish")).await;
    assert_eq!(res.status(), 200);
    let form = res.text().await.unwrap();
    assert!(form.contains("action=\"/battles/"), "{form}");
    assert!(
        form.contains("Filled in from the table"),
        "the form says where it came from: {form}"
    );
    assert!(
        form.contains("name=\"turns\" type=\"number\" min=\"1\" max=\"6\" value=\"3\""),
        "turn 3: {form}"
    );
    assert!(
        form.contains("name=\"obj_attacker\" type=\"number\" min=\"0\" max=\"4\" value=\"2\""),
        "{form}"
    );
    assert!(
        form.contains("name=\"obj_defender\" type=\"number\" min=\"0\" max=\"4\" value=\"1\""),
        "{form}"
    );
    let key = |t: &str| t.replacen('.', "_", 1);
    let select = |name: &str| {
        let at = form
            .find(&format!("name=\"{name}\""))
            .unwrap_or_else(|| panic!("{name}: {form}"));
        let end = at + form[at..].find("</select>").unwrap();
        form[at..end].to_string()
    };
    assert!(
        select(&format!("state_{}", key(&routed))).contains("value=\"left\" selected"),
        "the routed element left the field"
    );
    assert!(select(&format!("state_{}", key(&shaken))).contains("value=\"shaken\" selected"));
    assert!(
        form.contains(&format!(
            "name=\"hits_{}\" type=\"number\" min=\"0\" max=\"20\" value=\"2\"",
            key(&shaken)
        )),
        "{form}"
    );
    assert!(select(&format!("fate_{}", key(&commander))).contains("value=\"killed\" selected"));

    // The form is the ordinary record form: checking it adds the entries up, saving records.
    let mut fields: Vec<(String, String)> = Vec::new();
    for (at, _) in form.match_indices(" name=\"") {
        let rest = &form[at + 7..];
        let name = &rest[..rest.find('"').unwrap()];
        if name == "csrf_token" || name == "preview" || fields.iter().any(|(n, _)| n == name) {
            continue;
        }
        let tag_start = form[..at].rfind('<').unwrap();
        let tag = &form[tag_start..at + 7 + rest.find('>').unwrap()];
        let value = if tag.starts_with("<select") {
            let s = select(name);
            let sel = s.find("\" selected").map(|i| {
                let v = &s[..i];
                v[v.rfind("value=\"").unwrap() + 7..].to_string()
            });
            sel.unwrap_or_else(|| {
                let v = &s[s.find("value=\"").unwrap() + 7..];
                v[..v.find('"').unwrap()].to_string()
            })
        } else {
            let v = &tag[tag.find("value=\"").map_or(tag.len(), |i| i + 7)..];
            v[..v.find('"').unwrap_or(0)].to_string()
        };
        fields.push((name.to_string(), value));
    }
    fields.push(("csrf_token".into(), csrf_from(&form)));
    let res = app
        .client
        .post(app.url(&format!("/battles/{id}/record")))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303, "the filled-in form records the result");
    let battle = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        battle.contains("waiting for") || battle.contains("Waiting for"),
        "{battle}"
    );

    // Once recorded the table takes no more taps.
    let res = tap(&app, id, &version.to_string(), "turn", "", "1").await;
    assert_eq!(res.status(), 409);
    let html = res.text().await.unwrap();
    assert!(html.contains("not being played any more"), "{html}");
    assert_eq!(
        location(&app.get(&format!("{table}/finish")).await),
        format!("/battles/{id}")
    );
}

#[tokio::test]
async fn finish_fills_in_the_lod_record_form() {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, "lod").await;
    let table = format!("/battles/{id}/table");
    let page = app.get_html(&table).await;
    let off = first_target(&page, "off", "d.");
    let broken = first_target(&page, "broken", "a.");
    let general = first_target(&page, "general", "a.");
    for (version, (who, what, target, value)) in [
        (&app.visitor, "turn", "", "1"),
        (&opponent, "off", off.as_str(), "1"),
        (&app.visitor, "broken", broken.as_str(), "1"),
        (&opponent, "general", general.as_str(), "1"),
        (&app.visitor, "command_points", "a", "1"),
    ]
    .into_iter()
    .enumerate()
    {
        let res = tap(who, id, &version.to_string(), what, target, value).await;
        assert_eq!(res.status(), 303, "{what} {target} {value}");
    }
    let page = app.get_html(&table).await;
    assert!(page.contains("routed off the table"), "{page}");
    assert!(page.contains("1 General killed"), "{page}");

    let form = app.get_html(&format!("{table}/finish")).await;
    assert!(form.contains("Filled in from the table"), "{form}");
    assert!(
        form.contains("name=\"turns\" type=\"number\" min=\"1\" max=\"8\" value=\"2\""),
        "{form}"
    );
    let key = |t: &str| t.replacen('.', "_", 1);
    let select = |name: &str| {
        let at = form
            .find(&format!("name=\"{name}\""))
            .unwrap_or_else(|| panic!("{name}: {form}"));
        let end = at + form[at..].find("</select>").unwrap();
        form[at..end].to_string()
    };
    assert!(select(&format!("end_{}", key(&off))).contains("value=\"routed_off\" selected"));
    assert!(select(&format!("end_{}", key(&broken))).contains("value=\"broken\" selected"));
    assert!(
        form.contains(&format!(
            "name=\"killed_{}\" value=\"1\" checked",
            key(&general)
        )),
        "{form}"
    );
}

/// All the King's Men at the table (K-50): rank and file lost down to the break point collapse
/// a unit, a lost ensign's colours are taken, a general's rating falls; a tap past a count's
/// range is refused; "Finish" fills the record form in.
#[tokio::test]
async fn finish_fills_in_the_atkm_record_form() {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, "atkm").await;
    let table = format!("/battles/{id}/table");
    let page = app.get_html(&table).await;
    assert!(
        page.contains("Rank and file lost") && page.contains("Colour"),
        "{page}"
    );
    assert!(
        page.contains("collapses with 3 or fewer left (K-16)"),
        "{page}"
    );
    // The British attack at Cowpens: a. is Tarleton's, d. Morgan's.
    let dragoons = first_target(&page, "figures", "a.");
    let rating = first_target(&page, "rating", "d.");
    let res = tap(&app, id, "0", "figures", &dragoons, "-1").await;
    assert_eq!(res.status(), 422, "no rank and file to give back");
    let html = res.text().await.unwrap();
    assert!(html.contains("That tap was not saved"), "{html}");
    let mut taps = vec![(&app.visitor, "turn", String::new(), "1")];
    for _ in 0..4 {
        taps.push((&opponent, "figures", dragoons.clone(), "1"));
    }
    taps.push((&app.visitor, "ensign", "d.u1".to_string(), "1"));
    taps.push((&opponent, "rating", rating.clone(), "-1"));
    for (version, (who, what, target, value)) in taps.into_iter().enumerate() {
        let res = tap(who, id, &version.to_string(), what, &target, value).await;
        assert_eq!(res.status(), 303, "{what} {target} {value}");
    }
    let page = app.get_html(&table).await;
    assert!(
        page.contains("1 of 7 units collapsed"),
        "4 of 6 troopers lost: 2 left, collapsed: {page}"
    );
    assert!(page.contains("colours taken"), "{page}");
    assert!(page.contains("1 (started at 2)"), "{page}");

    let form = app.get_html(&format!("{table}/finish")).await;
    assert!(form.contains("Filled in from the table"), "{form}");
    assert!(
        form.contains("name=\"turns\" type=\"number\" min=\"1\" max=\"24\" value=\"2\""),
        "{form}"
    );
    let key = |t: &str| t.replacen('.', "_", 1);
    assert!(
        form.contains(&format!(
            "name=\"lost_{}\" type=\"number\" min=\"0\" max=\"6\" value=\"4\"",
            key(&dragoons)
        )),
        "{form}"
    );
    assert!(
        form.contains(&format!(
            "name=\"collapsed_{}\" value=\"1\" checked",
            key(&dragoons)
        )),
        "{form}"
    );
    assert!(
        form.contains("name=\"ensign_d_u1\" value=\"1\" checked"),
        "{form}"
    );
    assert!(
        form.contains("<option value=\"1\" selected>1</option>"),
        "{form}"
    );
}

/// One if by Land at the table: figures lost against the loss bands (B-9) and the destruction
/// mark (B-33), the markers, a battery's guns, a commander's fate and the turn; a tap out of
/// range is refused; "Finish" fills the record form in.
#[tokio::test]
async fn finish_fills_in_the_oibl_record_form() {
    let app = spawn_app().await;
    let (id, opponent, _) = set_up_battle(&app, "oibl").await;
    let table = format!("/battles/{id}/table");
    let page = app.get_html(&table).await;
    assert!(
        page.contains("Figures lost") && page.contains("Crew figures lost"),
        "{page}"
    );
    assert!(
        page.contains("+1 from 5, +2 from 9, +3 from 14, destroyed from 17"),
        "the 1st Continental's 18 figures: {page}"
    );
    assert!(page.contains("1 of 12 (B-35)"), "{page}");
    assert!(
        page.contains("0 of 5 units lost (routing, destroyed or off the table); beaten at 3"),
        "{page}"
    );
    // The Americans attack: a. is the Continental brigade, d. the British.
    let res = tap(&app, id, "0", "guns", "a.u1", "1").await;
    assert_eq!(res.status(), 422, "a regiment has no guns");
    let html = res.text().await.unwrap();
    assert!(html.contains("That tap was not saved"), "{html}");
    let mut taps = vec![(&app.visitor, "turn", "", "1")];
    for _ in 0..5 {
        taps.push((&opponent, "figures", "a.u1", "1"));
    }
    taps.push((&app.visitor, "failed_by_1", "a.u1", "1"));
    taps.push((&opponent, "routing", "d.u2", "1"));
    taps.push((&app.visitor, "left_table", "d.u4", "1"));
    taps.push((&opponent, "guns", "d.u5", "1"));
    taps.push((&app.visitor, "fate", "d.c1", "3"));
    for (version, (who, what, target, value)) in taps.into_iter().enumerate() {
        let res = tap(who, id, &version.to_string(), what, target, value).await;
        assert_eq!(res.status(), 303, "{what} {target} {value}");
    }
    let page = app.get_html(&table).await;
    assert!(
        page.contains(
            "13 of 18 figures left · +1 on morale tests for losses · failed by 1 · Panic Marker"
        ),
        "5 of 18 lost: the 25 % band (B-9); failing by 1 keeps a marker (B-23): {page}"
    );
    assert!(
        page.contains("3 of 5 units lost (routing, destroyed or off the table); beaten at 3"),
        "routing, off the table and a battery without its gun (B-33, B-34): {page}"
    );
    assert!(page.contains("Destroyed (B-33)"), "{page}");

    let form = app.get_html(&format!("{table}/finish")).await;
    assert!(form.contains("Filled in from the table"), "{form}");
    assert!(
        form.contains("name=\"turns\" type=\"number\" min=\"1\" max=\"99\" value=\"2\""),
        "{form}"
    );
    assert!(
        form.contains("name=\"lost_a_u1\" type=\"number\" min=\"0\" max=\"18\" value=\"5\""),
        "{form}"
    );
    assert!(
        form.contains("name=\"routed_d_u2\" value=\"1\" checked"),
        "{form}"
    );
    assert!(
        form.contains("name=\"off_d_u4\" value=\"1\" checked"),
        "{form}"
    );
    assert!(
        form.contains("name=\"guns_d_u5\" type=\"number\" min=\"0\" max=\"1\" value=\"1\""),
        "{form}"
    );
    assert!(
        form.contains("<option value=\"killed\" selected>"),
        "{form}"
    );
}

/// Logs the browser in as owner@ through the login page.
async fn log_in_browser(b: &crate::browser::Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", "owner@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

/// The table page on a 390 px phone, for both systems: nothing wider than the screen, every
/// button at least 44 px square, and a tap saved in place (JavaScript) that survives a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_fits_a_phone_and_a_tap_survives_a_reload() {
    let Some(b) = crate::browser::Browser::start_phone(
        "the_table_fits_a_phone_and_a_tap_survives_a_reload",
        390,
    )
    .await
    else {
        return;
    };
    let app = spawn_app().await;
    let (lotf, _, _) = set_up_battle(&app, "lotf").await;
    // A second battle, of the other system, between the same players.
    let res = app
        .post_form(
            "/battles?system=lod",
            "/battles",
            &[
                ("system", "lod"),
                ("first", "h:example:continental"),
                ("second", "h:example:british"),
                ("first_player", ""),
                ("second_player", "Guest General"),
                ("scenario", "open_field"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let lod: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    log_in_browser(&b, &app).await;
    let shots =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/phone");
    std::fs::create_dir_all(&shots).expect("shots directory");
    for (system, id) in [("lotf", lotf), ("lod", lod)] {
        b.open(&app.url(&format!("/battles/{id}/table"))).await;
        b.find("#table-live").await;
        let measure = "const root = document.documentElement;
            const small = Array.from(document.querySelectorAll('button.tap')).filter(e => {
              const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
              .map(e => e.textContent + ' ' + e.getBoundingClientRect().width + 'x' + e.getBoundingClientRect().height);
            const wide = Array.from(document.body.querySelectorAll('*')).filter(e => {
              const r = e.getBoundingClientRect(); return r.width > 0 && !e.closest('.skip-link') && (r.right > root.clientWidth + 1 || r.left < -1); })
              .map(e => e.tagName + '.' + e.className);
            return [root.scrollWidth, root.clientWidth, small, wide, document.querySelectorAll('button.tap').length];";
        let a = b.client.execute(measure, vec![]).await.expect("measure");
        let a = a.as_array().expect("measures");
        assert!(
            a[1].as_f64().unwrap() <= 391.0,
            "{system}: the window is a phone's: {a:?}"
        );
        assert!(
            a[0].as_f64().unwrap() <= a[1].as_f64().unwrap() + 1.0,
            "{system}: the table page scrolls sideways: {a:?}"
        );
        assert_eq!(
            a[2],
            serde_json::json!([]),
            "{system}: tap targets under 44 px"
        );
        assert_eq!(
            a[3],
            serde_json::json!([]),
            "{system}: wider than the screen"
        );
        assert!(
            a[4].as_u64().unwrap() > 10,
            "{system}: buttons to tap: {a:?}"
        );
        b.screenshot(&shots.join(format!("table-{system}.png")))
            .await;
        b.client
            .execute(
                "document.querySelector('.table-unit').scrollIntoView();",
                vec![],
            )
            .await
            .expect("scroll");
        b.screenshot(&shots.join(format!("table-{system}-unit.png")))
            .await;

        // Tap "+" on the first unit's hits: saved in place, without leaving the page.
        b.click("form[data-table-tap] input[name=what][value=hits] ~ .tap-row button[value='1']")
            .await;
        b.wait_for_text(".table-saved", |t| t.contains("version 1"))
            .await;
        assert_eq!(b.path().await, format!("/battles/{id}/table"));
        b.open(&app.url(&format!("/battles/{id}/table"))).await;
        let saved = b.text(".table-saved").await;
        assert!(
            saved.contains("version 1"),
            "{system}: the tap survives a reload: {saved}"
        );
        let first = b
            .text("form[data-table-tap] input[name=what][value=hits] ~ .tap-label output")
            .await;
        assert!(first.starts_with('1'), "{system}: one hit: {first}");
    }
    b.close().await;
}
