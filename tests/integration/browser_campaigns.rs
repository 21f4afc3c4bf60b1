//! A campaign through the pages in headless Chromium: the organiser creates it on the
//! Philadelphia map and enlists, a player joins with the code, the organiser starts it and
//! each gives an order; the last order closes the turn. Screenshots of the map and the
//! standings at 1280 and 390 px go to `target/browser-shots/campaign-turn/`.

use std::path::PathBuf;

use serde_json::json;

use crate::browser::Browser;
use crate::helpers::{spawn_app, TestApp, PASSWORD};

fn shots_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/browser-shots")
        .join(name);
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

/// Registers a player and gives them a legal 150-point roster through the API.
async fn player_with_roster(app: &TestApp, email: &str, nation: &str, name: &str) {
    let token = app.api_user(email).await;
    let groups: Vec<serde_json::Value> = (1..=2)
        .map(|g| {
            let elements: Vec<serde_json::Value> = (1..=3)
                .map(|e| json!({"name": format!("Regiment {g}-{e}"), "type": "infantry", "size": "medium"}))
                .collect();
            json!({"name": format!("Brigade {g}"), "commander": {"name": format!("Colonel {g}")},
                   "elements": elements})
        })
        .collect();
    let roster = json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
        "nation": nation, "points_limit": 150, "force_commander": {"name": format!("{name} general")},
        "groups": groups});
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&roster)
        .send()
        .await
        .expect("roster");
    assert_eq!(res.status(), 201);
}

async fn log_in(b: &Browser, app: &TestApp, email: &str) {
    b.open(&app.url("/login")).await;
    b.fill("#email", email).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_text("main", |t| !t.contains("do not match"))
        .await;
}

async fn log_out(b: &Browser) {
    b.click(".site-nav .link-button").await;
    b.wait_for_path("/login?done=logged_out").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organiser_and_a_player_play_a_turn_through_the_pages() {
    let Some(b) = Browser::start("campaign-turn").await else {
        return;
    };
    let app = spawn_app().await;
    let shots = shots_dir("campaign-turn");
    player_with_roster(&app, "howe@example.org", "british", "Howe's army").await;
    player_with_roster(&app, "washington@example.org", "american", "Main army").await;

    // The organiser creates the campaign on a preset map and enlists his own force.
    log_in(&b, &app, "howe@example.org").await;
    b.open(&app.url("/campaigns")).await;
    b.fill("#name", "Philadelphia 1777").await;
    b.fill("#turns", "4").await;
    b.click("input[name=map][value='philadelphia-1777']").await;
    b.click("#new-campaign button[type=submit]").await;
    let code = b.wait_for_text(".invite-code", |t| t.len() == 10).await;
    let campaign_path = b.path().await;
    b.open(&app.url(&format!("/campaigns/join/{code}"))).await;
    b.select("#side", "0").await;
    b.click("#enlist-form button[type=submit]").await;
    b.wait_for_path(&campaign_path).await;
    log_out(&b).await;

    // A player joins with the code.
    log_in(&b, &app, "washington@example.org").await;
    b.open(&app.url("/campaigns")).await;
    b.fill("#code", &code.to_lowercase()).await;
    b.click("#join-form button[type=submit]").await;
    b.wait_for_text("h1", |t| t.contains("Philadelphia 1777"))
        .await;
    b.select("#side", "1").await;
    b.click("#enlist-form button[type=submit]").await;
    b.wait_for_path(&campaign_path).await;
    let forces = b.text("main").await;
    assert!(
        forces.contains("Main army") && forces.contains("Howe's army"),
        "{forces}"
    );
    log_out(&b).await;

    // The organiser starts it and orders his force to Cooch's Bridge.
    log_in(&b, &app, "howe@example.org").await;
    b.open(&app.url(&campaign_path)).await;
    b.click("#start-campaign").await;
    // The page asks before starting.
    b.client
        .accept_alert()
        .await
        .expect("the confirmation is answered");
    b.wait_for_text("#organiser", |t| t.contains("0 of 2 orders in"))
        .await;
    let march = b.find("#order-form label.radio:nth-of-type(2) input").await;
    let label = b.text("#order-form label.radio:nth-of-type(2)").await;
    assert!(label.contains("Cooch's Bridge"), "{label}");
    march.click().await.expect("choose the march");
    b.click("#order-form button[type=submit]").await;
    b.wait_for_text("#organiser", |t| t.contains("1 of 2 orders in"))
        .await;
    b.shoot_both(&shots, "01-organiser-order-given").await;
    log_out(&b).await;

    // The player orders his force to Chadds Ford; the last order closes the turn.
    log_in(&b, &app, "washington@example.org").await;
    b.open(&app.url(&campaign_path)).await;
    let page = b.text("main").await;
    assert!(page.contains("Give your order for turn 1"), "{page}");
    let recent = b.text(".log-list").await;
    assert!(
        recent.contains("gave an order (hidden until the turn closes)")
            && !recent.contains("Cooch"),
        "the organiser's order stays hidden: {recent}"
    );
    b.click("#order-form input[value='hold']").await;
    let routes = b
        .client
        .find_all(fantoccini::Locator::Css("#order-form label.radio"))
        .await
        .expect("routes");
    let mut chose = false;
    for r in routes {
        if r.text().await.unwrap_or_default().contains("Chadds Ford") {
            r.click().await.expect("choose Chadds Ford");
            chose = true;
        }
    }
    assert!(chose, "a march to Chadds Ford is offered");
    b.click("#order-form button[type=submit]").await;
    b.wait_for_text(".subtitle", |t| t.contains("turn 2 of 4"))
        .await;
    let log = b.text(".log-list").await;
    assert!(
        log.contains("marched from Head of Elk to Cooch's Bridge"),
        "{log}"
    );
    assert!(
        log.contains("marched from Philadelphia to Chadds Ford"),
        "{log}"
    );
    assert!(log.contains("Crown Forces took Cooch's Bridge"), "{log}");
    let arrows = b
        .client
        .find_all(fantoccini::Locator::Css(".map-svg .move-arrow"))
        .await
        .expect("arrows");
    assert_eq!(arrows.len(), 2, "the map shows both moves");
    b.shoot_both(&shots, "02-map-after-turn-1").await;
    // The map fits a phone without sideways scrolling.
    b.client.set_window_size(390, 844).await.expect("resize");
    let overflow = b
        .client
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .expect("measure");
    assert_eq!(overflow.as_i64(), Some(0), "the campaign page fits a phone");
    b.client.set_window_size(1280, 900).await.expect("resize");

    // Standings: each side holds its home and what it took.
    b.open(&app.url(&format!("{campaign_path}/standings")))
        .await;
    let table = b.text(".standings-sides").await;
    assert!(
        table.contains("Cooch's Bridge") && table.contains("Chadds Ford"),
        "{table}"
    );
    b.shoot_both(&shots, "03-standings").await;

    // The force page tells its story and offers reinforcements.
    b.open(&app.url(&format!("{campaign_path}/forces/f2")))
        .await;
    let force = b.text("main").await;
    assert!(
        force.contains("bank 15") && force.contains("Reinforcements"),
        "{force}"
    );
    b.shoot_both(&shots, "04-force").await;
    b.close().await;
}
