//! Trisq's rules (`docs/rules/trisq.md`): counts on the empty board, the end-of-turn bridging condition
//! in hand-built positions, and random games checked against a naive reading of the rules.

mod common;

use common::{Position, Run, Stats, trisq_universe};
use triboard::rules::geometry::trisq::{BOTTOM, LEFT, RIGHT, TOP, TrisqBoard};
use triboard::rules::trisq::{Trisq, TrisqMove, TrisqOptions};
use triboard::rules::{Game, Player, play_moves, rng_from_seed};

fn trisq(size: u8) -> Trisq {
    Trisq::new(&TrisqOptions { size }).unwrap()
}

fn legal(game: &Trisq) -> Vec<TrisqMove> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// §What a test can rely on: every slot is a legal first placement.
#[test]
fn empty_board_single_placements() {
    assert_eq!(legal(&trisq(8)).len(), 512);
    assert_eq!(legal(&trisq(6)).len(), 288);
}

/// The pieces of colour `c`.
fn pieces(game: &Trisq, c: u8) -> Vec<usize> {
    (0..game.board().slots()).filter(|&s| game.piece(s) == Some(c)).collect()
}

/// §Play, read naively: every two point-adjacent pieces of `c` have a third of `c` edge-adjacent
/// to both.
fn bridged_everywhere(game: &Trisq, c: u8) -> bool {
    bridged_set(game.board(), &pieces(game, c))
}

/// §Play over a set of one colour's pieces.
fn bridged_set(b: &TrisqBoard, own: &[usize]) -> bool {
    own.iter().all(|&p| {
        b.point_adjacent[p].iter().map(|&q| q as usize).filter(|q| own.contains(q)).all(|q| {
            own.iter().any(|&r| b.edge_adjacent[r].contains(&(p as u16)) && b.edge_adjacent[r].contains(&(q as u16)))
        })
    })
}

/// §End, read naively: a path of edge-adjacent pieces of `c` from one of its edges to the other.
fn connected(game: &Trisq, c: u8) -> bool {
    connected_set(game.board(), &pieces(game, c), c)
}

/// §End over a set of colour `c`'s pieces.
fn connected_set(b: &TrisqBoard, own: &[usize], c: u8) -> bool {
    let (from, to) = if c == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
    let mut seen: Vec<usize> = own.iter().copied().filter(|&s| b.edges[s] & from != 0).collect();
    let mut k = 0;
    while k < seen.len() {
        let s = seen[k];
        if b.edges[s] & to != 0 {
            return true;
        }
        for &n in &b.edge_adjacent[s] {
            if own.contains(&(n as usize)) && !seen.contains(&(n as usize)) {
                seen.push(n as usize);
            }
        }
        k += 1;
    }
    false
}

/// The legal moves read naively from the rules file, over whole-board checks: a slot is free when
/// empty and no piece of the other filling is in its square; a turn is legal when the mover's pieces
/// are bridged everywhere or connected; a first piece is legal alone or with some second one.
fn naive_legal(g: &Trisq) -> Vec<TrisqMove> {
    let b = g.board();
    let c = g.to_move().unwrap().0;
    let own = pieces(g, c);
    let free = |s: usize, extra: &[usize]| {
        let square = 8 * (s / 8)..8 * (s / 8) + 8;
        g.piece(s).is_none()
            && !extra.contains(&s)
            && square.filter(|&x| x / 4 != s / 4).all(|x| g.piece(x).is_none() && !extra.contains(&x))
    };
    let ok = |set: &[usize]| bridged_set(b, set) || connected_set(b, set, c);
    let with = |extra: &[usize]| own.iter().chain(extra).copied().collect::<Vec<_>>();
    let mut out = Vec::new();
    match g.first_placed() {
        None => {
            for s in (0..b.slots()).filter(|&s| free(s, &[])) {
                if g.ply() == 0 || ok(&with(&[s])) || (0..b.slots()).any(|t| free(t, &[s]) && ok(&with(&[s, t]))) {
                    out.push(TrisqMove::place(s));
                }
            }
        }
        Some(_) => {
            out.extend((0..b.slots()).filter(|&t| free(t, &[]) && ok(&with(&[t]))).map(TrisqMove::place));
            if bridged_set(b, &own) {
                out.push(TrisqMove::END);
            }
        }
    }
    out
}

/// The engine's legal moves equal the naive reading at every position of random games on small
/// boards (and every tenth position on 6×6).
#[test]
fn legal_moves_match_a_naive_reading_of_the_rules() {
    let mut positions = 0;
    for (size, games) in [(2u8, 60u64), (3, 60), (4, 30), (5, 12), (6, 4)] {
        for seed in 0..games {
            let mut g = trisq(size);
            let mut rng = rng_from_seed(seed + 1000 * size as u64);
            let mut buf = Vec::new();
            while g.to_move().is_some() {
                if size < 6 || g.ply() % 10 == 3 {
                    let mut moves = legal(&g);
                    moves.sort_by_key(|m| m.slot().unwrap_or(usize::MAX));
                    assert_eq!(moves, naive_legal(&g), "size {size} seed {seed} ply {}:\n{}", g.ply(), g.board_text());
                    positions += 1;
                }
                let mv = g.random_move(&mut rng, &mut buf).unwrap();
                g.play(mv).unwrap();
            }
        }
    }
    assert!(positions > 3000, "{positions} positions");
}

#[test]
fn notation_round_trips_and_refuses_nonsense() {
    let g = trisq(8);
    for mv in legal(&g) {
        assert_eq!(g.parse_move(&g.move_text(mv)).unwrap(), mv);
    }
    assert_eq!(g.move_text(g.parse_move("a1H0").unwrap()), "a1H0");
    assert_eq!(g.parse_move("a1H0").unwrap().slot(), Some(0));
    assert_eq!(g.parse_move("b1V3").unwrap().slot(), Some(8 + 4 + 3));
    for bad in ["i1H0", "a9H0", "a1X0", "a1H4", "a0H1", "", "c4"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    assert_eq!(g.parse_move("end").unwrap(), TrisqMove::END);
}

#[test]
fn red_opens_with_one_piece_then_turns_are_one_or_two() {
    let mut g = trisq(6);
    play_moves(&mut g, "c3H0").unwrap();
    assert_eq!(g.to_move(), Some(Player(1)), "Red's first turn is one piece");
    assert!(g.is_turn_boundary());
    play_moves(&mut g, "a1H0").unwrap();
    assert_eq!(g.to_move(), Some(Player(1)));
    assert!(!g.is_turn_boundary());
    // After one piece: end, or a second piece.
    assert!(legal(&g).contains(&TrisqMove::END));
    play_moves(&mut g, "f6H3").unwrap();
    assert_eq!(g.to_move(), Some(Player(0)), "a second piece ends the turn");
    play_moves(&mut g, "d4H0 end").unwrap();
    assert_eq!(g.to_move(), Some(Player(1)));
    // The filling of a square is fixed by its first piece: c3 is H now.
    assert!(g.parse_move("c3V0").map(|mv| g.clone().play(mv).is_err()).unwrap());
}

#[test]
fn a_point_contact_needs_a_bridge_and_forces_the_second_piece() {
    // Blue holds p; on its next turn it places q, point-adjacent to p. Alone q is not a turn (no
    // bridge): `end` is refused and the second piece must be a bridge of p and q.
    let b = TrisqBoard::get(5);
    let g0 = trisq(5);
    let name = |s: usize| g0.move_text(TrisqMove::place(s));
    let red_far = [(4, 4), (4, 0)].map(|sq| (0..b.slots()).find(|&s| b.square(s) == sq).unwrap());
    let mut checked = 0;
    for p in 0..b.slots() {
        let (pc, pr) = b.square(p);
        if !(1..=2).contains(&pc) || !(1..=2).contains(&pr) {
            continue;
        }
        for &q in &b.point_adjacent[p] {
            let q = q as usize;
            let mut g = trisq(5);
            play_moves(&mut g, &format!("{} {} end {} end", name(red_far[0]), name(p), name(red_far[1]))).unwrap();
            if g.play(TrisqMove::place(q)).is_err() {
                continue;
            }
            let moves = legal(&g);
            assert!(!moves.contains(&TrisqMove::END), "{} then {}: end is offered", name(p), name(q));
            let err = g.clone().play(TrisqMove::END).unwrap_err().reason;
            assert_eq!(g.end_blocker(), Some((q, p)));
            assert!(err.contains("cannot end") && err.contains("without a bridge"), "{err}");
            assert!(!moves.is_empty());
            for mv in moves {
                let r = mv.slot().unwrap();
                assert!(
                    b.edge_adjacent[r].contains(&(p as u16)) && b.edge_adjacent[r].contains(&(q as u16)),
                    "{} after {} {} is no bridge",
                    name(r),
                    name(p),
                    name(q)
                );
                let mut h = g.clone();
                h.play(mv).unwrap();
                assert!(bridged_everywhere(&h, 1));
            }
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} forced seconds found");
}

#[test]
fn random_games_keep_the_rules() {
    let mut games = 0;
    // `docs/rules/trisq.md` §What a test can rely on, over sizes 2–9: 10,000 games.
    for size in 2..=9u8 {
        let count = match size {
            2 | 3 => 3_000,
            4 | 5 => 1_500,
            6 => 400,
            7 => 300,
            8 => 200,
            _ => 100,
        };
        for seed in 0..count {
            games += 1;
            let mut g = trisq(size);
            let mut rng = rng_from_seed(seed * 31 + size as u64);
            let mut buf = Vec::new();
            while g.to_move().is_some() {
                let mover = g.to_move().unwrap().0;
                let moves = legal(&g);
                assert!(!moves.is_empty(), "size {size} seed {seed}: the player to move has no legal move");
                let mv = g.random_move(&mut rng, &mut buf).unwrap();
                assert!(moves.contains(&mv));
                g.play(mv).unwrap_or_else(|e| panic!("size {size} seed {seed}: {e}"));
                if g.to_move().is_some() && g.is_turn_boundary() {
                    assert!(bridged_everywhere(&g, mover), "size {size} seed {seed}: an unbridged point contact");
                }
            }
            let winner = g.winner().expect("a finished game has a winner").0;
            assert!(connected(&g, winner), "size {size} seed {seed}: the winner is connected");
            assert!(!connected(&g, 1 - winner), "size {size} seed {seed}: never both connected");
            let chain = g.winning_chain();
            let b = g.board();
            let (ea, eb) = if winner == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
            assert!(b.edges[chain[chain.len() - 1]] & ea != 0 && b.edges[chain[0]] & eb != 0);
            assert!(chain.iter().all(|&s| g.piece(s) == Some(winner)));
            assert!(chain.windows(2).all(|w| b.edge_adjacent[w[0]].contains(&(w[1] as u16))));
        }
    }
    assert_eq!(games, 10_000);
}

/// `random_move` is uniform over the legal moves (rejection over the open slots, forced seconds
/// from their candidates): at positions of random games on 4×4, 200 draws per legal move hit every
/// move within ±35 % of the mean (5 standard deviations).
#[test]
fn random_move_is_uniform_over_the_legal_moves() {
    let mut checked = [0; 3]; // turn starts, optional seconds, forced seconds
    for seed in 0..40 {
        let mut g = trisq(4);
        let mut rng = rng_from_seed(seed);
        let mut buf = Vec::new();
        while g.to_move().is_some() {
            if g.ply() % 7 == 2 || g.end_blocker().is_some() {
                let moves = legal(&g);
                let draws = 200 * moves.len();
                let mut counts = std::collections::HashMap::new();
                for _ in 0..draws {
                    let mv = g.clone().random_move(&mut rng, &mut buf).unwrap();
                    *counts.entry(mv).or_insert(0) += 1;
                }
                assert_eq!(
                    counts.len(),
                    moves.len(),
                    "seed {seed} ply {}: a move never drawn or an illegal one",
                    g.ply()
                );
                assert!(counts.values().all(|&n| (130..=270).contains(&n)), "seed {seed} ply {}: {counts:?}", g.ply());
                let kind = match (g.first_placed(), g.end_blocker()) {
                    (None, _) => 0,
                    (Some(_), None) => 1,
                    _ => 2,
                };
                checked[kind] += 1;
            }
            let mv = g.random_move(&mut rng, &mut buf).unwrap();
            g.play(mv).unwrap();
        }
    }
    assert!(checked.iter().all(|&n| n >= 5), "{checked:?}");
}

/// Records (`docs/design.md`): a finished game round-trips through JSON to the same position,
/// and a record whose turn ends without a bridge is refused at that move, with the reason.
#[test]
fn records_round_trip_and_refuse_an_unbridged_end() {
    use triboard::rules::record::{Record, RecordError};
    for (size, seed) in [(4u8, 1u64), (8, 2)] {
        let mut end = trisq(size);
        let (mut rng, mut buf, mut moves) = (rng_from_seed(seed), Vec::new(), Vec::new());
        while let Some(mv) = end.random_move(&mut rng, &mut buf) {
            end.play(mv).unwrap();
            moves.push(mv);
        }
        let record = Record::new(&end, &moves);
        assert_eq!(record.game_id(), "trisq");
        let (_, replayed, replayed_moves) = Record::from_json(&record.to_json()).unwrap().replay::<Trisq>().unwrap();
        assert_eq!(replayed_moves, moves);
        assert_eq!(replayed.board_text(), end.board_text());
        assert_eq!(replayed.winner(), end.winner());
        assert_eq!(replayed.winning_chain(), end.winning_chain());
    }
    let json = r#"{"game":"trisq","options":{"size":8},"moves":["a8H0","c3H3","end","h8H3","h7H3","d4H0","end"]}"#;
    let err = Record::from_json(json).unwrap().replay::<Trisq>().map(|_| ()).unwrap_err();
    let RecordError::Move { number, text, reason } = &err else { panic!("{err:?}") };
    assert_eq!((*number, text.as_str()), (7, "end"));
    assert!(reason.contains("d4H0") && reason.contains("c3H3") && reason.contains("without a bridge"), "{reason}");
}

// ---- The shared random-game harness (`tests/common`) ----

/// Trisq's own rules at every position of a harness game, read naively (`docs/rules/trisq.md` §Play,
/// §End): the pieces of the colour not to move are bridged everywhere, and so are both colours'
/// between turns; `end` is offered exactly after a first piece with no unbridged contact; at the
/// end the winner is connected, the loser is not, and the winning chain runs edge to edge through
/// edge-adjacent pieces of the winner; the winner moved last.
fn trisq_checks(Position { state, history, legal, .. }: Position<'_, Trisq>) {
    let b = state.board();
    match state.to_move() {
        Some(Player(mover)) => {
            assert!(bridged_everywhere(state, 1 - mover), "the colour not to move is bridged");
            if state.is_turn_boundary() {
                assert!(bridged_everywhere(state, mover), "between turns the mover is bridged");
                assert_eq!(state.first_placed(), None);
            }
            let offers_end = legal.contains(&TrisqMove::END);
            let may_end = state.first_placed().is_some() && state.end_blocker().is_none() && history.len() > 1;
            assert_eq!(offers_end, may_end, "end offered at ply {}", history.len());
            assert!(!connected(state, 0) && !connected(state, 1), "nobody connected while play goes on");
            assert!(state.winning_chain().is_empty());
        }
        None => {
            let winner = state.winner().expect("a finished game has a winner").0;
            assert!(connected(state, winner), "the winner is connected");
            assert!(!connected(state, 1 - winner), "never both connected");
            let last = history.last().and_then(|m| m.slot()).expect("the winning move is a placement");
            assert_eq!(state.piece(last), Some(winner), "the winner made the last move");
            let chain = state.winning_chain();
            let (ea, eb) = if winner == 0 { (TOP, BOTTOM) } else { (LEFT, RIGHT) };
            assert!(b.edges[chain[chain.len() - 1]] & ea != 0 && b.edges[chain[0]] & eb != 0);
            assert!(chain.iter().all(|&s| state.piece(s) == Some(winner)));
            assert!(chain.windows(2).all(|w| b.edge_adjacent[w[0]].contains(&(w[1] as u16))));
            assert_eq!(state.outcome().unwrap().winners(), [Player(winner)]);
        }
    }
}

fn run_trisq(size: u8, games: usize, seed: u64, sample: Option<usize>) -> Stats {
    let start = trisq(size);
    // A turn places one or two pieces and may add `end`: at most two plies a piece, and a square
    // holds at most four pieces.
    let max_plies = 2 * 4 * size as usize * size as usize;
    let mut run =
        Run::<Trisq>::new(TrisqOptions { size }, games, seed, max_plies).with_universe(trisq_universe(&start));
    run.refusal_sample = sample;
    let stats = common::random_games(&run, trisq_checks);
    assert_eq!(stats.wins[0] + stats.wins[1], games, "one winner per game: {stats:?}");
    assert!(stats.refusals_checked > stats.positions, "{stats:?}");
    eprintln!("trisq size {size}: {stats:?}");
    stats
}

/// Small boards try every slot and `end` at every position; 6×6 and up a sample of 100.
#[test]
fn harness_small_boards() {
    let stats = run_trisq(2, 300, 0x7150_0002, None);
    assert!(stats.wins[0] > 0 && stats.wins[1] > 0, "{stats:?}");
    run_trisq(3, 150, 0x7150_0003, None);
    run_trisq(4, 80, 0x7150_0004, None);
    run_trisq(5, 40, 0x7150_0005, None);
}

#[test]
fn harness_play_boards() {
    run_trisq(6, 20, 0x7150_0006, Some(100));
    run_trisq(8, 10, 0x7150_0008, Some(100));
    run_trisq(9, 5, 0x7150_0009, Some(100));
}

/// The move features (`src/rules/trisq/features.rs`) equal a naive recount at every ply of random
/// games on 5 × 5 and 8 × 8: the slack by a plain Dijkstra over the board's adjacency lists (own
/// pieces free, open slots one piece), the rest through the rules' public interface; `answer` is
/// only checked to be 0 or 1.
#[test]
fn move_features_equal_a_naive_recount() {
    use triboard::rules::Knowledge;
    use triboard::rules::trisq::features::FEATURE_SET;
    let groups = FEATURE_SET.groups.len();
    let bucket = |g: usize, f: u16| f as usize - FEATURE_SET.offset(g);
    // For colour c: each slot's slack (pieces more than the fewest a chain through it needs).
    let slack = |g: &Trisq, c: u8| -> Vec<u32> {
        let b = g.board();
        let n = b.slots();
        let cost = |s: usize| match g.piece(s) {
            Some(p) if p == c => Some(0),
            None if g.available(s) => Some(1),
            _ => None,
        };
        let edge_bits = if c == 0 { [TOP, BOTTOM] } else { [LEFT, RIGHT] };
        let dist_from = |bit: u8| {
            let mut dist = vec![u32::MAX; n];
            let mut done = vec![false; n];
            for (s, d) in dist.iter_mut().enumerate() {
                if b.edges[s] & bit != 0
                    && let Some(k) = cost(s)
                {
                    *d = k;
                }
            }
            while let Some(s) = (0..n).filter(|&s| !done[s] && dist[s] != u32::MAX).min_by_key(|&s| dist[s]) {
                done[s] = true;
                for &t in &b.edge_adjacent[s] {
                    let t = t as usize;
                    if let Some(k) = cost(t) {
                        dist[t] = dist[t].min(dist[s] + k);
                    }
                }
            }
            dist
        };
        let (da, db) = (dist_from(edge_bits[0]), dist_from(edge_bits[1]));
        let through: Vec<u32> = (0..n)
            .map(|s| if da[s] == u32::MAX || db[s] == u32::MAX { u32::MAX } else { da[s] + db[s] - cost(s).unwrap() })
            .collect();
        let best = through.iter().copied().min().unwrap();
        through.iter().map(|&t| if t == u32::MAX { t } else { t - best }).collect()
    };
    let mut rng = rng_from_seed(4);
    let mut checked = 0;
    for size in [5u8, 8] {
        for _ in 0..2 {
            let mut g = trisq(size);
            let (mut moves, mut active) = (Vec::new(), Vec::new());
            while g.winner().is_none() {
                g.legal_moves(&mut moves);
                g.move_features(&moves, &mut active);
                assert_eq!(active.len(), moves.len() * groups);
                let me = g.to_move().unwrap().0;
                let (mine, theirs) = (slack(&g, me), slack(&g, 1 - me));
                let b = g.board();
                let pieces = (0..b.slots()).filter(|&s| g.piece(s).is_some()).count();
                let phase = match pieces {
                    0..=3 => 0,
                    4..=9 => 1,
                    10..=19 => 2,
                    _ => 3,
                };
                let kind = g.first_placed().is_some() as usize;
                let own_edges = if me == 0 { TOP | BOTTOM } else { LEFT | RIGHT };
                for (k, &m) in moves.iter().enumerate() {
                    let a: Vec<usize> =
                        active[k * groups..(k + 1) * groups].iter().enumerate().map(|(i, &f)| bucket(i, f)).collect();
                    assert!(a[5] <= 1);
                    let Some(s) = m.slot() else {
                        assert_eq!((a[0], a[9]), (2, phase * 3 + 2), "end");
                        continue;
                    };
                    let near =
                        |c: u8| b.edge_adjacent[s].iter().filter(|&&t| g.piece(t as usize) == Some(c)).count().min(3);
                    let sb = |x: u32| if x == u32::MAX { 4 } else { x.min(3) as usize };
                    let mut after = g.clone();
                    after.play(m).unwrap();
                    let expected = [
                        kind,
                        sb(mine[s]),
                        sb(theirs[s]),
                        near(me),
                        near(1 - me),
                        a[5],
                        (b.edges[s] & own_edges != 0) as usize,
                        (b.edges[s] & !own_edges & (TOP | BOTTOM | LEFT | RIGHT) != 0) as usize,
                        (after.winner() == Some(Player(me))) as usize,
                        phase * 3 + kind,
                        s % 8 + 8 * me as usize,
                    ];
                    assert_eq!(a, expected, "{}", g.move_text(m));
                    checked += 1;
                }
                let m = g.random_move(&mut rng, &mut moves).unwrap();
                g.play(m).unwrap();
            }
        }
    }
    assert!(checked > 2000, "{checked} moves checked");
}
