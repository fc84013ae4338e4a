//! The language server's transport: messages framed by headers (`Content-Length: N`, then an
//! empty line) on standard input, read by [`MessageReader`] with every size bounded; written to
//! standard output by [`stdio`]'s writer. A message that cannot be read is skipped with a line
//! on standard error (and, where JSON-RPC asks it, an error response with id `null`); the
//! session goes on. Only the end of input inside a message (or a failed read) ends it, with
//! status 1.
//!
//! What is read leniently: headers ended by a line feed alone (not `\r\n`); a lone UTF-16
//! surrogate escape (`"\ud800"`) in a string, read as U+FFFD. When the framing is lost (headers
//! without `Content-Length`, a length that is not a number, a line that is no header, a header
//! line over [`MAX_LSP_HEADER_BYTES`]), the reader skips to the next `Content-Length:` in the
//! input, wherever it is.

use std::io::{self, BufRead, Read as _, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded, never, select};
use lsp_server::{Connection, Message};
use serde_json::Value;

use crate::limits::{MAX_LSP_HEADER_BYTES, MAX_LSP_MESSAGE_BYTES, clip};

/// What [`MessageReader::read_message`] read.
#[derive(Debug)]
pub enum Read {
    /// A message.
    Message(Message),
    /// Something that was not a message, skipped: what to say on standard error, and the
    /// JSON-RPC text to send back, if any (a parse error, id `null`).
    Skipped { note: String, reply: Option<String> },
    /// The end of input, between messages.
    End,
    /// The input ended (or could not be read) inside a message: what to say. The session ends
    /// with status 1.
    Broken(String),
}

/// The name of the header the reader looks for, compared without case.
const LENGTH: &[u8] = b"content-length:";

/// Where the reader is in the input.
#[derive(Debug)]
enum State {
    /// At the start of a message's headers.
    Start,
    /// The framing is lost: skip to the next `Content-Length:`.
    Lost,
    /// Just after a `Content-Length:` found in a line that was no header: the rest of its line.
    Resumed(Vec<u8>),
}

/// One line of headers, read bounded.
enum Line {
    /// A line ended by `\n` (without it).
    Full(Vec<u8>),
    /// A line longer than the bound (its first bytes read, the rest not).
    TooLong,
    /// The end of input, with the bytes of an unfinished line.
    Eof(Vec<u8>),
}

/// Reads framed messages from a stream, holding at most one header line
/// ([`MAX_LSP_HEADER_BYTES`]) and one body ([`MAX_LSP_MESSAGE_BYTES`]) at a time.
pub struct MessageReader<R> {
    input: R,
    state: State,
    max_body: usize,
    max_header: usize,
}

impl<R: BufRead> MessageReader<R> {
    pub fn new(input: R) -> Self {
        Self::with_limits(input, MAX_LSP_MESSAGE_BYTES, MAX_LSP_HEADER_BYTES)
    }

    /// A reader with other bounds than the default (the fuzz target's are small).
    pub fn with_limits(input: R, max_body: usize, max_header: usize) -> Self {
        MessageReader {
            input,
            state: State::Start,
            max_body,
            max_header: max_header.max(LENGTH.len() + 1),
        }
    }

    /// The next message, or what was skipped instead, or the end.
    pub fn read_message(&mut self) -> Read {
        match self.frame() {
            Ok(read) => read,
            Err(e) => Read::Broken(format!("cannot read standard input: {e}")),
        }
    }

    fn frame(&mut self) -> io::Result<Read> {
        let mut length: Option<u64> = None;
        let mut started = false;
        match std::mem::replace(&mut self.state, State::Start) {
            State::Start => {}
            State::Lost => {
                if !self.resync(0)? {
                    return Ok(Read::Broken(
                        "the input ended while looking for the next message's Content-Length header".into(),
                    ));
                }
                started = true;
                match self.line()? {
                    Line::Full(rest) => match self.length(&rest) {
                        Ok(n) => length = Some(n),
                        Err(skipped) => return Ok(skipped),
                    },
                    Line::TooLong => return Ok(self.too_long()),
                    Line::Eof(_) => return Ok(Read::Broken("the input ended inside a message's headers".into())),
                }
            }
            State::Resumed(rest) => {
                started = true;
                match self.length(&rest) {
                    Ok(n) => length = Some(n),
                    Err(skipped) => return Ok(skipped),
                }
            }
        }
        loop {
            let mut line = match self.line()? {
                Line::Full(line) => line,
                Line::TooLong => return Ok(self.too_long()),
                Line::Eof(rest) if !started && rest.iter().all(u8::is_ascii_whitespace) => return Ok(Read::End),
                Line::Eof(_) => return Ok(Read::Broken("the input ended inside a message's headers".into())),
            };
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                if !started {
                    // Blank lines between messages.
                    continue;
                }
                let Some(n) = length else {
                    return Ok(self.lost("a message without a Content-Length header"));
                };
                return self.body(n);
            }
            started = true;
            match find(&line, LENGTH) {
                Some(0) => match self.length(&line[LENGTH.len()..]) {
                    Ok(n) => length = Some(n),
                    Err(skipped) => return Ok(skipped),
                },
                // `Content-Length` inside another header's name (`X-Content-Length: 5`): that
                // header, not this one.
                Some(at) if line[at - 1].is_ascii_alphanumeric() || matches!(line[at - 1], b'-' | b'_') => {
                    if !is_header(&line) {
                        let text = String::from_utf8_lossy(&line);
                        return Ok(self.lost(&format!("a line that is no header ({})", quoted(&text))));
                    }
                }
                // The header after bytes that are none (the end of a body longer than its
                // Content-Length said): those bytes skipped, the header read next time.
                Some(at) => {
                    self.state = State::Resumed(line[at + LENGTH.len()..].to_vec());
                    return Ok(skip(format!(
                        "{at} bytes before a Content-Length header were no message: skipped"
                    )));
                }
                None if is_header(&line) => {}
                None => {
                    let text = String::from_utf8_lossy(&line);
                    return Ok(self.lost(&format!("a line that is no header ({})", quoted(&text))));
                }
            }
        }
    }

    /// The value of a Content-Length header; a value that is not a number loses the framing.
    fn length(&mut self, value: &[u8]) -> Result<u64, Read> {
        let v = String::from_utf8_lossy(value);
        let v = v.trim();
        match v.parse::<u64>() {
            Ok(n) if v.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(self.lost(&format!("Content-Length {} is not a number of bytes", quoted(v)))),
        }
    }

    /// The framing is lost: said, and the next read skips to the next Content-Length header.
    fn lost(&mut self, what: &str) -> Read {
        self.state = State::Lost;
        skip(format!("{what}: skipped, up to the next Content-Length header"))
    }

    /// A header line over the bound: the rest of it and what follows are skipped up to the next
    /// Content-Length header.
    fn too_long(&mut self) -> Read {
        self.lost(&format!("a header line longer than {} bytes", self.max_header))
    }

    /// The body of `n` bytes: read and decoded; above the bound, skipped unread.
    fn body(&mut self, n: u64) -> io::Result<Read> {
        if n > self.max_body as u64 {
            let skipped = io::copy(&mut (&mut self.input).take(n), &mut io::sink())?;
            if skipped < n {
                return Ok(Read::Broken(format!(
                    "the input ended inside a message of {n} bytes (refused: the limit is {} bytes)",
                    self.max_body
                )));
            }
            let note = format!(
                "a message of {n} bytes refused unread: the limit is {} bytes",
                self.max_body
            );
            let reply = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "window/showMessage",
                "params": {"type": 1, "message": format!("turnscript lsp: {note}")},
            });
            return Ok(Read::Skipped {
                note,
                reply: Some(reply.to_string()),
            });
        }
        let mut bytes = Vec::with_capacity(n as usize);
        (&mut self.input).take(n).read_to_end(&mut bytes)?;
        if (bytes.len() as u64) < n {
            return Ok(Read::Broken(format!(
                "the input ended inside a message ({} of its {n} bytes read)",
                bytes.len()
            )));
        }
        Ok(decode(bytes))
    }

    /// One line, at most `max_header` bytes kept.
    fn line(&mut self) -> io::Result<Line> {
        let mut bytes = Vec::new();
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(Line::Eof(bytes));
            }
            let room = self.max_header + 1 - bytes.len();
            let window = &buf[..buf.len().min(room)];
            if let Some(i) = window.iter().position(|b| *b == b'\n') {
                bytes.extend_from_slice(&window[..i]);
                self.input.consume(i + 1);
                return Ok(Line::Full(bytes));
            }
            let n = window.len();
            bytes.extend_from_slice(window);
            self.input.consume(n);
            if bytes.len() > self.max_header {
                return Ok(Line::TooLong);
            }
        }
    }

    /// Skips the input up to and through the next `Content-Length:` (without case), holding
    /// nothing; `matched` bytes of it already seen. False at the end of input.
    fn resync(&mut self, mut matched: usize) -> io::Result<bool> {
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(false);
            }
            let mut end = None;
            for (i, b) in buf.iter().enumerate() {
                // The name's first letter is nowhere else in it: a mismatch restarts there.
                if b.to_ascii_lowercase() == LENGTH[matched] {
                    matched += 1;
                    if matched == LENGTH.len() {
                        end = Some(i + 1);
                        break;
                    }
                } else {
                    matched = usize::from(b.to_ascii_lowercase() == LENGTH[0]);
                }
            }
            let n = buf.len();
            self.input.consume(end.unwrap_or(n));
            if end.is_some() {
                return Ok(true);
            }
        }
    }
}

fn skip(note: String) -> Read {
    Read::Skipped { note, reply: None }
}

/// User text as a note quotes it: cut, control characters escaped.
fn quoted(text: &str) -> String {
    format!("{:?}", clip(text))
}

/// Where `needle` (lower case) starts in `hay`, compared without case.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether a line is a header other than Content-Length (`Content-Type: ...`): a name of
/// letters, digits and `-`, then `:`.
fn is_header(line: &[u8]) -> bool {
    match line.iter().position(|b| *b == b':') {
        Some(at) if at > 0 => line[..at].iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-'),
        _ => false,
    }
}

/// A body as a message; a body that is not one is skipped with a JSON-RPC error response.
pub fn decode(bytes: Vec<u8>) -> Read {
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            return refused(
                -32700,
                Value::Null,
                format!("a message that is not UTF-8 (at byte {at} of its body)"),
            );
        }
    };
    let text = match serde_json::from_str::<Message>(&text) {
        Ok(m) => return Read::Message(m),
        // A lone surrogate escape, as editors send for a lone surrogate in a buffer: U+FFFD.
        Err(_) => match lone_surrogates(&text) {
            Some(fixed) => match serde_json::from_str::<Message>(&fixed) {
                Ok(m) => return Read::Message(m),
                Err(_) => fixed,
            },
            None => text,
        },
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => {
            let id = match &v["id"] {
                id @ (Value::Number(_) | Value::String(_)) => id.clone(),
                _ => Value::Null,
            };
            refused(-32600, id, "a JSON value that is no JSON-RPC message".to_string())
        }
        Err(e) => refused(-32700, Value::Null, format!("a message that is not JSON ({e})")),
    }
}

/// A message skipped with an error response (`code`: -32700 a parse error, -32600 an invalid
/// request).
fn refused(code: i32, id: Value, what: String) -> Read {
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": format!("turnscript lsp: {what}")},
    });
    Read::Skipped {
        note: format!("{what}: skipped"),
        reply: Some(reply.to_string()),
    }
}

/// The JSON text with every `\uXXXX` escape of a lone UTF-16 surrogate (one not in a high-low
/// pair) made `\uFFFD`; `None` when it has none.
pub fn lone_surrogates(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let s = text.get(at..at + 4)?;
        if s.bytes().all(|c| c.is_ascii_hexdigit()) {
            u32::from_str_radix(s, 16).ok()
        } else {
            None
        }
    };
    // The code of a `\uXXXX` escape at `at`.
    let escape = |at: usize| -> Option<u32> {
        if b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u') {
            hex(at + 2)
        } else {
            None
        }
    };
    let mut out = String::new();
    let mut copied = 0;
    let mut in_string = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => match escape(i) {
                Some(0xD800..=0xDBFF) if matches!(escape(i + 6), Some(0xDC00..=0xDFFF)) => i += 12,
                Some(0xD800..=0xDFFF) => {
                    out.push_str(&text[copied..i]);
                    out.push_str("\\uFFFD");
                    i += 6;
                    copied = i;
                }
                // Any other escape: its two first bytes (a `\"` does not end the string).
                _ => i += 2,
            },
            _ => i += 1,
        }
    }
    if copied == 0 {
        return None;
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    Some(out)
}

/// Writes one message, framed, and flushes.
fn write_raw(out: &mut impl Write, text: &str) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

/// A line on standard error; a failed write (stderr closed or full) is not an error.
pub fn say(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The threads behind [`stdio`]'s connection.
pub struct Threads {
    writer: JoinHandle<io::Result<()>>,
    /// The reader's end, when it was not the end of input between messages.
    broken: Receiver<String>,
}

impl Threads {
    /// Waits for the writer (the server's connection dropped first); the reader's reason to end
    /// the session with status 1, if it has one, else the writer's error.
    pub fn join(self) -> Result<(), String> {
        if let Ok(why) = self.broken.try_recv() {
            return Err(why);
        }
        match self.writer.join() {
            Ok(Ok(())) => Ok(()),
            // The client gone: a normal end.
            Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Ok(Err(e)) => Err(format!("cannot write standard output: {e}")),
            Err(_) => Err("the writer failed".into()),
        }
    }
}

/// A connection on standard input and output: a reader thread ([`MessageReader`]; notes on
/// standard error) and a writer thread. The reader stops after `exit`.
pub fn stdio() -> io::Result<(Connection, Threads)> {
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_client, from_server) = bounded::<Message>(0);
    let (raw_tx, raw_rx) = bounded::<String>(0);
    let (broken_tx, broken) = bounded::<String>(1);
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || read_loop(&to_server, &raw_tx, &broken_tx))?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || write_loop(&from_server, raw_rx))?;
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    Ok((connection, Threads { writer, broken }))
}

fn read_loop(to_server: &Sender<Message>, raw: &Sender<String>, broken: &Sender<String>) {
    let mut reader = MessageReader::new(io::stdin().lock());
    loop {
        match reader.read_message() {
            Read::Message(m) => {
                let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                if to_server.send(m).is_err() || exit {
                    return;
                }
            }
            Read::Skipped { note, reply } => {
                say(&format!("warning: turnscript lsp: {note}"));
                if let Some(r) = reply
                    && raw.send(r).is_err()
                {
                    return;
                }
            }
            Read::End => return,
            Read::Broken(why) => {
                // Said before the server's channel closes (it is dropped on return).
                let _ = broken.send(why);
                return;
            }
        }
    }
}

fn write_loop(messages: &Receiver<Message>, raw: Receiver<String>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let mut raw = raw;
    loop {
        select! {
            recv(messages) -> m => match m {
                Ok(m) => m.write(&mut out)?,
                Err(_) => break,
            },
            recv(raw) -> r => match r {
                Ok(text) => write_raw(&mut out, &text)?,
                // The reader has ended: only the server's messages now.
                Err(_) => raw = never(),
            },
        }
    }
    // Replies the reader handed over before the server ended.
    while let Ok(text) = raw.try_recv() {
        write_raw(&mut out, &text)?;
    }
    Ok(())
}
