//! The search's knowledge of Blokus Trigon (`src/rules/trigon/knowledge.rs`): pruning keeps a move,
//! priors rank big pieces first, the playout policy plays legal moves and big pieces, and the
//! first player of `trigon-2` breaks the second player's mirror strategy (`docs/rules/trigon.md`
//! §Variants).

use std::time::Duration;

use triboard::ai::{Budget, Mcts, SearchConfig};
use triboard::rules::trigon::{Trigon, TrigonMove, TrigonOptions, Variant};
use triboard::rules::{Game, Knowledge, random_index, rng_from_seed};

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

/// The playout policy answers locally (`playout.rs`, the frontier response): where the colour to
/// move can cover one of Pentobi's local points — an attach point an opponent's last placement
/// created, or an empty cell beside one — its playout move covers one in over half the positions
/// (a few random draws, which can miss: cheap draws won their SPRT), 2.5 times as often as a
/// random move or more.
#[test]
fn playouts_answer_the_opponents_last_placements() {
    let (mut legal, mut buf) = (Vec::new(), Vec::new());
    let (mut positions, mut policy_local, mut random_local) = (0, 0, 0);
    for seed in 0..24 {
        let mut rng = rng_from_seed(seed);
        let mut g = game(Variant::Two);
        let mut last = [None; 4];
        while let Some(c) = g.colour_to_move() {
            let mut local = Vec::new();
            for (o, mv) in last.iter().enumerate() {
                if let Some(TrigonMove(k)) = *mv
                    && g.player_of(o) != g.player_of(c)
                {
                    let ring = g.tables().placements[k as usize].corner_ring.and(&g.attach_points(o));
                    for x in ring.iter() {
                        local.push(x);
                        let beside = g.tables().edge_neighbours[x].iter().map(|&y| y as usize);
                        local.extend(beside.filter(|&y| y < g.tables().board.cells() && g.colour_at(y).is_none()));
                    }
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
    assert!(policy_local * 20 >= positions * 11, "playouts answered locally in {policy_local} of {positions}");
    assert!(policy_local * 2 > 5 * random_local, "policy {policy_local}, random {random_local} of {positions}");
}

/// The move features (`src/rules/trigon/features.rs`) against a naive count through the public
/// API, in random games of every variant: every group's count recounted cell by cell from the
/// colours of the cells (forbidden = covered, or next along an edge to the colour's pieces), the
/// attach points before and after the move and the opponents' last placements; the logits are one
/// per move and finite.
#[test]
fn move_features_count_what_they_name() {
    use triboard::rules::trigon::features::{GROUPS, bucket_counts, buckets, centre_phase, size_phase};
    let (mut legal, mut active, mut logits) = (Vec::new(), Vec::new(), Vec::new());
    let mut checked = 0;
    // How often each group's bucket was above 0, so a group that never fires fails the test.
    let mut fired = [0usize; GROUPS];
    for variant in [Variant::Four, Variant::Two, Variant::Three] {
        for seed in 0..4 {
            let mut rng = rng_from_seed(100 + seed);
            let mut g = game(variant);
            let mut last: [Option<usize>; 4] = [None; 4];
            while let Some(c) = g.colour_to_move() {
                g.legal_moves(&mut legal);
                // Before a colour's first piece its attach points are the starting points, which
                // the features do not count: from the first position where every colour has one.
                let started = (0..variant.colours()).all(|o| g.pieces_left(o) != (1 << 22) - 1);
                if legal[0] != TrigonMove::PASS && started {
                    g.placement_features(&legal, &mut active);
                    assert_eq!(active.len(), legal.len());
                    assert!(g.move_logits(&legal, &mut logits));
                    assert_eq!(logits.len(), legal.len());
                    assert!(logits.iter().all(|l| l.is_finite()));
                    let t = g.tables();
                    let nb = &t.board.edge_neighbours;
                    let forbidden = |pos: &Trigon, o: usize, x: usize| {
                        pos.colour_at(x).is_some() || nb[x].iter().any(|&n| pos.colour_at(n as usize) == Some(o))
                    };
                    let mine = g.attach_points(c);
                    let opponents: Vec<usize> =
                        (0..variant.colours()).filter(|&o| g.player_of(o) != g.player_of(c)).collect();
                    let partner = (variant == Variant::Two).then_some((c + 2) % 4);
                    let theirs = |x: usize| opponents.iter().any(|&o| g.attach_points(o).contains(x));
                    let open_to_them = |x: usize| opponents.iter().any(|&o| !forbidden(&g, o, x));
                    let local = |x: usize| {
                        opponents.iter().any(|&o| {
                            last[o].is_some_and(|k| {
                                t.placements[k].corner_ring.contains(x) && g.attach_points(o).contains(x)
                            })
                        })
                    };
                    let placed = 22 - g.pieces_left(c).count_ones();
                    // A sample of the moves, so the test stays quick.
                    for (k, mv) in legal.iter().enumerate().step_by(7) {
                        let p = &t.placements[mv.0 as usize];
                        let b = buckets(&active[k]);
                        let cells: Vec<usize> = p.cells.iter().map(|&x| x as usize).collect();
                        let ring: Vec<usize> = p.edge_ring.iter().collect();
                        let on =
                            |set: &[usize], f: &dyn Fn(usize) -> bool| set.iter().filter(|&&x| f(x)).count() as u32;
                        let mut after = g.clone();
                        after.play(*mv).unwrap();
                        let gained: Vec<usize> = after.attach_points(c).and_not(&mine).iter().collect();
                        let mut free = [0u32; 4];
                        for &x in &gained {
                            let open = nb[x].iter().filter(|&&n| !forbidden(&after, c, n as usize)).count();
                            free[open] += 1;
                        }
                        let band = (t.centre[mv.0 as usize] as usize * 4 / 256).min(3);
                        let counts = [
                            (cells.len() as u32 - 1) * 4 + size_phase(placed) as u32,
                            on(&cells, &theirs),
                            on(&cells, &|x| !theirs(x) && nb[x].iter().any(|&n| theirs(n as usize))),
                            on(&cells, &local),
                            on(&cells, &|x| mine.contains(x)),
                            on(&cells, &|x| partner.is_some_and(|q| g.attach_points(q).contains(x))),
                            on(&cells, &open_to_them),
                            on(&ring, &|x| g.colour_at(x).is_some_and(|o| opponents.contains(&o))),
                            on(&ring, &|x| g.colour_at(x).is_some() && g.colour_at(x) == partner),
                            on(&ring, &|x| g.colour_at(x).is_none() && forbidden(&g, c, x)),
                            on(&ring, &|x| mine.contains(x)),
                            on(&ring, &|x| !forbidden(&g, c, x) && !mine.contains(x) && open_to_them(x)),
                            on(&ring, &|x| !forbidden(&g, c, x) && !mine.contains(x) && !open_to_them(x)),
                            gained.len() as u32,
                            free[0],
                            free[1],
                            free[2],
                            free[3],
                            on(&gained, &theirs),
                            (centre_phase(placed) * 4 + band) as u32,
                            p.piece as u32,
                        ];
                        assert!(counts[4] >= 1, "a later piece covers an attach point");
                        assert_eq!(b, bucket_counts(counts), "{mv:?} ({counts:?}) in\n{g:?}");
                        for (f, &x) in fired.iter_mut().zip(&b) {
                            *f += usize::from(x > 0);
                        }
                        assert_eq!(b[GROUPS - 1], p.piece as usize, "the piece");
                        checked += 1;
                    }
                }
                let mv = legal[random_index(&mut rng, legal.len())];
                g.play(mv).unwrap();
                if mv != TrigonMove::PASS {
                    last[c] = Some(mv.0 as usize);
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} moves checked");
    assert!(fired.iter().all(|&f| f > 20), "every group fires: {fired:?}");
}

/// The built-in weights load; a weights file round-trips; a corrupt or foreign one is refused
/// with the field and reason.
#[test]
fn weights_files_load_and_bad_ones_are_refused() {
    use triboard::rules::features::Weights;
    use triboard::rules::trigon::features::{BUILTIN_WEIGHTS, FEATURE_SET, FEATURES, feature_name};
    let builtin = Weights::from_json(&FEATURE_SET, BUILTIN_WEIGHTS).expect("the built-in weights load");
    let mut w = Weights::zero(&FEATURE_SET);
    for (i, x) in w.0.iter_mut().enumerate() {
        *x = i as f32 * 0.25 - 3.0;
    }
    let text = w.to_json(&FEATURE_SET, serde_json::json!({"positions": 3}));
    assert_eq!(Weights::from_json(&FEATURE_SET, &text).unwrap(), w);
    let again = builtin.to_json(&FEATURE_SET, serde_json::Value::Null);
    assert_eq!(Weights::from_json(&FEATURE_SET, &again).unwrap(), builtin);
    let names: std::collections::HashSet<String> = (0..FEATURES).map(feature_name).collect();
    assert_eq!(names.len(), FEATURES, "feature names are distinct");

    let refused = |text: &str, why: &str| {
        let e = Weights::from_json(&FEATURE_SET, text).expect_err(text);
        assert!(e.contains(why), "'{e}' should say '{why}'");
    };
    refused("{", "not JSON");
    refused("[1, 2]", "not a JSON object");
    refused(&text.replace("triboard trigon move weights", "pentobi"), "\"format\"");
    refused(&text.replace("\"version\": 1", "\"version\": 2"), "\"version\"");
    refused(&text.replace("\"gained 3\"", "\"gained 33\""), "\"gained 3\" is missing");
    refused(
        &text.replace("\"size-phase 0\": -3.0", "\"size-phase 0\": \"big\""),
        "\"size-phase 0\" is not a finite number",
    );
    let mut extra: serde_json::Value = serde_json::from_str(&text).unwrap();
    extra["weights"]["corner 9"] = serde_json::json!(1.0);
    refused(&extra.to_string(), "\"corner 9\" is not a feature");
}

/// The opening schedule (`src/rules/trigon/schedule.rs`) never makes a colour pass while it can
/// place, keeps the tree's moves legal, plays the V or the I6 on one starting point first and
/// hexiamonds but the O in rounds 1–3, and cuts the first four moves' branching from thousands to
/// a handful.
#[test]
fn the_opening_schedule_keeps_a_legal_move_and_narrows_the_opening() {
    use triboard::rules::trigon::pieces::piece_name;
    let (mut legal, mut search, mut buf) = (Vec::new(), Vec::new(), Vec::new());
    for variant in [Variant::Four, Variant::Two, Variant::Three] {
        for seed in 0..12 {
            let mut rng = rng_from_seed(500 + seed);
            let mut g = game(variant);
            while g.colour_to_move().is_some() {
                g.legal_moves(&mut legal);
                g.search_moves(&mut search);
                assert!(!search.is_empty() && search.iter().all(|m| legal.contains(m)));
                if legal[0] != TrigonMove::PASS {
                    assert!(!search.contains(&TrigonMove::PASS), "{variant:?}: the schedule made a colour pass");
                }
                let round = g.ply() / variant.colours();
                let names: Vec<&str> = search
                    .iter()
                    .filter(|&&m| m != TrigonMove::PASS)
                    .map(|m| piece_name(g.tables().placements[m.0 as usize].piece as usize))
                    .collect();
                if round == 0 {
                    assert!(names.iter().all(|n| *n == "V" || *n == "I6"), "round 0: {names:?}");
                    let starts: std::collections::BTreeSet<usize> = search
                        .iter()
                        .flat_map(|m| g.tables().placements[m.0 as usize].cells.clone())
                        .filter(|&x| g.tables().starts.contains(x as usize))
                        .map(|x| x as usize)
                        .collect();
                    assert_eq!(starts.len(), 1, "one starting point for a first piece");
                    assert!(search.len() <= 40, "{} moves considered at ply {}", search.len(), g.ply());
                } else if round <= 3
                    && legal.iter().any(|&m| {
                        size(&g, m) == 6 && piece_name(g.tables().placements[m.0 as usize].piece as usize) != "O"
                    })
                {
                    assert!(names.iter().all(|n| size_of_name(n) == 6 && *n != "O"), "round {round}: {names:?}");
                }
                let mv = if random_index(&mut rng, 2) == 0 {
                    search[random_index(&mut rng, search.len())]
                } else {
                    g.playout_move(&mut rng, &mut buf).unwrap()
                };
                g.play(mv).unwrap();
            }
        }
    }
}

fn size_of_name(name: &str) -> usize {
    use triboard::rules::trigon::pieces::piece_by_name;
    let g = game(Variant::Two);
    let p = piece_by_name(name).unwrap();
    g.tables().pieces[p].len()
}

/// The playouts' piece sizes by round from a fixed seed (`playout::size_histogram`): only
/// hexiamonds in rounds 0–3, nothing under 5 in round 4, and the 1- and 2-triangle pieces
/// (almost) never before round 9 — the schedule and the strict biggest-first choice.
#[test]
fn playouts_play_big_pieces_first_by_round() {
    use triboard::rules::trigon::playout::size_histogram;
    let rows = size_histogram(&game(Variant::Two), 7, 60);
    for (round, row) in rows.iter().enumerate().take(4) {
        assert_eq!(row[6], row.iter().sum::<u32>(), "round {round}: {row:?}");
    }
    assert_eq!(rows[4][1] + rows[4][2] + rows[4][3] + rows[4][4], 0, "round 4: {:?}", rows[4]);
    let early: u32 = rows[..9].iter().map(|r| r.iter().sum::<u32>()).sum();
    let small: u32 = rows[..9].iter().map(|r| r[1] + r[2]).sum();
    assert!(small * 100 <= early, "{small} of {early} early moves were 1- or 2-triangle pieces: {rows:?}");
}

/// The reward (`knowledge.rs`, the margin as a z-score against the search's playouts): in
/// `[0, 1]`, a win always above a loss, and among playouts that are all lost by 40 or more its
/// values stay spread (the former margin, clamped at ±40 points, made them all alike).
#[test]
fn the_reward_stays_informative_when_far_behind() {
    use triboard::rules::{Outcome, RewardStats};
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    let mut g = game(Variant::Two);
    while let Some(mv) = g.random_move(&mut rng, &mut buf) {
        g.play(mv).unwrap();
    }
    let mut stats = RewardStats::default();
    let mut lost = Vec::new();
    for k in 0..200 {
        let margin = 40 + (k % 30);
        let r = g.reward_with(&Outcome::from_scores(&[150, 150 + margin]), &mut stats);
        assert!(r[..2].iter().all(|x| (0.0..=1.0).contains(x)), "{r:?}");
        lost.push((margin, r[0]));
    }
    let win = g.reward_with(&Outcome::from_scores(&[151, 150]), &mut stats)[0];
    assert!(lost.iter().all(|&(_, r)| r < win), "a loss above a win");
    let by_margin = |m: i32| lost.iter().rev().find(|&&(x, _)| x == m).unwrap().1;
    assert!(by_margin(40) - by_margin(69) > 0.02, "losing by 40: {}, by 69: {}", by_margin(40), by_margin(69));
}

/// Prior-led selection (`src/ai/tree.rs`): from a middle-game position, the share of the root's
/// simulations spent on the ten moves of highest prior is larger than under UCT + RAVE with the
/// same budget.
#[test]
fn prior_led_search_spends_its_simulations_on_the_likely_moves() {
    use triboard::cli::bench::top_prior_share;
    let mut rng = rng_from_seed(11);
    let mut buf = Vec::new();
    let mut g = game(Variant::Two);
    for _ in 0..24 {
        let mv = g.playout_move(&mut rng, &mut buf).unwrap();
        g.play(mv).unwrap();
    }
    let share = |c: f32| {
        let mut m = Mcts::new(&g, SearchConfig { seed: 5, prior_exploration: Some(c), ..SearchConfig::default() });
        m.run(Budget { simulations: 1500, max_time: Duration::from_secs(60) });
        top_prior_share(&g, &m.root_children(), 10).unwrap()
    };
    let (led, uct) = (share(0.87), share(0.0));
    assert!(led > uct + 0.1, "top-10 share: prior-led {led:.3}, UCT {uct:.3}");
}

/// Last-good-reply (`ai::reply`): a remembered reply is played only where Trigon accepts it, so
/// what it accepts must be legal. In random games, every placement of the board offered at
/// random, and every legal one: accepted only if legal, never a pass nor a colour's first piece,
/// and most legal placements of the pieces the playouts allow are accepted.
#[test]
fn accepted_replies_are_legal_moves() {
    let mut legal = Vec::new();
    let (mut accepted, mut offered_legal) = (0usize, 0usize);
    for variant in [Variant::Two, Variant::Four] {
        for seed in 0..6 {
            let mut rng = rng_from_seed(100 + seed);
            let mut g = game(variant);
            let placements = g.tables().placements.len();
            while g.colour_to_move().is_some() {
                g.legal_moves(&mut legal);
                assert!(!g.accepts_reply(TrigonMove::PASS));
                for _ in 0..200 {
                    let mv = TrigonMove(random_index(&mut rng, placements) as u16);
                    if g.accepts_reply(mv) {
                        assert!(legal.contains(&mv), "{variant:?} seed {seed}: an accepted reply is legal");
                    }
                }
                for &mv in &legal {
                    if mv != TrigonMove::PASS {
                        offered_legal += 1;
                        accepted += usize::from(g.accepts_reply(mv));
                    }
                }
                let mv = legal[random_index(&mut rng, legal.len())];
                let first = g.pieces_left(g.colour_to_move().unwrap()) == (1 << 22) - 1;
                if first {
                    assert!(!g.accepts_reply(mv), "a colour's first piece is never a reply");
                }
                g.play(mv).unwrap();
            }
        }
    }
    assert!(accepted * 2 > offered_legal, "accepted {accepted} of {offered_legal} legal placements");
}
