//! JSON strings and integers, written into any writer: what the JSON view writes names, texts
//! and numbers with, byte for byte as `serde_json` and Rust's `Display` write them.

use std::fmt;
use std::io::{self, Write};

/// Writes `s` as a JSON string, quotes included, escaped byte for byte as `serde_json` does:
/// `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as `\u00XX` (lower-case
/// hex); everything else, non-ASCII included, as it is.
#[inline]
pub fn write_json_str<W: Write + ?Sized>(w: &mut W, s: &str) -> io::Result<()> {
    w.write_all(b"\"")?;
    escape(w, s)?;
    w.write_all(b"\"")
}

/// Writes the inside of a JSON string: `s` escaped, without quotes.
#[inline]
fn escape<W: Write + ?Sized>(w: &mut W, s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    // Names seldom hold a byte to escape: find the first one, if any, by table.
    match bytes.iter().position(|&b| ESCAPED[b as usize]) {
        None => w.write_all(bytes),
        Some(first) => escape_from(w, bytes, first),
    }
}

/// [`escape`] from the first byte to escape on.
#[cold]
fn escape_from<W: Write + ?Sized>(w: &mut W, bytes: &[u8], first: usize) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    w.write_all(&bytes[..first])?;
    let mut start = first;
    for (i, &b) in bytes.iter().enumerate().skip(first) {
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x0c => b"\\f",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x00..=0x1f => &[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]],
            _ => continue,
        };
        // Every replacement above is ASCII, so `start..i` ends on a character boundary.
        w.write_all(&bytes[start..i])?;
        w.write_all(short)?;
        start = i + 1;
    }
    w.write_all(&bytes[start..])
}

/// The bytes that JSON strings escape: `"`, `\\` and the control characters.
const ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Writes what is formatted into it as the inside of a JSON string (a `fmt::Write` over an
/// `io::Write`), keeping the first I/O error.
pub(super) struct Escaper<'a, W: ?Sized> {
    w: &'a mut W,
    error: Option<io::Error>,
}

impl<W: Write + ?Sized> fmt::Write for Escaper<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        escape(self.w, s).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

/// Writes, as a JSON string, what `f` formats (dice, a reason, an anchor), without a `String`.
pub(super) fn q_with<W: Write>(w: &mut W, f: impl FnOnce(&mut Escaper<'_, W>) -> fmt::Result) -> io::Result<()> {
    w.write_all(b"\"")?;
    let mut e = Escaper {
        w: &mut *w,
        error: None,
    };
    if f(&mut e).is_err() {
        return Err(e
            .error
            .unwrap_or_else(|| io::Error::other("formatting the trace failed")));
    }
    w.write_all(b"\"")
}

/// An integer in decimal, written without `core::fmt` (it is most of what a trace writes).
#[inline]
pub(super) fn int<W: Write>(w: &mut W, v: impl Into<i128>) -> io::Result<()> {
    let v: i128 = v.into();
    // Most numbers a trace holds are small: one or two digits, written without the digit loop.
    match u8::try_from(v) {
        Ok(d) if d < 10 => w.write_all(&[b'0' + d]),
        Ok(d) if d < 100 => w.write_all(&[b'0' + d / 10, b'0' + d % 10]),
        _ => long_int(w, v),
    }
}

/// [`int`] of a number of three digits or more, or below zero.
fn long_int<W: Write>(w: &mut W, v: i128) -> io::Result<()> {
    let mut buf = [0u8; 40];
    let mut at = buf.len();
    let mut n = v.unsigned_abs();
    // Digits by 128-bit division (a library call) only while they do not fit in 64 bits.
    while n > u128::from(u64::MAX) {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let mut n = n as u64;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    w.write_all(&buf[at..])
}

/// A string as JSON.
pub(super) fn q<W: Write>(w: &mut W, s: &str) -> io::Result<()> {
    write_json_str(w, s)
}

#[cfg(test)]
#[path = "quote_tests.rs"]
mod tests;
