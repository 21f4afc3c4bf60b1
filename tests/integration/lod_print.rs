//! Liberty or Death! printouts: unit cards and the roster sheet of rosters with every kind of
//! unit, the public two-sided quick reference, the numbers on them against the catalogue, and in
//! headless Chromium the pages they print to on A4 and Letter with nothing spilling out of a
//! card or a page. PDFs go to `target/browser-shots/lod-print/`.

use std::path::PathBuf;

use muster::app::rosters::content_for;
use muster::rules::systems::lod::types::HalfDice;
use muster::rules::systems::lod::{parse_roster, Catalogue, Kind, Weapon};
use muster::rules::systems::{AnyRoster, Systems};
use muster::store;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::browser_print::{page_count, pdf};
use crate::helpers::{spawn_app, spawn_app_with_rules, TestApp, PASSWORD};

const EMAIL: &str = "quartermaster@example.org";

/// A Continental army: two identical 4-base Continental Regiments (DRILLED), veterans with the
/// ELITE rule, Green Militia (UNRELIABLE), Riflemen (MARKSMEN), dragoons and a 6pdr battery.
fn continental() -> Value {
    json!({"format": "muster.lod.roster/1", "name": "Army of the Hudson", "army_list": "continental",
    "c_in_c": {"name": "Washington"},
    "brigades": [
      {"name": "1st Brigade", "general": {"name": "Greene"}, "units": [
        {"name": "1st Virginia", "entry": "continental_regiment", "bases": 4},
        {"name": "2nd Virginia", "entry": "continental_regiment", "bases": 4},
        {"name": "Old Line", "entry": "experienced_infantry_regiment", "bases": 4},
        {"name": "Morgan's Rifles", "entry": "riflemen", "bases": 3}]},
      {"name": "2nd Brigade", "general": {"name": "Sullivan"}, "units": [
        {"name": "Levies", "entry": "green_militia_regiment", "bases": 5},
        {"name": "Lee's Legion", "entry": "continental_light_dragoons", "bases": 4},
        {"name": "Knox's guns", "entry": "artillery_6pdr", "bases": 2}]}
    ]})
}

/// The most crowded cards: Guard Infantry with six rules, grenadiers detached, the largest
/// cavalry and batteries, marksmen of both crown lists (Jagers as allies, L-49).
fn british() -> Value {
    json!({"format": "muster.lod.roster/1", "name": "Crown Forces", "army_list": "british",
    "c_in_c": {"name": "Cornwallis"},
    "brigades": [
      {"name": "Guards Brigade", "general": {"name": "O'Hara"}, "units": [
        {"name": "Brigade of Guards", "entry": "guard_infantry", "bases": 5},
        {"name": "23rd Foot", "entry": "regular_infantry_regiment", "bases": 5, "grenadiers_detached": true},
        {"name": "71st Highlanders", "entry": "highland_infantry_regiment", "bases": 5},
        {"name": "Grenadier Battalion", "entry": "grenadier_infantry", "bases": 5},
        {"name": "Queen's Rangers", "entry": "queens_rangers", "bases": 4},
        {"name": "Jagers", "entry": "hessian.jagers", "bases": 5}]},
      {"name": "Mounted and guns", "general": {"name": "Tarleton"}, "units": [
        {"name": "17th Light Dragoons", "entry": "light_dragoon_regiment", "bases": 6},
        {"name": "British Legion", "entry": "legion_cavalry", "bases": 6},
        {"name": "Royal Artillery", "entry": "artillery_12pdr", "bases": 3},
        {"name": "Light guns", "entry": "artillery_3pdr", "bases": 1},
        {"name": "Indians", "entry": "allied_indians", "bases": 4}]}
    ]})
}

/// A large army: four brigades of six 5-base regiments, every hit track 30 boxes long.
fn four_by_six() -> Value {
    let brigades: Vec<Value> = (1..=4)
        .map(|b| {
            json!({"name": format!("Brigade {b}"), "general": {"name": format!("General {b}")},
            "units": (1..=6).map(|u| json!({"name": format!("Regiment {b}.{u}"),
                "entry": "regular_infantry_regiment", "bases": 5})).collect::<Vec<_>>()})
        })
        .collect();
    json!({"format": "muster.lod.roster/1", "name": "Four by six", "army_list": "british",
           "c_in_c": {"name": "Clinton"}, "brigades": brigades})
}

/// Stores a roster for `EMAIL` the way Muster stores any roster (ids, catalogue version, check).
fn store_roster(app: &TestApp, doc: &Value) -> i64 {
    let rules = Systems::builtin().expect("built-in rules");
    let mut roster = AnyRoster::Lod(parse_roster(&doc.to_string()).expect("a LoD roster"));
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

async fn set_up() -> (TestApp, i64, i64) {
    set_up_with(spawn_app().await).await
}

async fn set_up_with(app: TestApp) -> (TestApp, i64, i64) {
    app.register(EMAIL, "Quartermaster", PASSWORD).await;
    let ours = store_roster(&app, &continental());
    let theirs = store_roster(&app, &british());
    (app, ours, theirs)
}

/// The page's text with the quotes askama escapes put back, to compare with inches and names.
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

#[tokio::test]
async fn lod_cards_carry_the_catalogue_numbers_for_each_profile() {
    let (app, ours, _) = set_up().await;
    let html = unescape(&app.get_html(&format!("/rosters/{ours}/print/cards")).await);
    assert_eq!(
        html.matches("<article class=\"card").count(),
        6,
        "the two identical regiments share one card"
    );
    let regiment = card(&html, "1st Virginia, 2nd Virginia");
    assert!(regiment.contains("×2"), "the shared card counts its units");
    assert!(regiment.contains("Regular Infantry"));
    assert!(
        regiment.contains("WORN <b>8</b> · SHAKEN <b>16</b> · AUTO BROKEN <b>24</b>"),
        "4 bases of infantry: 8/16/24"
    );
    assert_eq!(
        regiment.matches("class=\"cell").count(),
        24,
        "a hit track to AUTO BROKEN"
    );
    assert!(regiment.contains("<span class=\"cell cell-mark\">W</span>"));
    assert!(regiment.contains("<span class=\"cell cell-mark\">S</span>"));
    // 2½ dice a base × 4 bases: 10 at effective range, 12 short (+½), 8 long (−½).
    assert!(regiment.contains("class=\"shoot-effective\">10<"));
    assert!(regiment.contains("class=\"shoot-short\">12<"));
    assert!(regiment.contains("class=\"shoot-long\">8<"));
    assert!(
        regiment.contains("class=\"melee-total\">12<"),
        "3 a base × 4"
    );
    assert!(
        regiment.contains("<th>ORDER</th><td>5</td><td>4</td><td>3</td>"),
        "DRILLED"
    );
    assert!(regiment.contains("<th>MORALE</th><td>4</td><td>3</td><td>2</td>"));
    assert!(
        regiment.contains("0–7\"") && regiment.contains("8–14\"") && regiment.contains("15–28\"")
    );
    assert!(regiment.contains("within 12\" of its brigade"));
    assert!(regiment.contains("1st Brigade (Greene)"));

    let veterans = card(&html, "Old Line");
    assert!(veterans.contains("Elite Infantry"));
    // ceil(2½ × 4) + 2 for the ELITE rule; melee 3 × 4 + 2.
    assert!(veterans.contains("class=\"shoot-effective\">12<"));
    assert!(veterans.contains("class=\"melee-total\">14<"));
    assert!(
        veterans.contains("RELIABLE (L-7)"),
        "RELIABLE re-rolls ORDER tests only"
    );

    let rifles = card(&html, "Morgan's Rifles");
    assert!(rifles.contains("shooting 3+ (MARKSMEN)"));
    assert!(rifles.contains("ignored (SCOUTS)"));
    assert!(rifles.contains("within 30\""), "INDEPENDENT");
    assert!(rifles.contains("9–16\""), "rifled muskets reach further");

    let levies = card(&html, "Levies");
    assert!(levies.contains("5: 1 · 6: 1 (UNRELIABLE)"));
    assert!(levies.contains("WORN <b>10</b> · SHAKEN <b>20</b> · AUTO BROKEN <b>30</b>"));

    let guns = card(&html, "Knox's guns");
    assert!(
        guns.contains("each hit becomes D3 hits"),
        "6pdr hits explode"
    );
    assert!(guns.contains("canister 0–10\": each hit becomes 2D3"));
    assert!(guns.contains("Limbered") && guns.contains("Unlimbered"));

    let each = app
        .get_html(&format!("/rosters/{ours}/print/cards?each=1"))
        .await;
    assert_eq!(
        each.matches("<article class=\"card").count(),
        7,
        "one card per unit on request"
    );
}

#[tokio::test]
async fn lod_sheet_has_tracks_command_points_and_the_break_point() {
    let (app, ours, theirs) = set_up().await;
    let html = unescape(&app.get_html(&format!("/rosters/{ours}/print/sheet")).await);
    assert!(html.contains("Continental army · C-in-C Washington"));
    assert!(
        html.contains("<b class=\"break-point\">4</b> of 7"),
        "⌈7/2⌉"
    );
    assert!(
        html.contains("(2 for the brigades + D3"),
        "Command Points: a point per brigade and the C-in-C's D3"
    );
    assert_eq!(
        html.matches("class=\"box box-dashed\"").count(),
        3,
        "room for the most a D3 gives"
    );
    assert!(html.contains("Continental Regiment, 4 bases (8/16/24)"));
    assert!(html.contains("General Greene"));
    assert_eq!(html.matches("killed <span class=\"box\">").count(), 2);
    assert!(html.contains("Legal"));
    let crown = app
        .get_html(&format!("/rosters/{theirs}/print/sheet"))
        .await;
    assert!(
        crown.contains("Regular Infantry Regiment, 4 bases (8/16/24)"),
        "grenadiers detached: 5 chosen, 4 fielded (L-50)"
    );
    assert!(crown.contains("Warning:"), "the allied Jagers are named");
}

#[tokio::test]
async fn lod_quick_reference_is_public_and_drawn_from_the_catalogue() {
    let app = spawn_app().await;
    let stranger = app.other_visitor();
    let res = stranger.get("/lod/reference").await;
    assert_eq!(res.status(), 200, "the quick reference is public");
    let html = unescape(&res.text().await.unwrap());
    let cat = Catalogue::builtin().unwrap();
    for w in &cat.weapons {
        let row = format!(
            "<td>{}</td><td>{}–{}\"</td><td>{}–{}\"</td><td>{}–{}\"</td>",
            w.name, w.short[0], w.short[1], w.effective[0], w.effective[1], w.long[0], w.long[1]
        );
        assert!(html.contains(&row), "the range table has {}", w.name);
    }
    for r in &cat.special_rules {
        assert!(html.contains(&r.name), "{} is explained", r.name);
    }
    for a in &cat.tables.command_actions {
        assert!(html.contains(&a.name), "{} is listed", a.name);
    }
    for ruling in ["L-6", "L-7", "L-8", "L-20", "L-29", "L-31"] {
        assert!(
            html.contains(&format!("<strong>{ruling}</strong>")),
            "{ruling}"
        );
    }
    assert!(html.contains(
        "<span class=\"nw\">3: 6/12/18</span><br><span class=\"nw\">4: 8/16/24</span><br><span class=\"nw\">5: 10/20/30</span>"
    ));
    assert!(html.contains("<td>Elite</td><td>3, 4, 5</td><td>6</td><td>4+</td><td>4+</td>"));
    assert!(html.contains("+2 to the side with more bases"));
    assert!(html.contains("BROKEN 5, SHAKEN 3, WORN 1; +10"));
    assert_eq!(app.get("/lod/reference?paper=letter").await.status(), 200);
}

#[tokio::test]
async fn lod_every_printed_number_comes_from_the_catalogue() {
    let mut cat = Catalogue::builtin().unwrap();
    for kind in &mut cat.kinds {
        if kind.id == Kind::Infantry {
            kind.dice.shooting = HalfDice(6);
            for row in &mut kind.sizes {
                if row.bases == 4 {
                    (row.worn, row.shaken, row.auto_broken) = (9, 18, 27);
                }
            }
        }
    }
    for w in &mut cat.weapons {
        if w.id == Weapon::SmoothboreMusket {
            w.long = [15, 29];
        }
    }
    cat.general.command_range = 13;
    cat.tables.victory.vp.broken = 6;
    let app = spawn_app_with_rules(Systems {
        lod: cat,
        ..Systems::builtin().unwrap()
    })
    .await;
    let (app, ours, _) = set_up_with(app).await;
    let cards = unescape(&app.get_html(&format!("/rosters/{ours}/print/cards")).await);
    let regiment = card(&cards, "1st Virginia, 2nd Virginia");
    assert!(regiment.contains("WORN <b>9</b> · SHAKEN <b>18</b> · AUTO BROKEN <b>27</b>"));
    assert_eq!(regiment.matches("class=\"cell").count(), 27);
    assert!(
        regiment.contains("class=\"shoot-effective\">12<"),
        "3 dice a base × 4"
    );
    assert!(regiment.contains("15–29\""));
    assert!(regiment.contains("within 13\""));
    let sheet = unescape(&app.get_html(&format!("/rosters/{ours}/print/sheet")).await);
    assert!(sheet.contains("Continental Regiment, 4 bases (9/18/27)"));
    assert!(sheet.contains("BROKEN 6, SHAKEN 3"));
    let reference = unescape(&app.get_html("/lod/reference").await);
    assert!(reference
        .contains("<td>Smoothbore muskets</td><td>0–7\"</td><td>8–14\"</td><td>15–29\"</td>"));
    assert!(reference.contains("4: 9/18/27"));
    assert!(reference.contains("within 13\" of its own General"));
    assert!(reference.contains("BROKEN 6, SHAKEN 3"));
}

pub(crate) fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/lod-print");
    std::fs::create_dir_all(&dir).expect("print output directory");
    dir
}

/// Elements matching `css` whose content does not fit their box, as "text…: how much".
pub(crate) async fn spilling(b: &Browser, css: &str) -> Vec<String> {
    let script = format!(
        "return Array.from(document.querySelectorAll('{css}')).filter(e => \
           e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 || \
           Array.from(e.querySelectorAll('table, p, ul, div')).some(c => \
             c.getBoundingClientRect().right > e.getBoundingClientRect().right + 1 || \
             c.getBoundingClientRect().bottom > e.getBoundingClientRect().bottom + 1)) \
         .map(e => e.innerText.slice(0, 40) + ': ' + (e.scrollHeight - e.clientHeight) + 'px');"
    );
    let found = b.client.execute(&script, vec![]).await.expect("measure");
    found
        .as_array()
        .map(|a| a.iter().map(|v| v.to_string()).collect())
        .unwrap_or_default()
}

async fn log_in_browser(b: &Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", EMAIL).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lod_printouts_fit_their_pages_on_a4_and_letter() {
    let Some(b) = Browser::start("lod_printouts_fit_their_pages_on_a4_and_letter").await else {
        return;
    };
    let (app, ours, theirs) = set_up().await;
    let big = store_roster(&app, &four_by_six());
    log_in_browser(&b, &app).await;
    let out = out_dir();
    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let reference = pdf(
            &b,
            &app.url(&format!("/lod/reference?paper={paper}")),
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

        for (id, cards, name) in [(ours, 6, "continental"), (theirs, 11, "crown")] {
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
        let sheet = pdf(
            &b,
            &app.url(&format!("/rosters/{big}/print/sheet?paper={paper}")),
            letter,
        )
        .await;
        let path = out.join(format!("sheet-4x6-{paper}.pdf"));
        assert_eq!(
            page_count(&sheet, &path),
            1,
            "24 units with 30-box tracks fit one {paper} page"
        );
        // Issue 18: the 24 regiments share one card, which names as many as fit and counts
        // the rest, and the card still holds its stat lines and tracks.
        b.open(&app.url(&format!("/rosters/{big}/print/cards?paper={paper}")))
            .await;
        let spills = spilling(&b, ".card").await;
        assert!(
            spills.is_empty(),
            "the 24-unit card overflows on {paper}: {spills:?}"
        );
        assert!(
            b.text(".card-title").await.ends_with(" more"),
            "the card counts the names it has no room for"
        );
    }
    b.close().await;
}
