//! Blokus Trigon: the board geometry and the generated piece set, against the numbers of
//! `docs/rules/trigon.md` (§Board, §Pieces, §Records anchor), which Pentobi agrees with.

mod common;

use std::collections::{BTreeSet, HashMap};

use common::{Position, Run, Stats};

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

// ---- The rules (`§Play`, `§Score`) ----

use triboard::rules::trigon::{PIECES, Trigon, TrigonMove, TrigonOptions, Variant};
use triboard::rules::{Game, Knowledge, Player, rng_from_seed};

fn game(variant: Variant) -> Trigon {
    Trigon::new(&TrigonOptions { variant }).unwrap()
}

fn legal(g: &Trigon) -> Vec<TrigonMove> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
}

/// The legal placements of the colour to move, straight from `§Play` over the board's neighbour
/// lists, without the bitboards: this file's own reading of the rules.
fn naive_legal(g: &Trigon) -> BTreeSet<u16> {
    let t = g.tables();
    let b = t.board;
    let Some(c) = g.colour_to_move() else { return BTreeSet::new() };
    let own: BTreeSet<usize> = (0..b.cells()).filter(|&x| g.colour_at(x) == Some(c)).collect();
    let first = own.is_empty();
    let mut out = BTreeSet::new();
    for (k, p) in t.placements.iter().enumerate() {
        if g.pieces_left(c) & (1 << p.piece) == 0 {
            continue;
        }
        let cells: Vec<usize> = p.cells.iter().map(|&x| x as usize).collect();
        if cells.iter().any(|&x| g.colour_at(x).is_some()) {
            continue;
        }
        let ok = if first {
            cells.iter().any(|x| b.starting_points.contains(&(*x as u16)))
        } else {
            let edge = cells.iter().any(|&x| b.edge_neighbours[x].iter().any(|&n| own.contains(&(n as usize))));
            let corner = cells.iter().any(|&x| b.corner_neighbours[x].iter().any(|&n| own.contains(&(n as usize))));
            !edge && corner
        };
        if ok {
            out.insert(k as u16);
        }
    }
    out
}

#[test]
fn every_variant_opens_with_2478_moves() {
    for variant in [Variant::Four, Variant::Two, Variant::Three] {
        let g = game(variant);
        assert_eq!(legal(&g).len(), 2478, "{variant:?}");
        assert_eq!(g.to_move(), Some(Player(0)));
    }
}

#[test]
fn after_a_monomino_on_a_starting_point_the_next_colour_has_the_other_five() {
    let mut g = game(Variant::Four);
    let mv = g.parse_move("r15").unwrap();
    g.play(mv).unwrap();
    assert_eq!(g.colour_to_move(), Some(1));
    assert_eq!(legal(&g).len(), 5 * 413);
    // Yellow may not cover r15, and may not pass while it can place.
    assert!(g.parse_move("r15").is_ok_and(|m| g.clone().play(m).unwrap_err().reason.contains("already covered")));
    assert!(g.clone().play(TrigonMove::PASS).unwrap_err().reason.contains("may not pass"));
}

#[test]
fn later_pieces_touch_at_a_corner_and_never_along_an_edge() {
    let mut g = game(Variant::Four);
    for text in ["r15", "r4", "j12", "j7"] {
        let mv = g.parse_move(text).unwrap();
        g.play(mv).unwrap();
    }
    // Blue again: r15 (17, 3) points up, so q15, s15 and r14 (below) share its edges; z12 (a free
    // starting point) is far from Blue.
    let refusal = |g: &Trigon, text: &str| g.clone().play(g.parse_move(text).unwrap()).unwrap_err().reason;
    assert!(refusal(&g, "q15,p15").contains("share an edge"), "{}", refusal(&g, "q15,p15"));
    assert!(refusal(&g, "z12,y12").contains("touch a Blue piece at a corner"));
    assert!(refusal(&g, "r15,q15").contains("already covered"));
    let moves = legal(&g);
    assert!(!moves.is_empty());
    assert_eq!(moves.iter().map(|m| m.0).collect::<BTreeSet<u16>>(), naive_legal(&g));
    // The monomino is used up.
    let mono =
        g.tables().placements.iter().position(|p| p.cells.len() == 1 && g.colour_at(p.cells[0] as usize).is_none());
    let mono = TrigonMove(mono.unwrap() as u16);
    assert!(g.clone().play(mono).unwrap_err().reason.contains("already placed"));
}

#[test]
fn notation_reads_cells_in_any_order() {
    let g = game(Variant::Four);
    for mv in legal(&g).into_iter().step_by(97) {
        let text = g.move_text(mv);
        assert_eq!(g.parse_move(&text), Ok(mv));
        let reversed: Vec<&str> = text.split(',').rev().collect();
        assert_eq!(g.parse_move(&reversed.join(",")), Ok(mv));
    }
    assert!(g.parse_move("r15,r15").unwrap_err().reason.contains("twice"));
    assert!(g.parse_move("r15,z7").unwrap_err().reason.contains("not the shape of a piece"));
    assert!(g.parse_move("a1").unwrap_err().reason.contains("not on the"));
    assert_eq!(g.parse_move("pass"), Ok(TrigonMove::PASS));
}

// A move's label, as the CLI shows it, is Pentobi's name of its piece, a colon and the move's text
// (`docs/rules/trigon.md` §Pieces); it reads back, in any case, and a wrong name is refused. The
// text itself (records, SGF, GTP) carries no name.
#[test]
fn labels_name_the_piece_and_read_back() {
    use triboard::rules::trigon::pieces::piece_name;
    for variant in [Variant::Four, Variant::Three] {
        let g = game(variant);
        for (k, placement) in g.tables().placements.iter().enumerate() {
            let mv = TrigonMove(k as u16);
            let (text, label) = (g.move_text(mv), g.move_label(mv));
            assert_eq!(label, format!("{}:{text}", piece_name(placement.piece as usize)));
            assert!(!text.contains(':'), "{text}");
            assert_eq!(g.parse_move(&label), Ok(mv), "{label}");
            assert_eq!(g.parse_move(&label.to_lowercase()), Ok(mv), "{label} in lower case");
        }
    }
    let g = game(Variant::Four);
    assert_eq!(g.move_label(TrigonMove::PASS), "pass");
    assert_eq!(g.parse_move("I3:q15,r15,s15"), g.parse_move("q15,r15,s15"));
    assert_eq!(g.parse_move("L5:q15,r15,s15").unwrap_err().reason, "'q15,r15,s15' is the piece I3, not L5");
    assert!(g.parse_move("Q9:q15,r15,s15").unwrap_err().reason.contains("'Q9' is not a piece's name (1 2 I3"));
}

// The colour to move names the prompt: in Two-Player a seat plays two (`§Variants`).
#[test]
fn the_name_to_move_is_the_colour() {
    let mut g = game(Variant::Two);
    let mut names = Vec::new();
    for _ in 0..4 {
        names.push((g.to_move_name().unwrap(), g.player_name(g.to_move().unwrap())));
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        g.play(moves[0]).unwrap();
    }
    assert_eq!(
        names,
        [("Blue", "Blue/Red"), ("Yellow", "Yellow/Green"), ("Red", "Blue/Red"), ("Green", "Yellow/Green")]
    );
    let g = game(Variant::Four);
    assert_eq!(g.to_move_name(), Some("Blue"));
}

/// Plays random games, checking at every position the generator against the naive one, and at
/// the end the scores.
fn random_games(variant: Variant, games: u64, check_every: usize) {
    let mut buf = Vec::new();
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut g = game(variant);
        let mut placed = [0i32; 4];
        let mut plies = 0;
        while let Some(c) = g.colour_to_move() {
            g.legal_moves(&mut buf);
            if plies % check_every == 0 {
                let mine: BTreeSet<u16> = buf.iter().filter(|m| **m != TrigonMove::PASS).map(|m| m.0).collect();
                assert_eq!(mine.len(), buf.iter().filter(|m| **m != TrigonMove::PASS).count(), "each move once");
                assert_eq!(mine, naive_legal(&g), "seed {seed}, ply {plies}");
                // The search's warm-up marks dead attach points only: the moves stay the same.
                let mut warm = g.clone();
                warm.warm_up();
                assert_eq!(legal(&warm), buf, "seed {seed}, ply {plies}: after warm_up");
            }
            let mv = g.random_move(&mut rng, &mut Vec::new()).unwrap();
            if mv != TrigonMove::PASS {
                placed[c] += g.tables().placements[mv.0 as usize].cells.len() as i32;
            }
            g.play(mv).unwrap();
            plies += 1;
            assert!(plies < 200, "a game ends");
        }
        let outcome = g.outcome().expect("over");
        let b = g.tables().board;
        let colours = if variant == Variant::Three { 3 } else { 4 };
        for (c, &triangles) in placed.iter().enumerate().take(colours) {
            let cells = (0..b.cells()).filter(|&x| g.colour_at(x) == Some(c)).count() as i32;
            assert_eq!(cells, triangles);
            // `§Score`: the bonus only with all 22 pieces placed.
            let bonus = g.colour_score(c) - cells;
            assert!(bonus == 0 || (g.pieces_left(c) == 0 && (bonus == 15 || bonus == 20)));
            assert!(g.is_out(c));
        }
        let sum: i32 = outcome.scores[..g.num_players()].iter().sum();
        let all: i32 = (0..colours).map(|c| g.colour_score(c)).sum();
        assert_eq!(sum, all, "a seat's score is the sum of its colours'");
        assert_eq!(outcome.num_players, if variant == Variant::Two { 2 } else { colours });
        assert!(g.clone().play(TrigonMove::PASS).is_err());
    }
}

#[test]
fn random_games_agree_with_the_naive_rules() {
    random_games(Variant::Four, 6, 3);
    random_games(Variant::Two, 3, 5);
    random_games(Variant::Three, 4, 3);
}

/// `§Play` checked on the placements a colour made, from the board's neighbour lists alone.
fn check_colour_pieces(b: &TrigonBoard, pieces: &[Vec<u16>], ctx: &str) {
    let touches = |a: &[u16], bb: &[u16], corner: bool| {
        a.iter().any(|&x| {
            let around = if corner { &b.corner_neighbours[x as usize] } else { &b.edge_neighbours[x as usize] };
            around.iter().any(|n| bb.contains(n))
        })
    };
    for (i, p) in pieces.iter().enumerate() {
        for q in &pieces[..i] {
            assert!(!touches(p, q, false), "{ctx}: two pieces of a colour share an edge");
        }
        if i > 0 {
            assert!(pieces[..i].iter().any(|q| touches(p, q, true)), "{ctx}: piece {i} touches none at a corner");
        }
    }
}

/// 2,000 random games per variant (`§Play`, `§Score`): every generated move is accepted by the
/// checking `play`, a tampered one (the same piece moved by one cell, or a piece already placed)
/// is refused with a reason; each colour's first piece covers a starting point free until then,
/// no two pieces of a colour share an edge, each later one touches an earlier one at a corner,
/// and the scores equal a recount.
#[test]
fn two_thousand_random_games_per_variant_keep_the_rules() {
    for variant in [Variant::Four, Variant::Two, Variant::Three] {
        let mut buf = Vec::new();
        for seed in 0..2000u64 {
            let ctx = format!("{variant:?} seed {seed}");
            let mut rng = rng_from_seed(seed ^ 0x5eed);
            let mut g = game(variant);
            let t = g.tables();
            let b = t.board;
            let mut pieces: [Vec<Vec<u16>>; 4] = Default::default();
            let mut last_mono = [false; 4];
            while let Some(c) = g.colour_to_move() {
                let mv = g.random_move(&mut rng, &mut buf).expect("a move while the game runs");
                if mv != TrigonMove::PASS {
                    let p = &t.placements[mv.0 as usize];
                    if pieces[c].is_empty() {
                        let start = p.cells.iter().find(|x| b.starting_points.contains(x));
                        assert!(start.is_some_and(|&x| g.colour_at(x as usize).is_none()), "{ctx}: first piece");
                    }
                    // Tampered: the same cells shifted along the row (when that is still a
                    // placement of the piece), or the move again after it is played.
                    let shifted: Vec<String> = p
                        .cells
                        .iter()
                        .filter_map(|&x| {
                            let (cx, cy) = b.xy[x as usize];
                            b.at(cx as usize + 2, cy as usize).map(|n| b.label(n))
                        })
                        .collect();
                    if shifted.len() == p.cells.len()
                        && g.ply().is_multiple_of(4)
                        && let Ok(other) = g.parse_move(&shifted.join(","))
                    {
                        let mut legal = Vec::new();
                        g.legal_moves(&mut legal);
                        let refused = g.clone().play(other).is_err();
                        assert_eq!(refused, !legal.contains(&other), "{ctx}: play and legal_moves agree");
                    }
                    pieces[c].push(p.cells.clone());
                    last_mono[c] = p.cells.len() == 1;
                }
                g.play(mv).unwrap_or_else(|e| panic!("{ctx}: a generated move refused: {e}"));
                if mv != TrigonMove::PASS {
                    let again = g.play(mv);
                    assert!(again.is_err_and(|e| !e.reason.is_empty()), "{ctx}: a placed piece placed again");
                }
            }
            for c in 0..if variant == Variant::Three { 3 } else { 4 } {
                check_colour_pieces(b, &pieces[c], &ctx);
                let triangles: usize = pieces[c].iter().map(Vec::len).sum();
                let bonus = match (pieces[c].len(), last_mono[c]) {
                    (22, true) => 20,
                    (22, false) => 15,
                    _ => 0,
                };
                assert_eq!(g.colour_score(c), triangles as i32 + bonus, "{ctx}: colour {c}'s score");
            }
        }
    }
}

/// The move generator (attach-point lists, a cache of dead attach points kept by `random_move`)
/// against the naive reading of `§Play` at every ply of a few games per variant.
#[test]
fn incremental_generation_equals_the_naive_rules_at_every_ply() {
    random_games(Variant::Four, 3, 1);
    random_games(Variant::Two, 2, 1);
    random_games(Variant::Three, 2, 1);
}

/// The attach points as the app's view read them from the board alone (`§Play`): before a
/// colour's first piece the free starting points; after it, the free cells that share no edge
/// with a cell of the colour and a corner with one.
fn naive_attach_points(g: &Trigon, colour: usize) -> BTreeSet<usize> {
    let b = g.tables().board;
    let own: Vec<bool> = (0..b.cells()).map(|c| g.colour_at(c) == Some(colour)).collect();
    let free = |c: usize| g.colour_at(c).is_none();
    if !own.iter().any(|&o| o) {
        return (0..b.cells()).filter(|&c| free(c) && b.starting_points.contains(&(c as u16))).collect();
    }
    (0..b.cells())
        .filter(|&c| {
            free(c)
                && !b.edge_neighbours[c].iter().any(|&n| own[n as usize])
                && b.corner_neighbours[c].iter().any(|&n| own[n as usize])
        })
        .collect()
}

/// `Trigon::attach_points` equals the naive reading for every colour (the one to move and the
/// others, out or not) at every ply of random games of each variant, with or without the
/// search's warm-up; and every legal placement covers one of the mover's.
#[test]
fn attach_points_equal_the_naive_reading_of_the_board() {
    let mut buf = Vec::new();
    for variant in Variant::ALL {
        for seed in 0..12u64 {
            let mut rng = rng_from_seed(seed ^ 0xa77ac4);
            let mut g = game(variant);
            let mut warm = g.clone();
            while let Some(mover) = g.colour_to_move() {
                for c in 0..variant.colours() {
                    let want = naive_attach_points(&g, c);
                    let got: BTreeSet<usize> = g.attach_points(c).iter().collect();
                    assert_eq!(got, want, "{variant:?} seed {seed} ply {} colour {c}", g.ply());
                    assert_eq!(warm.attach_points(c), g.attach_points(c), "the warm-up changes none");
                }
                let attach = g.attach_points(mover);
                g.legal_moves(&mut buf);
                for mv in buf.iter().filter(|m| **m != TrigonMove::PASS) {
                    assert!(!g.tables().placements[mv.0 as usize].mask.and(&attach).is_empty());
                }
                let mv = g.random_move(&mut rng, &mut buf).unwrap();
                g.play(mv).unwrap();
                warm.play(mv).unwrap();
                warm.warm_up();
            }
        }
    }
}

/// `Tables::placement_by_cells` finds every placement of both boards from its cells in any
/// order, and nothing for a cell named twice, a cell off the board, or cells of no piece.
#[test]
fn placements_are_found_by_their_cells_in_any_order() {
    for variant in [Variant::Four, Variant::Three] {
        let t = game(variant).tables();
        for (k, p) in t.placements.iter().enumerate() {
            assert_eq!(t.placement_by_cells(&p.cells), Some(k as u16));
            let mut reversed = p.cells.clone();
            reversed.reverse();
            assert_eq!(t.placement_by_cells(&reversed), Some(k as u16));
            reversed.rotate_left(p.cells.len() / 2);
            assert_eq!(t.placement_by_cells(&reversed), Some(k as u16));
        }
        let one = t.placements.iter().position(|p| p.cells.len() == 1).unwrap();
        let cell = t.placements[one].cells[0];
        assert_eq!(t.placement_by_cells(&[cell]), Some(one as u16));
        assert_eq!(t.placement_by_cells(&[cell, cell]), None, "a cell twice");
        assert_eq!(t.placement_by_cells(&[]), None);
        assert_eq!(t.placement_by_cells(&[t.board.cells() as u16]), None, "off the board");
        assert_eq!(t.placement_by_cells(&[u16::MAX]), None);
        // Two triangles sharing only a corner are no piece.
        let corner = t.board.corner_neighbours[cell as usize][0];
        assert_eq!(t.placement_by_cells(&[cell, corner]), None);
        let all: Vec<u16> = (0..7).collect();
        assert_eq!(t.placement_by_cells(&all), None, "seven cells");
    }
}

/// One place names the variants (`§Variants`, `§Records and engine protocol`): ids, Pentobi's
/// names, seats, colours and boards agree with the games and the records.
#[test]
fn variants_have_one_id_name_and_seat_count() {
    let want = [
        (Variant::Four, "trigon", "Blokus Trigon", 4, 4, 486),
        (Variant::Two, "trigon-2", "Blokus Trigon Two-Player", 2, 4, 486),
        (Variant::Three, "trigon-3", "Blokus Trigon Three-Player", 3, 3, 384),
    ];
    assert_eq!(Variant::ALL.to_vec(), want.iter().map(|w| w.0).collect::<Vec<_>>());
    assert_eq!(Trigon::IDS, want.iter().map(|w| w.1).collect::<Vec<_>>());
    for (variant, id, name, seats, colours, cells) in want {
        assert_eq!(variant.id(), id);
        assert_eq!(Variant::from_id(id), Some(variant));
        assert_eq!(variant.name(), name);
        assert_eq!(Variant::from_name(name), Some(variant));
        assert_eq!(Variant::from_name(&format!(" {} ", name.to_uppercase())), Some(variant));
        assert!(variant.label().starts_with(name));
        assert_eq!(variant.seats(), seats);
        assert_eq!(variant.colours(), colours);
        assert_eq!(variant.cells(), cells);
        assert_eq!(TrigonBoard::get(variant.side()).cells(), cells);
        let g = game(variant);
        assert_eq!(g.id(), id);
        assert_eq!(g.num_players(), seats);
        assert_eq!(g.tables().board.side, variant.side());
        assert_eq!(Trigon::options_for_id(id), TrigonOptions { variant });
        // The options name the variant by its id.
        assert_eq!(serde_json::to_value(variant).unwrap(), serde_json::json!(id));
    }
    assert_eq!(Variant::from_id("trigon-4"), None);
    assert_eq!(Variant::from_id("Trigon"), None, "ids are exact");
    assert_eq!(Variant::from_name("Blokus"), None);
}

// ---- The shared random-game harness (`tests/common`) ----

/// Trigon's own rules at every position of a harness game: the seat to move plays the colour to
/// move; a pass is offered alone, and only when the colour cannot place; a move's key depends on
/// the colour and the move only (`Game::move_key`); at the end, `§Play` on each colour's placements
/// and `§Score` recounted from the moves.
fn trigon_checks(variant: Variant) -> impl FnMut(Position<'_, Trigon>) {
    let mut keys: HashMap<(usize, TrigonMove), usize> = HashMap::new();
    move |Position { state, history, legal, .. }| {
        let t = state.tables();
        assert_eq!(state.to_move(), state.colour_to_move().map(|c| state.player_of(c)), "the seat of the colour");
        if let Some(c) = state.colour_to_move() {
            assert!(!state.is_out(c), "a colour that is out is skipped");
            let passes = legal.contains(&TrigonMove::PASS);
            assert!(!passes || legal.len() == 1, "a pass only when nothing fits: {} moves", legal.len());
            for &mv in legal {
                let key = state.move_key(mv);
                assert_eq!(*keys.entry((c, mv)).or_insert(key), key, "the key of {} moved", state.move_text(mv));
                if mv != TrigonMove::PASS {
                    assert!(state.pieces_left(c) & (1 << t.placements[mv.0 as usize].piece) != 0, "a piece left");
                }
            }
        }
        if state.outcome().is_none() {
            return;
        }
        // Replay the moves to learn which colour made each placement.
        let mut g = game(variant);
        let mut pieces: [Vec<Vec<u16>>; 4] = Default::default();
        let mut last_mono = [false; 4];
        for &mv in history {
            let c = g.colour_to_move().expect("the game runs until its last move");
            if mv != TrigonMove::PASS {
                let cells = &t.placements[mv.0 as usize].cells;
                pieces[c].push(cells.clone());
                last_mono[c] = cells.len() == 1;
            }
            g.play_unchecked(mv);
        }
        let b = t.board;
        let colours = if variant == Variant::Three { 3 } else { 4 };
        let mut by_seat = [0; 4];
        for c in 0..colours {
            let ctx = format!("{variant:?} colour {c}");
            check_colour_pieces(b, &pieces[c], &ctx);
            if let Some(first) = pieces[c].first() {
                assert!(first.iter().any(|x| b.starting_points.contains(x)), "{ctx}: the first piece on a start");
            }
            let triangles: usize = pieces[c].iter().map(Vec::len).sum();
            let bonus = match (pieces[c].len(), last_mono[c]) {
                (22, true) => 20,
                (22, false) => 15,
                _ => 0,
            };
            assert_eq!(state.colour_score(c), triangles as i32 + bonus, "{ctx}: the score");
            assert!(state.is_out(c));
            by_seat[state.player_of(c).index()] += state.colour_score(c);
        }
        let outcome = state.outcome().unwrap();
        assert_eq!(outcome.scores, by_seat, "{variant:?}: a seat's score is the sum of its colours'");
    }
}

/// Every placement of the board, and the pass.
fn trigon_universe(variant: Variant) -> Vec<TrigonMove> {
    let n = game(variant).tables().placements.len();
    (0..n as u16).map(TrigonMove).chain([TrigonMove::PASS]).collect()
}

fn run_trigon(variant: Variant, games: usize, seed: u64) -> Stats {
    let colours = if variant == Variant::Three { 3 } else { 4 };
    // Each colour places at most its 22 pieces, then passes once and is out.
    let max_plies = colours * (PIECES + 1);
    // Thousands of placements: every position tries the moves legal in the last four positions that
    // are not legal any more (the mover's own last turn, cells just covered, pieces just used) and
    // 200 of the others.
    let run = Run::<Trigon>::new(TrigonOptions { variant }, games, seed, max_plies)
        .sample_refusals(200)
        .with_universe(trigon_universe(variant));
    let stats = common::random_games(&run, trigon_checks(variant));
    assert!(stats.refusals_checked > 100 * stats.positions, "{stats:?}");
    // A colour places at least a few pieces: no game ends after only the first round.
    assert!(stats.plies >= games * 4 * colours, "{stats:?}");
    eprintln!("trigon {variant:?}: {stats:?}");
    stats
}

#[test]
fn harness_four_players() {
    run_trigon(Variant::Four, 12, 0x7219_0004);
}

#[test]
fn harness_two_players() {
    run_trigon(Variant::Two, 12, 0x7219_0002);
}

#[test]
fn harness_three_players() {
    run_trigon(Variant::Three, 12, 0x7219_0003);
}
