//! `turnscript serve`: the table in a browser. The HTTP layer (`http.rs`) and how connections
//! are taken and who may use which page (this file).

// Standard output and error are written through crate::output, which never panics.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod app;
pub mod http;

use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How `turnscript serve` starts.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The table's ruleset, encounter, seed and autosave (no colour, any width).
    pub table: crate::table::Options,
    /// Where to listen; loopback unless `--host` is given.
    pub host: IpAddr,
    /// 0: a free port.
    pub port: u16,
}

/// The bounds of a request (docs/limits.md).
pub const BOUNDS: http::Bounds = http::Bounds {
    head_bytes: crate::limits::MAX_HTTP_HEAD_BYTES,
    headers: crate::limits::MAX_HTTP_HEADERS,
    body_bytes: crate::limits::MAX_HTTP_BODY_BYTES,
};

/// `turnscript serve`: opens the table, listens, says the URLs, and serves until stopped.
/// Returns the exit code (1 when the table or the listener cannot start).
pub fn main(opts: ServeOptions) -> i32 {
    let listener = match TcpListener::bind((opts.host, opts.port)) {
        Ok(l) => l,
        Err(e) => {
            let _ = crate::output::err(&format!(
                "error: cannot listen on {}:{}: {e}\n  help: give another --port (0 takes a free one)\n",
                opts.host, opts.port
            ));
            return 1;
        }
    };
    match start(listener, opts, &mut std::io::stdout()) {
        Ok(()) => 0,
        Err(e) => {
            let _ = crate::output::err(&e);
            1
        }
    }
}

/// Serves on `listener` (what `main` does once it listens): says the URLs on `say`, then takes
/// connections until accepting fails. For the tests: a listener on a free port.
pub fn start(listener: TcpListener, opts: ServeOptions, say: &mut dyn Write) -> Result<(), String> {
    let addr = listener
        .local_addr()
        .map_err(|e| format!("error: cannot listen: {e}\n"))?;
    let cwd = std::env::current_dir().map_err(|e| format!("error: cannot read the working directory: {e}\n"))?;
    let named: Vec<std::path::PathBuf> = [&opts.table.ruleset, &opts.table.encounter]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let fence =
        crate::table::Fence::new(&cwd, &named).map_err(|e| format!("error: cannot read {}: {e}\n", cwd.display()))?;
    let (mut table, out) = crate::table::Table::new(opts.table.clone())?;
    table.fence(fence.clone());
    let secret = |what: &str| token().map_err(|e| format!("error: cannot make the {what}'s secret: {e}\n"));
    let keys = app::Keys {
        gm: if addr.ip().is_loopback() {
            None
        } else {
            Some(secret("GM")?)
        },
        players: secret("players")?,
    };
    let host = url_host(addr.ip());
    let base = format!("http://{host}:{}", addr.port());
    let gm_url = match &keys.gm {
        Some(k) => format!("{base}/?key={k}"),
        None => format!("{base}/"),
    };
    // What the table said as it opened: its notes (an autosave's fresh name), then where it stands.
    let mut text: String = out
        .lines()
        .filter(|l| l.starts_with("note:"))
        .map(|l| format!("{l}\n"))
        .collect();
    if let Some(last) = out.lines().last().filter(|l| !l.starts_with("note:")) {
        text.push_str(&format!("{last}\n"));
    }
    text.push_str(&format!(
        "the GM's table:      {gm_url}\nthe players' screen: {base}/players?token={}\n",
        keys.players
    ));
    if keys.gm.is_some() {
        text.push_str("(listening beyond this machine: the GM's URL carries its key; keep it to yourself)\n");
    }
    match &opts.table.autosave {
        Some(p) => text.push_str(&format!(
            "Ctrl-C stops the server; every change is autosaved in {} as it is made\n",
            p.display()
        )),
        None => text.push_str("Ctrl-C stops the server (no autosave: `save FILE` keeps the session)\n"),
    }
    say.write_all(text.as_bytes())
        .and_then(|_| say.flush())
        .map_err(|e| format!("error: cannot write: {e}\n"))?;
    let app = std::sync::Arc::new(app::App::new(table, keys, fence, opts.table.clone(), named));
    let handle: Arc<dyn Fn(TcpStream) + Send + Sync> = Arc::new(move |stream| connection(&app, stream, addr));
    accept_loop(&listener, crate::limits::MAX_HTTP_CONNECTIONS, handle)
        .map_err(|e| format!("error: the server stopped: {e}\n"))
}

/// One connection: a request read whole and answered, or an event stream kept open.
fn connection(app: &app::App, mut stream: TcpStream, bound: SocketAddr) {
    let mut timed = http::Deadline {
        inner: &mut stream,
        until: std::time::Instant::now() + IO_TIMEOUT,
    };
    let req = match http::read_request(&mut timed, BOUNDS) {
        Ok(Some(r)) => r,
        Ok(None) => return,
        Err(r) => {
            let _ = http::write_response(&mut stream, &http::Response::refused(&r), false);
            return;
        }
    };
    if !host_allowed(req.host.as_deref(), bound) {
        let r = http::Refused::new(
            421,
            format!(
                "this server answers to http://{}:{} only",
                url_host(bound.ip()),
                bound.port()
            ),
        );
        let _ = http::write_response(&mut stream, &http::Response::refused(&r), false);
        return;
    }
    if req.path == "/api/events" && req.method == http::Method::Get {
        // A stream stays open: no write timeout on a page that is only slow to read.
        let _ = stream.set_read_timeout(None);
        app.events(&req, &mut stream);
        return;
    }
    let resp = app.handle(&req);
    let _ = http::write_response(&mut stream, &resp, req.method == http::Method::Head);
}

/// How long a client may take to send its whole request, and a write may wait on a slow reader.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// Takes connections on `listener`, each on its own thread, at most `max` at once: past that, a
/// connection is answered 503 at once and closed. A thread that cannot be started is the same
/// 503, never a panic. Returns only when accepting fails for good.
pub fn accept_loop(
    listener: &TcpListener,
    max: usize,
    handle: Arc<dyn Fn(TcpStream) + Send + Sync>,
) -> std::io::Result<()> {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // A connection reset before it was taken, or too many open files for now: go on,
            // after a pause (out of descriptors, accept fails at once, again and again).
            Err(_) => {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        if open.fetch_add(1, Ordering::SeqCst) >= max {
            open.fetch_sub(1, Ordering::SeqCst);
            busy(stream, max);
            continue;
        }
        let (open2, handle2) = (open.clone(), handle.clone());
        let started = match stream.try_clone() {
            Ok(s) => std::thread::Builder::new().name("serve-conn".into()).spawn(move || {
                // Counted down however the handler ends, a panic too (or every slot would leak).
                let _slot = Slot(open2);
                handle2(s);
            }),
            Err(e) => Err(e),
        };
        if started.is_err() {
            open.fetch_sub(1, Ordering::SeqCst);
            busy(stream, max);
        }
    }
    Ok(())
}

/// An address as a URL writes it (`[::1]` for IPv6).
fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    }
}

/// A connection's place among those open, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn busy(mut stream: TcpStream, max: usize) {
    let r = http::Refused::new(
        503,
        format!("the server has {max} connections open, its limit: close a page and try again"),
    );
    let _ = http::write_response(&mut stream, &http::Response::refused(&r), false);
    let _ = stream.flush();
}

/// Whether a request's `Host` names the address the server listens on. On loopback only the
/// loopback names are taken: a page elsewhere that makes a name resolve to 127.0.0.1 (DNS
/// rebinding) is refused, as it would otherwise reach the GM's page with the GM's rights.
pub fn host_allowed(host: Option<&str>, bound: SocketAddr) -> bool {
    let Some(host) = host else { return false };
    if !bound.ip().is_loopback() {
        // Listening beyond loopback (`--host`): any name may lead here; the tokens guard.
        return true;
    }
    let port = bound.port().to_string();
    let Some(name) = host.strip_suffix(&format!(":{port}")) else {
        return false;
    };
    match name {
        "localhost" => true,
        _ => name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback()),
    }
}

/// A fresh secret for a URL: 128 bits from the system's random source, in hex. Never from the
/// seeded dice stream, which a session file names.
pub fn token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two secrets in time that does not depend on where they first differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_loopback_only_loopback_hosts_with_the_port_are_taken() {
        let bound: SocketAddr = "127.0.0.1:7878".parse().unwrap();
        for ok in ["127.0.0.1:7878", "localhost:7878", "[::1]:7878", "127.0.0.2:7878"] {
            assert!(host_allowed(Some(ok), bound), "{ok}");
        }
        for no in [
            "evil.example:7878",
            "127.0.0.1:80",
            "localhost",
            "127.0.0.1",
            "10.0.0.1:7878",
        ] {
            assert!(!host_allowed(Some(no), bound), "{no}");
        }
        assert!(!host_allowed(None, bound));
        let wide: SocketAddr = "0.0.0.0:7878".parse().unwrap();
        assert!(host_allowed(Some("table.lan:7878"), wide));
    }

    #[test]
    fn tokens_are_fresh_and_compared_whole() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, &a[..31]));
    }
}
