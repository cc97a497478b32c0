//! One row of a frame, stored as runs of equal cells: a grid line, a row
//! of a diamond or a stretch of blanks costs the same whatever its length.

use std::collections::{BinaryHeap, TryReserveError};

use super::Cell;

/// Columns `start..end` of a row, all holding `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    pub start: u32,
    pub end: u32,
    pub cell: Cell,
}

/// One row: what was written on it, blank elsewhere.
///
/// Written left to right (grid lines, text, a cell after the one on its
/// left) the runs stay in order and each write costs a constant; a write
/// over earlier ones (a chip over the grid) is kept in the order it came and
/// sorted out once, by [`Line::tidy`], before the row is read. Writes over
/// a row that come left to right themselves (the chips of a board row over
/// its grid) are sorted out in one pass; others take a sort.
#[derive(Clone, Debug, Default)]
pub(super) struct Line {
    /// Tidy: sorted, disjoint, none blank, touching neighbours of equal
    /// cells merged, so equal rows have equal runs. Messy: every write in
    /// the order it came (blank ones too), later over earlier.
    runs: Vec<Run>,
    messy: bool,
    /// In a messy row, the runs before this index were tidy when the first
    /// write over them came.
    base: u32,
    /// Whether a messy row's writes from [`Line::base`] on came left to
    /// right, none starting before the one before it ends: a layer of
    /// tidy runs over the base.
    layered: bool,
    /// Where the last read of a tidy row ended: reads come near each other
    /// (the renderer looks around its cursor), so the next starts there.
    finger: std::cell::Cell<u32>,
}

impl Line {
    /// Writes `run` over the row.
    pub fn write(&mut self, run: Run) -> Result<(), TryReserveError> {
        if let Some(last) = self.runs.last_mut() {
            // Going on from, or over, the last write with the same cell.
            let touches = last.start <= run.start && run.start <= last.end;
            if touches && last.cell == run.cell {
                last.end = last.end.max(run.end);
                return Ok(());
            }
            if self.messy || run.start < last.end {
                if !self.messy {
                    self.messy = true;
                    self.base = self.runs.len() as u32;
                    self.layered = true;
                } else if run.start < last.end {
                    self.layered = false;
                }
                return push(&mut self.runs, run);
            }
        }
        if run.cell == Cell::BLANK && !self.messy {
            // Right of everything written: blank already.
            return Ok(());
        }
        push(&mut self.runs, run)
    }

    /// A copy of the row, or an error when memory runs out.
    pub fn try_clone(&self) -> Result<Line, TryReserveError> {
        let mut runs = Vec::new();
        runs.try_reserve_exact(self.runs.len())?;
        runs.extend_from_slice(&self.runs);
        Ok(Line {
            runs,
            messy: self.messy,
            base: self.base,
            layered: self.layered,
            finger: std::cell::Cell::new(0),
        })
    }

    /// The cell at `col`.
    pub fn get(&self, col: usize) -> Cell {
        let covers = |r: &&Run| r.start as usize <= col && col < r.end as usize;
        if self.messy {
            return self
                .runs
                .iter()
                .rev()
                .find(covers)
                .map_or(Cell::BLANK, |r| r.cell);
        }
        let at = self.index(col);
        self.runs
            .get(at)
            .filter(covers)
            .map_or(Cell::BLANK, |r| r.cell)
    }

    /// The first run of a tidy row that ends after `col`.
    fn index(&self, col: usize) -> usize {
        seek(&self.runs, &self.finger, |r| (r.end as usize) <= col)
    }

    /// The tidy runs; the row must be tidy.
    pub fn runs(&self) -> &[Run] {
        debug_assert!(!self.messy);
        &self.runs
    }

    /// Memory held on the heap, in bytes.
    #[cfg(test)]
    pub fn heap_bytes(&self) -> usize {
        self.runs.capacity() * size_of::<Run>()
    }

    /// Sorts out overlapping writes: each column shows the last write over
    /// it.
    pub fn tidy(&mut self) -> Result<(), TryReserveError> {
        if !self.messy {
            return Ok(());
        }
        if self.layered {
            let (base, layer) = self.runs.split_at(self.base as usize);
            self.runs = lay_over(base, layer)?;
        } else {
            self.sweep()?;
        }
        self.messy = false;
        self.finger.set(0);
        Ok(())
    }

    /// Tidies any writes: a sweep over their ends, keeping the latest write
    /// still open on top of a heap, in time `n log n` for `n` writes.
    fn sweep(&mut self) -> Result<(), TryReserveError> {
        let writes = &self.runs;
        let mut by_start: Vec<u32> = Vec::new();
        by_start.try_reserve_exact(writes.len())?;
        by_start.extend(0..writes.len() as u32);
        by_start.sort_unstable_by_key(|&i| writes[i as usize].start);
        let mut bounds: Vec<u32> = Vec::new();
        bounds.try_reserve_exact(2 * writes.len())?;
        bounds.extend(writes.iter().flat_map(|r| [r.start, r.end]));
        bounds.sort_unstable();
        bounds.dedup();
        let mut open = BinaryHeap::new();
        open.try_reserve(writes.len())?;
        let mut next = 0;
        let mut runs: Vec<Run> = Vec::new();
        for pair in bounds.windows(2) {
            let (start, end) = (pair[0], pair[1]);
            while let Some(&i) = by_start
                .get(next)
                .filter(|&&i| writes[i as usize].start <= start)
            {
                open.push(i);
                next += 1;
            }
            // Writes that ended are dropped when they come to the top.
            while open
                .peek()
                .is_some_and(|&i| writes[i as usize].end <= start)
            {
                open.pop();
            }
            let cell = open
                .peek()
                .map_or(Cell::BLANK, |&i| writes[i as usize].cell);
            match runs.last_mut() {
                _ if cell == Cell::BLANK => {}
                Some(last) if last.end == start && last.cell == cell => last.end = end,
                _ => push(&mut runs, Run { start, end, cell })?,
            }
        }
        self.runs = runs;
        Ok(())
    }

    /// The row's columns `from..to` as stretches of equal cells, blank ones
    /// included, left to right; the row must be tidy.
    pub fn segments(&self, from: usize, to: usize) -> impl Iterator<Item = Run> + '_ {
        let runs = self.runs();
        let (from, to) = (from as u32, to as u32);
        let mut at = self.index(from as usize);
        let mut col = from;
        std::iter::from_fn(move || {
            if col >= to {
                return None;
            }
            let segment = match runs.get(at) {
                Some(r) if r.start <= col => {
                    at += 1;
                    Run {
                        start: col,
                        end: r.end.min(to),
                        cell: r.cell,
                    }
                }
                next => Run {
                    start: col,
                    end: next.map_or(to, |r| r.start.min(to)),
                    cell: Cell::BLANK,
                },
            };
            col = segment.end;
            Some(segment)
        })
    }
}

/// The tidy runs of `layer` (sorted, disjoint, blank ones too) written
/// over the tidy runs of `base`, in one pass over both.
fn lay_over(base: &[Run], layer: &[Run]) -> Result<Vec<Run>, TryReserveError> {
    let mut runs: Vec<Run> = Vec::new();
    // Each run of the layer splits at most one of the base's in two.
    runs.try_reserve_exact(base.len() + 2 * layer.len())?;
    let mut emit = |run: Run| match runs.last_mut() {
        _ if run.start >= run.end || run.cell == Cell::BLANK => {}
        Some(last) if last.end == run.start && last.cell == run.cell => last.end = run.end,
        _ => runs.push(run),
    };
    let mut below = base.iter().copied();
    let mut pending = below.next();
    for &top in layer {
        // The base left of `top`.
        while let Some(b) = pending.filter(|b| b.start < top.start) {
            emit(Run {
                end: b.end.min(top.start),
                ..b
            });
            if b.end > top.start {
                break;
            }
            pending = below.next();
        }
        emit(top);
        // The base under `top` is hidden; what reaches past it stays.
        while let Some(b) = pending {
            if b.end > top.end {
                pending = Some(Run {
                    start: b.start.max(top.end),
                    ..b
                });
                break;
            }
            pending = below.next();
        }
    }
    pending.into_iter().chain(below).for_each(&mut emit);
    Ok(runs)
}

/// Appends the columns where rows `a` and `b` differ to `out`, as sorted,
/// disjoint, non-touching `(start, end)` pairs, in time linear in their
/// runs. Both must be tidy.
pub(super) fn differences(
    a: &Line,
    b: &Line,
    out: &mut Vec<(u32, u32)>,
) -> Result<(), TryReserveError> {
    let (a, b) = (a.runs(), b.runs());
    let (mut i, mut j) = (0, 0);
    let mut col = 0;
    // The cell at `col` on a row, and the column where that changes.
    let at = |runs: &[Run], k: &mut usize, col: u32| {
        while runs.get(*k).is_some_and(|r| r.end <= col) {
            *k += 1;
        }
        match runs.get(*k) {
            Some(r) if r.start <= col => (r.cell, r.end),
            Some(r) => (Cell::BLANK, r.start),
            None => (Cell::BLANK, u32::MAX),
        }
    };
    loop {
        let (cell_a, end_a) = at(a, &mut i, col);
        let (cell_b, end_b) = at(b, &mut j, col);
        let end = end_a.min(end_b);
        if end == u32::MAX {
            return Ok(());
        }
        if cell_a != cell_b {
            match out.last_mut() {
                Some(last) if last.1 == col => last.1 = end,
                _ => {
                    out.try_reserve(1)?;
                    out.push((col, end));
                }
            }
        }
        col = end;
    }
}

/// The first of `items` that is not `before` (all `before` ones come
/// first), searched from `finger`, where the last search ended, in steps
/// that double: a search near the last costs a few comparisons and touches
/// little memory, which matters in rows of thousands of runs.
pub(super) fn seek<T>(
    items: &[T],
    finger: &std::cell::Cell<u32>,
    before: impl Fn(&T) -> bool,
) -> usize {
    let finger_at = (finger.get() as usize).min(items.len());
    let mut step = 1;
    let (low, high) = if finger_at < items.len() && before(&items[finger_at]) {
        // Every item before `low` is before.
        let mut low = finger_at + 1;
        while low + step <= items.len() && before(&items[low + step - 1]) {
            low += step;
            step *= 2;
        }
        (low, (low + step).min(items.len()))
    } else {
        // The item at `high`, if any, is not before.
        let mut high = finger_at;
        while high >= step && !before(&items[high - step]) {
            high -= step;
            step *= 2;
        }
        (high.saturating_sub(step), high)
    };
    let at = low + items[low..high].partition_point(before);
    finger.set(at as u32);
    at
}

/// Pushes `run`, or fails when memory runs out.
fn push(runs: &mut Vec<Run>, run: Run) -> Result<(), TryReserveError> {
    runs.try_reserve(1)?;
    runs.push(run);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: u32, end: u32, ch: char) -> Run {
        Run {
            start,
            end,
            cell: Cell::new(ch, Some(1)),
        }
    }

    /// The row's first `width` characters.
    fn text(line: &Line, width: usize) -> String {
        (0..width).map(|c| line.get(c).ch).collect()
    }

    #[test]
    fn writes_in_order_stay_tidy_and_merge() {
        let mut line = Line::default();
        for w in [
            run(0, 1, '|'),
            run(1, 4, '-'),
            run(4, 6, '-'),
            run(8, 9, '|'),
        ] {
            line.write(w).unwrap();
        }
        line.write(run(20, 30, ' ')).unwrap();
        assert!(!line.messy);
        assert_eq!(
            line.runs(),
            [run(0, 1, '|'), run(1, 6, '-'), run(8, 9, '|')]
        );
    }

    #[test]
    fn later_writes_win_whatever_their_order() {
        let mut line = Line::default();
        let writes = [
            run(0, 12, '-'),
            run(3, 5, 'O'),
            run(4, 9, ' '),
            run(1, 2, '|'),
            run(8, 10, 'O'),
            run(2, 3, '-'),
        ];
        for w in writes {
            line.write(w).unwrap();
        }
        let before = text(&line, 14);
        assert_eq!(before, "-|-O    OO--  ");
        line.tidy().unwrap();
        assert_eq!(text(&line, 14), before);
        assert_eq!(
            line.runs(),
            [
                run(0, 1, '-'),
                run(1, 2, '|'),
                run(2, 3, '-'),
                run(3, 4, 'O'),
                run(8, 10, 'O'),
                run(10, 12, '-')
            ]
        );
    }

    #[test]
    fn segments_cover_the_columns_asked_for() {
        let mut line = Line::default();
        line.write(run(2, 4, 'O')).unwrap();
        line.write(run(6, 7, '|')).unwrap();
        let got: Vec<(u32, u32, char)> = line
            .segments(3, 9)
            .map(|s| (s.start, s.end, s.cell.ch))
            .collect();
        assert_eq!(got, [(3, 4, 'O'), (4, 6, ' '), (6, 7, '|'), (7, 9, ' ')]);
    }

    #[test]
    fn differences_are_the_columns_that_changed() {
        let (mut a, mut b) = (Line::default(), Line::default());
        a.write(run(0, 10, '-')).unwrap();
        b.write(run(0, 3, '-')).unwrap();
        b.write(run(3, 5, 'O')).unwrap();
        b.write(run(5, 10, '-')).unwrap();
        b.write(run(12, 13, '|')).unwrap();
        let mut out = Vec::new();
        differences(&a, &b, &mut out).unwrap();
        assert_eq!(out, [(3, 5), (12, 13)]);
        out.clear();
        differences(&a, &a, &mut out).unwrap();
        assert_eq!(out, []);
    }

    proptest::proptest! {
        #[test]
        fn a_layer_written_left_to_right_is_tidied_as_the_sweep_does(
            base in proptest::collection::vec((0u32..4, 1u32..6, 0usize..4), 0..12),
            layer in proptest::collection::vec((0u32..4, 1u32..6, 0usize..4), 1..12),
            from in 0u32..30,
        ) {
            // Each part written left to right, gaps between the writes;
            // the layer from `from` on, over the base as a chip row is
            // over the grid.
            let mut line = Line::default();
            let mut model = vec![Cell::BLANK; 120];
            for (part, mut col) in [(&base, 0), (&layer, from)] {
                for &(gap, len, glyph) in part.iter() {
                    let w = run(col + gap, col + gap + len, [' ', 'O', '|', 'x'][glyph]);
                    line.write(w).unwrap();
                    for c in w.start..w.end {
                        model[c as usize] = w.cell;
                    }
                    col = w.end;
                }
            }
            proptest::prop_assert!(line.layered || !line.messy);
            let mut swept = line.try_clone().unwrap();
            swept.layered = false;
            line.tidy().unwrap();
            swept.tidy().unwrap();
            proptest::prop_assert_eq!(line.runs(), swept.runs());
            for (c, &cell) in model.iter().enumerate() {
                proptest::prop_assert_eq!(line.get(c), cell);
            }
        }

        #[test]
        fn runs_read_as_cells_written_one_by_one(
            writes in proptest::collection::vec((0u32..40, 1u32..12, 0usize..4), 0..40),
            other in proptest::collection::vec((0u32..40, 1u32..12, 0usize..4), 0..10),
        ) {
            // A row of 60 cells written cell by cell, the model, against
            // the runs, before and after tidying.
            let write_all = |writes: &[(u32, u32, usize)]| {
                let mut line = Line::default();
                let mut model = vec![Cell::BLANK; 60];
                for &(start, len, glyph) in writes {
                    let w = run(start, start + len, [' ', 'O', '|', 'x'][glyph]);
                    line.write(w).unwrap();
                    for c in start..start + len {
                        model[c as usize] = w.cell;
                    }
                }
                (line, model)
            };
            let (mut line, model) = write_all(&writes);
            for (c, &cell) in model.iter().enumerate() {
                proptest::prop_assert_eq!(line.get(c), cell);
            }
            line.tidy().unwrap();
            // Read forwards, backwards and jumping about, from where the
            // last read ended.
            let jumps = writes.iter().map(|&(start, len, _)| (start + len) as usize % 60);
            for c in (0..60).chain((0..60).rev()).chain(jumps) {
                proptest::prop_assert_eq!(line.get(c), model[c]);
            }
            // Tidy: sorted, none blank, neighbours that touch differ.
            for pair in line.runs().windows(2) {
                let touch = pair[0].end == pair[1].start;
                proptest::prop_assert!(pair[0].end <= pair[1].start);
                proptest::prop_assert!(!touch || pair[0].cell != pair[1].cell);
            }
            proptest::prop_assert!(line.runs().iter().all(|r| r.cell != Cell::BLANK && r.start < r.end));
            let segments: Vec<Cell> = line
                .segments(3, 57)
                .flat_map(|s| std::iter::repeat_n(s.cell, (s.end - s.start) as usize))
                .collect();
            proptest::prop_assert_eq!(&segments[..], &model[3..57]);
            // Differences: exactly the columns where the cells differ.
            let (mut second, second_model) = write_all(&other);
            second.tidy().unwrap();
            let mut changed = Vec::new();
            differences(&line, &second, &mut changed).unwrap();
            let mut flags = vec![false; 60];
            for (start, end) in changed {
                for c in start..end {
                    flags[c as usize] = true;
                }
            }
            let expected: Vec<bool> = model.iter().zip(&second_model).map(|(a, b)| a != b).collect();
            proptest::prop_assert_eq!(flags, expected);
        }
    }
}
