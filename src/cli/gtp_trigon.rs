//! Blokus Trigon in GTP's words, shared by the engine (`gtp`) and the referee (`match`): variant
//! ids and names as Pentobi writes them, colours, `final_score`, and the passes that bring a colour
//! to play.

use crate::rules::Game;
use crate::rules::trigon::{Trigon, TrigonMove, Variant};

/// The colours' names in their order of play.
const NAMES: [&str; 4] = ["Blue", "Yellow", "Red", "Green"];

/// A variant from a triboard game id ([`Variant::from_id`]) or a Pentobi variant id (`trigon_2`,
/// `t2`), case-insensitive.
pub fn variant_from_id(id: &str) -> Option<Variant> {
    let id = id.trim().to_ascii_lowercase();
    Variant::from_id(&id).or(match id.as_str() {
        "t" => Some(Variant::Four),
        "trigon_2" | "t2" => Some(Variant::Two),
        "trigon_3" | "t3" => Some(Variant::Three),
        _ => None,
    })
}

/// A variant from its name in Pentobi's records and `set_game` ([`Variant::name`], `Blokus Trigon
/// Two-Player`), case-insensitive, perhaps in quotes.
pub fn variant_from_name(name: &str) -> Option<Variant> {
    Variant::from_name(name.trim().trim_matches('"'))
}

/// `final_score` as Pentobi words it: `B+n`/`W+n`/`0` in `trigon-2`, else each colour's points.
pub fn final_score(game: &Trigon) -> String {
    let variant = game.options().variant;
    if variant == Variant::Two {
        let diff = game.colour_score(0) + game.colour_score(2) - game.colour_score(1) - game.colour_score(3);
        return match diff {
            d if d > 0 => format!("B+{d}"),
            d if d < 0 => format!("W+{}", -d),
            _ => "0".to_string(),
        };
    }
    let points: Vec<String> = (0..variant.colours()).map(|c| game.colour_score(c).to_string()).collect();
    points.join(" ")
}

/// Colour `c` (0-based) as commands name it and errors describe it: `3 (Red)`.
fn colour_label(c: usize) -> String {
    format!("{} ({})", c + 1, NAMES[c])
}

/// The position in which colour `c` is to play, reached from `game` by passing for the colours
/// before it that cannot place, with those passes.
///
/// # Errors
/// The game is over, `c` is out, or a colour before it can still place.
pub fn reach_colour(game: &Trigon, c: usize) -> Result<(Trigon, Vec<TrigonMove>), String> {
    let mut g = game.clone();
    let mut passes = Vec::new();
    loop {
        let Some(t) = g.colour_to_move() else { return Err("the game is over".to_string()) };
        if t == c {
            return Ok((g, passes));
        }
        if g.is_out(c) {
            return Err(format!("colour {} is out: it cannot place a piece", colour_label(c)));
        }
        let Some(pass) = g.forced_move() else {
            return Err(format!("it is colour {} to play, not {}", colour_label(t), colour_label(c)));
        };
        g.play_unchecked(pass);
        passes.push(pass);
    }
}
