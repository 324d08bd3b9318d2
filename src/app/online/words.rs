//! Online play in words, for the Play online window, the side panel and the start screen: whose
//! turn it is in a game held ([`whose_turn`]), the connection ([`link_words`]), the seats held in a
//! line ([`summary`]), a game's name ([`game_name`]), a listed game ([`game_words`], [`clock_words`], [`players_words`]), a
//! rating and its change at a game's end ([`rating_words`], [`change_words`]).

use serde_json::Value;

use super::link::LinkState;
use super::lobby::Lobby;
use crate::app::games::{AppGame, ForGame, for_id};
use crate::app::settings::Settings;
use crate::net::protocol::{Clock, GameListing, RatingChange, Snapshot, provisional_mark};

/// Whose turn it is in a game of "Your games", for the person holding `seat`.
pub fn whose_turn(state: &Snapshot, seat: u8) -> String {
    if let Some(outcome) = &state.outcome {
        if outcome.withdrawn {
            return "withdrawn".to_string();
        }
        if outcome.aborted {
            return "aborted".to_string();
        }
        return match (outcome.winners.contains(&seat), outcome.flagged == Some(seat)) {
            (true, _) => "won",
            (false, true) => "lost on time",
            (false, false) if outcome.winners.is_empty() => "over",
            (false, false) => "lost",
        }
        .to_string();
    }
    if state.players.iter().any(|p| !p.taken) {
        return "waiting for a player".to_string();
    }
    match state.to_move {
        Some(s) if s == seat => "your move".to_string(),
        Some(_) => "their move".to_string(),
        None => "over".to_string(),
    }
}

/// The connection's state in a few words.
pub fn link_words(state: &LinkState) -> &'static str {
    match state {
        LinkState::Idle => "not connected",
        LinkState::Connecting => "connecting…",
        LinkState::Open => "connected",
        LinkState::Down { .. } => "reconnecting…",
    }
}

/// The start screen's line on the seats held: how many games, and in how many it is the
/// person's move (as the server last said); `None` when none is held.
pub fn summary(lobby: &Lobby, settings: &Settings) -> Option<String> {
    let held = &settings.online.games;
    if held.is_empty() {
        return None;
    }
    let yours = held
        .iter()
        .filter(|s| lobby.known.get(&s.game_id).is_some_and(|state| whose_turn(state, s.seat) == "your move"))
        .count();
    let games = if held.len() == 1 { "1 online game".to_string() } else { format!("{} online games", held.len()) };
    Some(match yours {
        0 => games,
        n => format!("{games}: your move in {n}"),
    })
}

/// A kind of game with its options as the side panel heads it: "Trike · board 7", "Blokus
/// Trigon Two-Player · …"; the id itself for a game this build does not play.
pub fn game_words(game: &str, options: &Value) -> String {
    struct Name<'a>(&'a str, &'a Value);
    impl ForGame for Name<'_> {
        type Output = Option<String>;
        fn run<G: AppGame>(self) -> Option<String> {
            let options = serde_json::from_value(self.1.clone()).unwrap_or_else(|_| G::options_for_id(self.0));
            let game = G::new(&options).ok()?;
            let (name, subtitle) = (game.display_name(), game.subtitle());
            Some(if subtitle.is_empty() { name } else { format!("{name} · {subtitle}") })
        }
    }
    for_id(game, Name(game, options)).flatten().unwrap_or_else(|| game.to_string())
}

/// The name of game id `id` ("Trike", "Blokus Trigon Two-Player"): a leaderboard's pool; the id
/// itself for a game this build does not play.
pub fn game_name(id: &str) -> String {
    struct Name<'a>(&'a str);
    impl ForGame for Name<'_> {
        type Output = Option<String>;
        fn run<G: AppGame>(self) -> Option<String> {
            G::new(&G::options_for_id(self.0)).ok().map(|g| g.display_name())
        }
    }
    for_id(id, Name(id)).flatten().unwrap_or_else(|| id.to_string())
}

/// A clock setting in a few words: "5+3" (minutes and seconds a move), or "no clock" (a
/// correspondence game).
pub fn clock_words(clock: Option<&Clock>) -> String {
    clock.map_or_else(|| "no clock".to_string(), |c| format!("{}+{}", c.minutes, c.increment_s))
}

/// A listed game's players with their ratings, seat by seat: "Ann 1536 · Bob · (free)".
pub fn players_words(listing: &GameListing) -> String {
    listing
        .players
        .iter()
        .enumerate()
        .map(|(seat, player)| match (player, listing.ratings.get(seat).copied().flatten()) {
            (Some(name), Some(rating)) => {
                format!("{name} {rating}{}", provisional_mark(listing.provisional.get(seat) == Some(&true)))
            }
            (Some(name), None) => name.clone(),
            (None, _) => "(free)".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A seat's rating change at a rated game's end: "Ann 1500? to 1536? (+36)" (a rating still
/// provisional after the game was so before it too). Words, not an arrow: the app's fonts have
/// no "→".
pub fn change_words(change: &RatingChange) -> String {
    let q = if change.provisional { "?" } else { "" };
    format!("{} {}{q} to {}{q} ({:+})", change.name, change.before, change.after, change.after - change.before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::settings::OnlineSeat;
    use crate::net::protocol::{GameResult, SeatView};

    fn state(taken: [bool; 2], to_move: Option<u8>, outcome: Option<GameResult>) -> Snapshot {
        Snapshot {
            game_id: "g".into(),
            game: "trike".into(),
            options: serde_json::json!({"size": 7}),
            since_ply: 0,
            moves: Vec::new(),
            ply: 0,
            players: (0..2)
                .map(|s| SeatView { seat: s, name: "Black".into(), taken: taken[s as usize], player: None })
                .collect(),
            to_move,
            outcome,
            clock: None,
            clock_ms: None,
            clock_started: false,
            allow_tools: false,
            rated: false,
            rematch: None,
            rematch_of: None,
        }
    }

    #[test]
    fn your_games_say_whose_turn_it_is() {
        assert_eq!(whose_turn(&state([true, false], Some(0), None), 0), "waiting for a player");
        assert_eq!(whose_turn(&state([true, true], Some(0), None), 0), "your move");
        assert_eq!(whose_turn(&state([true, true], Some(0), None), 1), "their move");
        let won = GameResult { winners: vec![1], resigned: Some(0), ..GameResult::default() };
        assert_eq!(whose_turn(&state([true, true], None, Some(won.clone())), 1), "won");
        assert_eq!(whose_turn(&state([true, true], None, Some(won)), 0), "lost");
        let flag = GameResult { winners: vec![0], flagged: Some(1), ..GameResult::default() };
        assert_eq!(whose_turn(&state([true, true], None, Some(flag)), 1), "lost on time");
        let aborted = GameResult { resigned: Some(0), aborted: true, ..GameResult::default() };
        assert_eq!(whose_turn(&state([true, true], None, Some(aborted)), 0), "aborted", "nobody's loss");

        let seat = |id: &str, seat| OnlineSeat { game_id: id.into(), seat, ..Default::default() };
        let mut settings = Settings::default();
        let mut lobby = Lobby::default();
        assert_eq!(summary(&lobby, &settings), None);
        settings.online.games = vec![seat("g", 0), seat("h", 1)];
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games");
        lobby.known.insert("g".into(), state([true, true], Some(0), None));
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games: your move in 1");
    }

    #[test]
    fn listings_and_ratings_read_as_players_expect() {
        let listing = GameListing {
            game_id: "g".into(),
            game: "trike".into(),
            options: serde_json::json!({"size": 7}),
            clock: Some(Clock { minutes: 5, increment_s: 3 }),
            rated: true,
            players: vec![Some("Ann".into()), None],
            ratings: vec![Some(1536), None],
            provisional: vec![false, false],
            ply: 0,
            winners: vec![],
            aborted: false,
            created_ms: 0,
        };
        assert_eq!(players_words(&listing), "Ann 1536 · (free)");
        let newcomer = GameListing { provisional: vec![true, false], ..listing.clone() };
        assert_eq!(players_words(&newcomer), "Ann 1536? · (free)", "a provisional rating is marked");
        assert_eq!(clock_words(listing.clock.as_ref()), "5+3");
        assert_eq!(clock_words(None), "no clock");
        assert!(
            game_words("trike", &listing.options).starts_with("Trike"),
            "{}",
            game_words("trike", &listing.options)
        );
        assert_eq!(game_words("chess", &Value::Null), "chess");
        assert_eq!(game_name("trigon-2"), "Blokus Trigon Two-Player");
        let change =
            |before, after, provisional| RatingChange { seat: 0, name: "Ann".into(), before, after, provisional };
        assert_eq!(change_words(&change(1500, 1536, true)), "Ann 1500? to 1536? (+36)");
        assert_eq!(change_words(&change(1610, 1598, false)), "Ann 1610 to 1598 (-12)");
    }
}
