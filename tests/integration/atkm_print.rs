//! All the King's Men printouts: unit and general cards and the roster sheet of sample and
//! hand-made armies, the public two-sided quick reference, their numbers against the catalogue
//! (a changed catalogue changes the print), and in headless Chromium the pages they print to on
//! A4 and Letter with nothing spilling out of a card or a page, and the quick reference read on
//! a 390 px phone. PDFs go to `target/browser-shots/atkm-print/`.

use std::path::PathBuf;

use muster::app::rosters::content_for;
use muster::rules::systems::atkm::{parse_roster, Catalogue, UnitType};
use muster::rules::systems::{AnyRoster, Systems};
use muster::store;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, spawn_app_with_rules, TestApp, PASSWORD};
use crate::lod_print::spilling;

const EMAIL: &str = "adjutant@example.org";

/// Every kind of unit, with optional rules, two identical regiments sharing a card, and a
/// Lieutenant General.
fn mixed() -> Value {
    json!({"format": "muster.atkm.roster/1", "name": "Southern Army", "period": "awi",
    "advanced_rules": ["elite_militia", "artillery_sizes", "woodland_indians", "skirmishing_cavalry", "override", "banking"],
    "generals": [
      {"id": "g1", "name": "Greene", "rating": 3, "role": "commanding", "command_radius": 12},
      {"id": "g2", "name": "Marion", "rating": 1, "role": "lieutenant", "command_radius": 12}],
    "units": [
      {"id": "u1", "name": "1st Virginia", "type": "infantry", "general": "g1", "quality": "regular"},
      {"id": "u2", "name": "2nd Virginia", "type": "infantry", "general": "g1", "quality": "regular"},
      {"id": "u3", "name": "Old Guard", "type": "infantry", "general": "g1", "quality": "elite", "label": "guard"},
      {"id": "u4", "name": "Riflemen", "type": "skirmishers", "general": "g2", "quality": "militia"},
      {"id": "u5", "name": "Lee's Legion", "type": "cavalry", "general": "g1"},
      {"id": "u6", "name": "Knox's Guns", "type": "foot_artillery", "general": "g1", "gun": "heavy"},
      {"id": "u7", "name": "Flying Battery", "type": "horse_artillery", "general": "g1", "gun": "light"},
      {"id": "u8", "name": "Catawba", "type": "woodland_indians", "general": "g2", "rank_and_file": 9},
      {"id": "u9", "name": "Partisans", "type": "skirmishing_cavalry", "general": "g2"}
    ]})
}

/// A large army: 24 infantry units, for the sheet's one page.
fn large() -> Value {
    let units: Vec<Value> = (1..=24)
        .map(|i| {
            json!({"id": format!("u{i}"), "name": format!("Regiment of Foot No. {i}"),
                        "type": "infantry", "general": "g1"})
        })
        .collect();
    json!({"format": "muster.atkm.roster/1", "name": "Large army", "period": "napoleonic",
      "generals": [{"id": "g1", "name": "Wellington", "rating": 2, "role": "commanding"}],
      "units": units})
}

fn store_roster(app: &TestApp, doc: &Value) -> i64 {
    let rules = Systems::builtin().expect("built-in rules");
    let mut roster = AnyRoster::Atkm(parse_roster(&doc.to_string()).expect("an atkm roster"));
    let content = content_for(&rules, &mut roster);
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let owner = store::users::find_by_email(&mut conn, EMAIL)
        .expect("query")
        .expect("user exists");
    store::rosters::create(&mut conn, owner.id, &content)
        .expect("insert roster")
        .id
}

fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"").replace("&#39;", "'")
}

/// The card (an `<article>`) whose title is `names`.
fn card<'a>(html: &'a str, names: &str) -> &'a str {
    let title = format!("<p class=\"card-title\">{names}</p>");
    let at = html
        .find(&title)
        .unwrap_or_else(|| panic!("a card for {names}"));
    let start = html[..at].rfind("<article").expect("card start");
    let end = at + html[at..].find("</article>").expect("card end");
    &html[start..end]
}

async fn set_up(app: TestApp) -> (TestApp, i64) {
    app.register(EMAIL, "Adjutant", PASSWORD).await;
    let id = store_roster(&app, &mixed());
    (app, id)
}

#[tokio::test]
async fn atkm_cards_carry_the_catalogue_numbers() {
    let (app, id) = set_up(spawn_app().await).await;
    let html = unescape(&app.get_html(&format!("/rosters/{id}/print/cards")).await);
    assert_eq!(
        html.matches("<article class=\"card").count(),
        8 + 2,
        "two identical regiments share a card; two general cards"
    );
    let regiment = card(&html, "1st Virginia, 2nd Virginia");
    assert!(regiment.contains("×2"));
    assert!(regiment.contains("12 privates · collapses at <b class=\"break-point\">4</b>"));
    assert_eq!(
        regiment.matches("class=\"cell").count(),
        12,
        "a box a private"
    );
    assert_eq!(
        regiment.matches("class=\"cell cell-mark\"").count(),
        4,
        "the boxes at the break point are marked"
    );
    assert!(regiment.contains("line 6\" · column 10\""));
    assert!(regiment.contains("class=\"range\">12\"<"));
    assert!(
        regiment.contains("<td class=\"fire-dice\">1 (+2 def)</td>"),
        "against cavalry"
    );
    assert!(
        regiment.contains("<td class=\"melee-dice\">—</td>"),
        "infantry may not attack cavalry"
    );
    assert!(regiment.contains("Greene (Commanding General, rating 3)"));
    assert!(regiment.contains("green 4+, yellow 5+, red 6"));
    assert!(regiment.contains("resolve-yellow"));

    let guard = card(&html, "Old Guard");
    assert!(guard.contains("Elite (guard): defends one colour better"));

    let cavalry = card(&html, "Lee's Legion");
    assert!(cavalry.contains("line 16\" · column 20\""), "K-1");
    assert!(cavalry.contains("class=\"range\">cannot fire<"));
    assert!(
        cavalry.contains("<td class=\"melee-dice\">2</td>"),
        "2/1 against infantry"
    );

    let heavy = card(&html, "Knox's Guns");
    assert!(heavy.contains("class=\"range\">60\"<"), "K-20");
    assert!(heavy.contains("within 12\": 3 dice a gunner +4 dice"));
    assert!(heavy.contains("Cannot move and fire"));
    assert_eq!(heavy.matches("class=\"cell cell-mark\"").count(), 1);

    let light = card(&html, "Flying Battery");
    assert!(light.contains("class=\"range\">36\"<"));
    assert!(light.contains("within 12\": 2 dice a gunner"));

    let indians = card(&html, "Catawba");
    assert!(
        indians.contains("9 warriors · collapses at <b class=\"break-point\">4</b>"),
        "half of 9"
    );
    assert!(indians.contains("loose 18\""));

    let greene = card(&html, "Greene");
    assert!(greene.contains("rating <b class=\"general-rating\">3</b> (excellent)"));
    assert!(greene.contains("Rolls 3 d6 each turn"));
    assert!(greene.contains("Overriding: may skip up to 3 cards"));
    assert!(greene.contains("Banking"));
    let marion = card(&html, "Marion");
    assert!(marion.contains("1 command point each turn"));

    let each = app
        .get_html(&format!("/rosters/{id}/print/cards?each=1"))
        .await;
    assert_eq!(each.matches("<article class=\"card").count(), 9 + 2);
    assert_eq!(
        app.get(&format!("/rosters/{id}/print/posters"))
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn atkm_sheet_has_tracks_and_the_army_collapse_point() {
    let (app, id) = set_up(spawn_app().await).await;
    let html = unescape(&app.get_html(&format!("/rosters/{id}/print/sheet")).await);
    assert!(html.contains("All the King's Men · American Revolution · Commanding General Greene"));
    assert!(html.contains("Starts with <b class=\"start-units\">9</b> units; collapses with <b class=\"break-point\">4</b>"));
    assert!(html.contains("Riflemen"));
    assert!(html.contains("Heavy gun"));
    assert!(html.contains("Legal"), "{html}");
}

#[tokio::test]
async fn atkm_quick_reference_is_public_and_drawn_from_the_catalogue() {
    let app = spawn_app().await;
    let res = app.other_visitor().get("/atkm/reference").await;
    assert_eq!(res.status(), 200, "the quick reference is public");
    let html = unescape(&res.text().await.unwrap());
    let cat = Catalogue::builtin().unwrap();
    for card in &cat.tables.special_cards {
        assert!(html.contains(&card.effect), "{} is explained", card.card);
    }
    for rule in &cat.tables.advanced_rules {
        assert!(html.contains(&rule.name), "{} is listed", rule.name);
    }
    assert!(html.contains("<td>Cavalry</td><td>6 troopers</td><td>2</td><td>16\"</td><td>20\"</td><td>—</td><td>—</td>"));
    assert!(html.contains(
        "<td>Infantry</td><td>1/1</td><td>1/1 +2</td><td>1/1 +2</td><td>1/1 +2 if loose</td>"
    ));
    assert!(html.contains("<td>Artillery</td><td>2 (3 close)/1</td>"));
    assert!(html.contains("<td>Yellow</td><td>5+</td><td>2/6</td>"));
    for ruling in ["K-1", "K-4", "K-14", "K-16", "K-17"] {
        assert!(
            html.contains(&format!("<strong>{ruling}</strong>")),
            "{ruling}"
        );
    }
    assert_eq!(app.get("/atkm/reference?paper=letter").await.status(), 200);
}

#[tokio::test]
async fn atkm_every_printed_number_comes_from_the_catalogue() {
    let mut cat = Catalogue::builtin().unwrap();
    for row in &mut cat.tables.unit_types {
        if row.id == UnitType::Infantry {
            row.rank_and_file = 14;
            row.break_point = 5;
            row.moves.line = Some(7);
            row.range = 13;
        }
    }
    cat.tables.movement.general_move = 21;
    for c in &mut cat.tables.colours {
        if c.id.id() == "yellow" {
            c.succeeds_on = 4;
        }
    }
    let app = spawn_app_with_rules(Systems {
        atkm: cat,
        ..Systems::builtin().unwrap()
    })
    .await;
    let (app, id) = set_up(app).await;
    let html = unescape(&app.get_html(&format!("/rosters/{id}/print/cards")).await);
    let regiment = card(&html, "1st Virginia, 2nd Virginia");
    assert!(regiment.contains("14 privates · collapses at <b class=\"break-point\">5</b>"));
    assert_eq!(regiment.matches("class=\"cell").count(), 14);
    assert!(regiment.contains("line 7\""));
    assert!(regiment.contains("class=\"range\">13\"<"));
    assert!(regiment.contains("yellow 4+"));
    assert!(html.contains("up to 21\""));
    let reference = unescape(&app.get_html("/atkm/reference").await);
    assert!(reference.contains("<td>Infantry</td><td>14 privates</td><td>5</td><td>7\"</td>"));
    assert!(reference.contains("generals move up to 21\""));
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/atkm-print");
    std::fs::create_dir_all(&dir).expect("print output directory");
    dir
}

async fn log_in_browser(b: &Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", EMAIL).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn atkm_printouts_fit_their_pages_on_a4_and_letter() {
    let Some(b) = Browser::start("atkm_printouts_fit_their_pages_on_a4_and_letter").await else {
        return;
    };
    let (app, mixed) = set_up(spawn_app().await).await;
    let big = store_roster(&app, &large());
    log_in_browser(&b, &app).await;
    let out = out_dir();
    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let reference = pdf(
            &b,
            &app.url(&format!("/atkm/reference?paper={paper}")),
            letter,
        )
        .await;
        assert_eq!(
            page_count(&reference, &out.join(format!("reference-{paper}.pdf"))),
            2,
            "the quick reference is two sides of {paper}"
        );
        let spills = spilling(&b, ".ref-block").await;
        assert!(
            spills.is_empty(),
            "reference blocks spill on {paper}: {spills:?}"
        );

        for (id, cards, name) in [(mixed, 10, "mixed"), (big, 2, "large")] {
            let printed = pdf(
                &b,
                &app.url(&format!("/rosters/{id}/print/cards?paper={paper}")),
                letter,
            )
            .await;
            assert_eq!(
                page_count(&printed, &out.join(format!("cards-{name}-{paper}.pdf"))),
                usize::div_ceil(cards, 4),
                "{cards} cards, four to a {paper} page"
            );
            let spills = spilling(&b, ".card").await;
            assert!(spills.is_empty(), "cards overflow on {paper}: {spills:?}");

            let sheet = pdf(
                &b,
                &app.url(&format!("/rosters/{id}/print/sheet?paper={paper}")),
                letter,
            )
            .await;
            assert_eq!(
                page_count(&sheet, &out.join(format!("sheet-{name}-{paper}.pdf"))),
                1,
                "the sheet of {name} is one {paper} page"
            );
            let spills = spilling(&b, ".roster-print").await;
            assert!(
                spills.is_empty(),
                "the sheet overflows on {paper}: {spills:?}"
            );
        }
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn atkm_quick_reference_reads_on_a_phone() {
    let Some(b) = Browser::start_phone("atkm_quick_reference_reads_on_a_phone", 390).await else {
        return;
    };
    let app = spawn_app().await;
    b.open(&app.url("/atkm/reference")).await;
    b.find(".ref-page").await;
    let sizes = b
        .client
        .execute(
            "const px = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
             const stack = document.querySelector('.sheet-stack');
             return [px('.ref-page p, .ref-page li'), px('.ref-page td'), stack.style.zoom || '1',
                     document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .expect("sizes");
    let text = sizes[0].as_f64().unwrap_or(0.0);
    let cell = sizes[1].as_f64().unwrap_or(0.0);
    assert!(text >= 14.0, "text {text} px on a phone");
    assert!(cell >= 12.0, "tables {cell} px on a phone");
    assert_eq!(sizes[2], "1", "not a whole sheet shrunk to the screen");
    assert!(
        sizes[3].as_f64().unwrap_or(9999.0) <= 390.0,
        "the page is no wider than the phone: {}",
        sizes[3]
    );
    b.screenshot(&out_dir().join("reference-phone.png")).await;
    b.close().await;
}
