//! The browser table's routes: the GM's page and the players' page, their assets, the views as
//! JSON, the commands, the live updates, and opening a ruleset. One [`Table`] behind a lock;
//! every change bumps a version that the open event streams wait on.

use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};

use super::http::{Method, Refused, Request, Response};
use crate::table::view::{Audience, view};
use crate::table::{Fence, Options, Table};

/// The events a view carries: the GM's and the players'.
const GM_EVENTS: usize = 40;
const PLAYERS_EVENTS: usize = 16;
/// How often an idle event stream says it is alive (a comment line), so a closed page is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Who may use what.
pub struct Keys {
    /// Needed for the GM's page and API when the server listens beyond loopback; `None` on
    /// loopback, where only this machine reaches it.
    pub gm: Option<String>,
    /// In the players' page's URL; the page and its view need it.
    pub players: String,
}

/// The server's shared state.
pub struct App {
    table: Mutex<Table>,
    /// Bumped at every change; event streams wait for it.
    version: Mutex<u64>,
    /// The event streams open (at most `http_streams`, so they never take every connection).
    streams: std::sync::atomic::AtomicUsize,
    changed: Condvar,
    pub keys: Keys,
    /// Where files may be opened from (the working directory and the files named at start).
    fence: Fence,
    /// The options a newly opened table starts from (colour off, the seed).
    base: Options,
    /// The rulesets and encounters named on the command line, offered first.
    named: Vec<PathBuf>,
}

impl App {
    pub fn new(table: Table, keys: Keys, fence: Fence, base: Options, named: Vec<PathBuf>) -> App {
        App {
            table: Mutex::new(table),
            version: Mutex::new(0),
            streams: std::sync::atomic::AtomicUsize::new(0),
            changed: Condvar::new(),
            keys,
            fence,
            base,
            named,
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // A handler that panicked holding the lock left the table as it was before the command
        // (a command changes it only once it succeeds): go on with it.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self) {
        let mut v = self.version.lock().unwrap_or_else(|e| e.into_inner());
        *v += 1;
        self.changed.notify_all();
    }

    fn version(&self) -> u64 {
        *self.version.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the version is past `seen`, or `KEEP_ALIVE` passes; the version then.
    fn wait_change(&self, seen: u64) -> u64 {
        let v = self.version.lock().unwrap_or_else(|e| e.into_inner());
        let (v, _) = self
            .changed
            .wait_timeout_while(v, KEEP_ALIVE, |v| *v == seen)
            .unwrap_or_else(|e| e.into_inner());
        *v
    }

    pub fn view(&self, who: Audience) -> Value {
        let t = self.table();
        let mut v = view(&t, who, if who == Audience::Gm { GM_EVENTS } else { PLAYERS_EVENTS });
        if who == Audience::Gm {
            v["prompt"] = json!(t.prompt());
            v["players_token"] = json!(self.keys.players);
        }
        v
    }

    /// Whether the request carries the GM's key (always, on loopback).
    fn gm(&self, req: &Request) -> bool {
        match &self.keys.gm {
            None => true,
            Some(k) => [req.bearer.as_deref(), req.param("key")]
                .into_iter()
                .flatten()
                .any(|t| super::same_secret(t, k)),
        }
    }

    fn players(&self, req: &Request) -> bool {
        req.param("token")
            .is_some_and(|t| super::same_secret(t, &self.keys.players))
            || self.gm(req)
    }

    /// Answers one request that is not an event stream.
    pub fn handle(&self, req: &Request) -> Response {
        let get = matches!(req.method, Method::Get | Method::Head);
        match (get, req.path.as_str()) {
            (true, "/") => self.need_gm(req).unwrap_or_else(|| page(GM_HTML)),
            (true, "/players") => {
                if self.players(req) {
                    page(PLAYERS_HTML)
                } else {
                    refused(
                        403,
                        "the players' page needs the token of its URL, as `turnscript serve` printed it",
                    )
                }
            }
            (true, "/app.css") => Response::new(200, "text/css; charset=utf-8", APP_CSS),
            (true, "/common.js") => Response::new(200, "text/javascript; charset=utf-8", COMMON_JS),
            (true, "/gm.js") => Response::new(200, "text/javascript; charset=utf-8", GM_JS),
            (true, "/players.js") => Response::new(200, "text/javascript; charset=utf-8", PLAYERS_JS),
            (true, "/api/view") => self
                .need_gm(req)
                .unwrap_or_else(|| Response::json(200, &self.view(Audience::Gm))),
            (true, "/api/players/view") => {
                if self.players(req) {
                    Response::json(200, &self.view(Audience::Players))
                } else {
                    refused(403, "the players' view needs the players' token")
                }
            }
            (true, "/api/files") => self.need_gm(req).unwrap_or_else(|| self.files()),
            (false, "/api/command") => self.need_post(req).unwrap_or_else(|| self.command(req)),
            (false, "/api/open") => self.need_post(req).unwrap_or_else(|| self.open(req)),
            (_, "/" | "/players" | "/app.css" | "/common.js" | "/gm.js" | "/players.js" | "/api/view")
            | (_, "/api/players/view" | "/api/files" | "/api/events") => refused(405, "this path takes GET"),
            (_, "/api/command" | "/api/open") => refused(405, "this path takes POST"),
            _ => refused(404, format!("nothing is at {}", crate::limits::clip(&req.path))),
        }
    }

    fn need_gm(&self, req: &Request) -> Option<Response> {
        (!self.gm(req)).then(|| {
            refused(
                403,
                "the GM's page needs the GM's key (`?key=...`), as `turnscript serve` printed its URL",
            )
        })
    }

    /// A change: the GM's key, a JSON body (which a page on another site cannot send without the
    /// browser asking first, and this server never says yes), and an `Origin` of this server
    /// when the browser names one.
    fn need_post(&self, req: &Request) -> Option<Response> {
        if let Some(r) = self.need_gm(req) {
            return Some(r);
        }
        if req.content_type.as_deref() != Some("application/json") {
            return Some(refused(
                415,
                "a change is sent as JSON (Content-Type: application/json)",
            ));
        }
        if let (Some(origin), Some(host)) = (&req.origin, &req.host)
            && origin != &format!("http://{host}")
        {
            return Some(refused(403, "a change comes from this server's own pages"));
        }
        None
    }

    /// `{"line": COMMAND}`: the command as the REPL takes it; the reply and the new view.
    fn command(&self, req: &Request) -> Response {
        let line = match body_field(&req.body, "line") {
            Ok(l) => l,
            Err(r) => return Response::refused(&r),
        };
        if line.len() > crate::limits::MAX_REPL_DEFINITION_BYTES {
            return refused(
                413,
                format!(
                    "the command is {} bytes long; the REPL's limit is {}",
                    line.len(),
                    crate::limits::MAX_REPL_DEFINITION_BYTES
                ),
            );
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if matches!(word, "quit" | "exit") {
            return refused(
                422,
                "the table in the browser is not quit: close the page, or stop `turnscript serve` in its terminal",
            );
        }
        let reply = {
            let mut t = self.table();
            let mut reply = t.exec(&line);
            // Written now: the server may be stopped at any moment.
            reply.out.push_str(&t.flush_autosave());
            // A failed autosave is said to the GM and on the server's standard error.
            let errors = t.take_errors();
            if !errors.is_empty() {
                let _ = crate::output::err(&errors);
                reply.out.push_str(&errors);
            }
            reply
        };
        // What only reads the table changes nothing the pages show.
        if !reply.error && !matches!(word, "show" | "help" | "trace" | "log") {
            self.bump();
        }
        Response::json(
            if reply.error { 422 } else { 200 },
            &json!({ "out": reply.out, "error": reply.error, "view": self.view(Audience::Gm) }),
        )
    }

    /// `{"ruleset": PATH, "encounter": PATH|null, "seed": N}`: a new table on those files.
    fn open(&self, req: &Request) -> Response {
        let v: Value = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => return refused(400, format!("the body is not JSON: {e}")),
        };
        let path = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
        };
        let Some(ruleset) = path("ruleset") else {
            return refused(400, "name a ruleset: {\"ruleset\": PATH}");
        };
        let encounter = path("encounter");
        for p in std::iter::once(&ruleset).chain(encounter.iter()) {
            if let Err(e) = self.fence.allows(p) {
                return refused(403, e.trim_start_matches("error: ").trim_end().to_string());
            }
        }
        let seed = match v.get("seed") {
            None | Some(Value::Null) => self.base.seed,
            Some(s) => match s.as_u64() {
                Some(n) => n,
                None => return refused(400, "the seed is a whole number from 0"),
            },
        };
        // Autosaved as the table the server started with was (`--no-autosave`: not at all), under
        // the new encounter's own name.
        let autosave = self
            .base
            .autosave
            .as_ref()
            .map(|_| crate::table::autosave_for(encounter.as_deref().unwrap_or(&ruleset)));
        let opts = Options {
            autosave,
            ruleset: Some(ruleset),
            encounter,
            seed,
            ..self.base.clone()
        };
        match Table::new(opts) {
            Ok((mut t, out)) => {
                t.fence(self.fence.clone());
                *self.table() = t;
                self.bump();
                Response::json(
                    200,
                    &json!({ "out": out, "error": false, "view": self.view(Audience::Gm) }),
                )
            }
            Err(out) => Response::json(422, &json!({ "out": out, "error": true })),
        }
    }

    /// The rulesets and encounters the GM may open: those named at the start, then every `.turn`
    /// file under the working directory (a bounded walk).
    fn files(&self) -> Response {
        let mut found: Vec<String> = self.named.iter().map(|p| p.display().to_string()).collect();
        let mut walk = vec![(PathBuf::from("."), 0usize)];
        let mut seen = 0usize;
        while let Some((dir, depth)) = walk.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            let mut entries: Vec<_> = entries.flatten().collect();
            entries.sort_by_key(|e| e.file_name());
            for e in entries {
                seen += 1;
                if seen > MAX_LISTED || found.len() >= MAX_LISTED {
                    break;
                }
                let name = e.file_name().to_string_lossy().into_owned();
                let Ok(kind) = e.file_type() else { continue };
                let path = dir.join(&name);
                if kind.is_dir() && depth < MAX_DEPTH && !name.starts_with('.') && name != "target" {
                    walk.push((path, depth + 1));
                } else if kind.is_file() && name.ends_with(".turn") {
                    let shown = path.strip_prefix(".").unwrap_or(&path).display().to_string();
                    if !found.contains(&shown) {
                        found.push(shown);
                    }
                }
            }
        }
        found[self.named.len()..].sort();
        Response::json(200, &json!({ "files": found }))
    }

    /// Streams `who`'s view as server-sent events: at once, then after every change, with a
    /// comment line while idle. Ends when the page goes away.
    pub fn events(&self, req: &Request, w: &mut impl std::io::Write) {
        let who = match req.param("audience") {
            Some("players") if self.players(req) => Audience::Players,
            Some("gm") | None if self.gm(req) => Audience::Gm,
            _ => {
                let _ = super::http::write_response(
                    w,
                    &Response::refused(&Refused::new(403, "this stream needs its page's key or token")),
                    false,
                );
                return;
            }
        };
        use std::sync::atomic::Ordering;
        let max = crate::limits::MAX_HTTP_STREAMS;
        if self.streams.fetch_add(1, Ordering::SeqCst) >= max {
            self.streams.fetch_sub(1, Ordering::SeqCst);
            let r = Refused::new(
                503,
                format!("{max} pages are following this table, its limit: close one and reload"),
            );
            let _ = super::http::write_response(w, &Response::refused(&r), false);
            return;
        }
        // Counted down however the stream ends.
        struct Open<'a>(&'a std::sync::atomic::AtomicUsize);
        impl Drop for Open<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let _open = Open(&self.streams);
        if super::http::write_event_stream_head(w).is_err() {
            return;
        }
        let mut seen = self.version();
        if super::http::write_event(w, "view", &self.view(who).to_string()).is_err() {
            return;
        }
        loop {
            let now = self.wait_change(seen);
            let sent = if now == seen {
                w.write_all(b": alive\n\n").and_then(|_| w.flush())
            } else {
                seen = now;
                super::http::write_event(w, "view", &self.view(who).to_string())
            };
            if sent.is_err() {
                return;
            }
        }
    }
}

/// The most files `/api/files` lists, and how deep it looks under the working directory.
const MAX_LISTED: usize = 2000;
const MAX_DEPTH: usize = 4;

fn page(html: &'static str) -> Response {
    Response::new(200, "text/html; charset=utf-8", html)
}

fn refused(status: u16, message: impl Into<String>) -> Response {
    Response::refused(&Refused::new(status, message))
}

/// A string field of a JSON body.
fn body_field(body: &[u8], key: &str) -> Result<String, Refused> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Refused::new(400, format!("the body is not JSON: {e}")))?;
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| Refused::new(400, format!("the body names no `{key}` string")))
}

/// The page and its assets, served from the binary (no network, no build step).
const GM_HTML: &str = include_str!("page/gm.html");
const PLAYERS_HTML: &str = include_str!("page/players.html");
const APP_CSS: &str = include_str!("page/app.css");
const COMMON_JS: &str = include_str!("page/common.js");
const GM_JS: &str = include_str!("page/gm.js");
const PLAYERS_JS: &str = include_str!("page/players.js");
