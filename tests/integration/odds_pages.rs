//! Issue 18, item 4: odds pages that look finished, for every rule system. The answer sits beside
//! its form; "at least N" stands beside "exactly N" and the charts say what the tables say; a
//! side can be filled from an element of one's own roster (and only one's own); a link brings
//! the same situation and the same answer back; a refused situation keeps what was typed.

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::helpers::{spawn_app, TestApp, Visitor, PASSWORD};

/// Undoes askama's escaping of attribute values.
fn unescape(s: &str) -> String {
    s.replace("&#38;", "&")
        .replace("&amp;", "&")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
}

/// The calculator's section of the page: `<section class="panel" id="{calc}"` to its end.
fn section<'a>(html: &'a str, calc: &str) -> &'a str {
    let marker = format!("<section class=\"panel\" id=\"{calc}\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {calc} section"));
    let end = start
        + html[start..]
            .find("</section>")
            .unwrap_or(html.len() - start);
    &html[start..end]
}

/// The answer of a calculator, without its link: everything a user reads as the result.
fn answer<'a>(html: &'a str, calc: &str) -> &'a str {
    let s = section(html, calc);
    let start = s
        .find("class=\"odds-result\"")
        .unwrap_or_else(|| panic!("no answer box in {calc}"));
    let end = s.find("class=\"situation-link\"").unwrap_or(s.len());
    &s[start..end]
}

/// The value of `<input id="{id}" … value="…">`.
fn input_value(html: &str, id: &str) -> Option<String> {
    let start = html.find(&format!("<input id=\"{id}\""))?;
    let tag = &html[start..start + html[start..].find('>')?];
    let at = tag.find("value=\"")? + "value=\"".len();
    Some(unescape(tag[at..].split('"').next()?))
}

/// Whether the checkbox `name` is ticked (the first one of that name).
fn checked(html: &str, name: &str) -> bool {
    html.find(&format!("name=\"{name}\" value=\"1\""))
        .map(|at| {
            let tag = &html[at..at + html[at..].find('>').unwrap_or(0)];
            tag.contains("checked")
        })
        .unwrap_or(false)
}

/// The `value` of the option selected in `<select name="{name}">`.
fn selected(html: &str, name: &str) -> Option<String> {
    let start = html.find(&format!("name=\"{name}\""))?;
    let end = start + html[start..].find("</select>")?;
    let select = &html[start..end];
    let at = select.find(" selected")?;
    let before = &select[..at];
    let value = before.rfind("value=\"")? + "value=\"".len();
    Some(before[value..].split('"').next()?.to_string())
}

/// The value of the option of `<select name="{name}">` whose label contains `label`.
fn option_for(html: &str, name: &str, label: &str) -> Option<String> {
    let start = html.find(&format!("name=\"{name}\""))?;
    let end = start + html[start..].find("</select>")?;
    html[start..end].split("<option ").find_map(|o| {
        let text = o.split('>').nth(1)?.split('<').next()?;
        if !unescape(text).contains(label) {
            return None;
        }
        let at = o.find("value=\"")? + "value=\"".len();
        Some(o[at..].split('"').next()?.to_string())
    })
}

fn percent(cell: &str) -> f64 {
    cell.trim()
        .trim_end_matches('%')
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a percentage: {cell:?}"))
}

/// The text of every `<{tag} …>text</{tag}>` in `html`, in order.
fn texts(html: &str, open: &str, close: &str) -> Vec<String> {
    html.split(open)
        .skip(1)
        .filter_map(|s| {
            let s = &s[s.find('>')? + 1..];
            Some(s[..s.find(close)?].to_string())
        })
        .collect()
}

/// A count's table and charts: rows of (count, exactly, at least) as shown, and the bars of the
/// "exactly" and "at least" charts as (label, percentage) from each bar's title.
struct Shown {
    rows: Vec<(String, String, String)>,
    exactly_bars: Vec<(String, String)>,
    at_least_bars: Vec<(String, String)>,
}

fn distribution(html: &str, id: &str) -> Shown {
    let start = html
        .find(&format!("<div class=\"odds-dist\" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no distribution {id}"));
    let d = &html[start..start + html[start..].find("</table>").expect("its table")];
    let bars = |which: &str| -> Vec<(String, String)> {
        let at = d
            .find(&format!("class=\"{which}\""))
            .unwrap_or_else(|| panic!("no {which} chart in {id}"));
        let chart = &d[at..at + d[at..].find("</figure>").expect("its figure")];
        texts(chart, "<title", "</title>")
            .iter()
            .map(|t| {
                let (label, p) = t.rsplit_once(": ").expect("label: percentage");
                (label.to_string(), p.to_string())
            })
            .collect()
    };
    let body = &d[d.find("<tbody>").expect("table body")..];
    let rows = body
        .split("<tr>")
        .skip(1)
        .map(|r| {
            let count = texts(r, "<th", "</th>")[0].clone();
            let cells = texts(r, "<td", "</td>");
            (count, cells[0].clone(), cells[1].clone())
        })
        .collect();
    Shown {
        rows,
        exactly_bars: bars("chart-exactly"),
        at_least_bars: bars("chart-at-least"),
    }
}

/// "At least N" is the sum of "exactly" from N up (within the rounding of the cells summed),
/// starts at 100 %, and both charts show the table's rows with the table's numbers.
fn check_distribution(html: &str, id: &str) {
    let d = distribution(html, id);
    assert!(d.rows.len() >= 3, "{id}: a real distribution, {:?}", d.rows);
    assert_eq!(
        percent(&d.rows[0].2),
        100.0,
        "{id}: at least the smallest count is certain"
    );
    let exactly: Vec<f64> = d.rows.iter().map(|r| percent(&r.1)).collect();
    for (k, row) in d.rows.iter().enumerate() {
        let tail: f64 = exactly[k..].iter().sum();
        let rounding = 0.05 * (exactly.len() - k) as f64 + 0.05 + 1e-9;
        assert!(
            (percent(&row.2) - tail).abs() <= rounding,
            "{id}: at least {} is {} but exactly {}.. sums to {tail:.2}",
            row.0,
            row.2,
            row.0
        );
    }
    let table_exactly: Vec<(String, String)> =
        d.rows.iter().map(|r| (r.0.clone(), r.1.clone())).collect();
    assert_eq!(
        d.exactly_bars, table_exactly,
        "{id}: the exactly chart is the table's"
    );
    let table_at_least: Vec<(String, String)> = d
        .rows
        .iter()
        .map(|r| (format!("{}+", r.0), r.2.clone()))
        .collect();
    assert_eq!(
        d.at_least_bars, table_at_least,
        "{id}: the at-least chart is the table's"
    );
}

/// The link shown with an answer, as a path to open on the test server.
fn link_path(app: &TestApp, html: &str, calc: &str) -> String {
    let url = input_value(html, &format!("{calc}-link"))
        .unwrap_or_else(|| panic!("no link to the {calc} situation"));
    assert!(
        !url.contains("from_"),
        "the link does not depend on a roster: {url}"
    );
    url.strip_prefix(&app.address)
        .unwrap_or_else(|| panic!("{url} is not on this server"))
        .split('#')
        .next()
        .unwrap_or_default()
        .to_string()
}

async fn roster(app: &TestApp, token: &str, doc: Value) -> i64 {
    let res = reqwest::Client::new()
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&doc)
        .send()
        .await
        .expect("create roster");
    assert_eq!(res.status(), 201, "roster created");
    res.json::<Value>().await.expect("json")["id"]
        .as_i64()
        .expect("id")
}

/// A user with a session in `visitor` and one roster made through the API.
async fn player_with(app: &TestApp, visitor: &Visitor, email: &str, doc: Value) {
    let token = app.api_user(email).await;
    roster(app, &token, doc).await;
    let res = visitor.login(email, PASSWORD).await;
    assert!(res.status().is_redirection(), "{email} logs in");
}

fn lotf_roster(name: &str, element: Value) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
           "nation": "british", "points_limit": 500, "force_commander": {"name": "Clinton"},
           "groups": [{"name": "Van", "commander": {"name": "Simcoe"}, "elements": [element]}]})
}

fn lod_roster(name: &str, unit: Value) -> Value {
    json!({"format": "muster.lod.roster/1", "name": name, "army_list": "british",
           "c_in_c": {"name": "Cornwallis"},
           "brigades": [{"name": "Guards", "general": {"name": "O'Hara"}, "units": [unit]}]})
}

#[tokio::test]
async fn lotf_at_least_is_cumulative_and_the_charts_agree_with_the_tables() {
    let app = spawn_app().await;
    let page = app
        .get_html("/lotf/odds?calc=shooting&s_type=infantry&s_size=large&t_type=infantry&t_size=medium&range=6")
        .await;
    check_distribution(&page, "shooting-hits");
    let page = app
        .get_html("/lotf/odds?calc=melee&a_type=cavalry&a_size=large&d_type=infantry&d_size=medium")
        .await;
    check_distribution(&page, "melee-attacker-hits");
    check_distribution(&page, "melee-defender-hits");
}

#[tokio::test]
async fn lod_at_least_is_cumulative_and_the_charts_agree_with_the_tables() {
    let app = spawn_app().await;
    let page = app
        .get_html("/lod/odds?calc=shooting&s_unit=british.regular_infantry_regiment&t_unit=continental.continental_regiment&range=6")
        .await;
    check_distribution(&page, "shooting-unsaved");
    check_distribution(&page, "shooting-before-saves");
    let page = app
        .get_html("/lod/odds?calc=melee&a_unit=british.guard_infantry&b_unit=continental.militia_regiment&a_charging=1")
        .await;
    check_distribution(&page, "melee-a-hits");
    check_distribution(&page, "melee-b-hits");
    let page = app
        .get_html("/lod/odds?calc=test&x_unit=continental.continental_regiment&x_kind=order&x_order=charge")
        .await;
    check_distribution(&page, "test-successes");
}

#[tokio::test]
async fn a_lotf_situation_comes_from_ones_own_roster_and_its_link_brings_it_back() {
    let app = spawn_app().await;
    player_with(
        &app,
        &app.visitor,
        "simcoe@example.org",
        lotf_roster(
            "Simcoe's Command",
            json!({"name": "Provincial Riflemen", "type": "infantry", "size": "small",
                   "weapon": "rifled", "upgrades": ["light_infantry"]}),
        ),
    )
    .await;
    let other = app.other_visitor();
    player_with(
        &app,
        &other,
        "tarleton@example.org",
        lotf_roster(
            "Tarleton's Legion",
            json!({"name": "Legion Horse", "type": "cavalry", "size": "large"}),
        ),
    )
    .await;

    let page = app.get_html("/lotf/odds").await;
    let mine = option_for(&page, "from_s", "Simcoe's Command — Provincial Riflemen")
        .expect("the shooter can come from one's roster");
    assert!(
        option_for(&page, "from_s", "Legion Horse").is_none(),
        "only one's own rosters are offered"
    );
    for side in ["from_t", "from_a", "from_d", "from_m"] {
        assert!(
            option_for(&page, side, "Provincial Riflemen").is_some(),
            "{side}"
        );
    }

    // Picked as the shooter: its type, size, weapon and upgrade fill the form, and are worked out.
    let page = app
        .get_html(&format!(
            "/lotf/odds?calc=shooting&from_s={mine}&t_type=cavalry&t_size=large&range=8"
        ))
        .await;
    assert_eq!(selected(&page, "s_type").as_deref(), Some("infantry"));
    assert_eq!(selected(&page, "s_size").as_deref(), Some("small"));
    assert_eq!(selected(&page, "s_weapon").as_deref(), Some("rifled"));
    assert_eq!(
        selected(&page, "s_upgrade").as_deref(),
        Some("light_infantry")
    );
    assert_eq!(
        selected(&page, "t_type").as_deref(),
        Some("cavalry"),
        "the rest is as typed"
    );
    let result = answer(&page, "shooting").to_string();
    assert!(result.contains("Expected hits"), "{result}");

    // The link reproduces it for anyone: same situation, same answer.
    let path = link_path(&app, &page, "shooting");
    let anonymous = app.other_visitor();
    let again = anonymous.get_html(&path).await;
    assert_eq!(
        answer(&again, "shooting"),
        result,
        "{path} gives the same answer"
    );
    assert_eq!(selected(&again, "s_weapon").as_deref(), Some("rifled"));
    assert!(
        !again.contains("name=\"from_s\""),
        "visitors see no roster picker"
    );

    // As the defender in a melee, and its Morale for a test (as the rules core has it).
    let page = app
        .get_html(&format!(
            "/lotf/odds?calc=melee&a_type=cavalry&a_size=large&from_d={mine}"
        ))
        .await;
    assert_eq!(selected(&page, "d_type").as_deref(), Some("infantry"));
    assert_eq!(selected(&page, "d_size").as_deref(), Some("small"));
    assert_eq!(
        selected(&page, "d_upgrade").as_deref(),
        Some("light_infantry")
    );
    assert!(answer(&page, "melee").contains("Attacker wins"));
    let path = link_path(&app, &page, "melee");
    assert_eq!(
        answer(&anonymous.get_html(&path).await, "melee"),
        answer(&page, "melee")
    );
    let page = app
        .get_html(&format!("/lotf/odds?calc=morale&from_m={mine}"))
        .await;
    let core: Value = reqwest::Client::new()
        .post(app.url("/api/v1/lotf/odds/morale"))
        .json(&json!({"element": {"type": "infantry", "size": "small", "upgrades": ["light_infantry"]}}))
        .send()
        .await
        .expect("morale odds")
        .json()
        .await
        .expect("json");
    assert_eq!(
        input_value(&page, "m_morale"),
        Some(core["target"].to_string()),
        "the element's Morale"
    );

    // Someone else's element is refused, and fills nothing.
    let theirs = option_for(
        &other.get_html("/lotf/odds").await,
        "from_s",
        "Legion Horse",
    )
    .expect("Tarleton's own pick");
    let page = app
        .get_html(&format!(
            "/lotf/odds?calc=shooting&from_s={theirs}&s_type=artillery&s_size=medium"
        ))
        .await;
    assert!(
        answer(&page, "shooting").contains("not in any of your rosters"),
        "{}",
        answer(&page, "shooting")
    );
    assert_eq!(
        selected(&page, "s_type").as_deref(),
        Some("artillery"),
        "nothing filled"
    );
    assert!(!answer(&page, "shooting").contains("Expected hits"));
    let page = anonymous
        .get_html(&format!("/lotf/odds?calc=shooting&from_s={mine}"))
        .await;
    assert!(answer(&page, "shooting").contains("not in any of your rosters"));
}

#[tokio::test]
async fn a_lod_situation_comes_from_ones_own_roster_and_its_link_brings_it_back() {
    let app = spawn_app().await;
    player_with(
        &app,
        &app.visitor,
        "ohara@example.org",
        lod_roster(
            "Crown Forces",
            json!({"name": "The 33rd Foot", "entry": "regular_infantry_regiment", "bases": 5,
                   "grenadiers_detached": true}),
        ),
    )
    .await;
    let other = app.other_visitor();
    player_with(
        &app,
        &other,
        "greene@example.org",
        lod_roster(
            "Southern Army",
            json!({"name": "Queen's Light Horse", "entry": "light_dragoon_regiment", "bases": 6}),
        ),
    )
    .await;

    let page = app.get_html("/lod/odds").await;
    let mine = option_for(&page, "from_s", "Crown Forces — The 33rd Foot")
        .expect("the shooter can come from one's roster");
    assert!(option_for(&page, "from_s", "Queen's Light Horse").is_none());
    for side in ["from_t", "from_a", "from_b", "from_x"] {
        assert!(option_for(&page, side, "The 33rd Foot").is_some(), "{side}");
    }

    let page = app
        .get_html(&format!(
            "/lod/odds?calc=shooting&from_s={mine}&t_unit=continental.continental_regiment&range=8"
        ))
        .await;
    assert_eq!(
        selected(&page, "s_unit").as_deref(),
        Some("british.regular_infantry_regiment")
    );
    assert_eq!(input_value(&page, "s_bases").as_deref(), Some("5"));
    assert!(checked(&page, "s_gren"), "its grenadiers are detached");
    let result = answer(&page, "shooting").to_string();
    assert!(result.contains("Unsaved hits"), "{result}");
    let path = link_path(&app, &page, "shooting");
    let anonymous = app.other_visitor();
    let again = anonymous.get_html(&path).await;
    assert_eq!(
        answer(&again, "shooting"),
        result,
        "{path} gives the same answer"
    );
    assert!(
        !again.contains("name=\"from_s\""),
        "visitors see no roster picker"
    );

    // Side B of a melee, and the unit of a test.
    let page = app
        .get_html(&format!(
            "/lod/odds?calc=melee&a_unit=continental.continental_regiment&from_b={mine}"
        ))
        .await;
    assert_eq!(
        selected(&page, "b_unit").as_deref(),
        Some("british.regular_infantry_regiment")
    );
    assert_eq!(input_value(&page, "b_bases").as_deref(), Some("5"));
    assert!(answer(&page, "melee").contains("Who wins the round"));
    let path = link_path(&app, &page, "melee");
    assert_eq!(
        answer(&anonymous.get_html(&path).await, "melee"),
        answer(&page, "melee")
    );
    let page = app
        .get_html(&format!("/lod/odds?calc=test&from_x={mine}&x_kind=morale"))
        .await;
    assert_eq!(input_value(&page, "x_bases").as_deref(), Some("5"));
    let path = link_path(&app, &page, "test");
    assert_eq!(
        answer(&anonymous.get_html(&path).await, "test"),
        answer(&page, "test")
    );

    let theirs = option_for(
        &other.get_html("/lod/odds").await,
        "from_s",
        "Queen's Light Horse",
    )
    .expect("Greene's own pick");
    let page = app
        .get_html(&format!(
            "/lod/odds?calc=shooting&from_s={theirs}&s_unit=continental.riflemen"
        ))
        .await;
    assert!(answer(&page, "shooting").contains("not in any of your rosters"));
    assert_eq!(
        selected(&page, "s_unit").as_deref(),
        Some("continental.riflemen"),
        "nothing filled"
    );
}

/// A refused situation is told beside its own form, which keeps everything typed.
#[tokio::test]
async fn a_refused_situation_keeps_what_was_typed_and_says_why_beside_it() {
    let app = spawn_app().await;
    let page = app
        .get_html("/lotf/odds?calc=morale&m_morale=15&m_excess=2&m_disordered=1&m_kind=discipline")
        .await;
    let morale = answer(&page, "morale");
    assert!(
        morale.contains("role=\"alert\"") && morale.contains("from 2 to 12"),
        "{morale}"
    );
    assert_eq!(input_value(&page, "m_morale").as_deref(), Some("15"));
    assert_eq!(input_value(&page, "m_excess").as_deref(), Some("2"));
    assert!(checked(&page, "m_disordered"));
    assert_eq!(selected(&page, "m_kind").as_deref(), Some("discipline"));
    assert!(
        !answer(&page, "shooting").contains("alert"),
        "not beside another form"
    );

    let page = app
        .get_html("/lod/odds?calc=shooting&s_unit=continental.militia_regiment&s_hits=1&t_unit=british.light_infantry&t_cover=1&range=60")
        .await;
    let shooting = answer(&page, "shooting");
    assert!(
        shooting.contains("role=\"alert\"") && shooting.contains("there is no shot"),
        "{shooting}"
    );
    assert_eq!(input_value(&page, "range").as_deref(), Some("60"));
    assert_eq!(input_value(&page, "s_hits").as_deref(), Some("1"));
    assert_eq!(
        selected(&page, "t_unit").as_deref(),
        Some("british.light_infantry")
    );
    assert!(checked(&page, "t_cover"));
}

/// At 1280 px each answer stands to the right of its form; on a phone, below it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answer_sits_beside_the_form_on_a_wide_screen_and_below_it_on_a_phone() {
    let app = spawn_app().await;
    if app.db.is_postgres() {
        return;
    }
    let pages = [
        ("/lotf/odds?calc=shooting&s_type=infantry&s_size=large&range=6", "shooting"),
        ("/lotf/odds?calc=melee&a_type=cavalry&a_size=large", "melee"),
        ("/lod/odds?calc=melee&a_unit=british.guard_infantry&b_unit=continental.militia_regiment", "melee"),
        ("/lod/odds?calc=test&x_unit=continental.continental_regiment&x_kind=order&x_order=charge", "test"),
    ];
    let boxes: &str = "const s = document.getElementById(arguments[0]);
        const f = s.querySelector('form').getBoundingClientRect();
        const r = s.querySelector('.odds-result').getBoundingClientRect();
        return [f.left, f.right, f.top, f.bottom, r.left, r.right, r.top, r.width];";
    let Some(wide) = Browser::start("the answer sits beside the form (1280 px)").await else {
        return;
    };
    for (path, calc) in pages {
        wide.open(&app.url(path)).await;
        wide.find(".odds-dist, .odds-outcomes").await;
        let m = measure(&wide, boxes, calc).await;
        let [_, form_right, form_top, form_bottom, left, _, top, width] = m[..] else {
            panic!("{path}: {m:?}");
        };
        assert!(
            left >= form_right - 1.0,
            "{path}: the answer starts right of the form, {m:?}"
        );
        assert!(
            top < form_bottom && top >= form_top - 1.0,
            "{path}: beside it, not below, {m:?}"
        );
        assert!(width > 300.0, "{path}: with room to read, {m:?}");
    }
    wide.close().await;
    let Some(phone) = Browser::start_phone("the answer goes below the form (390 px)", 390).await
    else {
        return;
    };
    for (path, calc) in pages {
        phone.open(&app.url(path)).await;
        phone.find(".odds-dist, .odds-outcomes").await;
        let m = measure(&phone, boxes, calc).await;
        let [form_left, _, _, form_bottom, left, right, top, _] = m[..] else {
            panic!("{path}: {m:?}");
        };
        assert!(
            top >= form_bottom - 1.0,
            "{path}: the answer comes after the form, {m:?}"
        );
        assert!(
            (left - form_left).abs() <= 1.0 && right <= 391.0,
            "{path}: {m:?}"
        );
    }
    phone.close().await;
}

async fn measure(b: &Browser, script: &str, calc: &str) -> Vec<f64> {
    let v = b
        .client
        .execute(script, vec![json!(calc)])
        .await
        .expect("measure");
    v.as_array()
        .expect("numbers")
        .iter()
        .map(|n| n.as_f64().unwrap_or(f64::NAN))
        .collect()
}

/// With the script, choosing an element of one's roster fills the form and works it out at once;
/// the Copy button appears beside the link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_script_a_pick_fills_the_form_at_once() {
    let app = spawn_app().await;
    if app.db.is_postgres() {
        return;
    }
    let token = app.api_user("rawdon@example.org").await;
    roster(
        &app,
        &token,
        lod_roster(
            "Rawdon's Column",
            json!({"name": "Volunteers of Ireland", "entry": "regular_infantry_regiment", "bases": 3}),
        ),
    )
    .await;
    let Some(b) = Browser::start("a pick fills the form at once").await else {
        return;
    };
    b.open(&app.url("/login")).await;
    b.fill("#email", "rawdon@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;
    b.open(&app.url("/lod/odds")).await;
    let page = b.client.source().await.expect("page source");
    let pick = option_for(&page, "from_x", "Volunteers of Ireland").expect("the unit is offered");
    b.select("#from_x", &pick).await;
    b.find("#test .situation-link").await;
    let page = b.client.source().await.expect("page source");
    assert_eq!(
        selected(&page, "x_unit").as_deref(),
        Some("british.regular_infantry_regiment")
    );
    assert_eq!(input_value(&page, "x_bases").as_deref(), Some("3"));
    let copy = b.find("button[data-copy='test-link']").await;
    assert!(
        copy.is_displayed().await.unwrap_or(false),
        "the Copy button shows"
    );
    b.close().await;
}
