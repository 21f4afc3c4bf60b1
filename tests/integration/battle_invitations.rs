//! A battle set up against an e-mail address is an invitation (issue 15 item 4): the inviter
//! sees the same for an address with an account and one without, the invited player accepts or
//! declines, and nothing is fought before they accept.

use diesel::prelude::*;
use serde_json::{json, Value};

use crate::helpers::{client, location, spawn_app, TestApp, Visitor, PASSWORD};

fn roster_document(name: &str) -> Value {
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution", "nation": "british",
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

/// A player with a display name, logged in on the pages and holding an API token.
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
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn roster(&self, name: &str) -> i64 {
        let (status, body) = self
            .call("POST", "/api/v1/rosters", Some(roster_document(name)))
            .await;
        assert_eq!(status, 201, "{body}");
        body["id"].as_i64().expect("an id")
    }

    /// Sets up a battle of two of this player's rosters against `opponent` over the API.
    async fn battle_against(&self, rosters: (i64, i64), opponent: &str) -> (u16, Value) {
        self.call(
            "POST",
            "/api/v1/battles",
            Some(
                json!({"first": format!("r:{}", rosters.0), "second": format!("r:{}", rosters.1),
                        "second_player": opponent, "scenario": "take_the_field"}),
            ),
        )
        .await
    }

    async fn battle(&self, id: i64) -> (u16, Value) {
        self.call("GET", &format!("/api/v1/battles/{id}"), None)
            .await
    }

    /// Posts one of the battle page's forms (its CSRF token from the battle page, or from the
    /// list when the battle is not this player's).
    async fn post_on_page(&self, id: i64, action: &str, version: i64) -> reqwest::Response {
        self.pages
            .post_form(
                "/battles",
                &format!("/battles/{id}/{action}"),
                &[("version", &version.to_string())],
            )
            .await
    }
}

/// A lotf report with every element fit: a valid result to record.
async fn report(who: &Player, id: i64) -> Value {
    let (status, setup) = who
        .call("GET", &format!("/api/v1/battles/{id}/setup"), None)
        .await;
    assert_eq!(status, 200);
    let mut elements = Vec::new();
    for side in ["attacker", "defender"] {
        for g in setup[side]["roster"]["groups"].as_array().unwrap() {
            for e in g["elements"].as_array().unwrap() {
                elements.push(json!({"side": side, "id": e["id"], "state": "fit", "hits": 0}));
            }
        }
    }
    json!({"turns_played": 6, "elements": elements})
}

/// The battle page with the battle's own id (and the session's token) taken out.
fn without_ids(html: &str, id: i64) -> String {
    html.replace(&format!("/battles/{id}"), "/battles/ID")
}

#[tokio::test]
async fn an_address_with_an_account_and_one_without_look_the_same_to_the_inviter() {
    let app = spawn_app().await;
    let setter = player(&app, "setter@example.org", "Major Ferguson").await;
    player(&app, "nora@example.org", "Colonel Tarleton").await;
    let rosters = (setter.roster("Red").await, setter.roster("Blue").await);

    // The API's answers: the same apart from the id and the dice.
    let (known_status, mut known) = setter.battle_against(rosters, "nora@example.org").await;
    let (unknown_status, mut unknown) = setter.battle_against(rosters, "nobody@example.org").await;
    assert_eq!((known_status, unknown_status), (201, 201));
    let (known_id, unknown_id) = (
        known["id"].as_i64().unwrap(),
        unknown["id"].as_i64().unwrap(),
    );
    assert_eq!(known["invitation"]["state"], "pending", "{known}");
    for answer in [&mut known, &mut unknown] {
        let object = answer.as_object_mut().unwrap();
        object.remove("id");
        object.remove("rolls");
    }
    assert_eq!(known, unknown, "set-up answers differ");

    // The dice of set-up differ from battle to battle; give both the same, so that only what
    // depends on the address could still tell them apart.
    {
        use muster::store::schema::battles;
        let pool = app.pool();
        let mut conn = pool.get().expect("conn");
        let row = muster::store::battles::find(&mut conn, known_id)
            .unwrap()
            .unwrap();
        diesel::update(battles::table.find(unknown_id))
            .set((battles::setup.eq(&row.setup), battles::rolls.eq(&row.rolls)))
            .execute(&mut *conn)
            .unwrap();
    }
    let (_, mut known) = setter.battle(known_id).await;
    let (_, mut unknown) = setter.battle(unknown_id).await;
    known.as_object_mut().unwrap().remove("id");
    unknown.as_object_mut().unwrap().remove("id");
    assert_eq!(known, unknown, "the battles read differently over the API");

    let known_page = setter.pages.get_html(&format!("/battles/{known_id}")).await;
    let unknown_page = setter
        .pages
        .get_html(&format!("/battles/{unknown_id}"))
        .await;
    assert!(
        known_page.contains("invited: n…@example.org"),
        "{known_page}"
    );
    assert!(
        known_page.contains("waiting for the other player to accept"),
        "{known_page}"
    );
    assert!(!known_page.contains("Colonel Tarleton"), "the name shows");
    assert!(!known_page.contains("nora"), "the address shows");
    assert!(
        !known_page.contains("Let Muster fight it"),
        "offered to fight"
    );
    assert_eq!(
        without_ids(&known_page, known_id),
        without_ids(&unknown_page, unknown_id),
        "the battle pages differ"
    );

    // The page's set-up form answers alike too.
    let mut answers = Vec::new();
    for opponent in ["nora@example.org", "nobody@example.org"] {
        let res = setter
            .pages
            .post_form(
                "/battles",
                "/battles",
                &[
                    ("first", &format!("r:{}", rosters.0)),
                    ("second", &format!("r:{}", rosters.1)),
                    ("first_player", ""),
                    ("second_player", opponent),
                    ("scenario", "take_the_field"),
                ],
            )
            .await;
        let status = res.status();
        let place = location(&res);
        let id = place.trim_start_matches("/battles/").to_string();
        let body = res.text().await.unwrap();
        answers.push((status, place.replace(&id, "ID"), body.replace(&id, "ID")));
    }
    assert_eq!(answers[0].0, 303);
    assert_eq!(answers[0], answers[1], "the set-up form answers differ");

    // The inviter's list says the same of all four.
    let list = setter.pages.get_html("/battles").await;
    assert_eq!(
        list.matches("Invitation sent: waiting for the other player to accept")
            .count(),
        4,
        "{list}"
    );
    assert!(!list.contains("Colonel Tarleton"));
}

#[tokio::test]
async fn the_invited_player_accepts_and_then_the_battle_is_fought_under_both_names() {
    let app = spawn_app().await;
    let setter = player(&app, "setter@example.org", "Major Ferguson").await;
    let nora = player(&app, "nora@example.org", "Colonel Tarleton").await;
    let rosters = (setter.roster("Red").await, setter.roster("Blue").await);
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();
    let version = battle["version"].as_i64().unwrap();

    // The invitation waits on her list and on her home page, with accept and decline.
    let list = nora.pages.get_html("/battles").await;
    assert!(
        list.contains("Major Ferguson invites you to a battle"),
        "{list}"
    );
    assert!(list.contains(&format!("action=\"/battles/{id}/accept\"")));
    assert!(list.contains(&format!("action=\"/battles/{id}/decline\"")));
    let home = nora.pages.get_html("/").await;
    assert!(
        home.contains("Major Ferguson invites you to a battle"),
        "{home}"
    );
    let (_, seen) = nora.battle(id).await;
    assert_eq!(seen["invitation"]["for_you"], true, "{seen}");
    let (_, seen) = setter.battle(id).await;
    assert_eq!(seen["invitation"]["for_you"], false, "{seen}");

    // Nobody fights or records it before she accepts, and the page says why.
    for who in [&setter, &nora] {
        let (status, body) = who
            .call(
                "POST",
                &format!("/api/v1/battles/{id}/simulate"),
                Some(json!({"version": version})),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("not accepted the invitation yet"),
            "{body}"
        );
        let report = report(who, id).await;
        let (status, body) = who
            .call(
                "POST",
                &format!("/api/v1/battles/{id}/record"),
                Some(json!({"version": version, "report": report})),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        let res = who.pages.get(&format!("/battles/{id}/record")).await;
        assert_eq!(res.status(), 303, "the record form is not offered");
        let res = who.post_on_page(id, "simulate", version).await;
        assert_eq!(res.status(), 409);
    }
    let (_, seen) = setter.battle(id).await;
    assert_eq!(seen["status"], "set_up", "nothing was decided: {seen}");

    // She accepts on the page; her name shows from then on.
    let res = nora.post_on_page(id, "accept", version).await;
    assert_eq!(res.status(), 303);
    let page = setter.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Colonel Tarleton"), "{page}");
    assert!(page.contains("Major Ferguson"), "{page}");
    assert!(!page.contains("invited: n"), "{page}");
    // Between two players the engine fights only when both agree (issue 19).
    assert!(page.contains("Ask for Muster to fight it"), "{page}");
    let (_, seen) = setter.battle(id).await;
    assert_eq!(seen["invitation"]["state"], "accepted");
    assert!(!nora
        .pages
        .get_html("/battles")
        .await
        .contains("invites you to a battle"));

    // Recorded by one, confirmed by the other: an ordinary two-player result.
    let report = report(&setter, id).await;
    let (status, recorded) = setter
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/record"),
            Some(json!({"version": seen["version"], "report": report})),
        )
        .await;
    assert_eq!(status, 200, "{recorded}");
    assert_eq!(recorded["status"], "provisional");
    assert_eq!(recorded["single_party"], false);
    let (status, confirmed) = nora
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/confirm"),
            Some(json!({"version": recorded["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{confirmed}");
    assert_eq!(confirmed["status"], "confirmed");

    // Another invitation, accepted over the API and fought by the simulator.
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();
    let (status, accepted) = nora
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/accept"),
            Some(json!({"version": battle["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    // One of them asks for the engine and the other accepts (issue 19: one click by one
    // player no longer decides a battle between two).
    let (status, asked) = nora
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/engine/ask"),
            Some(json!({"version": accepted["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{asked}");
    let (status, fought) = setter
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/engine/accept"),
            Some(json!({"version": asked["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{fought}");
    assert_eq!(fought["status"], "confirmed");
}

#[tokio::test]
async fn a_declined_invitation_is_not_fought_and_the_inviter_withdraws_it() {
    let app = spawn_app().await;
    let setter = player(&app, "setter@example.org", "Major Ferguson").await;
    let nora = player(&app, "nora@example.org", "Colonel Tarleton").await;
    let rosters = (setter.roster("Red").await, setter.roster("Blue").await);
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();

    // Declined on the page: she no longer sees it.
    let res = nora
        .post_on_page(id, "decline", battle["version"].as_i64().unwrap())
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(nora.battle(id).await.0, 404);
    assert_eq!(
        nora.pages.get(&format!("/battles/{id}")).await.status(),
        404
    );

    // The inviter sees "declined", still not who, and cannot fight it.
    let page = setter.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("declined the invitation"), "{page}");
    assert!(!page.contains("Colonel Tarleton"), "{page}");
    assert!(!page.contains("Let Muster fight it"));
    let (_, seen) = setter.battle(id).await;
    assert_eq!(seen["invitation"]["state"], "declined");
    let (status, body) = setter
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/simulate"),
            Some(json!({"version": seen["version"]})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("declined"));

    // Withdrawn on the page: gone.
    let res = setter
        .pages
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/withdraw"),
            &[],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(setter.battle(id).await.0, 404);

    // Declined over the API; withdrawn over the API.
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();
    let (status, declined) = nora
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/decline"),
            Some(json!({"version": battle["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{declined}");
    assert_eq!(declined["invitation"]["state"], "declined");
    let (status, _) = setter
        .call("DELETE", &format!("/api/v1/battles/{id}"), None)
        .await;
    assert_eq!(status, 204);
    assert_eq!(setter.battle(id).await.0, 404);

    // An invitation still waiting can be withdrawn too; an accepted one cannot.
    let (_, waiting) = setter.battle_against(rosters, "nobody@example.org").await;
    let (status, _) = setter
        .call(
            "DELETE",
            &format!("/api/v1/battles/{}", waiting["id"]),
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();
    nora.call(
        "POST",
        &format!("/api/v1/battles/{id}/accept"),
        Some(json!({"version": battle["version"]})),
    )
    .await;
    let (status, body) = setter
        .call("DELETE", &format!("/api/v1/battles/{id}"), None)
        .await;
    assert_eq!(status, 409, "{body}");
}

#[tokio::test]
async fn only_the_invited_player_answers_an_invitation() {
    let app = spawn_app().await;
    let setter = player(&app, "setter@example.org", "Major Ferguson").await;
    let nora = player(&app, "nora@example.org", "Colonel Tarleton").await;
    let other = player(&app, "other@example.org", "Captain Other").await;
    let rosters = (setter.roster("Red").await, setter.roster("Blue").await);
    let (_, battle) = setter.battle_against(rosters, "nora@example.org").await;
    let id = battle["id"].as_i64().unwrap();
    let version = json!({"version": battle["version"]});

    // Someone else: not their battle at all.
    for action in ["accept", "decline"] {
        let (status, _) = other
            .call(
                "POST",
                &format!("/api/v1/battles/{id}/{action}"),
                Some(version.clone()),
            )
            .await;
        assert_eq!(status, 404, "{action} by another player");
        let res = other
            .post_on_page(id, action, battle["version"].as_i64().unwrap())
            .await;
        assert_eq!(res.status(), 404, "{action} on the page by another player");
    }
    assert_eq!(other.battle(id).await.0, 404);
    let (status, _) = other
        .call("DELETE", &format!("/api/v1/battles/{id}"), None)
        .await;
    assert_eq!(status, 404);

    // The inviter cannot answer for her, and she cannot withdraw it.
    let (status, body) = setter
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/accept"),
            Some(version.clone()),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = nora
        .call("DELETE", &format!("/api/v1/battles/{id}"), None)
        .await;
    assert_eq!(status, 403);

    // Without the session's CSRF token the page's accept is refused.
    let res = nora
        .pages
        .client
        .post(nora.pages.url(&format!("/battles/{id}/accept")))
        .form(&[("version", battle["version"].to_string())])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_client_error(), "{}", res.status());
    let (_, seen) = setter.battle(id).await;
    assert_eq!(seen["invitation"]["state"], "pending");

    // A battle with no invitation has nothing to accept.
    let (_, own) = setter
        .call(
            "POST",
            "/api/v1/battles",
            Some(
                json!({"first": format!("r:{}", rosters.0), "second": format!("r:{}", rosters.1),
                        "second_player": "A guest", "scenario": "take_the_field"}),
            ),
        )
        .await;
    assert!(own["invitation"].is_null(), "{own}");
    let (status, _) = setter
        .call(
            "POST",
            &format!("/api/v1/battles/{}/accept", own["id"]),
            Some(json!({"version": own["version"]})),
        )
        .await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn whoever_registers_with_an_invited_address_finds_the_invitation() {
    let app = spawn_app().await;
    let setter = player(&app, "setter@example.org", "Major Ferguson").await;
    let rosters = (setter.roster("Red").await, setter.roster("Blue").await);
    let (_, battle) = setter.battle_against(rosters, "Newcomer@Example.org").await;
    let id = battle["id"].as_i64().unwrap();

    // The address itself is not stored.
    {
        let pool = app.pool();
        let mut conn = pool.get().expect("conn");
        let row = muster::store::battles::find(&mut conn, id)
            .unwrap()
            .unwrap();
        let stored = format!("{row:?}").to_lowercase();
        assert!(!stored.contains("newcomer"), "{stored}");
    }

    let newcomer = player(&app, "newcomer@example.org", "Lieutenant New").await;
    let list = newcomer.pages.get_html("/battles").await;
    assert!(
        list.contains("Major Ferguson invites you to a battle"),
        "{list}"
    );
    let (status, accepted) = newcomer
        .call(
            "POST",
            &format!("/api/v1/battles/{id}/accept"),
            Some(json!({"version": battle["version"]})),
        )
        .await;
    assert_eq!(status, 200, "{accepted}");
    let page = setter.pages.get_html(&format!("/battles/{id}")).await;
    assert!(page.contains("Lieutenant New"), "{page}");

    // A visitor without an account sees nothing of it.
    let visitor = Visitor {
        address: app.address.clone(),
        client: client(),
    };
    let res = visitor.get(&format!("/battles/{id}")).await;
    assert_ne!(res.status(), 200);
}
