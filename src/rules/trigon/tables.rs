//! The tables of one board, built once: the 22 pieces, every placement and what move generation
//! and the knowledge read of them.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::movegen::{self, AttachLists, Stamp, Window};
use super::placement::{Cells, PIECES, Placement, WORDS};
use crate::rules::geometry::polyiamond::{Tri, free_polyiamonds, orientations};
use crate::rules::geometry::trigon::TrigonBoard;

/// The tables of one board: the pieces and every placement.
pub struct Tables {
    /// The board geometry.
    pub board: &'static TrigonBoard,
    /// The 22 pieces, each as a canonical shape.
    pub pieces: Vec<Vec<Tri>>,
    /// Every placement (32,131 on 486 cells, 24,859 on 384).
    pub placements: Vec<Placement>,
    /// The placements covering each cell.
    pub by_cell: Vec<Vec<u16>>,
    /// The starting points as a set.
    pub starts: Cells,
    /// Placement by its cells as a set ([`Tables::placement_by_cells`]).
    by_cells: HashMap<Cells, u16>,
    /// Every placement as a three-word window, for the fast legality test.
    pub windows: Vec<Window>,
    /// What every placement adds to its colour's forbidden cells and attach points.
    pub stamps: Vec<Stamp>,
    /// The placements by attach point and status, for move generation.
    pub lists: AttachLists,
    /// Per placement, how far its centre is from the board's centre, 0 (at it) to 255 (farthest).
    pub centre: Vec<u8>,
    /// Per placement, true when it overlaps its own point reflection (so cannot be mirrored).
    pub self_mirror: Vec<bool>,
    /// Per piece size 0–6, a bit per piece of that size.
    pub by_size: [u32; 7],
    /// Per cell, its edge neighbours, padded with [`NO_CELL`] (for the move features).
    pub edge_neighbours: Vec<[u16; 3]>,
    /// Per cell, every cell some placement covering it also covers (the cell's reach, 6
    /// triangles at most away): whether a placement through a cell can touch a set at all.
    pub reach: Vec<Cells>,
}

/// A cell index beyond every board ([`Tables::edge_neighbours`]' padding): bit 511 of a bitboard.
pub const NO_CELL: u16 = 511;

impl Tables {
    /// The tables of the board with `side` triangles per side (8 or 9), built once.
    ///
    /// # Panics
    /// If `side` is not 8 or 9 (as [`TrigonBoard::get`]).
    pub fn get(side: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 2] = [OnceLock::new(), OnceLock::new()];
        let slot = match side {
            8 => &TABLES[0],
            9 => &TABLES[1],
            _ => panic!("a Trigon board has 8 or 9 triangles per side, not {side}"),
        };
        slot.get_or_init(|| Tables::build(TrigonBoard::get(side)))
    }

    /// The placement covering exactly these cells (cell indices of [`Tables::board`], in any
    /// order), as its index in [`Tables::placements`] (the move [`TrigonMove`] of that index), or
    /// `None` when they are not the cells of one piece in one orientation and position
    /// (`docs/rules/trigon.md` §Pieces), name a cell twice or a cell off the board. Whether the
    /// placement is legal in a position is another question ([`Game::play`] answers it).
    ///
    /// One hash look-up in a map built with the tables, once per board; allocates nothing.
    pub fn placement_by_cells(&self, cells: &[u16]) -> Option<u16> {
        let n = self.board.cells();
        if cells.is_empty() || cells.len() > 6 {
            return None;
        }
        let mut set = Cells::default();
        for &c in cells {
            if c as usize >= n || set.contains(c as usize) {
                return None;
            }
            set.insert(c as usize);
        }
        self.by_cells.get(&set).copied()
    }

    fn build(board: &'static TrigonBoard) -> Tables {
        let pieces: Vec<Vec<Tri>> = (1..=6).flat_map(free_polyiamonds).collect();
        assert_eq!(pieces.len(), PIECES);
        let set = |cells: &mut dyn Iterator<Item = usize>| {
            let mut s = Cells::default();
            for c in cells {
                s.insert(c);
            }
            s
        };
        let mut placements = Vec::new();
        for (piece, shape) in pieces.iter().enumerate() {
            for orientation in orientations(shape) {
                for cells in board.placements(&orientation) {
                    let mask = set(&mut cells.iter().map(|&c| c as usize));
                    let mut edge_ring = Cells::default();
                    let mut corner_ring = Cells::default();
                    for &c in &cells {
                        for &n in &board.edge_neighbours[c as usize] {
                            edge_ring.insert(n as usize);
                        }
                        for &n in &board.corner_neighbours[c as usize] {
                            corner_ring.insert(n as usize);
                        }
                    }
                    for w in 0..WORDS {
                        edge_ring.0[w] &= !mask.0[w];
                        corner_ring.0[w] &= !mask.0[w] & !edge_ring.0[w];
                    }
                    placements.push(Placement { piece: piece as u8, cells, mask, edge_ring, corner_ring });
                }
            }
        }
        let mut by_cell = vec![Vec::new(); board.cells()];
        let mut by_cells = HashMap::new();
        for (k, p) in placements.iter().enumerate() {
            for &c in &p.cells {
                by_cell[c as usize].push(k as u16);
            }
            by_cells.insert(p.mask, k as u16);
        }
        let starts = set(&mut board.starting_points.iter().map(|&c| c as usize));
        let windows = movegen::windows(&placements);
        let stamps = movegen::stamps(&placements);
        let lists = AttachLists::build(board, &placements, &by_cell);
        let n = board.cells();
        // Distances in triangle side lengths: x steps are half a side, y steps a triangle's height.
        let (cx, cy) = ((board.width as f32 - 1.0) / 2.0, (board.height as f32 - 1.0) / 2.0);
        let distance = |p: &Placement| {
            let (sx, sy) = p.cells.iter().fold((0.0, 0.0), |(sx, sy), &c| {
                let (x, y) = board.xy[c as usize];
                (sx + x as f32, sy + y as f32)
            });
            let k = p.cells.len() as f32;
            ((sx / k - cx) * 0.5).hypot((sy / k - cy) * 0.866)
        };
        let far = placements.iter().map(distance).fold(0.0f32, f32::max);
        let centre = placements.iter().map(|p| (255.0 * distance(p) / far).round() as u8).collect();
        let self_mirror =
            placements.iter().map(|p| p.cells.iter().any(|&c| p.mask.contains(n - 1 - c as usize))).collect();
        let mut by_size = [0u32; 7];
        for (k, shape) in pieces.iter().enumerate() {
            by_size[shape.len()] |= 1 << k;
        }
        let edge_neighbours = (0..n)
            .map(|x| {
                let mut nb = [NO_CELL; 3];
                for (slot, &y) in nb.iter_mut().zip(&board.edge_neighbours[x]) {
                    *slot = y;
                }
                nb
            })
            .collect();
        let reach = by_cell
            .iter()
            .map(|through| through.iter().fold(Cells::default(), |acc, &k| acc.or(&placements[k as usize].mask)))
            .collect();
        Tables {
            board,
            pieces,
            placements,
            by_cell,
            starts,
            by_cells,
            windows,
            stamps,
            lists,
            centre,
            self_mirror,
            by_size,
            edge_neighbours,
            reach,
        }
    }
}
