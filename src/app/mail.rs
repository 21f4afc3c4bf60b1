//! The outbox sender: a background thread of each server that claims due rows of the `outbox`
//! table (mail only when this server has SMTP settings; webhook posts always), sends them, and
//! marks them sent, or tries again later with a growing wait. A claim is a lease in the
//! database, so two servers on one database never send one message twice; a server that died
//! while sending leaves its row to be claimed again when the lease runs out.
//!
//! Mail goes through `lettre` over SMTP (`smtp://` plain or STARTTLS with `?tls=required`,
//! `smtps://` TLS from the start, with rustls). Webhook posts are one small HTTP/1.1 request,
//! written here over a `TcpStream` (wrapped in the same rustls for `https://`), so Muster
//! carries no second HTTP client stack for one POST.
//!
//! Nothing secret reaches the log: not the SMTP password (it is only in the URL, which is never
//! logged), not a webhook's address (which holds its token), not a message's body.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use chrono::{NaiveDateTime, TimeDelta, Utc};

use crate::app::notifications::Payload;
use crate::config::MailConfig;
use crate::store::notifications::{self as store, OutboxRow};
use crate::store::DbPool;

/// An idle sender looks for due messages this often.
const POLL: Duration = Duration::from_secs(1);
/// A message being sent is this server's for this long; after that another server may retry.
const LEASE_SECS: i64 = 120;
/// After this many failed tries a message is given up (and the failure logged).
const MAX_ATTEMPTS: i32 = 8;
/// Sent and given-up messages are kept this long, then deleted.
const KEEP_DAYS: i64 = 7;
const NETWORK_TIMEOUT: Duration = Duration::from_secs(20);

/// This server's sender: its SMTP settings (if any) and the base of links in messages.
pub struct Outbox {
    mail: Option<(lettre::SmtpTransport, lettre::message::Mailbox)>,
    base_url: Mutex<String>,
    server_id: String,
}

impl Outbox {
    /// Whether this server sends e-mail.
    pub fn mail_enabled(&self) -> bool {
        self.mail.is_some()
    }

    /// The absolute base of links in messages (`MUSTER_PUBLIC_URL`, or the address the server
    /// listens on once it is known).
    pub fn set_base_url(&self, base: &str) {
        *self.base_url.lock().unwrap_or_else(|p| p.into_inner()) =
            base.trim_end_matches('/').to_string();
    }

    fn base(&self) -> String {
        self.base_url
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Makes the sender and starts its thread, which stops when the `Outbox` is dropped.
    /// Records in the database whether its servers send mail, so services deciding inside a
    /// transaction whether to queue a mail know.
    pub fn start(
        pool: DbPool,
        mail: Option<&MailConfig>,
        base_url: &str,
    ) -> Result<Arc<Self>, String> {
        let mail = match mail {
            Some(m) => {
                let transport = lettre::SmtpTransport::from_url(&m.smtp_url)
                    .map_err(|e| format!("MUSTER_SMTP_URL ({}): {e}", m.describe()))?
                    .timeout(Some(NETWORK_TIMEOUT))
                    .build();
                let from = m
                    .from
                    .parse::<lettre::message::Mailbox>()
                    .map_err(|e| format!("MUSTER_MAIL_FROM: {e}"))?;
                Some((transport, from))
            }
            None => None,
        };
        {
            let mut conn = pool.get().map_err(|e| e.to_string())?;
            store::put_setting(
                &mut conn,
                crate::app::notifications::MAIL_SETTING,
                if mail.is_some() { "on" } else { "off" },
            )
            .map_err(|e| e.to_string())?;
        }
        let outbox = Arc::new(Self {
            mail,
            base_url: Mutex::new(base_url.trim_end_matches('/').to_string()),
            server_id: format!("outbox-{}", crate::app::dice::random_token(9)),
        });
        let weak = Arc::downgrade(&outbox);
        std::thread::Builder::new()
            .name("muster-outbox".into())
            .spawn(move || sender(weak, pool))
            .map_err(|e| format!("could not start the outbox sender: {e}"))?;
        Ok(outbox)
    }
}

fn sender(outbox: Weak<Outbox>, pool: DbPool) {
    let mut last_prune: Option<std::time::Instant> = None;
    loop {
        let Some(me) = outbox.upgrade() else {
            return;
        };
        let channels: &[&str] = if me.mail.is_some() {
            &[store::MAIL, store::WEBHOOK]
        } else {
            &[store::WEBHOOK]
        };
        let claimed = pool.get().map_err(|e| e.to_string()).and_then(|mut conn| {
            if last_prune.is_none_or(|t| t.elapsed() > Duration::from_secs(3600)) {
                last_prune = Some(std::time::Instant::now());
                let before = Utc::now().naive_utc() - TimeDelta::days(KEEP_DAYS);
                let _ = store::prune(&mut conn, before);
                let _ = store::prune_resets(&mut conn, before);
            }
            store::claim(
                &mut conn,
                channels,
                &me.server_id,
                Utc::now().naive_utc() + TimeDelta::seconds(LEASE_SECS),
            )
            .map_err(|e| e.to_string())
        });
        match claimed {
            Ok(Some(row)) => deliver(&me, &pool, row),
            Ok(None) => {
                drop(me);
                std::thread::sleep(POLL);
            }
            Err(e) => {
                tracing::warn!(error = %e, "the outbox could not be read");
                drop(me);
                std::thread::sleep(POLL * 5);
            }
        }
    }
}

/// The wait before try `attempts + 1`: 30 s, doubling, at most an hour.
pub fn backoff(attempts: i32) -> TimeDelta {
    let doublings = attempts.clamp(1, 8) - 1;
    TimeDelta::seconds((30i64 << doublings).min(3600))
}

fn deliver(me: &Outbox, pool: &DbPool, row: OutboxRow) {
    let outcome = match row.channel.as_str() {
        store::MAIL => send_mail(me, &row),
        store::WEBHOOK => send_webhook(me, &row),
        other => Err(format!("unknown channel {other}")),
    };
    let Ok(mut conn) = pool.get() else {
        // The lease runs out and the row is tried again.
        return;
    };
    let marked = match &outcome {
        Ok(()) => store::mark_sent(&mut conn, row.id, &me.server_id),
        Err(error) => {
            let retry: Option<NaiveDateTime> = (row.attempts < MAX_ATTEMPTS)
                .then(|| Utc::now().naive_utc() + backoff(row.attempts));
            if retry.is_none() {
                tracing::error!(id = row.id, channel = %row.channel, attempts = row.attempts,
                    error = %error, "gave up sending a message");
            } else {
                tracing::warn!(id = row.id, channel = %row.channel, attempts = row.attempts,
                    error = %error, "sending a message failed; it will be tried again");
            }
            store::mark_failed(&mut conn, row.id, &me.server_id, error, retry)
        }
    };
    if let Err(e) = marked {
        tracing::warn!(id = row.id, error = %e, "could not record how sending went");
    }
}

/// The text of a mail, and its unsubscribe link if it has one.
pub fn compose(base: &str, row: &OutboxRow) -> Result<(String, Option<String>), String> {
    let payload: Payload =
        serde_json::from_str(&row.body).map_err(|e| format!("unreadable outbox body: {e}"))?;
    let unsubscribe = row.unsubscribe_url.as_ref().map(|u| format!("{base}{u}"));
    let text = match payload {
        Payload::Notice { title, link, .. } => {
            let mut text =
                format!("{title}\n\nOpen it in Muster: {base}{link}\n\nYour inbox: {base}/inbox\n");
            if let Some(u) = &unsubscribe {
                text.push_str(&format!(
                    "\n--\nYou get this mail because of your Muster notification settings \
                     ({base}/account#notifications).\nStop mails like this one: {u}\n"
                ));
            }
            text
        }
        Payload::PasswordReset { name, path } => format!(
            "Hello {name},\n\nSomeone, we hope you, asked to reset the password of your Muster \
             account. Open this link within an hour to choose a new one:\n\n{base}{path}\n\n\
             The link works once. If you did not ask, ignore this mail: your password stays as \
             it is.\n"
        ),
        Payload::Webhook { .. } => return Err("a webhook post is not a mail".into()),
    };
    Ok((text, unsubscribe))
}

fn send_mail(me: &Outbox, row: &OutboxRow) -> Result<(), String> {
    use lettre::message::header::{ContentType, HeaderName, HeaderValue};
    use lettre::Transport;
    let Some((transport, from)) = &me.mail else {
        return Err("this server has no SMTP settings".into());
    };
    let (text, unsubscribe) = compose(&me.base(), row)?;
    let to = row
        .target
        .parse::<lettre::message::Mailbox>()
        .map_err(|_| "the recipient's address cannot be used".to_string())?;
    let mut builder = lettre::Message::builder()
        .from(from.clone())
        .to(to)
        .subject(row.subject.clone())
        .header(ContentType::TEXT_PLAIN);
    if let Some(url) = unsubscribe {
        builder = builder
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{url}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let message = builder
        .body(text)
        .map_err(|e| format!("building the mail: {e}"))?;
    transport
        .send(&message)
        .map(|_| ())
        .map_err(|e| format!("SMTP: {e}"))
}

fn send_webhook(me: &Outbox, row: &OutboxRow) -> Result<(), String> {
    let payload: Payload =
        serde_json::from_str(&row.body).map_err(|e| format!("unreadable outbox body: {e}"))?;
    let Payload::Webhook { content, link } = payload else {
        return Err("not a webhook post".into());
    };
    // Discord takes at most 2000 characters.
    let mut content = format!("{content}\n{}{link}", me.base());
    if content.chars().count() > 2000 {
        content = content.chars().take(1999).collect::<String>() + "…";
    }
    let body = serde_json::json!({ "content": content }).to_string();
    post_json(&row.target, &body)
}

/// A webhook address, checked: `http://` or `https://`, a host, an optional port and path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// The path and query, starting with `/`.
    pub path: String,
}

impl WebhookUrl {
    pub fn parse(url: &str) -> Result<Self, String> {
        const WHAT: &str = "Enter a webhook address starting with https:// or http://.";
        let url = url.trim();
        if url.len() > 500 || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(WHAT.into());
        }
        let (tls, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(WHAT.into());
        };
        let (authority, path) = match rest.find(['/', '?']) {
            Some(i) if rest[i..].starts_with('/') => (&rest[..i], rest[i..].to_string()),
            Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
            None => (rest, "/".to_string()),
        };
        if authority.contains('@') {
            return Err("Leave the user name and password out of the webhook address.".into());
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
                match p.parse::<u16>() {
                    Ok(port) if port > 0 => (h, port),
                    _ => return Err("The webhook address has a port that is not a number.".into()),
                }
            }
            _ => (authority, if tls { 443 } else { 80 }),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':');
        if host.is_empty() || !host.chars().all(plain) {
            return Err("The webhook address names no host.".into());
        }
        Ok(Self {
            tls,
            host: host.to_string(),
            port,
            path,
        })
    }
}

/// POSTs a JSON body and answers whether the server took it (a 2xx status).
pub fn post_json(url: &str, body: &str) -> Result<(), String> {
    let url = WebhookUrl::parse(url)?;
    let addr = (url.host.as_str(), url.port)
        .to_socket_addrs()
        .map_err(|_| format!("cannot find the webhook's host {}", url.host))?
        .next()
        .ok_or_else(|| format!("cannot find the webhook's host {}", url.host))?;
    let tcp = TcpStream::connect_timeout(&addr, NETWORK_TIMEOUT)
        .map_err(|e| format!("cannot reach the webhook's host {}: {e}", url.host))?;
    tcp.set_read_timeout(Some(NETWORK_TIMEOUT))
        .and_then(|_| tcp.set_write_timeout(Some(NETWORK_TIMEOUT)))
        .map_err(|e| e.to_string())?;
    let host_header = if (url.tls && url.port == 443) || (!url.tls && url.port == 80) {
        url.host.clone()
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: Muster/{}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        url.path,
        env!("CARGO_PKG_VERSION"),
        body.len()
    );
    let status_line = if url.tls {
        let mut stream = tls_stream(&url.host, tcp)?;
        exchange(&mut stream, request.as_bytes())?
    } else {
        let mut tcp = tcp;
        exchange(&mut tcp, request.as_bytes())?
    };
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| "the webhook's host did not answer in HTTP".to_string())?;
    if (200..300).contains(&status) {
        Ok(())
    } else {
        Err(format!("the webhook's host answered {status}"))
    }
}

/// Writes the request and reads the status line of the answer.
fn exchange(stream: &mut (impl Read + Write), request: &[u8]) -> Result<String, String> {
    stream
        .write_all(request)
        .and_then(|_| stream.flush())
        .map_err(|e| format!("sending to the webhook: {e}"))?;
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while !got.windows(2).any(|w| w == b"\r\n") && got.len() < 8192 {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if got.is_empty() => return Err(format!("reading the webhook's answer: {e}")),
            Err(_) => break,
        }
    }
    let text = String::from_utf8_lossy(&got);
    Ok(text.lines().next().unwrap_or("").to_string())
}

fn tls_stream(
    host: &str,
    tcp: TcpStream,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, TcpStream>, String> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| format!("TLS: {e}"))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|_| format!("TLS: {host} is not a host name"))?;
    let conn =
        rustls::ClientConnection::new(Arc::new(config), name).map_err(|e| format!("TLS: {e}"))?;
    Ok(rustls::StreamOwned::new(conn, tcp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_addresses_are_read_or_refused() {
        let u = WebhookUrl::parse("https://discord.com/api/webhooks/1/abc").expect("valid");
        assert_eq!(
            (u.tls, u.host.as_str(), u.port, u.path.as_str()),
            (true, "discord.com", 443, "/api/webhooks/1/abc")
        );
        let u = WebhookUrl::parse("http://127.0.0.1:8081").expect("valid");
        assert_eq!((u.port, u.path.as_str()), (8081, "/"));
        let u = WebhookUrl::parse("http://[::1]:9/x?y=1").expect("valid");
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("::1", 9, "/x?y=1")
        );
        for bad in [
            "ftp://x/",
            "javascript:alert(1)",
            "https://",
            "https://a b/",
            "https://user:pw@host/",
            "http://host:notaport/",
            "",
        ] {
            assert!(WebhookUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_wait_doubles_up_to_an_hour() {
        assert_eq!(backoff(1).num_seconds(), 30);
        assert_eq!(backoff(2).num_seconds(), 60);
        assert_eq!(backoff(8).num_seconds(), 3600);
    }
}
