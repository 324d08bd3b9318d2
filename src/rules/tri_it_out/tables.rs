//! The nine boards of Tri-It-Out and their triangle tables (`docs/rules/tri-it-out.md` §Board,
//! §Definitions), built once per board in a `OnceLock`.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::rules::geometry::lattice::{Lattice, Points, rot60};

/// A board shape (`docs/rules/tri-it-out.md` §Board): Ludii's nine options, smallest first.
///
/// A hexagon "alternating `a` and `b`" has sides of `a` and `b` points in turn; its rows (top to
/// bottom) are `a, a+1, …, a+b-1`, then shrink `a-1` times down to `b`. An "equiversi" board is the
/// same construction with `b = a + 2`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Board {
    /// Hexagon with sides alternating 2 and 3 points: rows 2, 3, 4, 3 (12 points).
    #[serde(rename = "hex-2-3")]
    Hex23,
    /// Triangle of side 5 (15 points).
    #[serde(rename = "tri-5")]
    Tri5,
    /// Hexagon with sides alternating 2 and 4 points: rows 2, 3, 4, 5, 4 (18 points).
    #[serde(rename = "equiversi-2-4")]
    Equiversi24,
    /// Regular hexagon of side 3 (19 points).
    #[serde(rename = "hex-3")]
    Hex3,
    /// Triangle of side 6 (21 points).
    #[serde(rename = "tri-6")]
    Tri6,
    /// Hexagon with sides alternating 3 and 4 points: rows 3, 4, 5, 6, 5, 4 (27 points). The default.
    #[default]
    #[serde(rename = "hex-3-4")]
    Hex34,
    /// Hexagon with sides alternating 3 and 5 points: rows 3, 4, 5, 6, 7, 6, 5 (36 points).
    #[serde(rename = "equiversi-3-5")]
    Equiversi35,
    /// Regular hexagon of side 4 (37 points).
    #[serde(rename = "hex-4")]
    Hex4,
    /// Hexagon with sides alternating 4 and 5 points: rows 4, 5, 6, 7, 8, 7, 6, 5 (48 points).
    #[serde(rename = "hex-4-5")]
    Hex45,
}

impl Board {
    /// Every board, smallest first (the order of `docs/rules/tri-it-out.md` §Board).
    pub const ALL: [Board; 9] = [
        Board::Hex23,
        Board::Tri5,
        Board::Equiversi24,
        Board::Hex3,
        Board::Tri6,
        Board::Hex34,
        Board::Equiversi35,
        Board::Hex4,
        Board::Hex45,
    ];

    /// The board's id in records and on the command line (`hex-3-4`).
    pub fn id(self) -> &'static str {
        match self {
            Board::Hex23 => "hex-2-3",
            Board::Tri5 => "tri-5",
            Board::Equiversi24 => "equiversi-2-4",
            Board::Hex3 => "hex-3",
            Board::Tri6 => "tri-6",
            Board::Hex34 => "hex-3-4",
            Board::Equiversi35 => "equiversi-3-5",
            Board::Hex4 => "hex-4",
            Board::Hex45 => "hex-4-5",
        }
    }

    /// The board with this id, if any.
    pub fn from_id(id: &str) -> Option<Board> {
        Board::ALL.into_iter().find(|b| b.id() == id)
    }

    /// Row lengths in points, top to bottom (the argument of [`Lattice::new`]).
    pub fn rows(self) -> &'static [u8] {
        match self {
            Board::Hex23 => &[2, 3, 4, 3],
            Board::Tri5 => &[1, 2, 3, 4, 5],
            Board::Equiversi24 => &[2, 3, 4, 5, 4],
            Board::Hex3 => &[3, 4, 5, 4, 3],
            Board::Tri6 => &[1, 2, 3, 4, 5, 6],
            Board::Hex34 => &[3, 4, 5, 6, 5, 4],
            Board::Equiversi35 => &[3, 4, 5, 6, 7, 6, 5],
            Board::Hex4 => &[4, 5, 6, 7, 6, 5, 4],
            Board::Hex45 => &[4, 5, 6, 7, 8, 7, 6, 5],
        }
    }

    /// The board's lattice (points, neighbours, notation), built on first use.
    pub fn lattice(self) -> &'static Lattice {
        &self.tables().lattice
    }

    /// Every equilateral triangle of the board, each once as its three points in ascending order
    /// (`docs/rules/tri-it-out.md` §Definitions: any size, any orientation, tilted ones included).
    pub fn triangles(self) -> &'static [[u8; 3]] {
        &self.tables().triangles
    }

    /// The board's precomputed tables.
    pub(crate) fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 9] = [const { OnceLock::new() }; 9];
        TABLES[self as usize].get_or_init(|| Tables::new(self))
    }
}

/// Everything the rules look up on one board. One value per board exists (equality is identity).
pub(crate) struct Tables {
    pub board: Board,
    pub lattice: Lattice,
    /// Every triangle, corners ascending, sorted.
    pub triangles: Vec<[u8; 3]>,
    /// Each triangle as a set of its three points, in the order of `triangles`.
    pub triangle_sets: Vec<Points>,
    /// `third[a * len + b]`: the points that complete a triangle with `a` and `b` (at most two, one
    /// on each side of the line `ab`); empty when `a == b`.
    pub third: Vec<Points>,
}

impl PartialEq for Tables {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({})", self.board.id())
    }
}

impl Tables {
    fn new(board: Board) -> Tables {
        let lattice = Lattice::new(board.rows());
        let n = lattice.len;
        let mut triangles = Vec::new();
        // §Definitions: from every point P and every lattice vector v to another point, the corner
        // P + rot60(v) closes the triangle turning counter-clockwise; every triangle is found once
        // from each corner, so keep it only from its lowest one.
        for p in 0..n {
            let (pq, pr) = (lattice.q[p] as i32, lattice.r[p] as i32);
            for a in 0..n {
                if a == p {
                    continue;
                }
                let (vq, vr) = (lattice.q[a] as i32 - pq, lattice.r[a] as i32 - pr);
                let (wq, wr) = rot60(vq, vr);
                if let Some(b) = lattice.at(pq + wq, pr + wr)
                    && p < a
                    && p < b
                {
                    let mut t = [p as u8, a as u8, b as u8];
                    t.sort_unstable();
                    triangles.push(t);
                }
            }
        }
        triangles.sort_unstable();
        triangles.dedup();
        let triangle_sets: Vec<Points> = triangles.iter().map(|t| t.iter().fold(0, |s, &c| s | 1 << c)).collect();
        let mut third = vec![0; n * n];
        for &[a, b, c] in &triangles {
            let (a, b, c) = (a as usize, b as usize, c as usize);
            for (x, y, z) in [(a, b, c), (b, c, a), (c, a, b)] {
                third[x * n + y] |= 1 << z;
                third[y * n + x] |= 1 << z;
            }
        }
        Tables { board, lattice, triangles, triangle_sets, third }
    }

    /// The points completing a triangle with `a` and `b`.
    #[inline(always)]
    pub fn third(&self, a: usize, b: usize) -> Points {
        self.third[a * self.lattice.len + b]
    }
}
