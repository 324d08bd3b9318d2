use triboard::rules::trigon::{Trigon, TrigonOptions, Variant};
use triboard::rules::{Game, Knowledge};
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let policy = std::env::args().nth(2).is_none();
    let mut g = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
    triboard::rules::play_moves(&mut g, "").unwrap();
    g.warm_up();
    let mut rng = triboard::rules::rng_from_seed(3);
    let mut buf = Vec::new();
    let mut plies = 0;
    for _ in 0..n {
        let mut s = g.clone();
        loop {
            let mv = if policy { s.playout_move(&mut rng, &mut buf) } else { s.random_move(&mut rng, &mut buf) };
            let Some(mv) = mv else { break };
            s.play_unchecked(mv);
            plies += 1;
        }
    }
    println!("{plies}");
}
