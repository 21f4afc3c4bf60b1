//! Issue 18: no page is wider than a phone. Every page a player or an organiser reaches is loaded
//! in headless Chromium with a phone's 390 px viewport (chromedriver's mobile emulation) and measured:
//! the page must not scroll sideways, and nothing may stand off its left edge where it cannot be
//! scrolled to. Screenshots of every page at that width go to `target/browser-shots/phone/`, and
//! at 1280 px to `target/browser-shots/desktop/` (`bash scripts/screenshots.sh` makes both). Runs on SQLite only (the pages do not depend on the backend), to keep CI short.

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{spawn_app, TestApp, PASSWORD};

const WIDTH: u32 = 390;

/// A roster with long names in six groups, the kind that widens tables.
fn long_roster(name: &str, nation: &str) -> Value {
    let groups: Vec<Value> = (1..=6)
        .map(|g| {
            json!({"name": format!("The Brigade of General Number {g}"),
                   "commander": {"name": format!("Brigadier General Commanding {g}")},
                   "elements": (1..=6).map(|e| json!({
                       "name": format!("{g}.{e} Regiment of Foot (The King's Own Royal Borderers)"),
                       "type": "infantry", "size": "medium"})).collect::<Vec<_>>()})
        })
        .collect();
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
           "nation": nation, "points_limit": 1000,
           "force_commander": {"name": format!("{name} Commander in Chief")}, "groups": groups})
}

fn lod_roster() -> Value {
    json!({"format": "muster.lod.roster/1", "name": "Crown Forces in the Carolinas",
           "army_list": "british", "c_in_c": {"name": "Cornwallis"},
           "brigades": [{"name": "Guards Brigade", "general": {"name": "O'Hara"},
                         "units": [{"name": "Guards Battalion", "entry": "regular_infantry_regiment", "bases": 4},
                                   {"name": "23rd Foot", "entry": "regular_infantry_regiment", "bases": 4}]}]})
}

async fn api(app: &TestApp, token: &str, method: &str, path: &str, body: Value) -> Value {
    let url = app.url(&format!("/api/v1{path}"));
    let req = match method {
        "GET" => reqwest::Client::new().get(url),
        _ => reqwest::Client::new().post(url).json(&body),
    };
    let res = req.bearer_auth(token).send().await.expect("request");
    let status = res.status();
    let text = res.text().await.expect("body");
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Opens `path` at phone width and answers what is wrong with it there, if anything.
async fn too_wide(b: &Browser, app: &TestApp, path: &str) -> Option<String> {
    b.open(&app.url(path)).await;
    b.find("main").await;
    let measure = "const root = document.documentElement;
        let left = 0, culprit = '';
        for (const e of document.body.querySelectorAll('*')) {
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.left < left - 1 && !e.closest('.skip-link')) { left = r.left; culprit = e.tagName + '.' + e.className; }
        }
        let widest = '', w = 0;
        if (root.scrollWidth > root.clientWidth + 1) {
          // Content inside its own scroller (a wide table in a .table-wrap) does not widen the page.
          const scrolled = e => { for (let c = e.parentElement; c && c !== root; c = c.parentElement) {
            if (getComputedStyle(c).overflowX !== 'visible') return true; } return false; };
          for (const e of document.body.querySelectorAll('*')) {
            const r = e.getBoundingClientRect();
            if (r.right > w && r.right > root.clientWidth + 1 && !scrolled(e)) {
              w = r.right; widest = e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 40);
            }
          }
        }
        return [root.scrollWidth, root.clientWidth, left, culprit, widest];";
    let answer = b.client.execute(measure, vec![]).await.expect("measure");
    let a = answer.as_array().expect("measures");
    let scroll = a[0].as_f64().unwrap_or(0.0);
    let client = a[1].as_f64().unwrap_or(0.0);
    let left = a[2].as_f64().unwrap_or(0.0);
    if client > f64::from(WIDTH) + 1.0 {
        return Some(format!("{path}: the window is {client} px, not a phone's"));
    }
    if scroll > client + 1.0 {
        return Some(format!(
            "{path}: {scroll} px wide in {client} (widest: {})",
            a[4]
        ));
    }
    if left < -1.0 {
        return Some(format!(
            "{path}: {} stands {left} px off the left edge",
            a[3]
        ));
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_page_is_wider_than_a_phone() {
    let Some(b) = Browser::start_phone("no_page_is_wider_than_a_phone", WIDTH).await else {
        return;
    };
    let app = spawn_app().await;
    if app.db.is_postgres() {
        return;
    }
    let howe = app.api_user("howe@example.com").await;
    let washington = app.api_user("washington@example.com").await;
    app.make_admin("howe@example.com");
    let british = api(
        &app,
        &howe,
        "POST",
        "/rosters",
        long_roster("Army of the Crown in America", "british"),
    )
    .await["id"]
        .as_i64()
        .expect("roster id");
    let american = api(
        &app,
        &washington,
        "POST",
        "/rosters",
        long_roster("Continental Army of the United States", "american"),
    )
    .await["id"]
        .as_i64()
        .expect("roster id");
    let lod = api(&app, &howe, "POST", "/rosters", lod_roster()).await["id"]
        .as_i64()
        .expect("roster id");
    let created = api(&app, &howe, "POST", "/campaigns",
        json!({"name": "The Philadelphia Campaign of Seventeen Seventy-Seven", "map": "philadelphia-1777",
               "points": 1000, "turns": 6, "sides": ["", ""]})).await;
    let campaign = created["id"].as_i64().expect("campaign id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    for (token, side, roster) in [(&howe, 0, british), (&washington, 1, american)] {
        api(
            &app,
            token,
            "POST",
            &format!("/campaigns/{campaign}/join"),
            json!({"code": code, "side": side, "roster_id": roster}),
        )
        .await;
    }
    api(
        &app,
        &howe,
        "POST",
        &format!("/campaigns/{campaign}/start"),
        json!({}),
    )
    .await;

    // Club night (issue 19): a battle whose side waits for Howe's own roster, and one whose
    // engine Washington asked for, waiting for Howe's answer.
    let wash_other = api(
        &app,
        &washington,
        "POST",
        "/rosters",
        long_roster("Second Continental Line of the United States", "american"),
    )
    .await["id"]
        .as_i64()
        .expect("roster id");
    let open = api(&app, &washington, "POST", "/battles",
        json!({"first": format!("r:{american}"), "second": "open", "second_player": "howe@example.com"})).await["id"]
        .as_i64()
        .expect("battle id");
    let asked = api(
        &app,
        &washington,
        "POST",
        "/battles",
        json!({"first": format!("r:{american}"), "second": format!("r:{wash_other}"),
               "second_player": "howe@example.com", "scenario": "take_the_field"}),
    )
    .await;
    let asked_id = asked["id"].as_i64().expect("battle id");
    let accepted = api(
        &app,
        &howe,
        "POST",
        &format!("/battles/{asked_id}/accept"),
        json!({"version": asked["version"]}),
    )
    .await;
    api(
        &app,
        &washington,
        "POST",
        &format!("/battles/{asked_id}/engine/ask"),
        json!({"version": accepted["version"]}),
    )
    .await;

    log_in(&b, &app).await;

    let pages = [
        "/".to_string(),
        "/account".into(),
        "/admin/users".into(),
        "/rosters".into(),
        "/rosters/new".into(),
        "/rosters/import".into(),
        format!("/rosters/{british}"),
        format!("/rosters/{british}/edit"),
        format!("/rosters/{british}/print/cards"),
        format!("/rosters/{british}/print/sheet"),
        format!("/rosters/{lod}"),
        format!("/rosters/{lod}/edit"),
        format!("/rosters/{lod}/print/cards"),
        format!("/rosters/{lod}/print/sheet"),
        "/lotf/reference".into(),
        "/lod/reference".into(),
        "/lotf/odds".into(),
        "/lotf/odds?calc=shooting&s_type=infantry&s_size=large&t_type=infantry&t_size=medium&range=6".into(),
        "/lod/odds".into(),
        // Odds answers with their tables, charts and links, and the roster pickers (issue 18).
        "/lotf/odds?calc=melee&a_type=cavalry&a_size=large&d_type=infantry&d_size=small".into(),
        "/lod/odds?calc=shooting&s_unit=british.regular_infantry_regiment&t_unit=continental.continental_regiment&range=6".into(),
        "/lod/odds?calc=melee&a_unit=british.guard_infantry&b_unit=continental.militia_regiment&a_charging=1".into(),
        // The AWI wargames rules' odds page, empty and with a melee answered (issue 20).
        "/awi/odds".into(),
        "/awi/odds?kind=melee&request=%7B%22a%22%3A%7B%22type%22%3A%22infantry%22%2C%22elements%22%3A2%2C%22charged%22%3Atrue%7D%2C%22b%22%3A%7B%22type%22%3A%22infantry%22%2C%22elements%22%3A2%7D%2C%22include_entering_tests%22%3Atrue%7D".into(),
        // One if by Land's odds page, empty and with the whole charge chain answered (issue 21).
        "/oibl/odds".into(),
        "/oibl/odds?kind=charge&request=%7B%22attacker%22%3A%20%7B%22quality%22%3A%20%22veteran%22%2C%20%22figures%22%3A%2018%2C%20%22infantry%22%3A%20true%2C%20%22bayonets%22%3A%20true%7D%2C%20%22defender%22%3A%20%7B%22quality%22%3A%20%22regular%22%2C%20%22figures%22%3A%2018%2C%20%22infantry%22%3A%20true%2C%20%22bayonets%22%3A%20true%7D%7D".into(),
        "/lotf/fight".into(),
        format!("/lotf/fight/battle?attacker=r:{british}&defender=h:cowpens:1:0&scenario=take_the_field&seed=5"),
        "/lod/fight".into(),
        "/battles".into(),
        "/campaigns".into(),
        format!("/campaigns/{campaign}"),
        format!("/campaigns/{campaign}/map"),
        format!("/campaigns/{campaign}/log"),
        format!("/campaigns/{campaign}/standings"),
        format!("/campaigns/{campaign}/organiser"),
        format!("/campaigns/{campaign}/forces/f1"),
        // Fight reports (issue 18): the Liberty or Death! report beside Land of the Free's above.
        "/lod/fight/battle?attacker=x:0&defender=x:1&seed=5".into(),
        format!("/battles/{open}"),
        format!("/battles/{asked_id}"),
    ];
    let shots =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots/phone");
    std::fs::create_dir_all(&shots).expect("screenshot directory");
    let mut wide = Vec::new();
    for (n, path) in pages.iter().enumerate() {
        if let Some(problem) = too_wide(&b, &app, path).await {
            wide.push(problem);
        }
        b.screenshot(&shots.join(shot_name(n, path))).await;
    }
    // Each system's quick reference reads as a page on a phone: its text at a size one can
    // read there, not a whole sheet shrunk to the screen.
    let mut small = Vec::new();
    for path in ["/lotf/reference", "/lod/reference"] {
        b.open(&app.url(path)).await;
        b.find(".ref-page").await;
        let sizes = b
            .client
            .execute(
                "const px = s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
                 const stack = document.querySelector('.sheet-stack');
                 return [px('.ref-page p, .ref-page li'), px('.ref-page td'), stack.style.zoom || '1'];",
                vec![],
            )
            .await
            .expect("sizes");
        let text = sizes[0].as_f64().unwrap_or(0.0);
        let cell = sizes[1].as_f64().unwrap_or(0.0);
        if text < 14.0 || cell < 12.0 || sizes[2] != "1" {
            small.push(format!(
                "{path}: text {text} px, tables {cell} px, zoom {}",
                sizes[2]
            ));
        }
    }
    b.close().await;
    assert!(wide.is_empty(), "pages wider than {WIDTH} px: {wide:#?}");
    assert!(
        small.is_empty(),
        "a quick reference unreadable on a phone: {small:#?}"
    );

    // The same pages at 1280 px, for people to look at beside the phone's.
    let Some(desk) = Browser::start("no_page_is_wider_than_a_phone (1280 px)").await else {
        return;
    };
    let shots = shots.with_file_name("desktop");
    std::fs::create_dir_all(&shots).expect("screenshot directory");
    log_in(&desk, &app).await;
    for (n, path) in pages.iter().enumerate() {
        desk.open(&app.url(path)).await;
        desk.find("main").await;
        desk.screenshot(&shots.join(shot_name(n, path))).await;
    }
    desk.close().await;
}

async fn log_in(b: &Browser, app: &TestApp) {
    b.open(&app.url("/login")).await;
    b.fill("#email", "howe@example.com").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

/// A screenshot's file name: its place in the list and the path in plain characters.
fn shot_name(n: usize, path: &str) -> String {
    let name: String = path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect();
    format!("{n:02}{name}.png")
}
