//! Training the learned value (the table of [`Weights::learned`]) by
//! self-play.
//!
//! Temporal-difference learning on afterstates, as 2048 players learn
//! theirs: the trainee is the player itself with [`Training::budget`]
//! (greedy, the best exact candidate, unless given more), valuing
//! positions by the static evaluation plus the learned value times
//! [`Training::blend`]; after each move the value of the position its
//! previous move left is pulled towards the points scored since plus the
//! value of the position this move leaves; a lost game's last position is
//! pulled towards the points still scored after it. In a table of phases,
//! each phase moves by its share of the position's value. One thread,
//! seeded games: the same options train the same table.

use super::evaluation::with_move;
use super::geometry::Geometry;
use super::value::{self, Learned, UNIT};
use super::{Budget, Player, Weights};
use crate::board;
use crate::game::{Game, Rules, points_without_bonus};

/// How a table is trained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// Games played; game `g` is seeded `seed + g` (wrapping past
    /// `u64::MAX`).
    pub games: u64,
    /// The first game's seed.
    pub seed: u64,
    /// Step of every table weight, per point of error.
    pub rate: f64,
    /// The learned value's weight in the trainee's evaluation
    /// ([`Weights::learned`]).
    pub blend: f64,
    /// The trainee's effort per move.
    pub budget: Budget,
    /// Turns after which a game is stopped (and not counted as lost).
    pub max_turns: u64,
    /// Phases of the table, 1 to 4: sets of weights for a board more or less
    /// full (see [`Weights::learned`]). A one-phase starting table is copied
    /// into each.
    pub phases: usize,
}

impl Default for Training {
    /// The options of both passes that trained the compiled table: the
    /// first from zeros with these, the second from the first's table with
    /// 3 phases (`examples/train.rs`).
    ///
    /// Training on did not make the sampling player stronger (paired with
    /// the compiled table game by game, `selfplay --games 100 --colors 7`).
    /// A third pass, `--from` the compiled table `--phases 3 --seed 200001
    /// --rate 0.00025` (200,000 games), lifted the greedy trainee from about
    /// 258 points a game to 264, but the player scored +39.8 ± 81.0 with it
    /// on `--seed 1` and −52.9 ± 65.1 on `--seed 101`. A sampling trainee,
    /// `--phases 3 --seed 400001 --games 20000 --candidates 16 --refined 4
    /// --samples 4 --replies 2 --depth 2` (about 0.2 s a game), made a
    /// table that scored −68.3 ± 73.4 on `--seed 1`'s first 51 games. Its
    /// values grow with the trainee's points (about 350 a game), which a
    /// weight fitted to the greedy trainee's may overstate; but read at
    /// weight 4 instead of 5 such a table, trained 4,000 games (`--seed
    /// 400001 --games 4000`, about 20 minutes on one core), scored
    /// +37.8 ± 75.2 on `--seed 1`'s first 50 games, and −14.3 ± 74.5 at 5:
    /// nothing either way.
    ///
    /// Nor did a table that also reads every 3 × 3 patch of cells as empty
    /// or taken (49 patches in 10 classes under the board's symmetries),
    /// for the crowded, broken-up boards where games are lost: trained on
    /// from the compiled table `--phases 3 --seed 600001` (200,000 games),
    /// the greedy trainee stayed at 259 points a game, and the player
    /// scored 700.9 ± 42.1 on `--seed 1`, −136.3 ± 66.8 paired.
    ///
    /// Nor did other trainees or targets, each trained on from the compiled
    /// table with `--phases 3` and paired on `--seed 1`:
    /// - a stronger trainee, `--candidates 16 --refined 8 --samples 8
    ///   --replies 3 --depth 2` (about 460 points, 1.2 s a game): over
    ///   2,000 games it did not improve (447 to 484 points a game in each
    ///   250), and its table scored −149.3 ± 66.5 (first 76 games). Values
    ///   learned under a stronger player than the greedy one make the
    ///   search worse;
    /// - the trainee playing by the static evaluation alone (`--blend 0`,
    ///   182 points a game, 100,000 games), so that its table learns one
    ///   fixed player's values: −56.1 ± 65.6, and −23.6 ± 64.1 on
    ///   `--seed 101`;
    /// - a lower expectile of the return instead of its mean, a warier
    ///   value (steps up weighted 0.6, down 1.4; 100,000 games): the
    ///   trainee fell to 224 points, and the player scored −96.6 ± 63.2;
    /// - TD(λ) with λ = 0.5, each game learning from its λ-returns at its
    ///   end: the trainee fell from about 258 points to 240 within 10,000
    ///   games and stayed there over 50,000, so it was not played.
    ///
    /// Nor did phases that follow the largest empty region instead of the
    /// free cells, so that a broken-up board counts as a fuller one:
    /// trained on from the compiled table `--phases 3 --seed 800001
    /// --games 100000` (the trainee at 259 points a game), the player
    /// scored 774.5 ± 52.3, −62.7 ± 70.7 paired on `--seed 1`.
    ///
    /// Nor did less noise in the weights, paired on `--seed 1`'s 100 games:
    /// - the mean of ten tables taken every 10,000 games while training on
    ///   from the compiled table (`--phases 3 --games 10000`, seeds from
    ///   7000001, each run going on from the last): 735.2 ± 46.9, −102.0 ±
    ///   65.8;
    /// - the mean of the compiled table and one trained the same two passes
    ///   from zeros on other seeds (`--seed 5000001`, then `--phases 3
    ///   --seed 5200001`; its trainee reached the same 257 points a game):
    ///   774.8 ± 42.6, −62.4 ± 69.2.
    ///
    /// Nor did phases anchored closer together where games are lost, below
    /// 40 free cells, instead of evenly at 81, 40.5 and 0 (each new phase
    /// started as the compiled table's value at its anchor, then trained on
    /// `--seed 900001 --games 150000`, the trainee at about 258 points a
    /// game; paired on `--seed 1`'s first 50 games): four phases at 81,
    /// 40, 25 and 10 free cells (the last alone below 10) scored −69.3 ±
    /// 69.8, three at 81, 30 and 15 +28.8 ± 88.5.
    ///
    /// Nor did a table that also reads every window of six cells on the
    /// four axes (104 windows in 16 classes of 4,096 patterns; a 1,081,368
    /// byte file, `CLNVAL03`), so that a six-line in the making (worth 12
    /// points, not 5) can be told from a five-line one: trained on from
    /// the compiled table with its six-cell weights zero (`--six 1
    /// --phases 3 --seed 900001 --games 100000`, 41 minutes on one core,
    /// the trainee from 253.6 to 259.4 points a game), the player scored
    /// +32.7 ± 96.2 paired on `--seed 1`'s first 50 games and −174.2 ±
    /// 101.1 on seeds 51 to 100 (−70.8 ± 70.2 over the 100), at about a
    /// fifth more CPU per move; removals of six or more chips went from
    /// 7.1% of scoring turns to 7.5% on seeds 1 to 50.
    ///
    /// Nor did a value consistent in points, as 2048 players learn theirs:
    /// the trainee choosing by points + V alone (static weights zero but
    /// `points` 1, `--blend 1`), scoring moves competing with the rest
    /// (`CLINES_EXP_COMPETE=1`), trained on from that six-cell table
    /// (`--six 1 --phases 3 --seed 1100001 --games 100000`), reached only
    /// 169.6 points a game (114 at first, 161.7 after 20,000 games; from
    /// zeros, 149.4 after 30,000), and the player with the same
    /// evaluation scored −425.2 ± 74.6 paired on `--seed 1`'s first 25
    /// games, −280.1 ± 63.2 over 50 with the learned weight 3. It made
    /// lines of six or more in 20 % of its removals instead of 7 %, and a
    /// few crosses, but lasted 224 turns a game instead of about 380. With
    /// the static weights at a fifth beside it (free 12, potential 0.2,
    /// component 1.6, outside 1.2, orphan 3; trainee about 255 points a
    /// game) the player scored −84.3 ± 78.6 over 50 games (learned weight
    /// 1) and −150.9 ± 69.9 with learned weight 2.
    ///
    /// Nor did a survival target, as the published Color Lines 98 player
    /// learns its: `K·ln(1 + turns still to be played)` from each
    /// afterstate, K = 50, a lost game's last afterstate 0
    /// (`CLINES_EXP_TARGET=logturns`). Trained from zeros with `--phases 3`
    /// (`--seed 1300001 --games 30000`, then `--seed 1330001 --games
    /// 300000`, 61 minutes on one core), the greedy trainee reached 224
    /// points and 134 turns a game (with the compiled table: about 258
    /// points, and 132 turns over 40 games). Its values spread 2.3 times
    /// less than the compiled table's between the candidates of a
    /// position; read at weight 11 (spread matched) the player scored
    /// 722.2 ± 38.6 on `--seed 1`, −115.0 ± 64.5 paired (−19.0 ± 81.7 on
    /// the first 50 games, −210.9 ± 98.7 on the last 50), and at 5 −172.8
    /// ± 60.9, lasting fewer turns, not more (375 and 348 a game instead of
    /// 431).
    ///
    /// Nor did a survival term beside the points: a bonus of 1 a turn
    /// survived added to every target but a lost game's last
    /// (`CLINES_EXP_TURN_BONUS=1`), so that the table learns the points
    /// still to be scored plus the turns still to be played. Trained on
    /// from the compiled table (`--phases 3 --seed 1500001 --games
    /// 100000`), the greedy trainee stayed at about 259 points and 151
    /// turns a game; the values rose by about 75 and spread 1.41 times
    /// wider between a position's candidates. Paired on `--seed 1`'s 100
    /// games, the player scored −24.4 ± 71.2 at the spread-matched weight
    /// 3.5 (+120.1 ± 100.7 on the first 50, −168.9 ± 97.5 on the last 50),
    /// lasting no longer (−10 ± 34 turns), and −148.7 ± 58.4 at 5. With a
    /// bonus of 3 the trainee fell to about 243 points a game within 5,000
    /// games.
    ///
    /// Nor did training on the positions the player itself reaches, which
    /// the greedy trainee's games may not resemble: each game started from
    /// a position drawn from the default player's own games (the 11,864
    /// positions its turns left in `selfplay --games 30 --colors 7 --seed
    /// 3001`), the greedy trainee playing on from there
    /// (`CLINES_EXP_BANK`). Trained on from the compiled table (`--phases
    /// 3 --seed 1700001 --games 100000`, the trainee at about 142 points a
    /// game from those positions), the player scored 720.1 ± 93.8 on
    /// `--seed 1`'s first 20 games, −119.2 ± 127.6 paired; with half the
    /// games started from the 2,114 of those positions with 30 free cells
    /// or fewer, where games are lost (`--seed 1800001`), −239.6 ± 145.0.
    fn default() -> Training {
        Training {
            games: 200_000,
            seed: 1,
            rate: 0.0005,
            blend: 5.0,
            budget: Budget::greedy(),
            max_turns: 10_000,
            phases: 1,
        }
    }
}

/// What the last games came to, for progress reports.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Games played so far.
    pub games: u64,
    /// Mean points (without the streak bonus) of the games since the last
    /// report.
    pub points: f64,
    /// Mean turns of those games.
    pub turns: f64,
}

/// The most phases a table has ([`Training::phases`]).
pub const MAX_PHASES: usize = value::MAX_PHASES;

/// The phases of the table file `bytes` trained for `rules`: a table of
/// several phases is trained on only with as many ([`Training::phases`]).
///
/// # Errors
/// When the rules are invalid, or `bytes` is not a table for them.
pub fn phases_of(rules: Rules, bytes: &[u8]) -> Result<usize, String> {
    rules.validate().map_err(|e| e.to_string())?;
    let geometry = Geometry::new(&rules, Weights::default());
    Learned::from_bytes(&geometry, bytes)
        .map(|learned| learned.phases)
        .ok_or_else(|| "the table was not trained for these rules".to_string())
}

/// The most cells of a board that a table is trained for ([`fits`]).
pub const MAX_CELLS: usize = value::MAX_CELLS;

/// Whether a table can be trained for `rules`: their lines are five cells
/// long and the board has at most [`MAX_CELLS`] (a table's size and the
/// time to make it grow with them).
///
/// # Errors
/// When one of those is not so, saying which.
pub fn fits(rules: Rules) -> Result<(), String> {
    match value::unfit(rules.width, rules.height, rules.line) {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// Trains a table for `rules` from `start` (a table file, or zeros when
/// `None`), calling `report` every `every` games; returns the table file.
///
/// # Errors
/// When the rules are invalid ([`Rules::validate`]) or take no table
/// ([`fits`]), the board has no room for a line, `start` is not a
/// table for these rules, the phases are not 1 to [`MAX_PHASES`] or
/// differ from those of a `start` of several, the rate is not a finite
/// number above 0, or the blend is not a weight the evaluation takes
/// ([`Weights::validate`]); all before the first game.
pub fn train(
    rules: Rules,
    training: &Training,
    start: Option<&[u8]>,
    every: u64,
    mut report: impl FnMut(Progress),
) -> Result<Vec<u8>, String> {
    rules.validate().map_err(|e| e.to_string())?;
    fits(rules)?;
    // A NaN rate would make every weight of the table NaN.
    if !training.rate.is_finite() || training.rate <= 0.0 {
        return Err(format!(
            "the rate must be a finite number above 0, not {}",
            training.rate
        ));
    }
    let weights = Weights {
        learned: training.blend,
        ..Weights::default()
    };
    weights.validate().map_err(|e| format!("the blend: {e}"))?;
    let mut player = Player::with_weights(rules, training.budget, weights).with_threads(1);
    let geometry = &player.geometry;
    let learned = match start {
        Some(bytes) => Learned::from_bytes(geometry, bytes)
            .ok_or("the starting table was not trained for these rules")?,
        None => Learned::zero(geometry).ok_or("a learned value needs lines of five")?,
    };
    // With no window, every game would train a table of nothing.
    if learned.per_phase() == 0 {
        return Err(format!(
            "a learned value needs room for a line of five: a {}x{} board has none",
            rules.width, rules.height
        ));
    }
    let learned = match learned.phases {
        1 => learned
            .with_phases(training.phases)
            .ok_or(format!("a table has 1 to {MAX_PHASES} phases"))?,
        p if p == training.phases => learned,
        p => {
            return Err(format!(
                "the starting table has {p} phases, not {}",
                training.phases
            ));
        }
    };
    let mut master: Vec<f64> = learned.weights.iter().map(|&w| w as f64 / UNIT).collect();
    player.geometry.learned = Some(learned);
    let mut trainee = Trainee {
        player,
        features: Vec::new(),
        previous: Vec::new(),
        free: 0,
        previous_free: 0,
    };
    let mut since = Progress::default();
    for g in 0..training.games {
        let (points, turns) =
            trainee.play(rules, training, training.seed.wrapping_add(g), &mut master);
        since.games += 1;
        since.points += points as f64;
        since.turns += turns as f64;
        if since.games == every.max(1) || g + 1 == training.games {
            report(Progress {
                games: g + 1,
                points: since.points / since.games as f64,
                turns: since.turns / since.games as f64,
            });
            since = Progress::default();
        }
    }
    let learned = trainee.player.geometry.learned.as_ref().expect("set above");
    Ok(learned.to_bytes(&rules))
}

/// The player being trained, with its buffers.
struct Trainee {
    player: Player,
    /// Features of the position the current move leaves.
    features: Vec<usize>,
    /// Features of the position the previous move left.
    previous: Vec<usize>,
    /// Free cells of the position the current move leaves.
    free: usize,
    /// Free cells of the position the previous move left.
    previous_free: usize,
}

impl Trainee {
    /// Plays one game, learning after every move; returns its points
    /// (without the streak bonus) and turns.
    fn play(
        &mut self,
        rules: Rules,
        training: &Training,
        seed: u64,
        master: &mut [f64],
    ) -> (u64, u64) {
        let (mut game, opening) = Game::new(rules, seed);
        let mut total = points_without_bonus(&opening, rules.line);
        let mut pending = 0.0;
        let mut has_previous = false;
        let mut turns = 0;
        while !game.is_over() && turns < training.max_turns {
            // The table changes after every move: what the player's
            // positions summed from it before is stale.
            self.player.forget_positions();
            let sample_seed = seed.wrapping_mul(1_000_003).wrapping_add(turns);
            let best = self.player.valued_candidates(game.board(), sample_seed);
            let Some(chosen) = best.first().copied() else {
                break;
            };
            self.player
                .main
                .position
                .load(&self.player.geometry, game.board());
            let points = self.leave(chosen.from, chosen.to);
            if has_previous {
                let target =
                    pending + points as f64 + self.value(master, &self.features, self.free);
                self.learn(master, target, training.rate);
            }
            std::mem::swap(&mut self.features, &mut self.previous);
            self.previous_free = self.free;
            has_previous = true;
            let (from, to) = (game.board().pos(chosen.from), game.board().pos(chosen.to));
            let turn = game.play(from, to).expect("the trainee's moves are legal");
            let scored = points_without_bonus(&turn.events, rules.line);
            total += scored;
            // The move's own points were counted above; what the throw
            // scored belongs to the next step.
            pending = (scored - points) as f64;
            turns += 1;
        }
        if game.is_over() && has_previous {
            self.learn(master, pending, training.rate);
        }
        (total, turns)
    }

    /// Records in `features` the features of the position that the move
    /// `from` to `to` leaves, and returns the points it scores.
    fn leave(&mut self, from: usize, to: usize) -> u64 {
        let geometry = &self.player.geometry;
        let learned = geometry.learned.as_ref().expect("a trainee has a table");
        let features = &mut self.features;
        features.clear();
        let main = &mut self.player.main;
        let (free, removed) = with_move(
            geometry,
            &mut main.position,
            &mut main.scratch,
            from,
            to,
            |position, _| {
                learned.features(geometry, &position.cells, features);
                position.free
            },
        );
        self.free = free;
        board::points(removed, geometry.line, 0)
    }

    /// The table's shares of each phase in a position with `free` cells
    /// free: how much each phase's weights count.
    fn shares(&self, free: usize) -> [f64; MAX_PHASES] {
        let cells = self.player.geometry.cell_count;
        let (earlier, later) = self.learned().share(free, cells);
        let mut shares = [0.0; MAX_PHASES];
        shares[earlier] = (cells - later) as f64 / cells as f64;
        if later > 0 {
            shares[earlier + 1] = later as f64 / cells as f64;
        }
        shares
    }

    /// The value of a position with these features and free cells, in
    /// points.
    fn value(&self, master: &[f64], features: &[usize], free: usize) -> f64 {
        let learned = self.learned();
        self.shares(free)
            .iter()
            .enumerate()
            .filter(|&(_, &share)| share > 0.0)
            .map(|(phase, share)| {
                share
                    * features
                        .iter()
                        .map(|&f| master[learned.index(f, phase)])
                        .sum::<f64>()
            })
            .sum()
    }

    /// The table being trained.
    fn learned(&self) -> &Learned {
        let learned = self.player.geometry.learned.as_ref();
        learned.expect("a trainee has a table")
    }

    /// Moves the value of the previous position towards `target`.
    fn learn(&mut self, master: &mut [f64], target: f64, rate: f64) {
        let error = target - self.value(master, &self.previous, self.previous_free);
        let shares = self.shares(self.previous_free);
        let learned = self
            .player
            .geometry
            .learned
            .as_mut()
            .expect("a trainee has a table");
        for (phase, &share) in shares.iter().enumerate().filter(|&(_, &s)| s > 0.0) {
            for &f in &self.previous {
                let f = learned.index(f, phase);
                master[f] += rate * error * share;
                learned.weights[f] = (master[f] * UNIT).round() as i32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seven_colours() -> Rules {
        Rules {
            colors: 7,
            ..Rules::default()
        }
    }

    fn short() -> Training {
        Training {
            games: 3,
            seed: 11,
            ..Training::default()
        }
    }

    #[test]
    fn training_is_reproducible_and_learns_from_every_game() {
        let mut reports = Vec::new();
        let first = train(seven_colours(), &short(), None, 2, |p| reports.push(p)).expect("trains");
        let again = train(seven_colours(), &short(), None, 2, |_| {}).expect("trains");
        assert_eq!(first, again, "the same options train the same table");
        assert_eq!(reports.iter().map(|p| p.games).collect::<Vec<_>>(), [2, 3]);
        assert!(reports.iter().all(|p| p.turns > 0.0));
        let geometry = Player::new(seven_colours()).geometry;
        let table = Learned::from_bytes(&geometry, &first).expect("a table");
        let moved = table.weights.iter().filter(|&&w| w != 0).count();
        assert!(moved > 100, "{moved} weights moved");
        let continued = train(seven_colours(), &short(), Some(&first), 3, |_| {}).expect("trains");
        assert_ne!(
            continued, first,
            "continuing from a table trains it further"
        );
    }

    #[test]
    fn a_one_phase_table_trains_on_as_several_phases_that_part_ways() {
        let first = train(seven_colours(), &short(), None, 3, |_| {}).expect("trains");
        let phased = Training {
            phases: 3,
            ..short()
        };
        let trained = train(seven_colours(), &phased, Some(&first), 3, |_| {}).expect("trains");
        let geometry = Player::new(seven_colours()).geometry;
        let table = Learned::from_bytes(&geometry, &trained).expect("a table");
        assert_eq!(table.phases, 3);
        let phase = |p| {
            let weights = (0..table.per_phase()).map(|f| table.weights[table.index(f, p)]);
            weights.collect::<Vec<i32>>()
        };
        assert!(phase(0) != phase(1) && phase(1) != phase(2));
        let again = train(seven_colours(), &phased, Some(&trained), 3, |_| {}).expect("trains");
        assert_ne!(again, trained, "a table of phases trains on");
        let refused = train(seven_colours(), &short(), Some(&trained), 1, |_| {}).unwrap_err();
        assert!(refused.contains("3 phases, not 1"), "{refused}");
    }

    #[test]
    fn a_table_needs_lines_of_five_and_a_start_for_the_same_rules() {
        let fours = Rules {
            line: 4,
            ..seven_colours()
        };
        assert!(train(fours, &short(), None, 1, |_| {}).is_err());
        for (width, height) in [(4, 4), (1, 4), (4, 2)] {
            let cramped = Rules {
                width,
                height,
                next: 1,
                first: 1,
                ..seven_colours()
            };
            let refused = train(cramped, &short(), None, 1, |_| {}).unwrap_err();
            assert!(refused.contains("room for a line of five"), "{refused}");
        }
        let first = train(seven_colours(), &short(), None, 3, |_| {}).expect("trains");
        let sixes = Rules {
            colors: 6,
            ..seven_colours()
        };
        let refused = train(sixes, &short(), Some(&first), 1, |_| {}).unwrap_err();
        assert!(refused.contains("not trained for these rules"), "{refused}");
    }
}
