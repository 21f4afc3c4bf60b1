//! Campaign administration over HTTP (issue 19, item 3): a force withdrawn, changed or removed
//! before the start; the allegiance warning on enlisting (M-104); house rules edited before the
//! start; archiving (hidden, read-only) and deleting (only before the start, with a
//! confirmation step); the public read-only page and its revocable link. Each route's
//! authorisation: organiser, the player, another player, a non-member, a visitor.

use serde_json::{json, Value};

use crate::helpers::{location, spawn_app, TestApp, Visitor, PASSWORD};

fn roster(name: &str, nation: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": nation,
           "points_limit": 150, "force_commander": {"name": format!("{name} general")},
           "groups": [
             {"name": "Left", "commander": {"name": format!("{name} left")}, "elements": [
               {"name": format!("{name} 1st"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 2nd"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 3rd"), "type": "infantry", "size": "medium"}]},
             {"name": "Right", "commander": {"name": format!("{name} right")}, "elements": [
               {"name": format!("{name} 4th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 5th"), "type": "infantry", "size": "medium"},
               {"name": format!("{name} 6th"), "type": "infantry", "size": "medium"}]}]})
}

struct Api<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
}

impl Api<'_> {
    /// A call with a bearer token, or none (a visitor).
    async fn call(
        &self,
        token: Option<&str>,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = self.app.url(&format!("/api/v1{path}"));
        let req = match method {
            "GET" => self.http.get(url),
            "PUT" => self.http.put(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url),
        };
        let req = match token {
            Some(t) => req.bearer_auth(t),
            None => req,
        };
        let req = match body {
            Some(b) => req.json(&b),
            None => req,
        };
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let text = res.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn ok(&self, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.call(Some(token), method, path, body).await;
        assert!(status < 300, "{method} {path}: {status} {v}");
        v
    }
}

/// The organiser (who plays the Crown's first force), a second Crown player, a Continental
/// player and a user who is in no campaign, with bearer tokens; the campaign's id and code.
struct World<'a> {
    api: Api<'a>,
    org: String,
    crown: String,
    congress: String,
    outsider: String,
    id: i64,
    code: String,
}

async fn roster_of(api: &Api<'_>, token: &str, name: &str, nation: &str) -> i64 {
    api.ok(token, "POST", "/rosters", Some(roster(name, nation)))
        .await["id"]
        .as_i64()
        .expect("roster id")
}

async fn world(app: &TestApp) -> World<'_> {
    let api = Api {
        app,
        http: reqwest::Client::new(),
    };
    let org = app.api_user("org@example.com").await;
    let crown = app.api_user("crown@example.com").await;
    let congress = app.api_user("congress@example.com").await;
    let outsider = app.api_user("outsider@example.com").await;
    let created = api
        .ok(
            &org,
            "POST",
            "/campaigns",
            Some(
                json!({"name": "Brandywine 1777", "map": "philadelphia-1777", "points": 200,
                        "turns": 3, "sides": ["", ""]}),
            ),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    let w = World {
        api,
        org,
        crown,
        congress,
        outsider,
        id,
        code,
    };
    for (token, side, name, nation) in [
        (&w.org, 0, "Howe's Own", "british"),
        (&w.crown, 0, "Cornwallis's Column", "british"),
        (&w.congress, 1, "Sullivan's Division", "american"),
    ] {
        let r = roster_of(&w.api, token, name, nation).await;
        w.api
            .ok(
                token,
                "POST",
                &format!("/campaigns/{id}/join"),
                Some(json!({"code": w.code, "side": side, "roster_id": r})),
            )
            .await;
    }
    w
}

async fn audit_matches(w: &World<'_>) {
    let audit = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{}/audit", w.id), None)
        .await;
    assert_eq!(audit["rebuilt_matches"], true, "{audit}");
}

async fn log_kinds(w: &World<'_>) -> Vec<(String, String)> {
    let log = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{}/log", w.id), None)
        .await;
    log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap_or("").to_string(),
                e["text"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

async fn browser(app: &TestApp, email: &str) -> Visitor {
    let v = app.other_visitor();
    let res = v.login(email, PASSWORD).await;
    assert_eq!(res.status(), 303, "{email} logs in");
    v
}

#[tokio::test]
async fn a_roster_of_the_other_side_warns_and_enlists_only_when_the_player_confirms() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let player = app.api_user("lauzun@example.com").await;
    let french = roster_of(&w.api, &player, "Lauzun's Legion", "french").await;
    let path = format!("/campaigns/{}/join", w.id);
    // The French on the Crown's side: refused with the warning, naming the field to confirm.
    let (status, v) = w
        .api
        .call(
            Some(&player),
            "POST",
            &path,
            Some(json!({"code": w.code, "side": 0, "roster_id": french})),
        )
        .await;
    assert_eq!(status, 422, "{v}");
    let detail = &v["error"]["details"][0];
    assert_eq!(detail["field"], "accept_warning", "{v}");
    let message = detail["message"].as_str().unwrap_or("");
    assert!(
        message.contains("French") && message.contains("Crown Forces"),
        "{message}"
    );
    // Confirmed, it enlists, and the log says it was over the warning.
    let joined = w
        .api
        .ok(
            &player,
            "POST",
            &path,
            Some(json!({"code": w.code, "side": 0, "roster_id": french, "accept_warning": true})),
        )
        .await;
    assert_eq!(joined["my_force"], "f4");
    let kinds = log_kinds(&w).await;
    assert!(
        kinds
            .iter()
            .any(|(k, t)| k == "enlisted" && t.contains("despite the warning")),
        "{kinds:?}"
    );

    // The join page: the refusal keeps the side and roster chosen and offers the confirmation.
    let page_player = app.other_visitor();
    page_player
        .register("rochambeau@example.com", "Rochambeau", PASSWORD)
        .await;
    let token = page_player
        .api_token("rochambeau@example.com", PASSWORD)
        .await;
    let french2 = roster_of(&w.api, &token, "Soissonnais", "french").await;
    let join_page = format!("/campaigns/join/{}", w.code);
    let french2_text = french2.to_string();
    let res = page_player
        .post_form(
            &join_page,
            &join_page,
            &[("side", "0"), ("roster", &french2_text)],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.expect("page");
    assert!(html.contains("name=\"accept_warning\""), "{html}");
    assert!(html.contains("did not fight for Crown Forces"), "{html}");
    assert!(
        html.contains(&format!("<option value=\"{french2}\" selected>")),
        "the roster chosen is kept"
    );
    let res = page_player
        .post_form(
            &join_page,
            &join_page,
            &[
                ("side", "0"),
                ("roster", &french2_text),
                ("accept_warning", "yes"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), format!("/campaigns/{}", w.id));
    audit_matches(&w).await;
}

#[tokio::test]
async fn before_the_start_a_player_withdraws_or_changes_their_force_and_the_organiser_removes_one()
{
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let another = roster_of(&w.api, &w.crown, "Grant's Brigade", "british").await;
    let change = format!("/campaigns/{id}/forces/f2/roster");
    let body = json!({"roster_id": another});
    // Who may change f2: only its player.
    for (token, status) in [
        (Some(&w.org), 403),
        (Some(&w.congress), 403),
        (Some(&w.outsider), 404),
        (None, 401),
    ] {
        let (got, v) = w
            .api
            .call(
                token.map(String::as_str),
                "PUT",
                &change,
                Some(body.clone()),
            )
            .await;
        assert_eq!(got, status, "{v}");
    }
    // Another player's roster is not theirs to enlist.
    let theirs = roster_of(&w.api, &w.congress, "Not yours", "british").await;
    let (got, _) = w
        .api
        .call(
            Some(&w.crown),
            "PUT",
            &change,
            Some(json!({"roster_id": theirs})),
        )
        .await;
    assert_eq!(got, 422);
    let changed = w.api.ok(&w.crown, "PUT", &change, Some(body)).await;
    let f2 = changed["forces"]
        .as_array()
        .expect("forces")
        .iter()
        .find(|f| f["id"] == "f2")
        .expect("f2 stays");
    assert_eq!(f2["name"], "Grant's Brigade");
    assert_eq!(f2["side"], 0);

    // Withdrawing: only its player.
    let withdraw = format!("/campaigns/{id}/forces/f3/withdraw");
    for (token, status) in [
        (Some(&w.org), 403),
        (Some(&w.crown), 403),
        (Some(&w.outsider), 404),
        (None, 401),
    ] {
        let (got, v) = w
            .api
            .call(token.map(String::as_str), "POST", &withdraw, None)
            .await;
        assert_eq!(got, status, "{v}");
    }
    let after = w.api.ok(&w.congress, "POST", &withdraw, None).await;
    assert!(after["forces"]
        .as_array()
        .expect("forces")
        .iter()
        .all(|f| f["id"] != "f3"));
    assert_eq!(after["my_force"], Value::Null);
    // Still a member: the campaign is still theirs to see, and they may enlist again (a new id).
    let again = roster_of(&w.api, &w.congress, "Sullivan again", "american").await;
    let joined = w
        .api
        .ok(
            &w.congress,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": w.code, "side": 1, "roster_id": again})),
        )
        .await;
    assert_eq!(joined["my_force"], "f4", "f3 is never used again");

    // Removing: the organiser only, with a reason.
    let remove = format!("/campaigns/{id}/forces/f2/remove");
    let reason = json!({"reason": "Two forces from one household"});
    for (token, status) in [
        (Some(&w.crown), 403),
        (Some(&w.congress), 403),
        (Some(&w.outsider), 404),
        (None, 401),
    ] {
        let (got, v) = w
            .api
            .call(
                token.map(String::as_str),
                "POST",
                &remove,
                Some(reason.clone()),
            )
            .await;
        assert_eq!(got, status, "{v}");
    }
    let (got, _) = w
        .api
        .call(Some(&w.org), "POST", &remove, Some(json!({"reason": " "})))
        .await;
    assert_eq!(got, 422, "a reason is needed");
    w.api.ok(&w.org, "POST", &remove, Some(reason)).await;
    let kinds = log_kinds(&w).await;
    for kind in ["force_changed", "force_withdrawn", "force_removed"] {
        assert!(kinds.iter().any(|(k, _)| k == kind), "{kind}: {kinds:?}");
    }
    assert!(kinds
        .iter()
        .any(|(k, t)| k == "force_removed" && t.contains("Two forces from one household")));
    audit_matches(&w).await;

    // After the start nothing of this is allowed, and it says why.
    w.api
        .ok(&w.org, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let (got, v) = w
        .api
        .call(
            Some(&w.congress),
            "POST",
            &format!("/campaigns/{id}/forces/f4/withdraw"),
            None,
        )
        .await;
    assert_eq!(got, 409);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("has started"),
        "{v}"
    );
    let (got, _) = w
        .api
        .call(
            Some(&w.org),
            "POST",
            &format!("/campaigns/{id}/forces/f4/remove"),
            Some(json!({"reason": "late"})),
        )
        .await;
    assert_eq!(got, 409);
}

#[tokio::test]
async fn the_player_s_pages_change_and_withdraw_a_force() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let other = roster_of(&w.api, &w.crown, "Grant's Brigade", "british").await;
    let crown = browser(&app, "crown@example.com").await;
    let show = crown.get_html(&format!("/campaigns/{id}")).await;
    assert!(show.contains(&format!("/campaigns/{id}/forces/f2/enlistment")));
    let page = format!("/campaigns/{id}/forces/f2/enlistment");
    let html = crown.get_html(&page).await;
    assert!(html.contains("s Brigade"), "{html}");
    let other_text = other.to_string();
    let res = crown
        .post_form(
            &page,
            &format!("/campaigns/{id}/forces/f2/change"),
            &[("roster", &other_text)],
        )
        .await;
    assert_eq!(res.status(), 303);
    let show = crown.get_html(&location(&res)).await;
    assert!(show.contains("Your force is changed"), "{show}");
    // Another player cannot open it, nor post to it.
    let congress = browser(&app, "congress@example.com").await;
    assert_eq!(congress.get(&page).await.status(), 403);
    let res = congress
        .post_form(
            &format!("/campaigns/{id}"),
            &format!("/campaigns/{id}/forces/f2/withdraw"),
            &[],
        )
        .await;
    assert_eq!(res.status(), 403);
    // A visitor is sent to log in; the player withdraws.
    let visitor = app.other_visitor();
    let res = visitor.get(&page).await;
    assert!(
        res.status() == 303 || res.status() == 401,
        "{}",
        res.status()
    );
    let res = crown
        .post_form(&page, &format!("/campaigns/{id}/forces/f2/withdraw"), &[])
        .await;
    assert_eq!(res.status(), 303);
    let show = crown.get_html(&location(&res)).await;
    assert!(show.contains("Your force is withdrawn"), "{show}");
    audit_matches(&w).await;
}

#[tokio::test]
async fn the_organiser_edits_the_house_rules_before_the_start_only() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let path = format!("/campaigns/{id}/rules");
    let body = json!({"surrender": false, "experience": false});
    for (token, status) in [(Some(&w.crown), 403), (Some(&w.outsider), 404), (None, 401)] {
        let (got, v) = w
            .api
            .call(token.map(String::as_str), "PUT", &path, Some(body.clone()))
            .await;
        assert_eq!(got, status, "{v}");
    }
    let c = w.api.ok(&w.org, "PUT", &path, Some(body)).await;
    assert_eq!(c["rules"]["surrender"], false);
    assert_eq!(c["rules"]["experience"], false);
    assert_eq!(c["rules"]["route_battles"], true, "one left out is on");
    // The organiser's page: the boxes as they stand; a form that ticks all turns them back on.
    let org = browser(&app, "org@example.com").await;
    let tools = format!("/campaigns/{id}/organiser");
    let html = org.get_html(&tools).await;
    assert!(html.contains("id=\"rules-form\""));
    assert!(!html.contains("name=\"rule_surrender\" checked"));
    let mut fields = vec![("tool", "rules")];
    let names: Vec<String> = [
        "route_battles",
        "persistent_casualties",
        "field_promotion",
        "experience",
        "reinforcements",
        "surrender",
        "place_scoring",
        "fort_assault",
        "scout_bonus",
    ]
    .iter()
    .map(|r| format!("rule_{r}"))
    .collect();
    for n in &names {
        fields.push((n.as_str(), "on"));
    }
    let res = org.post_form(&tools, &tools, &fields).await;
    assert_eq!(res.status(), 303);
    let c = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(c["rules"]["surrender"], true);
    let kinds = log_kinds(&w).await;
    assert!(
        kinds
            .iter()
            .filter(|(k, _)| k == "house_rules_changed")
            .count()
            == 2,
        "{kinds:?}"
    );
    w.api
        .ok(&w.org, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let (got, _) = w
        .api
        .call(
            Some(&w.org),
            "PUT",
            &path,
            Some(json!({"surrender": false})),
        )
        .await;
    assert_eq!(got, 409, "not after the start");
    assert!(!org.get_html(&tools).await.contains("id=\"rules-form\""));
    audit_matches(&w).await;
}

#[tokio::test]
async fn an_archived_campaign_is_hidden_from_lists_and_read_only_until_unarchived() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let archive = format!("/campaigns/{id}/archive");
    for (token, status) in [(Some(&w.crown), 403), (Some(&w.outsider), 404), (None, 401)] {
        let (got, _) = w
            .api
            .call(token.map(String::as_str), "POST", &archive, None)
            .await;
        assert_eq!(got, status);
    }
    let c = w.api.ok(&w.org, "POST", &archive, None).await;
    assert_eq!(c["archived"], true);
    assert_eq!(
        c["attention"].as_array().map(Vec::len),
        Some(0),
        "nothing waits in a read-only campaign"
    );
    // Left out of the lists; asked for, it is there.
    let list = w.api.ok(&w.crown, "GET", "/campaigns", None).await;
    assert_eq!(
        list["campaigns"].as_array().map(Vec::len),
        Some(0),
        "{list}"
    );
    let list = w
        .api
        .ok(&w.crown, "GET", "/campaigns?archived=true", None)
        .await;
    assert_eq!(list["campaigns"][0]["id"], id);
    let crown = browser(&app, "crown@example.com").await;
    assert!(!crown
        .get_html("/campaigns")
        .await
        .contains("Brandywine 1777"));
    assert!(crown
        .get_html("/campaigns?archived=1")
        .await
        .contains("Brandywine 1777"));
    // Still readable by its members, and it says so.
    assert!(crown
        .get_html(&format!("/campaigns/{id}"))
        .await
        .contains("This campaign is archived"));
    // Every action is refused in words.
    let late = roster_of(&w.api, &w.outsider, "Late", "american").await;
    let refused = [
        (&w.org, "POST", format!("/campaigns/{id}/start"), None),
        (
            &w.outsider,
            "POST",
            format!("/campaigns/{id}/join"),
            Some(json!({"code": w.code, "side": 1, "roster_id": late})),
        ),
        (
            &w.crown,
            "POST",
            format!("/campaigns/{id}/forces/f2/withdraw"),
            None,
        ),
        (
            &w.org,
            "PUT",
            format!("/campaigns/{id}/rules"),
            Some(json!({"surrender": false})),
        ),
        (&w.org, "POST", format!("/campaigns/{id}/public"), None),
        (&w.org, "DELETE", format!("/campaigns/{id}"), None),
    ];
    for (token, method, path, body) in refused {
        let (got, v) = w.api.call(Some(token), method, &path, body).await;
        assert_eq!(got, 409, "{method} {path}: {v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("archived"),
            "{method} {path}: {v}"
        );
    }
    // Only the organiser unarchives; then the campaign is open again.
    let unarchive = format!("/campaigns/{id}/unarchive");
    let (got, _) = w.api.call(Some(&w.crown), "POST", &unarchive, None).await;
    assert_eq!(got, 403);
    let org = browser(&app, "org@example.com").await;
    let tools = format!("/campaigns/{id}/organiser");
    assert!(org.get_html(&tools).await.contains("id=\"unarchive-form\""));
    let res = org
        .post_form(&tools, &tools, &[("tool", "unarchive")])
        .await;
    assert_eq!(res.status(), 303);
    let list = w.api.ok(&w.crown, "GET", "/campaigns", None).await;
    assert_eq!(list["campaigns"][0]["id"], id);
    w.api
        .ok(&w.org, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let kinds = log_kinds(&w).await;
    assert!(kinds.iter().any(|(k, _)| k == "archived"));
    assert!(kinds.iter().any(|(k, _)| k == "unarchived"));
    audit_matches(&w).await;
}

#[tokio::test]
async fn a_campaign_is_deleted_only_before_the_start_after_a_confirmation() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let confirm = format!("/campaigns/{id}/delete");
    let org = browser(&app, "org@example.com").await;
    let crown = browser(&app, "crown@example.com").await;
    assert_eq!(crown.get(&confirm).await.status(), 403);
    let res = crown
        .post_form(&format!("/campaigns/{id}"), &confirm, &[])
        .await;
    assert_eq!(res.status(), 403);
    let (got, _) = w
        .api
        .call(
            Some(&w.outsider),
            "DELETE",
            &format!("/campaigns/{id}"),
            None,
        )
        .await;
    assert_eq!(got, 404);
    let (got, _) = w
        .api
        .call(None, "DELETE", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(got, 401);
    // The confirmation step says what goes; the POST deletes.
    let html = org.get_html(&confirm).await;
    assert!(html.contains("cannot be undone") && html.contains("id=\"delete-form\""));
    let res = org.post_form(&confirm, &confirm, &[]).await;
    assert_eq!(res.status(), 303);
    assert_eq!(location(&res), "/campaigns");
    assert_eq!(org.get(&format!("/campaigns/{id}")).await.status(), 404);
    let (got, _) = w
        .api
        .call(Some(&w.crown), "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(got, 404);

    // A campaign that has started is not deleted: the log is the record of what was played.
    let other = world_again(&w).await;
    w.api
        .ok(&w.org, "POST", &format!("/campaigns/{other}/start"), None)
        .await;
    let (got, v) = w
        .api
        .call(Some(&w.org), "DELETE", &format!("/campaigns/{other}"), None)
        .await;
    assert_eq!(got, 409);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("Archive it instead"),
        "{v}"
    );
    let html = org.get_html(&format!("/campaigns/{other}/delete")).await;
    assert!(!html.contains("id=\"delete-form\""));
    assert!(html.contains("cannot be deleted"));
}

/// A second campaign with the same players, one force a side; its id.
async fn world_again(w: &World<'_>) -> i64 {
    let created = w
        .api
        .ok(
            &w.org,
            "POST",
            "/campaigns",
            Some(
                json!({"name": "Germantown 1777", "map": "philadelphia-1777", "points": 200,
                        "turns": 3, "sides": ["", ""]}),
            ),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    let code = created["invite_code"].as_str().expect("code");
    for (token, side, nation) in [(&w.crown, 0, "british"), (&w.congress, 1, "american")] {
        let r = roster_of(&w.api, token, "Second force", nation).await;
        w.api
            .ok(
                token,
                "POST",
                &format!("/campaigns/{id}/join"),
                Some(json!({"code": code, "side": side, "roster_id": r})),
            )
            .await;
    }
    id
}

#[tokio::test]
async fn the_public_page_works_logged_out_shows_no_hidden_orders_and_its_revoked_link_404s() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let on = format!("/campaigns/{id}/public");
    for (token, status) in [(Some(&w.crown), 403), (Some(&w.outsider), 404), (None, 401)] {
        let (got, _) = w
            .api
            .call(token.map(String::as_str), "POST", &on, None)
            .await;
        assert_eq!(got, status);
    }
    let c = w.api.ok(&w.org, "POST", &on, None).await;
    let path = c["public_path"]
        .as_str()
        .expect("a public path")
        .to_string();
    // Only the organiser is told the link.
    let seen = w
        .api
        .ok(&w.crown, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(seen["public_path"], Value::Null);
    w.api
        .ok(&w.org, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    // Congress marches; the order is hidden until the turn closes.
    let map = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    let route = map["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .find(|r| {
            (r["from"] == "philadelphia" && r["to"] == "germantown")
                || (r["to"] == "philadelphia" && r["from"] == "germantown")
        })
        .and_then(|r| r["id"].as_str())
        .expect("a route")
        .to_string();
    w.api
        .ok(
            &w.congress,
            "POST",
            &format!("/campaigns/{id}/orders"),
            Some(json!({"force": "f3", "order": {"order": "move", "route": route}})),
        )
        .await;

    // Logged out: the page, its standings and map; nothing of the order.
    let visitor = app.other_visitor();
    let res = visitor.get(&path).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.expect("page");
    assert!(html.contains("Brandywine 1777"));
    assert!(html.contains("Standings") && html.contains("Crown Forces"));
    assert!(html.contains("Finished battles"));
    assert!(!html.contains("ordered to"), "no order in words");
    assert!(!html.contains("March to Germantown"), "no march chosen");
    assert!(
        !html.contains("orders in"),
        "not even how many orders are in"
    );
    assert!(
        !html.contains("/campaigns/"),
        "no links into the members' pages"
    );
    let (got, public) = w
        .api
        .call(
            None,
            "GET",
            &format!("/public/campaigns/{}", token_of(&path)),
            None,
        )
        .await;
    assert_eq!(got, 200, "{public}");
    assert_eq!(public["name"], "Brandywine 1777");
    assert!(public.get("orders").is_none());
    let text = public.to_string();
    assert!(
        !text.contains("\"order\":") && !text.contains("\"route\":"),
        "{public}"
    );
    assert!(!public.to_string().contains("\"roster\""), "{public}");

    // Revoked: the old link is gone for good; a new one is different.
    let (got, _) = w.api.call(Some(&w.crown), "DELETE", &on, None).await;
    assert_eq!(got, 403);
    w.api.ok(&w.org, "DELETE", &on, None).await;
    assert_eq!(visitor.get(&path).await.status(), 404);
    let (got, _) = w
        .api
        .call(
            None,
            "GET",
            &format!("/public/campaigns/{}", token_of(&path)),
            None,
        )
        .await;
    assert_eq!(got, 404);
    let org = browser(&app, "org@example.com").await;
    let tools = format!("/campaigns/{id}/organiser");
    let res = org
        .post_form(&tools, &tools, &[("tool", "public_on")])
        .await;
    assert_eq!(res.status(), 303);
    let html = org.get_html(&tools).await;
    assert!(html.contains("id=\"public-link\""));
    assert!(!html.contains(&path), "a fresh link");
    assert_eq!(visitor.get(&path).await.status(), 404);
    assert_eq!(
        visitor
            .get("/public/campaigns/not-a-real-token-at-all")
            .await
            .status(),
        404
    );
    let kinds = log_kinds(&w).await;
    assert_eq!(
        kinds.iter().filter(|(k, _)| k == "public_page_on").count(),
        2
    );
    assert!(kinds.iter().any(|(k, _)| k == "public_page_off"));
    audit_matches(&w).await;
}

fn token_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or("")
}

#[tokio::test]
async fn only_the_organiser_names_promoted_officers_and_only_promoted_ones() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let officers = w
        .api
        .ok(&w.crown, "GET", &format!("/campaigns/{id}/officers"), None)
        .await;
    assert_eq!(officers["officers"].as_array().map(Vec::len), Some(0));
    let (got, _) = w
        .api
        .call(
            Some(&w.outsider),
            "GET",
            &format!("/campaigns/{id}/officers"),
            None,
        )
        .await;
    assert_eq!(got, 404);
    let force = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{id}/forces/f3"), None)
        .await;
    let commander = force["ratings"]
        .as_object()
        .and_then(|r| r.keys().next().cloned())
        .expect("a commander");
    let path = format!("/campaigns/{id}/forces/f3/commanders/{commander}/name");
    let body = json!({"name": "Major Lee"});
    for (token, status) in [
        (Some(&w.crown), 403),
        (Some(&w.congress), 403),
        (Some(&w.outsider), 404),
        (None, 401),
    ] {
        let (got, _) = w
            .api
            .call(token.map(String::as_str), "PUT", &path, Some(body.clone()))
            .await;
        assert_eq!(got, status);
    }
    // Nobody here came by field promotion, so there is no one to name.
    let (got, _) = w.api.call(Some(&w.org), "PUT", &path, Some(body)).await;
    assert_eq!(got, 404);
}

#[tokio::test]
async fn a_refused_removal_keeps_what_the_organiser_typed() {
    let app = spawn_app().await;
    let w = world(&app).await;
    let id = w.id;
    let org = browser(&app, "org@example.com").await;
    let tools = format!("/campaigns/{id}/organiser");
    let long = format!("Sent a roster of another war {}", "and more ".repeat(60));
    let res = org
        .post_form(
            &tools,
            &tools,
            &[("tool", "remove"), ("target", "f3"), ("reason", &long)],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.expect("page");
    assert!(html.contains("1 to 500 characters"), "{html}");
    assert!(html.contains(long.trim()), "the reason is kept");
    assert!(
        html.contains("<option value=\"f3\" selected>"),
        "the force is kept"
    );
    // Nothing was removed.
    let c = w
        .api
        .ok(&w.org, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(c["forces"].as_array().map(Vec::len), Some(3));
}
