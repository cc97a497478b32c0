//! The built-in player on a thread of its own, so that choosing a move never
//! holds up the screen or the keys.
//!
//! The game loop hands it a [`Request`] (the engine's board when the hint or
//! autoplay asked, and the next throw if a preview shows it) and carries on;
//! the answer comes back as a [`Message::Suggestion`] through the channel
//! the loop already sleeps on.
//! The thread starts on the first request only, so a game that never asks
//! costs nothing, and it blocks while there is nothing to compute.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use crate::ai::{self, Player};
use crate::board::Board;
use crate::game::{Planned, Rules};

use super::event::{Message, Part, Suggestion};

/// A question for the built-in player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Tells the answer to this request from answers to older ones.
    pub id: u64,
    /// The engine's board when the request was made.
    pub board: Board,
    /// The computer's next throw as the preview shows it (empty without
    /// one): the player counts on it.
    pub planned: Vec<Planned>,
}

/// The built-in player for one game, started on demand.
#[derive(Debug)]
pub struct PlayerThread {
    rules: Rules,
    seed: u64,
    to_loop: Sender<Message>,
    /// The thread's request queue, once it runs, each request with the
    /// seed of the game it is about.
    requests: Option<Sender<(Request, u64)>>,
}

impl PlayerThread {
    /// A player for a game of `rules` whose answers go to `to_loop`. Its own
    /// samples are seeded from the game's `seed` and the board
    /// ([`ai::board_seed`], as the headless mode does), so a seeded game
    /// gets the same moves each time. No thread runs until the first
    /// request.
    pub fn new(rules: Rules, seed: u64, to_loop: Sender<Message>) -> PlayerThread {
        PlayerThread {
            rules,
            seed,
            to_loop,
            requests: None,
        }
    }

    /// A new game of `seed` is on screen: the answers to come are seeded
    /// from it.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Hands `request` to the thread, starting it if needed. Where no
    /// thread can be started (a process or memory limit), the answer is
    /// worked out here, the game waiting meanwhile.
    pub fn ask(&mut self, request: Request) -> io::Result<()> {
        let requests = match &self.requests {
            Some(requests) => requests,
            None => {
                let (sender, receiver) = mpsc::channel();
                let (rules, to_loop) = (self.rules, self.to_loop.clone());
                let spawned = thread::Builder::new()
                    .name("player".into())
                    .spawn(move || answer(rules, &receiver, &to_loop));
                if spawned.is_err() {
                    let message = reply(&mut Player::new(self.rules), self.seed, &request);
                    return self
                        .to_loop
                        .send(message)
                        .map_err(|_| io::Error::other("the game has stopped"));
                }
                self.requests.insert(sender)
            }
        };
        requests
            .send((request, self.seed))
            .map_err(|_| io::Error::other("the built-in player has stopped"))
    }
}

/// The thread's body: answers requests until the game drops its sender or
/// the loop is gone. A panic in the player is reported as
/// [`Message::Panicked`] rather than leaving the game waiting forever.
fn answer(rules: Rules, requests: &Receiver<(Request, u64)>, to_loop: &Sender<Message>) {
    let mut player = Player::new(rules);
    while let Ok((mut request, mut seed)) = requests.recv() {
        // Only the newest request can still matter.
        while let Ok(newer) = requests.try_recv() {
            (request, seed) = newer;
        }
        let message = reply(&mut player, seed, &request);
        let failed = matches!(message, Message::Panicked(_));
        if to_loop.send(message).is_err() || failed {
            return;
        }
    }
}

/// The player's answer to `request`, or [`Message::Panicked`] if it
/// panicked.
fn reply(player: &mut Player, seed: u64, request: &Request) -> Message {
    let seed = ai::board_seed(&request.board, seed);
    let chosen = catch_unwind(AssertUnwindSafe(|| {
        // A bug in the player, when a test asks for one.
        #[cfg(debug_assertions)]
        crate::runtime::panic_if_asked("player");
        player.choose_seeing(&request.board, &request.planned, seed)
    }));
    match chosen {
        Ok(chosen) => Message::Suggestion(Suggestion {
            id: request.id,
            chosen,
        }),
        Err(_) => Message::Panicked(Part::Player),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use std::time::Duration;

    /// Waits (with a generous deadline, the machine may be busy) for the
    /// next message.
    fn next(receiver: &Receiver<Message>) -> Message {
        receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the player answers")
    }

    #[test]
    fn answers_with_a_legal_move_for_the_request() {
        let rules = Rules::default();
        let (game, _) = Game::new(rules, 7);
        let (sender, receiver) = mpsc::channel();
        let mut player = PlayerThread::new(rules, 7, sender);
        player
            .ask(Request {
                id: 3,
                board: game.board().clone(),
                planned: Vec::new(),
            })
            .unwrap();
        let Message::Suggestion(suggestion) = next(&receiver) else {
            panic!("a suggestion");
        };
        assert_eq!(suggestion.id, 3);
        let chosen = suggestion.chosen.expect("a move exists");
        assert!(game.check_move(chosen.from, chosen.to).is_ok());
        // The move the headless mode's hint gives for this position.
        let seed = ai::board_seed(game.board(), 7);
        assert_eq!(Player::new(rules).choose(game.board(), seed), Some(chosen));
    }

    #[test]
    fn after_a_new_game_the_answers_follow_its_seed() {
        let rules = Rules::default();
        let hint =
            |board: &Board, seed| Player::new(rules).choose(board, ai::board_seed(board, seed));
        // After `n` in a game of seed `s`, the game of seed `s + 1`: a board
        // on which the two seeds' hints differ, so that the test can tell.
        let (s, board) = (1..100)
            .map(|s| (s, Game::new(rules, s + 1).0.board().clone()))
            .find(|(s, board)| hint(board, *s) != hint(board, s + 1))
            .expect("seeds that choose differently");
        let (sender, receiver) = mpsc::channel();
        let mut player = PlayerThread::new(rules, s, sender);
        let ask = |player: &mut PlayerThread, id| {
            let request = Request {
                id,
                board: board.clone(),
                planned: Vec::new(),
            };
            player.ask(request).unwrap();
            let Message::Suggestion(suggestion) = next(&receiver) else {
                panic!("a suggestion");
            };
            suggestion.chosen
        };
        assert_eq!(
            ask(&mut player, 1),
            hint(&board, s),
            "the first game's seed"
        );
        player.set_seed(s + 1);
        assert_eq!(
            ask(&mut player, 2),
            hint(&board, s + 1),
            "the new game's seed"
        );
    }

    #[test]
    fn no_move_on_an_empty_board() {
        let rules = Rules::default();
        let (sender, receiver) = mpsc::channel();
        let mut player = PlayerThread::new(rules, 1, sender);
        let board = Board::new(rules.width, rules.height);
        player
            .ask(Request {
                id: 1,
                board,
                planned: Vec::new(),
            })
            .unwrap();
        let Message::Suggestion(suggestion) = next(&receiver) else {
            panic!("a suggestion");
        };
        assert_eq!(
            suggestion,
            Suggestion {
                id: 1,
                chosen: None
            }
        );
    }
}
