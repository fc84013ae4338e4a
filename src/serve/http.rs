//! The HTTP of `turnscript serve`: one request per connection (`Connection: close`), its head
//! parsed by httparse, every size bounded (a bound passed is a 4xx with a message, never a
//! read without end), and server-sent events for the live updates. Only what a local table
//! needs: GET and POST, a body with a Content-Length, no chunked bodies, no keep-alive.

use std::io::{self, Read, Write};

/// The bounds of one request.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Largest request line and headers together, in bytes.
    pub head_bytes: usize,
    /// Most header lines.
    pub headers: usize,
    /// Largest body, in bytes.
    pub body_bytes: usize,
}

/// A request, read whole.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    /// The path, percent-decoded (`/api/command`).
    pub path: String,
    /// The query's pairs, percent-decoded, in order.
    pub query: Vec<(String, String)>,
    /// `Host`, lowercased.
    pub host: Option<String>,
    /// `Origin`, when the browser sent one (a page's script asking).
    pub origin: Option<String>,
    /// `Content-Type`, lowercased, without its parameters.
    pub content_type: Option<String>,
    /// `Authorization: Bearer TOKEN`'s token.
    pub bearer: Option<String>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of a query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Post,
}

/// A request refused before it was handled: its status and what to say.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

impl Refused {
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        Refused {
            status,
            message: message.into(),
        }
    }
}

/// Reads one request from `r`. `Ok(None)`: the client closed the connection before sending a
/// whole head (nothing to answer).
pub fn read_request(r: &mut impl Read, bounds: Bounds) -> Result<Option<Request>, Refused> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    // The head: read until httparse finds its end, never past the bound.
    let (head_len, method, target, host, origin, content_type, bearer, length, chunked) = loop {
        let mut headers = vec![httparse::EMPTY_HEADER; bounds.headers];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf) {
            Ok(httparse::Status::Complete(n)) => {
                let method = match req.method {
                    Some("GET") => Method::Get,
                    Some("HEAD") => Method::Head,
                    Some("POST") => Method::Post,
                    Some(m) => {
                        return Err(Refused::new(
                            405,
                            format!(
                                "{} is not a method this server takes (GET, HEAD, POST)",
                                crate::limits::clip(m)
                            ),
                        ));
                    }
                    None => return Err(Refused::new(400, "the request has no method")),
                };
                let target = req.path.unwrap_or("/").to_string();
                let mut host = None;
                let mut origin = None;
                let mut content_type = None;
                let mut bearer = None;
                let mut length = None;
                let mut chunked = false;
                for h in req.headers.iter() {
                    let value = std::str::from_utf8(h.value)
                        .map_err(|_| Refused::new(400, format!("the {} header is not UTF-8", h.name)))?
                        .trim();
                    match h.name.to_ascii_lowercase().as_str() {
                        "host" => host = Some(value.to_ascii_lowercase()),
                        "origin" => origin = Some(value.to_ascii_lowercase()),
                        "content-type" => {
                            content_type = Some(value.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
                        }
                        "authorization" => {
                            bearer = value
                                .strip_prefix("Bearer ")
                                .or_else(|| value.strip_prefix("bearer "))
                                .map(|t| t.trim().to_string())
                        }
                        "content-length" => {
                            let n: u64 = value.parse().map_err(|_| {
                                Refused::new(
                                    400,
                                    format!("Content-Length `{}` is not a number", crate::limits::clip(value)),
                                )
                            })?;
                            if length.is_some_and(|l| l != n) {
                                return Err(Refused::new(400, "two Content-Length headers disagree"));
                            }
                            length = Some(n);
                        }
                        "transfer-encoding" => chunked = true,
                        _ => {}
                    }
                }
                break (n, method, target, host, origin, content_type, bearer, length, chunked);
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(Refused::new(
                    431,
                    format!("the request has more than {} headers", bounds.headers),
                ));
            }
            Err(e) => return Err(Refused::new(400, format!("the request is not HTTP/1.1: {e}"))),
        }
        if buf.len() >= bounds.head_bytes {
            return Err(Refused::new(
                431,
                format!("the request's head is longer than {} bytes", bounds.head_bytes),
            ));
        }
        let room = (bounds.head_bytes - buf.len()).min(chunk.len());
        match r.read(&mut chunk[..room]) {
            Ok(0) => return Ok(None),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                return Err(Refused::new(408, "the request did not arrive in time"));
            }
            Err(_) => return Ok(None),
        }
    };
    if chunked {
        return Err(Refused::new(
            411,
            "a chunked body is not taken here: send it with a Content-Length",
        ));
    }
    let length = length.unwrap_or(0);
    if length > bounds.body_bytes as u64 {
        return Err(Refused::new(
            413,
            format!(
                "the body is {length} bytes, more than the limit of {}",
                bounds.body_bytes
            ),
        ));
    }
    let length = length as usize;
    // What came with the head, then the rest.
    let mut body = buf.split_off(head_len);
    if body.len() > length {
        return Err(Refused::new(400, "more bytes came than the Content-Length says"));
    }
    body.reserve_exact(length - body.len());
    while body.len() < length {
        let room = (length - body.len()).min(chunk.len());
        match r.read(&mut chunk[..room]) {
            Ok(0) => return Err(Refused::new(400, "the body is shorter than its Content-Length")),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Refused::new(408, "the body did not arrive in time")),
        }
    }
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, q),
        None => (target.as_str(), ""),
    };
    if !path.starts_with('/') {
        return Err(Refused::new(400, "the request's target is not a path"));
    }
    let path = decode(path, false).ok_or_else(|| Refused::new(400, "the path is not percent-encoded UTF-8"))?;
    let query = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(k, true)?, decode(v, true)?))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Refused::new(400, "the query is not percent-encoded UTF-8"))?;
    Ok(Some(Request {
        method,
        path,
        query,
        host,
        origin,
        content_type,
        bearer,
        body,
    }))
}

/// A reader that fails (`TimedOut`) once its deadline has passed: a request must arrive whole
/// within the time, not only each piece within the socket's timeout (a client sending a byte
/// every few seconds would hold a connection for hours).
pub struct Deadline<R> {
    pub inner: R,
    pub until: std::time::Instant,
}

impl<R: Read> Read for Deadline<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if std::time::Instant::now() >= self.until {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "the request took too long"));
        }
        self.inner.read(buf)
    }
}

/// Percent-decodes `s` (and `+` as a space in a query); `None` when it is not UTF-8 after.
pub fn decode(s: &str, plus: bool) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A response with a whole body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Self {
        Response {
            status,
            content_type,
            body: body.into(),
        }
    }
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Response::new(status, "application/json", value.to_string())
    }
    /// A refusal: the status and `{"error": MESSAGE}`.
    pub fn refused(r: &Refused) -> Self {
        Response::json(r.status, &serde_json::json!({ "error": r.message }))
    }
}

/// The reason phrase of the statuses this server answers with.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// What every response says besides its body: nothing cached, nothing sniffed, never framed,
/// the token in a URL never sent on as a referrer, and the page's scripts only its own.
const SAFE_HEADERS: &str = "Connection: close\r\n\
Cache-Control: no-store\r\n\
X-Content-Type-Options: nosniff\r\n\
X-Frame-Options: DENY\r\n\
Referrer-Policy: no-referrer\r\n\
Content-Security-Policy: default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'\r\n";

/// Writes `resp` (its head only for a HEAD request).
pub fn write_response(w: &mut impl Write, resp: &Response, head_only: bool) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{SAFE_HEADERS}\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len()
    );
    w.write_all(head.as_bytes())?;
    if !head_only {
        w.write_all(&resp.body)?;
    }
    w.flush()
}

/// Starts a stream of server-sent events.
pub fn write_event_stream_head(w: &mut impl Write) -> io::Result<()> {
    w.write_all(format!("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{SAFE_HEADERS}\r\n").as_bytes())?;
    w.flush()
}

/// One server-sent event: its name and its data (one `data:` line per line of it).
pub fn write_event(w: &mut impl Write, event: &str, data: &str) -> io::Result<()> {
    let mut out = format!("event: {event}\n");
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push('\n');
    }
    out.push('\n');
    w.write_all(out.as_bytes())?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Bounds = Bounds {
        head_bytes: 256,
        headers: 8,
        body_bytes: 32,
    };

    fn read(bytes: &[u8]) -> Result<Option<Request>, Refused> {
        read_request(&mut io::Cursor::new(bytes.to_vec()), B)
    }

    fn status(bytes: &[u8]) -> u16 {
        match read(bytes) {
            Err(r) => r.status,
            Ok(Some(_)) => 200,
            Ok(None) => 0,
        }
    }

    #[test]
    fn a_get_with_a_query_is_read_and_decoded() {
        let r = read(b"GET /players?token=a%2Bb&x=1+2 HTTP/1.1\r\nHost: 127.0.0.1:7\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(r.method, Method::Get);
        assert_eq!(r.path, "/players");
        assert_eq!(r.param("token"), Some("a+b"));
        assert_eq!(r.param("x"), Some("1 2"));
        assert_eq!(r.host.as_deref(), Some("127.0.0.1:7"));
    }

    #[test]
    fn a_post_body_is_read_whole_across_reads() {
        let r = read(b"POST /api/command HTTP/1.1\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 11\r\n\r\n{\"line\":1}\n")
            .unwrap()
            .unwrap();
        assert_eq!(r.body, b"{\"line\":1}\n");
        assert_eq!(r.content_type.as_deref(), Some("application/json"));
    }

    #[test]
    fn every_bound_and_malformation_is_a_4xx() {
        // The head past its bound, without end.
        let mut long = b"GET / HTTP/1.1\r\nX: ".to_vec();
        long.extend(std::iter::repeat_n(b'a', 1000));
        assert_eq!(status(&long), 431);
        // More headers than the bound.
        let many: String = (0..20).map(|i| format!("X{i}: 1\r\n")).collect();
        assert_eq!(status(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()), 431);
        // A body larger than the bound is refused before it is read.
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999\r\n\r\n"),
            413
        );
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            400
        );
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"), 400);
        assert_eq!(status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 411);
        assert_eq!(status(b"PUT / HTTP/1.1\r\n\r\n"), 405);
        assert_eq!(status(b"GET /%ff HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status(b"GET /a?t=%zz HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status(b"GET http://x/ HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status(b"\x00\x01garbage\r\n\r\n"), 400);
        // A client gone before its head ended: nothing to answer.
        assert_eq!(status(b"GET / HT"), 0);
    }

    #[test]
    fn a_request_must_arrive_whole_before_its_deadline() {
        let late = Deadline {
            inner: io::Cursor::new(b"GET / HTTP/1.1\r\n\r\n".to_vec()),
            until: std::time::Instant::now(),
        };
        let mut late = late;
        assert_eq!(read_request(&mut late, B).map_err(|r| r.status), Err(408));
        let mut early = Deadline {
            inner: io::Cursor::new(b"GET / HTTP/1.1\r\n\r\n".to_vec()),
            until: std::time::Instant::now() + std::time::Duration::from_secs(60),
        };
        assert!(read_request(&mut early, B).is_ok_and(|r| r.is_some()));
    }

    #[test]
    fn an_event_is_one_data_line_per_line() {
        let mut out = Vec::new();
        write_event(&mut out, "view", "a\nb\r\nc").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "event: view\ndata: a\ndata: b\ndata: c\n\n"
        );
    }

    #[test]
    fn a_response_says_its_length_and_the_safe_headers() {
        let mut out = Vec::new();
        write_response(&mut out, &Response::new(404, "text/plain", "no"), false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("HTTP/1.1 404 Not Found\r\n"), "{text}");
        assert!(text.contains("Content-Length: 2\r\n"));
        assert!(text.contains("Referrer-Policy: no-referrer"));
        assert!(text.ends_with("\r\n\r\nno"));
    }
}
