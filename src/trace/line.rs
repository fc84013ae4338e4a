//! [`Line`]: the buffer the JSON view writes events into, piece by piece.
//!
//! Most of a JSON line is short pieces known when compiling (`,"actor":`) and names copied
//! whole. `Vec::extend_from_slice` pays for a capacity check and a call for each; a `Line` keeps
//! its buffer at full length with a cursor, so a piece is one bounds check and a copy, inlined
//! when its length is a constant.

use std::io;

/// Bytes written at a cursor into a buffer kept at full length (zeros past the cursor). Grows
/// when a piece does not fit; never shrinks.
pub(super) struct Line {
    buf: Vec<u8>,
    at: usize,
}

impl Line {
    /// An empty line with room for `n` bytes before it grows.
    pub(super) fn with_capacity(n: usize) -> Line {
        Line { buf: vec![0; n], at: 0 }
    }

    /// What was written.
    pub(super) fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.at).unwrap_or(&[])
    }

    pub(super) fn len(&self) -> usize {
        self.at
    }

    pub(super) fn is_empty(&self) -> bool {
        self.at == 0
    }

    pub(super) fn clear(&mut self) {
        self.at = 0;
    }

    /// Writes `s`.
    #[inline(always)]
    pub(super) fn put(&mut self, s: &[u8]) {
        let end = self.at.wrapping_add(s.len());
        match self.buf.get_mut(self.at..end) {
            Some(dst) => {
                dst.copy_from_slice(s);
                self.at = end;
            }
            None => self.put_grown(s),
        }
    }

    /// Writes one byte.
    #[inline(always)]
    pub(super) fn byte(&mut self, b: u8) {
        match self.buf.get_mut(self.at) {
            Some(dst) => {
                *dst = b;
                self.at += 1;
            }
            None => self.put_grown(&[b]),
        }
    }

    /// Writes the first `n` bytes of `src` (`n` at most [`WIDE`]), copying all of `src` at once:
    /// the bytes past `n` land past the cursor, where the next piece overwrites them.
    #[inline(always)]
    pub(super) fn put_wide(&mut self, src: &[u8; WIDE], n: usize) {
        match self.buf.get_mut(self.at..self.at.wrapping_add(WIDE)) {
            Some(dst) if n <= WIDE => {
                dst.copy_from_slice(src);
                self.at += n;
            }
            _ => self.put(src.get(..n).unwrap_or(src)),
        }
    }

    /// [`Line::put`] when the buffer is too short: doubled (at least), then written.
    #[cold]
    #[inline(never)]
    fn put_grown(&mut self, s: &[u8]) {
        let need = self.at + s.len() + WIDE;
        let len = need.max(self.buf.len() * 2);
        self.buf.resize(len, 0);
        let end = self.at + s.len();
        if let Some(dst) = self.buf.get_mut(self.at..end) {
            dst.copy_from_slice(s);
            self.at = end;
        }
    }
}

/// How many bytes [`Line::put_wide`] copies at once.
pub(super) const WIDE: usize = 32;

/// A `Line` is a writer that never fails, so the generic writing code (JSON strings, numbers,
/// `write!`) writes into it too.
impl io::Write for Line {
    #[inline(always)]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.put(buf);
        Ok(buf.len())
    }

    #[inline(always)]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.put(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces of every length around the buffer's end and the wide copy's width: what comes out
    /// is what went in, in order, however the buffer grew.
    #[test]
    fn pieces_come_out_as_they_went_in() {
        let mut wide = [0u8; WIDE];
        for (i, b) in wide.iter_mut().enumerate() {
            *b = b'a' + i as u8 % 26;
        }
        for start in [0, 1, 7, 31, 32, 33] {
            let mut line = Line::with_capacity(start);
            let mut want = Vec::new();
            for n in 0..=WIDE + 3 {
                let piece: Vec<u8> = (0..n).map(|k| b'0' + (k % 10) as u8).collect();
                line.put(&piece);
                want.extend_from_slice(&piece);
                line.byte(b'|');
                want.push(b'|');
                let w = n.min(WIDE);
                line.put_wide(&wide, w);
                want.extend_from_slice(&wide[..w]);
            }
            assert_eq!(line.as_bytes(), want.as_slice(), "a line of {start} bytes at first");
            assert_eq!(line.len(), want.len());
            line.clear();
            assert_eq!(line.as_bytes(), b"");
        }
    }
}
