//! Headless Chromium through chromedriver (Debian's `chromium` and `chromium-driver`).
//!
//! Without them the tests print a loud SKIPPED line and pass; `.ci/run` sets
//! `MUSTER_REQUIRE_BROWSER=1`, which turns a missing browser into a failure.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::helpers::{spawn_app, TempDir, PASSWORD};

pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: TempDir,
}

fn find(candidates: &[&str], env: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

impl Browser {
    /// Starts chromedriver and a headless Chromium, or returns `None` (and says so loudly).
    pub async fn start(test: &str) -> Option<Browser> {
        Self::start_with(test, true).await
    }

    /// Like `start`, optionally with JavaScript switched off for the pages.
    pub async fn start_with(test: &str, javascript: bool) -> Option<Browser> {
        Self::launch(test, javascript, None).await
    }

    /// Like `start`, with the viewport of a phone `width` CSS pixels wide (Chromium's own
    /// window will not go below 500 px, so chromedriver's mobile emulation sets it).
    pub async fn start_phone(test: &str, width: u32) -> Option<Browser> {
        Self::launch(test, true, Some(width)).await
    }

    async fn launch(test: &str, javascript: bool, phone: Option<u32>) -> Option<Browser> {
        let driver_bin = find(
            &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
            "MUSTER_CHROMEDRIVER",
        );
        let chrome_bin = find(
            &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
            "MUSTER_CHROMIUM",
        );
        let (Some(driver_bin), Some(chrome_bin)) = (driver_bin, chrome_bin) else {
            if std::env::var("MUSTER_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
                panic!("{test}: chromium or chromedriver is missing and MUSTER_REQUIRE_BROWSER=1");
            }
            eprintln!("\n*** BROWSER TEST SKIPPED ({test}): install Debian's chromium and chromium-driver ***\n");
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let driver = Command::new(driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = TempDir::new("chromium");
        let prefs = if javascript {
            json!({})
        } else {
            json!({"profile.managed_default_content_settings.javascript": 2})
        };
        let mut caps = json!({
            "goog:chromeOptions": {
                "prefs": prefs,
                "binary": chrome_bin,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.0.display()),
                ]
            }
        });
        if let Some(width) = phone {
            caps["goog:chromeOptions"]["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": 844, "pixelRatio": 1.0}});
        }
        let caps = caps.as_object().cloned().unwrap_or_default();
        let url = format!("http://127.0.0.1:{port}");
        let mut last_error = String::new();
        for _ in 0..100 {
            let mut builder =
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
            builder.capabilities(caps.clone());
            match builder.connect(&url).await {
                Ok(client) => {
                    return Some(Browser {
                        client,
                        driver,
                        _profile: profile,
                    })
                }
                Err(e) => last_error = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("could not start a Chromium session: {last_error}");
    }

    pub async fn open(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    /// Finds an element, waiting up to 10 s for it to appear (pages load after clicks).
    pub async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("find {css}: {e}"))
    }

    pub async fn fill(&self, css: &str, text: &str) {
        let field = self.find(css).await;
        field.clear().await.ok();
        field
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    pub async fn click(&self, css: &str) {
        let el = self.find(css).await;
        el.click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    pub async fn text(&self, css: &str) -> String {
        let el = self.find(css).await;
        el.text().await.unwrap_or_default()
    }

    pub async fn path(&self) -> String {
        let url = self.client.current_url().await.expect("current url");
        match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        }
    }

    /// Waits (up to 10 s) until the browser shows `expected` (path and query), then checks it.
    pub async fn wait_for_path(&self, expected: &str) {
        let mut seen = String::new();
        for _ in 0..100 {
            seen = self.path().await;
            if seen == expected {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("expected to arrive at {expected}, but the browser is at {seen}");
    }

    /// Chooses an option of a `<select>` by its value.
    pub async fn select(&self, css: &str, value: &str) {
        let el = self.find(css).await;
        el.select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
    }

    /// Waits (up to 10 s) until the element's text satisfies `ok`; returns the text.
    pub async fn wait_for_text(&self, css: &str, ok: impl Fn(&str) -> bool) -> String {
        let mut seen = String::new();
        for _ in 0..100 {
            if let Ok(el) = self.client.find(Locator::Css(css)).await {
                seen = el.text().await.unwrap_or_default();
                if ok(&seen) {
                    return seen;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let url = self
            .client
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default();
        let body = self.client.find(Locator::Css("main")).await.ok();
        let text = match body {
            Some(b) => b.text().await.unwrap_or_default(),
            None => String::new(),
        };
        panic!("{css} never showed the expected text; last seen: {seen:?}\nat {url}:\n{text}");
    }

    /// Screenshots the page at desktop (1280 px) and phone (390 px) widths into `dir`.
    pub async fn shoot_both(&self, dir: &Path, step: &str) {
        for (width, height) in [(1280u32, 900u32), (390, 844)] {
            self.client
                .set_window_size(width, height)
                .await
                .expect("resize");
            let png = self
                .screenshot(&dir.join(format!("{step}-{width}.png")))
                .await;
            assert!(png.starts_with(b"\x89PNG"));
        }
        self.client
            .set_window_size(1280, 900)
            .await
            .expect("resize");
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&self, to: &Path) -> Vec<u8> {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(to, &png).ok();
        png
    }

    /// The page printed to PDF by Chromium's own print pipeline.
    pub async fn print_pdf(&self) -> Vec<u8> {
        let config = fantoccini::wd::PrintConfiguration::builder()
            .build()
            .expect("print configuration");
        self.client.print(config).await.expect("print to PDF")
    }

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn register_and_log_in_through_the_pages() {
    let Some(browser) = Browser::start("register_and_log_in_through_the_pages").await else {
        return;
    };
    let app = spawn_app().await;

    browser.open(&app.url("/")).await;
    browser.click("a[href='/register'].button").await;
    browser.wait_for_path("/register").await;

    // A too-short password comes back with a message, and the email is kept.
    browser.fill("#email", "lafayette@example.org").await;
    browser.fill("#display_name", "Lafayette").await;
    browser.fill("#password", "short").await;
    browser.click("form.stacked-form button[type=submit]").await;
    assert!(browser
        .text("#password-error")
        .await
        .contains("at least 10 characters"));
    let kept = browser.find("#email").await.prop("value").await.unwrap();
    assert_eq!(kept.as_deref(), Some("lafayette@example.org"));

    browser.fill("#password", PASSWORD).await;
    browser.click("form.stacked-form button[type=submit]").await;
    browser.wait_for_path("/account?done=welcome").await;
    assert!(browser.text(".notice").await.contains("Welcome"));

    browser.click(".site-nav .link-button").await; // Log out
    browser.wait_for_path("/login?done=logged_out").await;

    browser.fill("#email", "lafayette@example.org").await;
    browser.fill("#password", PASSWORD).await;
    browser.click("form.stacked-form button[type=submit]").await;
    browser.wait_for_path("/").await;
    assert!(browser.text(".site-nav").await.contains("Lafayette"));

    let shots = TempDir::new("shots");
    let png = browser.screenshot(&shots.0.join("home.png")).await;
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    let pdf = browser.print_pdf().await;
    assert!(pdf.starts_with(b"%PDF"), "a PDF printout");

    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_page_fits_a_phone_screen() {
    let Some(browser) = Browser::start("the_home_page_fits_a_phone_screen").await else {
        return;
    };
    let app = spawn_app().await;
    browser
        .client
        .set_window_size(390, 844)
        .await
        .expect("resize");
    browser.open(&app.url("/")).await;
    let overflow = browser
        .client
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .expect("measure");
    assert_eq!(
        overflow.as_i64(),
        Some(0),
        "no sideways scrolling on a phone"
    );
    browser.close().await;
}
