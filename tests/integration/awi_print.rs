//! AWI printouts: unit cards with their figure tallies and the roster sheet of an order of
//! battle with every troop type, the public two-sided quick reference, the numbers on them
//! against the catalogue, and in headless Chromium the pages they print to on A4 and Letter with
//! nothing spilling out of a card or a page, and the quick reference read on a 390 px phone.
//! PDFs go to `target/browser-shots/awi-print/`.

use std::path::PathBuf;

use muster::app::rosters::content_for;
use muster::rules::systems::awi::parse_roster;
use muster::rules::systems::{AnyRoster, Systems};
use muster::store;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, TestApp, PASSWORD};

const EMAIL: &str = "adjutant@example.org";

/// Every troop type and grade, a rifle-armed company, guns of both classes (one short of
/// gunners) and a brigadier still to be rated.
fn crown() -> Value {
    json!({"format": "muster.awi.oob/1", "name": "Crown forces", "side": "British",
    "cinc": {"name": "Cornwallis"},
    "brigades": [
      {"name": "Webster's Brigade", "brigadier": {"name": "Webster", "ability": 6}, "units": [
        {"name": "33rd Foot", "type": "infantry", "grade": "trained", "bases": 6},
        {"name": "23rd Foot", "type": "infantry", "grade": "elite", "bases": 8},
        {"name": "Jägers", "type": "skirmishers", "grade": "elite", "bases": 2, "arms": "rifle"},
        {"name": "Royal Artillery", "type": "artillery", "grade": "trained", "gun": "medium", "gunners": 4}]},
      {"name": "Tarleton's Legion", "brigadier": {"name": "Tarleton"}, "units": [
        {"name": "Legion horse", "type": "cavalry", "grade": "raw", "bases": 4},
        {"name": "Loyalist militia", "type": "infantry", "grade": "militia", "bases": 5},
        {"name": "Light gun", "type": "artillery", "grade": "militia", "gun": "light", "gunners": 2}]}
    ]})
}

/// A large army: four brigades of six 12-base regiments, 36 figure boxes a card.
fn big() -> Value {
    let brigades: Vec<Value> = (1..=4)
        .map(|b| {
            json!({"name": format!("Brigade {b}"), "brigadier": {"name": format!("Brigadier {b}"), "ability": 5},
            "units": (1..=6).map(|u| json!({"name": format!("Regiment {b}.{u} of the line"),
                "type": "infantry", "grade": "trained", "bases": 12})).collect::<Vec<_>>()})
        })
        .collect();
    json!({"format": "muster.awi.oob/1", "name": "Four by six", "side": "Continental",
           "cinc": {"name": "Washington"}, "brigades": brigades})
}

fn store_roster(app: &TestApp, doc: &Value) -> i64 {
    let rules = Systems::builtin().expect("built-in rules");
    let mut roster = AnyRoster::Awi(parse_roster(&doc.to_string()).expect("an AWI roster"));
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

/// The card (an `<article>`) whose title is `name`.
fn card<'a>(html: &'a str, name: &str) -> &'a str {
    let title = format!("<p class=\"card-title\">{name}</p>");
    let at = html
        .find(&title)
        .unwrap_or_else(|| panic!("a card for {name}"));
    let start = html[..at].rfind("<article").expect("card start");
    let end = at + html[at..].find("</article>").expect("card end");
    &html[start..end]
}

#[tokio::test]
async fn awi_cards_carry_the_catalogue_numbers_of_each_unit() {
    let app = spawn_app().await;
    app.register(EMAIL, "Adjutant", PASSWORD).await;
    let id = store_roster(&app, &crown());
    let html = unescape(&app.get_html(&format!("/rosters/{id}/print/cards")).await);
    assert_eq!(
        html.matches("<article class=\"card").count(),
        7,
        "one card a unit"
    );
    assert!(html.contains("side-red"), "the British side's colour");

    let foot = card(&html, "33rd Foot");
    assert!(foot.contains("Trained infantry · close order"));
    assert!(foot.contains("6 bases · 18 figures · 360 men · bases 45 × 20 mm"));
    assert_eq!(
        foot.matches("class=\"awi-base").count(),
        6,
        "a group a base"
    );
    assert_eq!(
        foot.matches("<span class=\"box\"></span>").count(),
        18 + 6,
        "18 figures and the state boxes"
    );
    // W-3: 6 bases; the second base lost is 33 %: −3 on morale, −1 entering; half after 3.
    assert!(
        foot.contains(">−1/−0<") && foot.contains(">−3/−1<") && foot.contains(">½ −5/−2<"),
        "{foot}"
    );
    assert!(foot.contains("Musket: close 0–4\", long 4–8\""));
    assert!(foot.contains("class=\"fire-need\">7+<") && foot.contains("class=\"melee-need\">7+<"));
    assert!(foot
        .contains("<th>Infantry in line</th><td>6\"</td><td>8\"</td><td>10\"</td><td>16\"</td>"));
    assert!(foot.contains(
        "<th>Infantry in column</th><td>10\"</td><td>12\"</td><td>12\"</td><td>16\"</td>"
    ));
    assert!(foot.contains("2D5, grade 0") && foot.contains("First volley fired"));
    assert!(foot.contains("Webster's Brigade · Webster, ability 6"));

    let elite = card(&html, "23rd Foot");
    assert!(
        elite.contains("class=\"melee-need\">6+<"),
        "elite −1 to the score needed in melee"
    );
    assert!(elite.contains("2D5, grade +1"));

    let jagers = card(&html, "Jägers");
    assert!(jagers.contains("Rifle: close 0–6\", long 6–12\"") && jagers.contains("open order"));
    assert!(jagers.contains("2 bases · 4 figures · 60 men"));
    assert!(
        !jagers.contains("First volley fired"),
        "skirmishers are not close order"
    );

    let horse = card(&html, "Legion horse");
    assert!(horse.contains("cavalry never fire") && horse.contains("2D6, grade −1"));
    assert!(horse.contains("<th>Cavalry</th><td>12\"</td><td>18\"</td><td>24\"</td><td>28\"</td>"));
    assert!(
        horse.contains("Tarleton's Legion · Tarleton, ability ___"),
        "to be rolled: written in"
    );

    let militia = card(&html, "Loyalist militia");
    assert!(
        militia.contains("class=\"fire-need\">8+<") && militia.contains("class=\"melee-need\">8+<")
    );
    assert!(militia.contains("2D6, grade −2"));

    let battery = card(&html, "Royal Artillery");
    assert!(battery.contains("2D10 now (4 gunners)"));
    assert!(
        battery.contains("Medium gun: canister 0–3\", close 3–10\", long 10–20\", extreme 20–30\"")
    );
    assert_eq!(
        battery.matches("class=\"awi-base").count(),
        4,
        "a box a gunner"
    );
    assert!(battery.contains("<th>Medium gun, man-handled</th><td>2\"</td>"));
    let light = card(&html, "Light gun");
    assert!(light.contains("1D10 now (2 gunners)") && light.contains("class=\"fire-need\">8+<"));

    // The sheet: tracks, the break threshold of W-31, abilities and blanks to write in.
    let sheet = unescape(&app.get_html(&format!("/rosters/{id}/print/sheet")).await);
    assert!(
        sheet.contains("class=\"break-point\">3<"),
        "5 units, guns not counted: 3"
    );
    assert_eq!(sheet.matches("<span class=\"box box-mark\">").count(), 1);
    assert!(sheet.contains("brigadier Webster, ability <b>6</b>"));
    assert!(sheet.contains("brigadier Tarleton, ability <span class=\"write-in\">___</span>"));
    assert_eq!(
        sheet.matches("class=\"awi-base").count(),
        6 + 8 + 2 + 4 + 4 + 5 + 2
    );
    assert!(sheet.contains("Muster's victory points (W-31, not in the rules)"));
}

#[tokio::test]
async fn awi_quick_reference_is_public_and_drawn_from_the_catalogue() {
    let app = spawn_app().await;
    let html = unescape(&app.get_html("/awi/reference").await);
    assert_eq!(
        html.matches("class=\"paper ref-page").count(),
        2,
        "two sides"
    );
    let catalogue: Value = app.get("/api/v1/awi/catalog").await.json().await.unwrap();
    // Every morale modifier of the reconstructed table (W-7) is printed with its value.
    for m in catalogue["morale"]["modifiers"].as_array().unwrap() {
        let label = m["label"].as_str().unwrap();
        assert!(html.contains(label), "morale modifier {label}");
    }
    for m in catalogue["firing"].as_array().unwrap() {
        assert!(html.contains(m["label"].as_str().unwrap()));
    }
    assert!(html.contains("<td>Militia</td><td>2D6</td><td>−2</td>"));
    assert!(html.contains("<td>Elite</td><td>2D5</td><td>+1</td>"));
    assert!(html.contains("<td>Cavalry</td><td>12</td><td>18</td><td>24</td><td>28</td>"));
    assert!(html.contains("Victory: Muster's rules (W-31, W-32)"));
    assert!(html.contains("after 6 turns"));
    assert!(html.contains("D10 at or under his ability (1–10; D6+2 when not given, W-4)"));
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/awi-print");
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
async fn awi_printouts_fit_their_pages_on_a4_and_letter() {
    let Some(b) = Browser::start("awi_printouts_fit_their_pages_on_a4_and_letter").await else {
        return;
    };
    let app = spawn_app().await;
    app.register(EMAIL, "Adjutant", PASSWORD).await;
    let crown = store_roster(&app, &crown());
    let big = store_roster(&app, &big());
    log_in_browser(&b, &app).await;
    let out = out_dir();
    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let reference = pdf(
            &b,
            &app.url(&format!("/awi/reference?paper={paper}")),
            letter,
        )
        .await;
        assert_eq!(
            page_count(&reference, &out.join(format!("reference-{paper}.pdf"))),
            2,
            "the quick reference is two sides of {paper}"
        );
        let spills = crate::lod_print::spilling(&b, ".ref-block").await;
        assert!(
            spills.is_empty(),
            "reference blocks spill on {paper}: {spills:?}"
        );

        for (id, cards, name) in [(crown, 7, "crown"), (big, 24, "big")] {
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
            let spills = crate::lod_print::spilling(&b, ".card").await;
            assert!(spills.is_empty(), "cards overflow on {paper}: {spills:?}");
        }
        let sheet = pdf(
            &b,
            &app.url(&format!("/rosters/{crown}/print/sheet?paper={paper}")),
            letter,
        )
        .await;
        assert_eq!(
            page_count(&sheet, &out.join(format!("sheet-crown-{paper}.pdf"))),
            1,
            "the sheet is one {paper} page"
        );
        let spills = crate::lod_print::spilling(&b, ".roster-print").await;
        assert!(
            spills.is_empty(),
            "the sheet overflows on {paper}: {spills:?}"
        );
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn awi_quick_reference_reads_on_a_phone() {
    let Some(b) = Browser::start_phone("awi_quick_reference_reads_on_a_phone", 390).await else {
        return;
    };
    let app = spawn_app().await;
    b.open(&app.url("/awi/reference")).await;
    b.find(".ref-page").await;
    let measures = b
        .client
        .execute(
            "const px = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
             const root = document.documentElement;
             const stack = document.querySelector('.sheet-stack');
             return [px('.ref-page p, .ref-page li'), px('.ref-page td'), stack.style.zoom || '1',
                     root.scrollWidth, root.clientWidth];",
            vec![],
        )
        .await
        .expect("sizes");
    let text = measures[0].as_f64().unwrap_or(0.0);
    let cell = measures[1].as_f64().unwrap_or(0.0);
    assert!(
        text >= 14.0 && cell >= 12.0,
        "text {text} px, tables {cell} px"
    );
    assert_eq!(measures[2], "1", "not a whole sheet shrunk to the screen");
    let (scroll, client) = (
        measures[3].as_f64().unwrap_or(0.0),
        measures[4].as_f64().unwrap_or(0.0),
    );
    assert!(
        scroll <= client + 1.0,
        "no sideways scrolling: {scroll} > {client}"
    );
    b.close().await;
}
