//! The bytes of cursor moves, colours and characters.

use super::Ink;

/// Somewhere to append bytes: the frame's output, or a [`Moves`].
pub(super) trait Bytes {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);
}

impl Bytes for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A cursor move (or a colour change), kept on the stack: the renderer
/// weighs dozens of them for each cell it writes. Any move on a terminal
/// fits, its coordinates being below 65 536: a jump is at most 14 bytes,
/// a carriage return, vertical and horizontal move 17.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moves {
    bytes: [u8; MOVES_MAX],
    len: usize,
}

/// Room in a [`Moves`]: the longest move on a terminal (17 bytes), with
/// room to spare.
pub(super) const MOVES_MAX: usize = 40;

impl Default for Moves {
    fn default() -> Moves {
        Moves {
            bytes: [0; MOVES_MAX],
            len: 0,
        }
    }
}

impl Moves {
    /// The bytes of the move.
    pub(super) fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Bytes for Moves {
    fn put(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

/// A move being built, or only its length: the renderer weighs candidate
/// moves by their length and builds only the one it chooses.
pub(super) trait Move: Bytes + Copy + Default {
    /// Its length in bytes.
    fn len(&self) -> usize;
    /// Appends `other`.
    fn append(&mut self, other: &Self);
}

impl Move for Moves {
    fn len(&self) -> usize {
        self.len
    }

    fn append(&mut self, other: &Moves) {
        self.put(other.as_slice());
    }
}

/// The length of a move, without its bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Length(usize);

impl Bytes for Length {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

impl Move for Length {
    fn len(&self) -> usize {
        self.0
    }

    fn append(&mut self, other: &Length) {
        self.0 += other.0;
    }
}

/// Appends `n` in decimal.
pub(super) fn put_number(n: usize, out: &mut impl Bytes) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.put(&digits[at..]);
}

/// `ESC [ n <final>`, with `n` left out when it is 1 (the default).
pub(super) fn csi_n(n: usize, last: u8, out: &mut impl Bytes) {
    out.put(b"\x1b[");
    if n != 1 {
        put_number(n, out);
    }
    out.put(&[last]);
}

/// An absolute cursor move, leaving out default (1) coordinates.
pub(super) fn cup(row: usize, col: usize, out: &mut impl Bytes) {
    out.put(b"\x1b[");
    if row > 0 || col > 0 {
        put_number(row + 1, out);
    }
    if col > 0 {
        out.put(b";");
        put_number(col + 1, out);
    }
    out.put(b"H");
}

/// The shortest SGR sequence for a foreground colour, as the terminfo
/// `setaf` of xterm-256color writes it.
pub(super) fn set_ink(ink: Ink, out: &mut impl Bytes) {
    match ink {
        None => out.put(b"\x1b[39m"),
        Some(n @ 0..=7) => out.put(&[0x1b, b'[', b'3', b'0' + n, b'm']),
        Some(n @ 8..=15) => out.put(&[0x1b, b'[', b'9', b'0' + n - 8, b'm']),
        Some(n) => {
            out.put(b"\x1b[38;5;");
            put_number(n.into(), out);
            out.put(b"m");
        }
    }
}

/// Appends `ch` as UTF-8.
pub(super) fn push_char(ch: char, out: &mut impl Bytes) {
    let mut buf = [0; 4];
    out.put(ch.encode_utf8(&mut buf).as_bytes());
}
