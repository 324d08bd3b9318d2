//! Trike conformance: hand-checked positions, the pie rule, scoring, notation and perft, against
//! `docs/rules/trike.md`. Perft and move lists are cross-checked against [`naive`], a
//! deliberately simple coordinate-based implementation of the rules that shares nothing with the
//! crate's tables.

mod common;

use std::collections::{BTreeSet, HashMap};

use common::{Position, Run, Stats, random_games};
use proptest::prelude::*;
use triboard::rules::trike::{Color, Trike, TrikeMove, TrikeOptions};
use triboard::rules::{Game, Player, perft, play_moves, rng_from_seed};

/// A fresh game of side `size` after `moves` (space-separated notation).
fn trike(size: u8, moves: &str) -> Trike {
    let mut g = Trike::new(&TrikeOptions { size }).unwrap();
    play_moves(&mut g, moves).unwrap_or_else(|e| panic!("size {size}, {moves}: {e}"));
    g
}

/// The legal moves as a set of texts.
fn legal_texts(g: &Trike) -> BTreeSet<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let texts: BTreeSet<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    assert_eq!(texts.len(), moves.len(), "no move generated twice");
    texts
}

fn set(texts: &str) -> BTreeSet<String> {
    texts.split_whitespace().map(str::to_string).collect()
}

fn mv(g: &Trike, text: &str) -> TrikeMove {
    g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The reason `text` is refused here; panics if it is accepted. Also checks the state is unchanged.
fn refusal(g: &Trike, text: &str) -> String {
    let mut copy = g.clone();
    let err = copy.play(mv(g, text)).expect_err(&format!("{text} should be refused"));
    assert_eq!(&copy, g, "a refused move leaves the state unchanged");
    assert!(!err.reason.is_empty());
    err.reason
}

/// The texts of the scored cells, once the game is over.
fn scored_texts(g: &Trike) -> BTreeSet<String> {
    g.scored_cells().expect("game over").iter().map(|c| g.move_text(TrikeMove::to(c))).collect()
}

/// Every cell's checker colour, to compare boards.
fn checkers(g: &Trike) -> Vec<Option<Color>> {
    (0..g.geometry().cells).map(|c| g.checker(c)).collect()
}

/// Trike as `docs/rules/trike.md` states it, on a plain `(row, column)` array: no bitboards, no tables,
/// no cell numbering. Only for cross-checking.
mod naive {
    /// The six neighbour steps, also the six line directions (`docs/rules/trike.md` §Board).
    const DIRS: [(i32, i32); 6] = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)];

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum Move {
        At(i32, i32),
        Swap,
    }

    #[derive(Clone, Debug)]
    pub struct Board {
        n: i32,
        /// `cells[r][c]`: 0 empty, 1 black checker, 2 white checker.
        cells: Vec<Vec<u8>>,
        pawn: Option<(i32, i32)>,
        /// Plies played, the swap included.
        ply: usize,
        /// Checkers placed so far: the next one is black when even (§Play 1–3: the colours
        /// alternate, and a swap only changes who holds which colour).
        placed: usize,
        /// §Play 2: seat 0 holds White after a swap.
        pub swapped: bool,
    }

    impl Board {
        pub fn new(n: i32) -> Board {
            Board { n, cells: vec![vec![0; n as usize]; n as usize], pawn: None, ply: 0, placed: 0, swapped: false }
        }

        fn on_board(&self, r: i32, c: i32) -> bool {
            0 <= c && c <= r && r < self.n
        }

        fn empty(&self, r: i32, c: i32) -> bool {
            self.cells[r as usize][c as usize] == 0
        }

        pub fn moves(&self) -> Vec<Move> {
            let mut out = Vec::new();
            let Some((pr, pc)) = self.pawn else {
                // §Play 1: the opening goes anywhere.
                for r in 0..self.n {
                    for c in 0..=r {
                        out.push(Move::At(r, c));
                    }
                }
                return out;
            };
            // §Play 3: slide over empty cells only, stop anywhere before a checker or the edge.
            for (dr, dc) in DIRS {
                let (mut r, mut c) = (pr + dr, pc + dc);
                while self.on_board(r, c) && self.empty(r, c) {
                    out.push(Move::At(r, c));
                    r += dr;
                    c += dc;
                }
            }
            // §Play 2: the very next move after the opening may be the swap.
            if self.ply == 1 {
                out.push(Move::Swap);
            }
            out
        }

        pub fn play(&mut self, m: Move) {
            self.ply += 1;
            match m {
                Move::Swap => self.swapped = true,
                Move::At(r, c) => {
                    self.cells[r as usize][c as usize] = if self.placed.is_multiple_of(2) { 1 } else { 2 };
                    self.placed += 1;
                    self.pawn = Some((r, c));
                }
            }
        }

        /// §End and score: the game is over when the mover has no move; each colour scores its
        /// checkers under or adjacent to the pawn. Returns the scores by seat.
        pub fn scores(&self) -> Option<[i32; 2]> {
            if !self.moves().is_empty() {
                return None;
            }
            let (pr, pc) = self.pawn?;
            let (mut black, mut white) = (0, 0);
            for (dr, dc) in DIRS.into_iter().chain([(0, 0)]) {
                let (r, c) = (pr + dr, pc + dc);
                if self.on_board(r, c) {
                    match self.cells[r as usize][c as usize] {
                        1 => black += 1,
                        2 => white += 1,
                        _ => {}
                    }
                }
            }
            Some(if self.swapped { [white, black] } else { [black, white] })
        }

        /// The seat to move, `None` once over.
        pub fn to_move(&self) -> Option<u8> {
            if self.moves().is_empty() {
                return None;
            }
            let colour = (self.placed % 2) as u8; // 0 Black, 1 White
            Some(colour ^ self.swapped as u8)
        }

        pub fn text(m: Move) -> String {
            match m {
                Move::Swap => "swap".to_string(),
                Move::At(r, c) => format!("{}{}", (b'a' + c as u8) as char, r + 1),
            }
        }

        pub fn perft(&self, depth: usize) -> Vec<u64> {
            fn walk(b: &Board, d: usize, counts: &mut [u64]) {
                let moves = b.moves();
                counts[d] += moves.len() as u64;
                if d + 1 < counts.len() {
                    for m in moves {
                        let mut next = b.clone();
                        next.play(m);
                        walk(&next, d + 1, counts);
                    }
                }
            }
            let mut counts = vec![0; depth];
            walk(self, 0, &mut counts);
            counts
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Board and options (§Board)

#[test]
fn sizes_3_to_19_default_13() {
    assert_eq!(TrikeOptions::default().size, 13);
    let g = Trike::new(&TrikeOptions::default()).unwrap();
    assert_eq!((g.id(), g.num_players(), g.ply()), ("trike", 2, 0));
    assert_eq!(g.to_move(), Some(Player(0)));
    assert_eq!(g.player_name(Player(0)), "Black");
    assert_eq!(g.player_name(Player(1)), "White");
    for size in [0u8, 1, 2, 20, 25, 255] {
        let err = Trike::new(&TrikeOptions { size }).expect_err("size out of range");
        assert!(err.contains(&size.to_string()), "'{err}' names the size {size}");
    }
    for size in 3..=19 {
        assert!(Trike::new(&TrikeOptions { size }).is_ok());
    }
}

#[test]
fn first_move_count_is_the_number_of_cells() {
    // §Board / §What a test can rely on: N(N+1)/2 openings.
    let expected = [
        (3, 6),
        (4, 10),
        (5, 15),
        (6, 21),
        (7, 28),
        (8, 36),
        (9, 45),
        (10, 55),
        (11, 66),
        (12, 78),
        (13, 91),
        (14, 105),
        (15, 120),
        (16, 136),
        (17, 153),
        (18, 171),
        (19, 190),
    ];
    for (size, count) in expected {
        let g = trike(size, "");
        assert_eq!(legal_texts(&g).len(), count, "size {size}");
        assert!(g.outcome().is_none() && g.scored_cells().is_none() && g.pawn().is_none());
    }
    assert_eq!(legal_texts(&trike(3, "")), set("a1 a2 b2 a3 b3 c3"));
}

// ---------------------------------------------------------------------------------------------
// The second move: line moves plus swap (§Play 2, §Play 3)

#[test]
fn second_move_size_5_corner_edge_centre() {
    // Corner a1 = (0,0): down the column a2..a5 and the diagonal b2..e5.
    assert_eq!(legal_texts(&trike(5, "a1")), set("a2 a3 a4 a5 b2 c3 d4 e5 swap"));
    // Corner a5 = (4,0): up the column a4..a1 and along the bottom row b5..e5.
    assert_eq!(legal_texts(&trike(5, "a5")), set("a4 a3 a2 a1 b5 c5 d5 e5 swap"));
    // Corner e5 = (4,4): up the diagonal d4..a1 and along the row d5..a5.
    assert_eq!(legal_texts(&trike(5, "e5")), set("d4 c3 b2 a1 d5 c5 b5 a5 swap"));
    // Edge a3 = (2,0): column a2 a1 / a4 a5, row b3 c3, diagonal b4 c5.
    assert_eq!(legal_texts(&trike(5, "a3")), set("a1 a2 a4 a5 b3 c3 b4 c5 swap"));
    // Edge c5 = (4,2): row a5 b5 d5 e5, column c4 c3, diagonal b4 a3.
    assert_eq!(legal_texts(&trike(5, "c5")), set("a5 b5 d5 e5 c4 c3 b4 a3 swap"));
    // Interior b3 = (2,1): (-1,-1) a2; (-1,0) b2; (0,-1) a3; (0,+1) c3; (+1,0) b4 b5; (+1,+1) c4 d5.
    assert_eq!(legal_texts(&trike(5, "b3")), set("a2 b2 a3 c3 b4 b5 c4 d5 swap"));
    // Interior c4 = (3,2): (-1,-1) b3 a2; (-1,0) c3; (0,-1) b4 a4; (0,+1) d4; (+1,0) c5; (+1,+1) d5.
    assert_eq!(legal_texts(&trike(5, "c4")), set("b3 a2 c3 b4 a4 d4 c5 d5 swap"));
}

#[test]
fn second_move_size_13_corner_edge_centre() {
    // Corner a1: a2..a13 down the column, b2..m13 down the diagonal: 24 + swap.
    let corner = legal_texts(&trike(13, "a1"));
    let mut expected = BTreeSet::from(["swap".to_string()]);
    for k in 1..13u8 {
        expected.insert(format!("a{}", k + 1));
        expected.insert(format!("{}{}", (b'a' + k) as char, k + 1));
    }
    assert_eq!(corner, expected);

    // Edge a7 = (6,0): column a1..a6 and a8..a13, row b7..g7, diagonal b8 c9 d10 e11 f12 g13.
    assert_eq!(
        legal_texts(&trike(13, "a7")),
        set("a1 a2 a3 a4 a5 a6 a8 a9 a10 a11 a12 a13 b7 c7 d7 e7 f7 g7 b8 c9 d10 e11 f12 g13 swap")
    );

    // Centre e9 = (8,4), four cells each way.
    assert_eq!(
        legal_texts(&trike(13, "e9")),
        set("d8 c7 b6 a5 e8 e7 e6 e5 d9 c9 b9 a9 f9 g9 h9 i9 e10 e11 e12 e13 f10 g11 h12 i13 swap")
    );
}

#[test]
fn reply_to_any_opening_is_2n_minus_2_line_moves_plus_swap() {
    // From (r,c) on an empty side-N board the three lines hold r + (N-1-c) + (N-1-(r-c)) = 2N-2
    // other cells, all reachable; the swap makes 2N - 1.
    for size in [3u8, 4, 5, 8, 13, 19] {
        let start = trike(size, "");
        let mut openings = Vec::new();
        start.legal_moves(&mut openings);
        for m in openings {
            let mut g = start.clone();
            g.play(m).unwrap();
            assert_eq!(g.ply(), 1);
            assert_eq!(g.to_move(), Some(Player(1)), "White replies");
            assert!(g.swap_available());
            let texts = legal_texts(&g);
            assert_eq!(texts.len(), 2 * size as usize - 1, "size {size}, opening {}", g.move_text(m));
            assert!(texts.contains("swap"));
        }
    }
}

#[test]
fn third_move_is_blocked_by_checkers() {
    // Size 5, a1 then e5 along the diagonal: the pawn on e5 sees d4 c3 b2 (a1 blocks) and the row.
    let g = trike(5, "a1 e5");
    assert_eq!(g.to_move(), Some(Player(0)));
    assert_eq!(legal_texts(&g), set("d4 c3 b2 d5 c5 b5 a5"));
    // b3 then b5 down the column: from b5 = (4,1) the column stops at b4 (b3 blocks); a4; a5; c5 d5 e5.
    let g = trike(5, "b3 b5");
    assert_eq!(legal_texts(&g), set("b4 a4 a5 c5 d5 e5"));
}

// ---------------------------------------------------------------------------------------------
// Illegal moves and their reasons (§Play 3)

#[test]
fn pawn_cannot_pass_over_or_land_on_checkers() {
    let g = trike(5, "b3 b5");
    // b2 is up the column from b5, beyond the checker on b3.
    let why = refusal(&g, "b2");
    assert!(why.contains("b3") && why.contains("b2"), "'{why}' names the blocking cell b3");
    assert!(why.contains("pass over"), "'{why}'");
    // b3 holds a checker.
    let why = refusal(&g, "b3");
    assert!(why.contains("b3"), "'{why}' names b3");
    // c4 = (3,2) is not on a line from b5 = (4,1).
    let why = refusal(&g, "c4");
    assert!(why.contains("c4") && why.contains("b5") && why.contains("line"), "'{why}'");
    // The pawn must move.
    let why = refusal(&g, "b5");
    assert!(why.contains("b5"), "'{why}'");

    // Passing over on a long row, size 13: a13 … m13 with a checker on g13.
    let g = trike(13, "g13 a13");
    let why = refusal(&g, "m13");
    assert!(why.contains("g13") && why.contains("m13"), "'{why}' names the blocking cell g13");
    assert!(legal_texts(&g).contains("f13") && !legal_texts(&g).contains("h13"));
    // Along a diagonal: a1 → m13 over a checker on f6.
    let g = trike(13, "f6 a6 a1");
    let why = refusal(&g, "m13");
    assert!(why.contains("f6"), "'{why}' names the blocking cell f6");
    assert!(legal_texts(&g).contains("e5"));
}

// ---------------------------------------------------------------------------------------------
// The pie rule (§Play 2)

#[test]
fn swap_only_at_ply_1() {
    // Ply 0: nothing to swap.
    let g = trike(5, "");
    assert!(!g.swap_available() && !legal_texts(&g).contains("swap"));
    let why = refusal(&g, "swap");
    assert!(why.contains("swap") || why.contains("pie"), "'{why}'");
    // Ply 2, after a line move.
    let g = trike(5, "b3 b5");
    assert!(!g.swap_available() && !legal_texts(&g).contains("swap"));
    refusal(&g, "swap");
    // Ply 2, after a swap: no second swap.
    let g = trike(5, "b3 swap");
    assert!(!g.swap_available() && !legal_texts(&g).contains("swap"));
    refusal(&g, "swap");
    // Ply 3 and later.
    let g = trike(5, "b3 b5 b4");
    refusal(&g, "swap");
    let g = trike(5, "b3 swap b5 b4");
    refusal(&g, "swap");
}

#[test]
fn swap_exchanges_seats_not_the_board() {
    let before = trike(5, "b3");
    let after = trike(5, "b3 swap");
    // The board and the pawn are unchanged.
    assert_eq!(checkers(&after), checkers(&before));
    assert_eq!(after.pawn(), before.pawn());
    assert_eq!(after.checker(mv(&after, "b3").cell().unwrap()), Some(Color::Black));
    assert_eq!(after.ply(), 2, "the swap is a ply");
    assert!(after.swapped() && !before.swapped());
    // Seat 0 (the opener) now plays White and is to move.
    assert_eq!(before.to_move(), Some(Player(1)));
    assert_eq!(after.to_move(), Some(Player(0)));
    assert_eq!(after.player_name(Player(0)), "White");
    assert_eq!(after.player_name(Player(1)), "Black");
    assert_eq!(after.color_of(Player(0)), Color::White);
    assert_eq!(after.seat_of(Color::Black), Player(1));
    // The same line moves as before the swap, without the swap.
    let mut expected = legal_texts(&before);
    expected.remove("swap");
    assert_eq!(legal_texts(&after), expected);
    // Seat 0 places a white checker; then seat 1 a black one.
    let g = trike(5, "b3 swap b5");
    assert_eq!(g.checker(mv(&g, "b5").cell().unwrap()), Some(Color::White));
    assert_eq!(g.to_move(), Some(Player(1)));
    let g = trike(5, "b3 swap b5 b4");
    assert_eq!(g.checker(mv(&g, "b4").cell().unwrap()), Some(Color::Black));
    assert_eq!(g.to_move(), Some(Player(0)));
}

// ---------------------------------------------------------------------------------------------
// End and score (§End and score)

/// Checks a finished game: over, nothing playable, the scored cells and the scores by seat.
fn assert_finished(g: &Trike, scored: &str, scores: [i32; 2]) {
    assert_eq!(g.to_move(), None);
    assert!(legal_texts(g).is_empty());
    assert_eq!(g.clone().random_move(&mut rng_from_seed(1), &mut Vec::new()), None);
    assert_eq!(scored_texts(g), set(scored));
    let outcome = g.outcome().expect("finished");
    assert_eq!(outcome.num_players, 2);
    assert_eq!(outcome.scores[..2], scores);
    let winner = if scores[0] > scores[1] { 0 } else { 1 };
    assert_eq!(outcome.winners(), vec![Player(winner)]);
    assert_eq!((outcome.ranks[winner as usize], outcome.ranks[1 - winner as usize]), (1.0, 0.0));
    // Nothing is playable any more, and a refusal says why.
    for cell in 0..g.geometry().cells {
        let mut copy = g.clone();
        let why = copy.play(TrikeMove::to(cell)).expect_err("game over");
        assert!(why.reason.contains("over"), "'{}'", why.reason);
        assert_eq!(&copy, g);
    }
    assert!(g.clone().play(TrikeMove::SWAP).is_err());
}

#[test]
fn trapped_in_a_corner_scores_3_cells() {
    // Size 3: Black a2, White b2, Black a1 (diagonal step): a1's neighbours a2 and b2 are taken.
    let g = trike(3, "a2 b2");
    assert!(g.outcome().is_none() && g.scored_cells().is_none());
    let g = trike(3, "a2 b2 a1");
    assert_eq!(g.ply(), 3);
    assert_finished(&g, "a1 a2 b2", [2, 1]);
    // The same board after a swap: seat 0 holds White (b2), so the scores by seat exchange.
    let g = trike(3, "a2 swap b2 a1");
    assert_finished(&g, "a1 a2 b2", [1, 2]);
    // Size 13 (cells past the first 64-bit word): Black a12, White l12 (row), Black l13, White b13
    // (slides ten cells), Black a13 — trapped by a12 (Black) and b13 (White).
    let g = trike(13, "a12 l12 l13 b13");
    assert!(g.to_move().is_some());
    let g = trike(13, "a12 l12 l13 b13 a13");
    assert_finished(&g, "a13 a12 b13", [2, 1]);
}

#[test]
fn trapped_on_an_edge_scores_5_cells() {
    // Size 3: a1 B, a2 W, b2 B, c3 W, a3 B (slides over b3), b3 W — b3's four neighbours a2 b2 a3
    // c3 are taken. Scored: b3 W, a2 W, b2 B, a3 B, c3 W: Black 2, White 3 (a1 is not scored).
    let g = trike(3, "a1 a2 b2 c3 a3");
    assert!(g.to_move().is_some());
    let g = trike(3, "a1 a2 b2 c3 a3 b3");
    assert_finished(&g, "b3 a2 b2 a3 c3", [2, 3]);
    let g = trike(3, "a1 swap a2 b2 c3 a3 b3");
    assert_finished(&g, "b3 a2 b2 a3 c3", [3, 2]);
}

#[test]
fn trapped_inside_scores_7_cells() {
    // Size 4, around the interior cell b3 = (2,1): a2 B, b2 W, c3 B, c4 W, b4 B, a3 W, then b3 B.
    // Scored: b3 B, a2 B, b2 W, a3 W, c3 B, b4 B, c4 W: Black 4, White 3. a1, a4, d4 stay empty.
    let g = trike(4, "a2 b2 c3 c4 b4 a3");
    assert!(g.to_move().is_some());
    let g = trike(4, "a2 b2 c3 c4 b4 a3 b3");
    assert_finished(&g, "b3 a2 b2 a3 c3 b4 c4", [4, 3]);
    let g = trike(4, "a2 swap b2 c3 c4 b4 a3 b3");
    assert_finished(&g, "b3 a2 b2 a3 c3 b4 c4", [3, 4]);
}

#[test]
fn trapped_with_empty_cells_elsewhere() {
    // Size 5, with long slides: c3 B; e5 W (diagonal, over d4); a5 B (row, over d5 c5 b5); a1 W
    // (column, over a4 a3 a2); b2 B; b3 W; a2 B (step (-1,-1)). The pawn on a2 = (1,0) has a1 b2 b3
    // taken; down the column a3 a4 are free (a5 is Black).
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2");
    assert_eq!(legal_texts(&g), set("a3 a4"));
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4");
    // White a4 = (3,0): a3 up the column (a2 blocks), b4 c4 d4 along the row, b5 on the diagonal;
    // a5 holds Black.
    assert_eq!(legal_texts(&g), set("a3 b4 c4 d4 b5"));
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4 a3");
    // a3 = (2,0): a2 B, b3 W, a4 W, b4 empty → only b4 (diagonal), then c5 beyond it.
    assert_eq!(legal_texts(&g), set("b4 c5"));
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4 a3 b4");
    // b4 = (3,1): neighbours a3 B, b3 W, a4 W, c4 empty, b5 empty, c5 empty.
    assert_eq!(legal_texts(&g), set("c4 d4 b5 c5"));
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4 a3 b4 b5");
    // b5 = (4,1): a4 W, b4 W, a5 B, c5 empty → c5 d5 (row; e5 holds White).
    assert_eq!(legal_texts(&g), set("c5 d5"));
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4 a3 b4 b5 c5");
    // c5 = (4,2): b4 W, c4 empty, b5 B, d5 empty.
    assert_eq!(legal_texts(&g), set("c4 d5"));
    // Black c4 = (3,2): neighbours b3 W, c3 B, b4 W, d4 empty, c5 W, d5 empty → White d4.
    // d4 = (3,3): neighbours c3 B, c4 B, d5 empty, e5 W → Black d5: (4,3) neighbours c4 B, d4 W,
    // c5 W, e5 W: trapped on the bottom edge. Scored d5 B, c4 B, d4 W, c5 W, e5 W: Black 2, White 3.
    let g = trike(5, "c3 e5 a5 a1 b2 b3 a2 a4 a3 b4 b5 c5 c4 d4 d5");
    assert_finished(&g, "d5 c4 d4 c5 e5", [2, 3]);
}

// ---------------------------------------------------------------------------------------------
// Notation (§Board)

#[test]
fn notation_examples() {
    let g = trike(13, "");
    let geo = g.geometry();
    let a1 = mv(&g, "a1").cell().unwrap();
    assert_eq!((geo.row[a1], geo.col[a1]), (0, 0));
    let f13 = mv(&g, "f13").cell().unwrap();
    assert_eq!((geo.row[f13], geo.col[f13]), (12, 5));
    assert_eq!(g.move_text(TrikeMove::to(f13)), "f13");
    assert_eq!(g.move_text(TrikeMove::to(a1)), "a1");
    assert_eq!(mv(&g, "swap"), TrikeMove::SWAP);
    assert_eq!(g.move_text(TrikeMove::SWAP), "swap");
    assert_eq!(TrikeMove::SWAP.cell(), None);
    assert_eq!(mv(&g, " m13 "), mv(&g, "m13"), "surrounding blanks are ignored");
    // Playing f13 as the opening puts the pawn and a black checker there.
    let g = trike(13, "f13");
    assert_eq!(g.pawn(), Some(f13));
    assert_eq!(g.checker(f13), Some(Color::Black));
}

#[test]
fn bad_notation_is_refused() {
    let g = trike(13, "");
    for bad in [
        "",
        " ",
        "a",
        "1",
        "13",
        "a0",
        "b1",
        "c2",
        "n1",
        "n14",
        "a14",
        "m14",
        "z1",
        "1a",
        "aa1",
        "a1b",
        "a 1",
        "a-1",
        "swapp",
        "swa",
        "pass",
        "é1",
        "a1.5",
        "a99999999999",
    ] {
        let err = g.parse_move(bad).expect_err(&format!("'{bad}' is not a move on size 13"));
        assert!(!err.reason.is_empty());
        if !bad.trim().is_empty() {
            assert!(err.reason.contains(bad.trim()), "'{}' quotes '{bad}'", err.reason);
        }
    }
    // Cells of a larger board are not cells of a smaller one.
    let g = trike(5, "");
    for bad in ["f13", "a6", "f5", "e6"] {
        assert!(g.parse_move(bad).is_err(), "{bad} on size 5");
    }
    assert!(g.parse_move("e5").is_ok());
}

#[test]
fn extreme_row_numbers_are_refused_not_a_panic() {
    // A record or a CLI `--moves` argument can carry such text; it once overflowed `number - 1`.
    let g = trike(13, "");
    for bad in ["a2147483647", "a-2147483647", "a-2147483648"] {
        let result = std::panic::catch_unwind(|| g.parse_move(bad).is_err());
        assert_eq!(result.ok(), Some(true), "'{bad}' must be refused without a panic");
    }
}

proptest! {
    #[test]
    fn notation_round_trips_on_every_board(size in 3u8..=19, r in 0i32..19, c in 0i32..19) {
        let g = trike(size, "");
        let text = format!("{}{}", (b'a' + c as u8) as char, r + 1);
        if c <= r && r < size as i32 {
            let m = g.parse_move(&text).expect("a cell of the board");
            prop_assert_eq!(g.move_text(m), text.clone());
            let cell = m.cell().unwrap();
            prop_assert_eq!((g.geometry().row[cell] as i32, g.geometry().col[cell] as i32), (r, c));
            prop_assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
        } else {
            prop_assert!(g.parse_move(&text).is_err(), "{} is off the size-{} board", text, size);
        }
    }

    #[test]
    fn parse_move_never_panics(size in 3u8..=19, text in "\\PC{0,8}|[a-t][-+]?[0-9]{1,10}") {
        let g = trike(size, "");
        if let Ok(m) = g.parse_move(&text) {
            // Whatever it reads is a move of this board whose text reads back the same.
            prop_assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Perft, cross-checked against the naive implementation

#[test]
fn perft_sizes_4_and_5_depth_4() {
    // Depth 1 is N(N+1)/2 and depth 2 is that times 2N - 1 (see above). Depth 3 on size 4 by hand:
    // after a swap the opener's cell has its 6 line moves (10 × 6 = 60); after a line move X → Y,
    // Y's 6 line moves lose X and the cells beyond it, which summed over all pairs is the sum over
    // every cell and direction of L(L+1)/2 for the run length L: 12 for each of the 3 corners, 8 for
    // each of the 6 edge cells, 6 for b3 = 90; so 60 + 60 × 6 - 90 = 330. Depth 4 and size 5 are
    // pinned from the naive implementation, which must agree.
    for (size, pinned) in [(4u8, [10u64, 70, 330, 1326]), (5, [15, 135, 870, 5004])] {
        let crate_counts = perft(&trike(size, ""), 4);
        let naive_counts = naive::Board::new(size as i32).perft(4);
        assert_eq!(crate_counts, naive_counts, "size {size}: crate vs naive");
        assert_eq!(crate_counts, pinned, "size {size}: pinned");
    }
}

#[test]
fn perft_deeper_agrees_with_naive() {
    // Deep enough that games end inside the tree on these small boards.
    for (size, depth) in [(3u8, 8), (4, 7), (5, 6)] {
        assert_eq!(perft(&trike(size, ""), depth), naive::Board::new(size as i32).perft(depth), "size {size}");
    }
    // From a mid-game position on size 7, with the naive board replaying the same texts.
    let moves = "d4 d7 a4 a7 c7";
    let mut b = naive::Board::new(7);
    for t in moves.split_whitespace() {
        let m = b.moves().into_iter().find(|&m| naive::Board::text(m) == t).expect("naive knows the move");
        b.play(m);
    }
    assert_eq!(perft(&trike(7, moves), 5), b.perft(5));
}

#[test]
fn legal_moves_agree_with_naive_in_random_games() {
    // Every size, 40 seeded random games each: same legal moves (as text), same seat to move, same
    // end and scores.
    let mut rng = rng_from_seed(0x7431_7431);
    let mut buf = Vec::new();
    for size in 3u8..=19 {
        for game in 0..40 {
            let mut g = trike(size, "");
            let mut b = naive::Board::new(size as i32);
            loop {
                let ours: BTreeSet<String> = b.moves().into_iter().map(naive::Board::text).collect();
                assert_eq!(legal_texts(&g), ours, "size {size} game {game} ply {}", g.ply());
                assert_eq!(g.to_move().map(|p| p.0), b.to_move());
                assert_eq!(g.outcome().map(|o| [o.scores[0], o.scores[1]]), b.scores());
                let Some(m) = g.random_move(&mut rng, &mut buf) else { break };
                let text = g.move_text(m);
                g.play(m).unwrap();
                let nm = b.moves().into_iter().find(|&m| naive::Board::text(m) == text).unwrap();
                b.play(nm);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random moves

#[test]
fn random_move_is_uniform() {
    // The crate's random_move picks by index into the six runs and the swap; every legal move must
    // be equally likely (the playouts rely on it). 9 replies to b3 on size 5, 15 openings.
    for (moves, count) in [("b3", 9usize), ("", 15), ("a1 e5", 7)] {
        let mut g = trike(5, moves);
        let legal = legal_texts(&g);
        assert_eq!(legal.len(), count);
        let mut rng = rng_from_seed(99);
        let mut tally = std::collections::BTreeMap::<String, usize>::new();
        let draws = 10_000 * count;
        for _ in 0..draws {
            let m = g.random_move(&mut rng, &mut Vec::new()).unwrap();
            *tally.entry(g.move_text(m)).or_default() += 1;
        }
        assert_eq!(tally.keys().cloned().collect::<BTreeSet<_>>(), legal);
        for (text, n) in tally {
            // 10,000 expected, one standard deviation about 95: ±600 is over 6 of them.
            assert!((9_400..=10_600).contains(&n), "{moves}: {text} drawn {n} times of {draws}");
        }
    }
}

#[test]
fn play_moves_names_the_bad_move() {
    let mut g = trike(5, "");
    let err = play_moves(&mut g, "b3 b5 b2").expect_err("b2 is behind b3");
    assert!(err.starts_with("move 3 (b2)") && err.contains("b3"), "'{err}'");
    assert_eq!(g, trike(5, "b3 b5"), "the moves before the bad one are played");
}

/// Named parameters (the command line's `--size 7`) make the options through the default
/// [`Game::options_with`]: a field by its name, a number where the value reads as one; a name the
/// options lack and a value they refuse are told apart.
#[test]
fn named_parameters_make_the_options() {
    use triboard::rules::ParamError;
    assert_eq!(Trike::options_with("trike", &[("size", "7")]), Ok(TrikeOptions { size: 7 }));
    assert_eq!(Trike::options_with("trike", &[]), Ok(TrikeOptions::default()));
    assert_eq!(Trike::options_with("trike", &[("board", "hex-3")]), Err(ParamError::Unknown("board".into())));
    let bad = Trike::options_with("trike", &[("size", "seven")]).unwrap_err();
    assert!(matches!(&bad, ParamError::Bad(why) if why.contains("seven")), "{bad:?}");
    // Out of range is the rules' own check, when the game is made.
    let huge = Trike::options_with("trike", &[("size", "25")]).unwrap();
    assert!(Trike::new(&huge).is_err());
}

/// The move features (`src/rules/trike/features.rs`) equal a naive recount at every ply of random
/// games: each group's bucket is found again by playing the move on a copy and reading the result
/// through the rules' public interface (its checkers, its legal moves, the outcome of each reply).
#[test]
fn move_features_equal_a_naive_recount() {
    use triboard::rules::Knowledge;
    use triboard::rules::trike::features::FEATURE_SET;
    let groups = FEATURE_SET.groups.len();
    let bucket = |g: usize, f: u16| f as usize - FEATURE_SET.offset(g);
    let mut rng = rng_from_seed(77);
    let (mut checked, mut traps, mut ends) = (0, 0, 0);
    for size in [5u8, 7, 13] {
        for _ in 0..6 {
            let mut g = Trike::new(&TrikeOptions { size }).unwrap();
            let (mut legal, mut active) = (Vec::new(), Vec::new());
            while g.outcome().is_none() {
                g.legal_moves(&mut legal);
                g.move_features(&legal, &mut active);
                assert_eq!(active.len(), legal.len() * groups);
                let me = g.to_move().unwrap();
                let filled = (0..g.geometry().cells).filter(|&c| g.checker(c).is_some()).count();
                for (k, &m) in legal.iter().enumerate() {
                    let a = &active[k * groups..(k + 1) * groups];
                    for (i, &f) in a.iter().enumerate() {
                        assert!(f as usize >= FEATURE_SET.offset(i) && bucket(i, f) < FEATURE_SET.groups[i].1);
                    }
                    let Some(t) = m.cell() else {
                        assert_eq!(bucket(0, a[0]), 1, "the swap's kind");
                        continue;
                    };
                    checked += 1;
                    let mut after = g.clone();
                    after.play(m).unwrap();
                    let geo = g.geometry();
                    let mine = after.color_of(me);
                    let neighbours: Vec<usize> =
                        (0..geo.cells).filter(|&c| c != t && geo.around[t].contains(c)).collect();
                    let own = neighbours.iter().filter(|&&c| after.checker(c) == Some(mine)).count();
                    let empty = neighbours.iter().filter(|&&c| after.checker(c).is_none()).count();
                    let their = neighbours.len() - own - empty;
                    assert_eq!(bucket(0, a[0]), if g.pawn().is_none() { 0 } else { 2 });
                    assert_eq!([bucket(1, a[1]), bucket(2, a[2]), bucket(3, a[3])], [own, their, empty]);
                    assert_eq!(bucket(4, a[4]) as i32 - 3, (own as i32 + 1 - their as i32).clamp(-3, 3));
                    let expect_end = match after.outcome() {
                        None => 0,
                        Some(o) if o.winners() == vec![me] => 1,
                        Some(_) => 2,
                    };
                    ends += (expect_end > 0) as usize;
                    assert_eq!(bucket(5, a[5]), expect_end, "ends");
                    let mut replies = Vec::new();
                    after.legal_moves(&mut replies);
                    let (mut winning, mut losing) = (0, 0);
                    for &r in replies.iter().filter(|r| r.cell().is_some()) {
                        let mut next = after.clone();
                        next.play(r).unwrap();
                        if let Some(o) = next.outcome() {
                            traps += 1;
                            if o.winners() == vec![me] { losing += 1 } else { winning += 1 }
                        }
                    }
                    let slides = replies.iter().filter(|r| r.cell().is_some()).count();
                    let expected_replies = match slides {
                        0..=3 => slides,
                        4..=5 => 4,
                        6..=8 => 5,
                        9..=12 => 6,
                        13..=17 => 7,
                        _ => 8,
                    };
                    assert_eq!(bucket(6, a[6]), expected_replies, "replies");
                    assert_eq!([bucket(7, a[7]), bucket(8, a[8])], [winning.min(3), losing.min(2)], "traps");
                    let (r, c) = (geo.row[t] as usize, geo.col[t] as usize);
                    let distance = g.pawn().map_or(0, |p| {
                        let (pr, pc) = (geo.row[p] as i32, geo.col[p] as i32);
                        (r as i32 - pr).abs().max((c as i32 - pc).abs()) as usize
                    });
                    assert_eq!(bucket(9, a[9]), distance.min(6));
                    assert_eq!(bucket(10, a[10]), c.min(r - c).min(size as usize - 1 - r).min(3));
                    assert_eq!(bucket(11, a[11]), (filled * 4 / geo.cells).min(3) * 5 + empty.min(4));
                }
                let m = g.random_move(&mut rng, &mut legal).unwrap();
                g.play(m).unwrap();
            }
        }
    }
    assert!(checked > 2000 && traps > 50 && ends > 10, "{checked} moves, {traps} traps, {ends} ends");
}

// ---- Random games: the shared harness (`tests/common`) with Trike's own checks at every position ----

/// `(row, column)` of a Trike move's text, read with this file's own reading of the notation
/// (`docs/rules/trike.md` §Board: column letter, row number), so the checks below do not lean on the
/// crate's tables.
fn coords(text: &str) -> (i32, i32) {
    let c = text.as_bytes()[0] as i32 - b'a' as i32;
    let r: i32 = text[1..].parse().expect("a cell's text ends in its row number");
    (r - 1, c)
}

/// How many of the six neighbour steps (`docs/rules/trike.md` §Board) stay on a side-`n` board.
fn neighbours_on_board(n: i32, (r, c): (i32, i32)) -> usize {
    [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)]
        .iter()
        .filter(|(dr, dc)| {
            let (r2, c2) = (r + dr, c + dc);
            0 <= c2 && c2 <= r2 && r2 < n
        })
        .count()
}

/// Trike's own rules, checked at every position of a random game.
fn trike_checks(size: u8) -> impl FnMut(Position<'_, Trike>) {
    let n = size as i32;
    move |Position { state, history, legal, .. }| {
        let ply = history.len();
        let texts: Vec<String> = history.iter().map(|&m| state.move_text(m)).collect();
        let swapped = texts.get(1).is_some_and(|t| t == "swap");
        assert_eq!(state.swapped(), swapped);

        // §Play 1 and 2: the opening is any cell; the reply is a line move or `swap`, and `swap`
        // exists at ply 1 only. From an empty board every cell sees 2N - 2 cells along its three
        // lines (r + (N-1-c) + (N-1-(r-c))), hence 2N - 1 replies.
        let has_swap = legal.contains(&TrikeMove::SWAP);
        assert_eq!(has_swap, ply == 1, "swap offered at ply {ply}: {texts:?}");
        assert_eq!(state.swap_available(), ply == 1);
        match ply {
            0 => assert_eq!(legal.len() as i32, n * (n + 1) / 2),
            1 => assert_eq!(legal.len() as i32, 2 * n - 1, "replies to {}", texts[0]),
            _ => {}
        }

        // §Play 3: checkers alternate Black, White, … in placement order whatever the swap did;
        // no cell gets two checkers; the pawn is on the last placement.
        let placements: Vec<&String> = texts.iter().filter(|t| *t != "swap").collect();
        let mut colour_at: HashMap<&str, Color> = HashMap::new();
        for (k, t) in placements.iter().enumerate() {
            let colour = if k % 2 == 0 { Color::Black } else { Color::White };
            assert!(colour_at.insert(t.as_str(), colour).is_none(), "{t} placed twice: {texts:?}");
        }
        for (t, &colour) in &colour_at {
            let cell = state.parse_move(t).unwrap().cell().unwrap();
            assert_eq!(state.checker(cell), Some(colour), "checker on {t}");
        }
        let occupied = (0..state.geometry().cells).filter(|&c| state.checker(c).is_some()).count();
        assert_eq!(occupied, placements.len(), "one checker per placement");
        let pawn_text = state.pawn().map(|c| state.move_text(TrikeMove::to(c)));
        assert_eq!(pawn_text.as_ref(), placements.last().copied());

        // The seat to move: the colour after the last placement, played by the seat that holds it.
        let colour_to_move = if placements.len().is_multiple_of(2) { Color::Black } else { Color::White };
        let seat_of_colour = |colour: Color| (colour as u8) ^ swapped as u8;
        if let Some(seat) = state.to_move() {
            assert_eq!(seat.0, seat_of_colour(colour_to_move), "seat to move after {texts:?}");
            assert_eq!(state.color_of(seat), colour_to_move);
        }

        // §End and score.
        match state.scored_cells() {
            None => assert!(state.to_move().is_some(), "scored cells exist once the game is over"),
            Some(scored) => {
                let pawn = state.pawn().expect("a finished game has a pawn");
                let (pr, pc) = coords(&state.move_text(TrikeMove::to(pawn)));
                let expected = 1 + neighbours_on_board(n, (pr, pc));
                assert_eq!(scored.count() as usize, expected, "scored cells around {pr},{pc}");
                assert!(matches!(expected, 3 | 5 | 7));
                // Trapped: every scored cell holds a checker, and each is the pawn or adjacent to it.
                for cell in scored.iter() {
                    assert!(state.checker(cell).is_some(), "a trapped pawn's scored cell is empty");
                    let (r, c) = coords(&state.move_text(TrikeMove::to(cell)));
                    let (dr, dc) = (r - pr, c - pc);
                    assert!(
                        [(0, 0), (-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)].contains(&(dr, dc)),
                        "scored cell ({r},{c}) is not around the pawn ({pr},{pc})"
                    );
                }
                // "The scored cells always include the last two checkers."
                for t in placements.iter().rev().take(2) {
                    let cell = state.parse_move(t).unwrap().cell().unwrap();
                    assert!(scored.contains(cell), "last checker {t} outside the scored cells");
                }
                // Scores per seat from the checkers' colours and the seat ⇄ colour map.
                let outcome = state.outcome().unwrap();
                let mut by_seat = [0i32; 2];
                for cell in scored.iter() {
                    let colour = state.checker(cell).unwrap();
                    by_seat[seat_of_colour(colour) as usize] += 1;
                }
                assert_eq!(outcome.scores[..2], by_seat, "scores by seat after {texts:?}");
                assert_eq!((by_seat[0] + by_seat[1]) % 2, 1, "an odd number of scored cells");
                assert_eq!(outcome.winners().len(), 1, "exactly one winner");
                let winner = if by_seat[0] > by_seat[1] { 0 } else { 1 };
                assert_eq!(outcome.winners()[0].0, winner);
                assert_eq!(outcome.ranks[winner as usize], 1.0);
                assert_eq!(outcome.ranks[1 - winner as usize], 0.0);
            }
        }
    }
}

fn run_trike(size: u8, games: usize, seed: u64) -> Stats {
    // A game fills at most every cell, plus the swap; at least the opening, a reply and a trap.
    let cells = size as usize * (size as usize + 1) / 2;
    let stats = random_games(&Run::<Trike>::new(TrikeOptions { size }, games, seed, cells + 1), trike_checks(size));
    assert_eq!(stats.games, games);
    assert_eq!(stats.wins[0] + stats.wins[1], games, "one winner per game: {stats:?}");
    assert!(stats.max_plies <= cells + 1 && stats.max_plies >= 3, "{stats:?}");
    assert!(stats.refusals_checked > 0);
    eprintln!("trike size {size}: {stats:?}");
    stats
}

// 12,000 games in all, most on the small boards where the harness is cheap per game.

#[test]
fn trike_size_3() {
    let stats = run_trike(3, 4_000, 0x7431_0003);
    // Size 3 is small enough that both seats must win some of 4,000 random games.
    assert!(stats.wins[0] > 0 && stats.wins[1] > 0, "{stats:?}");
}

#[test]
fn trike_size_7() {
    run_trike(7, 3_000, 0x7431_0007);
}

#[test]
fn trike_size_13() {
    run_trike(13, 3_000, 0x7431_0013);
}

#[test]
fn trike_size_19() {
    run_trike(19, 2_000, 0x7431_0019);
}
