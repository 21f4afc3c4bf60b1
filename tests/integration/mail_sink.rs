//! A small SMTP sink and a webhook sink for the notification tests: real listeners on free
//! ports that speak just enough SMTP (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) or HTTP/1.1
//! for Muster's senders, and collect what they receive.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One mail as the sink received it.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: Vec<String>,
    /// The message as sent (headers and body), line endings as `\r\n`.
    pub raw: String,
}

impl Mail {
    /// A header's value (first occurrence, unfolded).
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or("");
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        unfolded.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }

    /// The body, decoded from quoted-printable or base64 when the mail says so.
    pub fn text(&self) -> String {
        let body = self.raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let encoding = self
            .header("Content-Transfer-Encoding")
            .unwrap_or_default()
            .to_lowercase();
        if encoding == "base64" {
            use base64::Engine;
            let joined: String = body.split_whitespace().collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(joined)
                .unwrap_or_default();
            String::from_utf8_lossy(&bytes).into_owned()
        } else if encoding == "quoted-printable" {
            let soft = body.replace("=\r\n", "");
            let b = soft.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'=' && i + 2 < b.len() {
                    if let Ok(v) =
                        u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or(""), 16)
                    {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                }
                out.push(b[i]);
                i += 1;
            }
            String::from_utf8_lossy(&out).into_owned()
        } else {
            body.to_string()
        }
    }

    /// The first link in the body that starts with `prefix`.
    pub fn link(&self, prefix: &str) -> Option<String> {
        let text = self.text();
        let at = text.find(prefix)?;
        let rest = &text[at..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '>')
            .unwrap_or(rest.len());
        Some(rest[..end].to_string())
    }
}

/// An SMTP server on 127.0.0.1 that keeps every mail it is given.
pub struct SmtpSink {
    pub port: u16,
    pub mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the SMTP sink");
        let port = listener.local_addr().expect("addr").port();
        let mails: Arc<Mutex<Vec<Mail>>> = Arc::default();
        let kept = mails.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = kept.clone();
                std::thread::spawn(move || {
                    let _ = session(stream, &kept);
                });
            }
        });
        Self { port, mails }
    }

    /// The settings that send a server's mail here.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn count(&self) -> usize {
        self.mails.lock().unwrap().len()
    }

    /// Waits (up to 15 s) until a mail to `to` whose subject contains `subject` arrives.
    pub async fn wait_for(&self, to: &str, subject: &str) -> Mail {
        let start = Instant::now();
        loop {
            if let Some(m) = self.find(to, subject) {
                return m;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "no mail to {to} about {subject:?}; got {:#?}",
                self.mails.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn find(&self, to: &str, subject: &str) -> Option<Mail> {
        self.mails
            .lock()
            .unwrap()
            .iter()
            .find(|m| {
                m.to.iter().any(|t| t.contains(to))
                    && m.header("Subject").is_some_and(|s| s.contains(subject))
            })
            .cloned()
    }
}

fn session(stream: TcpStream, kept: &Mutex<Vec<Mail>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    out.write_all(b"220 sink.test ESMTP ready\r\n")?;
    let mut to = Vec::new();
    loop {
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let upper = line.trim_end().to_uppercase();
        if upper.starts_with("EHLO") {
            out.write_all(b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")?;
        } else if upper.starts_with("HELO")
            || upper.starts_with("MAIL")
            || upper.starts_with("NOOP")
        {
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("RSET") {
            to.clear();
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("RCPT") {
            to.push(line.trim_end().to_string());
            out.write_all(b"250 OK\r\n")?;
        } else if upper.starts_with("DATA") {
            out.write_all(b"354 go ahead\r\n")?;
            let mut raw = String::new();
            loop {
                let mut l = String::new();
                if input.read_line(&mut l)? == 0 {
                    return Ok(());
                }
                if l == ".\r\n" || l == ".\n" {
                    break;
                }
                let l = l
                    .strip_prefix('.')
                    .filter(|_| l.starts_with(".."))
                    .unwrap_or(&l);
                raw.push_str(l);
            }
            kept.lock().unwrap().push(Mail {
                to: std::mem::take(&mut to),
                raw,
            });
            out.write_all(b"250 queued\r\n")?;
        } else if upper.starts_with("QUIT") {
            out.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"502 not here\r\n")?;
        }
    }
}

/// An HTTP server on 127.0.0.1 that answers 204 to every POST and keeps the bodies.
pub struct WebhookSink {
    pub port: u16,
    pub bodies: Arc<Mutex<Vec<String>>>,
}

impl WebhookSink {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the webhook sink");
        let port = listener.local_addr().expect("addr").port();
        let bodies: Arc<Mutex<Vec<String>>> = Arc::default();
        let kept = bodies.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let _ = post(stream, &kept);
            }
        });
        Self { port, bodies }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/api/webhooks/1/secret-token", self.port)
    }

    /// Waits (up to 15 s) for a body containing `text`.
    pub async fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            if let Some(b) = self
                .bodies
                .lock()
                .unwrap()
                .iter()
                .find(|b| b.contains(text))
            {
                return b.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "no webhook post with {text:?}; got {:?}",
                self.bodies.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

fn post(stream: TcpStream, kept: &Mutex<Vec<String>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; length];
    input.read_exact(&mut body)?;
    kept.lock()
        .unwrap()
        .push(String::from_utf8_lossy(&body).into_owned());
    out.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
}
