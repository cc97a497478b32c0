//! A learned position value: an n-tuple network over the board's windows.
//!
//! Every window of five cells on the four axes is read as a pattern: each
//! cell empty, or holding the first, second, or a later colour met along
//! the window (colours count relative to one another, so that a red line
//! and a blue one are worth the same). A table per class of windows gives
//! each pattern a value; the windows that the board's symmetries map onto
//! one another share a class, read in matching directions. The position's
//! value is the sum over its windows, in points still to be scored.
//!
//! A pattern is not worth the same on an open board and on a crowded one,
//! which a single sum cannot say: the table may hold several *phases*, a
//! set of weights each, anchored at free-cell counts spread evenly from a
//! whole board free down to none. A position is valued by each phase, and
//! the two values whose anchors bracket its free cells are mixed in
//! proportion to its distance from each, so that the value changes
//! smoothly as the board fills.
//!
//! The table is trained by self-play ([`super::learn`]) for one set of
//! rules and applies to those rules only; it is kept in `value.bin`,
//! compiled into the program. Weights are integers ([`UNIT`] to the
//! point), so that their sum is the same in any order of changes.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::geometry::Geometry;
use crate::board::Color;
use crate::game::Rules;

/// Cells in a window the table reads.
pub(super) const SPAN: usize = 5;

/// Labels a cell can have in a pattern: empty, first, second, later colour.
const LABELS: usize = 4;

/// Patterns of one window: `LABELS ^ SPAN`.
pub(super) const PATTERNS: usize = LABELS.pow(SPAN as u32);

/// Bits a pattern code takes ([`PATTERNS`] is a power of two).
const PATTERN_BITS: u32 = PATTERNS.trailing_zeros();

/// Bits of one cell in a window's raw code (its cells' colours side by
/// side), which a table turns into patterns ([`patterns_of_raw_codes`]).
const RAW_BITS: u32 = 3;

// The three directions' patterns share an entry of the table.
const _: () = assert!(3 * PATTERN_BITS <= u32::BITS);

/// Games of up to this many colours read patterns from the table; with
/// more, the raw codes would make it too big, and patterns are worked out
/// cell by cell.
const TABLED_COLORS: Color = (1 << RAW_BITS) - 1;

/// Table units to a point.
pub(super) const UNIT: f64 = 1024.0;

/// What a table file of one phase starts with.
const MAGIC: &[u8; 8] = b"CLNVAL01";

/// What a table file of phases starts with.
const MAGIC_PHASES: &[u8; 8] = b"CLNVAL02";

/// Bytes of a one-phase file's header: the magic, then six little-endian
/// `u16`s (width, height, line, colours, chips per throw, classes); a file
/// of phases adds a seventh, the phases.
const HEADER: usize = MAGIC.len() + 6 * 2;

/// Phases a table may have at most.
pub(super) const MAX_PHASES: usize = 4;

/// Cells a board may have at most for a table: a class of windows takes
/// [`PATTERNS`] weights a phase, and the classes grow with the cells (a
/// 64 × 64 board has 1,890, 7.4 MiB a phase), as does the time to sort
/// the windows into them. It also keeps every rule within the 16 bits a
/// table file holds it in (a throw is at most the board).
pub(super) const MAX_CELLS: usize = 4096;

/// Why no table can be made for a `width` × `height` board with lines of
/// `line` cells; `None` when one can.
pub(super) fn unfit(width: usize, height: usize, line: usize) -> Option<String> {
    if line != SPAN {
        Some(format!("a learned value needs lines of {SPAN}, not {line}"))
    } else if width * height > MAX_CELLS {
        Some(format!(
            "a table is made for boards of at most {MAX_CELLS} cells, not {width}x{height}"
        ))
    } else {
        None
    }
}

/// The value in every phase of a window that does not exist.
const NOTHING: [i32; MAX_PHASES] = [0; MAX_PHASES];

/// How a window is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reading {
    /// The index of its class's first weight.
    first: u32,
    /// Which way its cells are read.
    direction: Direction,
}

/// Which way a window's cells are read; each value is where its pattern
/// lies in an entry of [`patterns_of_raw_codes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// From the first cell.
    Forward = 0,
    /// From the last cell.
    Backward = PATTERN_BITS as isize,
    /// Both ways, the smaller code standing for both: a symmetry maps the
    /// window onto itself reversed, so a pattern and its mirror image are
    /// one pattern.
    Either = 2 * PATTERN_BITS as isize,
}

/// The table compiled into the program.
static COMPILED: &[u8] = include_bytes!("value.bin");

/// The learned value for one board: each window's class and reading
/// direction, and the table.
///
/// A table may have several *phases*, each a set of weights for every
/// class, anchored at free-cell counts spread evenly from every cell free
/// (the first phase) down to none (the last): a pattern is worth
/// more or less as the board fills. A position's value is interpolated
/// between the two phases whose anchors bracket its free cells.
#[derive(Clone, Debug)]
pub(super) struct Learned {
    /// Per window id, `None` for windows that do not exist.
    window: Vec<Option<Reading>>,
    /// `PATTERNS` weights per class, in [`UNIT`]s; each pattern's phases
    /// side by side (see [`Learned::index`]), so that the weights a window
    /// needs share a cache line.
    pub(super) weights: Vec<i32>,
    /// Sets of weights, at most [`MAX_PHASES`].
    pub(super) phases: usize,
    /// The patterns of raw codes, for games of up to [`TABLED_COLORS`].
    raw_patterns: Option<&'static [u32]>,
}

impl Learned {
    /// The compiled table, when it was trained for these rules.
    pub(super) fn compiled(geometry: &Geometry) -> Option<Learned> {
        Learned::from_bytes(geometry, COMPILED)
    }

    /// A table of zeros for these rules, to be trained; `None` when no
    /// table can be made for them ([`unfit`]).
    pub(super) fn zero(geometry: &Geometry) -> Option<Learned> {
        if geometry.span != SPAN || unfit(geometry.width, geometry.height, geometry.line).is_some()
        {
            return None;
        }
        let (window, classes) = classes(geometry);
        Some(Learned {
            window,
            weights: vec![0; classes * PATTERNS],
            phases: 1,
            raw_patterns: (geometry.colors <= TABLED_COLORS).then(patterns_of_raw_codes),
        })
    }

    /// The table in `bytes` ([`Learned::to_bytes`]), when it was trained
    /// for these rules and fits this board's classes.
    pub(super) fn from_bytes(geometry: &Geometry, bytes: &[u8]) -> Option<Learned> {
        let header = bytes.get(..HEADER + 2)?;
        let header_len = match &header[..MAGIC.len()] {
            m if m == MAGIC => HEADER,
            m if m == MAGIC_PHASES => HEADER + 2,
            _ => return None,
        };
        let field = |i: usize| {
            let at = MAGIC.len() + 2 * i;
            usize::from(u16::from_le_bytes([header[at], header[at + 1]]))
        };
        let trained = [field(0), field(1), field(2), field(3), field(4)];
        let playing = [
            geometry.width,
            geometry.height,
            geometry.line,
            usize::from(geometry.colors),
            geometry.next,
        ];
        if trained != playing {
            return None;
        }
        let phases = if header_len == HEADER { 1 } else { field(6) };
        let mut learned = Learned::zero(geometry)?.with_phases(phases)?;
        let body = &bytes[header_len..];
        if field(5) * PATTERNS * phases != learned.weights.len()
            || body.len() != 4 * learned.weights.len()
        {
            return None;
        }
        // The file holds the weights phase after phase.
        let per_phase = learned.per_phase();
        for (i, chunk) in body.chunks_exact(4).enumerate() {
            let at = learned.index(i % per_phase, i / per_phase);
            learned.weights[at] = i32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        Some(learned)
    }

    /// The same table with `phases` phases, each a copy of the first
    /// phase's weights; `None` for no phase or more than [`MAX_PHASES`].
    pub(super) fn with_phases(mut self, phases: usize) -> Option<Learned> {
        if !(1..=MAX_PHASES).contains(&phases) {
            return None;
        }
        let first: Vec<i32> = (0..self.per_phase())
            .map(|f| self.weights[self.index(f, 0)])
            .collect();
        self.weights = first
            .iter()
            .flat_map(|&weight| std::iter::repeat_n(weight, phases))
            .collect();
        self.phases = phases;
        Some(self)
    }

    /// Weights of one phase: one per pattern of every class.
    #[inline]
    pub(super) fn per_phase(&self) -> usize {
        self.weights.len() / self.phases
    }

    /// Where in [`Learned::weights`] the weight of `feature` (a pattern of
    /// a class, as [`Learned::feature`] gives it) in `phase` is.
    #[inline]
    pub(super) fn index(&self, feature: usize, phase: usize) -> usize {
        feature * self.phases + phase
    }

    /// How a position with `free` of `cells` cells free shares between the
    /// phases: the earlier phase of the two that bracket it, and the later
    /// one's share, in `cells`ths.
    #[inline]
    pub(super) fn share(&self, free: usize, cells: usize) -> (usize, usize) {
        let scaled = (cells - free) * (self.phases - 1);
        let earlier = (scaled / cells).min(self.phases - 1);
        (earlier, scaled - earlier * cells)
    }

    /// The value, in [`UNIT`]s, of a position whose windows' weights sum to
    /// `sums` in each phase and which has `free` of `cells` cells free.
    #[inline]
    pub(super) fn interpolated(&self, sums: &[i64], free: usize, cells: usize) -> f64 {
        let (earlier, later) = self.share(free, cells);
        if later == 0 {
            return sums[earlier] as f64;
        }
        let weighted = sums[earlier] * (cells - later) as i64 + sums[earlier + 1] * later as i64;
        weighted as f64 / cells as f64
    }

    /// The table as a file for these rules.
    pub(super) fn to_bytes(&self, rules: &Rules) -> Vec<u8> {
        let mut bytes = if self.phases == 1 {
            MAGIC
        } else {
            MAGIC_PHASES
        }
        .to_vec();
        let classes = self.per_phase() / PATTERNS;
        let mut fields = vec![
            rules.width,
            rules.height,
            rules.line,
            usize::from(rules.colors),
            rules.next,
            classes,
        ];
        if self.phases > 1 {
            fields.push(self.phases);
        }
        for field in fields {
            bytes.extend_from_slice(&(field as u16).to_le_bytes());
        }
        for phase in 0..self.phases {
            for feature in 0..self.per_phase() {
                let weight = self.weights[self.index(feature, phase)];
                bytes.extend_from_slice(&weight.to_le_bytes());
            }
        }
        bytes
    }

    /// Window `id`'s current pattern among the weights of a phase
    /// ([`Learned::index`]); `usize::MAX` for a window that does not exist.
    #[inline]
    pub(super) fn feature(
        &self,
        geometry: &Geometry,
        cells: &[Color],
        id: usize,
        start: usize,
    ) -> usize {
        let Some(reading) = self.window[id] else {
            return usize::MAX;
        };
        let step = geometry.steps[id / geometry.cell_count];
        let cell = |k: usize| cells[(start as isize + k as isize * step) as usize];
        let code = match self.raw_patterns {
            Some(table) => {
                let raw = (0..SPAN).fold(0, |raw, k| {
                    debug_assert!(cell(k) <= TABLED_COLORS, "a colour beyond the rules");
                    raw << RAW_BITS | usize::from(cell(k))
                });
                (table[raw] >> reading.direction as u32) as usize & (PATTERNS - 1)
            }
            None => {
                let mut window: [Color; SPAN] = std::array::from_fn(cell);
                let forward = pattern(&window);
                window.reverse();
                match reading.direction {
                    Direction::Forward => forward,
                    Direction::Backward => pattern(&window),
                    Direction::Either => forward.min(pattern(&window)),
                }
            }
        };
        reading.first as usize + code
    }

    /// The value of window `id` as its cells stand in each phase, in
    /// [`UNIT`]s (one per phase).
    #[inline]
    pub(super) fn window_values(
        &self,
        geometry: &Geometry,
        cells: &[Color],
        id: usize,
        start: usize,
    ) -> &[i32] {
        match self.feature(geometry, cells, id, start) {
            usize::MAX => &NOTHING[..self.phases],
            feature => {
                let first = self.index(feature, 0);
                &self.weights[first..first + self.phases]
            }
        }
    }

    /// Pushes the feature of every window of the board onto `out`.
    pub(super) fn features(&self, geometry: &Geometry, cells: &[Color], out: &mut Vec<usize>) {
        for id in 0..self.window.len() {
            if self.window[id].is_some() {
                out.push(self.feature(geometry, cells, id, id % geometry.cell_count));
            }
        }
    }

    /// The value of the whole board, in [`UNIT`]s.
    #[cfg(test)]
    pub(super) fn total(&self, geometry: &Geometry, cells: &[Color]) -> f64 {
        let mut sums = vec![0; self.phases];
        for id in 0..self.window.len() {
            let values = self.window_values(geometry, cells, id, id % geometry.cell_count);
            for (sum, &value) in sums.iter_mut().zip(values) {
                *sum += i64::from(value);
            }
        }
        let free = cells.iter().filter(|&&c| c == 0).count();
        self.interpolated(&sums, free, cells.len())
    }
}

/// The pattern of a window's cells: each labelled empty, or first, second
/// or later colour met, read as a number in base [`LABELS`].
#[inline]
fn pattern(window: &[Color; SPAN]) -> usize {
    let mut seen: [Color; 2] = [0; 2];
    let mut code = 0;
    for &color in window {
        let label = if color == 0 {
            0
        } else if seen[0] == 0 || seen[0] == color {
            seen[0] = color;
            1
        } else if seen[1] == 0 || seen[1] == color {
            seen[1] = color;
            2
        } else {
            3
        };
        code = code * LABELS + label;
    }
    code
}

/// Per raw code of a window (its cells' colours, [`RAW_BITS`] each, the
/// first cell's highest), its pattern read in each [`Direction`], shifted
/// by the direction's value: reading five cells and looking the pattern up
/// costs far less than labelling the cells one by one. 128 KiB, made once.
fn patterns_of_raw_codes() -> &'static [u32] {
    static TABLE: OnceLock<Box<[u32]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << (RAW_BITS * SPAN as u32))
            .map(|raw| {
                let mut window: [Color; SPAN] = std::array::from_fn(|k| {
                    let shift = RAW_BITS * (SPAN - 1 - k) as u32;
                    (raw >> shift) as Color & TABLED_COLORS
                });
                let forward = pattern(&window);
                window.reverse();
                let backward = pattern(&window);
                (forward << Direction::Forward as u32
                    | backward << Direction::Backward as u32
                    | forward.min(backward) << Direction::Either as u32) as u32
            })
            .collect()
    })
}

/// A symmetry of a `w` × `h` board: where `(x, y)` goes, given `x, y, w, h`.
type Symmetry = fn(usize, usize, usize, usize) -> (usize, usize);

/// How each window is read, and the number of classes. Two windows share
/// a class when a symmetry of the board maps one onto the other; each is
/// read in the direction that maps onto the class's smallest image (its
/// cells' indices sorted) read from its lowest cell.
fn classes(geometry: &Geometry) -> (Vec<Option<Reading>>, usize) {
    let (w, h) = (geometry.width, geometry.height);
    let mut symmetries: Vec<Symmetry> = vec![
        |x, y, _, _| (x, y),
        |x, y, w, _| (w - 1 - x, y),
        |x, y, _, h| (x, h - 1 - y),
        |x, y, w, h| (w - 1 - x, h - 1 - y),
    ];
    if w == h {
        symmetries.extend_from_slice(&[
            |x, y, _, _| (y, x),
            |x, y, w, _| (w - 1 - y, x),
            |x, y, _, h| (y, h - 1 - x),
            |x, y, w, h| (w - 1 - y, h - 1 - x),
        ]);
    }
    // Classes are numbered in the order their first windows come.
    let mut class_of: HashMap<Vec<usize>, u32> = HashMap::new();
    let mut window = vec![None; 4 * geometry.cell_count];
    for (id, slot) in window.iter_mut().enumerate() {
        if !geometry.valid[id] {
            continue;
        }
        let cells: Vec<usize> = geometry
            .window_cells(id, id % geometry.cell_count)
            .collect();
        // The smallest image (cells in increasing order) names the class;
        // the window is read backwards when its first cell lands last.
        let mut best: Option<(Vec<usize>, bool)> = None;
        let mut images = Vec::new();
        for symmetry in &symmetries {
            let image: Vec<usize> = cells
                .iter()
                .map(|&c| {
                    let (x, y) = symmetry(c % w, c / w, w, h);
                    y * w + x
                })
                .collect();
            let mut sorted = image.clone();
            sorted.sort_unstable();
            let reversed = image[0] != sorted[0];
            if best.as_ref().is_none_or(|(b, _)| sorted < *b) {
                best = Some((sorted.clone(), reversed));
            }
            images.push((sorted, reversed));
        }
        let (key, reversed) = best.expect("at least the identity");
        let mirrored = images
            .iter()
            .any(|(image, r)| *image == key && *r != reversed);
        let next = class_of.len() as u32;
        let class = *class_of.entry(key).or_insert(next);
        let direction = match (mirrored, reversed) {
            (true, _) => Direction::Either,
            (false, true) => Direction::Backward,
            (false, false) => Direction::Forward,
        };
        *slot = Some(Reading {
            first: class * PATTERNS as u32,
            direction,
        });
    }
    (window, class_of.len())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::ai::Weights;
    use crate::board::Board;

    fn rules() -> Rules {
        Rules {
            colors: 7,
            ..Rules::default()
        }
    }

    /// A table whose every weight differs, so that any two patterns or
    /// classes confused would show.
    pub(in crate::ai) fn scrambled(geometry: &Geometry) -> Learned {
        scrambled_phases(geometry, 1)
    }

    /// A scrambled table of `phases` phases.
    pub(in crate::ai) fn scrambled_phases(geometry: &Geometry, phases: usize) -> Learned {
        let mut learned = Learned::zero(geometry)
            .and_then(|learned| learned.with_phases(phases))
            .expect("lines of five");
        for (i, weight) in learned.weights.iter_mut().enumerate() {
            let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            *weight = (x % 200_001) as i32 - 100_000;
        }
        learned
    }

    #[test]
    fn a_table_reads_back_as_written_and_only_for_its_rules() {
        let rules = rules();
        let geometry = Geometry::new(&rules, Weights::default());
        let learned = scrambled(&geometry);
        let bytes = learned.to_bytes(&rules);
        let read = Learned::from_bytes(&geometry, &bytes).expect("its own rules");
        assert_eq!(read.weights, learned.weights);
        for other in [
            Rules { colors: 6, ..rules },
            Rules { next: 4, ..rules },
            Rules { width: 10, ..rules },
        ] {
            let geometry = Geometry::new(&other, Weights::default());
            assert!(
                Learned::from_bytes(&geometry, &bytes).is_none(),
                "{other:?}"
            );
        }
        assert!(Learned::from_bytes(&geometry, &bytes[..bytes.len() - 1]).is_none());
        assert!(Learned::from_bytes(&geometry, b"CLNVAL00").is_none());
        let phased = scrambled_phases(&geometry, 3);
        let bytes = phased.to_bytes(&rules);
        let read = Learned::from_bytes(&geometry, &bytes).expect("its own rules");
        assert_eq!((read.phases, &read.weights), (3, &phased.weights));
        assert!(Learned::from_bytes(&geometry, &bytes[..bytes.len() - 4]).is_none());
    }

    #[test]
    fn a_file_holds_the_weights_phase_after_phase() {
        let rules = rules();
        let geometry = Geometry::new(&rules, Weights::default());
        let phased = scrambled_phases(&geometry, 3);
        let bytes = phased.to_bytes(&rules);
        let body = &bytes[HEADER + 2..];
        let per_phase = phased.per_phase();
        for (feature, phase) in [(0, 0), (1, 0), (0, 1), (per_phase - 1, 2), (77, 1)] {
            let at = 4 * (phase * per_phase + feature);
            let stored = i32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
            assert_eq!(stored, phased.weights[phased.index(feature, phase)]);
        }
    }

    #[test]
    fn phases_are_copies_of_the_first_and_there_are_few() {
        let geometry = Geometry::new(&rules(), Weights::default());
        let one = scrambled(&geometry);
        let three = one.clone().with_phases(3).expect("three phases");
        assert_eq!(three.weights.len(), 3 * one.weights.len());
        for (feature, &weight) in one.weights.iter().enumerate() {
            for phase in 0..3 {
                assert_eq!(three.weights[three.index(feature, phase)], weight);
            }
        }
        assert!(one.clone().with_phases(0).is_none());
        assert!(one.with_phases(MAX_PHASES + 1).is_none());
    }

    #[test]
    fn the_value_moves_linearly_from_phase_to_phase_as_the_board_fills() {
        let geometry = Geometry::new(&rules(), Weights::default());
        let learned = scrambled_phases(&geometry, 3);
        let sums = [900, -300, 600];
        let at = |free| learned.interpolated(&sums, free, 80);
        // Anchors at 80, 40 and 0 free cells of 80.
        assert_eq!((at(80), at(40), at(0)), (900.0, -300.0, 600.0));
        assert_eq!(at(60), 300.0);
        assert_eq!(at(70), 600.0);
        assert_eq!(at(30), -75.0);
        let one = scrambled(&geometry);
        for free in [0, 41, 81] {
            assert_eq!(one.interpolated(&[-7], free, 81), -7.0);
        }
    }

    #[test]
    fn nine_by_nine_windows_fall_into_few_classes() {
        let geometry = Geometry::new(&rules(), Weights::default());
        let learned = Learned::zero(&geometry).expect("lines of five");
        let classes = learned.per_phase() / PATTERNS;
        let windows = learned.window.iter().flatten().count();
        assert_eq!(windows, 140);
        // Eight symmetries: at least 140 / 8 classes, and far fewer than
        // the windows.
        assert!((18..=30).contains(&classes), "{classes} classes");
    }

    proptest::proptest! {
        #[test]
        fn the_value_is_the_same_under_every_symmetry_and_renaming_of_colours(
            fill in proptest::collection::vec(0u8..8, 81),
            symmetry in 0usize..8,
            renaming in Just((1u8..=7).collect::<Vec<_>>()).prop_shuffle(),
        ) {
            let rules = rules();
            let geometry = Geometry::new(&rules, Weights::default());
            let learned = scrambled_phases(&geometry, 3);
            let mut moved = vec![0; 81];
            for (cell, &color) in fill.iter().enumerate() {
                let (x, y) = (cell % 9, cell / 9);
                let (x, y) = if symmetry & 4 != 0 { (y, x) } else { (x, y) };
                let x = if symmetry & 1 != 0 { 8 - x } else { x };
                let y = if symmetry & 2 != 0 { 8 - y } else { y };
                moved[y * 9 + x] = if color == 0 { 0 } else { renaming[usize::from(color) - 1] };
            }
            proptest::prop_assert_eq!(learned.total(&geometry, &fill), learned.total(&geometry, &moved));
        }
    }

    use proptest::prelude::{Just, Strategy};

    proptest::proptest! {
        /// Patterns looked up by raw code are those labelled cell by cell,
        /// in every window and direction.
        #[test]
        fn patterns_looked_up_equal_patterns_labelled(
            fill in proptest::collection::vec(0u8..=7, 81),
        ) {
            let rules = rules();
            let geometry = Geometry::new(&rules, Weights::default());
            let tabled = scrambled(&geometry);
            proptest::prop_assert!(tabled.raw_patterns.is_some());
            let labelled = Learned { raw_patterns: None, ..tabled.clone() };
            let (mut looked_up, mut worked_out) = (Vec::new(), Vec::new());
            tabled.features(&geometry, &fill, &mut looked_up);
            labelled.features(&geometry, &fill, &mut worked_out);
            proptest::prop_assert_eq!(looked_up, worked_out);
        }
    }

    #[test]
    fn games_of_more_colours_label_patterns_cell_by_cell() {
        let rules = Rules {
            colors: TABLED_COLORS + 1,
            ..rules()
        };
        let geometry = Geometry::new(&rules, Weights::default());
        assert!(
            Learned::zero(&geometry)
                .expect("lines of five")
                .raw_patterns
                .is_none()
        );
        let geometry = Geometry::new(&self::rules(), Weights::default());
        assert!(
            Learned::zero(&geometry)
                .expect("lines of five")
                .raw_patterns
                .is_some()
        );
    }

    #[test]
    fn the_compiled_table_serves_the_seven_colour_game_only() {
        let rules = rules();
        let geometry = Geometry::new(&rules, Weights::default());
        let compiled = Learned::compiled(&geometry).expect("trained for these rules");
        assert_eq!(compiled.phases, 3);
        assert!(compiled.weights.iter().any(|&w| w != 0));
        let board = Board::new(9, 9);
        assert!(
            compiled.total(&geometry, board.cells()) > 0.0,
            "an empty board has points ahead"
        );
        let default = Rules::default();
        let geometry = Geometry::new(&default, Weights::default());
        assert!(Learned::compiled(&geometry).is_none());
    }
}
