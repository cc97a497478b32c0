//! The cells a frame still has to write: on each row, the stretches of
//! columns where it differs from the screen.

use std::io;

use super::line::{differences, seek};
use super::{Frame, too_large};

/// Which cells still need writing: on each row, sorted, disjoint and
/// non-touching stretches `(start, end)` of columns.
pub(super) struct Pending {
    rows: Vec<Row>,
    /// How many cells there are in all.
    pub left: usize,
}

/// One row's stretches; those before `done` are written, and so are empty
/// ones (`start == end`) after it, which keep the list sorted. Rows are
/// mostly written from the left: the stretches written go at no cost.
#[derive(Default)]
struct Row {
    spans: Vec<(u32, u32)>,
    done: usize,
    /// Where the last search on the row ended (see [`seek`]).
    finger: std::cell::Cell<u32>,
}

impl Row {
    /// The first stretch not written that ends after `col`.
    fn after(&self, col: usize) -> usize {
        seek(&self.spans, &self.finger, |&(_, end)| end as usize <= col).max(self.done)
    }
}

impl Pending {
    /// The cells where `new` differs from `old` (both tidy, of one size),
    /// found in time linear in their runs; or an error when memory runs out.
    pub fn between(new: &Frame, old: &Frame) -> io::Result<Pending> {
        let mut rows = Vec::new();
        rows.try_reserve_exact(new.rows)
            .map_err(|_| too_large(new))?;
        let mut left = 0;
        for (a, b) in new.lines.iter().zip(&old.lines) {
            let mut row = Row::default();
            if a.runs() != b.runs() {
                differences(a, b, &mut row.spans).map_err(|_| too_large(new))?;
                left += row
                    .spans
                    .iter()
                    .map(|&(s, e)| (e - s) as usize)
                    .sum::<usize>();
            }
            rows.push(row);
        }
        Ok(Pending { rows, left })
    }

    /// The starts of the stretches pending on `row` from column `from` on,
    /// left to right.
    pub fn starts_from(&self, row: usize, from: usize) -> impl Iterator<Item = usize> + '_ {
        let row = &self.rows[row];
        let first = seek(&row.spans, &row.finger, |&(start, _)| {
            (start as usize) < from
        });
        row.spans[first.max(row.done)..]
            .iter()
            .filter(|&&(start, end)| start < end)
            .map(|&(start, _)| start as usize)
    }

    /// The stretches pending on `row`, and empty ones among them.
    fn row(&self, row: usize) -> &[(u32, u32)] {
        let row = &self.rows[row];
        &row.spans[row.done..]
    }

    /// The end of the pending stretch that holds `row`, `col`, if any.
    pub fn stretch_end(&self, row: usize, col: usize) -> Option<usize> {
        let row = &self.rows[row];
        row.spans
            .get(row.after(col))
            .filter(|&&(start, _)| start as usize <= col)
            .map(|&(_, end)| end as usize)
    }

    /// Whether the first column of `row` is pending, found without moving
    /// the row's search finger from where the writing is.
    pub fn first_column(&self, row: usize) -> bool {
        let row = &self.rows[row];
        row.spans
            .get(row.done)
            .is_some_and(|&(start, end)| start == 0 && end > 0)
    }

    /// Marks columns `from..to` of `row` written.
    pub fn take(&mut self, row: usize, from: usize, to: usize) {
        let first = self.rows[row].after(from) - self.rows[row].done;
        let (from, to) = (from as u32, to as u32);
        let spans = self.row(row);
        // Few: those the cursor went over.
        let last = first
            + spans[first..]
                .iter()
                .take_while(|&&(start, _)| start < to)
                .count();
        if first == last {
            return;
        }
        let taken: u32 = spans[first..last]
            .iter()
            .map(|&(start, end)| end.min(to) - start.max(from))
            .sum();
        let before = (spans[first].0 < from).then_some((spans[first].0, from));
        let after = (spans[last - 1].1 > to).then_some((to, spans[last - 1].1));
        self.left -= taken as usize;
        let row = &mut self.rows[row];
        let (first, last) = (row.done + first, row.done + last);
        match (before, after) {
            (Some(before), Some(after)) if last - first == 1 => {
                // A stretch cut in two: rare, the cursor writes from the
                // left of a stretch.
                row.spans.splice(first..last, [before, after]);
            }
            _ => {
                // In place, so a stretch written down a column costs no
                // shift of the rest of its row: what is left of the first
                // and last stretches stays, those between are emptied.
                row.spans[first..last].fill((to, to));
                if let Some(before) = before {
                    row.spans[first] = before;
                }
                if let Some(after) = after {
                    row.spans[last - 1] = after;
                }
                while row.spans.get(row.done).is_some_and(|&(s, e)| s == e) {
                    row.done += 1;
                }
            }
        }
    }

    /// The first pending cell at or after `row`, `col` in reading order;
    /// there must be one.
    pub fn next_from(&self, at: (usize, usize)) -> (usize, usize) {
        self.first_from(at, self.rows.len())
            .expect("a pending cell")
    }

    /// The first pending cell at or after `row`, `col` in reading order,
    /// if there is one before row `end`.
    pub fn first_from(&self, (row, col): (usize, usize), end: usize) -> Option<(usize, usize)> {
        let live = &self.rows[row];
        let at = live.after(col);
        if let Some(&(start, _)) = live.spans[at..].iter().find(|&&(s, e)| s < e) {
            return Some((row, col.max(start as usize)));
        }
        let (row, spans) = (row + 1..end.min(self.rows.len()))
            .map(|r| (r, self.row(r)))
            .find(|(_, spans)| !spans.is_empty())?;
        Some((row, spans[0].0 as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn stretches_follow_the_cells_taken(
            new in proptest::collection::vec((0usize..50, 1usize..8, 0usize..3), 0..20),
            takes in proptest::collection::vec((0usize..50, 1usize..6), 0..30),
        ) {
            // Two rows against a blank frame; each cell a flag, the model.
            let mut frame = Frame::new(50, 2);
            for &(col, len, glyph) in &new {
                frame.fill(col % 2, col, len, [' ', 'O', '|'][glyph], Some(1));
            }
            frame.tidy().unwrap();
            let mut model: Vec<Vec<bool>> = (0..2)
                .map(|r| (0..50).map(|c| frame.get(r, c).ch != ' ').collect())
                .collect();
            let mut pending = Pending::between(&frame, &Frame::new(50, 2)).unwrap();
            for (i, &(from, len)) in takes.iter().enumerate() {
                let row = i % 2;
                let to = (from + len).min(50);
                pending.take(row, from, to);
                model[row][from..to].fill(false);
                let left = model.iter().flatten().filter(|&&p| p).count();
                proptest::prop_assert_eq!(pending.left, left);
                for (r, flags) in model.iter().enumerate() {
                    for (c, &flag) in flags.iter().enumerate() {
                        let end = flags[c..].iter().position(|&p| !p).map_or(50, |n| c + n);
                        proptest::prop_assert_eq!(pending.stretch_end(r, c), flag.then_some(end));
                    }
                }
                let first = (0..100).map(|k| (k / 50, k % 50)).find(|&(r, c)| model[r][c]);
                if let Some(first) = first {
                    proptest::prop_assert_eq!(pending.next_from((0, 0)), first);
                }
            }
        }
    }
}
