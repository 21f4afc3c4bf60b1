//! A player's own data (issue 19 item 9): downloading everything Muster holds about them, and
//! deleting the account: rosters go, battles nobody fought go, every session ends; fought
//! battles and campaign logs keep a neutral name in the player's place.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, TestApp, Visitor, PASSWORD};

fn roster_document(name: &str, nation: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": nation,
           "points_limit": 150, "force_commander": {"name": format!("{name} general")},
           "groups": [
             {"commander": {"name": "Left"}, "elements": [
               {"name": format!("{name} 1st"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 2nd"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 3rd"), "type": "infantry", "size": "medium"}]},
             {"commander": {"name": "Right"}, "elements": [
               {"name": format!("{name} 4th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 5th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 6th"), "type": "infantry", "size": "medium"}]}]})
}

struct Player {
    pages: Visitor,
    token: String,
}

async fn player(app: &TestApp, email: &str, name: &str) -> Player {
    let pages = app.other_visitor();
    let res = pages.register(email, name, PASSWORD).await;
    assert_eq!(res.status(), 303, "register {email}");
    let token = pages.api_token(email, PASSWORD).await;
    Player { pages, token }
}

impl Player {
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .pages
            .client
            .request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                self.pages.url(path),
            )
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.call(method, path, body).await;
        assert!(status < 300, "{method} {path}: {status} {v}");
        v
    }

    async fn roster(&self, name: &str, nation: &str) -> i64 {
        self.ok(
            "POST",
            "/api/v1/rosters",
            Some(roster_document(name, nation)),
        )
        .await["id"]
            .as_i64()
            .expect("roster id")
    }
}

/// A battle of `setter`'s two rosters against `opponent` (by e-mail), accepted by them.
async fn accepted_battle(
    setter: &Player,
    rosters: (i64, i64),
    opponent: &Player,
    email: &str,
) -> Value {
    let battle = setter
        .ok(
            "POST",
            "/api/v1/battles",
            Some(
                json!({"first": format!("r:{}", rosters.0), "second": format!("r:{}", rosters.1),
                        "second_player": email, "scenario": "take_the_field"}),
            ),
        )
        .await;
    let id = battle["id"].as_i64().expect("battle id");
    opponent
        .ok(
            "POST",
            &format!("/api/v1/battles/{id}/accept"),
            Some(json!({"version": battle["version"]})),
        )
        .await
}

/// Every element fit: a valid tabletop result.
async fn report(who: &Player, id: i64) -> Value {
    let setup = who
        .ok("GET", &format!("/api/v1/battles/{id}/setup"), None)
        .await;
    let mut elements = Vec::new();
    for side in ["attacker", "defender"] {
        for g in setup[side]["roster"]["groups"].as_array().expect("groups") {
            for e in g["elements"].as_array().expect("elements") {
                elements.push(json!({"side": side, "id": e["id"], "state": "fit", "hits": 0}));
            }
        }
    }
    json!({"turns_played": 6, "elements": elements})
}

#[tokio::test]
async fn a_player_downloads_their_data_and_deletes_their_account() {
    let app = spawn_app().await;
    let howe = player(&app, "howe@example.org", "General Howe").await;
    let wash = player(&app, "washington@example.org", "George Washington").await;
    let wash_id = wash.ok("GET", "/api/v1/me", None).await["id"]
        .as_i64()
        .expect("id");
    let w1 = wash.roster("Continental Line", "american").await;
    let _w2 = wash.roster("Virginia Militia", "american").await;
    let h = (
        howe.roster("Guards", "british").await,
        howe.roster("Hessians", "british").await,
    );

    // A battle fought (recorded by Howe, confirmed by Washington) and one nobody fought.
    let fought = accepted_battle(&howe, h, &wash, "washington@example.org").await;
    let fought_id = fought["id"].as_i64().expect("id");
    let report = report(&howe, fought_id).await;
    let recorded = howe
        .ok(
            "POST",
            &format!("/api/v1/battles/{fought_id}/record"),
            Some(json!({"version": fought["version"], "report": report})),
        )
        .await;
    wash.ok(
        "POST",
        &format!("/api/v1/battles/{fought_id}/confirm"),
        Some(json!({"version": recorded["version"]})),
    )
    .await;
    let unfought = accepted_battle(&howe, h, &wash, "washington@example.org").await;
    let unfought_id = unfought["id"].as_i64().expect("id");

    // A campaign Howe organises, both enlisted.
    let created = howe
        .ok(
            "POST",
            "/api/v1/campaigns",
            Some(
                json!({"name": "Jerseys 1776", "map": "philadelphia-1777", "points": 150,
                        "turns": 3, "sides": ["", ""]}),
            ),
        )
        .await;
    let cid = created["id"].as_i64().expect("campaign id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    howe.ok(
        "POST",
        &format!("/api/v1/campaigns/{cid}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": h.0})),
    )
    .await;
    wash.ok(
        "POST",
        &format!("/api/v1/campaigns/{cid}/join"),
        Some(json!({"code": code, "side": 1, "roster_id": w1})),
    )
    .await;

    // ---- The download: a visitor is sent to log in; the page and the API give the same.
    let visitor = app.other_visitor();
    let res = visitor.get("/account/export").await;
    assert_eq!(res.status(), 303);
    assert!(location(&res).starts_with("/login"), "{}", location(&res));
    let res = visitor.get("/api/v1/me/export").await;
    assert_eq!(res.status(), 401);
    let res = visitor.get("/account/delete").await;
    assert_eq!(res.status(), 303, "a visitor is sent to log in");
    let res = visitor
        .client
        .delete(visitor.url("/api/v1/me"))
        .json(&json!({"password": PASSWORD}))
        .send()
        .await
        .expect("DELETE");
    assert_eq!(res.status(), 401);

    let res = wash.pages.get("/account/export").await;
    assert_eq!(res.status(), 200);
    let disposition = res
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        disposition.starts_with("attachment; filename=\"muster-my-data-"),
        "{disposition}"
    );
    let export: Value = res.json().await.expect("JSON");
    assert_eq!(export["format"], "muster.account-export/1");
    assert_eq!(export["account"]["email"], "washington@example.org");
    assert_eq!(export["account"]["display_name"], "George Washington");
    let rosters = export["rosters"].as_array().expect("rosters");
    assert_eq!(rosters.len(), 2, "{export}");
    assert!(rosters
        .iter()
        .any(|r| r["document"]["name"] == "Virginia Militia"
            && r["document"]["groups"][0]["elements"][0]["name"] == "Virginia Militia 1st"));
    let battle_ids: Vec<i64> = export["battles"]
        .as_array()
        .expect("battles")
        .iter()
        .map(|b| b["id"].as_i64().expect("id"))
        .collect();
    assert!(battle_ids.contains(&fought_id) && battle_ids.contains(&unfought_id));
    let fought_part = export["battles"]
        .as_array()
        .expect("battles")
        .iter()
        .find(|b| b["id"] == fought_id)
        .expect("the fought battle");
    assert_eq!(fought_part["your_side"], "defender");
    assert_eq!(fought_part["status"], "confirmed");
    let campaign = &export["campaigns"][0];
    assert_eq!(campaign["name"], "Jerseys 1776");
    assert_eq!(campaign["organiser"], false);
    assert!(
        campaign["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .any(|e| e["words"]
                .as_str()
                .unwrap_or("")
                .contains("George Washington enlisted")),
        "{campaign}"
    );
    // A result waited for Washington's confirmation: the notice is in his download.
    assert!(
        export["notices"]
            .as_array()
            .expect("notices")
            .iter()
            .any(|n| n["kind"] == "result_to_confirm"
                && n["link"] == format!("/battles/{fought_id}")),
        "{}",
        export["notices"]
    );
    let api_export = wash.ok("GET", "/api/v1/me/export", None).await;
    assert_eq!(api_export["rosters"], export["rosters"]);
    // Howe's download holds none of Washington's rosters.
    let howes = howe.ok("GET", "/api/v1/me/export", None).await;
    assert!(!howes.to_string().contains("Virginia Militia"));

    // ---- Deleting: the organiser of a running campaign with other players is refused.
    let (status, body) = howe
        .call("DELETE", "/api/v1/me", Some(json!({"password": PASSWORD})))
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("Jerseys 1776"));

    // A wrong password deletes nothing and keeps the page's form.
    let page = wash.pages.get_html("/account/delete").await;
    assert!(page.contains("Former player"), "the page says what stays");
    let res = wash
        .pages
        .post_form(
            "/account/delete",
            "/account/delete",
            &[("password", "not my password")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .expect("body")
        .contains("That is not your password"));
    // Without the CSRF token nothing happens.
    let res = wash
        .pages
        .client
        .post(wash.pages.url("/account/delete"))
        .form(&[("password", PASSWORD)])
        .send()
        .await
        .expect("POST");
    assert_eq!(res.status(), 403);
    assert_eq!(
        wash.ok("GET", "/api/v1/me", None).await["email"],
        "washington@example.org"
    );

    // The real thing.
    let res = wash
        .pages
        .post_form(
            "/account/delete",
            "/account/delete",
            &[("password", PASSWORD)],
        )
        .await;
    assert_eq!(res.status(), 200);
    let goodbye = res.text().await.expect("body");
    assert!(goodbye.contains("Your account was deleted"), "{goodbye}");
    assert!(goodbye.contains("2 rosters"), "{goodbye}");

    // Logged out everywhere; the password no longer opens anything.
    assert_eq!(wash.pages.get("/account").await.status(), 303);
    assert_eq!(wash.call("GET", "/api/v1/me", None).await.0, 401);
    let again = app.other_visitor();
    let res = again.login("washington@example.org", PASSWORD).await;
    assert_ne!(
        location(&res),
        "/",
        "logging in as the deleted account fails"
    );

    // The fought battle stays, under a neutral name; the unfought one is gone.
    let former = format!("Former player {wash_id}");
    let page = howe.pages.get_html(&format!("/battles/{fought_id}")).await;
    assert!(
        page.contains(&former) && !page.contains("George Washington"),
        "{page}"
    );
    let (_, battle) = howe
        .call("GET", &format!("/api/v1/battles/{fought_id}"), None)
        .await;
    assert_eq!(battle["status"], "confirmed", "{battle}");
    assert!(
        !battle.to_string().contains("George Washington"),
        "{battle}"
    );
    assert_eq!(
        howe.call("GET", &format!("/api/v1/battles/{unfought_id}"), None)
            .await
            .0,
        404
    );

    // The campaign's log and state name a former player; the log still rebuilds the state.
    let log = howe
        .ok("GET", &format!("/api/v1/campaigns/{cid}/log"), None)
        .await;
    assert!(!log.to_string().contains("George Washington"), "{log}");
    assert!(
        log.to_string().contains(&format!("{former} enlisted")),
        "{log}"
    );
    let shown = howe
        .ok("GET", &format!("/api/v1/campaigns/{cid}"), None)
        .await;
    assert!(!shown.to_string().contains("George Washington"), "{shown}");
    let audit = howe
        .ok("GET", &format!("/api/v1/campaigns/{cid}/audit"), None)
        .await;
    assert_eq!(audit["rebuilt_matches"], true, "{audit}");

    // His inbox went with the account.
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let left = muster::store::notifications::list(&mut conn, wash_id, None, 100).expect("query");
    assert!(left.is_empty(), "{left:?}");

    // The address is free again.
    let res = app
        .other_visitor()
        .register("washington@example.org", "George Washington", PASSWORD)
        .await;
    assert_eq!(
        res.status(),
        303,
        "the address and the name can be used again"
    );
}

#[tokio::test]
async fn the_campaign_log_stays_append_only_outside_an_erasure() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let howe = player(&app, "howe@example.org", "General Howe").await;
    let created = howe
        .ok(
            "POST",
            "/api/v1/campaigns",
            Some(
                json!({"name": "Jerseys 1776", "map": "philadelphia-1777", "points": 150,
                        "turns": 3, "sides": ["", ""]}),
            ),
        )
        .await;
    let cid = created["id"].as_i64().expect("campaign id");
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    for change in [
        "UPDATE campaign_log SET words = 'rewritten'",
        "UPDATE campaign_log SET seq = seq + 100",
    ] {
        let refused =
            diesel::sql_query(format!("{change} WHERE campaign_id = {cid}")).execute(&mut conn);
        let message = refused.expect_err("the log refuses the change").to_string();
        assert!(message.contains("append-only"), "{message}");
    }
}

#[tokio::test]
async fn guessing_the_password_on_the_delete_form_is_throttled() {
    let app = spawn_app().await;
    let howe = player(&app, "howe@example.org", "General Howe").await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let (status, _) = howe
            .call(
                "DELETE",
                "/api/v1/me",
                Some(json!({"password": "a guess at it"})),
            )
            .await;
        statuses.push(status);
    }
    assert_eq!(statuses[..5], [422; 5], "{statuses:?}");
    assert_eq!(statuses[5], 429, "{statuses:?}");
    // The account is untouched.
    assert_eq!(
        howe.ok("GET", "/api/v1/me", None).await["display_name"],
        "General Howe"
    );
}
