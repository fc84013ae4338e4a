//! A small WebDriver client (W3C WebDriver over HTTP/1.1 and JSON) for the browser tests: it
//! starts Debian's `chromedriver`, opens one headless Chromium session, and offers the few
//! commands a test of a page needs. Nothing beyond std and serde_json.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// The W3C element key in a found element's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: TempDir,
}

/// A folder removed when dropped (Chromium's profile).
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on loopback")
}

/// One HTTP request to `port`, its JSON answer.
fn call(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let body = body.map(Value::to_string).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).map_err(|e| format!("write: {e}"))?;
    // chromedriver keeps the connection open: read the head, then exactly Content-Length bytes.
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(0) => return Err("chromedriver closed the connection".into()),
            Ok(_) => raw.push(byte[0]),
            Err(e) => return Err(format!("read: {e}")),
        }
    }
    let head = String::from_utf8_lossy(&raw).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .ok_or("no Content-Length in chromedriver's answer")?;
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).map_err(|e| format!("read: {e}"))?;
    let body = String::from_utf8_lossy(&body);
    let json: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("{method} {path}: {head}: {}", json["value"]));
    }
    Ok(json["value"].clone())
}

impl Browser {
    /// Whether this machine has Chromium and its driver (CI installs both).
    pub fn available() -> bool {
        std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists()
    }

    /// Starts chromedriver and a headless Chromium, `width`×`height`.
    pub fn start(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = TempDir(std::env::temp_dir().join(format!("turnscript-chromium-{}-{port}", std::process::id())));
        // The flags Chromium needs as root, headless, on a machine with no network beyond loopback.
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--hide-scrollbars".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.0.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
        }}});
        let deadline = Instant::now() + Duration::from_secs(30);
        let session = loop {
            match call(port, "POST", "/session", Some(&caps)) {
                Ok(v) => break v["sessionId"].as_str().expect("a session id").to_string(),
                Err(e) if Instant::now() > deadline => panic!("chromedriver did not start a session: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        Browser {
            driver,
            port,
            session,
            _profile: profile,
        }
    }

    fn cmd(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{what}", self.session);
        call(self.port, method, &path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` in the page (its `arguments` are `args`) and gives what it returned.
    pub fn eval(&self, script: &str, args: Value) -> Value {
        self.cmd("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    /// The element `css` finds, waiting up to ten seconds for it.
    pub fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let path = format!("/session/{}/element", self.session);
            match call(
                self.port,
                "POST",
                &path,
                Some(&json!({"using": "css selector", "value": css})),
            ) {
                Ok(v) => {
                    return v[ELEMENT]
                        .as_str()
                        .unwrap_or_else(|| panic!("no element id in {v}"))
                        .to_string();
                }
                Err(e) if Instant::now() > deadline => panic!("no element `{css}`: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Does `what` to the element `css`, finding it again when the page redrew it in between
    /// (a stale element), for up to ten seconds.
    fn on_element(&self, css: &str, what: &str, body: Value) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let id = self.find(css);
            let path = format!("/session/{}/element/{id}{what}", self.session);
            match call(self.port, "POST", &path, Some(&body)) {
                Ok(_) => return,
                Err(e) if Instant::now() > deadline => panic!("`{css}`{what}: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    pub fn click(&self, css: &str) {
        self.on_element(css, "/click", json!({}));
    }

    /// Types `text` into the element `css` (a `\u{E007}` in it is Enter).
    pub fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "/value", json!({ "text": text }));
    }

    /// Presses keys on the page (WebDriver key codes: `\u{E007}` Enter).
    pub fn keys(&self, text: &str) {
        self.on_element("body", "/value", json!({ "text": text }));
    }

    pub fn text(&self, css: &str) -> String {
        self.try_text(css)
            .unwrap_or_else(|e| panic!("the text of `{css}`: {e}"))
    }

    /// The text of `css`, read in one script (a page that redraws between finding an element
    /// and reading it cannot make it stale).
    fn try_text(&self, css: &str) -> Result<String, String> {
        let path = format!("/session/{}/execute/sync", self.session);
        let script = "const e = document.querySelector(arguments[0]); return e === null ? null : e.innerText;";
        match call(
            self.port,
            "POST",
            &path,
            Some(&json!({ "script": script, "args": [css] })),
        )? {
            Value::String(t) => Ok(t),
            _ => Err(format!("no element `{css}`")),
        }
    }

    /// Waits up to ten seconds for `pred` over the text of `css`; panics with the last text.
    pub fn wait_text(&self, css: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let t = self.try_text(css);
            if let Ok(t) = &t
                && pred(t)
            {
                return t.clone();
            }
            if Instant::now() > deadline {
                panic!("`{css}` never showed {what}; it shows:\n{t:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Resizes the window (a phone's screen, say).
    pub fn resize(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    pub fn reload(&self) {
        self.cmd("POST", "/refresh", Some(json!({})));
    }

    /// A PNG of the page as it is shown.
    pub fn screenshot(&self, path: &std::path::Path) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap_or("")).expect("a base64 screenshot");
        std::fs::write(path, png).expect("the screenshot written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = call(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (with padding), as WebDriver sends a screenshot.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let bytes: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for quad in bytes.chunks(4) {
        let pad = quad.iter().rev().take_while(|&&b| b == b'=').count();
        let mut n = 0u32;
        for (i, &b) in quad.iter().enumerate() {
            n |= if b == b'=' { 0 } else { val(b)? } << (18 - 6 * i as u32);
        }
        let got = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&got[..3usize.checked_sub(pad)?]);
    }
    Some(out)
}
