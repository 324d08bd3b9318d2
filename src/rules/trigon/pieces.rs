//! Pentobi's names of the 22 Trigon pieces (`docs/rules/trigon.md` §Pieces): size 6 `I6 L6 V S P6 F W A6
//! G Y X O`, size 5 `I5 L5 C5 P5`, size 4 `I4 C4 A4`, size 3 `I3`, size 2 `2`, size 1 `1`.
//!
//! The pieces themselves are generated ([`super::Tables::pieces`], by size, then by shape), so a name
//! is attached by shape: each name below comes with the cells Pentobi defines its piece by
//! (`create_pieces_trigon` in Pentobi's `libpentobi_base/BoardConst.cpp`), in Pentobi's Trigon
//! coordinates — `x` in half-triangle steps, `y` downwards, the triangle at `(x, y)` pointing up iff
//! `x + y` is even (its `TrigonGeometry::get_point_type` on the odd-sided board), which is exactly
//! [`Tri`]'s convention. Both sides are brought to [`canonical`] form and matched once.

use std::sync::OnceLock;

use super::placement::PIECES;
use super::tables::Tables;
use crate::rules::geometry::polyiamond::{Tri, canonical};

/// Pentobi's piece names with the cells that define each piece, `(x, y)` in Pentobi's coordinates.
const DEFINITIONS: [(&str, &[(i32, i32)]); PIECES] = [
    ("I6", &[(1, -1), (2, -1), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("L6", &[(1, -1), (2, -1), (0, 0), (1, 0), (0, 1), (1, 1)]),
    ("V", &[(-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0), (2, 0)]),
    ("S", &[(-1, -1), (0, -1), (-1, 0), (0, 0), (-1, 1), (0, 1)]),
    ("P6", &[(1, -1), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1)]),
    ("F", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]),
    ("W", &[(1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)]),
    ("A6", &[(1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (2, 1)]),
    ("G", &[(1, -1), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]),
    ("Y", &[(-1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("X", &[(-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]),
    ("O", &[(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0)]),
    ("I5", &[(1, -1), (0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("L5", &[(1, -1), (0, 0), (1, 0), (0, 1), (1, 1)]),
    ("C5", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)]),
    ("P5", &[(1, -1), (0, 0), (1, 0), (2, 0), (0, 1)]),
    ("I4", &[(0, 0), (1, 0), (-1, 1), (0, 1)]),
    ("C4", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    ("A4", &[(1, -1), (0, 0), (1, 0), (2, 0)]),
    ("I3", &[(1, -1), (0, 0), (1, 0)]),
    ("2", &[(0, 0), (1, 0)]),
    ("1", &[(0, 0)]),
];

/// Pentobi's names in the order of [`Tables::pieces`], or why the definitions do not match the
/// generated pieces one to one.
fn names() -> &'static Result<[&'static str; PIECES], String> {
    static NAMES: OnceLock<Result<[&'static str; PIECES], String>> = OnceLock::new();
    NAMES.get_or_init(|| match_names(&Tables::get(9).pieces))
}

/// Matches the definitions to `pieces` (canonical shapes): every piece must match exactly one
/// definition.
fn match_names(pieces: &[Vec<Tri>]) -> Result<[&'static str; PIECES], String> {
    if pieces.len() != PIECES {
        return Err(format!("{} pieces generated, {PIECES} names", pieces.len()));
    }
    let defined: Vec<Vec<Tri>> = DEFINITIONS
        .iter()
        .map(|(_, cells)| canonical(&cells.iter().map(|&(x, y)| Tri::new(x, y)).collect::<Vec<_>>()))
        .collect();
    let mut out = [""; PIECES];
    for (k, shape) in pieces.iter().enumerate() {
        let matching: Vec<&str> =
            DEFINITIONS.iter().zip(&defined).filter(|(_, d)| *d == shape).map(|((name, _), _)| *name).collect();
        match matching.as_slice() {
            [name] => out[k] = name,
            _ => return Err(format!("piece {k} {shape:?} matches the definitions {matching:?}")),
        }
    }
    Ok(out)
}

/// Pentobi's name of piece `piece` (`0..22`, the order of [`Tables::pieces`]), e.g. `"I6"` or `"1"`.
///
/// # Panics
/// If `piece >= 22`, or if Pentobi's definitions do not match the generated pieces one to one (a
/// bug that [`check`] reports and the tests catch).
pub fn piece_name(piece: usize) -> &'static str {
    match names() {
        Ok(names) => names[piece],
        Err(e) => panic!("Trigon piece names: {e}"),
    }
}

/// The piece (`0..22`) Pentobi calls `name` (exact, case-sensitive: `"I6"`, `"V"`, `"1"`), if any.
pub fn piece_by_name(name: &str) -> Option<usize> {
    (0..PIECES).find(|&k| piece_name(k) == name)
}

/// Checks that each generated piece matches exactly one of Pentobi's definitions (and so the 22
/// names are distinct and all used).
///
/// # Errors
/// The first piece that matches none or several definitions, with its shape.
pub fn check() -> Result<(), String> {
    names().as_ref().map(|_| ()).map_err(Clone::clone)
}
