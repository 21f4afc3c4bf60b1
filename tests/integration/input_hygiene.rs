//! Input limits and hygiene (issue 15, item 4): control characters refused with a field error,
//! body size and read deadlines, display names, links that a forged header cannot redirect,
//! and battle set-up that does not tell who has an account.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{
    client, csrf_from, location, test_config, TempDir, TestDb, Visitor, PASSWORD,
};
use muster::config::Config;
use muster::rules::Systems;
use muster::web::Application;

/// A server with a changed configuration (the body deadline, the public URL, the proxy).
struct CustomApp {
    visitor: Visitor,
    port: u16,
    _db: TestDb,
    _data: TempDir,
}

impl std::ops::Deref for CustomApp {
    type Target = Visitor;
    fn deref(&self) -> &Visitor {
        &self.visitor
    }
}

async fn spawn_with(change: impl FnOnce(&mut Config)) -> CustomApp {
    let db = TestDb::create();
    let data = TempDir::new("data");
    let mut config = test_config(db.url(), &data.0);
    change(&mut config);
    let app = Application::build_with_rules(&config, Systems::builtin().expect("rules"))
        .expect("the application starts");
    let port = app.port();
    tokio::spawn(app.run_until_stopped());
    CustomApp {
        visitor: Visitor {
            address: format!("http://127.0.0.1:{port}"),
            client: client(),
        },
        port,
        _db: db,
        _data: data,
    }
}

async fn spawn() -> CustomApp {
    spawn_with(|_| {}).await
}

/// Creates an empty roster through the page and returns its id.
async fn new_roster(v: &Visitor, name: &str) -> i64 {
    let res = v
        .post_form(
            "/rosters",
            "/rosters",
            &[
                ("name", name),
                ("war", "american_revolution"),
                ("nation", "american"),
                ("points_limit", "150"),
                ("mode", "standard"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "create roster");
    location(&res)
        .trim_start_matches("/rosters/")
        .trim_end_matches("/edit")
        .parse()
        .expect("roster id in the redirect")
}

async fn json_of(res: reqwest::Response) -> Value {
    res.json().await.expect("a JSON body")
}

// ---------- control characters ----------

#[tokio::test]
async fn nul_in_a_form_field_is_a_field_error_even_at_login_with_no_account() {
    let app = spawn().await;
    let res = app
        .login("nobody\0@example.org", "some password here")
        .await;
    assert_eq!(res.status(), 422, "the login e-mail with a NUL");
    let page = res.text().await.unwrap();
    assert!(page.contains("email:"), "the field is named: {page}");
    assert!(page.contains("control character"), "{page}");

    let res = app.register("nul@example.org", "Ne\0y", PASSWORD).await;
    assert_eq!(res.status(), 422, "a display name with a NUL");
    // Nothing was stored: the address can still register.
    let res = app.register("nul@example.org", "Ney", PASSWORD).await;
    assert_eq!(
        res.status(),
        303,
        "the same address registers without the NUL"
    );

    // Other control characters too; line breaks and tabs pass the check (a tab in a name is
    // then made a space).
    let stranger = Visitor {
        address: app.address.clone(),
        client: client(),
    };
    let res = stranger
        .register("bell@example.org", "Ring\u{7}", PASSWORD)
        .await;
    assert_eq!(res.status(), 422, "a BEL character");
}

#[tokio::test]
async fn nul_in_json_the_query_or_the_path_is_refused() {
    let app = spawn().await;
    let res = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .json(&json!({"email": "ghost\u{0}@example.org", "password": "whatever-password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422, "token request with a NUL e-mail");
    let body = json_of(res).await;
    assert_eq!(body["error"]["code"], "validation_failed");
    assert_eq!(body["error"]["details"][0]["field"], "$.email");

    let res = app
        .client
        .post(app.url("/api/v1/users"))
        .json(&json!({"email": "x@example.org", "display_name": "a\u{0}b", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422, "API registration");

    let res = app.get("/rosters?system=%00").await;
    assert_eq!(res.status(), 422, "a NUL in the query string");
    let res = app.get("/shared/abc%00def").await;
    assert_eq!(res.status(), 422, "a NUL in a path parameter");
    let res = app.get("/api/v1/rosters/1%00").await;
    assert_eq!(res.status(), 422, "a NUL in an API path");
    assert_eq!(json_of(res).await["error"]["details"][0]["field"], "path");
}

#[tokio::test]
async fn nul_inside_an_imported_roster_document_is_refused_but_line_breaks_pass() {
    let app = spawn().await;
    app.register("importer@example.org", "Importer", PASSWORD)
        .await;
    let id = new_roster(&app, "Original").await;
    let exported = app.get_html(&format!("/rosters/{id}/export.json")).await;
    let mut document: Value = serde_json::from_str(&exported).expect("exported JSON");
    let pretty = serde_json::to_string_pretty(&document).unwrap();
    assert!(pretty.contains('\n'));
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &pretty)],
        )
        .await;
    assert_eq!(res.status(), 303, "a multi-line document imports");

    document["name"] = json!("Poisoned\u{0}name");
    let poisoned = serde_json::to_string(&document).unwrap();
    assert!(
        poisoned.contains("\\u0000"),
        "the NUL travels as a JSON escape"
    );
    let res = app
        .post_form(
            "/rosters/import",
            "/rosters/import",
            &[("document", &poisoned)],
        )
        .await;
    assert_eq!(res.status(), 422, "the import page refuses it");
    let page = res.text().await.unwrap();
    assert!(page.contains("control character"), "{page}");

    let token = app.api_token("importer@example.org", PASSWORD).await;
    let res = app
        .client
        .post(app.url("/api/v1/rosters/import"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(poisoned)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422, "the API refuses it");
    assert_eq!(json_of(res).await["error"]["details"][0]["field"], "$.name");
}

// ---------- body size and read deadline ----------

#[tokio::test]
async fn a_body_that_stalls_is_answered_408_and_the_connection_closed() {
    let app = spawn_with(|c| c.body_timeout = Duration::from_secs(1)).await;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", app.port))
        .await
        .expect("connect");
    let head = "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n\
                email=slow";
    stream.write_all(head.as_bytes()).await.unwrap();
    // The rest of the body never comes. The server must answer and close on its own; the outer
    // limit only keeps a broken server from hanging the test suite.
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the server closed the connection");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");

    // The server still serves everyone else.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

fn multipart(boundary: &str, token: &str, file: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{token}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.json\"\r\n\
         Content-Type: application/json\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

#[tokio::test]
async fn an_oversized_upload_gets_413_with_a_friendly_page() {
    let app = spawn().await;
    app.register("big@example.org", "Big", PASSWORD).await;
    let token = csrf_from(&app.get_html("/rosters/import").await);
    let boundary = "muster-test-boundary";
    let big = vec![b' '; 3 * 1024 * 1024];
    let res = app
        .client
        .post(app.url("/rosters/import"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(multipart(boundary, &token, &big))
        .send()
        .await
        .expect("the server answers instead of dropping the connection");
    assert_eq!(res.status(), 413);
    let page = res.text().await.unwrap();
    assert!(page.contains("larger than 2 MB"), "{page}");

    // A NUL byte in an uploaded file is refused like one in a form field.
    let res = app
        .client
        .post(app.url("/rosters/import"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(multipart(boundary, &token, b"{\"name\": \"a\0b\"}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);

    // Any other body over the global limit: the JSON shape under /api/.
    let res = app
        .client
        .post(app.url("/api/v1/auth/token"))
        .header("content-type", "application/json")
        .body(vec![b' '; 3 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    assert_eq!(json_of(res).await["error"]["code"], "payload_too_large");
}

// ---------- links ----------

/// The share link shown on a shared roster's page, asked for with extra headers.
async fn share_link(app: &CustomApp, headers: &[(&str, &str)]) -> String {
    app.register("linker@example.org", "Linker", PASSWORD).await;
    let id = new_roster(app, "Linked").await;
    let res = app
        .post_form(
            &format!("/rosters/{id}"),
            &format!("/rosters/{id}/share"),
            &[],
        )
        .await;
    assert_eq!(res.status(), 303);
    let mut request = app.client.get(app.url(&format!("/rosters/{id}")));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let page = request.send().await.unwrap().text().await.unwrap();
    let end = page.find("/shared/").expect("a share link");
    let start = page[..end].rfind('"').expect("link in an attribute") + 1;
    page[start..end].to_string()
}

const FORGED: [(&str, &str); 3] = [
    ("x-forwarded-host", "evil.example"),
    ("x-forwarded-proto", "https"),
    ("forwarded", "host=evil.example;proto=https"),
];

#[tokio::test]
async fn a_forged_forwarded_host_never_reaches_a_share_link() {
    let app = spawn().await;
    let base = share_link(&app, &FORGED).await;
    assert_eq!(base, format!("http://127.0.0.1:{}", app.port));
}

#[tokio::test]
async fn forwarded_headers_count_only_from_the_trusted_proxy_or_not_at_all_with_a_public_url() {
    let app = spawn_with(|c| c.trusted_proxy = Some("127.0.0.1".parse().unwrap())).await;
    let base = share_link(&app, &FORGED[..2]).await;
    assert_eq!(base, "https://evil.example", "the proxy is believed");

    let app = spawn_with(|c| c.trusted_proxy = Some("10.9.8.7".parse().unwrap())).await;
    let base = share_link(&app, &FORGED[..2]).await;
    assert_eq!(
        base,
        format!("http://127.0.0.1:{}", app.port),
        "another peer is not"
    );

    let app = spawn_with(|c| {
        c.public_url = Some("http://muster.example.org".into());
        c.trusted_proxy = Some("127.0.0.1".parse().unwrap());
    })
    .await;
    let base = share_link(&app, &FORGED).await;
    assert_eq!(base, "http://muster.example.org");
}

// ---------- display names ----------

async fn api_register(app: &CustomApp, email: &str, name: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/v1/users"))
        .json(&json!({"email": email, "display_name": name, "password": PASSWORD}))
        .send()
        .await
        .unwrap()
}

async fn my_name(app: &CustomApp, token: &str) -> String {
    let me = json_of(
        app.client
            .get(app.url("/api/v1/me"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap(),
    )
    .await;
    me["display_name"].as_str().expect("a name").to_string()
}

#[tokio::test]
async fn display_names_are_normalised_and_unique_without_case() {
    let app = spawn().await;
    // "e" + combining accent, a zero-width space, a right-to-left override, odd spacing.
    let res = api_register(
        &app,
        "jose@example.org",
        "  Jose\u{301}\u{200B}   da\tSil\u{202E}va ",
    )
    .await;
    assert_eq!(res.status(), 201);
    let token = app.api_token("jose@example.org", PASSWORD).await;
    assert_eq!(my_name(&app, &token).await, "Jos\u{e9} da Silva");

    // The same name in other case (and decomposed again) is taken, on the API and the page.
    let res = api_register(&app, "copy@example.org", "JOSE\u{301} DA SILVA").await;
    assert_eq!(res.status(), 422);
    let body = json_of(res).await;
    assert_eq!(body["error"]["details"][0]["field"], "display_name");
    assert_eq!(
        body["error"]["details"][0]["message"],
        "That name is taken by another player."
    );
    let res = app
        .register("copy@example.org", "jos\u{e9} da silva", PASSWORD)
        .await;
    assert_eq!(res.status(), 422);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("That name is taken by another player."));

    // Renaming to someone else's name is refused; changing the case of one's own is not.
    let res = api_register(&app, "ney@example.org", "Ney").await;
    assert_eq!(res.status(), 201);
    let ney = app.api_token("ney@example.org", PASSWORD).await;
    let rename = |name: &'static str| {
        app.client
            .patch(app.url("/api/v1/me"))
            .bearer_auth(&ney)
            .json(&json!({ "display_name": name }))
            .send()
    };
    assert_eq!(rename("JOSÉ DA SILVA").await.unwrap().status(), 422);
    assert_eq!(
        rename("\u{200B}\u{2066}").await.unwrap().status(),
        422,
        "nothing left"
    );
    assert_eq!(rename("NEY").await.unwrap().status(), 200);
    assert_eq!(my_name(&app, &ney).await, "NEY");

    // Without a name, the default from the e-mail finds a free one.
    for email in ["ney@elsewhere.org", "NEY@third.org"] {
        let res = app
            .client
            .post(app.url("/api/v1/users"))
            .json(&json!({"email": email, "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{email}");
    }
    let second = app.api_token("ney@elsewhere.org", PASSWORD).await;
    let third = app.api_token("ney@third.org", PASSWORD).await;
    let (second, third) = (my_name(&app, &second).await, my_name(&app, &third).await);
    assert_ne!(second.to_lowercase(), "ney");
    assert_ne!(second.to_lowercase(), third.to_lowercase());
}

// ---------- battle set-up: no probing of accounts, no flood of battles ----------

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

async fn api_roster(app: &CustomApp, token: &str, name: &str) -> i64 {
    let res = app
        .client
        .post(app.url("/api/v1/rosters"))
        .bearer_auth(token)
        .json(&roster_document(name))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "roster created");
    json_of(res).await["id"].as_i64().expect("an id")
}

async fn api_battle(
    app: &CustomApp,
    token: &str,
    rosters: (i64, i64),
    opponent: &str,
) -> reqwest::Response {
    app.client
        .post(app.url("/api/v1/battles"))
        .bearer_auth(token)
        .json(
            &json!({"first": format!("r:{}", rosters.0), "second": format!("r:{}", rosters.1),
                      "second_player": opponent, "scenario": "take_the_field"}),
        )
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_unknown_email_gets_the_same_answer_as_a_known_one() {
    let app = spawn().await;
    let token = app.api_user("setter@example.org").await;
    app.api_user("known@example.org").await;
    let rosters = (
        api_roster(&app, &token, "Red").await,
        api_roster(&app, &token, "Blue").await,
    );
    let known = api_battle(&app, &token, rosters, "known@example.org").await;
    let unknown = api_battle(&app, &token, rosters, "nobody-here@example.org").await;
    assert_eq!(known.status(), 201);
    assert_eq!(unknown.status(), 201, "no 'no account has that email'");
    let unknown_id = json_of(unknown).await["id"].as_i64().expect("an id");

    // The same through the page, which shows the invitation without the address.
    let page_user = Visitor {
        address: app.address.clone(),
        client: client(),
    };
    page_user.login("setter@example.org", PASSWORD).await;
    let shown = page_user.get_html(&format!("/battles/{unknown_id}")).await;
    assert!(shown.contains("invited: n…@example.org"), "{shown}");
    assert!(!shown.contains("nobody-here"), "the address is not shown");
    for opponent in ["known@example.org", "nobody-here@example.org"] {
        let res = page_user
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
        assert_eq!(res.status(), 303, "{opponent}");
        assert!(location(&res).starts_with("/battles/"), "{opponent}");
    }
}

#[tokio::test]
async fn battles_pushed_on_other_players_are_capped_and_setting_up_is_throttled() {
    let app = spawn().await;
    let token = app.api_user("pusher@example.org").await;
    app.api_user("victim@example.org").await;
    let rosters = (
        api_roster(&app, &token, "Red").await,
        api_roster(&app, &token, "Blue").await,
    );
    for n in 0..20 {
        let res = api_battle(&app, &token, rosters, "victim@example.org").await;
        assert_eq!(res.status(), 201, "battle {n} against another player");
    }
    let res = api_battle(&app, &token, rosters, "victim@example.org").await;
    assert_eq!(
        res.status(),
        422,
        "the 21st open battle against other players"
    );
    let body = json_of(res).await;
    assert!(
        body["error"]["details"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("20 battles"),
        "{body}"
    );
    // Battles with guests are not capped like that, but the hourly throttle holds.
    let mut created = 20;
    let answer = loop {
        let res = api_battle(&app, &token, rosters, "Uncle Bob").await;
        if res.status() != 201 || created > 100 {
            break res;
        }
        created += 1;
    };
    assert_eq!(answer.status(), 429);
    assert!(answer.headers().contains_key("retry-after"));
    let body: serde_json::Value = answer.json().await.expect("json");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("60 battles in the last hour")),
        "{body}"
    );
    assert_eq!(created, 60, "sixty battles an hour");
}

// ---------- the last line of defence ----------

#[test]
fn a_nul_that_reaches_the_database_is_a_field_error_not_a_server_error() {
    use muster::store::{self, users};
    let db = TestDb::create();
    let data = TempDir::new("data");
    let config = test_config(db.url(), &data.0);
    let pool = store::connect(&config.database, 1).expect("pool");
    let mut conn = pool.get().expect("connection");
    store::run_migrations(&mut conn).expect("migrations");
    let stored = users::create(
        &mut conn,
        users::NewUser {
            email: "raw@example.org",
            display_name: "Ne\0y",
            display_key: "ne\0y",
            password_hash: "not-a-real-hash",
            is_admin: false,
        },
    );
    match stored {
        // SQLite stores it; only PostgreSQL refuses.
        Ok(_) => assert!(!db.is_postgres(), "PostgreSQL took a NUL"),
        Err(users::CreateUserError::Db(e)) => {
            let error = muster::app::Error::from(e);
            assert!(
                matches!(error, muster::app::Error::Validation { .. }),
                "{error:?}"
            );
        }
        Err(other) => panic!("{other:?}"),
    }
}
