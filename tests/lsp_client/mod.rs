//! A client of `turnscript lsp` for the tests: the binary started, JSON-RPC written to its
//! standard input, the replies read from its standard output on a thread.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    /// Piped, unless [`Client::start_with_stderr`] was given another.
    pub stderr: Option<ChildStderr>,
    pub replies: Receiver<Value>,
    pub next_id: i64,
    pub root: String,
}

impl Client {
    pub fn start() -> Client {
        Client::start_with_stderr(Stdio::piped())
    }

    pub fn start_with_stderr(stderr: Stdio) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_turnscript"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("turnscript lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stderr = child.stderr.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length:") {
                        len = n.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let root = std::env::current_dir().expect("cwd").display().to_string();
        Client {
            child,
            stdin,
            stderr,
            replies,
            next_id: 1,
            root,
        }
    }

    /// Writes bytes as they are, framed or not.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    /// `initialize` and `initialized`.
    pub fn initialize(&mut self) {
        let _ = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        self.notify("initialized", json!({}));
    }

    /// The next reply or notification, or `None` when none comes within `secs` seconds.
    pub fn next_within(&self, secs: u64) -> Option<Value> {
        self.replies.recv_timeout(Duration::from_secs(secs)).ok()
    }

    /// `shutdown`, `exit`, and the exit status with what was written on standard error.
    pub fn finish(mut self) -> (Option<i32>, String) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.end()
    }

    /// Closes standard input; the exit status and standard error.
    pub fn end(mut self) -> (Option<i32>, String) {
        drop(self.stdin);
        let status = self.child.wait().expect("the server exits");
        let mut stderr = String::new();
        if let Some(mut e) = self.stderr {
            let _ = e.read_to_string(&mut stderr);
        }
        (status.code(), stderr)
    }

    /// The peak memory of the server so far (VmHWM), in bytes.
    pub fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("the server's status");
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in the status");
        kb * 1024
    }

    pub fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    pub fn next(&self) -> Value {
        self.replies
            .recv_timeout(Duration::from_secs(20))
            .expect("the server answers within 20 s")
    }

    /// Sends a request and returns its result (or error), skipping notifications in between.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.next();
            if v["id"] == json!(id) {
                return self.relative(v.get("result").or(v.get("error")).cloned().unwrap_or(Value::Null));
            }
        }
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The diagnostics published next for `uri`.
    pub fn diagnostics_for(&self, uri: &str) -> Value {
        loop {
            let v = self.next();
            if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri {
                return self.relative(v["params"]["diagnostics"].clone());
            }
        }
    }

    pub fn uri(&self, path: &str) -> String {
        format!("file://{}/{path}", self.root)
    }

    /// URIs of the repository's files written as `file:///ROOT/...`.
    pub fn relative(&self, v: Value) -> Value {
        let text = v.to_string().replace(&format!("file://{}", self.root), "file:///ROOT");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

/// The position (line, UTF-16 column) of the `nth` occurrence of `needle` in `text`, plus `delta`.
pub fn pos(text: &str, needle: &str, nth: usize, delta: usize) -> Value {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .map(|m| m.0)
        .expect("the needle is in the text")
        + delta;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

pub fn doc_pos(uri: &str, text: &str, needle: &str, nth: usize, delta: usize) -> Value {
    json!({"textDocument": {"uri": uri}, "position": pos(text, needle, nth, delta)})
}
