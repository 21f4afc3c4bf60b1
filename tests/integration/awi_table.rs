//! The AWI wargames rules at the table and in the printed battle pack (issue 20, item 4): taps
//! change the table's state in the game's terms, "Finish" opens the record form filled in from
//! the table, and the pack (both roster sheets, the briefing, the quick reference) prints in
//! headless Chromium on A4 and Letter without anything running past its page.

use crate::helpers::{spawn_app, TestApp, Visitor, PASSWORD};
use crate::table_mode::set_up_battle;

/// The first tap target of `what` on the table page whose key starts with `side`.
fn target(page: &str, what: &str, side: &str) -> String {
    let marker = format!("name=\"what\" value=\"{what}\">");
    for (at, _) in page.match_indices(&marker) {
        let rest = &page[at..];
        let t = "name=\"target\" value=\"";
        let start = rest.find(t).expect("a target") + t.len();
        let key = &rest[start..start + rest[start..].find('"').expect("end")];
        if key.starts_with(side) {
            return key.to_string();
        }
    }
    panic!("no {what} control for {side} on the page:\n{page}");
}

async fn tap(who: &Visitor, id: i64, version: usize, what: &str, target: &str, value: &str) {
    let table = format!("/battles/{id}/table");
    let version = version.to_string();
    let res = who
        .post_form(
            &table,
            &table,
            &[
                ("version", version.as_str()),
                ("what", what),
                ("target", target),
                ("value", value),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "{what} {target} {value}");
}

#[tokio::test]
async fn awi_table_taps_change_the_state_and_finish_fills_in_the_record_form() {
    let app = spawn_app().await;
    let (id, opponent, other) = set_up_battle(&app, "awi").await;
    let table = format!("/battles/{id}/table");
    assert_eq!(other.get(&table).await.status(), 404, "players only");
    let page = app.get_html(&table).await;
    assert!(page.contains("Move") && page.contains("1 of 12"), "{page}");
    assert!(
        page.contains("Figures lost") && page.contains("Gunners lost"),
        "{page}"
    );
    let unit = target(&page, "figures", "attacker:");
    let router = target(&page, "routing", "defender:");
    // Another unit than the router: the first of the other side (it lost the two figures too).
    let gone = target(&page, "gone", "attacker:");
    let general = target(&page, "general_killed", "attacker:");
    let taps = [
        (&app.visitor, "move", "", "1"),
        (&opponent, "figures", unit.as_str(), "1"),
        (&app.visitor, "figures", unit.as_str(), "1"),
        (&opponent, "routing", router.as_str(), "1"),
        (&app.visitor, "gone", gone.as_str(), "1"),
        (&opponent, "general_killed", general.as_str(), "1"),
    ];
    for (version, (who, what, key, value)) in taps.into_iter().enumerate() {
        tap(who, id, version, what, key, value).await;
    }
    let page = app.get_html(&table).await;
    assert!(page.contains("2 of 12"), "the next move: {page}");
    assert!(page.contains("2 of "), "two figures lost: {page}");
    assert!(page.contains("Routing"), "{page}");
    assert!(page.contains("Routed off or left the table"), "{page}");
    assert!(page.contains("1 general killed"), "{page}");

    let form = app.get_html(&format!("{table}/finish")).await;
    assert!(form.contains("Filled in from the table"), "{form}");
    let key = |k: &str, prefix: &str| {
        k.replacen(
            &format!(
                "{}:",
                if prefix == "a" {
                    "attacker"
                } else {
                    "defender"
                }
            ),
            &format!("{prefix}_"),
            1,
        )
    };
    assert!(
        form.contains(&format!("name=\"lost_{}\"", key(&unit, "a"))),
        "{form}"
    );
    let field = |name: &str, until: &str| {
        let at = form
            .find(&format!("name=\"{name}\""))
            .unwrap_or_else(|| panic!("{name}: {form}"));
        let end = at + form[at..].find(until).unwrap();
        form[at..end].to_string()
    };
    assert!(field(&format!("lost_{}", key(&unit, "a")), ">").contains("value=\"2\""));
    assert!(field(&format!("state_{}", key(&router, "d")), "</select>")
        .contains("value=\"routing\" selected"));
    assert!(field(&format!("state_{}", key(&gone, "a")), "</select>")
        .contains("value=\"left_table\" selected"));
    assert!(
        form.contains(&format!(
            "name=\"killed_{}\" value=\"1\" checked",
            key(&general, "a")
        )),
        "{form}"
    );
    assert!(field("moves", ">").contains("value=\"2\""), "{form}");
}

#[tokio::test]
async fn awi_battle_pack_has_the_sheets_briefing_and_reference() {
    let app = spawn_app().await;
    let (id, opponent, other) = set_up_battle(&app, "awi").await;
    let pack = format!("/battles/{id}/print/pack");
    assert_eq!(opponent.get(&pack).await.status(), 200);
    assert_eq!(other.get(&pack).await.status(), 404);
    let html = app.get_html(&pack).await;
    for part in [
        "Battle pack:",
        "The sides",
        "Deployment",
        "Victory (Muster&#39;s rule, W-31)",
        "Turns",
        "The first move",
        "Rolled at set-up",
        "Owner",
        "Opponent",
        "An open field",
        "quick reference, side 1",
        "side 2",
        "W-31",
    ] {
        assert!(html.contains(part), "the pack has {part}: {html}");
    }
    assert_eq!(html.matches("class=\"pack-part\"").count(), 3, "{html}");
    assert!(html.contains("awi-sheet"), "the roster sheets");
}

async fn log_in_browser(b: &crate::browser::Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", "owner@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn awi_battle_pack_prints_on_a4_and_letter_without_overflowing() {
    let Some(b) =
        crate::browser::Browser::start("awi_battle_pack_prints_without_overflowing").await
    else {
        return;
    };
    let app = spawn_app().await;
    let (id, _, _) = set_up_battle(&app, "awi").await;
    log_in_browser(&b, &app).await;
    let out =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/print");
    std::fs::create_dir_all(&out).expect("print output directory");
    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let url = app.url(&format!("/battles/{id}/print/pack?paper={paper}"));
        let pdf = crate::browser_print::pdf(&b, &url, letter).await;
        let pages =
            crate::browser_print::page_count(&pdf, &out.join(format!("pack-awi-{paper}.pdf")));
        assert!(
            (5..=8).contains(&pages),
            "briefing, two sheets and two reference sides on {paper}, not {pages} pages"
        );
        let spilling = crate::lod_print::spilling(
            &b,
            ".pack-briefing, .pack-part > article.paper, .pack-part > section.paper",
        )
        .await;
        assert!(spilling.is_empty(), "{paper}: {spilling:#?}");
    }
    b.close().await;
}
