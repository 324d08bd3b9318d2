//! The board's cells as bitboards, and one placement of a piece: what every part of Trigon's rules
//! and move generation shares.

use crate::rules::bits::BitSet;

/// Words of a bitboard over the 486 cells.
pub const WORDS: usize = 8;
/// A set of cells of the board.
pub type Cells = BitSet<WORDS>;
/// Pieces per colour.
pub const PIECES: usize = 22;

/// One placement: a piece in one orientation at one position.
#[derive(Clone, Debug)]
pub struct Placement {
    /// The piece, `0..22` (pieces are numbered by size, then by shape).
    pub piece: u8,
    /// Its cells, ascending.
    pub cells: Vec<u16>,
    /// Its cells as a set.
    pub mask: Cells,
    /// The cells outside it that share an edge with it.
    pub edge_ring: Cells,
    /// The cells outside it that share only a corner with it (and no edge with any of its cells).
    pub corner_ring: Cells,
}
