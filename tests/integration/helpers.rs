//! The test harness: a real server on a free port with a fresh database per test (SQLite, or
//! PostgreSQL when `MUSTER_TEST_POSTGRES_URL` is set), driven over HTTP.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use diesel::connection::SimpleConnection;
use diesel::Connection;
use muster::config::Config;
use muster::rules::Systems;
use muster::store::{self, DbPool};
use muster::web::Application;

pub const TEST_SECRET: &str = "integration-test-secret-0123456789abcdef";
pub const PASSWORD: &str = "correct horse battery";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh scratch directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(label: &str) -> Self {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "muster-{label}-{}-{n}-{}",
            std::process::id(),
            rand_suffix()
        ));
        std::fs::create_dir_all(&path).expect("create temp dir");
        Self(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rand_suffix() -> String {
    muster::app::dice::random_token(6)
        .to_lowercase()
        .replace(['-', '_'], "x")
}

/// The database of one test; a PostgreSQL database is dropped afterwards.
pub enum TestDb {
    Sqlite {
        _dir: TempDir,
        url: String,
    },
    Postgres {
        admin_url: String,
        name: String,
        url: String,
    },
}

impl TestDb {
    pub fn create() -> Self {
        match std::env::var("MUSTER_TEST_POSTGRES_URL")
            .ok()
            .filter(|u| !u.is_empty())
        {
            Some(admin_url) => {
                let name = format!("muster_test_{}_{}", std::process::id(), rand_suffix());
                let mut admin = diesel::PgConnection::establish(&admin_url)
                    .unwrap_or_else(|e| panic!("MUSTER_TEST_POSTGRES_URL does not connect: {e}"));
                admin
                    .batch_execute(&format!("CREATE DATABASE {name}"))
                    .expect("create test database");
                let url = with_database(&admin_url, &name);
                TestDb::Postgres {
                    admin_url,
                    name,
                    url,
                }
            }
            None => {
                let dir = TempDir::new("db");
                let url = dir.0.join("muster.db").to_string_lossy().into_owned();
                TestDb::Sqlite { _dir: dir, url }
            }
        }
    }

    pub fn url(&self) -> &str {
        match self {
            TestDb::Sqlite { url, .. } | TestDb::Postgres { url, .. } => url,
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, TestDb::Postgres { .. })
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let TestDb::Postgres {
            admin_url, name, ..
        } = self
        {
            if let Ok(mut admin) = diesel::PgConnection::establish(admin_url) {
                let _ =
                    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}

/// Replaces the database name of a PostgreSQL URL.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

pub fn test_config(database_url: &str, data_dir: &std::path::Path) -> Config {
    let vars: HashMap<&str, String> = HashMap::from([
        ("MUSTER_BIND", "127.0.0.1:0".to_string()),
        ("DATABASE_URL", database_url.to_string()),
        ("MUSTER_DATA_DIR", data_dir.to_string_lossy().into_owned()),
        ("MUSTER_JWT_SECRET", TEST_SECRET.to_string()),
        ("MUSTER_LOG", "warn".to_string()),
    ]);
    Config::from_lookup(|k| vars.get(k).cloned()).expect("test config")
}

pub struct TestApp {
    pub visitor: Visitor,
    pub config: Config,
    pub db: TestDb,
    _data: TempDir,
}

impl std::ops::Deref for TestApp {
    type Target = Visitor;
    fn deref(&self) -> &Visitor {
        &self.visitor
    }
}

/// One browser-like client: keeps cookies and does not follow redirects.
pub struct Visitor {
    pub address: String,
    pub client: reqwest::Client,
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("http client")
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with_rules(Systems::builtin().expect("built-in rules data")).await
}

/// A server with the given rules data, e.g. a modified catalogue.
pub async fn spawn_app_with_rules(rules: Systems) -> TestApp {
    let db = TestDb::create();
    let data = TempDir::new("data");
    let config = test_config(db.url(), &data.0);
    let app = Application::build_with_rules(&config, rules).expect("the application starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    TestApp {
        visitor: Visitor {
            address,
            client: client(),
        },
        config,
        db,
        _data: data,
    }
}

/// The `csrf_token` value of the first form (or the meta tag) on a page.
pub fn csrf_from(html: &str) -> String {
    for marker in [
        "name=\"csrf_token\" value=\"",
        "name=\"csrf-token\" content=\"",
    ] {
        if let Some(start) = html.find(marker) {
            let rest = &html[start + marker.len()..];
            if let Some(end) = rest.find('"') {
                return rest[..end].to_string();
            }
        }
    }
    panic!("no CSRF token on the page:\n{html}");
}

impl TestApp {
    pub fn pool(&self) -> DbPool {
        store::connect(&self.config.database, 2).expect("test pool")
    }

    /// A second visitor with their own cookies.
    pub fn other_visitor(&self) -> Visitor {
        Visitor {
            address: self.address.clone(),
            client: client(),
        }
    }

    pub fn make_admin(&self, email: &str) {
        let pool = self.pool();
        let mut conn = pool.get().expect("conn");
        let user = store::users::find_by_email(&mut conn, email)
            .expect("query")
            .expect("user exists");
        store::users::set_admin(&mut conn, user.id, true).expect("set admin");
    }
}

impl Visitor {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("GET")
    }

    pub async fn get_html(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("body")
    }

    /// Posts a form with the CSRF token taken from `token_page`.
    pub async fn post_form(
        &self,
        token_page: &str,
        path: &str,
        fields: &[(&str, &str)],
    ) -> reqwest::Response {
        let token = csrf_from(&self.get_html(token_page).await);
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf_token", &token));
        self.client
            .post(self.url(path))
            .form(&all)
            .send()
            .await
            .expect("POST")
    }

    pub async fn register(&self, email: &str, name: &str, password: &str) -> reqwest::Response {
        self.post_form(
            "/register",
            "/register",
            &[
                ("email", email),
                ("display_name", name),
                ("password", password),
            ],
        )
        .await
    }

    pub async fn login(&self, email: &str, password: &str) -> reqwest::Response {
        self.post_form(
            "/login",
            "/login",
            &[("email", email), ("password", password)],
        )
        .await
    }

    pub async fn logout(&self) -> reqwest::Response {
        self.post_form("/", "/logout", &[]).await
    }

    pub async fn api_token(&self, email: &str, password: &str) -> String {
        let res = self
            .client
            .post(self.url("/api/v1/auth/token"))
            .json(&serde_json::json!({"email": email, "password": password}))
            .send()
            .await
            .expect("token request");
        assert_eq!(res.status(), 200, "token for {email}");
        let body: serde_json::Value = res.json().await.expect("json");
        body["token"].as_str().expect("token").to_string()
    }

    /// Registers through the API (no cookies) and returns a bearer token.
    pub async fn api_user(&self, email: &str) -> String {
        let res = reqwest::Client::new()
            .post(self.url("/api/v1/users"))
            .json(&serde_json::json!({"email": email, "password": PASSWORD}))
            .send()
            .await
            .expect("register");
        assert_eq!(res.status(), 201, "register {email}");
        self.api_token(email, PASSWORD).await
    }
}

pub fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// A server on an existing database with extra settings (a second server on the same
/// database, or one started again after another stopped); its data directory is returned so it
/// lives as long as the server.
pub async fn spawn_server(database_url: &str, settings: &[(&str, &str)]) -> (Visitor, TempDir) {
    let data = TempDir::new("data");
    let mut vars: HashMap<&str, String> = HashMap::from([
        ("MUSTER_BIND", "127.0.0.1:0".to_string()),
        ("DATABASE_URL", database_url.to_string()),
        ("MUSTER_DATA_DIR", data.0.to_string_lossy().into_owned()),
        ("MUSTER_JWT_SECRET", TEST_SECRET.to_string()),
        ("MUSTER_LOG", "warn".to_string()),
    ]);
    for (k, v) in settings {
        vars.insert(k, v.to_string());
    }
    let config = Config::from_lookup(|k| vars.get(k).cloned()).expect("test config");
    let app = Application::build(&config).expect("the application starts");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    (
        Visitor {
            address,
            client: client(),
        },
        data,
    )
}

/// The invited player accepts a battle set up against their e-mail, with the form on the
/// battle page.
pub async fn accept_invitation(player: &Visitor, id: i64) {
    let page = player.get_html(&format!("/battles/{id}")).await;
    let form = format!("action=\"/battles/{id}/accept\"");
    let at = page
        .find(&form)
        .unwrap_or_else(|| panic!("no invitation to accept on battle {id}:\n{page}"));
    let marker = "name=\"version\" value=\"";
    let rest = &page[at..];
    let start = rest.find(marker).expect("the form's version") + marker.len();
    let version = &rest[start..start + rest[start..].find('"').expect("a value")];
    let res = player
        .post_form(
            &format!("/battles/{id}"),
            &format!("/battles/{id}/accept"),
            &[("version", version)],
        )
        .await;
    assert_eq!(res.status(), 303, "accept battle {id}");
}
