//! Tri-It-Out conformance: board shapes and triangle counts, restricted points, captures, the end
//! and both tie rules, the `any-mixed-triangle` variant, notation, perft and random games, against
//! `docs/rules/tri-it-out.md`. Move lists and perft are cross-checked against [`naive`], a
//! deliberately simple implementation of the rules on centred-row coordinates with a brute-force
//! triangle test, sharing nothing with the crate's tables.

mod common;

use std::collections::BTreeSet;

use common::{Position, Run, random_games};
use triboard::rules::geometry::lattice::Points;
use triboard::rules::record::Record;
use triboard::rules::tri_it_out::{Board, TieRule, TriItOut, TriItOutMove, TriItOutOptions, Variant};
use triboard::rules::{Game, Knowledge, Player, perft, play_moves};

/// A fresh game on `board` with `tie` and `variant`, after `moves`.
fn game_with(board: Board, tie: TieRule, variant: Variant, moves: &str) -> TriItOut {
    let mut g = TriItOut::new(&TriItOutOptions { board, tie, variant }).unwrap();
    play_moves(&mut g, moves).unwrap_or_else(|e| panic!("{}, {moves}: {e}", board.id()));
    g
}

/// A fresh standard game on `board` after `moves`.
fn game(board: Board, moves: &str) -> TriItOut {
    game_with(board, TieRule::StuckPlayerLoses, Variant::Standard, moves)
}

/// The names of a set of points.
fn names(g: &TriItOut, points: Points) -> BTreeSet<String> {
    (0..g.lattice().len).filter(|&p| points & (1 << p) != 0).map(|p| g.lattice().name(p)).collect()
}

fn set(texts: &str) -> BTreeSet<String> {
    texts.split_whitespace().map(str::to_string).collect()
}

/// The legal moves as a set of texts.
fn legal_texts(g: &TriItOut) -> BTreeSet<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    assert_eq!(texts.len(), moves.len(), "no move generated twice");
    texts
}

/// The reason `text` is refused here; panics if it is accepted. Also checks the state is unchanged.
fn refusal(g: &TriItOut, text: &str) -> String {
    let mut copy = g.clone();
    let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let err = copy.play(mv).expect_err(&format!("{text} should be refused"));
    assert_eq!(&copy, g, "a refused move leaves the state unchanged");
    err.reason
}

/// Row lengths of every board as `docs/rules/tri-it-out.md` §Board describes it, written out here again.
const SHAPES: [(&str, &[usize], usize, usize); 9] = [
    ("hex-2-3", &[2, 3, 4, 3], 12, 25),
    ("tri-5", &[1, 2, 3, 4, 5], 15, 35),
    ("equiversi-2-4", &[2, 3, 4, 5, 4], 18, 57),
    ("hex-3", &[3, 4, 5, 4, 3], 19, 66),
    ("tri-6", &[1, 2, 3, 4, 5, 6], 21, 70),
    ("hex-3-4", &[3, 4, 5, 6, 5, 4], 27, 135),
    ("equiversi-3-5", &[3, 4, 5, 6, 7, 6, 5], 36, 240),
    ("hex-4", &[4, 5, 6, 7, 6, 5, 4], 37, 258),
    ("hex-4-5", &[4, 5, 6, 7, 8, 7, 6, 5], 48, 436),
];

/// Tri-It-Out as `docs/rules/tri-it-out.md` states it, on points drawn in centred rows: no bitboards, no
/// tables, no axial coordinates. Only for cross-checking.
mod naive {
    /// One board's points: `(x, y)` with `x` in half spacings (rows centred) and `y` the row, so the
    /// squared distance times four is `dx² + 3·dy²` — an exact integer.
    pub struct Points {
        pub xy: Vec<(i32, i32)>,
        pub names: Vec<String>,
    }

    impl Points {
        pub fn new(rows: &[usize]) -> Points {
            let widest = *rows.iter().max().unwrap() as i32;
            let mut xy = Vec::new();
            let mut names = Vec::new();
            for (r, &n) in rows.iter().enumerate() {
                for c in 0..n {
                    xy.push((widest - n as i32 + 2 * c as i32, r as i32));
                    names.push(format!("{}{}", (b'a' + c as u8) as char, r + 1));
                }
            }
            Points { xy, names }
        }

        /// Four times the squared distance.
        pub fn d4(&self, a: usize, b: usize) -> i32 {
            let (dx, dy) = (self.xy[a].0 - self.xy[b].0, self.xy[a].1 - self.xy[b].1);
            dx * dx + 3 * dy * dy
        }

        /// §Definitions: three points pairwise the same distance apart.
        pub fn triangle(&self, a: usize, b: usize, c: usize) -> bool {
            let d = self.d4(a, b);
            d > 0 && self.d4(b, c) == d && self.d4(a, c) == d
        }
    }

    /// A position: `colour[p]` is 0 empty, 1 Red, 2 Blue.
    #[derive(Clone)]
    pub struct Game<'a> {
        pub pts: &'a Points,
        pub colour: Vec<u8>,
        /// Seat to move (0 Red, 1 Blue); once over, the seat that could not place.
        pub mover: u8,
        /// Enemy counters open to the capture that is due (empty: a placement is due).
        pub pending: Vec<usize>,
        pub over: bool,
        pub any_mixed: bool,
    }

    impl<'a> Game<'a> {
        pub fn new(pts: &'a Points, any_mixed: bool) -> Game<'a> {
            Game { pts, colour: vec![0; pts.xy.len()], mover: 0, pending: Vec::new(), over: false, any_mixed }
        }

        fn n(&self) -> usize {
            self.colour.len()
        }

        /// §Definitions, restricted location.
        pub fn restricted(&self, p: usize) -> bool {
            self.colour[p] == 0
                && (0..self.n()).any(|a| {
                    self.colour[a] == 1 && (0..self.n()).any(|b| self.colour[b] == 2 && self.pts.triangle(p, a, b))
                })
        }

        pub fn placements(&self) -> Vec<usize> {
            (0..self.n()).filter(|&p| self.colour[p] == 0 && !self.restricted(p)).collect()
        }

        /// Every mixed triangle on the board.
        pub fn mixed_triangles(&self) -> Vec<[usize; 3]> {
            let n = self.n();
            let mut out = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        let cs = [self.colour[a], self.colour[b], self.colour[c]];
                        if cs.iter().all(|&x| x != 0)
                            && cs.contains(&1)
                            && cs.contains(&2)
                            && self.pts.triangle(a, b, c)
                        {
                            out.push([a, b, c]);
                        }
                    }
                }
            }
            out
        }

        pub fn moves(&self) -> Vec<String> {
            if self.over {
                Vec::new()
            } else if !self.pending.is_empty() {
                self.pending.iter().map(|&p| format!("x{}", self.pts.names[p])).collect()
            } else {
                self.placements().into_iter().map(|p| self.pts.names[p].clone()).collect()
            }
        }

        pub fn play(&mut self, text: &str) {
            let me = self.mover + 1;
            let enemy = 3 - me;
            if let Some(name) = text.strip_prefix('x') {
                // §A turn 2 and 3: remove the counter, then place again (or be stuck).
                let p = self.pts.names.iter().position(|x| x == name).unwrap();
                assert!(self.pending.contains(&p));
                self.colour[p] = 0;
                self.pending.clear();
                self.over = self.placements().is_empty();
                return;
            }
            let p = self.pts.names.iter().position(|x| x == text).unwrap();
            assert!(self.colour[p] == 0 && !self.restricted(p));
            self.colour[p] = me;
            let mut pending = BTreeSet::new();
            if self.any_mixed {
                // §Variant: enemy counters of any mixed triangle on the board.
                for t in self.mixed_triangles() {
                    pending.extend(t.into_iter().filter(|&c| self.colour[c] == enemy));
                }
            } else {
                // §A turn 2: the new counter with two enemy counters.
                for a in 0..self.n() {
                    for b in 0..self.n() {
                        if self.colour[a] == enemy && self.colour[b] == enemy && self.pts.triangle(p, a, b) {
                            pending.insert(a);
                        }
                    }
                }
            }
            self.pending = pending.into_iter().collect();
            if self.pending.is_empty() {
                self.mover ^= 1;
                self.over = self.placements().is_empty();
            }
        }
    }

    use std::collections::BTreeSet;
}

// ---- Board shapes and triangles (§Board, §Definitions) ----

#[test]
fn boards_have_their_ids_rows_points_and_triangle_counts() {
    assert_eq!(Board::default(), Board::Hex34);
    assert_eq!(Board::ALL.len(), SHAPES.len());
    for (board, &(id, rows, points, triangles)) in Board::ALL.into_iter().zip(&SHAPES) {
        assert_eq!(board.id(), id);
        assert_eq!(Board::from_id(id), Some(board));
        let l = board.lattice();
        assert_eq!(l.rows.iter().map(|&n| n as usize).collect::<Vec<_>>(), rows, "{id}");
        assert_eq!(l.len, points, "{id}");
        assert_eq!(board.triangles().len(), triangles, "{id}");
    }
    assert_eq!(Board::from_id("hex-5"), None);
}

/// Every triple of points, brute force, with exact integer squared distances — both the lattice's
/// `distance2` and this file's own centred-row coordinates.
#[test]
fn triangle_tables_equal_brute_force_over_all_triples() {
    for (board, &(id, rows, _, expected)) in Board::ALL.into_iter().zip(&SHAPES) {
        let l = board.lattice();
        let pts = naive::Points::new(rows);
        let mut found = BTreeSet::new();
        for a in 0..l.len {
            for b in a + 1..l.len {
                for c in b + 1..l.len {
                    let d = l.distance2(a, b);
                    let by_lattice = d == l.distance2(b, c) && d == l.distance2(a, c);
                    assert_eq!(by_lattice, pts.triangle(a, b, c), "{id}: {a} {b} {c}");
                    if by_lattice {
                        found.insert([a as u8, b as u8, c as u8]);
                    }
                }
            }
        }
        assert_eq!(found.len(), expected, "{id}");
        let tabled: BTreeSet<[u8; 3]> = board.triangles().iter().copied().collect();
        assert_eq!(tabled.len(), board.triangles().len(), "{id}: each triangle once");
        assert_eq!(tabled, found, "{id}");
        // Names agree between the lattice and this file's reading of the notation.
        for p in 0..l.len {
            assert_eq!(l.name(p), pts.names[p]);
        }
    }
}

#[test]
fn tilted_triangles_count_on_the_largest_board() {
    // §Definitions: every side vector that fits the board, so triangles whose sides follow no lattice
    // line (squared side 3, 7, 13, …) up to the largest one (squared side 37) all count.
    let l = Board::Hex45.lattice();
    let sides: BTreeSet<i32> =
        Board::Hex45.triangles().iter().map(|t| l.distance2(t[0] as usize, t[1] as usize)).collect();
    assert_eq!(sides, BTreeSet::from([1, 3, 4, 7, 9, 12, 13, 16, 19, 21, 25, 27, 28, 31, 37]));
}

// ---- Restricted locations (§Definitions) ----

#[test]
fn nothing_is_restricted_until_both_colours_are_present() {
    let g = game(Board::Hex34, "");
    assert_eq!(g.restricted(), 0);
    assert_eq!(legal_texts(&g).len(), 27);
    // Red's own pair a2 b2 restricts nothing: its third corners a1 and b3 stay open after Blue's
    // first counter on d4, which pairs with nobody of its own colour.
    let g = game(Board::Hex34, "a2 d4 b2");
    let legal = legal_texts(&g);
    assert!(legal.contains("a1") && legal.contains("b3"), "{legal:?}");
    for p in 0..27 {
        if g.restricted() & (1 << p) != 0 {
            let (red, blue) = g.restricting_pair(p).unwrap();
            assert_eq!((g.counter(red), g.counter(blue)), (Some(0), Some(1)));
        }
    }
}

#[test]
fn a_red_blue_pair_restricts_the_corners_that_close_its_triangles() {
    // Unit pair on the edge: a1 (Red) and a2 (Blue) close only with b2 (the other corner is off
    // the board).
    let g = game(Board::Hex34, "a1 a2");
    assert_eq!(names(&g, g.restricted()), set("b2"));
    assert_eq!(g.restricting_pair(g.lattice().parse("b2").unwrap()), Some((0, 3)));
    assert_eq!(refusal(&g, "b2"), "b2 is restricted: it would complete a triangle with Red a1 and Blue a2");
    assert_eq!(legal_texts(&g).len(), 27 - 3);
    assert_eq!(refusal(&g, "a1"), "a1 already holds a Red counter");

    // A tilted triangle: a1, d2, c4 are pairwise √7 apart; the other corner of a1–d2 is off the board.
    let g = game(Board::Hex34, "a1 d2");
    assert_eq!(names(&g, g.restricted()), set("c4"));
    assert_eq!(refusal(&g, "c4"), "c4 is restricted: it would complete a triangle with Red a1 and Blue d2");

    // Restrictions bind both players: Blue may not place on c4 either.
    let g = game(Board::Hex34, "a1 d2 f4");
    assert!(names(&g, g.restricted()).contains("c4"));
    assert!(refusal(&g, "c4").starts_with("c4 is restricted"));
    // And the set is every empty point closing a mixed pair, per the brute force.
    let pts = naive::Points::new(SHAPES[5].1);
    let mut n = naive::Game::new(&pts, false);
    for m in ["a1", "d2", "f4"] {
        n.play(m);
    }
    let expected: BTreeSet<String> = (0..27).filter(|&p| n.restricted(p)).map(|p| pts.names[p].clone()).collect();
    assert_eq!(names(&g, g.restricted()), expected);
}

#[test]
fn the_closest_pair_names_a_restriction() {
    // After a1 d2 f4 b1: several pairs may restrict a point; the reason names the smallest triangle.
    let g = game(Board::Hex34, "a1 d2 f4 b1");
    let l = g.lattice();
    for p in 0..l.len {
        let Some((red, blue)) = g.restricting_pair(p) else {
            assert!(g.restricted() & (1 << p) == 0);
            continue;
        };
        let d = l.distance2(red, blue);
        for a in 0..l.len {
            for b in 0..l.len {
                if g.counter(a) == Some(0) && g.counter(b) == Some(1) && l.distance2(a, b) < d {
                    assert!(
                        !(l.distance2(a, p) == l.distance2(a, b) && l.distance2(b, p) == l.distance2(a, b)),
                        "{} is closed by a smaller pair",
                        l.name(p)
                    );
                }
            }
        }
    }
}

// ---- Captures (§A turn) ----

#[test]
fn a_placement_closing_a_triangle_with_two_enemy_counters_captures() {
    // Blue's a1 closes the unit triangle a1 a2 b2 with two red counters.
    let g = game(Board::Hex34, "a2 d4 b2 f4 c5 a1");
    assert_eq!(g.to_move(), Some(Player(1)));
    assert!(g.capture_pending());
    assert!(!g.is_turn_boundary());
    assert_eq!(names(&g, g.capturable()), set("a2 b2"));
    assert_eq!(legal_texts(&g), set("xa2 xb2"));
    assert_eq!(
        refusal(&g, "e5"),
        "Blue must first capture a Red counter of a mixed triangle (a2 or b2), then place again"
    );
    assert_eq!(refusal(&g, "xd4"), "d4 is Blue's own counter (capture one of a2 or b2)");
    assert_eq!(refusal(&g, "xe5"), "e5 holds no counter to capture (capture one of a2 or b2)");
    assert_eq!(
        refusal(&g, "xc5"),
        "Red c5 is not in a mixed triangle Blue's last placement formed (capture one of a2 or b2)"
    );
    // §A turn 2: the choice is among all the new triangles — with Red on b1 instead of c5, a1 also
    // closes a1 b1 b2.
    let two = game(Board::Hex34, "a2 d4 b2 f4 b1 a1");
    assert_eq!(names(&two, two.capturable()), set("a2 b1 b2"));
    let before = g.counts();
    let mut g = g;
    play_moves(&mut g, "xb2").unwrap();
    assert_eq!(g.counts(), [before[0] - 1, before[1]]);
    assert_eq!(g.counter(g.lattice().parse("b2").unwrap()), None);
    // §What a test can rely on: the captured point is restricted at once (a1 Blue, a2 Red).
    assert!(names(&g, g.restricted()).contains("b2"));
    // Blue places again.
    assert_eq!(g.to_move(), Some(Player(1)));
    assert!(!g.capture_pending() && !g.is_turn_boundary());
    assert!(refusal(&g, "xa2").starts_with("Blue has nothing to capture"));
}

#[test]
fn a_capture_chain_place_capture_place_capture_place() {
    // Red a5 b4 c2, Blue b2 b3; Blue's b5 closes a5 b4 b5 (unit), takes a5, then d5 closes the tilted
    // triangle b4 c2 d5 (sides √7), takes c2, and a4 closes nothing: the turn ends.
    let mut g = game(Board::Hex34, "a5 b2 b4 b3 c2");
    assert!(g.is_turn_boundary());
    let start = g.counts();
    let steps: [(&str, Option<&str>); 5] =
        [("b5", Some("a5 b4")), ("xa5", None), ("d5", Some("b4 c2")), ("xc2", None), ("a4", None)];
    for (k, (mv, capturable)) in steps.into_iter().enumerate() {
        play_moves(&mut g, mv).unwrap();
        match capturable {
            Some(c) => assert_eq!(names(&g, g.capturable()), set(c), "after {mv}"),
            None => assert!(!g.capture_pending(), "after {mv}"),
        }
        let last = k == 4;
        assert_eq!(g.to_move(), Some(Player(if last { 0 } else { 1 })), "after {mv}");
        assert_eq!(g.is_turn_boundary(), last, "after {mv}");
    }
    // §What a test can rely on: the turn added one counter net of captures (Blue +3, Red −2).
    assert_eq!(g.counts(), [start[0] - 2, start[1] + 3]);
    assert_eq!(g.counts().iter().sum::<u32>(), start.iter().sum::<u32>() + 1);
}

// ---- End and result (§End and result) ----

#[test]
fn both_tie_rules_on_a_game_ending_at_a_turn_boundary() {
    // hex-2-3: Red b2 a1 b1, Blue b3 c4 b4; after Blue's b4 every empty point is restricted, Red is
    // stuck at 3–3. Blue moved last.
    let moves = "b2 b3 a1 c4 b1 b4";
    for tie in TieRule::ALL {
        let g = game_with(Board::Hex23, tie, Variant::Standard, moves);
        assert_eq!(g.to_move(), None);
        assert_eq!(g.stuck(), Some(Player(0)));
        assert_eq!(g.last_mover(), Some(Player(1)));
        assert_eq!(g.counts(), [3, 3]);
        assert_eq!(g.restricted() | g.counter_sets()[0] | g.counter_sets()[1], g.lattice().all);
        assert!(g.tie_decided());
        assert!(g.is_turn_boundary());
        let outcome = g.outcome().unwrap();
        assert_eq!(outcome.scores[..2], [3, 3]);
        let winner = match tie {
            TieRule::StuckPlayerLoses => 1,
            TieRule::LastMoverLoses => 0,
        };
        assert_eq!(outcome.winners(), vec![Player(winner)], "{tie:?}");
        assert_eq!(outcome.ranks[winner as usize], 1.0);
        assert_eq!(outcome.ranks[1 - winner as usize], 0.0);
        assert_eq!(legal_texts(&g).len(), 0);
        assert!(refusal(&g, "a2").starts_with("the game is over"));
    }
}

#[test]
fn a_game_can_end_in_the_middle_of_a_turn_and_then_both_tie_rules_agree() {
    // hex-2-3: Red's b4 closes a triangle with Blue b2 …, Red takes b2 and then cannot place again.
    let moves = "a1 c2 a4 a3 c4 d3 xa4 b2 b4 xb2";
    for tie in TieRule::ALL {
        let g = game_with(Board::Hex23, tie, Variant::Standard, moves);
        assert_eq!(g.to_move(), None, "{}", g.board_text());
        assert_eq!(g.stuck(), Some(Player(0)));
        assert_eq!(g.last_mover(), Some(Player(0)));
        assert_eq!(g.counts(), [3, 3]);
        assert!(g.tie_decided());
        assert_eq!(g.outcome().unwrap().winners(), vec![Player(1)], "{tie:?}");
    }
}

#[test]
fn fewest_counters_wins() {
    // Unequal counts: the tie rule does not matter.
    let mut rng = triboard::rules::rng_from_seed(11);
    let mut buf = Vec::new();
    let mut seen = 0;
    for _ in 0..200 {
        let mut g = game(Board::Hex3, "");
        while let Some(m) = g.random_move(&mut rng, &mut buf) {
            g.play(m).unwrap();
        }
        let [red, blue] = g.counts();
        let outcome = g.outcome().unwrap();
        assert_eq!(outcome.scores[..2], [red as i32, blue as i32]);
        if red != blue {
            seen += 1;
            assert!(!g.tie_decided());
            assert_eq!(outcome.winners(), vec![Player(if red < blue { 0 } else { 1 })]);
        }
    }
    assert!(seen > 50);
}

// ---- Variant: any mixed triangle (§Variant) ----

#[test]
fn variant_captures_from_any_mixed_triangle_until_none_remain() {
    // hex-3-4: Blue's c2 closes two mixed triangles; Blue takes c1, and a4 closes nothing new.
    let moves = "d2 a3 c1 a2 d3 c2 xc1 a4";
    let g = game(Board::Hex34, moves);
    let left: Vec<Points> = g.mixed_triangles().collect();
    assert!(!left.is_empty(), "a mixed triangle survives the capture");
    // Standard: the turn ends anyway; Red moves.
    assert!(g.is_turn_boundary());
    assert_eq!(g.to_move(), Some(Player(0)));
    // Variant: Blue must capture again, from the surviving triangle.
    let v = game_with(Board::Hex34, TieRule::StuckPlayerLoses, Variant::AnyMixedTriangle, moves);
    assert_eq!(v.to_move(), Some(Player(1)));
    assert!(v.capture_pending() && !v.is_turn_boundary());
    let red = v.counter_sets()[0];
    assert_eq!(v.capturable(), left.iter().fold(0, |acc, t| acc | (t & red)));
    assert_eq!(names(&v, v.capturable()), set("d2 d3"));
    assert_eq!(
        refusal(&v, "b1"),
        "Blue must first capture a Red counter of a mixed triangle (d2 or d3), then place again"
    );
    let mut v = v;
    play_moves(&mut v, "xd3").unwrap();
    assert_eq!(v.mixed_triangles().count(), 0);
    assert_eq!(v.to_move(), Some(Player(1)), "Blue places again after the capture");
}

#[test]
fn variant_the_stuck_player_with_a_mixed_triangle_left_loses_whatever_the_counts() {
    // hex-2-3: Blue's b3 closes triangles, Blue takes a3 and then cannot place, with a mixed triangle
    // left: Blue loses with 2 counters against Red's 3.
    let moves = "a3 a4 c2 c3 a2 xa4 c4 b3 xa3";
    let g = game_with(Board::Hex23, TieRule::StuckPlayerLoses, Variant::AnyMixedTriangle, moves);
    assert_eq!(g.to_move(), None);
    assert_eq!(g.stuck(), Some(Player(1)));
    assert_eq!(g.counts(), [3, 2]);
    assert!(g.mixed_triangles().next().is_some());
    assert!(g.mixed_triangle_loss());
    assert!(!g.tie_decided());
    assert_eq!(g.outcome().unwrap().winners(), vec![Player(0)]);
}

// ---- Notation ----

#[test]
fn notation_round_trips_on_every_board() {
    for board in Board::ALL {
        let g = game(board, "");
        let l = g.lattice();
        for p in 0..l.len {
            for mv in [TriItOutMove::Place(p as u8), TriItOutMove::Capture(p as u8)] {
                let text = g.move_text(mv);
                assert_eq!(g.parse_move(&text), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&text.to_uppercase()), Ok(mv), "{text} in capitals");
            }
            assert_eq!(g.move_text(TriItOutMove::Capture(p as u8)), format!("x{}", l.name(p)));
            assert_eq!(g.move_key(TriItOutMove::Place(p as u8)), p);
            assert_eq!(g.move_key(TriItOutMove::Capture(p as u8)), l.len + p);
        }
        assert_eq!(g.move_key_space(), 2 * l.len);
        for bad in ["", "x", "z1", "a0", "a99", "xx1", "1a", "c"] {
            assert!(g.parse_move(bad).is_err(), "{bad} on {}", board.id());
        }
    }
    let g = game(Board::Hex34, "");
    assert_eq!(g.move_text(TriItOutMove::Place(0)), "a1");
    assert_eq!(g.parse_move("c4"), Ok(TriItOutMove::Place(3 + 4 + 5 + 2)));
    assert_eq!(g.parse_move("xf4"), Ok(TriItOutMove::Capture(3 + 4 + 5 + 5)));
    assert!(g.parse_move("g4").is_err());
    assert_eq!(g.player_name(Player(0)), "Red");
    assert_eq!(g.player_name(Player(1)), "Blue");
    assert_eq!(g.id(), "tri-it-out");
}

// The terminal diagram names every empty point: its letter stands on the point, in the line of
// its row's number (`docs/rules/tri-it-out.md` §Board, notation), two characters per half step as
// the naive centred rows place it, on all nine boards; counters and restricted points keep their
// places.
#[test]
fn board_text_shows_each_empty_points_letter_where_the_point_is() {
    for (board, &(id, rows, _, _)) in Board::ALL.into_iter().zip(&SHAPES) {
        let pts = naive::Points::new(rows);
        for moves in ["", "a1 a2"] {
            let g = game(board, moves);
            let text = g.board_text();
            let cells: Vec<(String, usize)> = common::diagram_rows(&text, rows.len()).into_iter().flatten().collect();
            assert_eq!(cells.len(), pts.names.len(), "{id}: one cell per point\n{text}");
            for (p, (cell, column)) in cells.iter().enumerate() {
                let name = &pts.names[p];
                let expected = match g.counter(p) {
                    Some(0) => "R",
                    Some(_) => "B",
                    None if g.restricted() >> p & 1 != 0 => "-",
                    None => &name[..1],
                };
                assert_eq!(cell, expected, "{id} after '{moves}': {name}\n{text}");
                assert_eq!(*column as i32, 4 + 2 * pts.xy[p].0, "{id}: {name} is where the lattice puts it\n{text}");
            }
        }
    }
    // hex-3 after a1 a2: Blue's a2 and the restricted b2, then c2 and d2 by their letters, c2 half
    // a step right of b1.
    let text = game(Board::Hex3, "a1 a2").board_text();
    let rows = common::diagram_rows(&text, 5);
    let row2: Vec<&str> = rows[1].iter().map(|(cell, _)| cell.as_str()).collect();
    assert_eq!(row2, ["B", "-", "c", "d"], "{text}");
    assert_eq!(rows[1][2].1, rows[0][1].1 + 2, "c2 lies between b1 and c1\n{text}");
    assert!(text.contains("c4 is c in row 4"), "the legend says how to read a name: {text}");
}

#[test]
fn options_are_kebab_case_in_records() {
    let o = TriItOutOptions { board: Board::Hex45, tie: TieRule::LastMoverLoses, variant: Variant::AnyMixedTriangle };
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(json, r#"{"board":"hex-4-5","tie":"last-mover-loses","variant":"any-mixed-triangle"}"#);
    assert_eq!(serde_json::from_str::<TriItOutOptions>(&json).unwrap(), o);
    let d: TriItOutOptions = serde_json::from_str(r#"{"board":"tri-5"}"#).unwrap();
    assert_eq!(d, TriItOutOptions { board: Board::Tri5, ..Default::default() });
    assert!(serde_json::from_str::<TriItOutOptions>(r#"{"board":"hex-9"}"#).is_err());
    for t in TieRule::ALL {
        assert_eq!(TieRule::from_id(t.id()), Some(t));
    }
    for v in Variant::ALL {
        assert_eq!(Variant::from_id(v.id()), Some(v));
    }
    assert_eq!(TieRule::default(), TieRule::LastMoverLoses);
    assert_eq!(TieRule::ALL[0], TieRule::default(), "the default first");
    assert_eq!(Variant::default(), Variant::Standard);
}

#[test]
fn a_record_without_a_tie_rule_replays_under_last_mover_loses() {
    // The game of `both_tie_rules_on_a_game_ending_at_a_turn_boundary`: Red stuck at 3–3, Blue moved last.
    let moves = r#"["b2", "b3", "a1", "c4", "b1", "b4"]"#;
    let winner = |options: &str| {
        let text = format!(r#"{{"game": "tri-it-out", "options": {options}, "moves": {moves}}}"#);
        let (_, end, _) = Record::from_json(&text).unwrap().replay::<TriItOut>().unwrap();
        assert!(end.tie_decided());
        end.outcome().unwrap().winners()
    };
    // No tie field: the default, last-mover-loses, so Blue loses.
    assert_eq!(winner(r#"{"board": "hex-2-3"}"#), vec![Player(0)]);
    assert_eq!(winner(r#"{"board": "hex-2-3", "tie": "last-mover-loses"}"#), vec![Player(0)]);
    assert_eq!(winner(r#"{"board": "hex-2-3", "tie": "stuck-player-loses"}"#), vec![Player(1)]);
    // A saved record names its tie rule, so one saved under stuck-player-loses keeps it.
    let g = game(Board::Hex23, "b2 b3 a1 c4 b1 b4");
    let record = Record::new(&g, &[]);
    assert_eq!(record.options["tie"], "stuck-player-loses");
    let record = Record::new(&TriItOut::new(&TriItOutOptions::default()).unwrap(), &[]);
    assert_eq!(record.options["tie"], "last-mover-loses");
}

// ---- Perft against the naive rules ----

/// Walks the tree of both implementations in step, comparing the legal moves at every node, and
/// returns the leaf counts per depth.
fn perft_both(g: &TriItOut, n: &naive::Game<'_>, depth: usize) -> Vec<u64> {
    fn walk(g: &TriItOut, n: &naive::Game<'_>, d: usize, counts: &mut [u64]) {
        let ours = legal_texts(g);
        let theirs: BTreeSet<String> = n.moves().into_iter().collect();
        assert_eq!(ours, theirs, "legal moves\n{}", g.board_text());
        assert_eq!(g.to_move().map(|p| p.0), (!n.over).then_some(n.mover));
        counts[d] += ours.len() as u64;
        if d + 1 < counts.len() {
            for text in &ours {
                let mut g2 = g.clone();
                play_moves(&mut g2, text).unwrap();
                let mut n2 = n.clone();
                n2.play(text);
                walk(&g2, &n2, d + 1, counts);
            }
        }
    }
    let mut counts = vec![0; depth];
    walk(g, n, 0, &mut counts);
    counts
}

fn check_perft(board: Board, variant: Variant, moves: &str, depth: usize, pinned: &[u64]) {
    let rows = SHAPES.iter().find(|s| s.0 == board.id()).unwrap().1;
    let pts = naive::Points::new(rows);
    let mut n = naive::Game::new(&pts, variant == Variant::AnyMixedTriangle);
    for m in moves.split_whitespace() {
        n.play(m);
    }
    let g = game_with(board, TieRule::StuckPlayerLoses, variant, moves);
    let counts = perft_both(&g, &n, depth);
    assert_eq!(perft(&g, depth), counts, "{} after '{moves}'", board.id());
    assert_eq!(counts, pinned, "{} {variant:?} after '{moves}'", board.id());
}

#[test]
fn perft_hex_2_3_from_the_start() {
    check_perft(Board::Hex23, Variant::Standard, "", 6, &[12, 132, 1_170, 8_046, 33_108, 97_068]);
}

#[test]
fn perft_hex_3_from_the_start() {
    check_perft(Board::Hex3, Variant::Standard, "", 4, &[19, 342, 5_418, 74_628]);
}

#[test]
fn perft_standard_and_variant_in_the_middle_game() {
    // Blue's c2 closes two mixed triangles here; the standard rules and the variant part ways.
    check_perft(Board::Hex34, Variant::Standard, "d2 a3 c1 a2 d3", 4, &[16, 173, 1_636, 11_064]);
    // The position of the variant test before Blue's c2: captures and the variant's long turns.
    check_perft(Board::Hex34, Variant::AnyMixedTriangle, "d2 a3 c1 a2 d3", 4, &[16, 173, 1_636, 10_706]);
    check_perft(Board::Hex23, Variant::AnyMixedTriangle, "a3 a4 c2", 5, &[8, 42, 130, 271, 664]);
}

// ---- Random games ----

/// The rules checked at every position of a random game, against the naive implementation run in
/// step (so its restricted points, captures and end are recomputed by brute force).
fn rules_checks(board: Board, variant: Variant) -> impl FnMut(Position<'_, TriItOut>) {
    let rows = SHAPES.iter().find(|s| s.0 == board.id()).unwrap().1;
    let pts: &'static naive::Points = Box::leak(Box::new(naive::Points::new(rows)));
    let mut n = naive::Game::new(pts, variant == Variant::AnyMixedTriangle);
    let mut turns = 0u32;
    move |Position { state, history, legal, rng }| {
        if history.is_empty() {
            n = naive::Game::new(pts, variant == Variant::AnyMixedTriangle);
            turns = 0;
        } else {
            let last = *history.last().unwrap();
            n.play(&state.move_text(last));
        }
        let l = state.lattice();
        // Counters, restricted points and the capture due, as the brute force has them.
        for p in 0..l.len {
            let c = state.counter(p).map_or(0, |s| s + 1);
            assert_eq!(c, n.colour[p], "counter on {}", l.name(p));
            assert_eq!(state.restricted() & (1 << p) != 0, n.restricted(p), "restricted {}", l.name(p));
        }
        let pending: Points = n.pending.iter().fold(0, |acc, &p| acc | 1 << p);
        assert_eq!(state.capturable(), pending);
        let ours = legal.iter().map(|&m| state.move_text(m)).collect::<BTreeSet<_>>();
        assert_eq!(ours, n.moves().into_iter().collect::<BTreeSet<_>>());
        // No placement on a restricted or occupied point is ever generated.
        for &m in legal {
            if let TriItOutMove::Place(p) = m {
                assert!(n.colour[p as usize] == 0 && !n.restricted(p as usize));
            }
        }
        // The playout policy (knowledge) plays a legal move, and a placement that forms no mixed
        // triangle whenever there is one.
        if !legal.is_empty() {
            let forms = |m: TriItOutMove| {
                let mut next = state.clone();
                next.play(m).unwrap();
                next.capture_pending()
            };
            let mut buf = Vec::new();
            let chosen = state.clone().playout_move(rng, &mut buf).unwrap();
            assert!(legal.contains(&chosen));
            let safe_exists = legal.iter().any(|&m| matches!(m, TriItOutMove::Place(_)) && !forms(m));
            if safe_exists && variant == Variant::Standard {
                assert!(!forms(chosen), "playout placed {} forming a mixed triangle", state.move_text(chosen));
            }
        }
        // The game ends exactly when the mover must place and cannot (§End and result).
        let must_place = !state.capture_pending();
        assert_eq!(state.to_move().is_none(), must_place && n.placements().is_empty());
        // Every completed turn adds one counter net of captures.
        let after_capture = matches!(history.last(), Some(TriItOutMove::Capture(_)));
        if !history.is_empty() && state.is_turn_boundary() && !(state.to_move().is_none() && after_capture) {
            turns += 1;
            assert_eq!(state.counts().iter().sum::<u32>(), turns, "one counter per turn");
        }
        // Turns alternate: the seat to move changes exactly after a turn-ending placement.
        if let (Some(p), Some(&TriItOutMove::Place(_))) = (state.to_move(), history.last()) {
            let ends = !state.capture_pending();
            let mover_before = if ends { 1 - p.0 } else { p.0 };
            assert_eq!(state.last_mover(), Some(Player(mover_before)));
        }
        if let Some(outcome) = state.outcome() {
            let [red, blue] = state.counts();
            assert_eq!(outcome.scores[..2], [red as i32, blue as i32]);
            assert_eq!(outcome.winners().len(), 1);
            let mixed_left = !n.mixed_triangles().is_empty();
            if variant == Variant::Standard || !mixed_left {
                assert!(!state.mixed_triangle_loss());
                if red != blue {
                    assert_eq!(outcome.winners()[0].0, if red < blue { 0 } else { 1 });
                } else {
                    assert_eq!(outcome.winners()[0].0, 1 - n.mover, "stuck player loses the tie");
                }
            } else {
                assert_eq!(outcome.winners()[0].0, 1 - n.mover, "stuck with a mixed triangle loses");
            }
        }
    }
}

fn run(board: Board, variant: Variant, games: usize, seed: u64) {
    let options = TriItOutOptions { board, tie: TieRule::StuckPlayerLoses, variant };
    // No rule bounds the length (captures free points again), but each turn leaves one counter more
    // on the board: ten plies a point is far above any game seen (`Stats::max_plies`).
    let max_plies = 10 * board.lattice().len;
    let stats = random_games(&Run::<TriItOut>::new(options, games, seed, max_plies), rules_checks(board, variant));
    assert_eq!(stats.games, games);
    assert_eq!(stats.wins[0] + stats.wins[1], games, "one winner per game: {stats:?}");
    assert!(stats.refusals_checked > 0);
    eprintln!("tri-it-out {} {}: {stats:?}", board.id(), variant.id());
}

#[test]
fn random_games_hex_2_3() {
    run(Board::Hex23, Variant::Standard, 1_000, 0x7107_0001);
    run(Board::Hex23, Variant::AnyMixedTriangle, 1_000, 0x7107_0002);
}

#[test]
fn random_games_tri_5_and_hex_3() {
    run(Board::Tri5, Variant::Standard, 500, 0x7107_0003);
    run(Board::Hex3, Variant::Standard, 500, 0x7107_0004);
    run(Board::Hex3, Variant::AnyMixedTriangle, 500, 0x7107_0005);
}

#[test]
fn random_games_hex_3_4() {
    run(Board::Hex34, Variant::Standard, 1_000, 0x7107_0006);
    run(Board::Hex34, Variant::AnyMixedTriangle, 600, 0x7107_0007);
}

#[test]
fn random_games_hex_4_5() {
    run(Board::Hex45, Variant::Standard, 100, 0x7107_0008);
    run(Board::Hex45, Variant::AnyMixedTriangle, 60, 0x7107_0009);
}

/// The move features (`src/rules/tri_it_out/features.rs`) equal a naive recount at every ply of
/// random games on two boards: each move played on a copy, the safe points found with a
/// brute-force equilateral test on the lattice's axial coordinates.
#[test]
fn move_features_equal_a_naive_recount() {
    use triboard::rules::rng_from_seed;
    use triboard::rules::tri_it_out::features::FEATURE_SET;
    let groups = FEATURE_SET.groups.len();
    let bucket = |g: usize, f: u16| f as usize - FEATURE_SET.offset(g);
    let safe_bucket = |n: usize| match n {
        0..=3 => n,
        4..=5 => 4,
        6..=8 => 5,
        9..=12 => 6,
        _ => 7,
    };
    let mut rng = rng_from_seed(9);
    let (mut checked, mut captures) = (0, 0);
    for board in [Board::Hex3, Board::Hex34] {
        for _ in 0..4 {
            let mut g = game(board, "");
            let lattice = g.lattice();
            let d2 = |a: usize, b: usize| {
                let (dq, dr) = (lattice.q[a] as i32 - lattice.q[b] as i32, lattice.r[a] as i32 - lattice.r[b] as i32);
                dq * dq + dq * dr + dr * dr
            };
            // p completes an equilateral triangle with two counters of `set`.
            let closes = |set: Points, p: usize| {
                let c: Vec<usize> = (0..lattice.len).filter(|&x| set >> x & 1 != 0 && x != p).collect();
                c.iter()
                    .enumerate()
                    .any(|(i, &a)| c[i + 1..].iter().any(|&b| d2(a, b) == d2(a, p) && d2(a, b) == d2(b, p)))
            };
            let (mut legal, mut active) = (Vec::new(), Vec::new());
            while g.outcome().is_none() {
                g.legal_moves(&mut legal);
                g.move_features(&legal, &mut active);
                assert_eq!(active.len(), legal.len() * groups);
                let me = g.to_move().unwrap().index();
                let filled = (g.counts()[0] + g.counts()[1]) as usize;
                for (k, &m) in legal.iter().enumerate() {
                    let a = &active[k * groups..(k + 1) * groups];
                    let mut after = g.clone();
                    after.play(m).unwrap();
                    let sets = after.counter_sets();
                    let free: Vec<usize> = (0..lattice.len)
                        .filter(|&p| after.counter(p).is_none() && after.restricted() >> p & 1 == 0)
                        .collect();
                    let my_safe = free.iter().filter(|&&p| !closes(sets[1 - me], p)).count();
                    let their_safe = free.iter().filter(|&&p| !closes(sets[me], p)).count();
                    let (place, p) = match m {
                        TriItOutMove::Place(p) => (true, p as usize),
                        TriItOutMove::Capture(p) => (false, p as usize),
                    };
                    captures += !place as usize;
                    let near =
                        |seat: usize| (0..lattice.len).filter(|&x| d2(x, p) == 1 && sets[seat] >> x & 1 != 0).count();
                    let forms = if place { after.capturable().count_ones() as usize } else { 0 };
                    let change = after.restricted().count_ones() as i32 - g.restricted().count_ones() as i32;
                    let counts = after.counts();
                    let ends = match after.outcome() {
                        None => 0,
                        Some(o) if o.winners() == vec![Player(me as u8)] => 1,
                        Some(_) => 2,
                    };
                    let expected = [
                        !place as usize,
                        forms.min(3),
                        (change.clamp(-3, 5) + 3) as usize,
                        safe_bucket(my_safe),
                        safe_bucket(their_safe),
                        (free.len() - their_safe).min(4),
                        near(me).min(3),
                        near(1 - me).min(3),
                        ((0..lattice.len).filter(|&x| d2(x, p) == 1).count() < 6) as usize,
                        (filled * 4 / lattice.len).min(3) * 2 + !place as usize,
                        ((counts[me] as i32 - counts[1 - me] as i32).clamp(-3, 3) + 3) as usize,
                        ends,
                    ];
                    let found: Vec<usize> = a.iter().enumerate().map(|(i, &f)| bucket(i, f)).collect();
                    assert_eq!(found, expected, "{} {}", board.id(), g.move_text(m));
                    checked += 1;
                }
                let m = g.random_move(&mut rng, &mut legal).unwrap();
                g.play(m).unwrap();
            }
        }
    }
    assert!(checked > 500 && captures > 5, "{checked} moves, {captures} captures");
}
