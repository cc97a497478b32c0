//! The weights of the static evaluation, tuned by self-play.

use std::fmt;

use super::power::ln;

/// Weights of the player's static evaluation of a position. The defaults
/// are tuned; other values serve tuning tools (`examples/tune.rs`), within
/// the bounds [`Weights::validate`] checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per free cell.
    pub free: f64,
    /// Per point scored.
    pub points: f64,
    /// Multiplies the sum of window rewards.
    pub potential: f64,
    /// Per empty component beyond the first.
    pub component: f64,
    /// Per empty cell outside the largest empty component.
    pub outside: f64,
    /// The value of a lost game.
    pub loss: f64,
    /// Per orphan chip: a chip in no window holding two or more chips of
    /// its colour, clutter that helps no line.
    pub orphan: f64,
    /// Base `b` of the window reward `(b^(s·m/span) − 1)/(b − 1)` for `m`
    /// chips of one colour in a window of `span` cells: with
    /// [`Weights::reward_steepness`] (`s`) it sets how much a nearly
    /// complete line outweighs several budding ones (steeper builds long
    /// lines greedily, flatter keeps more lines alive). Above 1: at 1 the
    /// reward is 0/0 ([`Weights::validate`]).
    pub reward_base: f64,
    /// Exponent `s` of the window reward per share of the window filled.
    pub reward_steepness: f64,
    /// Multiplies the learned value: the points still to be scored, as a
    /// table trained by self-play reads them off the board (see
    /// `examples/train.rs`), with a set of weights for each of a few
    /// phases of the game, from a free board to a full one, since a
    /// pattern is worth more or less as the board fills. The table is for
    /// the 7-colour game on 9 × 9 with throws of 3; other rules never use
    /// it. 0 leaves it out.
    pub learned: f64,
}

impl Default for Weights {
    /// Tuned by self-play (`examples/selfplay.rs`) with 7 colours. The
    /// learned value's weight: its table learned with this weight (5) in
    /// the greedy trainee, and with it the default player scored 742.6 ±
    /// 43.0 (`--games 100 --colors 7 --seed 1`) where it scored 626.9 ±
    /// 35.1 without (paired, game by game: +115.7 ± 50.9); with weight 10
    /// it scored 652.0 ± 38.5. The same table trained on in three phases
    /// (`examples/train.rs`) scores 837.2 ± 49.0 on those games (paired:
    /// +94.6 ± 67.5) and 781.5 ± 45.7 where the one-phase table scored
    /// 685.5 ± 39.3 on the next hundred (`--seed 101`; paired over all 200
    /// games: +95.3 ± 44.5). Four phases, trained alike, scored 790.8 ±
    /// 39.4 on the first hundred (+48.2 ± 60.7). With the three-phase table
    /// a weight of 7 scored 850.8 ± 54.3 on `--seed 1` (paired: +13.6 ±
    /// 74.1), +47.5 ± 106.5 on `--seed 101`'s first 50 games and −72.5 ±
    /// 83.8 on its last 50 (`--seed 151 --games 50`), about nothing over
    /// the 200; 6 scored +55.5 ± 93.4 on those last 50; and 3.5 scored
    /// −7.4 ± 84.5 on `--seed 1`'s first 48: no better than 5.
    ///
    /// Most tries below were screened on `--seed 1`'s games, where these
    /// weights were chosen. On 100 seeds that no try had been screened on
    /// (`--seed 100001`) they scored 798.1 ± 51.2, within the noise of
    /// 837.2: the figure is not an artefact of choosing them on those
    /// games.
    ///
    /// Joint tuning by SPSA did not beat them: `tune --iterations 30
    /// --games 16 --colors 7 --seed 1 --step 0.1` (960 games) moved them to
    /// free 44.0, potential 0.89, component 7.8, outside 6.9, orphan 13.2,
    /// reward base 3.06, steepness 5.63 and learned 7.45, which scored 612.4
    /// where these scored 687.3 on its 100 fresh seeds, and 725.0 ± 46.5 on
    /// `--seed 1`'s 100 games (paired: −17.6 ± 59.9).
    ///
    /// Terms tried beside these and dropped, each paired game by game with
    /// these weights on `--seed 1`:
    /// - a penalty growing as the free cells run out, 3000·e^(−free/8):
    ///   −55.9 ± 63.3 (37 games); the same on the largest empty region,
    ///   where a dying game is broken up: −224.0 ± 68.3 (48 games);
    /// - a bonus per line that one move completes (four chips of a colour
    ///   and a gap that another chip of it can reach): −211.5 ± 87.5 at 40 a
    ///   line (36 games), −528.9 ± 50.4 at 400 (50 games). Most likely the
    ///   player keeps such lines instead of completing them, since each is
    ///   worth more standing;
    /// - a penalty of 100 per line of four that no chip can complete: −74.4
    ///   ± 73.0 (100 games);
    /// - a penalty per empty cut cell, one whose filling splits its empty
    ///   component (found by depth-first search), since games are lost as
    ///   the empty space breaks up and a thrown chip on such a cell breaks
    ///   it: −176.1 ± 63.9 at 15 a cell, −12.2 ± 73.3 at 4 (first 50 games
    ///   each, `CLINES_EXP_ARTIC`), at a median of 53 ms of CPU a move
    ///   instead of 37;
    /// - the potential's expected change when the next throw lands, worked
    ///   out from the windows' tallies (a thrown chip on a window's empty
    ///   cell adds to it at odds of one in the colours, and otherwise
    ///   breaks it), so that the last position searched still counts the
    ///   throw after it (`CLINES_EXP_EXPOSE`, times the potential's
    ///   weight): −30.9 ± 58.9 at 1 and −70.2 ± 73.2 at 3 (first 50 games
    ///   each); taken as a bonus instead, at −1, +186.7 ± 99.3 on the first
    ///   50 games but −197.1 ± 112.1 on the last 50 (`--seed 51 --games
    ///   50`), and at −2 −0.6 ± 70.4 on the first 50;
    /// - a cross potential, since two lines of five that meet score 45 where
    ///   two apart score 10: for each empty cell and colour, over pairs of
    ///   axes, the product of how full the best clean window of that colour
    ///   through the cell is on each (0.1, 0.35 and 1 for 2, 3 and 4 chips),
    ///   with scoring moves let compete in the sampled search while any was
    ///   near (`CLINES_EXP_CROSS`, paired on `--seed 1`'s first 20 games):
    ///   −120.2 ± 118.5 at 150, −149.2 ± 125.2 at 600, −479.5 ± 106.7 at
    ///   2,000, where the player built crosses ready to complete in 159
    ///   turns but completed 2 as throws filled the board; scoring moves
    ///   let compete on every move, −63.2 ± 136.5 at 600 and +4.5 ± 143.0
    ///   at 300 with a bonus for completing one, at a median of 70 ms of
    ///   CPU a move. The player's removals were 93 % lines of five, 7 %
    ///   of six and no cross in 10 games, and a line one chip from whole
    ///   met another of its colour's windows holding three chips in 6 of
    ///   1,822 turns: crosses must be built, and building them costs turns;
    /// - the reward of a window that cannot be completed as the board
    ///   stands, taken times a factor: a window of one colour holding two
    ///   chips or more, a gap of which lies in an empty component that
    ///   borders no chip of its colour outside the window (found from the
    ///   empty cells' bits), since games are lost as the empty space breaks
    ///   into regions where no line can be made (`CLINES_EXP_REACH`, paired
    ///   on `--seed 1`'s first 20 games): −211.1 ± 122.6 at 0.75, −184.9 ±
    ///   98.4 at 0.5 and −227.9 ± 100.0 at 0; −239.5 ± 131.8 at 0 counting
    ///   only gaps outside the largest empty component; at a median of 42
    ///   to 47 ms of CPU a move instead of 31. A window is stuck only until
    ///   a throw brings a chip of its colour beside its gap, which three
    ///   chips a turn soon do. Nor with a table trained beside the term, so
    ///   that the two do not count one thing twice: trained on from the
    ///   compiled table with the term in the greedy trainee, which it
    ///   lifted from about 258 points a game to 332 at 0.5 and 334 at 0
    ///   (`CLINES_EXP_REACH=0.5 train --from src/ai/value.bin --phases 3
    ///   --seed 3100001 --games 100000`; at 0, `--seed 3200001`, half an
    ///   hour each on one core), the player scored −79.2 ± 67.3
    ///   at 0.5 and +1.5 ± 74.1 at 0, paired on `--seed 100001`'s 100
    ///   games, at a median of 52 and 44 ms of CPU a move; the table
    ///   trained at 0, read without the term, −40.5 ± 65.1. What the term
    ///   gives a greedy player, the sampled futures already see;
    /// - a penalty per dead chip, one whose every window also holds a chip
    ///   of another colour, so that it can be in no line until a neighbour
    ///   goes (more lasting than an orphan: in a lost game they grew from a
    ///   tenth of the chips to all of them, but in a long one they came and
    ///   went, 2 to 41 of 28 to 58 chips), `CLINES_EXP_DEAD`: −185.6 ± 59.7
    ///   at 30 a chip on `--seed 100001`'s 100 games, at a median of 34 ms
    ///   of CPU a move; and a bonus of 15 a chip instead, so that junk is
    ///   heaped where it is dead already, −173.9 ± 59.6. Both ways cost
    ///   about 85 to 90 turns a game;
    /// - colour supply, since a window's colour with fewer chips on the board
    ///   than a line needs can finish none of its windows by moves alone
    ///   (chips per colour and one-colour windows by colour kept in the
    ///   position, `CLINES_EXP_Y`; paired on `--seed 100001`'s first 50
    ///   games, at a median of 34 to 35 ms of CPU a move): the windows of
    ///   such a colour taken at `1 − min(1, 0.25 × chips missing)` of their
    ///   reward, −161.0 ± 96.3; the windows of a colour with chips enough
    ///   taken at 1.5 times theirs instead, so that the potential's weight
    ///   only grows, −94.4 ± 95.0;
    /// - the length of the border between the empty space and the chips
    ///   (sides that an empty cell shares with a chip, from the empty cells'
    ///   bits), a smoother measure than the regions of how broken the
    ///   space is: −112.5 ± 96.0 at 3 a side (`CLINES_EXP_BORDER`, the same
    ///   games). Each of these three cost 50 to 80 turns a game.
    ///
    /// Nor did a free cell worth 45 or 80 instead of 60 (`--weight free=…`,
    /// which moves where a game settles: `selfplay --trace`): 45 scored
    /// +18.0 ± 71.1 on `--seed 1` and +13.4 ± 55.4 on `--seed 101` (+15.7 ±
    /// 45.0 over the 200 games), 80 scored −35.4 ± 79.1 on `--seed 1`'s
    /// first 50. Nor did free cells worth more or less than 60 on a crowded
    /// board only, below a number of them (`CLINES_EXP_FREE_KINK`, paired
    /// on `--seed 1`'s first 20 games): below 30, worth 90 each scored
    /// −159.8 ± 103.1, 40 +35.5 ± 100.4 and 20 −28.4 ± 100.2; below 40,
    /// worth 40 −81.0 ± 121.8. Nor did a learned weight that changes as the
    /// board fills, going from 5 at 35 free cells to another at 20 and below
    /// (`CLINES_EXP_LW_CROWD`, the same games): to 7, −29.3 ± 146.2; to 3,
    /// −114.7 ± 80.6.
    ///
    /// Nor did any single weight moved up or down on its own (`--weight`,
    /// paired on `--seed 1`, first 40 games unless said): `potential` 1.5
    /// scored −6.0 ± 63.0 (100 games) and 0.6 −117.7 ± 78.7; `orphan` 25
    /// −11.5 ± 75.4 and 5 −85.8 ± 95.8; `component` 16 −323.5 ± 155.1 (11
    /// games) and 4 −94.3 ± 91.1 (31); `outside` 12 −283.1 ± 138.0 (16) and
    /// 3 −139.0 ± 119.4 (25); `reward_steepness` 6 −461.4 ± 61.4 and 4
    /// −224.1 ± 84.7; `points` 5 −16.2 ± 79.5. The steepness and the
    /// connectivity terms are where these weights are most finely set.
    /// Nor did another steepness on crowded boards alone, below 35 free
    /// cells (`CLINES_EXP_STEEP`, paired on `--seed 100001`'s first 50
    /// games): 6 scored −431.3 ± 76.0 and 4 −254.0 ± 80.6, with the
    /// potential jumping as a board crosses 35; with the rewards scaled so
    /// that a window one chip short keeps its 85 and only the shape below
    /// it changes, 6 (0.5, 2.9 and 16.0 for one to three chips instead of
    /// 1, 5 and 21) scored −58.3 ± 79.7, and 4 (2.1, 8.3 and 27.4) −78.1 ±
    /// 71.7. Nor did a potential that weighs more, or less, as the board
    /// fills: times `1 + k·(40 − free)/40` below 40 free cells
    /// (`CLINES_EXP_PCROWD`, the same games), k = 0.5 scored −135.2 ± 90.3
    /// and k = −0.3 −164.5 ± 74.4.
    ///
    /// Nor did weights fitted to the player's own outcomes instead of set by
    /// hand. After each of its moves in 120 games (`--seed 1001` and
    /// `--seed 2001`, 60 each; 29,362 positions) the points still to come
    /// were regressed (ridge, held out by game) on each of these terms and
    /// 19 others: small and largest empty regions, chips with no free
    /// neighbour, reach per chip, colours, neighbour pairs alike and not,
    /// windows of 2, 3 and 4, lines ready, centre and edge chips, free² and
    /// e^(−free/8). The others raised the share of the points of the next
    /// 60 turns explained from 0.32 to 0.55, but at a fixed free count in a
    /// game from 0.008 to 0.032, and every one that grows as a game decays
    /// took weight. Added to these weights in the fit's proportions,
    /// paired on `--seed 1`'s first 20 games: all 19, −747.5 ± 92.1; the
    /// 17 fitted at a fixed free count, −483.7 ± 89.0, and at a fifth of
    /// their weight −116.1 ± 151.8; chips on the edge and chips with no
    /// free neighbour alone, −433.2 ± 97.1, and at a quarter −141.1 ±
    /// 102.6; the fit on all 25 in place of these weights, −752.5 ± 93.2.
    /// The player's own games show only the moves it chose, so what marks a
    /// dying game is taken for what kills it.
    ///
    /// The value of a lost game matters little: `--weight loss=-20000`
    /// scored the same as −1,000,000 in each of `--seed 1`'s first 36 games.
    fn default() -> Weights {
        Weights {
            free: 60.0,
            points: 1.0,
            potential: 1.0,
            component: 8.0,
            outside: 6.0,
            loss: -1.0e6,
            orphan: 15.0,
            reward_base: 4.0,
            reward_steepness: 5.0,
            learned: 5.0,
        }
    }
}

/// The largest size of a weight the evaluation accepts, and of the window
/// reward's steepest power: far above any useful value, and far enough
/// below `f64::MAX` that no sum of the evaluation over a board of a million
/// cells can overflow to infinity.
pub const MAX_WEIGHT: f64 = 1e15;

impl Weights {
    /// Every weight, by its field name, in the order of the fields.
    pub fn named(&self) -> [(&'static str, f64); 10] {
        [
            ("free", self.free),
            ("points", self.points),
            ("potential", self.potential),
            ("component", self.component),
            ("outside", self.outside),
            ("loss", self.loss),
            ("orphan", self.orphan),
            ("reward_base", self.reward_base),
            ("reward_steepness", self.reward_steepness),
            ("learned", self.learned),
        ]
    }

    /// Checks that the evaluation can be computed with these weights: every
    /// weight a number from −[`MAX_WEIGHT`] to [`MAX_WEIGHT`], the reward
    /// base above 1 (at 1 the window reward is 0/0), and the reward base to
    /// the power of the steepness, the largest window reward's growth, from
    /// 1/[`MAX_WEIGHT`] to [`MAX_WEIGHT`]. Any other weights give a finite
    /// evaluation, however poor the play. The error names the first weight
    /// refused, in the order of the fields.
    pub fn validate(&self) -> Result<(), WeightError> {
        let refuse = |name, value, requirement: &str| WeightError {
            name,
            value,
            requirement: requirement.to_string(),
        };
        for (name, value) in self.named() {
            // NaN is no number in the range either.
            if !(-MAX_WEIGHT..=MAX_WEIGHT).contains(&value) {
                return Err(refuse(name, value, "a number from -1e15 to 1e15"));
            }
        }
        if self.reward_base <= 1.0 {
            return Err(refuse("reward_base", self.reward_base, "more than 1"));
        }
        if self.reward_steepness.abs() * ln(self.reward_base) > ln(MAX_WEIGHT) {
            return Err(WeightError {
                name: "reward_steepness",
                value: self.reward_steepness,
                requirement: format!(
                    "such that reward_base ({}) to its power is from 1e-15 to 1e15",
                    self.reward_base
                ),
            });
        }
        Ok(())
    }
}

/// A weight that [`Weights::validate`] refuses.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightError {
    /// The weight's field name: `reward_base`.
    pub name: &'static str,
    /// The value given.
    pub value: f64,
    /// What the weight accepts, without its name or value.
    pub requirement: String,
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the weight {} must be {}, not {:?}",
            self.name, self.requirement, self.value
        )
    }
}

impl std::error::Error for WeightError {}
