//! A triangle of hexagonal cells with side `N` (Trike's board, `docs/rules/trike.md` §Board).
//!
//! Cell `(r, c)` with `0 <= c <= r < N`; row 0 is the apex. Cells are numbered row by row,
//! `index = r(r+1)/2 + c`, so `N(N+1)/2` cells. The six neighbour steps are also the six line
//! directions. In this numbering the three steps with a positive row or column change raise the
//! index and the other three lower it, which lets a ray's nearest blocker be found with one bit scan.

use std::sync::OnceLock;

use super::super::bits::BitSet;

/// The largest side this geometry supports.
pub const MAX_SIDE: usize = 19;
/// The most cells of any supported triangle (`19·20/2 = 190`).
pub const MAX_CELLS: usize = MAX_SIDE * (MAX_SIDE + 1) / 2;
/// Words of a bitboard over the cells of any supported triangle.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);
/// A set of cells of a triangle board.
pub type Cells = BitSet<WORDS>;
/// Occupancy by line, for sliding moves: `lines[axis][line]` has bit `slot` set for each occupied
/// cell of that line, plus a sentinel bit just past each end (see [`Triangle::free_run`]).
pub type Lines = [[u32; MAX_SIDE]; 3];

/// The six directions as `(row step, column step)`: the first three lower the cell index, the last
/// three raise it (`docs/rules/trike.md` §Board).
pub const DIRECTIONS: [(i8, i8); 6] = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)];
/// Marks "no cell" in the tables.
pub const NONE: u8 = u8::MAX;

/// The precomputed tables of one triangle size. Obtain it with [`Triangle::get`].
pub struct Triangle {
    /// The side `N`, in cells.
    pub side: usize,
    /// The number of cells, `N(N+1)/2`.
    pub cells: usize,
    /// Row of each cell.
    pub row: [u8; MAX_CELLS],
    /// Column of each cell.
    pub col: [u8; MAX_CELLS],
    /// `neighbor[cell][d]`: the next cell in direction `d` of [`DIRECTIONS`], or [`NONE`].
    pub neighbor: [[u8; 6]; MAX_CELLS],
    /// `ray[d][cell]`: every cell from `cell` (exclusive) to the board's edge in direction `d`.
    pub ray: [[Cells; MAX_CELLS]; 6],
    /// `line[axis][cell]`: which line of the axis (0: rows, 1: columns, 2: diagonals) holds the cell.
    pub line: [[u8; MAX_CELLS]; 3],
    /// `slot[axis][cell]`: the cell's bit in its line's word of [`Lines`] (position along the line + 1).
    pub slot: [[u8; MAX_CELLS]; 3],
    /// The empty board as [`Lines`]: only the sentinel bits at both ends of every line.
    pub empty_lines: Lines,
    /// The cell together with its neighbours (the pawn's scored cells in Trike).
    pub around: [Cells; MAX_CELLS],
}

// One table per side exists, so the side identifies it; printing the tables would drown a state's
// `Debug` output.
impl std::fmt::Debug for Triangle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Triangle({})", self.side)
    }
}

impl PartialEq for Triangle {
    fn eq(&self, other: &Self) -> bool {
        self.side == other.side
    }
}

impl Eq for Triangle {}

impl Triangle {
    /// The tables for side `side`, built on first use and kept for the life of the program.
    ///
    /// # Panics
    /// If `side` is not in `1..=MAX_SIDE`.
    pub fn get(side: usize) -> &'static Triangle {
        assert!((1..=MAX_SIDE).contains(&side), "triangle side {side} outside 1..={MAX_SIDE}");
        static TABLES: [OnceLock<Box<Triangle>>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
        TABLES[side].get_or_init(|| Triangle::build(side))
    }

    fn build(side: usize) -> Box<Triangle> {
        let cells = side * (side + 1) / 2;
        let mut t = Box::new(Triangle {
            side,
            cells,
            row: [0; MAX_CELLS],
            col: [0; MAX_CELLS],
            neighbor: [[NONE; 6]; MAX_CELLS],
            ray: [[Cells::EMPTY; MAX_CELLS]; 6],
            line: [[0; MAX_CELLS]; 3],
            slot: [[0; MAX_CELLS]; 3],
            empty_lines: [[0; MAX_SIDE]; 3],
            around: [Cells::EMPTY; MAX_CELLS],
        });
        for r in 0..side {
            for c in 0..=r {
                let i = Self::index_of(r, c);
                t.row[i] = r as u8;
                t.col[i] = c as u8;
            }
        }
        for i in 0..cells {
            let (r, c) = (t.row[i] as usize, t.col[i] as usize);
            // Rows: line r, position c. Columns: line c, position r - c. Diagonals: line r - c, position c.
            for (axis, (line, pos)) in [(r, c), (c, r - c), (r - c, c)].into_iter().enumerate() {
                t.line[axis][i] = line as u8;
                t.slot[axis][i] = pos as u8 + 1;
            }
        }
        for line in 0..side {
            // Row r holds r + 1 cells; column c and diagonal k hold side - c and side - k cells.
            for (axis, len) in [line + 1, side - line, side - line].into_iter().enumerate() {
                t.empty_lines[axis][line] = 1 | 1 << (len + 1);
            }
        }
        for i in 0..cells {
            t.around[i].insert(i);
            for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                let (mut r, mut c) = (t.row[i] as i32, t.col[i] as i32);
                let mut first = true;
                while let Some(j) = t.index(r + dr as i32, c + dc as i32) {
                    if first {
                        t.neighbor[i][d] = j as u8;
                        t.around[i].insert(j);
                        first = false;
                    }
                    t.ray[d][i].insert(j);
                    r += dr as i32;
                    c += dc as i32;
                }
            }
        }
        t
    }

    fn index_of(r: usize, c: usize) -> usize {
        r * (r + 1) / 2 + c
    }

    /// The index of cell `(r, c)`, or `None` off the board.
    #[inline]
    pub fn index(&self, r: i32, c: i32) -> Option<usize> {
        (r >= 0 && c >= 0 && c <= r && (r as usize) < self.side).then(|| Self::index_of(r as usize, c as usize))
    }

    /// A cell's name: column letter and row number, `(0,0)` = `a1`, `(12,5)` = `f13`.
    pub fn name(&self, cell: usize) -> String {
        format!("{}{}", (b'a' + self.col[cell]) as char, self.row[cell] as usize + 1)
    }

    /// The cell a name denotes, or `None` if the text names no cell of this board.
    pub fn parse(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        let letter = text.chars().next()?.to_ascii_lowercase();
        let digits = &text[letter.len_utf8()..];
        // Digits only, no sign or leading zero: one text per cell.
        if !letter.is_ascii_lowercase() || digits.is_empty() || digits.starts_with('0') || digits.len() > 2 {
            return None;
        }
        let number: i32 = digits.chars().all(|c| c.is_ascii_digit()).then(|| digits.parse().ok())??;
        self.index(number - 1, letter as i32 - 'a' as i32)
    }

    /// Marks `cell` occupied in `lines`.
    #[inline(always)]
    pub fn occupy(&self, lines: &mut Lines, cell: usize) {
        for (axis, words) in lines.iter_mut().enumerate() {
            words[self.line[axis][cell] as usize] |= 1 << self.slot[axis][cell];
        }
    }

    /// How many empty cells the pawn on `cell` can slide over in direction `d` before an occupied
    /// cell or the edge stops it: the number of line moves that way. `lines` is the occupancy.
    #[inline(always)]
    pub fn free_run(&self, cell: usize, d: usize, lines: &Lines) -> usize {
        // Directions d and 5 - d share an axis: 0 and 5 the diagonals, 1 and 4 the columns, 2 and 3
        // the rows; d >= 3 goes up the line's bits, d < 3 down.
        let axis = [2, 1, 0, 0, 1, 2][d];
        let word = lines[axis][self.line[axis][cell] as usize];
        let slot = self.slot[axis][cell] as u32;
        if d >= 3 {
            (word >> (slot + 1)).trailing_zeros() as usize
        } else {
            // The sentinel at bit 0 keeps the masked word non-zero.
            let below = word & ((1u32 << slot) - 1);
            (slot - 1 - (31 - below.leading_zeros())) as usize
        }
    }

    /// The cell `k ≥ 1` steps from `cell` in direction `d` (which must be on the board).
    #[inline(always)]
    pub fn step(&self, cell: usize, d: usize, k: usize) -> usize {
        let (dr, dc) = DIRECTIONS[d];
        let r = self.row[cell] as usize as isize + dr as isize * k as isize;
        let c = self.col[cell] as usize as isize + dc as isize * k as isize;
        Self::index_of(r as usize, c as usize)
    }
}
