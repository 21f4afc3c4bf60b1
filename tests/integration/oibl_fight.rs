//! One if by Land battles fought by the engine on the web (issue 21, item 6): a narrated battle
//! that replays from its seed and from its set-up file, the API's battle and odds, odds fought
//! as a background job with progress, refusals that say what to fix, and the page in Chromium
//! at a phone's width.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, PASSWORD};

const AMERICAN: &str = "x:example:american";
const BRITISH: &str = "x:example:british";

/// The page's text with its escapes read back.
fn unescape(html: &str) -> String {
    ["&#39;", "&#x27;", "&#34;", "&quot;", "&lt;", "&gt;"]
        .iter()
        .zip(["'", "'", "\"", "\"", "<", ">"])
        .fold(html.to_string(), |text, (escaped, plain)| {
            text.replace(escaped, plain)
        })
        .replace("&amp;", "&")
}

#[tokio::test]
async fn oibl_a_battle_replays_from_its_seed_and_set_up_and_odds_run_as_a_job() {
    let app = spawn_app().await;
    assert_eq!(app.get("/oibl/fight").await.status(), 303, "players only");
    app.register("percy@example.org", "Percy", PASSWORD).await;
    let form = app.get_html("/oibl/fight").await;
    assert!(
        form.contains(&format!("value=\"{AMERICAN}\" selected"))
            && form.contains(&format!("value=\"{BRITISH}\" selected")),
        "the example brigades face each other by default: {form}"
    );
    assert!(!form.contains("x:example:empty"), "no empty force to fight");
    assert!(app.get_html("/").await.contains("href=\"/oibl/fight\""));

    // The form without its CSRF token is refused.
    let res = app
        .client
        .post(app.url("/oibl/fight/battle"))
        .form(&[("attacker", AMERICAN), ("defender", BRITISH)])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);

    let res = app
        .post_form(
            "/oibl/fight",
            "/oibl/fight/battle",
            &[("attacker", AMERICAN), ("defender", BRITISH), ("seed", "")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let report_url = location(&res);
    assert!(report_url.starts_with("/oibl/fight/battle?") && report_url.contains("seed="));
    assert!(!report_url.contains("csrf"), "no token in the address");

    // A bad seed keeps the form as it was filled in and says what to fix.
    let res = app
        .post_form(
            "/oibl/fight",
            "/oibl/fight/odds",
            &[("attacker", BRITISH), ("defender", AMERICAN), ("seed", "x")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("The seed is a whole number")
            && html.contains(&format!("<option value=\"{BRITISH}\" selected>")),
        "the form is kept with what to fix"
    );
    // A force that is not in the list is refused in words, too.
    let res = app
        .get("/oibl/fight/battle?attacker=x:example:prussian&defender=x:example:british&seed=1")
        .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("Choose a force from the list"));

    let report = app.get_html(&report_url).await;
    assert!(
        report.contains("outcome-banner") && report.contains("Turn 1"),
        "{report}"
    );
    assert!(report.contains("B-34"), "Muster's end rules are named");
    assert!(report.contains("figures"), "losses in figures");
    let log = |html: &str| html[html.find("battle-log").expect("a log")..].to_string();
    let again = app.get_html(&report_url).await;
    assert_eq!(
        log(&report),
        log(&again),
        "the same seed gives the same battle"
    );

    // The set-up file: downloaded, pasted into the replay form, and posted to the API, it
    // fights the same battle.
    let query = &report_url["/oibl/fight/battle?".len()..];
    let res = app.get(&format!("/oibl/fight/setup.json?{query}")).await;
    assert!(res
        .headers()
        .get("content-disposition")
        .is_some_and(|v| v.to_str().unwrap_or("").contains("oibl-battle-")));
    let text = res.text().await.unwrap();
    let setup: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(setup["format"], "muster.oibl.battle/1");
    let res = app
        .post_form(
            "/oibl/fight",
            "/oibl/fight/replay",
            &[("setup", text.as_str())],
        )
        .await;
    assert_eq!(res.status(), 200);
    let replayed = res.text().await.unwrap();
    assert_eq!(log(&replayed), log(&report), "the file replays the battle");
    let broken = "{\"format\": \"muster.oibl.battle/1\", \"seed\": ";
    let res = app
        .post_form("/oibl/fight", "/oibl/fight/replay", &[("setup", broken)])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("role=\"alert\">setup: "), "{html}");
    assert!(unescape(&html).contains(broken), "the pasted file is kept");

    let token = app.api_token("percy@example.org", PASSWORD).await;
    let client = reqwest::Client::new();
    let post = |path: &str, body: &Value| {
        client
            .post(app.url(path))
            .bearer_auth(&token)
            .json(body)
            .send()
    };
    let first: Value = post("/api/v1/oibl/simulate", &setup)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let second: Value = post("/api/v1/oibl/simulate", &setup)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["outcome"], second["outcome"],
        "a set-up replays exactly"
    );
    assert_eq!(first["setup"], setup);
    let page_log = unescape(&log(&report));
    for line in first["outcome"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .take(12)
    {
        let text = line.as_str().unwrap().trim();
        if text.starts_with("Turn ") {
            continue;
        }
        assert!(
            page_log.contains(text),
            "the page told the same battle: {text}"
        );
    }
    // The short form: two orders of battle and a seed; without the log when asked.
    let short = json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"],
                       "seed": 11, "scenario": "defended_line", "narrate": false});
    let quiet: Value = post("/api/v1/oibl/simulate", &short)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(quiet["setup"]["seed"], 11);
    assert_eq!(quiet["setup"]["scenario"], "defended_line");
    assert!(quiet["outcome"].get("log").is_none(), "{quiet}");
    let res = client
        .post(app.url("/api/v1/oibl/simulate"))
        .json(&setup)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401, "logged-in users only");
    for (body, says) in [
        (
            json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"], "seed": "x"}),
            "seed",
        ),
        (
            json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"], "scenario": "siege"}),
            "siege",
        ),
        (json!({"defender": setup["defender"]["roster"]}), "attacker"),
        (
            json!({"attacker": {"format": "muster.lod.roster/1"}, "defender": setup["defender"]["roster"]}),
            "attacker",
        ),
    ] {
        let res = post("/api/v1/oibl/simulate", &body).await.unwrap();
        assert_eq!(res.status(), 422, "{says}");
        let err: Value = res.json().await.unwrap();
        assert!(err.to_string().contains(says), "{says}: {err}");
    }

    // Odds over the API, answered at once, with Wilson intervals.
    let odds: Value = post(
        "/api/v1/oibl/simulate/odds",
        &json!({"attacker": setup["attacker"]["roster"], "defender": setup["defender"]["roster"],
                "seed": 5, "runs": 60}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(odds["runs"], 60, "{odds}");
    let total: f64 = ["attacker", "draw", "defender"]
        .iter()
        .map(|k| odds[k]["p"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{odds}");
    assert!(odds["attacker"]["low"].as_f64() <= odds["attacker"]["p"].as_f64());
    assert!(odds["attacker"]["p"].as_f64() <= odds["attacker"]["high"].as_f64());
    let res = post(
        "/api/v1/oibl/simulate/odds",
        &json!({"attacker": setup["attacker"]["roster"],
                "defender": setup["defender"]["roster"], "runs": 0}),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 422, "runs out of range");

    // Odds from the page run as a background job with its progress page.
    let res = app
        .post_form(
            "/oibl/fight",
            "/oibl/fight/odds",
            &[
                ("attacker", AMERICAN),
                ("defender", BRITISH),
                ("seed", "9"),
                ("runs", "120"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let job_url = location(&res);
    assert!(job_url.starts_with("/oibl/fight/jobs/"), "{job_url}");
    let mut page = String::new();
    for _ in 0..600 {
        page = app.get_html(&job_url).await;
        if page.contains("95 % interval") {
            break;
        }
        assert!(page.contains("job-bar"), "progress while it runs: {page}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        page.contains("120 battles") && page.contains("95 % interval (Wilson)"),
        "{page}"
    );
    assert!(page.contains("wins") && page.contains("turns on average"));
    let other = app.other_visitor();
    assert_ne!(
        other.get(&job_url).await.status(),
        200,
        "a job is its owner's"
    );
}

/// In Chromium at a phone's width: the form is filled and clicked, the report tells the battle
/// without widening the page, and its Replay link tells the same battle again.
#[tokio::test]
async fn oibl_fight_in_a_browser_on_a_phone() {
    use crate::browser::Browser;
    const WIDTH: u32 = 390;
    let app = spawn_app().await;
    app.register("oibl-phone@example.org", "Phone", PASSWORD)
        .await;
    let Some(b) = Browser::start_phone("oibl_fight_in_a_browser_on_a_phone", WIDTH).await else {
        return;
    };
    b.open(&app.url("/login")).await;
    b.fill("#email", "oibl-phone@example.org").await;
    b.fill("#password", PASSWORD).await;
    b.click("form.stacked-form button[type=submit]").await;
    b.wait_for_path("/").await;

    b.open(&app.url("/oibl/fight")).await;
    b.select("#attacker", BRITISH).await;
    b.select("#defender", AMERICAN).await;
    b.fill("#seed", "5").await;
    b.click("#fight-form button[type=submit]").await;
    let banner = b
        .wait_for_text(".outcome-banner", |t| {
            t.contains("win") || t.contains("draw")
        })
        .await;
    let path = b.path().await;
    assert!(
        path.starts_with("/oibl/fight/battle?") && path.contains("seed=5"),
        "{path}"
    );
    let widths = b
        .client
        .execute(
            "const r = document.documentElement; return [r.scrollWidth, r.clientWidth];",
            vec![],
        )
        .await
        .expect("measure");
    let (scroll, client) = (
        widths[0].as_f64().unwrap_or(0.0),
        widths[1].as_f64().unwrap_or(0.0),
    );
    assert!(
        client <= f64::from(WIDTH) + 1.0 && scroll <= client + 1.0,
        "the report is {scroll} px wide in a {client} px window"
    );
    let log = b.text(".battle-log").await;
    b.click("a[href^='/oibl/fight/battle?']").await;
    let again = b.wait_for_text(".outcome-banner", |t| !t.is_empty()).await;
    assert_eq!(again, banner, "Replay fights the same battle");
    assert_eq!(b.text(".battle-log").await, log);
    b.close().await;
}
