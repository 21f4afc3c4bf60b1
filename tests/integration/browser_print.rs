//! Printouts in headless Chromium: PDFs on A4 and Letter, page counts, and the catalogue as the
//! one source of the numbers. PDFs and PNG renderings go to `target/browser-shots/print/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use fantoccini::wd::{PrintConfiguration, PrintMargins, PrintSize};
use muster::rules::{systems::lotf::Catalogue, Systems};
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{spawn_app, spawn_app_with_rules, TestApp};

fn out_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/print");
    std::fs::create_dir_all(&dir).expect("print output directory");
    dir
}

pub(crate) async fn pdf(b: &Browser, url: &str, letter: bool) -> Vec<u8> {
    b.open(url).await;
    b.find("main").await;
    let config = PrintConfiguration::builder()
        .size(if letter {
            PrintSize::US_LETTER
        } else {
            PrintSize::A4
        })
        .margins(PrintMargins {
            top: 0.0,
            bottom: 0.0,
            left: 0.0,
            right: 0.0,
        })
        .background(true)
        .shrink_to_fit(false)
        .build()
        .expect("print configuration");
    b.client.print(config).await.expect("print to PDF")
}

/// Pages of a PDF: `pdfinfo` when poppler is installed, else the page objects counted.
pub(crate) fn page_count(pdf: &[u8], path: &Path) -> usize {
    std::fs::write(path, pdf).expect("write PDF");
    if let Ok(out) = Command::new("pdfinfo").arg(path).output() {
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(line) = text.lines().find(|l| l.starts_with("Pages:")) {
            return line
                .trim_start_matches("Pages:")
                .trim()
                .parse()
                .expect("page count");
        }
    }
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

/// Renders the PDF's pages to PNG beside it, for people to look at (poppler's pdftoppm).
fn render_png(path: &Path) {
    let stem = path.with_extension("");
    let _ = Command::new("pdftoppm")
        .args(["-png", "-r", "60"])
        .arg(path)
        .arg(&stem)
        .status();
}

async fn register_and_token(app: &TestApp) -> String {
    app.register("printer@example.org", "Printer", crate::helpers::PASSWORD)
        .await;
    app.api_token("printer@example.org", crate::helpers::PASSWORD)
        .await
}

/// A roster with 12 distinct profiles in 3 groups of 4 (and two duplicates that share cards).
fn twelve_profiles() -> Value {
    let profiles: [(&str, &str, &str, &[&str]); 12] = [
        ("infantry", "tiny", "smoothbore", &[]),
        ("infantry", "small", "smoothbore", &[]),
        ("infantry", "medium", "smoothbore", &[]),
        ("infantry", "large", "smoothbore", &[]),
        ("infantry", "medium", "rifled", &[]),
        ("infantry", "medium", "smoothbore", &["elite"]),
        ("infantry", "medium", "smoothbore", &["grenadiers"]),
        ("infantry", "small", "smoothbore", &["light_infantry"]),
        ("cavalry", "small", "mixed", &[]),
        ("cavalry", "medium", "mixed", &["dragoons"]),
        ("artillery", "small", "light_gun", &[]),
        ("artillery", "medium", "heavy_gun", &[]),
    ];
    let mut groups = Vec::new();
    for (gi, chunk) in profiles.chunks(4).enumerate() {
        let mut elements: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(i, (t, s, w, u))| json!({"name": format!("Unit {}{}", gi + 1, i + 1), "type": t, "size": s, "weapon": w, "upgrades": u}))
            .collect();
        if gi == 0 {
            elements.push(json!({"name": "Twin of 1.3", "type": "infantry", "size": "medium", "weapon": "smoothbore", "upgrades": []}));
        }
        groups.push(
            json!({"commander": {"name": format!("Colonel {}", gi + 1)}, "elements": elements}),
        );
    }
    json!({"format": "muster.lotf.roster/1", "name": "Twelve profiles", "war": "american_revolution", "nation": "british",
           "points_limit": 600, "force_commander": {"name": "Howe"}, "groups": groups})
}

/// The largest legal organisation: 6 groups of 6 elements.
fn six_by_six() -> Value {
    let groups: Vec<Value> = (1..=6)
        .map(|g| json!({"commander": {"name": format!("Brigadier {g}")}, "elements": (1..=6).map(|e| json!(
            {"name": format!("Regiment of Foot {g}.{e}"), "type": "infantry", "size": "medium", "upgrades": []})).collect::<Vec<_>>()}))
        .collect();
    json!({"format": "muster.lotf.roster/1", "name": "Six by six", "war": "american_revolution", "nation": "british",
           "points_limit": 1000, "force_commander": {"name": "Cornwallis"}, "groups": groups})
}

async fn create(app: &TestApp, token: &str, doc: &Value) -> i64 {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(doc)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// Logs the browser in through the login page.
async fn log_in_browser(b: &Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", "printer@example.org").await;
    b.fill("#password", crate::helpers::PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printouts_have_the_expected_pages_on_a4_and_letter() {
    let Some(b) = Browser::start("printouts_have_the_expected_pages_on_a4_and_letter").await else {
        return;
    };
    let app = spawn_app().await;
    let token = register_and_token(&app).await;
    let twelve = create(&app, &token, &twelve_profiles()).await;
    let big = create(&app, &token, &six_by_six()).await;
    log_in_browser(&b, &app).await;
    let out = out_dir();

    for (letter, paper) in [(false, "a4"), (true, "letter")] {
        let reference = pdf(
            &b,
            &app.url(&format!("/lotf/reference?paper={paper}")),
            letter,
        )
        .await;
        let path = out.join(format!("reference-{paper}.pdf"));
        assert_eq!(
            page_count(&reference, &path),
            2,
            "the quick reference is two sides of {paper}"
        );
        render_png(&path);

        let cards = pdf(
            &b,
            &app.url(&format!(
                "/rosters/{twelve}/print/cards?paper={paper}&size=standard"
            )),
            letter,
        )
        .await;
        let path = out.join(format!("cards-standard-{paper}.pdf"));
        assert_eq!(
            page_count(&cards, &path),
            3,
            "12 profiles: 2 pages of 9 cards, then the glossary ({paper})"
        );
        render_png(&path);

        let large = pdf(
            &b,
            &app.url(&format!(
                "/rosters/{twelve}/print/cards?paper={paper}&size=large"
            )),
            letter,
        )
        .await;
        let path = out.join(format!("cards-large-{paper}.pdf"));
        // Issue 18: A6 on Letter uses the sheet: four (105 x 138 mm) a page, as on A4.
        assert_eq!(
            page_count(&large, &path),
            12 / 4,
            "large cards, four a page on {paper}"
        );
        render_png(&path);

        // Issue 18: the sheet is played from (stat lines, hit and disorder boxes, the
        // discipline track on every element's line), and an ordinary force still fits one page:
        // three groups and thirteen elements here. The largest legal organisation takes two.
        let sheet = pdf(
            &b,
            &app.url(&format!("/rosters/{twelve}/print/sheet?paper={paper}")),
            letter,
        )
        .await;
        let path = out.join(format!("sheet-3x4-{paper}.pdf"));
        assert_eq!(
            page_count(&sheet, &path),
            1,
            "a sheet of 3 groups and 13 elements fits one {paper} page"
        );
        render_png(&path);
        let sheet = pdf(
            &b,
            &app.url(&format!("/rosters/{big}/print/sheet?paper={paper}")),
            letter,
        )
        .await;
        let path = out.join(format!("sheet-6x6-{paper}.pdf"));
        assert_eq!(
            page_count(&sheet, &path),
            2,
            "a 6 × 6 roster sheet takes two {paper} pages"
        );
        render_png(&path);
    }
    b.close().await;
}

#[tokio::test]
async fn cards_merge_identical_profiles_and_show_counts_and_names() {
    let app = spawn_app().await;
    let token = register_and_token(&app).await;
    let id = create(&app, &token, &twelve_profiles()).await;
    let html = app.get_html(&format!("/rosters/{id}/print/cards")).await;
    assert_eq!(
        html.matches("<article class=\"card").count(),
        12,
        "one card per distinct profile"
    );
    assert!(
        html.contains("<p class=\"card-title\">Unit 13, Twin of 1.3</p>") && html.contains("×2"),
        "the twin shares a card, their names its headline"
    );
    assert!(
        html.contains("<article class=\"card side-"),
        "cards carry their side's colour"
    );
    assert!(
        html.matches("class=\"type-icon\"").count() >= 12,
        "every card has its type symbol"
    );
    assert!(
        html.contains("Skills on these cards"),
        "standard cards have a glossary"
    );
    let each = app
        .get_html(&format!("/rosters/{id}/print/cards?each=1"))
        .await;
    assert_eq!(
        each.matches("<article class=\"card").count(),
        13,
        "one card per element on request"
    );
    let large = app
        .get_html(&format!("/rosters/{id}/print/cards?size=large"))
        .await;
    assert!(
        !large.contains("Skills on these cards"),
        "large cards carry their skills"
    );
}

#[tokio::test]
async fn print_pages_are_the_owners_or_the_share_links() {
    let app = spawn_app().await;
    let token = register_and_token(&app).await;
    let id = create(&app, &token, &six_by_six()).await;
    let stranger = app.other_visitor();
    for kind in ["cards", "sheet"] {
        assert_eq!(
            app.get(&format!("/rosters/{id}/print/{kind}"))
                .await
                .status(),
            200
        );
        assert_eq!(
            stranger
                .get(&format!("/rosters/{id}/print/{kind}"))
                .await
                .status(),
            303
        );
    }
    app.post_form(
        &format!("/rosters/{id}"),
        &format!("/rosters/{id}/share"),
        &[],
    )
    .await;
    let page = app.get_html(&format!("/rosters/{id}")).await;
    let start = page.find("/shared/").unwrap();
    let path = &page[start..start + page[start..].find('"').unwrap()];
    let shared = stranger.get_html(path).await;
    assert!(
        shared.contains(&format!("{path}/print/cards")),
        "the share link offers the printouts"
    );
    assert_eq!(
        stranger.get(&format!("{path}/print/cards")).await.status(),
        200
    );
    assert_eq!(
        stranger.get(&format!("{path}/print/sheet")).await.status(),
        200
    );
    assert_eq!(
        stranger.get("/lotf/reference").await.status(),
        200,
        "the quick reference is public"
    );
}

#[tokio::test]
async fn every_printed_number_comes_from_the_catalogue() {
    let mut doc: Value = serde_json::from_str(&Catalogue::builtin().unwrap().to_json()).unwrap();
    for t in doc["element_types"].as_array_mut().unwrap() {
        if t["id"] == "infantry" {
            for s in t["sizes"].as_array_mut().unwrap() {
                if s["size"] == "medium" {
                    s["maneuver"] = json!(7);
                    s["morale"] = json!(9);
                    s["points"] = json!(33);
                }
            }
        }
    }
    for r in doc["commanders"]["ratings"].as_array_mut().unwrap() {
        if r["id"] == "skilled" {
            r["spi"] = json!(21);
        }
    }
    let modified = Catalogue::from_json(&doc.to_string()).expect("still consistent");
    let app = spawn_app_with_rules(Systems {
        lotf: modified,
        ..Systems::builtin().unwrap()
    })
    .await;
    let token = register_and_token(&app).await;
    let id = create(&app, &token, &six_by_six()).await;

    let reference = app.get_html("/lotf/reference").await;
    assert!(
        reference.contains("<td>Infantry</td><td>Medium</td><td>7</td>"),
        "the statistics table shows the changed Maneuver"
    );
    assert!(
        reference.contains("<td>21\"</td>"),
        "the commander table shows the changed SPI"
    );
    let cards = app.get_html(&format!("/rosters/{id}/print/cards")).await;
    assert!(
        cards.contains("<b>7</b><span>Maneuver</span>")
            && cards.contains("<b>9+</b><span>Morale</span>")
    );
    assert!(cards.contains("33 pts"));
    let sheet = app.get_html(&format!("/rosters/{id}/print/sheet")).await;
    assert!(
        sheet.contains("1188 / 1000 pts"),
        "36 × 33 points on the sheet"
    );
    // Issue 18: the sheet is played from: every element's line has the stat line from the
    // catalogue, a hit box per point of Discipline, disorder boxes and the discipline track.
    assert!(
        sheet.contains("<td class=\"stat\">7</td>") && sheet.contains("<td class=\"stat\">9+</td>"),
        "the sheet's stat lines show the changed Maneuver and Morale"
    );
    assert_eq!(
        sheet.matches("<span class=\"start\">").count(),
        36,
        "each element's discipline track marks where it starts"
    );
}

/// Issue 18: the largest orders of battle (Second Trenton's 33 small infantry on one card,
/// Guilford Court House, Princeton, Sainte-Foy) and a roster of 200-character names print every
/// card with all its content inside the card, in every card size and mode.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_card_runs_past_its_box() {
    let Some(b) = Browser::start("no_card_runs_past_its_box").await else {
        return;
    };
    let app = spawn_app().await;
    let token = register_and_token(&app).await;
    let mut ids = Vec::new();
    for (battle, side) in [
        ("second_trenton", 1),
        ("guilford_court_house", 1),
        ("princeton", 0),
        ("sainte_foy", 0),
    ] {
        let refight: Value = app
            .get(&format!("/api/v1/lotf/historical/{battle}"))
            .await
            .json()
            .await
            .unwrap();
        ids.push((
            battle,
            create(&app, &token, &refight["sides"][side]["forces"][0]).await,
        ));
    }
    let mut long = twelve_profiles();
    for (k, e) in long["groups"][0]["elements"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        e["name"] = json!(format!("{k} {}", "Very Long Regimental Name ".repeat(8))
            .chars()
            .take(200)
            .collect::<String>());
    }
    ids.push(("long names", create(&app, &token, &long).await));
    log_in_browser(&b, &app).await;

    let mut overflowing = Vec::new();
    for (name, id) in &ids {
        for query in [
            "",
            "each=1",
            "size=large",
            "size=large&each=1",
            "paper=letter&size=large",
        ] {
            b.open(&app.url(&format!("/rosters/{id}/print/cards?{query}")))
                .await;
            b.find("article.card").await;
            for card in crate::lod_print::spilling(&b, "article.card").await {
                overflowing.push(format!("{name} ({query}): {card}"));
            }
        }
    }
    assert!(overflowing.is_empty(), "cards overflow: {overflowing:#?}");
}
