//! A server of `turnscript serve` started in the test process on a free port, and a small HTTP
//! client for it (std only): the API tests and the browser tests share them.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

pub struct Server {
    pub port: u16,
    /// What it said as it started: the URLs.
    pub said: String,
}

impl Server {
    /// Serves `ruleset` (and `encounter`) at `seed` from a thread of this process, with no
    /// autosave; `host`: where it listens.
    pub fn start_on(host: &str, ruleset: &str, encounter: Option<&str>, seed: u64) -> Server {
        let listener = TcpListener::bind((host, 0)).expect("a free port");
        let port = listener.local_addr().unwrap().port();
        let opts = turnscript::serve::ServeOptions {
            table: turnscript::table::Options {
                ruleset: Some(ruleset.into()),
                encounter: encounter.map(Into::into),
                seed,
                autosave: None,
                colour: Some(false),
                width: 0,
            },
            host: host.parse().unwrap(),
            port,
        };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut said = Vec::new();
            let mut tell = Tell(tx, &mut said);
            let r = turnscript::serve::start(listener, opts, &mut tell);
            panic!("the server stopped: {r:?}");
        });
        let said = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server says its URLs");
        Server { port, said }
    }

    pub fn start(ruleset: &str, encounter: Option<&str>, seed: u64) -> Server {
        Server::start_on("127.0.0.1", ruleset, encounter, seed)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The players' token, from the URL it printed.
    pub fn players_token(&self) -> String {
        self.said
            .split("token=")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .expect("a players' URL")
            .to_string()
    }

    /// The GM's key, when it printed one (listening beyond loopback).
    pub fn gm_key(&self) -> Option<String> {
        self.said
            .split("?key=")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .map(str::to_string)
    }

    /// A request with the usual headers (Host, and JSON for a body); `extra` adds or replaces.
    pub fn raw(&self, method: &str, path: &str, extra: &[(&str, &str)], body: &str) -> (u16, String) {
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        let mut names: Vec<String> = extra.iter().map(|(k, _)| k.to_ascii_lowercase()).collect();
        for (k, v) in extra {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        let mut default = |k: &str, v: String| {
            if !names.contains(&k.to_ascii_lowercase()) {
                head.push_str(&format!("{k}: {v}\r\n"));
                names.push(k.to_ascii_lowercase());
            }
        };
        default("Host", format!("127.0.0.1:{}", self.port));
        if !body.is_empty() || method == "POST" {
            default("Content-Type", "application/json".into());
            default("Content-Length", body.len().to_string());
        }
        head.push_str("\r\n");
        send(self.port, head.as_bytes(), body.as_bytes())
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.raw("GET", path, &[], "")
    }

    pub fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// A command as the GM's page sends it: (status, reply).
    pub fn command(&self, line: &str) -> (u16, Value) {
        let (status, body) = self.raw(
            "POST",
            "/api/command",
            &[],
            &serde_json::json!({ "line": line }).to_string(),
        );
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// A command that must be taken: its reply's text.
    pub fn ok(&self, line: &str) -> Value {
        let (status, reply) = self.command(line);
        assert_eq!(status, 200, "`{line}`: {reply}");
        reply
    }

    /// Opens the event stream of `path` and reads its first event's data.
    pub fn events(&self, path: &str) -> Events {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", self.port).unwrap();
        let mut r = BufReader::new(s);
        let mut line = String::new();
        // The head.
        loop {
            line.clear();
            r.read_line(&mut line).unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        Events(r)
    }
}

/// Sends what the server says as it starts to the test, once it has said it.
struct Tell<'a>(std::sync::mpsc::Sender<String>, &'a mut Vec<u8>);

impl Write for Tell<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let _ = self.0.send(String::from_utf8_lossy(self.1).into_owned());
        Ok(())
    }
}

/// Raw bytes to the server: (status, body).
pub fn send(port: u16, head: &[u8], body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // The server may answer (and close) before it has read everything sent: that is fine.
    let _ = s.write_all(head);
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// An open event stream.
pub struct Events(BufReader<TcpStream>);

impl Events {
    /// The next `view` event's data (comment lines skipped).
    pub fn next_view(&mut self) -> Value {
        let mut data = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.0.read_line(&mut line).expect("an event in time");
            assert!(n > 0, "the stream ended");
            if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d.trim_end_matches('\n'));
            } else if line == "\n" && !data.is_empty() {
                return serde_json::from_str(&data).unwrap();
            }
        }
    }
}
