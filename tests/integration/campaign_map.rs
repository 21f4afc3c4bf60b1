//! Issue 18, the campaign map: labels that never overlap or leave the map on a crowded map, the
//! list of places under it, picking a march by clicking a place (with and without JavaScript,
//! `?move_to=`), and dragging places in the organiser's editor. Screenshots of the crowded map
//! at 1280 and 390 px go to `target/browser-shots/campaign-map/`.

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{spawn_app, TestApp, PASSWORD};

async fn api(app: &TestApp, token: &str, method: &str, path: &str, body: Value) -> Value {
    let url = app.url(&format!("/api/v1{path}"));
    let req = match method {
        "GET" => reqwest::Client::new().get(url),
        "PUT" => reqwest::Client::new().put(url).json(&body),
        _ => reqwest::Client::new().post(url).json(&body),
    };
    let res = req.bearer_auth(token).send().await.expect("request");
    let status = res.status();
    let text = res.text().await.expect("body");
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// A legal 150-point Land of the Free roster; answers its id.
async fn roster(app: &TestApp, token: &str, name: &str, nation: &str) -> i64 {
    let groups: Vec<Value> = (1..=2)
        .map(|g| {
            json!({"name": format!("Brigade {g}"), "commander": {"name": format!("Colonel {g}")},
                   "elements": (1..=3).map(|e| json!({"name": format!("Regiment {g}-{e}"),
                       "type": "infantry", "size": "medium"})).collect::<Vec<_>>()})
        })
        .collect();
    let body = json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
        "nation": nation, "points_limit": 150, "force_commander": {"name": format!("{name} general")},
        "groups": groups});
    api(app, token, "POST", "/rosters", body).await["id"]
        .as_i64()
        .expect("roster id")
}

/// A campaign on the Philadelphia map with `players` (email, side, force name) enlisted; the
/// first is the organiser. Answers its id and each player's token.
async fn campaign_with(app: &TestApp, players: &[(&str, u8, &str)]) -> (i64, Vec<String>) {
    let mut tokens = Vec::new();
    for (email, _, _) in players {
        tokens.push(app.api_user(email).await);
    }
    let created = api(
        app,
        &tokens[0],
        "POST",
        "/campaigns",
        json!({"name": "Map test", "map": "philadelphia-1777", "points": 200, "turns": 4,
               "sides": ["", ""]}),
    )
    .await;
    let id = created["id"].as_i64().expect("campaign id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    for ((_, side, name), token) in players.iter().zip(&tokens) {
        let nation = if *side == 0 { "british" } else { "american" };
        let roster = roster(app, token, name, nation).await;
        api(
            app,
            token,
            "POST",
            &format!("/campaigns/{id}/join"),
            json!({"code": code, "side": side, "roster_id": roster}),
        )
        .await;
    }
    (id, tokens)
}

/// A crowded map: places packed at the least distance the map allows, in its corners and on
/// its edges, with long names; the homes in the thick of it.
fn crowded_map() -> Value {
    let spots: [(&str, u16, u16); 16] = [
        ("Fort Saint-Frédéric on Lake Champlain", 0, 0),
        ("Crown Point Landing", 40, 0),
        ("Ticonderoga Portage", 0, 40),
        ("Carillon Sawmill", 45, 45),
        ("Stony Brook Meeting House", 480, 330),
        ("Quaker Road Crossing", 520, 330),
        ("Birmingham Hill", 560, 330),
        ("Osborne's Hill", 480, 370),
        ("Sconneltown", 520, 370),
        ("Jeffries' Ford", 560, 370),
        ("Trimble's Ford", 480, 410),
        ("Dilworth", 520, 410),
        ("Wistar's Tavern", 1000, 350),
        ("Welsh Tract Church", 960, 350),
        ("White Horse Tavern", 1000, 700),
        ("Warren Tavern", 960, 700),
    ];
    let places: Vec<Value> = spots
        .iter()
        .enumerate()
        .map(|(i, (name, x, y))| {
            json!({"id": format!("p{i}"), "name": name, "kind": if i % 4 == 0 { "fort" } else { "village" },
                   "x": x, "y": y, "value": i % 4, "supply": i % 3 == 0})
        })
        .collect();
    let routes: Vec<Value> = (1..spots.len())
        .map(|i| json!({"id": format!("r{i}"), "from": format!("p{}", i - 1), "to": format!("p{i}"), "kind": "road"}))
        .collect();
    json!({"map": {"places": places, "routes": routes}, "homes": ["p8", "p12"]})
}

/// Every label's box on the map, and what is wrong with them: two that overlap, one outside
/// the map, or one over a place's marker.
async fn label_problems(b: &Browser) -> Vec<String> {
    let measure = "const svg = document.querySelector('.map-svg').getBoundingClientRect();
        const labels = [...document.querySelectorAll('.map-svg .place-label, .map-svg .force')];
        const marks = [...document.querySelectorAll('.map-svg .place-mark')];
        const box = e => { const r = e.getBoundingClientRect();
            return {l: r.left, t: r.top, r: r.right, b: r.bottom,
                    what: (e.textContent || '').trim()}; };
        const over = (a, c) => a.l < c.r - 0.5 && c.l < a.r - 0.5 && a.t < c.b - 0.5 && c.t < a.b - 0.5;
        const out = [];
        const boxes = labels.map(box);
        if (boxes.length === 0) out.push('no labels on the map');
        boxes.forEach((a, i) => {
            if (a.l < svg.left - 0.5 || a.t < svg.top - 0.5 || a.r > svg.right + 0.5 || a.b > svg.bottom + 0.5)
                out.push(`${a.what} crosses the map's edge`);
            boxes.slice(0, i).forEach(c => { if (over(a, c)) out.push(`${c.what} and ${a.what} overlap`); });
            marks.map(box).forEach(m => { if (over(a, m)) out.push(`${a.what} covers a place's marker`); });
        });
        return out;";
    let found = b.client.execute(measure, vec![]).await.expect("measure");
    found
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn labels_on_a_crowded_map_never_overlap_nor_leave_it() {
    let Some(b) = Browser::start("labels_on_a_crowded_map_never_overlap_nor_leave_it").await else {
        return;
    };
    let app = spawn_app().await;
    let players = [
        ("howe@example.org", 0, "The Army of the Crown in America"),
        ("cornwallis@example.org", 0, "Cornwallis's Column"),
        ("knyphausen@example.org", 0, "Knyphausen's Division"),
        ("grant@example.org", 0, "Grant's Brigade"),
        ("agnew@example.org", 0, "Agnew's Brigade"),
        ("washington@example.org", 1, "The Main Continental Army"),
        ("sullivan@example.org", 1, "Sullivan's Wing"),
    ];
    let (id, tokens) = campaign_with(&app, &players[..1]).await;
    api(
        &app,
        &tokens[0],
        "PUT",
        &format!("/campaigns/{id}/map"),
        crowded_map(),
    )
    .await;
    let code = api(
        &app,
        &tokens[0],
        "GET",
        &format!("/campaigns/{id}"),
        json!({}),
    )
    .await["invite_code"]
        .as_str()
        .expect("code")
        .to_string();
    for (email, side, name) in &players[1..] {
        let token = app.api_user(email).await;
        let nation = if *side == 0 { "british" } else { "american" };
        let roster = roster(&app, &token, name, nation).await;
        api(
            &app,
            &token,
            "POST",
            &format!("/campaigns/{id}/join"),
            json!({"code": code, "side": side, "roster_id": roster}),
        )
        .await;
    }

    log_in(&b, &app, "howe@example.org").await;
    let shots = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/browser-shots/campaign-map");
    std::fs::create_dir_all(&shots).expect("screenshot directory");
    let mut problems = Vec::new();
    for page in [format!("/campaigns/{id}"), format!("/campaigns/{id}/map")] {
        for (width, height) in [(1280u32, 900u32), (390, 844)] {
            b.client
                .set_window_size(width, height)
                .await
                .expect("resize");
            b.open(&app.url(&page)).await;
            b.find(".map-svg").await;
            for p in label_problems(&b).await {
                problems.push(format!("{page} at {width} px: {p}"));
            }
            // Five forces at one place: one stack, three by name and the rest counted.
            if !b.text(".map-svg").await.contains("and 2 more") {
                problems.push(format!(
                    "{page} at {width} px: five forces at one place not stacked"
                ));
            }
            let name = format!("{}-{width}.png", page.replace('/', "-"));
            b.screenshot(&shots.join(name)).await;
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");

    // On a phone the map can be zoomed inside its own box: it grows, the page does not, and
    // the labels still keep apart.
    b.client.set_window_size(390, 844).await.expect("resize");
    b.open(&app.url(&format!("/campaigns/{id}"))).await;
    b.click(".map-zoom button[aria-label='Zoom the map in']")
        .await;
    b.click(".map-zoom button[aria-label='Zoom the map in']")
        .await;
    let sizes = b
        .client
        .execute(
            "const box = document.querySelector('.map-scroll').clientWidth;
             const map = document.querySelector('.map-svg').getBoundingClientRect();
             const root = document.documentElement;
             return [map.width / box, root.scrollWidth - root.clientWidth];",
            vec![],
        )
        .await
        .expect("measure");
    let sizes = sizes.as_array().expect("two numbers");
    assert!(
        sizes[0].as_f64().unwrap_or_default() > 2.9,
        "the map is three times its box: {sizes:?}"
    );
    assert_eq!(sizes[1].as_f64(), Some(0.0), "the page is no wider");
    for p in label_problems(&b).await {
        problems.push(format!("zoomed on a phone: {p}"));
    }
    b.screenshot(&shots.join("zoomed-390.png")).await;
    b.close().await;
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The campaign page says in words what the map shows: every place, who holds it, who stands
/// there and where its routes lead.
#[tokio::test]
async fn the_campaign_page_lists_the_places_under_the_map() {
    let app = spawn_app().await;
    let (id, _) = campaign_with(
        &app,
        &[
            ("howe@example.org", 0, "Howe's army"),
            ("washington@example.org", 1, "Main army"),
        ],
    )
    .await;
    app.login("washington@example.org", PASSWORD).await;
    let page = app
        .get_html(&format!("/campaigns/{id}"))
        .await
        .replace("&#39;", "'");
    let list = page
        .split("class=\"place-list\"")
        .nth(1)
        .and_then(|s| s.split("</ul>").next())
        .unwrap_or_else(|| panic!("no list of places on the page:\n{page}"));
    for name in [
        "Head of Elk",
        "Cooch's Bridge",
        "Valley Forge",
        "Fort Mifflin",
    ] {
        assert!(list.contains(name), "{name} is listed: {list}");
    }
    let elk = list
        .split("id=\"place-head_of_elk\"")
        .nth(1)
        .and_then(|s| s.split("</li>").next())
        .expect("Head of Elk has its entry");
    assert!(elk.contains("Held by Crown Forces"), "{elk}");
    assert!(elk.contains("Here: Howe's army"), "{elk}");
    assert!(elk.contains("Routes: road to Cooch's Bridge"), "{elk}");
    let philadelphia = list
        .split("id=\"place-philadelphia\"")
        .nth(1)
        .and_then(|s| s.split("</li>").next())
        .expect("Philadelphia has its entry");
    assert!(philadelphia.contains("Here: Main army"), "{philadelphia}");
    assert!(philadelphia.contains("victory value 3"), "{philadelphia}");
}

/// `?move_to=` (the map's links without JavaScript) opens the page with the march there chosen;
/// the order is still given by the form, and a place out of reach is said to be.
#[tokio::test]
async fn a_place_picked_on_the_map_fills_in_the_order() {
    let app = spawn_app().await;
    let (id, tokens) = campaign_with(
        &app,
        &[
            ("howe@example.org", 0, "Howe's army"),
            ("washington@example.org", 1, "Main army"),
        ],
    )
    .await;
    api(
        &app,
        &tokens[0],
        "POST",
        &format!("/campaigns/{id}/start"),
        json!({}),
    )
    .await;
    app.login("howe@example.org", PASSWORD).await;
    let page = format!("/campaigns/{id}");
    let plain = app.get_html(&page).await;
    let link = format!("href=\"/campaigns/{id}?move_to=iron_hill#order-form\"");
    assert!(
        plain.contains(&link),
        "Cooch's Bridge, one march away, links to the order: {plain}"
    );
    assert!(
        !plain.contains("?move_to=philadelphia"),
        "Philadelphia is too far to link"
    );
    let map = api(
        &app,
        &tokens[0],
        "GET",
        &format!("/campaigns/{id}/map"),
        json!({}),
    )
    .await;
    let to_iron_hill = map["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .find(|r| {
            (r["from"] == "head_of_elk" && r["to"] == "iron_hill")
                || (r["to"] == "head_of_elk" && r["from"] == "iron_hill")
        })
        .and_then(|r| r["id"].as_str())
        .expect("a road from Head of Elk to Cooch's Bridge")
        .to_string();

    let picked = app.get_html(&format!("{page}?move_to=iron_hill")).await;
    let form = picked
        .split("id=\"order-form\"")
        .nth(1)
        .and_then(|s| s.split("</form>").next())
        .expect("the order form");
    assert!(
        form.contains(&format!("value=\"{to_iron_hill}\" checked")),
        "the march to Cooch's Bridge is chosen: {form}"
    );
    assert!(
        !form.contains("value=\"hold\" checked"),
        "and holding is not: {form}"
    );

    let far = app.get_html(&format!("{page}?move_to=philadelphia")).await;
    assert!(
        far.contains("Philadelphia is not one march from Head of Elk"),
        "{far}"
    );
    assert!(!far.contains("\" checked"), "nothing is chosen for it");

    // The order goes through the form as ever.
    let res = app
        .post_form(
            &format!("{page}?move_to=iron_hill"),
            &format!("/campaigns/{id}/orders"),
            &[("order", &to_iron_hill), ("turn", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let after = app.get_html(&page).await;
    assert!(
        after.contains(&format!("value=\"{to_iron_hill}\" checked")),
        "the order given is the march to Cooch's Bridge"
    );
    // Howe changes his mind to hold, then picks Cooch's Bridge on the map again: the page says
    // the order given still stands until he gives the march.
    let res = app
        .post_form(
            &page,
            &format!("/campaigns/{id}/orders"),
            &[("order", "hold"), ("turn", "1")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let repicked = app.get_html(&format!("{page}?move_to=iron_hill")).await;
    assert!(
        repicked.contains("Picked on the map, not given yet: your order stands as hold"),
        "the order given is not passed off as the pick"
    );
}

async fn log_in(b: &Browser, app: &TestApp, email: &str) {
    b.open(&app.url("/login")).await;
    b.fill("#email", email).await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
}

async fn checked_order(b: &Browser) -> String {
    b.client
        .execute(
            "const r = document.querySelector('#order-form input[name=order]:checked'); return r ? r.value : '';",
            vec![],
        )
        .await
        .expect("read the form")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Clicking a place on the map picks the march there: at once with JavaScript, through the
/// page's link without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicking_a_place_on_the_map_picks_the_march() {
    let app = spawn_app().await;
    let (id, tokens) = campaign_with(
        &app,
        &[
            ("howe@example.org", 0, "Howe's army"),
            ("washington@example.org", 1, "Main army"),
        ],
    )
    .await;
    api(
        &app,
        &tokens[0],
        "POST",
        &format!("/campaigns/{id}/start"),
        json!({}),
    )
    .await;
    let page = format!("/campaigns/{id}");
    for javascript in [true, false] {
        let Some(b) =
            Browser::start_with("clicking_a_place_on_the_map_picks_the_march", javascript).await
        else {
            return;
        };
        log_in(&b, &app, "howe@example.org").await;
        b.open(&app.url(&page)).await;
        assert_eq!(checked_order(&b).await, "", "no order yet");
        b.click(".map-svg .place[data-place='iron_hill'] .place-mark")
            .await;
        if javascript {
            assert_eq!(b.path().await, page, "the page stays");
        } else {
            b.wait_for_path(&format!("{page}?move_to=iron_hill")).await;
        }
        let chosen = checked_order(&b).await;
        let label = b.text("#order-form label.radio:has(input:checked)").await;
        assert!(
            !chosen.is_empty() && label.contains("Cooch's Bridge"),
            "JavaScript {javascript}: {chosen} {label}"
        );
        b.close().await;
    }
}

/// The centre of a place's marker on the screen.
async fn marker_centre(b: &Browser, place: &str) -> (f64, f64) {
    let at = b
        .client
        .execute(
            "const r = document.querySelector(`.map-svg .place[data-place='${arguments[0]}'] .place-mark`).getBoundingClientRect();
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![json!(place)],
        )
        .await
        .expect("measure");
    let a = at.as_array().expect("two numbers");
    (
        a[0].as_f64().unwrap_or_default(),
        a[1].as_f64().unwrap_or_default(),
    )
}

/// Drags with the mouse from one point of the viewport to another.
async fn drag(b: &Browser, from: (f64, f64), to: (f64, f64)) {
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: from.0.round(),
            y: from.1.round(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveTo {
            duration: Some(std::time::Duration::from_millis(150)),
            x: ((from.0 + to.0) / 2.0).round(),
            y: ((from.1 + to.1) / 2.0).round(),
        })
        .then(PointerAction::MoveTo {
            duration: Some(std::time::Duration::from_millis(150)),
            x: to.0.round(),
            y: to.1.round(),
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client.perform_actions(mouse).await.expect("drag");
    b.client.release_actions().await.ok();
}

/// In the editor a place dragged on the map is saved where it was let go; dropped on another
/// place it is refused, and the message names both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dragging_a_place_in_the_editor_moves_it() {
    let Some(b) = Browser::start("dragging_a_place_in_the_editor_moves_it").await else {
        return;
    };
    let app = spawn_app().await;
    let (id, tokens) = campaign_with(&app, &[("howe@example.org", 0, "Howe's army")]).await;
    let before = api(
        &app,
        &tokens[0],
        "GET",
        &format!("/campaigns/{id}/map"),
        json!({}),
    )
    .await;
    let place = |map: &Value, id: &str| {
        map["places"]
            .as_array()
            .expect("places")
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| (p["x"].as_i64().unwrap_or(-1), p["y"].as_i64().unwrap_or(-1)))
            .expect("the place")
    };
    let (x0, y0) = place(&before, "valley_forge");
    log_in(&b, &app, "howe@example.org").await;
    let editor = format!("/campaigns/{id}/map");
    b.open(&app.url(&editor)).await;
    b.find(".map-svg .place-draggable").await;
    // The scale of the drawing on the screen: map units per CSS pixel.
    let scale = b
        .client
        .execute(
            "const s = document.querySelector('.map-svg'); return 1080 / s.getBoundingClientRect().width;",
            vec![],
        )
        .await
        .expect("measure")
        .as_f64()
        .expect("a number");
    let from = marker_centre(&b, "valley_forge").await;
    // Up and to the left, into open country.
    let to = (from.0 - 60.0 / scale, from.1 - 70.0 / scale);
    drag(&b, from, to).await;
    b.wait_for_text(".notice", |t| t.contains("The map is saved"))
        .await;
    let after = api(
        &app,
        &tokens[0],
        "GET",
        &format!("/campaigns/{id}/map"),
        json!({}),
    )
    .await;
    let (x1, y1) = place(&after, "valley_forge");
    assert!(
        (x1 - (x0 - 60)).abs() <= 3 && (y1 - (y0 - 70)).abs() <= 3,
        "Valley Forge moved from {x0},{y0} by about -60,-70 to {x1},{y1}"
    );

    // Dropped onto Paoli, it is refused and both are named.
    let from = marker_centre(&b, "valley_forge").await;
    let onto = marker_centre(&b, "paoli").await;
    drag(&b, from, (onto.0 + 3.0, onto.1 + 3.0)).await;
    let alert = b.wait_for_text(".alert", |t| t.contains("same spot")).await;
    assert!(
        alert.contains("Paoli") && alert.contains("Valley Forge"),
        "{alert}"
    );
    let kept = api(
        &app,
        &tokens[0],
        "GET",
        &format!("/campaigns/{id}/map"),
        json!({}),
    )
    .await;
    assert_eq!(place(&kept, "valley_forge"), (x1, y1), "not saved");
    b.close().await;
}

/// Without JavaScript the editor keeps its numbers: nothing offers dragging, and the place's
/// form moves it.
#[tokio::test]
async fn without_javascript_the_editor_moves_places_by_their_numbers() {
    let app = spawn_app().await;
    let (id, _) = campaign_with(&app, &[("howe@example.org", 0, "Howe's army")]).await;
    app.login("howe@example.org", PASSWORD).await;
    let editor = format!("/campaigns/{id}/map");
    let page = app.get_html(&editor).await;
    assert!(page.contains("id=\"place-form-valley_forge\""), "{page}");
    let res = app
        .post_form(
            &editor,
            &editor,
            &[
                ("op", "update_place"),
                ("place", "valley_forge"),
                ("name", "Valley Forge"),
                ("kind", "village"),
                ("x", "360"),
                ("y", "175"),
                ("value", "1"),
                ("supply", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422, "on Paoli's spot");
    let text = res.text().await.expect("body");
    assert!(
        text.contains("Paoli and Valley Forge stand on the same spot"),
        "{text}"
    );
}
