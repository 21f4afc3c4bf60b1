//! The roster builder in headless Chromium, with and without JavaScript: register, build a
//! legal 150-point force of 2 groups and 8 elements, break the Elite cap, fix it, share it and
//! open the share link logged out. Screenshots of every step at 1280 and 390 px wide go to
//! `target/browser-shots/`.

use std::path::PathBuf;

use crate::browser::Browser;
use crate::helpers::{spawn_app, PASSWORD};

fn shots_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/browser-shots")
        .join(name);
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

fn group(n: usize) -> String {
    format!("#groups > section.group-panel:nth-of-type({n})")
}

/// Adds an element through the one add form, to the group the n-th panel shows.
async fn add_element(b: &Browser, g: usize, name: &str, upgrade: &str, expected_total: u32) {
    let panel = b.find(&group(g)).await;
    let group_id = panel
        .attr("id")
        .await
        .expect("panel id")
        .expect("the group panel has an id")
        .trim_start_matches("g-")
        .to_string();
    let form = "#add-element form.add-form";
    b.select(&format!("{form} select[name=group]"), &group_id)
        .await;
    b.fill(&format!("{form} input[name=el_name]"), name).await;
    b.select(&format!("{form} select[name=el_type]"), "infantry")
        .await;
    b.select(&format!("{form} select[name=el_size]"), "small")
        .await;
    b.select(&format!("{form} select[name=el_upgrade]"), upgrade)
        .await;
    b.click(&format!("{form} button[type=submit]")).await;
    let want = expected_total.to_string();
    b.wait_for_text("#total-points", |t| t == want).await;
}

async fn set_upgrade(b: &Browser, element: &str, upgrade: &str, expected_total: u32) {
    b.click(&format!("a[aria-label='Edit {element}']")).await;
    b.select(".editing-row select[name=el_upgrade]", upgrade)
        .await;
    b.click(".editing-row button[type=submit]").await;
    let want = expected_total.to_string();
    b.wait_for_text("#total-points", |t| t == want).await;
}

/// How many pixels the page is wider than a 390 px phone screen (needs JavaScript to measure).
async fn phone_overflow(b: &Browser) -> i64 {
    b.client.set_window_size(390, 844).await.expect("resize");
    let overflow = b
        .client
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .expect("measure");
    b.client.set_window_size(1280, 900).await.expect("resize");
    overflow.as_i64().unwrap_or(-1)
}

async fn build_share_and_view(javascript: bool) {
    let name = if javascript {
        "roster-flow-js"
    } else {
        "roster-flow-no-js"
    };
    let Some(b) = Browser::start_with(name, javascript).await else {
        return;
    };
    let app = spawn_app().await;
    let shots = shots_dir(name);

    // Register.
    b.open(&app.url("/register")).await;
    b.fill("#email", "steuben@example.org").await;
    b.fill("#display_name", "Steuben").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/account?done=welcome").await;

    // An empty 150-point American Revolution roster.
    b.click("a[href='/rosters']").await;
    b.wait_for_path("/rosters").await;
    b.fill("#new-name", "Valley Forge brigade").await;
    b.select("#new-war", "american_revolution").await;
    b.select("#new-nation", "american").await;
    b.fill("#new-limit", "150").await;
    b.click("#create-roster button[type=submit]").await;
    b.wait_for_text("#total-points", |t| t == "0").await;
    b.shoot_both(&shots, "01-empty-roster").await;

    // Two groups.
    for commander in ["Wayne", "Muhlenberg"] {
        b.fill("#new-group-commander", commander).await;
        b.click("#groups-end button[type=submit]").await;
        b.wait_for_text("#summary .group-totals", |t| t.contains(commander))
            .await;
    }

    // Eight small infantry, one of them Elite; the total climbs as they are added.
    let mut total = 0;
    for (g, names) in [
        (
            1,
            [
                "1st Pennsylvania",
                "2nd Pennsylvania",
                "4th Pennsylvania",
                "7th Pennsylvania",
            ],
        ),
        (2, ["Virginia A", "Virginia B", "Virginia C", "Virginia D"]),
    ] {
        for name in names {
            let upgrade = if name == "1st Pennsylvania" {
                "elite"
            } else {
                ""
            };
            total += if upgrade.is_empty() { 15 } else { 20 };
            add_element(&b, g, name, upgrade, total).await;
        }
    }
    assert_eq!(total, 125);
    b.wait_for_text("#summary", |t| t.contains("Legal")).await;
    b.shoot_both(&shots, "02-legal-8-elements").await;

    // A second and a third Elite: the third breaks the cap of 2 for 8 elements.
    set_upgrade(&b, "Virginia A", "elite", 130).await;
    set_upgrade(&b, "Virginia B", "elite", 135).await;
    let summary = b.wait_for_text("#summary", |t| t.contains("Illegal")).await;
    assert!(
        summary.contains("3 elements have Elite; a force of 8 elements allows 2"),
        "{summary}"
    );
    let row = b.text("tr#e-e7, tr[id^='e-']:nth-of-type(2)").await;
    assert!(!row.is_empty());
    b.shoot_both(&shots, "03-elite-cap-broken").await;
    if javascript {
        assert_eq!(
            phone_overflow(&b).await,
            0,
            "the editor fits a phone without sideways scrolling"
        );
    }

    // Fix it.
    set_upgrade(&b, "Virginia B", "", 130).await;
    b.wait_for_text("#summary", |t| t.contains("Legal") && !t.contains("Elite;"))
        .await;
    b.shoot_both(&shots, "04-fixed").await;

    // A row's Remove button submits the editor's one shared remove form (issue 17's lighter
    // page) and removes that element only; add it back.
    b.click("button[aria-label='Remove Virginia D']").await;
    b.wait_for_text("#total-points", |t| t == "115").await;
    assert!(!b.text("#groups").await.contains("Virginia D"));
    assert!(b.text("#groups").await.contains("Virginia C"));
    add_element(&b, 2, "Virginia D", "", 130).await;

    // Share it and open the link logged out.
    b.click("a[href$='/edit'] ~ a, .page-head a.button-secondary")
        .await;
    b.wait_for_text("h1", |t| t.contains("Valley Forge brigade"))
        .await;
    b.click(".share-box button[type=submit]").await;
    let link = b
        .wait_for_text(".share-link", |t| t.contains("/shared/"))
        .await;
    b.shoot_both(&shots, "05-shared").await;
    b.click(".site-nav .link-button").await; // log out
    b.wait_for_path("/login?done=logged_out").await;
    b.open(&link).await;
    let sheet = b
        .wait_for_text(".roster-sheet", |t| t.contains("Valley Forge brigade"))
        .await;
    // The stamp is upper-cased by the stylesheet.
    let stamp = sheet.to_uppercase();
    assert!(
        sheet.contains("130 / 150 pts") && stamp.contains("LEGAL") && !stamp.contains("ILLEGAL"),
        "{sheet}"
    );
    assert!(sheet.contains("Virginia D"));
    b.shoot_both(&shots, "06-share-link-logged-out").await;

    if javascript {
        b.client.set_window_size(390, 844).await.expect("resize");
        let overflow = b
            .client
            .execute("return document.documentElement.scrollWidth - document.documentElement.clientWidth;", vec![])
            .await
            .expect("measure");
        assert_eq!(
            overflow.as_i64(),
            Some(0),
            "the shared roster fits a phone without sideways scrolling"
        );
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn build_a_legal_force_share_it_and_view_it_with_javascript() {
    build_share_and_view(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn build_a_legal_force_share_it_and_view_it_without_javascript() {
    build_share_and_view(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_a_game_from_the_form_and_read_the_report() {
    let Some(b) = Browser::start("record_a_game_from_the_form_and_read_the_report").await else {
        return;
    };
    let app = spawn_app().await;
    let shots = shots_dir("battle-record");
    app.register("greene@example.org", "Greene", PASSWORD).await;
    let token = app.api_token("greene@example.org", PASSWORD).await;
    let roster = |name: &str| {
        serde_json::json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": "american",
            "points_limit": 150, "force_commander": {"name": "Greene"},
            "groups": [{"commander": {"name": "Morgan"}, "elements": [
                {"name": "Virginia Riflemen", "type": "infantry", "size": "medium", "weapon": "rifled"},
                {"name": "Maryland Line", "type": "infantry", "size": "medium"},
                {"name": "Delaware Line", "type": "infantry", "size": "medium"}]},
              {"commander": {"name": "Washington"}, "elements": [
                {"name": "3rd Dragoons", "type": "cavalry", "size": "medium"},
                {"name": "NC Militia", "type": "infantry", "size": "small"}]}]})
    };
    let mut ids = Vec::new();
    for name in ["Southern Army", "Tarleton's Legion"] {
        let res = reqwest::Client::new()
            .post(app.url("/api/v1/rosters"))
            .bearer_auth(&token)
            .json(&roster(name))
            .send()
            .await
            .unwrap();
        ids.push(
            res.json::<serde_json::Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap(),
        );
    }

    b.open(&app.url("/login")).await;
    b.fill("#email", "greene@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
    b.open(&app.url("/battles")).await;
    b.select("#first", &format!("r:{}", ids[0])).await;
    b.select("#second", &format!("r:{}", ids[1])).await;
    b.fill("#second_player", "Banastre (guest)").await;
    b.select("#scenario", "reconnoiter").await;
    b.click("#new-battle button[type=submit]").await;
    b.wait_for_text("h1", |t| t.contains("Southern Army against"))
        .await;
    b.shoot_both(&shots, "01-set-up").await;

    b.click("a[href$='/record']").await;
    b.wait_for_text("h1", |t| t.starts_with("Record the result"))
        .await;
    // The defender's Legion loses two elements and its Group Commander.
    let selects = b
        .client
        .find_all(fantoccini::Locator::Css("select[name^='state_d_']"))
        .await
        .expect("state fields");
    for sel in selects.iter().take(2) {
        sel.select_by_value("shattered")
            .await
            .expect("choose shattered");
    }
    b.fill("#turns", "5").await;
    b.click(".record-form button[name=preview]").await;
    let check = b
        .wait_for_text(".notice", |t| t.contains("Not saved yet"))
        .await;
    assert!(check.contains("Southern Army would win"), "{check}");
    b.shoot_both(&shots, "02-record-form-checked").await;
    b.click("#save-result").await;
    let banner = b.wait_for_text(".outcome-banner", |t| !t.is_empty()).await;
    assert!(banner.contains("Southern Army wins"), "{banner}");
    let report = b.text(".battle-report").await;
    assert!(
        report.contains("Confirmed") && report.contains("single-party"),
        "a result against a guest stands"
    );
    assert!(report.contains("Shattered"));
    b.shoot_both(&shots, "03-report").await;
    b.close().await;
}

/// Registers `who` and fills the roster list's new-roster form (150 points, American
/// Revolution, American) with `roster`, not yet sent.
async fn register_and_fill_a_new_roster(
    b: &Browser,
    app: &crate::helpers::TestApp,
    who: &str,
    roster: &str,
) {
    b.open(&app.url("/register")).await;
    b.fill("#email", &format!("{who}@example.org")).await;
    b.fill("#display_name", who).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/account?done=welcome").await;
    b.open(&app.url("/rosters")).await;
    b.fill("#new-name", roster).await;
    b.select("#new-war", "american_revolution").await;
    b.select("#new-nation", "american").await;
    b.fill("#new-limit", "150").await;
}

/// A double click on a form's button sends it once (with JavaScript): the new-roster form sent
/// twice in a row creates one roster, not two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_double_click_sends_a_form_once() {
    let Some(b) = Browser::start("a_double_click_sends_a_form_once").await else {
        return;
    };
    let app = spawn_app().await;
    register_and_fill_a_new_roster(&b, &app, "knox", "Noble train of artillery").await;
    b.client
        .execute(
            "const form = document.querySelector('#create-roster');
             form.requestSubmit();
             setTimeout(() => form.requestSubmit(), 5);",
            vec![],
        )
        .await
        .expect("submit twice");
    b.wait_for_text("#total-points", |t| t == "0").await;
    b.open(&app.url("/rosters")).await;
    let list = b.text("main").await;
    assert_eq!(
        list.matches("Noble train of artillery").count(),
        1,
        "one roster: {list}"
    );
    b.close().await;
}

/// A change sent from the live editor after the login ended is not lost without a word: the
/// editor stays, with what was typed, and says the change was not saved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_editor_says_when_the_login_has_ended() {
    let Some(b) = Browser::start("the_live_editor_says_when_the_login_has_ended").await else {
        return;
    };
    let app = spawn_app().await;
    register_and_fill_a_new_roster(&b, &app, "greene", "Southern army").await;
    b.click("#create-roster button[type=submit]").await;
    b.wait_for_text("#total-points", |t| t == "0").await;
    let editor_path = b.path().await;

    b.client
        .delete_all_cookies()
        .await
        .expect("log out behind the page's back");
    b.fill("#new-group-commander", "Morgan").await;
    b.click("#groups-end button[type=submit]").await;
    let note = b
        .wait_for_text("#editor-logged-out", |t| t.contains("not saved"))
        .await;
    assert!(note.contains("Your login has ended"), "{note}");
    assert_eq!(b.path().await, editor_path, "still the editor");
    let kept = b
        .find("#new-group-commander")
        .await
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some("Morgan"), "what was typed is kept");
    b.close().await;
}

/// The new-roster form offers only the nations the book lists for the war chosen (issue 18):
/// Hessians for the Revolution, not for 1812.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nation_list_follows_the_war() {
    let Some(b) = Browser::start("the_nation_list_follows_the_war").await else {
        return;
    };
    let app = spawn_app().await;
    register_and_fill_a_new_roster(&b, &app, "steuben", "Hessian test").await;
    let offered = |b: &Browser| {
        let client = b.client.clone();
        async move {
            client
                .execute(
                    "return Array.from(document.querySelectorAll('#new-nation option'))
                       .filter(o => !o.disabled).map(o => o.value).join(' ');",
                    vec![],
                )
                .await
                .expect("options")
                .as_str()
                .unwrap_or("")
                .to_string()
        }
    };
    assert!(offered(&b).await.contains("hessian"));
    b.select("#new-war", "war_of_1812").await;
    let in_1812 = offered(&b).await;
    assert!(
        !in_1812.contains("hessian") && in_1812.contains("british"),
        "{in_1812}"
    );
    b.close().await;
}
