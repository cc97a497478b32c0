//! What the running game shares with the ways out of it: the score and
//! why the game keeps no record, read by the panic hook and the session
//! as the game loop keeps them current.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::records::NoRecord;

/// The state every way out of a game needs, shared with the panic hook and
/// kept current by the game loop.
#[derive(Debug, Default)]
pub struct Live {
    score: AtomicU64,
    assisted: AtomicBool,
    undone: AtomicBool,
    seeded: AtomicBool,
}

impl Live {
    /// The engine's score.
    pub fn score(&self) -> u64 {
        self.score.load(Ordering::SeqCst)
    }

    /// Whether the built-in player helped in this game (a hint or
    /// autoplay), which disqualifies it from the records.
    pub fn assisted(&self) -> bool {
        self.assisted.load(Ordering::SeqCst)
    }

    /// Notes that the built-in player helped (a hint or autoplay): the game
    /// keeps no record.
    pub fn mark_assisted(&self) {
        self.assisted.store(true, Ordering::SeqCst);
    }

    /// Whether a move was taken back in this game, which disqualifies it
    /// from the records.
    pub fn undone(&self) -> bool {
        self.undone.load(Ordering::SeqCst)
    }

    /// Notes that a move was taken back: the game keeps no record.
    pub fn mark_undone(&self) {
        self.undone.store(true, Ordering::SeqCst);
    }

    /// Whether the game began from a fixed seed (`--seed`, in this session
    /// or in one it was saved in), which disqualifies it from the records.
    pub fn seeded(&self) -> bool {
        self.seeded.load(Ordering::SeqCst)
    }

    /// Notes that the game began from a fixed seed: it keeps no record.
    pub fn mark_seeded(&self) {
        self.seeded.store(true, Ordering::SeqCst);
    }

    /// Why the game keeps no record, as far as this session knows.
    pub fn no_record(&self) -> NoRecord {
        NoRecord {
            helped: self.assisted(),
            undone: self.undone(),
            seeded: self.seeded(),
        }
    }

    /// A new game begins: no score, and nothing yet that keeps it from
    /// the records.
    pub(super) fn reset(&self) {
        self.set_score(0);
        self.assisted.store(false, Ordering::SeqCst);
        self.undone.store(false, Ordering::SeqCst);
        self.seeded.store(false, Ordering::SeqCst);
    }

    /// Keeps the engine's score current as it changes.
    pub(super) fn set_score(&self, score: u64) {
        self.score.store(score, Ordering::SeqCst);
    }
}
