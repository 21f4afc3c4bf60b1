//! Club night (issue 19 items 1 and 2): a battle against a club-mate whose side is left open
//! for them to attach their own roster; the engine deciding a battle between two players only
//! with both players' consent (the organiser of a campaign alone, with a reason in the log);
//! and a shared roster copied into a logged-in player's rosters. Over HTTP, pages and API.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp, Visitor, PASSWORD};

fn lotf_roster(name: &str, nation: &str) -> Value {
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

fn lod_roster(name: &str) -> Value {
    let mut doc: Value = serde_json::from_str(include_str!(
        "../../src/rules/systems/lod/data/examples/british.json"
    ))
    .expect("the example roster");
    doc["name"] = json!(name);
    doc
}

/// A player logged in on the pages, with an API token.
struct Player {
    pages: Visitor,
    token: String,
    email: String,
}

async fn player(app: &TestApp, email: &str, name: &str) -> Player {
    let pages = app.other_visitor();
    let res = pages.register(email, name, PASSWORD).await;
    assert_eq!(res.status(), 303, "register {email}");
    let token = pages.api_token(email, PASSWORD).await;
    Player {
        pages,
        token,
        email: email.into(),
    }
}

impl Player {
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .pages
            .client
            .request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                self.pages.url(&format!("/api/v1{path}")),
            )
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.call(method, path, body).await;
        assert!(
            status < 300,
            "{method} {path} as {}: {status} {v}",
            self.email
        );
        v
    }

    async fn roster(&self, doc: Value) -> i64 {
        self.ok("POST", "/rosters", Some(doc)).await["id"]
            .as_i64()
            .expect("a roster id")
    }

    async fn battle(&self, id: i64) -> Value {
        self.ok("GET", &format!("/battles/{id}"), None).await
    }

    /// Posts a form of the battle page (its CSRF token from the battle list).
    async fn post_page(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        self.pages.post_form("/battles", path, fields).await
    }
}

fn version(b: &Value) -> i64 {
    b["version"].as_i64().expect("a version")
}

fn message(v: &Value) -> String {
    v.to_string()
}

#[tokio::test]
async fn an_open_side_waits_for_the_opponents_own_roster() {
    let app = spawn_app().await;
    let alice = player(&app, "alice@example.org", "Alice Ames").await;
    let bob = player(&app, "bob@example.org", "Bob Brant").await;
    let carol = player(&app, "carol@example.org", "Carol Cole").await;
    let mine = alice.roster(lotf_roster("Crown Column", "british")).await;
    let theirs = bob.roster(lotf_roster("Rebel Line", "american")).await;
    let bobs_lod = bob.roster(lod_roster("Bob's Redcoats")).await;
    let alices_other = alice.roster(lotf_roster("Alice Reserve", "british")).await;

    // Refusals at set-up, in words: an open side needs a club-mate by e-mail.
    let (status, body) = alice
        .call(
            "POST",
            "/battles",
            Some(json!({"first": format!("r:{mine}"), "second": "open", "second_player": "Guest Gus"})),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(message(&body).contains("Muster e-mail address"), "{body}");
    let (status, body) = alice
        .call(
            "POST",
            "/battles",
            Some(json!({"first": "open", "second": "open", "second_player": "bob@example.org"})),
        )
        .await;
    assert_eq!(status, 422, "{body}");

    // Set up with Bob's side open.
    let set_up = alice
        .ok(
            "POST",
            "/battles",
            Some(json!({"first": format!("r:{mine}"), "second": "open",
                        "second_player": "bob@example.org", "scenario": "take_the_field"})),
        )
        .await;
    let id = set_up["id"].as_i64().expect("battle id");
    assert_eq!(set_up["open_side"]["waiting"], true, "{set_up}");
    assert_eq!(set_up["open_side"]["for_you"], false);
    assert_eq!(set_up["invitation"]["state"], "pending");
    assert_eq!(
        set_up["rolls"],
        json!([]),
        "nothing is rolled before the roster comes"
    );

    // Bob sees it waiting for him in his inbox, on his home page and his battle list.
    let inbox = bob.ok("GET", "/notifications", None).await;
    assert!(
        inbox["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|n| n["kind"] == "roster_to_attach"
                && n["link"] == format!("/battles/{id}")
                && n["title"].as_str().unwrap_or("").contains("Alice Ames")),
        "{inbox}"
    );
    let home = bob.pages.get_html("/").await;
    assert!(home.contains("asks you to bring your own roster"), "{home}");
    let list = bob.pages.get_html("/battles").await;
    assert!(list.contains("Attach a roster"), "{list}");
    assert!(
        list.contains("Open side: waiting for your roster"),
        "{list}"
    );
    let list = alice.pages.get_html("/battles").await;
    assert!(
        list.contains("Open side: waiting for the other player&#39;s roster"),
        "{list}"
    );
    let page = bob.pages.get_html(&format!("/battles/{id}")).await;
    assert!(
        page.contains("Attach this roster") && page.contains("Rebel Line"),
        "{page}"
    );
    assert!(
        !page.contains("Bob&#x27;s Redcoats") && !page.contains("Bob's Redcoats"),
        "only rosters of the battle's rule system are offered: {page}"
    );
    assert_eq!(bob.battle(id).await["open_side"]["for_you"], true);

    // Nothing can be fought, recorded or accepted while the side is open.
    let v = version(&set_up);
    let (status, body) = alice
        .call(
            "POST",
            &format!("/battles/{id}/simulate"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let (status, _) = alice
        .call(
            "POST",
            &format!("/battles/{id}/engine/ask"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 409);
    let (status, _) = alice
        .call("GET", &format!("/battles/{id}/setup"), None)
        .await;
    assert_eq!(status, 409);
    let (status, body) = bob
        .call(
            "POST",
            &format!("/battles/{id}/accept"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(
        message(&body).contains("attach one of your own rosters"),
        "{body}"
    );
    let record = alice.pages.get(&format!("/battles/{id}/record")).await;
    assert_eq!(record.status(), 303, "the record form waits for the roster");

    // Who may attach: only the invited player, with a roster of their own of the same system.
    let attach = |roster: i64| json!({"version": v, "roster": format!("r:{roster}")});
    let (status, _) = carol
        .call(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(attach(theirs)),
        )
        .await;
    assert_eq!(status, 404, "another player does not see the battle");
    let (status, body) = alice
        .call(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(attach(alices_other)),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    let visitor = app.other_visitor();
    let res = visitor
        .client
        .post(visitor.url(&format!("/api/v1/battles/{id}/attach")))
        .json(&attach(theirs))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let (status, body) = bob
        .call(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(attach(alices_other)),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(message(&body).contains("not one of yours"), "{body}");
    let (status, body) = bob
        .call(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(attach(bobs_lod)),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(message(&body).contains("Liberty or Death!"), "{body}");
    // The page keeps the refused choice and says why.
    let res = bob
        .post_page(
            &format!("/battles/{id}/attach"),
            &[
                ("version", &v.to_string()),
                ("roster", &format!("r:{bobs_lod}")),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("Liberty or Death!"), "{html}");

    // Bob attaches his own roster: snapshotted and set up, commanders rolled.
    let attached = bob
        .ok(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(attach(theirs)),
        )
        .await;
    assert_eq!(attached["open_side"]["waiting"], false, "{attached}");
    assert_eq!(attached["invitation"]["state"], "accepted");
    assert!(
        !attached["rolls"].as_array().unwrap().is_empty(),
        "{attached}"
    );
    let title = attached["title"].as_str().unwrap();
    assert!(
        title.contains("Crown Column") && title.contains("Rebel Line"),
        "{title}"
    );
    let setup = bob.ok("GET", &format!("/battles/{id}/setup"), None).await;
    let names = [
        &setup["attacker"]["roster"]["name"],
        &setup["defender"]["roster"]["name"],
    ];
    assert!(names.contains(&&json!("Rebel Line")), "{names:?}");
    // A snapshot: a later change to Bob's roster does not reach the battle.
    let renamed = json!({"version": 1, "document": lotf_roster("Rebel Line renamed", "american")});
    let (status, _) = bob
        .call("PUT", &format!("/rosters/{theirs}"), Some(renamed))
        .await;
    assert!(status < 300, "the roster is renamed ({status})");
    let setup = bob.ok("GET", &format!("/battles/{id}/setup"), None).await;
    assert!(!setup.to_string().contains("Rebel Line renamed"));

    // Attaching again is refused; Alice cannot withdraw Bob's roster; Bob can.
    let (status, _) = bob
        .call(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(json!({"version": version(&attached), "roster": theirs.to_string()})),
        )
        .await;
    assert_eq!(status, 409);
    let (status, _) = alice
        .call(
            "POST",
            &format!("/battles/{id}/withdraw-roster"),
            Some(json!({"version": version(&attached)})),
        )
        .await;
    assert_eq!(status, 403);
    let reopened = bob
        .ok(
            "POST",
            &format!("/battles/{id}/withdraw-roster"),
            Some(json!({"version": version(&attached)})),
        )
        .await;
    assert_eq!(reopened["open_side"]["waiting"], true, "{reopened}");
    assert_eq!(reopened["rolls"], json!([]));

    // Attached again from the page form, then the battle is playable.
    let res = bob
        .post_page(
            &format!("/battles/{id}/attach"),
            &[
                ("version", &version(&reopened).to_string()),
                ("roster", &format!("r:{theirs}")),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = alice.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Ask for Muster to fight it"), "{page}");

    // Alice, who set it up, withdraws the whole battle before it is fought.
    let (status, _) = bob.call("DELETE", &format!("/battles/{id}"), None).await;
    assert_eq!(
        status, 403,
        "the opponent withdraws their roster, not the battle"
    );
    let (status, _) = alice.call("DELETE", &format!("/battles/{id}"), None).await;
    assert_eq!(status, 204);
    let (status, _) = bob.call("GET", &format!("/battles/{id}"), None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_engine_decides_a_two_player_battle_only_when_both_agree() {
    let app = spawn_app().await;
    let alice = player(&app, "alice@example.org", "Alice Ames").await;
    let bob = player(&app, "bob@example.org", "Bob Brant").await;
    let carol = player(&app, "carol@example.org", "Carol Cole").await;
    let a = alice.roster(lotf_roster("Crown Column", "british")).await;
    let b = alice.roster(lotf_roster("Rebel Line", "american")).await;
    let set_up = alice
        .ok(
            "POST",
            "/battles",
            Some(
                json!({"first": format!("r:{a}"), "second": format!("r:{b}"),
                        "second_player": "bob@example.org", "scenario": "take_the_field"}),
            ),
        )
        .await;
    let id = set_up["id"].as_i64().unwrap();
    let accepted = bob
        .ok(
            "POST",
            &format!("/battles/{id}/accept"),
            Some(json!({"version": version(&set_up)})),
        )
        .await;
    let v = version(&accepted);

    // One click no longer decides it.
    let (status, body) = alice
        .call(
            "POST",
            &format!("/battles/{id}/simulate"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(message(&body).contains("both agree"), "{body}");
    let res = alice
        .post_page(
            &format!("/battles/{id}/simulate"),
            &[("version", &v.to_string())],
        )
        .await;
    assert_eq!(res.status(), 409);
    assert_eq!(alice.battle(id).await["status"], "set_up");

    // Others may not ask.
    let (status, _) = carol
        .call(
            "POST",
            &format!("/battles/{id}/engine/ask"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 404);
    let visitor = app.other_visitor();
    let res = visitor
        .client
        .post(visitor.url(&format!("/api/v1/battles/{id}/engine/ask")))
        .json(&json!({"version": v}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let res = visitor
        .client
        .post(visitor.url(&format!("/battles/{id}/engine/ask")))
        .form(&[("version", "1")])
        .send()
        .await
        .unwrap();
    assert!(
        res.status() == 303 || res.status() == 403,
        "{}",
        res.status()
    );

    // Alice asks on the page; she cannot answer her own request.
    let res = alice
        .post_page(
            &format!("/battles/{id}/engine/ask"),
            &[("version", &v.to_string())],
        )
        .await;
    assert_eq!(res.status(), 303);
    let asked = alice.battle(id).await;
    assert_eq!(asked["engine_request"]["by_you"], true, "{asked}");
    assert_eq!(asked["status"], "set_up");
    let (status, _) = alice
        .call(
            "POST",
            &format!("/battles/{id}/engine/accept"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = alice
        .call(
            "POST",
            &format!("/battles/{id}/engine/ask"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert_eq!(status, 409, "asked already");
    let page = alice.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Withdraw my request"), "{page}");

    // Bob sees it waiting for him (his inbox too), and declines; Alice is told.
    let inbox = bob.ok("GET", "/notifications", None).await;
    assert!(
        inbox["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|n| n["kind"] == "engine_requested"
                && n["link"] == format!("/battles/{id}")
                && n["title"]
                    .as_str()
                    .unwrap_or("")
                    .contains("accept or decline")),
        "{inbox}"
    );
    assert!(bob
        .pages
        .get_html("/")
        .await
        .contains("asks for the engine to fight a battle"));
    let list = bob.pages.get_html("/battles").await;
    assert!(list.contains("The engine asked for"), "{list}");
    assert_eq!(bob.battle(id).await["engine_request"]["by_you"], false);
    let (status, _) = bob
        .call(
            "POST",
            &format!("/battles/{id}/engine/withdraw"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert_eq!(status, 403, "only the asker withdraws");
    let declined = bob
        .ok(
            "POST",
            &format!("/battles/{id}/engine/decline"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert!(declined["engine_request"].is_null(), "{declined}");
    assert_eq!(declined["status"], "set_up");
    let inbox = alice.ok("GET", "/notifications", None).await;
    assert!(
        inbox["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|n| n["title"]
                .as_str()
                .unwrap_or("")
                .contains("declined to let Muster fight")),
        "{inbox}"
    );

    // Asked and withdrawn.
    let asked = alice
        .ok(
            "POST",
            &format!("/battles/{id}/engine/ask"),
            Some(json!({"version": version(&declined)})),
        )
        .await;
    let withdrawn = alice
        .ok(
            "POST",
            &format!("/battles/{id}/engine/withdraw"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert!(withdrawn["engine_request"].is_null());
    // A stale answer is refused.
    let (status, _) = bob
        .call(
            "POST",
            &format!("/battles/{id}/engine/accept"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert_eq!(status, 409);

    // Asked once more, and Bob accepts from his list: the engine fights it.
    let asked = alice
        .ok(
            "POST",
            &format!("/battles/{id}/engine/ask"),
            Some(json!({"version": version(&withdrawn)})),
        )
        .await;
    let res = bob
        .post_page(
            &format!("/battles/{id}/engine/accept"),
            &[("version", &version(&asked).to_string())],
        )
        .await;
    assert_eq!(res.status(), 303);
    let fought = bob.battle(id).await;
    assert_eq!(fought["status"], "confirmed", "{fought}");
    assert_eq!(fought["method"], "simulated");
    assert!(fought["engine_request"].is_null());
    assert!(!bob
        .pages
        .get_html("/")
        .await
        .contains("asks for the engine"));
}

#[tokio::test]
async fn against_a_guest_the_engine_still_fights_at_once() {
    let app = spawn_app().await;
    let alice = player(&app, "alice@example.org", "Alice Ames").await;
    let a = alice.roster(lotf_roster("Crown Column", "british")).await;
    let b = alice.roster(lotf_roster("Rebel Line", "american")).await;
    for route in ["simulate", "engine/ask"] {
        let set_up = alice
            .ok(
                "POST",
                "/battles",
                Some(
                    json!({"first": format!("r:{a}"), "second": format!("r:{b}"),
                            "second_player": "Guest Gus", "scenario": "take_the_field"}),
                ),
            )
            .await;
        let id = set_up["id"].as_i64().unwrap();
        let fought = alice
            .ok(
                "POST",
                &format!("/battles/{id}/{route}"),
                Some(json!({"version": version(&set_up)})),
            )
            .await;
        assert_eq!(fought["status"], "confirmed", "{route}: {fought}");
    }
}

#[tokio::test]
async fn a_shared_roster_is_copied_to_a_logged_in_players_rosters() {
    let app = spawn_app().await;
    let alice = player(&app, "alice@example.org", "Alice Ames").await;
    let bob = player(&app, "bob@example.org", "Bob Brant").await;
    let id = alice.roster(lotf_roster("Crown Column", "british")).await;
    let res = alice
        .pages
        .post_form(
            &format!("/rosters/{id}"),
            &format!("/rosters/{id}/share"),
            &[],
        )
        .await;
    assert_eq!(res.status(), 303);
    let page = alice.pages.get_html(&format!("/rosters/{id}")).await;
    let start = page.find("/shared/").expect("a share link");
    let token: String = page[start + 8..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let shared = format!("/shared/{token}");

    // The owner and a visitor are not offered it; a logged-in player is.
    assert!(!alice
        .pages
        .get_html(&shared)
        .await
        .contains("Copy to my rosters"));
    let visitor = app.other_visitor();
    let html = visitor.get_html(&shared).await;
    assert!(!html.contains("Copy to my rosters") && html.contains("to copy this roster"));
    let html = bob.pages.get_html(&shared).await;
    assert!(html.contains("Copy to my rosters"), "{html}");

    // Without a login, or with a bad CSRF token, nothing is copied.
    let res = visitor
        .client
        .post(visitor.url(&format!("{shared}/copy")))
        .form(&[("csrf_token", "x")])
        .send()
        .await
        .unwrap();
    assert!(
        res.status().is_redirection() || res.status() == 403,
        "{}",
        res.status()
    );
    let res = bob
        .pages
        .client
        .post(bob.pages.url(&format!("{shared}/copy")))
        .form(&[("csrf_token", "forged")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        bob.ok("GET", "/rosters", None)
            .await
            .as_array()
            .map(Vec::len),
        Some(0)
    );

    // The owner is told to duplicate instead.
    let res = alice
        .pages
        .post_form(&shared, &format!("{shared}/copy"), &[])
        .await;
    assert_eq!(res.status(), 409);

    // Bob copies it and lands on his copy.
    let res = bob
        .pages
        .post_form(&shared, &format!("{shared}/copy"), &[])
        .await;
    assert_eq!(res.status(), 303);
    let to = crate::helpers::location(&res);
    assert!(
        to.starts_with("/rosters/") && to.contains("done=copied"),
        "{to}"
    );
    let html = bob.pages.get_html(&to).await;
    assert!(
        html.contains("Crown Column (copy)") && html.contains("now one of yours"),
        "{html}"
    );
    let mine = bob.ok("GET", "/rosters", None).await;
    assert_eq!(mine.as_array().map(Vec::len), Some(1), "{mine}");
    // Alice's roster is untouched and still hers alone.
    assert_eq!(
        alice
            .ok("GET", "/rosters", None)
            .await
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}

/// The route between two places on a campaign's map.
fn route_between(map: &Value, a: &str, b: &str) -> String {
    map["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .find(|r| (r["from"] == a && r["to"] == b) || (r["from"] == b && r["to"] == a))
        .map(|r| r["id"].as_str().expect("id").to_string())
        .unwrap_or_else(|| panic!("no route {a}–{b}"))
}

#[tokio::test]
async fn a_campaign_battle_needs_both_players_or_the_organisers_reason() {
    let app = spawn_app().await;
    let organiser = player(&app, "organiser@example.org", "Olive Organiser").await;
    let howe = player(&app, "howe@example.org", "William Howe").await;
    let washington = player(&app, "washington@example.org", "George Washington").await;
    let carol = player(&app, "carol@example.org", "Carol Cole").await;
    let created = organiser
        .ok(
            "POST",
            "/campaigns",
            Some(
                json!({"name": "Club night 1777", "map": "philadelphia-1777", "points": 200,
                        "turns": 3, "sides": ["", ""]}),
            ),
        )
        .await;
    let id = created["id"].as_i64().unwrap();
    let code = created["invite_code"].as_str().unwrap().to_string();
    for (i, (p, nation)) in [(&howe, "british"), (&washington, "american")]
        .into_iter()
        .enumerate()
    {
        let r = p
            .roster(lotf_roster(&format!("Force {}", i + 1), nation))
            .await;
        p.ok(
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": i, "roster_id": r})),
        )
        .await;
    }
    let map = organiser
        .ok("GET", &format!("/campaigns/{id}/map"), None)
        .await;
    organiser
        .ok("POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let order = |from: &str, to: &str| json!({"order": {"order": "move", "route": route_between(&map, from, to)}});
    for (f, (a, b)) in [
        ("f1", ("head_of_elk", "iron_hill")),
        ("f2", ("philadelphia", "chadds_ford")),
    ] {
        let mut body = order(a, b);
        body["force"] = json!(f);
        let who = if f == "f1" { &howe } else { &washington };
        who.ok("POST", &format!("/campaigns/{id}/orders"), Some(body))
            .await;
    }
    // With every order in, the turn closes by itself.
    for (f, (a, b)) in [
        ("f1", ("iron_hill", "kennett")),
        ("f2", ("chadds_ford", "kennett")),
    ] {
        let mut body = order(a, b);
        body["force"] = json!(f);
        let who = if f == "f1" { &howe } else { &washington };
        who.ok("POST", &format!("/campaigns/{id}/orders"), Some(body))
            .await;
    }
    let state = organiser.ok("GET", &format!("/campaigns/{id}"), None).await;
    let record = state["battles"][0]["record"].as_i64().expect("a battle");
    let battle = howe.battle(record).await;
    let v = version(&battle);

    // One player alone cannot have the engine decide it; others cannot ask.
    let (status, _) = howe
        .call(
            "POST",
            &format!("/battles/{record}/simulate"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 409);
    let (status, _) = carol
        .call(
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": v})),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = organiser
        .call(
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": v})),
        )
        .await;
    assert!(
        status == 403 || status == 404,
        "the organiser is no player: {status}"
    );

    // Asked, declined, asked again and accepted: each step is in the campaign's log.
    let asked = howe
        .ok(
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": v})),
        )
        .await;
    let declined = washington
        .ok(
            "POST",
            &format!("/battles/{record}/engine/decline"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    let asked = howe
        .ok(
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": version(&declined)})),
        )
        .await;
    let fought = washington
        .ok(
            "POST",
            &format!("/battles/{record}/engine/accept"),
            Some(json!({"version": version(&asked)})),
        )
        .await;
    assert_eq!(fought["status"], "confirmed");
    let log = organiser
        .ok("GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let texts: Vec<String> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{}: {}", e["kind"], e["text"]))
        .collect();
    let consent: Vec<&String> = texts
        .iter()
        .filter(|t| t.contains("engine_consent"))
        .collect();
    assert_eq!(consent.len(), 4, "{texts:#?}");
    assert!(
        consent
            .iter()
            .any(|t| t.contains("William Howe asked for the engine to fight battle 1")),
        "{texts:#?}"
    );
    assert!(
        consent
            .iter()
            .any(|t| t.contains("George Washington declined")),
        "{texts:#?}"
    );
    assert!(
        consent
            .iter()
            .any(|t| t.contains("George Washington accepted")),
        "{texts:#?}"
    );
    // The aftermath came with the battle (the turn moved on, or a side was destroyed and the
    // campaign ended).
    let state = organiser.ok("GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(state["battles"][0]["status"], "resolved", "{state}");
    assert!(
        state["turn"] == 3 || !state["ended"].is_null(),
        "the aftermath came with the battle: {state}"
    );

    // Voided, the organiser decides alone: a reason and a confirmation are required.
    let state = organiser
        .ok(
            "POST",
            &format!("/campaigns/{id}/battles/1/void"),
            Some(json!({"reason": "Wrong forces"})),
        )
        .await;
    assert_eq!(state["battles"][0]["status"], "pending");
    let (status, _) = howe
        .call(
            "POST",
            &format!("/campaigns/{id}/battles/1/simulate"),
            Some(json!({"reason": "mine"})),
        )
        .await;
    assert_eq!(status, 403, "a player may not decide alone");
    let (status, body) = organiser
        .call(
            "POST",
            &format!("/campaigns/{id}/battles/1/simulate"),
            Some(json!({"reason": " "})),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let tools = format!("/campaigns/{id}/organiser");
    let res = organiser
        .pages
        .post_form(
            &tools,
            &tools,
            &[
                ("tool", "simulate"),
                ("battle", "1"),
                ("reason", "Howe is away"),
            ],
        )
        .await;
    assert!(res.status().is_client_error(), "{}", res.status());
    let html = res.text().await.unwrap();
    assert!(html.contains("tick the box to confirm"), "{html}");
    assert_eq!(
        organiser.ok("GET", &format!("/campaigns/{id}"), None).await["battles"][0]["status"],
        "pending"
    );
    let res = organiser
        .pages
        .post_form(
            &tools,
            &tools,
            &[
                ("tool", "simulate"),
                ("battle", "1"),
                ("reason", "Howe is away"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let log = organiser
        .ok("GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let ordered: Vec<&Value> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "engine_ordered")
        .collect();
    assert_eq!(ordered.len(), 1, "{log}");
    assert!(
        ordered[0]["text"]
            .as_str()
            .unwrap()
            .contains("Reason: Howe is away"),
        "{log}"
    );
    let state = organiser.ok("GET", &format!("/campaigns/{id}"), None).await;
    assert_eq!(state["battles"][0]["status"], "resolved", "{state}");
}

#[tokio::test]
async fn an_open_side_for_an_address_without_an_account_waits_for_its_registration() {
    let app = spawn_app().await;
    let alice = player(&app, "alice@example.org", "Alice Ames").await;
    let mine = alice.roster(lotf_roster("Crown Column", "british")).await;
    let set_up = alice
        .ok(
            "POST",
            "/battles",
            Some(json!({"first": "open", "second": format!("r:{mine}"),
                        "first_player": "dora@example.org", "roll_roles": true})),
        )
        .await;
    let id = set_up["id"].as_i64().unwrap();
    assert_eq!(set_up["invitation"]["side"], "attacker", "{set_up}");
    assert_eq!(set_up["open_side"]["waiting"], true);

    // Dora registers with that address: the open side waits for her roster.
    let dora = player(&app, "dora@example.org", "Dora Dane").await;
    let theirs = dora.roster(lotf_roster("Rebel Line", "american")).await;
    let seen = dora.battle(id).await;
    assert_eq!(seen["open_side"]["for_you"], true, "{seen}");
    let attached = dora
        .ok(
            "POST",
            &format!("/battles/{id}/attach"),
            Some(json!({"version": version(&seen), "roster": theirs.to_string()})),
        )
        .await;
    assert_eq!(attached["open_side"]["waiting"], false, "{attached}");
    // The roles were rolled when the roster came: whichever side Dora plays, she is named.
    let page = alice.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Dora Dane"), "{page}");
}
