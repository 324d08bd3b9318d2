//! The search's knowledge of Blokus Trigon (`src/rules/trigon/knowledge.rs`): pruning keeps a move,
//! priors rank big pieces first, the playout policy plays legal moves and big pieces, and the
//! first player of `trigon-2` breaks the second player's mirror strategy (`docs/rules/trigon.md`
//! §Variants).

use std::time::Duration;

use triboard::ai::{Budget, Mcts, SearchConfig};
use triboard::rules::trigon::{Trigon, TrigonMove, TrigonOptions, Variant};
use triboard::rules::{Game, Knowledge, rng_from_seed};

fn game(variant: Variant) -> Trigon {
    Trigon::new(&TrigonOptions { variant }).unwrap()
}

fn size(g: &Trigon, mv: TrigonMove) -> usize {
    if mv == TrigonMove::PASS { 0 } else { g.tables().placements[mv.0 as usize].cells.len() }
}

/// In random games: the search's moves are legal and never empty while a move exists; the
/// opening keeps only the biggest pieces; priors are one per move, in `[0, 1]`; playouts play
/// legal moves.
#[test]
fn pruning_priors_and_playouts_stay_within_the_rules() {
    let (mut legal, mut search, mut priors, mut buf) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for variant in [Variant::Four, Variant::Two, Variant::Three] {
        for seed in 0..20 {
            let mut rng = rng_from_seed(seed);
            let mut g = game(variant);
            let mut placed = [0usize; 4];
            while let Some(c) = g.colour_to_move() {
                g.legal_moves(&mut legal);
                g.search_moves(&mut search);
                assert!(!search.is_empty() && search.iter().all(|m| legal.contains(m)));
                if placed[c] < 3 && legal.iter().any(|&m| size(&g, m) == 6) {
                    assert!(search.iter().all(|&m| size(&g, m) == 6), "the opening is played with size-6 pieces");
                }
                g.move_priors(&search, &mut priors);
                assert_eq!(priors.len(), search.len());
                assert!(priors.iter().all(|&(v, w)| (0.0..=1.0).contains(&v) && w >= 0.0));
                let mv = g.playout_move(&mut rng, &mut buf).unwrap();
                assert!(legal.contains(&mv), "{variant:?} seed {seed}: the playout move is legal");
                if mv != TrigonMove::PASS {
                    placed[c] += 1;
                }
                g.play(mv).unwrap();
            }
        }
    }
}

/// The playout policy plays the biggest piece that fits where it plays: over random games, its
/// colours place more triangles than uniformly random ones.
#[test]
fn big_first_playouts_place_more_than_random_ones() {
    let total = |policy: bool| {
        let mut buf = Vec::new();
        let mut sum = 0;
        for seed in 0..100 {
            let mut rng = rng_from_seed(seed);
            let mut g = game(Variant::Four);
            while g.to_move().is_some() {
                let mv = if policy { g.playout_move(&mut rng, &mut buf) } else { g.random_move(&mut rng, &mut buf) };
                g.play(mv.unwrap()).unwrap();
            }
            sum += (0..4).map(|c| g.colour_score(c)).sum::<i32>();
        }
        sum
    };
    let (policy, random) = (total(true), total(false));
    // Measured: 333 against 314 triangles per game; at least 10 more is required.
    assert!(policy > random + 100 * 10, "policy {policy} vs random {random} triangles over 100 games");
}

/// The mirror strategy: Yellow answers each Blue move, and Green each Red move, with its point
/// reflection through the centre. The first player (Blue/Red) searching with its knowledge must
/// make a move that cannot be mirrored before the game ends.
#[test]
fn the_first_player_of_trigon_2_breaks_a_mirroring_opponent() {
    let mut g = game(Variant::Two);
    let t = g.tables();
    let n = t.board.cells();
    let mut broken = false;
    let mut last = TrigonMove::PASS;
    while let Some(c) = g.colour_to_move() {
        let mv = if c % 2 == 0 {
            let mut m = Mcts::new(&g, SearchConfig { seed: g.ply() as u64, ..SearchConfig::default() });
            m.run(Budget { simulations: 300, max_time: Duration::from_secs(60) });
            m.best_move().unwrap()
        } else {
            // The mirror of the partner colour's last move, if it is a legal move here.
            let mirrored = (last != TrigonMove::PASS)
                .then(|| {
                    let cells: Vec<String> = t.placements[last.0 as usize]
                        .cells
                        .iter()
                        .map(|&x| t.board.label(n - 1 - x as usize))
                        .collect();
                    g.parse_move(&cells.join(",")).ok()
                })
                .flatten()
                .filter(|&m| g.clone().play(m).is_ok());
            match mirrored {
                Some(m) => m,
                None => {
                    broken = true;
                    let mut legal = Vec::new();
                    g.legal_moves(&mut legal);
                    legal[0]
                }
            }
        };
        last = mv;
        g.play(mv).unwrap();
        if broken {
            break;
        }
    }
    assert!(broken, "the mirror held to the end: {g:?}");
}

/// The playout policy answers locally: where the colour to move can cover one of its attach points
/// that touches an opponent's last placement at a corner and is that opponent's attach point too,
/// its playout move covers one in most positions (the random draws can miss), far more often than
/// a random move does.
#[test]
fn playouts_answer_the_opponents_last_placements() {
    let (mut legal, mut buf) = (Vec::new(), Vec::new());
    let (mut positions, mut policy_local, mut random_local) = (0, 0, 0);
    for seed in 0..24 {
        let mut rng = rng_from_seed(seed);
        let mut g = game(Variant::Two);
        let mut last = [None; 4];
        while let Some(c) = g.colour_to_move() {
            let mine = g.attach_points(c);
            let mut local = Vec::new();
            for (o, mv) in last.iter().enumerate() {
                if let Some(TrigonMove(k)) = *mv
                    && g.player_of(o) != g.player_of(c)
                {
                    let ring = g.tables().placements[k as usize].corner_ring.and(&g.attach_points(o)).and(&mine);
                    local.extend(ring.iter());
                }
            }
            g.legal_moves(&mut legal);
            let covers = |g: &Trigon, mv: TrigonMove| {
                mv != TrigonMove::PASS
                    && g.tables().placements[mv.0 as usize].cells.iter().any(|&x| local.contains(&(x as usize)))
            };
            if g.pieces_left(c).count_ones() < 22 && legal.iter().any(|&m| covers(&g, m)) {
                positions += 1;
                policy_local += usize::from(covers(&g, g.clone().playout_move(&mut rng, &mut buf).unwrap()));
                random_local += usize::from(covers(&g, g.clone().random_move(&mut rng, &mut buf).unwrap()));
            }
            let mv = g.clone().random_move(&mut rng, &mut buf).unwrap();
            g.play(mv).unwrap();
            last[c] = (mv != TrigonMove::PASS).then_some(mv);
        }
    }
    assert!(positions > 200, "{positions} positions with a local answer");
    eprintln!("local answers: policy {policy_local}, random {random_local} of {positions}");
    assert!(policy_local * 10 >= positions * 8, "playouts answered locally in {policy_local} of {positions}");
    assert!(policy_local > 2 * random_local, "policy {policy_local}, random {random_local} of {positions}");
}
