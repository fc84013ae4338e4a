//! `turnscript serve`: the table in a browser. The HTTP layer (`http.rs`) and how connections
//! are taken and who may use which page (this file).

pub mod http;

use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How long a client may take to send its request, and a write may wait on a slow reader.
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
            // A connection reset before it was taken, or too many open files for now: go on.
            Err(_) => continue,
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
                handle2(s);
                open2.fetch_sub(1, Ordering::SeqCst);
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
