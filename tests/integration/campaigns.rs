//! Campaigns over HTTP: four players on a preset map through three turns, with a simulated and
//! a recorded battle, casualties, a fallen commander replaced, reinforcements spent, standings
//! checked by hand, the log, and the state rebuilt from the log. Then who may do what.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

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

/// A player with a bearer token.
struct Player {
    token: String,
    email: String,
}

struct Api<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
}

impl Api<'_> {
    async fn call(
        &self,
        p: &Player,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = self.app.url(&format!("/api/v1{path}"));
        let req = match method {
            "GET" => self.http.get(url),
            "PUT" => self.http.put(url),
            _ => self.http.post(url),
        }
        .bearer_auth(&p.token);
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

    async fn ok(&self, p: &Player, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = self.call(p, method, path, body).await;
        assert!(status < 300, "{method} {path} as {}: {status} {v}", p.email);
        v
    }
}

async fn player(app: &TestApp, email: &str) -> Player {
    Player {
        token: app.api_user(email).await,
        email: email.into(),
    }
}

async fn roster_of(api: &Api<'_>, p: &Player, name: &str, nation: &str) -> i64 {
    api.ok(p, "POST", "/rosters", Some(roster(name, nation)))
        .await["id"]
        .as_i64()
        .expect("roster id")
}

fn route_between(map: &Value, a: &str, b: &str) -> String {
    map["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .find(|r| (r["from"] == a && r["to"] == b) || (r["from"] == b && r["to"] == a))
        .map(|r| r["id"].as_str().expect("id").to_string())
        .unwrap_or_else(|| panic!("no route {a}–{b}"))
}

struct Campaign {
    id: i64,
    map: Value,
}

async fn order(
    api: &Api<'_>,
    c: &Campaign,
    p: &Player,
    force: &str,
    to: Option<(&str, &str)>,
) -> Value {
    let order = match to {
        None => json!({"order": "hold"}),
        Some((from, to)) => json!({"order": "move", "route": route_between(&c.map, from, to)}),
    };
    api.ok(
        p,
        "POST",
        &format!("/campaigns/{}/orders", c.id),
        Some(json!({"force": force, "order": order})),
    )
    .await
}

/// Creates a campaign on the Philadelphia map; answers its id and invite code.
async fn create_campaign(api: &Api<'_>, p: &Player, name: &str, turns: u32) -> (i64, String) {
    let created = api
        .ok(
            p,
            "POST",
            "/campaigns",
            Some(
                json!({"name": name, "map": "philadelphia-1777", "points": 200,
                        "turns": turns, "sides": ["", ""]}),
            ),
        )
        .await;
    let id = created["id"].as_i64().expect("campaign id");
    let code = created["invite_code"].as_str().expect("code").to_string();
    (id, code)
}

/// Four players, two a side, on the Philadelphia map; the organiser plays too.
async fn four_player_campaign(api: &Api<'_>) -> (Campaign, [Player; 4]) {
    let app = api.app;
    let players = [
        player(app, "howe@example.com").await,
        player(app, "cornwallis@example.com").await,
        player(app, "washington@example.com").await,
        player(app, "greene@example.com").await,
    ];
    let (id, code) = create_campaign(api, &players[0], "Philadelphia 1777", 3).await;
    for (i, (p, nation)) in players
        .iter()
        .zip(["british", "british", "american", "american"])
        .enumerate()
    {
        let r = roster_of(api, p, &format!("Force {}", i + 1), nation).await;
        let joined = api
            .ok(
                p,
                "POST",
                &format!("/campaigns/{id}/join"),
                Some(json!({"code": code, "side": u8::from(i >= 2), "roster_id": r})),
            )
            .await;
        assert_eq!(joined["my_force"], format!("f{}", i + 1));
    }
    let map = api
        .ok(&players[0], "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    (Campaign { id, map }, players)
}

/// The campaign page, with its map, as Greene sees it.
async fn greene_page_map(app: &TestApp, id: i64) -> String {
    let v = app.other_visitor();
    v.login("greene@example.com", crate::helpers::PASSWORD)
        .await;
    v.get_html(&format!("/campaigns/{id}")).await
}

fn kinds(log: &Value) -> Vec<String> {
    log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn a_four_player_campaign_runs_three_turns_to_final_standings() {
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let (c, [howe, cornwallis, washington, greene]) = four_player_campaign(&api).await;
    let id = c.id;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;

    // Every commander's rating was rolled at enlistment, with the seed in the log.
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let enlisted: Vec<&Value> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "enlisted")
        .collect();
    assert_eq!(enlisted.len(), 4);
    for e in &enlisted {
        // The log names forces, never their ids (issue 18: "… (f2) for …").
        let text = e["text"].as_str().unwrap_or("");
        assert!(
            text.contains(" enlisted Force ") && !text.contains("(f"),
            "{text}"
        );
        assert!(e["seed"].as_str().is_some_and(|s| !s.is_empty()), "{e}");
        assert_eq!(e["event"]["ratings"].as_object().map(|m| m.len()), Some(3));
    }

    // ---- Turn 1: marches, no contact. Greene gives no order and holds.
    order(&api, &c, &howe, "f1", Some(("head_of_elk", "iron_hill"))).await;
    order(&api, &c, &cornwallis, "f2", None).await;
    order(
        &api,
        &c,
        &washington,
        "f3",
        Some(("philadelphia", "chadds_ford")),
    )
    .await;
    let seen = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/orders"), None)
        .await;
    assert_eq!(
        (seen["orders"]["in"].as_u64(), seen["orders"]["of"].as_u64()),
        (Some(3), Some(4))
    );
    // Washington's order is his alone until the turn closes.
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log?turn=1"), None)
        .await;
    let his = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["force"] == "f3" && e["kind"] == "order_given")
        .expect("his order is listed");
    assert!(his.get("event").is_none() && !his["text"].as_str().unwrap().contains("Chadds"));
    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(
        (state["turn"].as_u64(), state["phase"].as_str()),
        (Some(2), Some("orders"))
    );
    let map = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    assert_eq!(map["holders"]["iron_hill"]["side"], 0);
    assert_eq!(map["holders"]["chadds_ford"]["side"], 1);
    let where_is = |m: &Value, f: &str| {
        m["forces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == f)
            .unwrap()["place"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(where_is(&map, "f4"), "philadelphia", "no order means hold");
    // 10 points a turn, plus 5 for each supply place the side holds (Head of Elk; Philadelphia).
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    assert_eq!(f1["bank"], 15);
    // Now the log shows what Washington ordered.
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log?force=f3"), None)
        .await;
    assert!(
        log["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "order_given"
                && e["text"].as_str().unwrap().contains("Chadds Ford"))
    );

    // ---- Turn 2: Howe and Washington both march on Kennett Square and meet there.
    order(&api, &c, &howe, "f1", Some(("iron_hill", "kennett"))).await;
    order(
        &api,
        &c,
        &cornwallis,
        "f2",
        Some(("head_of_elk", "iron_hill")),
    )
    .await;
    order(
        &api,
        &c,
        &greene,
        "f4",
        Some(("philadelphia", "fort_mifflin")),
    )
    .await;
    // The last order closes the turn by itself.
    order(
        &api,
        &c,
        &washington,
        "f3",
        Some(("chadds_ford", "kennett")),
    )
    .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["phase"], "battles");
    let battles = state["battles"].as_array().unwrap().clone();
    assert_eq!(battles.len(), 1);
    assert_eq!(battles[0]["at"]["place"], "kennett");
    let record = battles[0]["record"].as_i64().unwrap();
    let kennett_attacker = battles[0]["attacker"].as_str().unwrap().to_string();
    // The battle record was set up from the forces with the ratings rolled at enlistment.
    let setup = api
        .ok(&howe, "GET", &format!("/battles/{record}/setup"), None)
        .await;
    assert_eq!(setup["points"], 200);
    assert_eq!(
        setup["attacker"]["commanders"].as_object().map(|m| m.len()),
        Some(3)
    );
    // Either player may ask for the simulator; it fights once the other accepts (issue 19).
    let asked = api
        .ok(
            &washington,
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": 1})),
        )
        .await;
    let fought = api
        .ok(
            &howe,
            "POST",
            &format!("/battles/{record}/engine/accept"),
            Some(json!({"version": asked["version"]})),
        )
        .await;
    assert_eq!(fought["status"], "confirmed");
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["battles"][0]["status"], "resolved");
    assert_eq!(
        (state["turn"].as_u64(), state["phase"].as_str()),
        (Some(3), Some("orders"))
    );
    let map = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    let winner = match state["battles"][0]["result"]["winner"].as_str() {
        Some("attacker") => Some(kennett_attacker.clone()),
        Some("defender") => Some(
            state["battles"][0]["defender"]
                .as_str()
                .unwrap()
                .to_string(),
        ),
        _ => None,
    };
    if let Some(w) = &winner {
        assert_eq!(where_is(&map, w), "kennett", "the winner holds the field");
    }

    // ---- Reinforcements: Cornwallis has 30 points and buys a regiment.
    let f2 = api
        .ok(
            &cornwallis,
            "GET",
            &format!("/campaigns/{id}/forces/f2"),
            None,
        )
        .await;
    assert_eq!(f2["bank"], 30);
    let group = f2["roster"]["groups"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let guards = json!({"buy": "element", "group": group, "name": "Guards", "type": "infantry", "size": "medium", "bank": 30});
    api.ok(
        &cornwallis,
        "POST",
        &format!("/campaigns/{id}/forces/f2/purchases"),
        Some(guards.clone()),
    )
    .await;
    // The same request again (a double click) finds the bank changed and buys nothing.
    let (status, again) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/forces/f2/purchases"),
            Some(guards),
        )
        .await;
    assert_eq!(status, 409, "{again}");
    assert!(
        again["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("held 30 points") && m.contains("now holds 5")),
        "{again}"
    );
    let f2 = api
        .ok(
            &cornwallis,
            "GET",
            &format!("/campaigns/{id}/forces/f2"),
            None,
        )
        .await;
    assert_eq!(
        (f2["bank"].as_u64(), f2["points"].as_u64()),
        (Some(5), Some(175))
    );

    // ---- Turn 3: Cornwallis and Greene both march on Wilmington and meet there.
    order(
        &api,
        &c,
        &cornwallis,
        "f2",
        Some(("iron_hill", "wilmington")),
    )
    .await;
    order(
        &api,
        &c,
        &greene,
        "f4",
        Some(("fort_mifflin", "wilmington")),
    )
    .await;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    let b2 = state["battles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["no"] == 2)
        .expect("a second battle")
        .clone();
    assert_eq!(b2["at"]["place"], "wilmington");
    let record2 = b2["record"].as_i64().unwrap();
    let setup = api
        .ok(&greene, "GET", &format!("/battles/{record2}/setup"), None)
        .await;
    // The bought regiment marches with its force.
    let (att_key, def_key) = if b2["attacker"] == "f2" {
        ("attacker", "defender")
    } else {
        ("defender", "attacker")
    };
    let count = |s: &Value, k: &str| {
        s[k]["roster"]["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["elements"].as_array().unwrap().len())
            .sum::<usize>()
    };
    assert_eq!(count(&setup, att_key), 7);
    // Recorded from the table: Greene's force is shattered and its general falls.
    let mut elements = Vec::new();
    for (key, side) in [("attacker", "attacker"), ("defender", "defender")] {
        for g in setup[key]["roster"]["groups"].as_array().unwrap() {
            for e in g["elements"].as_array().unwrap() {
                let state = if key == def_key { "shattered" } else { "fit" };
                elements.push(json!({"side": side, "id": e["id"], "state": state, "hits": 0}));
            }
        }
    }
    let fc = setup[def_key]["roster"]["force_commander"]["id"].clone();
    let objectives = match setup["scenario"].as_str().unwrap() {
        "take_the_field" => 4, // R-32
        "hold_the_ground" | "flank_attack" | "surrounded" | "frontal_assault" => 3,
        _ => 0,
    };
    let (ao, dobj) = if att_key == "attacker" {
        (objectives, 0)
    } else {
        (0, objectives)
    };
    let recorded = api
        .ok(
            &cornwallis,
            "POST",
            &format!("/battles/{record2}/record"),
            Some(
                json!({"version": 1, "report": {"turns_played": 6, "elements": elements,
                        "commanders": [{"side": def_key, "id": fc, "fate": "killed"}],
                        "attacker_objectives": ao, "defender_objectives": dobj}}),
            ),
        )
        .await;
    assert_eq!(recorded["status"], "provisional");
    // Nothing happens in the campaign until Greene confirms it.
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["phase"], "battles");
    // The map labels each force with its own name (issue 18: it showed the player's).
    let map_page = greene_page_map(&app, id).await;
    assert!(map_page.contains(">Force 4</text>"), "{map_page}");
    // Greene's home page asks him once, on the battle's own line (issue 18: the campaign's
    // list used to ask again).
    let greene_page = app.other_visitor();
    greene_page
        .login("greene@example.com", crate::helpers::PASSWORD)
        .await;
    let home = greene_page.get_html("/").await;
    // Issue 19: the home page also lists recent battles; the attention list comes first.
    let waiting = &home[..home
        .find("id=\"desk-campaigns\"")
        .expect("the campaigns panel")];
    assert_eq!(
        waiting
            .matches(&format!("href=\"/battles/{record2}\""))
            .count(),
        1,
        "one line for the result to confirm: {home}"
    );
    assert!(
        !home.contains("Confirm or dispute the result recorded"),
        "{home}"
    );
    assert!(
        home.contains("waiting for you to confirm or dispute it"),
        "{home}"
    );
    api.ok(
        &greene,
        "POST",
        &format!("/battles/{record2}/confirm"),
        Some(json!({"version": 2})),
    )
    .await;

    // ---- The aftermath: casualties, the general replaced, and the campaign's end.
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["phase"], "ended", "{state}");
    let f4 = api
        .ok(&greene, "GET", &format!("/campaigns/{id}/forces/f4"), None)
        .await;
    let history = f4["history"].as_object().unwrap();
    let fc_id = fc.as_str().unwrap();
    if f4["out"].is_null() {
        assert!(history[fc_id][0]
            .as_str()
            .unwrap()
            .contains("fell in the battle at Wilmington"));
        // Every element that survived is one size smaller, and says so.
        for g in f4["roster"]["groups"].as_array().unwrap() {
            for e in g["elements"].as_array().unwrap() {
                assert_eq!(e["size"], "small", "{e}");
                let id = e["id"].as_str().unwrap();
                assert_eq!(
                    history[id][0].as_str().unwrap(),
                    "Reduced to Small after the battle at Wilmington"
                );
            }
        }
    }
    let log = api
        .ok(&washington, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let k = kinds(&log);
    for needed in [
        "created",
        "enlisted",
        "started",
        "order_given",
        "turn_closed",
        "moved",
        "battle_set",
        "battle_fought",
        "place_taken",
        "reinforced",
        "purchased",
        "turn_began",
        "ended",
    ] {
        assert!(
            k.iter().any(|x| x == needed),
            "the log has no {needed}: {k:?}"
        );
    }
    assert!(k
        .iter()
        .any(|x| x == "element_lost" || x == "element_reduced"));
    // The fallen general was replaced (R-12), even if the force then had nothing left to lead:
    // the best Group Commander steps up and his group gets a new one (M-83).
    let replaced = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "commander_replaced" && e["force"] == "f4")
        .count();
    assert!(replaced >= 1, "{k:?}");
    assert_eq!(k.iter().filter(|x| *x == "battle_fought").count(), 2);
    // Dice-driven entries carry their seed.
    for e in log["entries"].as_array().unwrap() {
        if [
            "battle_set",
            "battle_fought",
            "element_lost",
            "element_reduced",
            "commander_replaced",
        ]
        .contains(&e["kind"].as_str().unwrap())
        {
            assert!(e["seed"].is_string(), "{e}");
        }
    }

    // ---- Standings, by hand: victory points of each battle plus places held.
    let standings = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/standings"), None)
        .await;
    assert_eq!(standings["final"], true);
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    let map = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    let mut vp = std::collections::BTreeMap::<String, u64>::new();
    for b in state["battles"].as_array().unwrap() {
        let r = &b["result"];
        *vp.entry(b["attacker"].as_str().unwrap().into())
            .or_default() += r["attacker_vp"].as_u64().unwrap();
        *vp.entry(b["defender"].as_str().unwrap().into())
            .or_default() += r["defender_vp"].as_u64().unwrap();
    }
    let value = |place: &str| {
        map["places"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == place)
            .unwrap()["value"]
            .as_u64()
            .unwrap()
    };
    for side in 0..2u64 {
        let forces: Vec<String> = state["forces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["side"] == side)
            .map(|f| f["id"].as_str().unwrap().to_string())
            .collect();
        let battle_points: u64 = forces.iter().map(|f| vp.get(f).copied().unwrap_or(0)).sum();
        let places: u64 = map["holders"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, h)| h["side"] == side)
            .map(|(p, _)| value(p))
            .sum();
        let s = &standings["sides"][side as usize];
        assert_eq!(
            s["total"].as_u64(),
            Some(battle_points + places),
            "side {side}: {s}"
        );
        for f in &forces {
            let credited: u64 = map["holders"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, h)| h["side"] == side && h["taken_by"] == f.as_str())
                .map(|(p, _)| value(p))
                .sum();
            let row = standings["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["force"] == f.as_str())
                .unwrap();
            assert_eq!(
                row["total"].as_u64(),
                Some(vp.get(f).copied().unwrap_or(0) + credited),
                "{f}: {row}"
            );
        }
    }
    // Cornwallis took Wilmington (a value-2 place) by beating Greene there.
    let wilm = &map["holders"]["wilmington"];
    assert_eq!(
        (wilm["side"].as_u64(), wilm["taken_by"].as_str()),
        (Some(0), Some("f2"))
    );

    // ---- The log, applied from the start, gives the stored state.
    let audit = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/audit"), None)
        .await;
    assert_eq!(audit["rebuilt_matches"], true, "{audit}");
    rebuild_matches_stored_state(&app, id);
}

/// Reads the stored log and state straight from the database and rebuilds.
fn rebuild_matches_stored_state(app: &TestApp, id: i64) {
    use muster::rules::campaign::state::{CampaignState, Entry};
    let pool = app.pool();
    let mut conn = pool.get().expect("conn");
    let row = muster::store::campaigns::find(&mut conn, id)
        .expect("query")
        .expect("campaign");
    let entries: Vec<Entry> = muster::store::campaigns::log(&mut conn, id)
        .expect("log")
        .iter()
        .map(|r| Entry {
            seq: r.seq,
            event: serde_json::from_str(&r.event).expect("entry parses"),
        })
        .collect();
    let stored: CampaignState = serde_json::from_str(&row.state).expect("state parses");
    let cat = muster::rules::systems::lotf::Catalogue::builtin().expect("catalogue");
    let rebuilt = CampaignState::rebuild(&cat, &entries).expect("rebuilds");
    assert_eq!(rebuilt, stored);
    assert!(!stored.battles.is_empty() && stored.forces.len() == 4);
}

#[tokio::test]
async fn who_may_do_what_in_a_campaign() {
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let (c, [howe, cornwallis, washington, _greene]) = four_player_campaign(&api).await;
    let id = c.id;
    let stranger = player(&app, "stranger@example.com").await;
    // Outsiders see nothing, not even that it exists.
    let (status, _) = api
        .call(&stranger, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(status, 404);
    let (status, _) = api
        .call(&stranger, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    assert_eq!(status, 404);
    // Only the organiser edits the map and starts the campaign.
    let map = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    let body =
        json!({"map": {"places": map["places"], "routes": map["routes"]}, "homes": map["homes"]});
    let (status, _) = api
        .call(
            &cornwallis,
            "PUT",
            &format!("/campaigns/{id}/map"),
            Some(body.clone()),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = api
        .call(&washington, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    assert_eq!(status, 403);
    // A broken map is refused with its problems named.
    let mut broken = body.clone();
    broken["map"]["routes"][0]["to"] = json!("atlantis");
    let (status, err) = api
        .call(&howe, "PUT", &format!("/campaigns/{id}/map"), Some(broken))
        .await;
    assert_eq!(status, 422, "{err}");
    assert!(err.to_string().contains("not on the map"), "{err}");
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    // After the start the map is fixed, and nobody joins late.
    let (status, _) = api
        .call(&howe, "PUT", &format!("/campaigns/{id}/map"), Some(body))
        .await;
    assert_eq!(status, 409);
    // Players order only their own force, along a route that leaves where it stands.
    let (status, _) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/orders"),
            Some(json!({"force": "f3", "order": {"order": "hold"}})),
        )
        .await;
    assert_eq!(status, 403);
    let far = route_between(&c.map, "germantown", "whitemarsh");
    let (status, err) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/orders"),
            Some(json!({"force": "f2", "order": {"order": "move", "route": far}})),
        )
        .await;
    assert_eq!(status, 422, "{err}");
    // Nobody else sees an order before the reveal, the organiser included.
    order(
        &api,
        &c,
        &washington,
        "f3",
        Some(("philadelphia", "germantown")),
    )
    .await;
    for viewer in [&howe, &cornwallis] {
        let o = api
            .ok(viewer, "GET", &format!("/campaigns/{id}/orders"), None)
            .await;
        assert_eq!(o["orders"]["in"], 1);
        assert!(o["orders"]["mine"].is_null(), "{o}");
        let log = api
            .ok(viewer, "GET", &format!("/campaigns/{id}/log"), None)
            .await;
        let given = log["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "order_given")
            .expect("the order is listed as given");
        assert!(given.get("event").is_none(), "{given}");
        assert!(!given.to_string().contains("Germantown"), "{given}");
    }
    let mine = api
        .ok(&washington, "GET", &format!("/campaigns/{id}/orders"), None)
        .await;
    assert_eq!(mine["orders"]["mine"]["order"], "move");
    // Only the organiser closes turns, voids battles, adjusts and replaces players.
    let (status, _) = api
        .call(
            &washington,
            "POST",
            &format!("/campaigns/{id}/turn/close"),
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = api
        .call(
            &washington,
            "POST",
            &format!("/campaigns/{id}/adjustments"),
            Some(json!({"side": 1, "points": 5, "reason": "because"})),
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/forces/f3/replace"),
            Some(json!({"email": "stranger@example.com"})),
        )
        .await;
    assert_eq!(status, 403);
    // Players spend only their own points.
    let (status, _) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/forces/f1/purchases"),
            Some(json!({"buy": "restore", "element": "e1"})),
        )
        .await;
    assert_eq!(status, 403);
    // The organiser's tools work, and are logged with their reasons.
    api.ok(
        &howe,
        "POST",
        &format!("/campaigns/{id}/adjustments"),
        Some(json!({"side": 1, "points": 2, "reason": "Late start for the Continentals"})),
    )
    .await;
    api.ok(
        &howe,
        "POST",
        &format!("/campaigns/{id}/forces/f3/replace"),
        Some(json!({"email": "stranger@example.com"})),
    )
    .await;
    let now = api
        .ok(&stranger, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(now["my_force"], "f3", "the new player has the force");
    let (status, _) = api
        .call(
            &washington,
            "GET",
            &format!("/campaigns/{id}/forces/f3"),
            None,
        )
        .await;
    assert_eq!(status, 200, "the old player may still read the campaign");
    let (status, _) = api
        .call(
            &washington,
            "POST",
            &format!("/campaigns/{id}/orders"),
            Some(json!({"force": "f3", "order": {"order": "hold"}})),
        )
        .await;
    assert_eq!(status, 403, "but no longer orders the force");
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let text = log.to_string();
    assert!(text.contains("Late start for the Continentals") && text.contains("player_replaced"));
    let standings = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/standings"), None)
        .await;
    assert_eq!(standings["sides"][1]["adjustment"], 2);
}

/// The pages as plain forms: a refused form keeps what was typed, the organiser edits the map,
/// players join and order, the pages for standings, log and force render, and the pages refuse
/// what the API refuses.
#[tokio::test]
async fn the_campaign_pages_work_as_plain_forms() {
    use crate::helpers::{csrf_from, location, PASSWORD};
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let howe = player(&app, "howe@example.com").await;
    let washington = player(&app, "washington@example.com").await;
    let howe_roster = roster_of(&api, &howe, "Howe's army", "british").await;
    let wash_roster = roster_of(&api, &washington, "Main army", "american").await;

    let organiser = app.other_visitor();
    organiser
        .login("howe@example.com", crate::helpers::PASSWORD)
        .await;
    // A nameless campaign is refused, and the form keeps the other fields.
    let res = organiser
        .post_form(
            "/campaigns",
            "/campaigns",
            &[
                ("name", ""),
                ("map", "niagara-1814"),
                ("points", "180"),
                ("turns", "5"),
                ("side_a", "Left Division"),
                ("rule_route_battles", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(page.contains("Give the campaign a name"), "{page}");
    assert!(page.contains("value=\"Left Division\"") && page.contains("value=\"180\""));
    // A switched-off rule stays off.
    let res = organiser
        .post_form(
            "/campaigns",
            "/campaigns",
            &[
                ("name", "Niagara 1814"),
                ("map", "niagara-1814"),
                ("points", "200"),
                ("turns", "5"),
                ("side_a", ""),
                ("side_b", ""),
                ("rule_route_battles", "on"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let campaign = location(&res);
    let id: i64 = campaign.trim_start_matches("/campaigns/").parse().unwrap();
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["rules"]["route_battles"], true);
    assert_eq!(state["rules"]["persistent_casualties"], false);
    let page = organiser.get_html(&campaign).await;
    assert!(
        page.contains("Fort Erie") && page.contains("<svg"),
        "the map is drawn"
    );
    let code = page
        .split("class=\"invite-code\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .unwrap()
        .to_string();

    // The organiser adds a place and a route on the map editor.
    let map_page = format!("{campaign}/map");
    let res = organiser
        .post_form(
            &map_page,
            &map_page,
            &[
                ("op", "add_place"),
                ("name", "Cook's Mills"),
                ("kind", "village"),
                ("x", "300"),
                ("y", "400"),
                ("value", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let res = organiser
        .post_form(
            &map_page,
            &map_page,
            &[
                ("op", "add_place"),
                ("name", "Nowhere"),
                ("kind", "village"),
                ("x", "5000"),
                ("y", "400"),
                ("value", "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422, "off the map");
    let res = organiser
        .post_form(
            &map_page,
            &map_page,
            &[
                ("op", "add_route"),
                ("from", "cook_s_mills"),
                ("to", "lundys_lane"),
                ("kind", "trail"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let map = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/map"), None)
        .await;
    assert!(map["places"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "Cook's Mills"));
    route_between(&map, "cook_s_mills", "lundys_lane");

    // Both enlist through the join page (the roster must be for this war).
    let res = organiser
        .post_form(
            &format!("/campaigns/join/{code}"),
            &format!("/campaigns/join/{code}"),
            &[("side", "0"), ("roster", &howe_roster.to_string())],
        )
        .await;
    assert_eq!(
        res.status(),
        422,
        "an American Revolution roster in the War of 1812"
    );
    assert!(res.text().await.unwrap().contains("War of 1812"));
    let _ = wash_roster;

    // A player may not start, close or use the organiser's tools; a stranger sees nothing.
    let player_v = app.other_visitor();
    player_v.login("washington@example.com", PASSWORD).await;
    assert_eq!(
        player_v.get(&campaign).await.status(),
        404,
        "not a member yet"
    );
    let organiser_tools = format!("{campaign}/organiser");
    assert_eq!(organiser.get(&organiser_tools).await.status(), 200);
    // Forms need their CSRF token.
    let res = organiser
        .client
        .post(organiser.url(&format!("{campaign}/start")))
        .form(&[("csrf_token", "forged")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let token = csrf_from(&organiser.get_html(&campaign).await);
    assert!(!token.is_empty());
    // A number too large for the adjustment field is refused for its size, not read as none.
    let huge = organiser
        .post_form(
            &organiser_tools,
            &organiser_tools,
            &[
                ("tool", "adjust"),
                ("target", "s:0"),
                ("points", "99999999999999"),
                ("reason", "a typo"),
            ],
        )
        .await;
    assert_eq!(huge.status(), 422);
    assert!(huge
        .text()
        .await
        .unwrap()
        .contains("An adjustment is at most 100 points either way."));
    // Standings, log and map pages render for the organiser.
    for path in ["standings", "log", "map"] {
        let res = organiser.get(&format!("{campaign}/{path}")).await;
        assert_eq!(res.status(), 200, "{path}");
    }
}

/// The organiser rearranges a battle before it is fought, then voids it after: its aftermath is
/// set aside (and still shown), it is fought again on a fresh record, and the log still
/// rebuilds the state. A force prints as it stands.
#[tokio::test]
async fn a_battle_is_rearranged_voided_and_fought_again() {
    use crate::helpers::PASSWORD;
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let (c, [howe, cornwallis, washington, _greene]) = four_player_campaign(&api).await;
    let id = c.id;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    order(&api, &c, &howe, "f1", Some(("head_of_elk", "iron_hill"))).await;
    order(
        &api,
        &c,
        &washington,
        "f3",
        Some(("philadelphia", "chadds_ford")),
    )
    .await;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    order(&api, &c, &howe, "f1", Some(("iron_hill", "kennett"))).await;
    order(
        &api,
        &c,
        &washington,
        "f3",
        Some(("chadds_ford", "kennett")),
    )
    .await;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    let before = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f3"), None)
        .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    let first_record = state["battles"][0]["record"].as_i64().unwrap();
    // A scenario other than the one rolled.
    let pick = if state["battles"][0]["scenario"] == "meeting_engagement" {
        "ambush"
    } else {
        "meeting_engagement"
    };

    // Arranged: another scenario than the rolled one; a fresh record.
    let (status, _) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/battles/1/arrange"),
            Some(json!({"scenario": pick})),
        )
        .await;
    assert_eq!(status, 403, "only the organiser arranges");
    let state = api
        .ok(
            &howe,
            "POST",
            &format!("/campaigns/{id}/battles/1/arrange"),
            Some(json!({"scenario": pick})),
        )
        .await;
    let record = state["battles"][0]["record"].as_i64().unwrap();
    assert_ne!(record, first_record);
    assert_eq!(state["battles"][0]["scenario"], pick);
    let old = api
        .ok(&howe, "GET", &format!("/battles/{first_record}"), None)
        .await;
    assert_eq!(old["status"], "voided");
    let setup = api
        .ok(&howe, "GET", &format!("/battles/{record}/setup"), None)
        .await;
    assert_eq!(setup["scenario"], pick);

    // Fought (by the engine, both players agreeing), then voided by the organiser with a
    // reason.
    let asked = api
        .ok(
            &howe,
            "POST",
            &format!("/battles/{record}/engine/ask"),
            Some(json!({"version": 1})),
        )
        .await;
    api.ok(
        &washington,
        "POST",
        &format!("/battles/{record}/engine/accept"),
        Some(json!({"version": asked["version"]})),
    )
    .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["turn"], 3);
    // The organiser's void list reads the result as the rest of the pages do (issue 18).
    let organiser = app.other_visitor();
    organiser
        .login("howe@example.com", crate::helpers::PASSWORD)
        .await;
    let tools = organiser
        .get_html(&format!("/campaigns/{id}/organiser"))
        .await;
    assert!(
        // The battle is fought on a fresh seed: a tie reads "Tie (3:3)".
        tools.contains("Battle 1 at ")
            && (tools.contains(" won: ") || tools.contains(": Tie ("))
            && !tools.contains(" won, "),
        "{tools}"
    );
    let (status, _) = api
        .call(
            &washington,
            "POST",
            &format!("/campaigns/{id}/battles/1/void"),
            Some(json!({"reason": "I lost"})),
        )
        .await;
    assert_eq!(status, 403);
    let state = api
        .ok(
            &howe,
            "POST",
            &format!("/campaigns/{id}/battles/1/void"),
            Some(json!({"reason": "The wrong forces were set up"})),
        )
        .await;
    assert_eq!(
        (state["turn"].as_u64(), state["phase"].as_str()),
        (Some(2), Some("battles"))
    );
    assert_eq!(state["battles"][0]["status"], "pending");
    let again = state["battles"][0]["record"].as_i64().unwrap();
    assert_ne!(again, record);
    let after = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f3"), None)
        .await;
    assert_eq!(after["roster"], before["roster"], "casualties are undone");
    assert_eq!(after["place"], "kennett");
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let entries = log["entries"].as_array().unwrap();
    assert!(entries.iter().any(|e| e["kind"] == "battle_voided"
        && e["text"]
            .as_str()
            .unwrap()
            .contains("The wrong forces were set up")));
    assert!(
        entries
            .iter()
            .any(|e| e["kind"] == "battle_fought" && e["set_aside"] == true),
        "the voided result stays in the log, set aside"
    );
    let audit = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/audit"), None)
        .await;
    assert_eq!(audit["rebuilt_matches"], true);

    // Fought again, this time decided by the simulator at the organiser's word (a player
    // could not come); only the organiser may do that.
    let (status, _) = api
        .call(
            &cornwallis,
            "POST",
            &format!("/campaigns/{id}/battles/1/simulate"),
            Some(json!({"reason": "I cannot come"})),
        )
        .await;
    assert_eq!(status, 403);
    // The organiser decides alone, so says why (issue 19); the reason is in the log.
    api.ok(
        &howe,
        "POST",
        &format!("/campaigns/{id}/battles/1/simulate"),
        Some(json!({"reason": "Washington could not come"})),
    )
    .await;
    let fought = api
        .ok(&howe, "GET", &format!("/battles/{again}"), None)
        .await;
    assert_eq!(fought["status"], "confirmed");
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["turn"], 3);
    // An order given since means the battle can no longer be voided.
    order(&api, &c, &cornwallis, "f2", None).await;
    let (status, err) = api
        .call(
            &howe,
            "POST",
            &format!("/campaigns/{id}/battles/1/void"),
            Some(json!({"reason": "too late"})),
        )
        .await;
    assert_eq!(status, 409, "{err}");
    assert_eq!(
        api.ok(&howe, "GET", &format!("/campaigns/{id}/audit"), None)
            .await["rebuilt_matches"],
        true
    );

    // Each player prints their force as it stands, with the commanders' rolled ratings.
    let v = app.other_visitor();
    v.login("washington@example.com", PASSWORD).await;
    let sheet = v
        .get_html(&format!("/campaigns/{id}/forces/f3/print/sheet"))
        .await;
    assert!(
        sheet.contains("Force 3") && sheet.contains("Philadelphia 1777, turn 3"),
        "{sheet}"
    );
    let f3 = api
        .ok(
            &washington,
            "GET",
            &format!("/campaigns/{id}/forces/f3"),
            None,
        )
        .await;
    for (_, history) in f3["history"].as_object().unwrap() {
        for line in history.as_array().unwrap() {
            let line = line.as_str().unwrap();
            if line.starts_with("Reduced") {
                assert!(
                    sheet.contains(line),
                    "the sheet tells the element's story: {line}"
                );
            }
        }
    }
    let cards = v
        .get(&format!("/campaigns/{id}/forces/f3/print/cards"))
        .await;
    assert_eq!(cards.status(), 200);
    let page = v.get_html(&format!("/campaigns/{id}/forces/f3")).await;
    // The battle's dice are fresh, so now and then it ends Washington's campaign (beaten with
    // nowhere to retreat): a force out of the field has nothing to spend.
    assert_eq!(
        page.contains("Reinforcements"),
        f3["out"].is_null(),
        "the player may spend on his own force while it is in the field: {}",
        f3["out"]
    );
    let page = v.get_html(&format!("/campaigns/{id}/forces/f1")).await;
    assert!(!page.contains("id=\"buy-element\""), "but not on another's");
}

/// M-97: reinforcement points come at the end of every turn but the last. In the last turn the
/// force page and the attention list warn that points not spent now go unused; after the end the
/// page says how many were left, the log's last entry says no points came, and the organiser can
/// no longer add reinforcement points (campaign points still may be adjusted).
#[tokio::test]
async fn reinforcement_points_end_with_the_last_turn() {
    use crate::helpers::PASSWORD;
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let howe = player(&app, "howe@example.com").await;
    let washington = player(&app, "washington@example.com").await;
    let (id, code) = create_campaign(&api, &howe, "Two turns", 2).await;
    for (side, (p, nation)) in [(&howe, "british"), (&washington, "american")]
        .into_iter()
        .enumerate()
    {
        let r = roster_of(&api, p, nation, nation).await;
        api.ok(
            p,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": side, "roster_id": r})),
        )
        .await;
    }
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let page = app.other_visitor();
    page.login("howe@example.com", PASSWORD).await;
    let force_page = format!("/campaigns/{id}/forces/f1");
    let last_turn = "last turn: no reinforcement points come after it";
    assert!(
        !page.get_html(&force_page).await.contains(last_turn),
        "turn 1 of 2 is not the last"
    );

    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    assert_eq!(f1["bank"], 15, "10, and 5 for Head of Elk");
    let html = page.get_html(&force_page).await;
    assert!(
        html.contains(last_turn),
        "the force page warns in the last turn"
    );
    // Its purchase forms carry the bank they were drawn with; one sent again after the bank
    // changed (a double click, the back button) is refused and buys nothing.
    assert!(html.contains(r#"name="bank" value="15""#), "{html}");
    // The purchase forms offer only what can be bought now (issue 18): nothing over the bank,
    // no cavalry-only upgrade (Dragoons) for this all-infantry force, nothing that costs nothing.
    let offered = |id: &str| -> Vec<String> {
        let start = html.find(&format!("id=\"{id}\"")).expect("the select");
        let end = start + html[start..].find("</select>").expect("its end");
        html[start..end]
            .split("<option ")
            .skip(1)
            .map(|o| {
                o.split('>')
                    .nth(1)
                    .unwrap_or("")
                    .split('<')
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    for id in ["upgrade-pick", "new-pick"] {
        let options = offered(id);
        assert!(!options.is_empty(), "{id} offers something: {html}");
        for o in &options {
            let cost: u32 = o
                .rsplit('(')
                .next()
                .and_then(|c| c.split(' ').next())
                .and_then(|c| c.parse().ok())
                .unwrap_or_else(|| panic!("a price in {o}"));
            assert!((1..=15).contains(&cost), "{id}: {o}");
            assert!(!o.starts_with("Dragoons "), "{id}: {o}");
        }
    }
    // A pick the form would not offer (sent by hand) is read and refused with the reason.
    let refused = page
        .post_form(
            &force_page,
            &format!("{force_page}/buy"),
            &[("buy", "upgrade"), ("pick", "e1|dragoons"), ("bank", "15")],
        )
        .await;
    assert_eq!(refused.status(), 422);
    let refused = refused.text().await.expect("body");
    assert!(refused.contains("for cavalry elements only"), "{refused}");
    let stale = page
        .post_form(
            &force_page,
            &format!("{force_page}/buy"),
            &[
                ("buy", "upgrade"),
                ("element", "e1"),
                ("upgrade", "veteran"),
                ("bank", "10"),
            ],
        )
        .await;
    assert_eq!(stale.status(), 409);
    let stale = stale.text().await.expect("body");
    assert!(
        stale.contains("The bank held 10 points when you chose this and now holds 15"),
        "{stale}"
    );
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    assert_eq!(f1["bank"], 15, "nothing was bought");
    let show = page.get_html(&format!("/campaigns/{id}")).await;
    assert!(
        show.contains("points not spent now go unused"),
        "the attention list warns too"
    );

    api.ok(&howe, "POST", &format!("/campaigns/{id}/turn/close"), None)
        .await;
    let state = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(state["phase"], "ended");
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    assert_eq!(f1["bank"], 15, "nothing came after the last turn");
    let html = page.get_html(&force_page).await;
    assert!(
        html.contains("The campaign is over: the 15 points left in the bank go unused"),
        "the force page says what became of the bank"
    );
    let log = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/log"), None)
        .await;
    let ended = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["kind"] == "ended")
        .expect("the campaign ended")
        .to_string();
    assert!(ended.contains("no reinforcement points"), "{ended}");
    let (status, body) = api
        .call(
            &howe,
            "POST",
            &format!("/campaigns/{id}/adjustments"),
            Some(json!({"force": "f1", "bank": 10, "reason": "too late"})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(body.to_string().contains("could never be spent"), "{body}");
    api.ok(
        &howe,
        "POST",
        &format!("/campaigns/{id}/adjustments"),
        Some(json!({"force": "f1", "points": 1, "reason": "a fine last march"})),
    )
    .await;
}

/// Issue 17: each log entry's words are stored when it is written, so the campaign page reads
/// only its latest entries and the log page one page at a time (100 entries, newest first),
/// with the same words the API gives for the whole log.
#[tokio::test]
async fn the_log_is_read_a_page_at_a_time_with_its_stored_words() {
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let (c, players) = four_player_campaign(&api).await;
    api.ok(
        &players[0],
        "POST",
        &format!("/campaigns/{}/start", c.id),
        None,
    )
    .await;
    for i in 0..105 {
        api.ok(
            &players[0],
            "POST",
            &format!("/campaigns/{}/adjustments", c.id),
            Some(json!({"side": 1, "points": 1, "reason": format!("tally {i:03}")})),
        )
        .await;
    }
    let log = api
        .ok(
            &players[0],
            "GET",
            &format!("/campaigns/{}/log", c.id),
            None,
        )
        .await;
    let entries = log["entries"].as_array().expect("entries");
    let total = entries.len();
    assert!(total > 105, "{total}");
    let newest = entries.last().expect("an entry")["text"]
        .as_str()
        .expect("text")
        .to_string();
    assert!(newest.contains("Reason: tally 104"), "{newest}");

    let organiser = app.other_visitor();
    organiser
        .login("howe@example.com", crate::helpers::PASSWORD)
        .await;
    let first = organiser
        .get_html(&format!("/campaigns/{}/log", c.id))
        .await;
    let pages = total.div_ceil(100);
    assert!(first.contains("Page 1<"), "{first}");
    assert!(
        first.contains(&html_escape(&newest)),
        "the newest entry leads, in the API's words"
    );
    assert!(
        !first.contains("Reason: tally 000"),
        "the oldest are on a later page"
    );
    assert!(first.contains(&format!("href=\"/campaigns/{}/log?page=2\"", c.id)));
    let last = organiser
        .get_html(&format!("/campaigns/{}/log?page={pages}", c.id))
        .await;
    assert!(last.contains("Reason: tally 000") || pages == 1);
    assert!(
        !last.contains("rel=\"next\""),
        "no older page after the last"
    );
    // Filtered by turn in the database: turn 0 holds the set-up, not the adjustments of turn 1.
    let setup = organiser
        .get_html(&format!("/campaigns/{}/log?turn=0", c.id))
        .await;
    assert!(
        !setup.contains("Reason: tally"),
        "adjustments are not turn 0"
    );

    // The campaign page shows the latest entries only.
    let page = organiser.get_html(&format!("/campaigns/{}", c.id)).await;
    assert!(page.contains("Reason: tally 104") && !page.contains("Reason: tally 050"));
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

/// The rows of the page's table (its header row left out).
fn table_rows(html: &str) -> usize {
    html.matches("<tr>").count().saturating_sub(1)
}

/// The address the page's `rel` link (`next` or `prev`) leads to, as the HTML has it.
fn rel_link(html: &str, rel: &str) -> Option<String> {
    let marker = format!("rel=\"{rel}\" href=\"");
    let rest = &html[html.find(&marker)? + marker.len()..];
    Some(
        rest[..rest.find('"')?]
            .replace("&#38;", "&")
            .replace("&amp;", "&"),
    )
}

#[tokio::test]
async fn the_campaign_list_pages_searches_and_sorts() {
    use crate::helpers::PASSWORD;
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let many = player(&app, "many@example.com").await;
    let other = player(&app, "other@example.com").await;
    let new_campaign = |name: &str| {
        json!({"name": name, "map": "philadelphia-1777", "points": 200, "turns": 3,
               "sides": ["", ""]})
    };
    // The oldest: someone else's campaign that Many plays in.
    let yorktown = api
        .ok(&other, "POST", "/campaigns", Some(new_campaign("Yorktown")))
        .await;
    let roster = roster_of(&api, &many, "Many's army", "british").await;
    api.ok(
        &many,
        "POST",
        &format!("/campaigns/{}/join", yorktown["id"]),
        Some(json!({"code": yorktown["invite_code"], "side": 0, "roster_id": roster})),
    )
    .await;
    for k in 1..=50 {
        let name = format!("Season {k:02}");
        api.ok(&many, "POST", "/campaigns", Some(new_campaign(&name)))
            .await;
    }
    for name in ["Brandywine Creek", "100%_Club"] {
        api.ok(&many, "POST", "/campaigns", Some(new_campaign(name)))
            .await;
    }
    app.login("many@example.com", PASSWORD).await;

    let first = app.get_html("/campaigns").await;
    assert!(first.contains("53 campaigns, page 1 of 2"), "{first}");
    assert_eq!(table_rows(&first), 50);
    assert_eq!(
        rel_link(&first, "next").as_deref(),
        Some("/campaigns?page=2")
    );
    assert!(rel_link(&first, "prev").is_none());
    // Newest first.
    let at = |html: &str, text: &str| html.find(text).unwrap_or_else(|| panic!("{text}"));
    assert!(at(&first, "100%_Club") < at(&first, "Brandywine Creek"));
    assert!(at(&first, "Brandywine Creek") < at(&first, "Season 50"));
    assert!(!first.contains("Season 01") && !first.contains("Yorktown"));

    let second = app.get_html("/campaigns?page=2").await;
    assert_eq!(table_rows(&second), 3);
    assert!(second.contains("53 campaigns, page 2 of 2"));
    assert_eq!(rel_link(&second, "prev").as_deref(), Some("/campaigns"));
    assert!(at(&second, "Season 01") < at(&second, "Yorktown"));
    assert!(second.contains("<td>Player</td>"), "Many plays in Yorktown");

    // A search finds part of a name in any case and keeps its text in the box.
    let found = app.get_html("/campaigns?q=bRANDY").await;
    assert!(found.contains("1 campaign found<"), "{found}");
    assert_eq!(table_rows(&found), 1);
    assert!(found.contains("Brandywine Creek") && found.contains("value=\"bRANDY\""));
    assert!(found.contains("Show all campaigns"));
    // `%` and `_` are characters, not wildcards.
    for wildcard in ["%25", "_", "0%25_c"] {
        let found = app.get_html(&format!("/campaigns?q={wildcard}")).await;
        assert_eq!(table_rows(&found), 1, "{wildcard}");
        assert!(found.contains("100%_Club"), "{wildcard}");
    }
    let none = app.get_html("/campaigns?q=s%25n").await;
    assert!(
        none.contains("None of your campaigns has a name that contains “s%n”"),
        "{none}"
    );

    // By name: A to Z, the pages keeping the order.
    let by_name = app.get_html("/campaigns?sort=name").await;
    assert!(by_name.contains("aria-sort=\"ascending\""));
    assert!(at(&by_name, "100%_Club") < at(&by_name, "Brandywine Creek"));
    assert!(at(&by_name, "Brandywine Creek") < at(&by_name, "Season 01"));
    assert!(!by_name.contains("Yorktown"), "last, on page 2");
    assert_eq!(
        rel_link(&by_name, "next").as_deref(),
        Some("/campaigns?sort=name&page=2")
    );
    let last = app.get_html("/campaigns?sort=name&page=2").await;
    assert!(last.contains("Yorktown"));

    // Bad numbers and sorts are the first page in the list's own order, never an error.
    for query in ["page=x", "page=0", "sort=turn", "page=99999999999999999999"] {
        let res = app.get(&format!("/campaigns?{query}")).await;
        assert_eq!(res.status(), 200, "{query}");
        let html = res.text().await.unwrap();
        assert!(html.contains("page 1 of 2"), "{query}");
        assert!(at(&html, "100%_Club") < at(&html, "Season 50"), "{query}");
    }
    let past = app.get_html("/campaigns?page=7").await;
    assert!(past.contains("There is no page 7: the list has 2 pages."));
    assert!(past.contains("53 campaigns<"), "not 'page 7 of 2': {past}");

    // A campaign refused comes back with the list as it was, the search kept.
    let res = app
        .post_form(
            "/campaigns",
            "/campaigns?q=brandy&sort=name",
            &[
                ("name", ""),
                ("map", "philadelphia-1777"),
                ("points", "200"),
                ("turns", "3"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let refused = res.text().await.unwrap();
    assert!(refused.contains("Give the campaign a name"), "{refused}");
    assert!(refused.contains("1 campaign found<") && refused.contains("value=\"brandy\""));
    assert!(
        refused.contains("action=\"/campaigns?q=brandy&#38;sort=name\""),
        "the form posts to the list as it is, for the next try"
    );
}

/// An order form left open from a closed turn must not order the next one: a route means a
/// different march from where the force stands now. The page's form carries its turn, and an
/// order for another turn is refused with nothing changed (on the page and in the API).
#[tokio::test]
async fn an_order_from_a_closed_turns_form_is_refused() {
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let (c, [howe, cornwallis, washington, greene]) = four_player_campaign(&api).await;
    let id = c.id;
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    assert_eq!(
        app.login("washington@example.com", crate::helpers::PASSWORD)
            .await
            .status(),
        303
    );
    let page = app.get_html(&format!("/campaigns/{id}")).await;
    assert!(
        page.contains(r#"<input type="hidden" name="turn" value="1">"#),
        "the order form carries its turn"
    );

    // Everyone holds: turn 1 closes by itself and turn 2 opens. Washington's order, the last
    // one in, goes through the page, which says that it closed the turn.
    for (p, f) in [(&howe, "f1"), (&cornwallis, "f2"), (&greene, "f4")] {
        order(&api, &c, p, f, None).await;
    }
    let last = app
        .post_form(
            &format!("/campaigns/{id}"),
            &format!("/campaigns/{id}/orders"),
            &[("order", "hold"), ("turn", "1")],
        )
        .await;
    assert_eq!(last.status(), 303);
    let back = last.headers()["location"]
        .to_str()
        .expect("location")
        .to_string();
    assert_eq!(back, format!("/campaigns/{id}?done=last_order"));
    let shown = app.get_html(&back).await;
    assert!(
        shown.contains("Your order was the last one in, so the turn has closed")
            && !shown.contains("you may change it until then"),
        "{shown}"
    );
    let now = api
        .ok(&howe, "GET", &format!("/campaigns/{id}"), None)
        .await;
    assert_eq!(now["turn"], 2, "{now}");

    // The turn-1 form, sent now, changes nothing.
    let route = route_between(&c.map, "philadelphia", "germantown");
    let path = format!("/campaigns/{id}/orders");
    let res = app
        .post_form(
            &format!("/campaigns/{id}"),
            &path,
            &[("order", &route), ("turn", "1")],
        )
        .await;
    assert_eq!(res.status(), 409);
    let html = res.text().await.expect("body");
    assert!(
        html.contains("That order was chosen for turn 1, and the campaign is now on turn 2"),
        "the page says why"
    );
    let mine = api
        .ok(&washington, "GET", &format!("/campaigns/{id}/orders"), None)
        .await;
    assert!(mine["orders"]["mine"].is_null(), "no order stored: {mine}");
    let (status, err) = api
        .call(
            &washington,
            "POST",
            &path,
            Some(json!({"force": "f3", "order": {"order": "hold"}, "turn": 1})),
        )
        .await;
    assert_eq!(status, 409, "{err}");

    // This turn's form is taken.
    let res = app
        .post_form(
            &format!("/campaigns/{id}"),
            &path,
            &[("order", &route), ("turn", "2")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let mine = api
        .ok(&washington, "GET", &format!("/campaigns/{id}/orders"), None)
        .await;
    assert_eq!(mine["orders"]["mine"]["order"], "move", "{mine}");
}

/// A force whose roster leaves its groups unnamed still shows them apart on the campaign's
/// force page: numbered, as the roster editor numbers them (the "raise a new element" choice
/// adds each group's commander).
#[tokio::test]
async fn unnamed_groups_are_numbered_on_the_force_page() {
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let howe = player(&app, "howe@example.com").await;
    let (id, code) = create_campaign(&api, &howe, "Unnamed groups", 3).await;
    let mut doc = roster("Crown", "british");
    for g in doc["groups"].as_array_mut().expect("groups") {
        g["name"] = json!("");
    }
    let r = api.ok(&howe, "POST", "/rosters", Some(doc)).await["id"]
        .as_i64()
        .expect("roster id");
    api.ok(
        &howe,
        "POST",
        &format!("/campaigns/{id}/join"),
        Some(json!({"code": code, "side": 0, "roster_id": r})),
    )
    .await;
    app.login("howe@example.com", crate::helpers::PASSWORD)
        .await;
    let html = app.get_html(&format!("/campaigns/{id}/forces/f1")).await;
    assert!(
        html.contains("<h2>Group 1</h2>") && html.contains("<h2>Group 2</h2>"),
        "groups numbered"
    );
    assert!(
        html.contains("of Group 2</caption>"),
        "the table says whose elements"
    );
}

/// Issue 18 and M-102: a player reorganises their force's groups from its page while orders are
/// open; a refused move keeps the form as sent and says why; nobody else may move their
/// elements; the API does the same.
#[tokio::test]
async fn a_player_moves_an_element_between_groups_of_their_force() {
    use crate::helpers::PASSWORD;
    let app = spawn_app().await;
    let api = Api {
        app: &app,
        http: reqwest::Client::new(),
    };
    let howe = player(&app, "howe@example.com").await;
    let washington = player(&app, "washington@example.com").await;
    let (id, code) = create_campaign(&api, &howe, "Reorganised", 2).await;
    for (side, (p, nation)) in [(&howe, "british"), (&washington, "american")]
        .into_iter()
        .enumerate()
    {
        let r = roster_of(&api, p, nation, nation).await;
        api.ok(
            p,
            "POST",
            &format!("/campaigns/{id}/join"),
            Some(json!({"code": code, "side": side, "roster_id": r})),
        )
        .await;
    }
    let page = app.other_visitor();
    page.login("howe@example.com", PASSWORD).await;
    let force_page = format!("/campaigns/{id}/forces/f1");
    assert!(
        !page
            .get_html(&force_page)
            .await
            .contains("id=\"reorganise\""),
        "before the start there are no orders open, so no form"
    );
    api.ok(&howe, "POST", &format!("/campaigns/{id}/start"), None)
        .await;
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    let groups = f1["roster"]["groups"].as_array().expect("groups").clone();
    let left = groups[0]["id"].as_str().expect("group id").to_string();
    let right = groups[1]["id"].as_str().expect("group id").to_string();
    let first = groups[0]["elements"][0]["id"]
        .as_str()
        .expect("element id")
        .to_string();
    let html = page.get_html(&force_page).await;
    assert!(html.contains("id=\"reorganise\""), "the form is offered");
    assert!(
        html.contains("british 1st (in Left)"),
        "elements are listed with their group"
    );

    let moved = page
        .post_form(
            &force_page,
            &format!("{force_page}/reorganise"),
            &[("element", &first), ("group", &right)],
        )
        .await;
    assert_eq!(moved.status(), 303);
    let html = page.get_html(&format!("{force_page}?done=moved")).await;
    assert!(html.contains("Moved: the force is reorganised"), "{html}");
    let right_table = html
        .split("<h2>Right</h2>")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the Right group's table");
    assert!(
        right_table.contains("british 1st"),
        "the element is listed under its new group"
    );
    assert!(
        html.contains("Moved british 1st from Left to Right, turn 1"),
        "its history says so"
    );
    let log = page.get_html(&format!("/campaigns/{id}/log")).await;
    assert!(
        log.contains("reorganised: british 1st from Left to Right."),
        "the log says so"
    );

    // Into the group it is in already: refused, with the form as it was sent.
    let again = page
        .post_form(
            &force_page,
            &format!("{force_page}/reorganise"),
            &[("element", &first), ("group", &right)],
        )
        .await;
    assert_eq!(again.status(), 422);
    let again = again.text().await.expect("body");
    assert!(again.contains("already"), "{again}");
    assert!(
        again.contains(&format!("<option value=\"{right}\" selected>")),
        "the chosen group stays chosen"
    );

    // Washington may not touch Howe's force, by the page or the API.
    let other = app.other_visitor();
    other.login("washington@example.com", PASSWORD).await;
    let theirs = other
        .post_form(
            &format!("/campaigns/{id}/forces/f2"),
            &format!("{force_page}/reorganise"),
            &[("element", &first), ("group", &left)],
        )
        .await;
    assert_eq!(theirs.status(), 403);
    let (status, _) = api
        .call(
            &washington,
            "POST",
            &format!("/campaigns/{id}/forces/f1/moves"),
            Some(json!({"element": first, "group": left})),
        )
        .await;
    assert_eq!(status, 403);
    // Howe moves it back through the API.
    let back = api
        .ok(
            &howe,
            "POST",
            &format!("/campaigns/{id}/forces/f1/moves"),
            Some(json!({"element": first, "group": left})),
        )
        .await;
    assert!(back.is_object());
    let f1 = api
        .ok(&howe, "GET", &format!("/campaigns/{id}/forces/f1"), None)
        .await;
    assert_eq!(
        f1["roster"]["groups"][0]["elements"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
}
