//! Hostile input: bytes typed at the game that crossterm decodes badly or
//! not at all, and a storm of malformed, partial and stray bytes, must
//! leave the game running, its board untouched, and its end clean.
//!
//! The storm leaves out every byte that could legitimately change the game:
//! the game's own keys, the action and movement keys, and the keys that end
//! or suspend it. What crossterm makes of the rest depends on how the
//! bytes are split across reads (a lone Escape at the end of a read is the
//! Escape key, followed by more it starts a sequence), and an error drops
//! the sequence read so far, so that its tail is read as typed keys. The
//! storm is built so that every way of reading it is harmless:
//!
//! - no byte is a game key, Space, Return (Enter) or Ctrl-C, Ctrl-\ or
//!   Ctrl-Z, alone or after Escape (which makes it Alt and the same key);
//! - no `A`–`D` or `P`: as the final byte of a sequence they are arrows
//!   and F1, which would move the cursor or open the help;
//! - no `?`: `ESC [ ?` makes crossterm read every byte up to the next `c`
//!   or `u` as one sequence, which would swallow the keys after the storm;
//! - every number is 0, at least 100, or negative, and the only digit in
//!   stray text is 0: a mouse report must never point inside the board, on
//!   a 5 × 5 board drawn in the top left 21 × 21 characters, even when an
//!   unfinished report takes digits from what follows it;
//! - `M` comes only after a digit or as an X10 mouse report's own
//!   `ESC [ M`, whose three raw bytes point outside the board: after a
//!   stray `ESC [`, an `M` would make the next three bytes, whatever they
//!   are, a report.
//!
//! The storm is typed in rounds, each followed by an arrow key and a check
//! of the whole screen: the game read it all, and is unchanged.

use super::*;

/// A mouse report at column or row 0 (SGR and rxvt `0`, X10's byte 32 or
/// below) and a cursor report at 0: crossterm 0.29 takes one from each
/// unchecked, which panicked the reading of keys in debug builds and ended
/// the game (see Cargo.toml). Wrapped, they point far off the board.
#[test]
fn mouse_and_cursor_reports_at_column_or_row_0_are_ignored() {
    let (mut term, view) = start(80, 24, 47, &["-w5", "-t5"], &[]);
    term.send(b"\x1b[<0;0;0M\x1b[<0;1;0m\x1b[<3;0;1M");
    term.send(b"\x1b[M#\x20\x21\x1b[M\x23\x21\x00");
    term.send(b"\x1b[35;0;1M\x1b[0;0R");
    let (x, y) = view.cursor.expect("the cursor at the start");
    let (arrow, moved) = if x + 1 < view.game.width {
        (Key::Right, (x + 1, y))
    } else {
        (Key::Left, (x - 1, y))
    };
    term.key(arrow);
    let moved = view.with_cursor(Some(moved));
    expect_view(&term, &moved, "the same board, the cursor a cell over");
    quit_and_check(&mut term, 0);
}

/// SplitMix64: a generator small enough to write here, seeded, so that the
/// storm is the same on every run.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A number for a sequence's parameter: 0, one too large for any
    /// coordinate of the board, one too large for crossterm's 16 bits, or a
    /// negative one.
    fn number(&mut self) -> String {
        match self.below(6) {
            0 => "0".into(),
            1 => "000".into(),
            2 => (100 + self.below(900)).to_string(),
            3 => (1000 + self.below(64_536)).to_string(),
            4 => self
                .pick(&["65536", "99999", "9999999999", "18446744073709551616"])
                .into(),
            _ => self.pick(&["-1", "-100", "-0"]).into(),
        }
    }

    /// A few bytes of stray text.
    fn junk(&mut self, most: usize) -> Vec<u8> {
        let len = 1 + self.below(most);
        (0..len).map(|_| self.pick(JUNK)).collect()
    }

    /// One piece of the storm.
    fn piece(&mut self) -> Vec<u8> {
        let mut piece = Vec::new();
        match self.below(16) {
            0 => piece = self.junk(8),
            1 => piece.push(self.pick(CONTROLS)),
            2 => piece.push(0x1b),
            3 => piece.extend_from_slice(b"\x1b["),
            // Alt and a stray character.
            4 => piece = [vec![0x1b], self.junk(1)].concat(),
            5 => {
                // CSI with one or many parameters, some unfinished.
                let count = 1 + self.pick(&[0, 1, 2, 40]) + self.below(3);
                let params: Vec<String> = (0..count).map(|_| self.number()).collect();
                piece.extend_from_slice(b"\x1b[");
                piece.extend_from_slice(params.join(";").as_bytes());
                if self.below(5) > 0 {
                    piece.push(self.pick(CSI_FINALS));
                }
            }
            6 | 7 => {
                // SGR mouse report, press or release, or unfinished.
                let button = self.pick(&["0", "1", "2", "3", "32", "35", "64", "65", "255", "256"]);
                let (x, y) = (self.number(), self.number());
                piece.extend_from_slice(format!("\x1b[<{button};{x};{y}").as_bytes());
                if self.below(6) > 0 {
                    piece.push(self.pick(b"Mm"));
                }
            }
            8 => {
                // X10 mouse report: button, column and row as raw bytes.
                piece.extend_from_slice(b"\x1b[M");
                piece.push(self.pick(b"#!\"`c"));
                piece.push(self.pick(X10_OUTSIDE));
                piece.push(self.pick(X10_OUTSIDE));
            }
            9 => {
                // SS3, finished or not.
                piece.extend_from_slice(b"\x1bO");
                if self.below(3) > 0 {
                    piece.push(self.pick(b"HFQRSxz0"));
                }
            }
            10 => {
                // OSC, ended by BEL, by ST, or not at all.
                piece.extend_from_slice(b"\x1b]0;");
                piece.extend(self.junk(12));
                let end = self.pick::<&[u8]>(&[b"\x07", b"\x1b\\", b""]);
                piece.extend_from_slice(end);
            }
            11 => {
                // Bracketed paste: its start alone, its end alone, or both.
                let (start, end) = match self.below(3) {
                    0 => (true, false),
                    1 => (false, true),
                    _ => (true, true),
                };
                if start {
                    piece.extend_from_slice(b"\x1b[200~");
                    piece.extend(self.junk(20));
                }
                if end {
                    piece.extend_from_slice(b"\x1b[201~");
                }
            }
            12 => {
                // Invalid UTF-8: stray continuation bytes, bytes never
                // used, or a character cut short.
                let len = 1 + self.below(3);
                piece.extend((0..len).map(|_| 0x80 + self.below(0x80) as u8));
            }
            13 => {
                let ch = self.pick(&["é", "€", "😀", "\u{a0}"]);
                let bytes = ch.as_bytes();
                piece.extend_from_slice(&bytes[..1 + self.below(bytes.len())]);
            }
            14 => piece.push(0),
            _ => piece.extend_from_slice(self.pick::<&[u8]>(&[b"\x1b[I", b"\x1b[O", b"\x1b[[E"])),
        }
        piece
    }
}

/// Stray printable characters: none a key of the game, no digit but 0,
/// no `A`–`D`, `P`, `M` or `?` (see the top of this file).
const JUNK: &[u8] = b"bcdefgimoprtvwxyzEFGHIJKLNOQRSTUVWXYZ0!\"#$%&'()*+,-./:;<=>@[\\]^_`{|}~";

/// Control bytes that are no key of the game (Ctrl-L redraws).
const CONTROLS: &[u8] = &[
    0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x11,
    0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1d, 0x1e, 0x1f, 0x7f,
];

/// Final bytes of the CSI sequences: none an arrow or F1.
const CSI_FINALS: &[u8] = b"EGHJKLMQRSTXfgmrx~@`";

/// X10 coordinates outside the board: below the first column (0, which
/// crossterm takes one from) or past the 90th.
const X10_OUTSIDE: &[u8] = &[0x00, 0x01, 0x1f, 0x80, 0x9b, 0xc3, 0xe2, 0xff];

/// Bytes that must not be in the storm: keys that end, suspend or change
/// the game, and the ones left out so that no sequence becomes such a key.
const LEFT_OUT: &[u8] = b"\x03\x0d\x1a\x1c qnsau?hjklABCDP";

/// Ends whatever a round of the storm left unfinished, so that the key
/// after it is read as a key: a bracketed paste still open (its end), an
/// SGR report (`m`), a CSI (the `[`, a final byte); an unfinished
/// character or SS3 ends at the Escape, and an X10 report cut short takes
/// the Escape as a coordinate, 0, off the board.
const RESYNC: &[u8] = b"\x1b[201~m";

/// The storm for `seed`: about `len` bytes, in pieces.
fn storm(seed: u64, len: usize) -> Vec<u8> {
    let mut generator = Generator(seed);
    let mut bytes = Vec::new();
    while bytes.len() < len {
        bytes.extend(generator.piece());
    }
    bytes
}

#[test]
fn the_storm_holds_none_of_the_bytes_left_out() {
    let bytes = storm(1, 40_000);
    let found: Vec<u8> = LEFT_OUT
        .iter()
        .copied()
        .filter(|byte| bytes.contains(byte))
        .collect();
    assert!(found.is_empty(), "{:?}", String::from_utf8_lossy(&found));
}

/// Storm bytes sent between two checks that the game is still whole:
/// little enough to fit the terminal's input buffer, so that a write
/// never waits for a game that has ended (it would wait for ever).
const ROUND: usize = 1000;

#[test]
fn any_bytes_typed_leave_the_game_running_its_board_unchanged_and_its_exit_clean() {
    let (mut term, view) = start(80, 24, 47, &["-w5", "-t5"], &[]);
    assert_eq!(view.cell_size(), 4, "the board in the top left 21 × 21");
    let (x, y) = view.cursor.expect("the cursor at the start");
    let (there, back, over) = if x + 1 < view.game.width {
        (Key::Right, Key::Left, (x + 1, y))
    } else {
        (Key::Left, Key::Right, (x - 1, y))
    };
    let views = [view.with_cursor(Some(over)), view.clone()];
    let bytes = storm(1, 40_000);
    // Chunks of many sizes, so that sequences are split across reads.
    let mut sizes = Generator(2);
    for (round, part) in bytes.chunks(ROUND).enumerate() {
        let mut sent = 0;
        while sent < part.len() {
            let size = sizes.pick(&[1, 2, 3, 5, 8, 13, 64, 200, 1000]);
            let chunk = &part[sent..part.len().min(sent + size)];
            assert!(
                !term.closed(),
                "the game ended in round {round}, after {:?}\nscreen:\n{}",
                String::from_utf8_lossy(&part[..sent]),
                term.contents()
            );
            term.send(chunk);
            sent += chunk.len();
        }
        term.send(RESYNC);
        // The storm moves no cursor: once the cursor shows a cell over (or
        // back), every byte before the arrow has been read.
        term.key(if round % 2 == 0 { there } else { back });
        let what = format!("the same board after round {round}, the cursor moved");
        expect_view(&term, &views[round % 2], &what);
    }
    // The game's idea of the screen is sound: a repaint draws it all.
    term.process_locally(b"\x1b[H\x1b[2J");
    term.key(Key::Ctrl('l'));
    let last = &views[(bytes.len().div_ceil(ROUND) + 1) % 2];
    expect_view(&term, last, "the whole board redrawn at Ctrl-L");
    quit_and_check(&mut term, 0);
}
