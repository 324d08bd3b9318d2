//! Blokus Trigon: the board geometry and the generated piece set, against the numbers of
//! `../shared/rules/trigon.md` (§Board, §Pieces, §Records anchor), which Pentobi agrees with.

use std::collections::BTreeSet;

use triboard::rules::geometry::polyiamond::{free_polyiamonds, orientations};
use triboard::rules::geometry::trigon::TrigonBoard;

/// The spec's reading of a cell's direction (`§Board`): for odd `n`, `x + y` odd points down.
fn spec_is_up(n: usize, x: usize, y: usize) -> bool {
    (x + y).is_multiple_of(2) != n.is_multiple_of(2)
}

#[test]
fn boards_have_486_and_384_cells_in_rows_of_19_to_35() {
    for (n, cells, first_row) in [(9, 486, 19), (8, 384, 17)] {
        let b = TrigonBoard::get(n);
        assert_eq!(b.cells(), cells);
        let rows: Vec<usize> = (0..2 * n).map(|y| (0..4 * n - 1).filter(|&x| b.at(x, y).is_some()).count()).collect();
        let half: Vec<usize> = (0..n).map(|k| first_row + 2 * k).collect();
        let mut want = half.clone();
        want.extend(half.iter().rev());
        assert_eq!(rows, want, "row lengths of the {cells}-cell board");
    }
}

#[test]
fn directions_and_edge_neighbours_follow_the_spec() {
    for n in [8, 9] {
        let b = TrigonBoard::get(n);
        for cell in 0..b.cells() {
            let (x, y) = (b.xy[cell].0 as usize, b.xy[cell].1 as usize);
            let up = spec_is_up(n, x, y);
            assert_eq!(b.is_up(cell), up, "({x}, {y})");
            let vertical = if up { y as i64 + 1 } else { y as i64 - 1 };
            let want: BTreeSet<usize> = [(x as i64 - 1, y as i64), (x as i64 + 1, y as i64), (x as i64, vertical)]
                .iter()
                .filter(|&&(nx, ny)| nx >= 0 && ny >= 0)
                .filter_map(|&(nx, ny)| b.at(nx as usize, ny as usize))
                .collect();
            let got: BTreeSet<usize> = b.edge_neighbours[cell].iter().map(|&c| c as usize).collect();
            assert_eq!(got, want, "edge neighbours of ({x}, {y})");
        }
    }
}

#[test]
fn corner_neighbours_are_symmetric_at_most_nine_and_never_edge_neighbours() {
    let b = TrigonBoard::get(9);
    let mut most = 0;
    for cell in 0..b.cells() {
        let corners = &b.corner_neighbours[cell];
        most = most.max(corners.len());
        for &other in corners {
            assert!(b.corner_neighbours[other as usize].contains(&(cell as u16)));
            assert!(!b.edge_neighbours[cell].contains(&other));
        }
    }
    assert_eq!(most, 9);
    // A corner of the hexagon: the first cell of the top row.
    let corner = b.at(8, 0).unwrap();
    assert!(b.corner_neighbours[corner].len() < 9);
}

#[test]
fn labels_follow_pentobi() {
    let b = TrigonBoard::get(9);
    assert_eq!(b.label(b.at(17, 3).unwrap()), "r15");
    assert_eq!(b.label(b.at(26, 0).unwrap()), "aa18");
    for cell in 0..b.cells() {
        assert_eq!(b.parse(&b.label(cell)), Ok(cell));
    }
    assert!(b.parse("a1").unwrap_err().contains("not on the 486-cell board"));
    assert!(b.parse("r").is_err() && b.parse("15").is_err() && b.parse("abc1").is_err());
    let starts: Vec<String> = b.starting_points.iter().map(|&c| b.label(c as usize)).collect();
    assert_eq!(starts, ["r15", "r4", "j12", "j7", "z12", "z7"]);
}

#[test]
fn the_piece_set_is_the_22_free_polyiamonds_of_sizes_1_to_6() {
    let counts: Vec<usize> = (1..=6).map(|size| free_polyiamonds(size).len()).collect();
    assert_eq!(counts, [1, 1, 1, 3, 4, 12]);
    let triangles: usize = (1..=6).map(|size| size * free_polyiamonds(size).len()).sum();
    assert_eq!(triangles, 110);
}

/// Every placement of every piece: (size, cells).
fn all_placements(b: &TrigonBoard) -> Vec<(usize, Vec<u16>)> {
    let mut out = Vec::new();
    for size in 1..=6 {
        for piece in free_polyiamonds(size) {
            for orientation in orientations(&piece) {
                out.extend(b.placements(&orientation).into_iter().map(|cells| (size, cells)));
            }
        }
    }
    out
}

#[test]
fn placements_number_32131_and_24859() {
    for (n, want) in [(9, 32_131), (8, 24_859)] {
        let placements = all_placements(TrigonBoard::get(n));
        let distinct: BTreeSet<&Vec<u16>> = placements.iter().map(|(_, cells)| cells).collect();
        assert_eq!(distinct.len(), placements.len(), "no placement counted twice");
        assert_eq!(placements.len(), want, "placements on the side-{n} board");
    }
}

#[test]
fn first_moves_cover_a_starting_point_2478_of_them() {
    for n in [9, 8] {
        let b = TrigonBoard::get(n);
        let placements = all_placements(b);
        let mut by_size = [0usize; 7];
        for &start in &b.starting_points {
            let covering: Vec<_> = placements.iter().filter(|(_, cells)| cells.contains(&start)).collect();
            assert_eq!(covering.len(), 413, "placements over a starting point of the side-{n} board");
            for (size, _) in covering {
                by_size[*size] += 1;
            }
        }
        assert_eq!(by_size[1..], [6, 18, 54, 168, 540, 1692]);
    }
}
