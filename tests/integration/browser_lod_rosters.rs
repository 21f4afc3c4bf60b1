//! The Liberty or Death! editor in headless Chromium with JavaScript: create a British army from
//! the roster list, name the C-in-C, add units (the bases offered follow the chosen entry, and
//! Grenadiers Detached only where the entry has it), add an empty brigade and see its finding.
//! Screenshots go to `target/browser-shots/lod-editor/`.

use std::path::PathBuf;

use crate::browser::Browser;
use crate::helpers::{spawn_app, PASSWORD};

const ADD: &str = "#brigades > section.group-panel:nth-of-type(1) form.add-form";

/// Whether the add form's option `value` of select `name` is offered for the chosen entry.
async fn offered(b: &Browser, name: &str, value: &str) -> bool {
    let script = format!(
        "return !document.querySelector(\"{ADD} select[name={name}] option[value='{value}']\").disabled;"
    );
    let answer = b.client.execute(&script, vec![]).await.expect("script");
    answer.as_bool().unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_offers_only_what_the_entry_allows() {
    let Some(b) = Browser::start_with("lod-editor", true).await else {
        return;
    };
    let app = spawn_app().await;
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/lod-editor");
    std::fs::create_dir_all(&shots).expect("screenshot directory");

    b.open(&app.url("/register")).await;
    b.fill("#email", "cornwallis@example.org").await;
    b.fill("#display_name", "Cornwallis").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/account?done=welcome").await;

    b.open(&app.url("/rosters")).await;
    b.select("#new-system", "lod").await;
    b.fill("#new-name", "Southern army").await;
    b.select("#new-army-list", "british").await;
    b.click("#create-roster button[type=submit]").await;
    b.wait_for_text("#summary", |t| t.contains("0 in 1 brigade"))
        .await;

    b.fill("#set-cinc", "Lord Cornwallis").await;
    b.click("#army-panel button[type=submit]").await;
    b.wait_for_text("#editor .subtitle", |t| t.contains("version 2"))
        .await;

    // Light Infantry comes at 4 or 5 bases and cannot detach grenadiers; Guard Infantry can.
    b.select(&format!("{ADD} select[name=u_entry]"), "light_infantry")
        .await;
    assert!(!offered(&b, "u_bases", "3").await && offered(&b, "u_bases", "5").await);
    assert!(!offered(&b, "u_grenadiers", "detached").await);
    b.select(&format!("{ADD} select[name=u_entry]"), "guard_infantry")
        .await;
    assert!(offered(&b, "u_bases", "3").await && offered(&b, "u_grenadiers", "detached").await);
    b.select(&format!("{ADD} select[name=u_bases]"), "5").await;
    b.select(&format!("{ADD} select[name=u_grenadiers]"), "detached")
        .await;
    b.click(&format!("{ADD} button[type=submit]")).await;
    b.wait_for_text("#brigades", |t| {
        t.contains("Guard Infantry, 4 bases (8/16/24)")
    })
    .await;

    b.fill("#new-brigade-general", "Tarleton").await;
    b.click("#brigades-end button[type=submit]").await;
    let summary = b
        .wait_for_text("#summary", |t| t.contains("2nd Brigade has no units."))
        .await;
    assert!(
        summary.contains("1 in 2 brigades") && summary.contains("2 + D3"),
        "{summary}"
    );
    b.shoot_both(&shots, "01-editor").await;

    // The roster page names the units the game's way, with their WORN/SHAKEN/AUTO BROKEN.
    b.click("#editor .page-head a.button-secondary").await;
    let sheet = b
        .wait_for_text(".roster-sheet", |t| t.contains("W/S/AB"))
        .await;
    assert!(
        sheet.contains("C-in-C: Lord Cornwallis") && sheet.contains("8/16/24"),
        "{sheet}"
    );
    b.shoot_both(&shots, "02-roster-page").await;
    b.close().await;
}
