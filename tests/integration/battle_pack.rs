//! The printed battle pack (issue 19, item 10): both sides' roster sheets with what was rolled,
//! the scenario briefing in Muster's own words and the quick reference, as one printout at
//! `/battles/{id}/print/pack` (A4 or Letter), for whoever may see the battle. Both rule systems,
//! over HTTP on SQLite and PostgreSQL; printed to PDF in headless Chromium.

use crate::helpers::{location, spawn_app, TestApp, PASSWORD};
use crate::table_mode::set_up_battle;

async fn whoever_may_see_the_battle_prints_its_pack(system: &str) {
    let app = spawn_app().await;
    let (id, opponent, other) = set_up_battle(&app, system).await;
    let pack = format!("/battles/{id}/print/pack");
    let page = app.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains(&format!("href=\"{pack}\"")),
        "the battle page links to the pack: {page}"
    );
    for (who, name) in [(&app.visitor, "the owner"), (&opponent, "the opponent")] {
        let res = who.get(&pack).await;
        assert_eq!(res.status(), 200, "{name} prints the pack ({system})");
    }
    assert_eq!(
        other.get(&pack).await.status(),
        404,
        "another player ({system})"
    );
    let visitor = app.other_visitor();
    let res = visitor.get(&pack).await;
    assert_eq!(res.status(), 303, "{system}");
    assert!(location(&res).starts_with("/login"));

    let html = app.get_html(&pack).await;
    for part in [
        "Battle pack:",
        "The sides",
        "Deployment",
        "Objectives",
        "Turns",
        "Special rules",
        "Rolled at set-up",
        "Owner",
        "Opponent",
        "quick reference, side 1",
        "quick reference, side 2",
    ] {
        assert!(html.contains(part), "{system}: the pack has {part}: {html}");
    }
    assert_eq!(
        html.matches("class=\"pack-part\"").count(),
        3,
        "two sheets and the reference, each from a new page ({system})"
    );
    assert!(html.contains("paper-a4"), "A4 by default");
    let letter = app.get_html(&format!("{pack}?paper=letter")).await;
    assert!(letter.contains("paper-letter") && letter.contains("paper-letter.css"));
    match system {
        "lotf" => {
            assert!(
                html.contains("Both sides set up within 12"),
                "the Take the Field briefing: {html}"
            );
            assert!(html.contains("Four objectives"), "{html}");
            // The sheets carry each commander's rolled rating (the battle page names them).
            let battle = app.get_html(&format!("/battles/{id}")).await;
            let marker = "(rolled ";
            let at = battle
                .find(marker)
                .expect("a rolled rating on the battle page");
            let before = &battle[..at];
            let rating = before[before.rfind('>').unwrap() + 1..].trim();
            assert!(!rating.is_empty());
            assert!(
                html.contains(&format!("<td class=\"write-in\">{rating}</td>")),
                "the sheet prints the rolled rating {rating}: {html}"
            );
        }
        "atkm" => {
            assert!(
                html.contains("at most two of their units stand on top of the larger hill"),
                "the Cowpens briefing: {html}"
            );
            assert!(
                html.contains("Attacker in battle") && html.contains("Banastre Tarleton"),
                "{html}"
            );
            assert!(html.contains("collapses with 3 or fewer left"), "{html}");
        }
        "oibl" => {
            assert!(
                html.contains("of its own long edge; Example: a Continental brigade attacks"),
                "the open field's deployment (B-51): {html}"
            );
            assert!(
                html.contains("is beaten when 3 of its 5 units are routing"),
                "Muster's army morale (B-34): {html}"
            );
            assert!(
                html.contains("Attacker in battle") && html.contains("Brigade commander"),
                "the sheets with each commander's X: {html}"
            );
        }
        _ => {
            assert!(html.contains("An open field"), "{html}");
            assert!(
                html.contains("D3 rolled"),
                "the sheet prints the Command Points as rolled: {html}"
            );
            assert!(html.contains("has the initiative"), "{html}");
        }
    }
}

#[tokio::test]
async fn whoever_may_see_the_battle_prints_its_pack_lotf() {
    whoever_may_see_the_battle_prints_its_pack("lotf").await;
}

#[tokio::test]
async fn whoever_may_see_the_battle_prints_its_pack_lod() {
    whoever_may_see_the_battle_prints_its_pack("lod").await;
}

#[tokio::test]
async fn whoever_may_see_the_battle_prints_its_pack_atkm() {
    whoever_may_see_the_battle_prints_its_pack("atkm").await;
}

#[tokio::test]
async fn whoever_may_see_the_battle_prints_its_pack_oibl() {
    whoever_may_see_the_battle_prints_its_pack("oibl").await;
}

/// A battle fought already still prints its pack (the sides as they stood at set-up).
#[tokio::test]
async fn a_decided_battle_still_prints_its_pack() {
    let app = spawn_app().await;
    app.register("solo@example.org", "Solo", PASSWORD).await;
    let res = app
        .post_form(
            "/battles",
            "/battles",
            &[
                ("first", "h:cowpens:0:0"),
                ("second", "h:cowpens:1:0"),
                ("first_player", ""),
                ("second_player", "A Guest"),
                ("scenario", "frontal_assault"),
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
    let html = app.get_html(&format!("/battles/{id}/print/pack")).await;
    assert!(html.contains("behind linear obstacles"), "{html}");
    assert!(html.contains("A Guest"), "{html}");
}

async fn log_in_browser(b: &crate::browser::Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", "owner@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

/// The pack printed to PDF on A4 and Letter: a sensible number of pages (a briefing page, a
/// sheet or two per side, the two sides of the reference) and nothing running past its page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pack_prints_on_a4_and_letter_without_overflowing() {
    let Some(b) =
        crate::browser::Browser::start("the_pack_prints_on_a4_and_letter_without_overflowing")
            .await
    else {
        return;
    };
    let app = spawn_app().await;
    let (lotf, _, _) = set_up_battle(&app, "lotf").await;
    let res = app
        .post_form(
            "/battles?system=lod",
            "/battles",
            &[
                ("system", "lod"),
                ("first", "h:example:continental"),
                ("second", "h:example:hessian"),
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
    let res = app
        .post_form(
            "/battles?system=atkm",
            "/battles",
            &[
                ("system", "atkm"),
                ("first", "h:sample:cowpens_1781_british"),
                ("second", "h:sample:cowpens_1781_americans"),
                ("first_player", ""),
                ("second_player", "Guest General"),
                ("scenario", "cowpens_1781"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let atkm: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    let res = app
        .post_form(
            "/battles?system=oibl",
            "/battles",
            &[
                ("system", "oibl"),
                ("first", "h:oibl:example:american"),
                ("second", "h:oibl:example:british"),
                ("first_player", ""),
                ("second_player", "Guest General"),
                ("scenario", "defended_line"),
                ("roles", "given"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let oibl: i64 = location(&res)
        .trim_start_matches("/battles/")
        .parse()
        .unwrap();
    log_in_browser(&b, &app).await;
    let out =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/print");
    std::fs::create_dir_all(&out).expect("print output directory");
    for (system, id) in [("lotf", lotf), ("lod", lod), ("atkm", atkm), ("oibl", oibl)] {
        for (letter, paper) in [(false, "a4"), (true, "letter")] {
            let url = app.url(&format!("/battles/{id}/print/pack?paper={paper}"));
            let pdf = crate::browser_print::pdf(&b, &url, letter).await;
            let path = out.join(format!("pack-{system}-{paper}.pdf"));
            let pages = crate::browser_print::page_count(&pdf, &path);
            assert!(
                (5..=8).contains(&pages),
                "{system} on {paper}: briefing, two sheets and two reference sides, not {pages} pages"
            );
            let spilling = crate::lod_print::spilling(
                &b,
                ".pack-briefing, .pack-part > article.paper, .pack-part > section.paper",
            )
            .await;
            assert!(spilling.is_empty(), "{system} on {paper}: {spilling:#?}");
        }
    }
    b.close().await;
}
