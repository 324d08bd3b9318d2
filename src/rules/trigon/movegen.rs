//! Precomputed tables for fast Blokus Trigon move generation (`docs/rules/trigon.md` §Play).
//!
//! A later piece of a colour must cover one of its **attach points** (free cells touching it at a
//! corner, not along an edge). So moves are found through attach points: for each cell, the
//! placements that cover it, split by the *status* of the few cells around it (Pentobi's
//! "adjacent status": which of them are forbidden for the colour — covered, or next to the colour
//! along an edge). A placement covering a forbidden cell of the status is left out of that status's
//! list, so most illegal placements are never looked at. Each list is sorted by piece, with the
//! offset of every piece, so the pieces a colour has placed are skipped without a look.
//!
//! The legality test of a listed placement is three ANDs: its cells as a window of three
//! consecutive 64-bit words of the board ([`Window`]).

use super::placement::{Cells, PIECES, Placement, WORDS};
use crate::rules::geometry::trigon::TrigonBoard;

/// Cells around an attach point whose status is looked at: its edge neighbours, then the cells most
/// often covered together with it.
pub const STATUS_CELLS: usize = 6;
/// Statuses per cell, `2^STATUS_CELLS`.
pub const STATUSES: usize = 1 << STATUS_CELLS;
/// The first of the status cells (the edge neighbours) key the placement lists; all of them key the
/// piece sets that tell a dead attach point without reading a list. Fewer list cells keep the lists
/// small enough for the cache (measured: 3 beats 4–8).
pub const LIST_CELLS: usize = 3;
/// Lists per cell, `2^LIST_CELLS`.
const LISTS: usize = 1 << LIST_CELLS;

/// A placement's cells as three consecutive words of a board bitboard, starting at word `word`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Window {
    /// The bits of words `word`, `word + 1`, `word + 2`.
    pub bits: [u64; 3],
    /// The first word, `0..=WORDS-3`.
    pub word: u8,
    /// The piece, `0..22`.
    pub piece: u8,
    /// Triangles it covers, 1–6.
    pub size: u8,
}

impl Window {
    /// The window of `mask` (whose cells must lie within three consecutive words).
    fn new(mask: &Cells, piece: u8, size: u8) -> Window {
        let first = mask.first().expect("a placement covers a cell") / 64;
        let last = mask.last().expect("a placement covers a cell") / 64;
        let word = first.min(WORDS - 3);
        assert!(last < word + 3, "a placement spans at most three words");
        Window { bits: [mask.0[word], mask.0[word + 1], mask.0[word + 2]], word: word as u8, piece, size }
    }

    /// How many cells of `set` the placement covers.
    #[inline(always)]
    pub fn count(&self, set: &Cells) -> u32 {
        let w = self.word as usize;
        (set.0[w] & self.bits[0]).count_ones()
            + (set.0[w + 1] & self.bits[1]).count_ones()
            + (set.0[w + 2] & self.bits[2]).count_ones()
    }

    /// True when the placement covers a cell of `set`.
    #[inline(always)]
    pub fn hits(&self, set: &Cells) -> bool {
        let w = self.word as usize;
        (set.0[w] & self.bits[0]) | (set.0[w + 1] & self.bits[1]) | (set.0[w + 2] & self.bits[2]) != 0
    }

    /// The lowest cell the placement shares with `set`, if any.
    #[inline(always)]
    pub fn lowest_in(&self, set: &Cells) -> Option<usize> {
        let w = self.word as usize;
        (0..3).find_map(|i| {
            let m = set.0[w + i] & self.bits[i];
            (m != 0).then(|| (w + i) * 64 + m.trailing_zeros() as usize)
        })
    }
}

/// What playing a placement adds to its colour's forbidden cells and attach points: the cells
/// sharing an edge with it and those touching it at a corner, as windows of five words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stamp {
    /// Cells outside the placement sharing an edge with it, words `word..word + 5`.
    pub edge: [u64; 5],
    /// Cells touching it only at a corner, words `word..word + 5`.
    pub corner: [u64; 5],
    /// The first word, `0..=WORDS-5`.
    pub word: u8,
}

impl Stamp {
    fn new(p: &Placement) -> Stamp {
        let mut ring = p.edge_ring;
        for w in 0..WORDS {
            ring.0[w] |= p.corner_ring.0[w];
        }
        let first = ring.first().expect("a placement has neighbours") / 64;
        let last = ring.last().expect("a placement has neighbours") / 64;
        let word = first.min(WORDS - 5);
        assert!(last < word + 5, "a placement's neighbours span at most five words");
        let mut stamp = Stamp { word: word as u8, ..Stamp::default() };
        for i in 0..5 {
            stamp.edge[i] = p.edge_ring.0[word + i];
            stamp.corner[i] = p.corner_ring.0[word + i];
        }
        stamp
    }
}

/// The stamps of every placement, by index.
pub fn stamps(placements: &[Placement]) -> Vec<Stamp> {
    placements.iter().map(Stamp::new).collect()
}

/// The placement lists by cell and status (see the module doc).
pub struct AttachLists {
    /// Per cell, the cells whose status keys its lists (`u16::MAX` where a cell has fewer).
    status_cells: Vec<[u16; STATUS_CELLS]>,
    /// Per (cell, status), where its list starts in `data`; one more entry at the end.
    start: Vec<u32>,
    /// Per (cell, status), a bit per piece that has a placement in its list.
    present: Vec<u32>,
    /// The lists, each a header of `PIECES + 1` offsets (where each piece's placements begin,
    /// counted from the end of the header) followed by the placement indices, so one list is one
    /// stretch of memory.
    data: Vec<u16>,
}

/// Length of a list's header in `data`.
const HEADER: usize = PIECES + 1;

impl AttachLists {
    /// Builds the lists of every cell from the placements and the placements covering each cell
    /// (`by_cell`, ascending, so sorted by piece).
    pub fn build(board: &TrigonBoard, placements: &[Placement], by_cell: &[Vec<u16>]) -> AttachLists {
        let cells = board.cells();
        let mut status_cells = Vec::with_capacity(cells);
        let mut start = Vec::with_capacity(cells * LISTS + 1);
        let mut present = Vec::with_capacity(cells * STATUSES);
        let mut data: Vec<u16> = Vec::new();
        let mut counts = vec![0u32; cells];
        for (x, through) in by_cell.iter().enumerate() {
            // The edge neighbours first (every placement of two or more triangles covers one),
            // then the cells most often covered together with `x`.
            let mut chosen: Vec<u16> = board.edge_neighbours[x].clone();
            counts.iter_mut().for_each(|n| *n = 0);
            for &k in through {
                for &c in &placements[k as usize].cells {
                    counts[c as usize] += 1;
                }
            }
            let mut others: Vec<usize> =
                (0..cells).filter(|&c| c != x && counts[c] > 0 && !chosen.contains(&(c as u16))).collect();
            others.sort_by_key(|&c| (std::cmp::Reverse(counts[c]), c));
            chosen.extend(others.iter().map(|&c| c as u16));
            chosen.resize(STATUS_CELLS, u16::MAX);
            let around: [u16; STATUS_CELLS] = chosen[..STATUS_CELLS].try_into().expect("STATUS_CELLS cells");
            // The status cells each placement covers, as a bit set like a status.
            let covers = |p: &Placement| {
                (0..STATUS_CELLS)
                    .filter(|&i| around[i] != u16::MAX && p.mask.contains(around[i] as usize))
                    .fold(0usize, |acc, i| acc | 1 << i)
            };
            let mut pieces_by_cover = [0u32; STATUSES];
            for &k in through {
                let p = &placements[k as usize];
                pieces_by_cover[covers(p)] |= 1 << p.piece;
            }
            for status in 0..STATUSES {
                let pieces = (0..STATUSES).filter(|&cover| cover & status == 0).map(|cover| pieces_by_cover[cover]);
                present.push(pieces.fold(0, |acc, p| acc | p));
            }
            for status in 0..LISTS {
                start.push(data.len() as u32);
                let header = data.len();
                data.extend([0; HEADER]);
                let list_start = data.len();
                let mut offsets = [0u16; PIECES + 1];
                let mut piece = 0;
                for &k in through {
                    let p = &placements[k as usize];
                    if covers(p) & status != 0 {
                        continue;
                    }
                    while piece < p.piece as usize {
                        piece += 1;
                        offsets[piece] = (data.len() - list_start) as u16;
                    }
                    data.push(k);
                }
                while piece < PIECES {
                    piece += 1;
                    offsets[piece] = (data.len() - list_start) as u16;
                }
                data[header..list_start].copy_from_slice(&offsets);
            }
            status_cells.push(around);
        }
        start.push(data.len() as u32);
        AttachLists { status_cells, start, present, data }
    }

    /// The status of cell `x` for a colour whose forbidden cells are `forbidden`.
    #[inline(always)]
    pub fn status(&self, x: usize, forbidden: &Cells) -> usize {
        let mut s = 0;
        for (i, &c) in self.status_cells[x].iter().enumerate() {
            if c != u16::MAX && forbidden.contains(c as usize) {
                s |= 1 << i;
            }
        }
        s
    }

    /// The placements covering `x` and no forbidden cell of `status`, sorted by piece, and the
    /// offsets in it where each piece's placements begin (`offsets[p]..offsets[p + 1]`).
    #[inline(always)]
    pub fn list(&self, x: usize, status: usize) -> (&[u16], &[u16]) {
        let i = x * LISTS + (status & (LISTS - 1));
        let (header, list) = self.data[self.start[i] as usize..self.start[i + 1] as usize].split_at(HEADER);
        (list, header)
    }

    /// A bit per piece with a placement through `x` that covers none of the forbidden cells of
    /// `status` (all [`STATUS_CELLS`] of them, more than the list looks at): read without touching
    /// a list, it tells a dead attach point at once.
    #[inline(always)]
    pub fn pieces(&self, x: usize, status: usize) -> u32 {
        self.present[x * STATUSES + status]
    }

    /// Entries in all lists, headers included (for the record of memory use).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when no list has an entry (never for a real board).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// How many placements of the pieces in `set` a list holds (`offsets` as [`AttachLists::list`]
/// gives them).
#[inline(always)]
pub fn count_of(offsets: &[u16], set: u32) -> usize {
    let mut total = 0;
    let mut p = set;
    while p != 0 {
        let piece = p.trailing_zeros() as usize;
        p &= p - 1;
        total += (offsets[piece + 1] - offsets[piece]) as usize;
    }
    total
}

/// The `r`-th placement of the pieces in `set` in a list (`offsets` as [`AttachLists::list`]
/// gives them); `r` below their total ([`count_of`]).
#[inline(always)]
pub fn pick(list: &[u16], offsets: &[u16], set: u32, mut r: usize) -> u16 {
    let mut p = set;
    loop {
        let piece = p.trailing_zeros() as usize;
        p &= p - 1;
        let len = (offsets[piece + 1] - offsets[piece]) as usize;
        if r < len {
            return list[offsets[piece] as usize + r];
        }
        r -= len;
    }
}

/// The windows of every placement, by index.
pub fn windows(placements: &[Placement]) -> Vec<Window> {
    placements.iter().map(|p| Window::new(&p.mask, p.piece, p.cells.len() as u8)).collect()
}
