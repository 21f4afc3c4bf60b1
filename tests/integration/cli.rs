//! The `muster` binary: help, configuration errors, user management, and durability when killed.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::helpers::{spawn_app, TempDir, TestDb, PASSWORD};

const BIN: &str = env!("CARGO_BIN_EXE_muster");

fn muster(database_url: &str, data_dir: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("MUSTER_DATA_DIR", data_dir)
        .env("MUSTER_LOG", "warn");
    cmd
}

fn run_with_stdin(mut cmd: Command, stdin: &str) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn help_documents_every_command_and_option() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for word in ["serve", "migrate", "user", "DATABASE_URL", "MUSTER_BIND"] {
        assert!(text.contains(word), "--help mentions {word}:\n{text}");
    }
    let out = Command::new(BIN)
        .args(["user", "create", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for word in ["--email", "--name", "--admin", "standard input"] {
        assert!(
            text.contains(word),
            "user create --help mentions {word}:\n{text}"
        );
    }
    let out = Command::new(BIN)
        .args(["user", "reset-password", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("--email"));
}

#[test]
fn a_password_on_the_command_line_is_refused() {
    let out = Command::new(BIN)
        .args([
            "user",
            "create",
            "--email",
            "x@example.org",
            "--password",
            "secretsecret",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_bad_setting_stops_start_up_with_one_line_naming_the_variable() {
    let dir = TempDir::new("cli");
    let out = muster(&dir.0.join("m.db").to_string_lossy(), &dir.0)
        .env("MUSTER_BIND", "everywhere")
        .arg("migrate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("MUSTER_BIND"), "{err}");
}

#[test]
fn migrate_creates_the_sqlite_file_and_its_directory() {
    let dir = TempDir::new("cli");
    let db = dir.0.join("nested/deeper/muster.db");
    let out = muster(&db.to_string_lossy(), &dir.0)
        .arg("migrate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(db.exists());
    let again = muster(&db.to_string_lossy(), &dir.0)
        .arg("migrate")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("up to date"));
}

#[test]
fn the_default_database_is_muster_db_in_the_data_dir() {
    let dir = TempDir::new("cli");
    let out = Command::new(BIN)
        .env_clear()
        .env("MUSTER_DATA_DIR", dir.0.join("data"))
        .arg("migrate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.0.join("data/muster.db").exists());
}

#[tokio::test]
async fn user_create_and_reset_password_work_against_the_running_server() {
    let app = spawn_app().await;
    let data = TempDir::new("cli");

    let short = run_with_stdin(
        {
            let mut c = muster(app.db.url(), &data.0);
            c.args(["user", "create", "--email", "chief@example.org", "--admin"]);
            c
        },
        "short\n",
    );
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("at least 10 characters"));

    let out = run_with_stdin(
        {
            let mut c = muster(app.db.url(), &data.0);
            c.args(["user", "create", "--email", "chief@example.org", "--admin"]);
            c
        },
        &format!("{PASSWORD}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("administrator") && stdout.contains("(chief)"),
        "name defaults to the email's local part: {stdout}"
    );
    assert!(
        !stdout.contains(PASSWORD) && !String::from_utf8_lossy(&out.stderr).contains(PASSWORD),
        "password never echoed"
    );

    assert_eq!(app.login("chief@example.org", PASSWORD).await.status(), 303);
    assert_eq!(
        app.get("/admin/users").await.status(),
        200,
        "--admin made an administrator"
    );

    let out = run_with_stdin(
        {
            let mut c = muster(app.db.url(), &data.0);
            c.args(["user", "reset-password", "--email", "CHIEF@example.org"]);
            c
        },
        "a reset password here\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ended 1 session"));
    assert_eq!(
        app.get("/account").await.status(),
        303,
        "the reset logged the browser out"
    );
    assert_eq!(
        app.other_visitor()
            .login("chief@example.org", "a reset password here")
            .await
            .status(),
        303
    );

    let out = run_with_stdin(
        {
            let mut c = muster(app.db.url(), &data.0);
            c.args(["user", "reset-password", "--email", "ghost@example.org"]);
            c
        },
        "whatever password\n",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no account"));
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_server(db: &TestDb, data: &std::path::Path, port: u16) -> std::process::Child {
    muster(db.url(), data)
        .env("MUSTER_BIND", format!("127.0.0.1:{port}"))
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

async fn wait_until_up(port: u16) {
    for _ in 0..200 {
        if reqwest::get(format!("http://127.0.0.1:{port}/healthz"))
            .await
            .is_ok_and(|r| r.status() == 200)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server on port {port} did not come up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_server_while_it_writes_loses_no_committed_account() {
    let db = TestDb::create();
    let data = TempDir::new("kill");
    let port = free_port();
    let mut server = start_server(&db, &data.0, port);
    wait_until_up(port).await;

    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let confirmed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..60 {
        let (client, base, confirmed) = (client.clone(), base.clone(), confirmed.clone());
        tasks.push(tokio::spawn(async move {
            let email = format!("soldier{i}@example.org");
            let res = client
                .post(format!("{base}/api/v1/users"))
                .json(&serde_json::json!({"email": email, "password": PASSWORD}))
                .send()
                .await;
            let ok = res.ok().filter(|r| r.status() == 201).map(|_| email);
            if ok.is_some() {
                confirmed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            ok
        }));
    }
    // Kill without warning once some registrations are confirmed and others are in flight.
    while confirmed.load(std::sync::atomic::Ordering::SeqCst) < 5 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().unwrap();
    let mut committed = Vec::new();
    for t in tasks {
        if let Some(email) = t.await.unwrap() {
            committed.push(email);
        }
    }
    let _ = server.wait();
    assert!(
        !committed.is_empty(),
        "some registrations were answered before the kill"
    );

    let port = free_port();
    let mut server = start_server(&db, &data.0, port);
    wait_until_up(port).await;
    for email in &committed {
        let res = client
            .post(format!("http://127.0.0.1:{port}/api/v1/auth/token"))
            .json(&serde_json::json!({"email": email, "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            res.status(),
            200,
            "{email} was confirmed before the kill and must still exist"
        );
    }
    server.kill().unwrap();
    let _ = server.wait();
}
