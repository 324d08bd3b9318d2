//! Pentobi's names of the 22 Trigon pieces (`rules/trigon.md` §Pieces).
//!
//! Placeholder until the names are matched to the generated shapes: every piece is named by its index.

/// The name of piece `piece` (`0..22`, the order of [`super::Tables::pieces`]).
pub fn piece_name(piece: usize) -> String {
    format!("#{piece}")
}
