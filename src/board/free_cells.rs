//! The empty cells in row-major order as an order-statistic structure, so
//! that a throw finds the k-th empty cell without listing them all.

/// Cells per block: a block's empty cells are found by scanning it.
const BLOCK: usize = 64;

/// A Fenwick tree of the number of empty cells in each block of [`BLOCK`]
/// cells: an update and a search for the k-th empty cell each take
/// O(log blocks), in four bytes per block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FreeCells {
    /// 1-based: `tree[i]` sums the blocks `i - lowbit(i) .. i`.
    tree: Vec<u32>,
}

impl FreeCells {
    /// The counts for `cells` cells, all empty.
    pub(super) fn all_empty(cells: usize) -> FreeCells {
        FreeCells::from_counts(
            (0..cells.div_ceil(BLOCK)).map(|block| (cells - block * BLOCK).min(BLOCK) as u32),
        )
    }

    /// The counts of the empty cells (0) of `cells`: linear, for changes
    /// too many to make one by one.
    pub(super) fn of(cells: &[u8]) -> FreeCells {
        FreeCells::from_counts(
            cells
                .chunks(BLOCK)
                .map(|block| block.iter().filter(|&&c| c == 0).count() as u32),
        )
    }

    /// The tree over the blocks' counts, in order.
    fn from_counts(counts: impl ExactSizeIterator<Item = u32>) -> FreeCells {
        let blocks = counts.len();
        let mut tree = Vec::with_capacity(blocks + 1);
        tree.push(0);
        tree.extend(counts);
        // Linear construction: each node passes its sum to its parent.
        for i in 1..=blocks {
            let parent = i + (i & i.wrapping_neg());
            if parent <= blocks {
                tree[parent] += tree[i];
            }
        }
        FreeCells { tree }
    }

    /// Records that `cell` became empty (`true`) or filled (`false`).
    pub(super) fn update(&mut self, cell: usize, emptied: bool) {
        let mut i = cell / BLOCK + 1;
        while i < self.tree.len() {
            if emptied {
                self.tree[i] += 1;
            } else {
                self.tree[i] -= 1;
            }
            i += i & i.wrapping_neg();
        }
    }

    /// The block holding the `k`-th (0-based) empty cell, and how many
    /// empty cells of that block come before it. `k` must be below the
    /// number of empty cells.
    pub(super) fn find(&self, mut k: usize) -> (usize, usize) {
        let blocks = self.tree.len() - 1;
        let mut at = 0;
        let mut step = blocks.checked_ilog2().map_or(0, |b| 1 << b);
        while step > 0 {
            let next = at + step;
            if next <= blocks && (self.tree[next] as usize) <= k {
                k -= self.tree[next] as usize;
                at = next;
            }
            step /= 2;
        }
        (at, k)
    }
}

/// The row-major index of the `k`-th (0-based) empty cell of `cells`
/// (0 = empty), found with `free`, which counts them.
pub(super) fn kth_empty(cells: &[u8], free: &FreeCells, k: usize) -> usize {
    let (block, mut rank) = free.find(k);
    let start = block * BLOCK;
    for (i, &cell) in cells[start..].iter().enumerate() {
        if cell == 0 {
            if rank == 0 {
                return start + i;
            }
            rank -= 1;
        }
    }
    unreachable!("the counts say the block holds the cell")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kth_empty_matches_a_listing() {
        for len in [1, 63, 64, 65, 200, 1000] {
            let mut cells = vec![0u8; len];
            let mut free = FreeCells::all_empty(len);
            // Fill a scattered, uneven pattern of cells.
            for i in (0..len).filter(|i| i % 3 == 0 || i % 7 == 2 || (100..170).contains(i)) {
                cells[i] = 1;
                free.update(i, false);
            }
            cells[len / 2] = 0;
            if len / 2 % 3 == 0 || len / 2 % 7 == 2 || (100..170).contains(&(len / 2)) {
                free.update(len / 2, true);
            }
            assert_eq!(free, FreeCells::of(&cells), "len {len}");
            let listed: Vec<usize> = (0..len).filter(|&i| cells[i] == 0).collect();
            for (k, &want) in listed.iter().enumerate() {
                assert_eq!(kth_empty(&cells, &free, k), want, "len {len}, k {k}");
            }
        }
    }
}
