//! The OpenAPI document describes every API route, and every route it names exists.

use serde_json::{json, Value};

use crate::helpers::spawn_app;

#[tokio::test]
async fn every_api_operation_has_a_summary_and_a_description_and_exists() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.contains_key("/api/v1/auth/token") && paths.contains_key("/healthz"));
    let mut checked = 0;
    for (path, ops) in paths {
        for (method, op) in ops.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or("");
            let description = op["description"].as_str().unwrap_or("");
            assert!(!summary.trim().is_empty(), "{method} {path} has no summary");
            assert!(
                !description.trim().is_empty(),
                "{method} {path} has no description"
            );
            assert!(
                op["responses"].as_object().is_some_and(|r| !r.is_empty()),
                "{method} {path} documents no responses"
            );

            // An id that exists where ids are fixed data; a missing account answers 401 first.
            let example_id = if path.contains("historical") {
                "brandywine"
            } else {
                "1"
            };
            let concrete = path.replace("{id}", example_id);
            // A public link's token is unguessable: a made-up one is "not found" by design,
            // which the contract test below tells apart from an address that is not served.
            if path.contains("{token}") {
                continue;
            }
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let res = reqwest::Client::new()
                .request(method.clone(), app.url(&concrete))
                .send()
                .await
                .unwrap();
            assert!(
                res.status() != 404 && res.status() != 405,
                "{method} {path} is documented but not served ({})",
                res.status()
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} operations documented");
}

/// API routes must be registered through `utoipa_actix_web` (which documents them); a plain
/// `.route("/api/...")` would bypass the document. The only exception is the document itself.
#[test]
fn no_api_route_is_registered_outside_the_documented_registration() {
    let server_rs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/web/server.rs")).unwrap();
    let manual: Vec<&str> = server_rs
        .lines()
        .filter(|l| l.contains("\"/api/") || l.contains("\"/healthz"))
        .filter(|l| !l.contains("/api/v1/openapi.json"))
        .collect();
    assert!(manual.is_empty(), "undocumented API routes: {manual:?}");
}

// ---------- the document and the server agree ----------

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// A documented path with its parameters filled in.
fn concrete(path: &str) -> String {
    let mut out = String::new();
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(if segment.starts_with('{') {
            "1"
        } else {
            segment
        });
    }
    out
}

#[tokio::test]
async fn a_method_an_api_address_does_not_take_gets_405_naming_the_ones_it_does() {
    let app = spawn_app().await;
    let token = app.api_user("methods@example.org").await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    let api = reqwest::Client::new();
    let mut refused = 0;
    for (path, ops) in doc["paths"].as_object().unwrap() {
        let mut documented: Vec<String> = ops
            .as_object()
            .unwrap()
            .keys()
            .map(|m| m.to_uppercase())
            .collect();
        documented.sort();
        for method in METHODS
            .iter()
            .filter(|m| !documented.iter().any(|d| d == *m))
        {
            let res = api
                .request(
                    reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                    app.url(&concrete(path)),
                )
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 405, "{method} {path}");
            let allow = res.headers()["allow"].to_str().unwrap().to_string();
            let mut allowed: Vec<String> = allow.split(", ").map(String::from).collect();
            allowed.sort();
            assert_eq!(allowed, documented, "Allow of {method} {path}");
            let body: Value = res.json().await.unwrap();
            assert_eq!(
                body["error"]["code"], "method_not_allowed",
                "{method} {path}"
            );
            refused += 1;
        }
    }
    assert!(refused > 100, "only {refused} refusals checked");

    // A literal address is not read as an id of its neighbour (`/rosters/{id}`).
    let res = api
        .put(app.url("/api/v1/rosters/import"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "POST");
    // Addresses that do not exist are still "not found".
    for path in [
        "/api/v1/nothing-here",
        "/api/v1/rosters/1/nothing",
        "/api/v1/rosters/abc",
    ] {
        let res = api
            .get(app.url(path))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{path}");
    }
}

/// Checks `value` against a schema of the document: the parts of JSON Schema that utoipa
/// writes (types, properties, required, items, enums, oneOf/anyOf/allOf, bounds, `$ref`).
fn check(doc: &Value, schema: &Value, value: &Value, at: &str, problems: &mut Vec<String>) {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/");
        return check(
            doc,
            &doc["components"]["schemas"][name],
            value,
            at,
            problems,
        );
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            check(doc, s, value, at, problems);
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema[key].as_array() {
            let fitting = options
                .iter()
                .filter(|s| {
                    let mut p = Vec::new();
                    check(doc, s, value, at, &mut p);
                    p.is_empty()
                })
                .count();
            if fitting == 0 || (key == "oneOf" && fitting > 1) {
                problems.push(format!("{at}: {fitting} of the {key} options fit {value}"));
            }
        }
    }
    let type_of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let actual = type_of(value);
    // An integer is a number too.
    let fits = types.contains(&actual) || (actual == "integer" && types.contains(&"number"));
    if !types.is_empty() && !fits {
        problems.push(format!("{at}: {actual} where {types:?} is documented"));
        return;
    }
    if let Some(options) = schema["enum"].as_array() {
        if !options.contains(value) {
            problems.push(format!("{at}: {value} is not one of {options:?}"));
        }
    }
    if let (Some(min), Some(n)) = (schema["minimum"].as_f64(), value.as_f64()) {
        if n < min {
            problems.push(format!("{at}: {n} below the minimum {min}"));
        }
    }
    if let Value::Object(map) = value {
        for required in schema["required"].as_array().into_iter().flatten() {
            if !map.contains_key(required.as_str().unwrap()) {
                problems.push(format!("{at}: no {required}"));
            }
        }
        let properties = schema["properties"].as_object();
        for (key, v) in map {
            match properties.and_then(|p| p.get(key)) {
                Some(s) => check(doc, s, v, &format!("{at}.{key}"), problems),
                None if schema["additionalProperties"] == false => {
                    problems.push(format!("{at}: {key} is not documented"))
                }
                None => {}
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items")) {
        for (i, v) in items.iter().enumerate() {
            check(doc, s, v, &format!("{at}[{i}]"), problems);
        }
    }
}

/// Sends a request and checks that its status is documented for the operation and its JSON
/// body fits the documented schema; answers the body.
struct Contract {
    doc: Value,
    api: reqwest::Client,
    base: String,
    checked: usize,
}

impl Contract {
    async fn call(
        &mut self,
        method: &str,
        template: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        expect: u16,
    ) -> Value {
        let mut req = self.api.request(
            reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
            format!("{}{path}", self.base),
        );
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        assert_eq!(status, expect, "{method} {path}: {text}");
        let op = &self.doc["paths"][template][method.to_lowercase()];
        assert!(op.is_object(), "{method} {template} is not documented");
        let response = &op["responses"][status.to_string()];
        assert!(
            response.is_object(),
            "{method} {template} answered {status}, which is not documented"
        );
        if text.is_empty() {
            return Value::Null;
        }
        let value: Value = serde_json::from_str(&text).unwrap();
        let schema = &response["content"]["application/json"]["schema"];
        assert!(
            schema.is_object(),
            "{method} {template} {status} has no JSON schema"
        );
        let mut problems = Vec::new();
        check(&self.doc, schema, &value, "body", &mut problems);
        assert!(
            problems.is_empty(),
            "{method} {path} {status} does not fit its schema: {problems:#?}"
        );
        self.checked += 1;
        value
    }
}

fn lotf_roster(name: &str) -> Value {
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

/// Everything the roster and battle pages do, over the API, with every answer checked against
/// the document: share and unshare a roster, set up, fight, publish and read a battle publicly,
/// record a result and correct it.
#[tokio::test]
async fn what_the_pages_do_the_api_does_and_every_answer_fits_the_document() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    let token = app.api_user("contract@example.org").await;
    let t = Some(token.as_str());
    let mut c = Contract {
        doc,
        api: reqwest::Client::new(),
        base: app.url(""),
        checked: 0,
    };

    c.call("GET", "/healthz", "/healthz", None, None, 200).await;
    c.call("GET", "/api/v1/me", "/api/v1/me", t, None, 200)
        .await;
    c.call("GET", "/api/v1/me", "/api/v1/me", None, None, 401)
        .await;

    // Rosters: create, list, share, open the link, unshare, and the link is gone.
    let red = c
        .call(
            "POST",
            "/api/v1/rosters",
            "/api/v1/rosters",
            t,
            Some(lotf_roster("Red")),
            201,
        )
        .await;
    let red_id = red["id"].as_i64().unwrap();
    let green = c
        .call(
            "POST",
            "/api/v1/rosters",
            "/api/v1/rosters",
            t,
            Some(lotf_roster("Green")),
            201,
        )
        .await;
    let green_id = green["id"].as_i64().unwrap();
    c.call("GET", "/api/v1/rosters", "/api/v1/rosters", t, None, 200)
        .await;
    let one = "/api/v1/rosters/{id}";
    c.call(
        "GET",
        one,
        &format!("/api/v1/rosters/{red_id}"),
        t,
        None,
        200,
    )
    .await;
    c.call("GET", one, "/api/v1/rosters/999999", t, None, 404)
        .await;
    let share = "/api/v1/rosters/{id}/share";
    let shared = c
        .call(
            "POST",
            share,
            &format!("/api/v1/rosters/{red_id}/share"),
            t,
            None,
            200,
        )
        .await;
    let link = shared["share_url"]
        .as_str()
        .expect("a share link")
        .to_string();
    let link_path = &link[link.find("/shared/").expect("a /shared/ link")..];
    assert_eq!(app.get(link_path).await.status(), 200, "the link opens");
    let unshared = c
        .call(
            "DELETE",
            share,
            &format!("/api/v1/rosters/{red_id}/share"),
            t,
            None,
            200,
        )
        .await;
    assert!(unshared.get("share_url").is_none());
    assert_eq!(app.get(link_path).await.status(), 404, "the link is gone");
    // Another user's roster cannot be shared.
    let other = app.api_user("other@example.org").await;
    c.call(
        "POST",
        share,
        &format!("/api/v1/rosters/{red_id}/share"),
        Some(&other),
        None,
        404,
    )
    .await;

    // A battle against a guest, fought by the simulator, made public.
    let set_up = json!({"first": format!("r:{red_id}"), "second": format!("r:{green_id}"),
                        "second_player": "Guest Gus", "scenario": "take_the_field"});
    let battle = c
        .call(
            "POST",
            "/api/v1/battles",
            "/api/v1/battles",
            t,
            Some(set_up.clone()),
            201,
        )
        .await;
    let id = battle["id"].as_i64().unwrap();
    c.call(
        "POST",
        "/api/v1/battles",
        "/api/v1/battles",
        t,
        Some(json!({"first": "r:999999", "second": format!("r:{green_id}")})),
        404,
    )
    .await;
    c.call(
        "POST",
        "/api/v1/battles",
        "/api/v1/battles",
        t,
        Some(json!({"first": "h:nowhere", "second": format!("r:{green_id}")})),
        422,
    )
    .await;
    let publish = "/api/v1/battles/{id}/publish";
    c.call(
        "POST",
        publish,
        &format!("/api/v1/battles/{id}/publish"),
        t,
        None,
        409,
    )
    .await;
    let fought = c
        .call(
            "POST",
            "/api/v1/battles/{id}/simulate",
            &format!("/api/v1/battles/{id}/simulate"),
            t,
            Some(json!({"version": 1})),
            200,
        )
        .await;
    assert_eq!(fought["status"], "confirmed");
    assert!(fought["public_url"].is_null(), "not public until published");
    let published = c
        .call(
            "POST",
            publish,
            &format!("/api/v1/battles/{id}/publish"),
            t,
            None,
            200,
        )
        .await;
    let public_url = published["public_url"].as_str().expect("a public link");
    let token_part = public_url.rsplit('/').next().unwrap();
    let public = "/api/v1/battles/public/{token}";
    let seen = c
        .call(
            "GET",
            public,
            &format!("/api/v1/battles/public/{token_part}"),
            None,
            None,
            200,
        )
        .await;
    assert_eq!(seen["id"], id);
    assert!(
        seen["public_url"].is_null(),
        "the public view does not hand out links"
    );
    c.call(
        "GET",
        public,
        "/api/v1/battles/public/not-a-real-token-at-all",
        None,
        None,
        404,
    )
    .await;
    // A simulated result is not a recorded one: there is nothing to correct.
    let correct = "/api/v1/battles/{id}/correct";
    c.call(
        "POST",
        correct,
        &format!("/api/v1/battles/{id}/correct"),
        t,
        Some(json!({"version": fought["version"]})),
        409,
    )
    .await;
    let list = c
        .call("GET", "/api/v1/battles", "/api/v1/battles", t, None, 200)
        .await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));

    // A tabletop result against a guest stands at once; a correction is a new battle to record.
    let battle = c
        .call(
            "POST",
            "/api/v1/battles",
            "/api/v1/battles",
            t,
            Some(set_up),
            201,
        )
        .await;
    let id = battle["id"].as_i64().unwrap();
    let setup = c
        .call(
            "GET",
            "/api/v1/battles/{id}/setup",
            &format!("/api/v1/battles/{id}/setup"),
            t,
            None,
            200,
        )
        .await;
    let mut elements = Vec::new();
    for side in ["attacker", "defender"] {
        for g in setup[side]["roster"]["groups"].as_array().unwrap() {
            for e in g["elements"].as_array().unwrap() {
                elements.push(json!({"side": side, "id": e["id"], "state": "fit", "hits": 0}));
            }
        }
    }
    let recorded = c
        .call(
            "POST",
            "/api/v1/battles/{id}/record",
            &format!("/api/v1/battles/{id}/record"),
            t,
            Some(json!({"version": battle["version"],
                          "report": {"turns_played": 6, "elements": elements}})),
            200,
        )
        .await;
    assert_eq!(recorded["status"], "confirmed");
    assert_eq!(recorded["single_party"], true);
    let correction = c
        .call(
            "POST",
            correct,
            &format!("/api/v1/battles/{id}/correct"),
            t,
            Some(json!({"version": recorded["version"]})),
            201,
        )
        .await;
    assert_eq!(correction["replaces_id"], id);
    assert_eq!(correction["status"], "set_up");
    // The same correction twice: the version moved on.
    c.call(
        "POST",
        correct,
        &format!("/api/v1/battles/{id}/correct"),
        t,
        Some(json!({"version": recorded["version"]})),
        409,
    )
    .await;
    // Well-formed JSON of the wrong shape is 422; broken JSON would be 400.
    c.call(
        "POST",
        correct,
        &format!("/api/v1/battles/{id}/correct"),
        t,
        Some(json!({"version": "two"})),
        422,
    )
    .await;

    // A campaign, read every way a member reads it.
    c.call(
        "GET",
        "/api/v1/campaigns/presets",
        "/api/v1/campaigns/presets",
        None,
        None,
        200,
    )
    .await;
    let campaign = c
        .call(
            "POST",
            "/api/v1/campaigns",
            "/api/v1/campaigns",
            t,
            Some(json!({"name": "Contract", "map": "philadelphia-1777", "points": 150})),
            201,
        )
        .await;
    let cid = campaign["id"].as_i64().unwrap();
    c.call(
        "GET",
        "/api/v1/campaigns",
        "/api/v1/campaigns",
        t,
        None,
        200,
    )
    .await;
    for (template, tail) in [
        ("/api/v1/campaigns/{id}", ""),
        ("/api/v1/campaigns/{id}/map", "/map"),
        ("/api/v1/campaigns/{id}/orders", "/orders"),
        ("/api/v1/campaigns/{id}/battles", "/battles"),
        ("/api/v1/campaigns/{id}/standings", "/standings"),
        ("/api/v1/campaigns/{id}/log", "/log"),
        ("/api/v1/campaigns/{id}/audit", "/audit"),
    ] {
        c.call(
            "GET",
            template,
            &format!("/api/v1/campaigns/{cid}{tail}"),
            t,
            None,
            200,
        )
        .await;
        c.call(
            "GET",
            template,
            &format!("/api/v1/campaigns/{cid}{tail}"),
            Some(&other),
            None,
            404,
        )
        .await;
    }
    // Joining with the code alone, as the page does.
    let join = "/api/v1/campaigns/join";
    let code = campaign["invite_code"]
        .as_str()
        .expect("the organiser sees the code");
    c.call(
        "POST",
        join,
        join,
        Some(&other),
        Some(json!({"code": "NO-SUCH-CODE", "side": 0, "roster_id": red_id})),
        404,
    )
    .await;
    c.call(
        "POST",
        join,
        join,
        Some(&other),
        Some(json!({"code": code, "side": 0, "roster_id": red_id})),
        422,
    )
    .await;
    c.call(
        "POST",
        "/api/v1/campaigns/{id}/start",
        &format!("/api/v1/campaigns/{cid}/start"),
        t,
        None,
        409,
    )
    .await;

    // Exact odds need no login; a battle fought by the simulator does.
    c.call(
        "POST",
        "/api/v1/lotf/odds/shooting",
        "/api/v1/lotf/odds/shooting",
        None,
        Some(json!({"shooter": {"type": "infantry", "size": "large"},
                       "target": {"type": "infantry", "size": "medium"}, "range_inches": 2})),
        200,
    )
    .await;
    c.call(
        "POST",
        "/api/v1/lotf/odds/morale",
        "/api/v1/lotf/odds/morale",
        None,
        Some(json!({"morale": 7, "kind": "discipline"})),
        200,
    )
    .await;
    c.call(
        "POST",
        "/api/v1/lotf/odds/melee",
        "/api/v1/lotf/odds/melee",
        None,
        Some(json!({"attacker": {"type": "infantry", "size": "medium"},
                       "defender": {"type": "infantry", "size": "medium"}})),
        200,
    )
    .await;
    let fight = json!({"attacker": lotf_roster("Red"), "defender": lotf_roster("Green"),
                       "scenario": "take_the_field", "seed": 7, "narrate": false});
    let sim = "/api/v1/lotf/battles/simulate";
    c.call("POST", sim, sim, None, Some(fight.clone()), 401)
        .await;
    c.call("POST", sim, sim, t, Some(fight), 200).await;
    assert!(c.checked >= 45, "only {} answers checked", c.checked);
}

/// Invitations over the API, every answer checked against the document: accept, decline,
/// withdraw, and the refusals (not the invitee, nothing to answer, already accepted).
#[tokio::test]
async fn invitation_answers_fit_the_document() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/v1/openapi.json").await.json().await.unwrap();
    let token = app.api_user("inviter@example.org").await;
    let invitee = app.api_user("invitee@example.org").await;
    let (t, i) = (Some(token.as_str()), Some(invitee.as_str()));
    let mut c = Contract {
        doc,
        api: reqwest::Client::new(),
        base: app.url(""),
        checked: 0,
    };
    let mut rosters = Vec::new();
    for name in ["Red", "Green"] {
        let r = c
            .call(
                "POST",
                "/api/v1/rosters",
                "/api/v1/rosters",
                t,
                Some(lotf_roster(name)),
                201,
            )
            .await;
        rosters.push(r["id"].as_i64().unwrap());
    }
    let set_up = json!({"first": format!("r:{}", rosters[0]), "second": format!("r:{}", rosters[1]),
                        "second_player": "invitee@example.org", "scenario": "take_the_field"});
    let (accept, decline, one) = (
        "/api/v1/battles/{id}/accept",
        "/api/v1/battles/{id}/decline",
        "/api/v1/battles/{id}",
    );

    let battle = c
        .call(
            "POST",
            "/api/v1/battles",
            "/api/v1/battles",
            t,
            Some(set_up.clone()),
            201,
        )
        .await;
    let id = battle["id"].as_i64().unwrap();
    let version = json!({"version": battle["version"]});
    let path = |tail: &str| format!("/api/v1/battles/{id}{tail}");
    c.call(
        "POST",
        accept,
        &path("/accept"),
        t,
        Some(version.clone()),
        403,
    )
    .await;
    c.call("DELETE", one, &path(""), i, None, 403).await;
    c.call(
        "POST",
        accept,
        &path("/accept"),
        i,
        Some(version.clone()),
        200,
    )
    .await;
    c.call(
        "POST",
        accept,
        &path("/accept"),
        i,
        Some(version.clone()),
        409,
    )
    .await;
    c.call("DELETE", one, &path(""), t, None, 409).await;

    let battle = c
        .call(
            "POST",
            "/api/v1/battles",
            "/api/v1/battles",
            t,
            Some(set_up.clone()),
            201,
        )
        .await;
    let id = battle["id"].as_i64().unwrap();
    let version = json!({"version": battle["version"]});
    let path = |tail: &str| format!("/api/v1/battles/{id}{tail}");
    let declined = c
        .call(
            "POST",
            decline,
            &path("/decline"),
            i,
            Some(version.clone()),
            200,
        )
        .await;
    assert_eq!(declined["invitation"]["state"], "declined");
    c.call("POST", decline, &path("/decline"), i, Some(version), 404)
        .await;
    c.call("DELETE", one, &path(""), t, None, 204).await;
    c.call("DELETE", one, &path(""), t, None, 404).await;
}
