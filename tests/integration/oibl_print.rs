//! One if by Land printouts: unit cards and the roster sheet of the starting points and of a
//! crowded order of battle, the public two-sided quick reference with every number from the
//! catalogue, and in headless Chromium the pages they print to on A4 and Letter with nothing
//! spilling out of a card or a page, and the quick reference read on a 390 px phone. PDFs go to
//! `target/browser-shots/oibl-print/`.

use std::path::PathBuf;

use muster::app::rosters::content_for;
use muster::rules::systems::oibl::{parse_roster, Catalogue};
use muster::rules::systems::{AnyRoster, Systems};
use muster::store;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, spawn_app_with_rules, TestApp, PASSWORD};
use crate::lod_print::spilling;
use crate::oibl_rosters::unescape;

const EMAIL: &str = "adjutant@example.org";

fn american() -> Value {
    serde_json::from_str(include_str!(
        "../../src/rules/systems/oibl/data/examples/american.json"
    ))
    .expect("the American example")
}

/// The most crowded cards and sheet: two brigades, every class, a long militia regiment, a
/// battery of heavy guns, every flag and grant.
fn crowded() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Every class", "nation": "british",
    "army_commander": {"name": "Cornwallis", "rating": 2},
    "brigades": [
      {"name": "Guards and Lights", "commander": {"name": "O'Hara", "rating": 3}, "units": [
        {"name": "Brigade of Guards", "class": "british_line", "stands": 8, "quality": "elite", "grenadiers": true},
        {"name": "Light Infantry", "class": "british_line", "stands": 6, "quality": "veteran", "light_infantry": true, "marksmen": true},
        {"name": "British Legion infantry", "class": "loyalist_provincial", "stands": 4, "quality": "regular", "legion": true, "authorizations": ["skirmish"]},
        {"name": "Ferguson's Rifles", "class": "loyalist_rifle", "stands": 4, "quality": "veteran", "weapon": "ferguson_rifle", "marksmen": true},
        {"name": "Von Bose", "class": "german_line", "stands": 6, "quality": "veteran"},
        {"name": "Fusiliers", "class": "german_light", "stands": 6, "quality": "regular"},
        {"name": "Jaegers", "class": "german_jaeger", "stands": 5, "quality": "elite"}]},
      {"name": "Horse, guns and allies", "commander": {"name": "Tarleton", "rating": 1}, "units": [
        {"name": "17th Light Dragoons", "class": "cavalry", "stands": 4, "quality": "veteran"},
        {"name": "Royal Artillery", "class": "artillery", "stands": 1, "quality": "veteran", "gun": "heavy", "guns": 2},
        {"name": "Loyal Militia", "class": "militia", "stands": 15, "quality": "wretched"},
        {"name": "Discharged Continentals", "class": "militia", "stands": 5, "quality": "regular", "basing": "normal", "bayonets": true, "discharged_continentals": true},
        {"name": "Cherokee", "class": "indian", "stands": 12, "quality": "regular"},
        {"name": "Soissonnais", "class": "french", "stands": 6, "quality": "regular"},
        {"name": "Continentals", "class": "continental", "stands": 6, "quality": "regular"}]}
    ]})
}

/// Stores a roster for `EMAIL` the way Muster stores any roster.
fn store_roster(app: &TestApp, doc: &Value) -> i64 {
    let rules = Systems::builtin().expect("built-in rules");
    let mut roster = AnyRoster::Oibl(parse_roster(&doc.to_string()).expect("an oibl roster"));
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

async fn set_up_with(app: TestApp) -> (TestApp, i64, i64) {
    app.register(EMAIL, "Adjutant", PASSWORD).await;
    let ours = store_roster(&app, &american());
    let big = store_roster(&app, &crowded());
    (app, ours, big)
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

#[tokio::test]
async fn oibl_cards_and_sheet_carry_the_units_numbers() {
    let (app, ours, _) = set_up_with(spawn_app().await).await;
    let html = unescape(&app.get_html(&format!("/rosters/{ours}/print/cards")).await);
    assert_eq!(html.matches("<article class=\"card").count(), 5);
    let regiment = card(&html, "1st Continental Regiment");
    assert!(regiment.contains("Continental infantry"));
    assert!(
        regiment.contains("class=\"morale-number\">8<"),
        "Veteran: 8"
    );
    assert!(regiment.contains("6 stands × 3 figures = 18 figures"));
    // 18 figures (B-9): +1 from 5 lost, +2 from 9, +3 from 14; destroyed from 17 lost (B-33).
    assert_eq!(regiment.matches("class=\"cell").count(), 18);
    for mark in ["+1", "+2", "+3", "✗"] {
        assert!(
            regiment.contains(&format!("<span class=\"cell cell-mark\">{mark}</span>")),
            "{mark}"
        );
    }
    let fifth = regiment
        .split("<span class=\"cell")
        .nth(5)
        .expect("five boxes");
    assert!(
        fifth.contains(">+1<"),
        "the quarter band begins at the 5th loss: {fifth}"
    );
    assert!(
        regiment.contains("<th>close order</th><td>1d6+2\"</td><td>both ranks</td><td>yes</td>")
    );
    assert!(regiment.contains(
        "<th>column</th><td>1d6+4\"</td><td>front rank</td><td>defiles only (B-28)</td>"
    ));
    assert!(regiment.contains("class=\"weapon-range\">7\"<") && regiment.contains("bayonets"));
    for state in ["Panic Marker", "Failed by 1", "Routing", "Reforming"] {
        assert!(regiment.contains(state), "state box {state}");
    }
    assert!(regiment.contains("Continental Brigade (Brigade commander, X 1)"));

    let militia = card(&html, "County Militia");
    assert!(militia.contains("Poor quality: −2 to fire"));
    assert!(
        militia.contains("4 stands × 4 figures = 16 figures") && militia.contains("no bayonets")
    );
    let rifles = card(&html, "Rifle Company");
    assert!(rifles.contains("Marksmen: +2 to fire"));
    assert!(
        rifles.contains("class=\"weapon-range\">12\"<"),
        "long rifle"
    );
    assert!(
        rifles.contains("<th>skirmish order</th><td>1d6+5\"</td><td>each stand</td><td>no</td>")
    );
    let guns = card(&html, "Continental Artillery");
    assert!(
        guns.contains("class=\"gun-figures\">5<"),
        "a light gun fires as 5 figures"
    );
    assert!(guns.contains("Crew 2 a gun"), "B-7 default for light guns");
    assert!(guns.contains("under 12\": 0 · 12\"–25\": −2 · to 40\": −4"));

    let sheet = unescape(&app.get_html(&format!("/rosters/{ours}/print/sheet")).await);
    assert!(sheet.contains("Example: a Continental brigade"));
    assert!(
        sheet.contains("class=\"beaten-at\">3<"),
        "half of 5 units, rounded up (B-34)"
    );
    assert_eq!(
        sheet.matches("class=\"box box-mark\">").count(),
        12 + 1,
        "12 turns (B-35) and the B-34 mark"
    );
    assert!(
        sheet.contains("Continental infantry · Veteran, MN 8 · 6 × 3 = 18 figures · Musket 7\"")
    );
    assert!(
        sheet.contains("light <span class=\"box\"></span> serious"),
        "wound boxes"
    );
    assert!(sheet.contains("Legal"));
}

#[tokio::test]
async fn oibl_quick_reference_is_public_and_drawn_from_the_catalogue() {
    let app = spawn_app().await;
    let stranger = app.other_visitor();
    let res = stranger.get("/oibl/reference").await;
    assert_eq!(res.status(), 200, "the quick reference is public");
    let html = unescape(&res.text().await.unwrap());
    let cat = Catalogue::builtin().unwrap();
    for row in &cat.combat_table.rows {
        let cells: String = row.cells.iter().map(|c| format!("<td>{c}</td>")).collect();
        assert!(
            html.contains(&format!("<tr><th>{}–{}</th>{cells}</tr>", row.min, row.max)),
            "Combat Table row {}–{}",
            row.min,
            row.max
        );
    }
    for m in cat
        .fire_modifiers
        .iter()
        .chain(&cat.melee_modifiers)
        .chain(&cat.morale_modifiers)
    {
        assert!(html.contains(&m.words), "{} is listed", m.id);
    }
    for q in &cat.qualities {
        assert!(html.contains(&format!("<td>{}</td><td>{}</td>", q.name, q.morale_number)));
    }
    for ruling in ["B-2", "B-8", "B-27", "B-34", "B-45"] {
        assert!(
            html.contains(&format!("<strong>{ruling}</strong>")),
            "{ruling}"
        );
    }
    assert!(html.contains("1 → 0, 2–5 → 1, 6 → 2"), "B-8's roll");
    assert!(html.contains("1–2 light wound, 3–4 serious wound, 5–6 killed"));
    assert!(html.contains("8 or 9 destroys the gun"));
    assert!(html.contains("<td>cavalry rout</td><td>1d6+16\"</td><td>20\"</td>"));
    assert_eq!(
        html.matches("class=\"paper ref-page").count(),
        2,
        "two sides"
    );
    assert_eq!(app.get("/oibl/reference?paper=letter").await.status(), 200);
}

#[tokio::test]
async fn oibl_every_printed_number_comes_from_the_catalogue() {
    let mut cat = Catalogue::builtin().unwrap();
    for w in &mut cat.weapons {
        if w.id == "musket" {
            w.range = 8.0;
        }
    }
    for g in &mut cat.guns {
        if g.id.id() == "light" {
            g.figures = 6;
        }
    }
    cat.combat_table.rows[9].cells[12] = 7;
    cat.victory.turns = 10;
    for m in &mut cat.movement {
        if m.id == "close_order" {
            m.base = 3.0;
        }
    }
    let app = spawn_app_with_rules(Systems {
        oibl: cat,
        ..Systems::builtin().unwrap()
    })
    .await;
    let (app, ours, _) = set_up_with(app).await;
    let cards = unescape(&app.get_html(&format!("/rosters/{ours}/print/cards")).await);
    let regiment = card(&cards, "1st Continental Regiment");
    assert!(regiment.contains("class=\"weapon-range\">8\"<"));
    assert!(regiment.contains("<th>close order</th><td>1d6+3\"</td>"));
    assert!(card(&cards, "Continental Artillery").contains("class=\"gun-figures\">6<"));
    let sheet = unescape(&app.get_html(&format!("/rosters/{ours}/print/sheet")).await);
    assert_eq!(sheet.matches("class=\"box box-mark\">").count(), 10 + 1);
    let reference = unescape(&app.get_html("/oibl/reference").await);
    assert!(reference.contains("<td>4</td><td>5</td><td>5</td><td>7</td></tr>"));
    assert!(reference.contains("<td>Musket</td><td>8\"</td>"));
    assert!(reference.contains("After 10 turns"));
}

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/oibl-print");
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
async fn oibl_printouts_fit_their_pages_on_a4_and_letter() {
    let Some(b) = Browser::start("oibl_printouts_fit_their_pages_on_a4_and_letter").await else {
        return;
    };
    let (app, ours, big) = set_up_with(spawn_app().await).await;
    log_in_browser(&b, &app).await;
    let out = out_dir();
    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let reference = pdf(
            &b,
            &app.url(&format!("/oibl/reference?paper={paper}")),
            letter,
        )
        .await;
        let path = out.join(format!("reference-{paper}.pdf"));
        assert_eq!(
            page_count(&reference, &path),
            2,
            "the quick reference is two sides of {paper}"
        );
        let spills = spilling(&b, ".ref-block").await;
        assert!(
            spills.is_empty(),
            "reference blocks spill on {paper}: {spills:?}"
        );

        for (id, cards, name) in [(ours, 5, "american"), (big, 14, "crowded")] {
            let printed = pdf(
                &b,
                &app.url(&format!("/rosters/{id}/print/cards?paper={paper}")),
                letter,
            )
            .await;
            let path = out.join(format!("cards-{name}-{paper}.pdf"));
            assert_eq!(
                page_count(&printed, &path),
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
            let path = out.join(format!("sheet-{name}-{paper}.pdf"));
            assert_eq!(
                page_count(&sheet, &path),
                1,
                "the sheet is one {paper} page"
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
async fn oibl_quick_reference_reads_on_a_phone() {
    let Some(b) = Browser::start_phone("oibl_quick_reference_reads_on_a_phone", 390).await else {
        return;
    };
    let app = spawn_app().await;
    b.open(&app.url("/oibl/reference")).await;
    b.find(".ref-page").await;
    let sizes = b
        .client
        .execute(
            "const px = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
             const stack = document.querySelector('.sheet-stack');
             const root = document.documentElement;
             return [px('.ref-page p, .ref-page li'), px('.ref-page td'), stack.style.zoom || '1',
                     root.scrollWidth, root.clientWidth];",
            vec![],
        )
        .await
        .expect("sizes");
    let text = sizes[0].as_f64().unwrap_or(0.0);
    let cell = sizes[1].as_f64().unwrap_or(0.0);
    assert!(text >= 14.0, "text {text} px");
    assert!(cell >= 12.0, "tables {cell} px");
    assert_eq!(sizes[2], "1", "not a sheet shrunk to the screen");
    let (scroll, client) = (
        sizes[3].as_f64().unwrap_or(0.0),
        sizes[4].as_f64().unwrap_or(0.0),
    );
    assert!(
        scroll <= client + 1.0,
        "the page is {scroll} px wide in a {client} px window"
    );
    b.close().await;
}
