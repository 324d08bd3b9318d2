//! Every game's move features (`rules::features`; each game's `features.rs`), checked for every
//! game of the one list (`triboard::for_each_game`): at every ply of random games each legal move
//! gets exactly one feature in each group, within the group's range; the built-in weights file
//! loads, round-trips, and a corrupt copy is refused naming the field; the learned logits are
//! finite, one per move.

use triboard::rules::features::Weights;
use triboard::rules::{Game, Knowledge, rng_from_seed};

/// The checks above for game `G` (id `id`), over `games` random games.
fn check<G: Knowledge>(id: &str, games: usize) -> usize {
    let Some(cell) = G::feature_weights() else { return 0 };
    let set = cell.set();
    let groups = set.groups.len();
    let builtin = Weights::from_json(set, cell.builtin()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let text = builtin.to_json(set, serde_json::Value::Null);
    assert_eq!(Weights::from_json(set, &text).as_ref(), Ok(&builtin), "{id}: the weights round-trip");
    let (group, buckets) = set.groups[groups - 1];
    let name = format!("{group} {}", buckets - 1);
    let mut corrupt: serde_json::Value = serde_json::from_str(&text).unwrap();
    corrupt["weights"][&name] = serde_json::json!("x");
    let err = Weights::from_json(set, &corrupt.to_string()).expect_err("a corrupt file is refused");
    assert!(err.contains(&name), "{id}: '{err}' names {name}");

    let mut rng = rng_from_seed(5);
    let (mut legal, mut active, mut logits) = (Vec::new(), Vec::new(), Vec::new());
    let mut positions = 0;
    for _ in 0..games {
        let mut g = G::new(&G::options_for_id(id)).unwrap();
        while g.outcome().is_none() {
            g.legal_moves(&mut legal);
            if legal.len() > 1 {
                positions += 1;
                g.move_features(&legal, &mut active);
                assert_eq!(active.len(), legal.len() * groups, "{id}: one feature per group and move");
                for a in active.chunks(groups) {
                    for (k, &f) in a.iter().enumerate() {
                        let start = set.offset(k);
                        assert!((start..start + set.groups[k].1).contains(&(f as usize)), "{id}: group {k} holds {f}");
                    }
                }
                assert!(g.move_logits(&legal, &mut logits), "{id}: a game with features gives logits");
                assert!(logits.len() == legal.len() && logits.iter().all(|l| l.is_finite()), "{id}");
            }
            let mv = g.random_move(&mut rng, &mut legal).expect("a running game has a move");
            g.play(mv).unwrap();
        }
    }
    positions
}

#[test]
fn every_games_features_are_one_per_group() {
    let mut checked = Vec::new();
    macro_rules! each {
        ($($g:ty),*) => { $( checked.push((<$g as Game>::IDS[0], check::<$g>(<$g as Game>::IDS[0], 3))); )* };
    }
    triboard::for_each_game!(each);
    for (id, positions) in &checked {
        assert!(*positions > 20, "{id}: {positions} positions with features checked");
    }
}
