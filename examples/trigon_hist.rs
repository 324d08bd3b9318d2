use triboard::rules::Game;
use triboard::rules::trigon::{Trigon, TrigonOptions, Variant};
fn main() {
    let g = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
    let rows = triboard::rules::trigon::playout::size_histogram(&g, 1, 200);
    for (r, row) in rows.iter().enumerate() { println!("round {r:2}: {:?}", row); }
}
