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
    if state.out.iter().any(|o| o.seat == seat) {
        return "you left, the others play on".to_string();
    }
    match state.to_move {
        Some(s) if s == seat => "your move".to_string(),
        Some(_) => "their move".to_string(),
        None => "over".to_string(),
    }
}

/// Now, in ms since the Unix epoch (the deadlines' time).
pub fn now_ms() -> u64 {
    use web_time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The time left until `deadline_ms` at `now_ms` (ms since the epoch), as a correspondence
/// player reads it: "2 days left" (whole days, rounded down, from two days), "30 h left",
/// "45 min left", "under a minute left", "time is up".
pub fn time_left_words(deadline_ms: u64, now_ms: u64) -> String {
    let left = deadline_ms.saturating_sub(now_ms);
    let (minute, hour, day) = (60_000, 3_600_000, 86_400_000);
    match left {
        0 => "time is up".to_string(),
        l if l < minute => "under a minute left".to_string(),
        l if l < hour => format!("{} min left", l / minute),
        l if l < 2 * day => format!("{} h left", l / hour),
        l => format!("{} days left", l / day),
    }
}

/// [`whose_turn`], and while a correspondence game with days per move runs, the time its seat to
/// move has left: "your move, 2 days left", "their move, 30 h left".
pub fn turn_words(state: &Snapshot, seat: u8, now_ms: u64) -> String {
    let words = whose_turn(state, seat);
    match state.deadline_ms.filter(|_| state.outcome.is_none() && state.to_move.is_some()) {
        Some(deadline) => format!("{words}, {}", time_left_words(deadline, now_ms)),
        None => words,
    }
}

/// The board's online panel's line for a game without a live clock: "no clock", or "3 days a
/// move · 2 days left" (the time left only while the server's last state is the board's
/// position, `moves` being the board's server moves: its deadline then still holds).
pub fn correspondence_words(state: Option<&Snapshot>, moves: usize, now_ms: u64) -> String {
    let Some(state) = state else { return "no clock".to_string() };
    let Some(days) = state.days_per_move else { return "no clock".to_string() };
    let per = if days == 1 { "1 day a move".to_string() } else { format!("{days} days a move") };
    match state.deadline_ms.filter(|_| state.ply as usize == moves && state.outcome.is_none()) {
        Some(deadline) => format!("{per} · {}", time_left_words(deadline, now_ms)),
        None => per,
    }
}

/// A listed game's result or turn on a player's page, for `player`: [`result_for`]'s words, and
/// while a correspondence game with days per move runs, whose move it is and the time left:
/// "to move, 2 days left" (the page's player is to move), "playing, 30 h left".
pub fn page_turn_words(listing: &GameListing, player: &str, now_ms: u64) -> String {
    let result = result_for(listing, player);
    let (Some(deadline), Some(seat)) = (listing.deadline_ms, listing.to_move) else { return result.to_string() };
    let theirs = listing.players.get(usize::from(seat)).and_then(Option::as_deref) == Some(player);
    let who = if theirs { "to move" } else { result };
    format!("{who}, {}", time_left_words(deadline, now_ms))
}

/// A listed game's result for `player`: "won", "lost", "draw", "shared" (first place with
/// others), "aborted" (ended before every seat moved: nobody's loss), or "playing" while it runs.
pub fn result_for(listing: &GameListing, player: &str) -> &'static str {
    if listing.aborted {
        return "aborted";
    }
    if listing.winners.is_empty() {
        return "playing";
    }
    let seats: Vec<u8> = (0..listing.players.len() as u8)
        .filter(|&s| listing.players[usize::from(s)].as_deref() == Some(player))
        .collect();
    let won = seats.iter().any(|s| listing.winners.contains(s));
    match (won, listing.winners.len()) {
        (true, n) if n == listing.players.len() => "draw",
        (true, 1) => "won",
        (true, _) => "shared",
        (false, _) => "lost",
    }
}

/// A time control in a few words: "5+3" (a live clock's minutes and seconds a move), "3 days a
/// move", or "no clock" (a correspondence game without deadlines).
pub fn time_control_words(clock: Option<&Clock>, days_per_move: Option<u32>) -> String {
    match (clock, days_per_move) {
        (None, Some(1)) => "1 day a move".to_string(),
        (None, Some(days)) => format!("{days} days a move"),
        (clock, _) => clock_words(clock),
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

/// The start screen's line on the seats held in games still in play: how many, and in how many it
/// is the person's move (as the server last said); `None` when none is in play.
pub fn summary(lobby: &Lobby, settings: &Settings) -> Option<String> {
    // Only the games still in play count (a finished one the server said is over is kept to
    // review, not to play).
    let held: Vec<&crate::app::settings::OnlineSeat> = settings
        .online
        .games
        .iter()
        .filter(|s| lobby.known.get(&s.game_id).is_none_or(|state| state.outcome.is_none()))
        .collect();
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
            ..Snapshot::default()
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
        let day = 86_400_000;
        let by_days =
            Snapshot { days_per_move: Some(3), deadline_ms: Some(10 * day), ..state([true, true], Some(0), None) };
        assert_eq!(turn_words(&by_days, 0, 7 * day + 5), "your move, 2 days left");
        assert_eq!(turn_words(&by_days, 1, 9 * day - 3_600_000), "their move, 25 h left");
        assert_eq!(turn_words(&state([true, true], Some(0), None), 0, 0), "your move", "no deadline");
        assert_eq!(correspondence_words(Some(&by_days), 0, 9 * day + 1), "3 days a move · 23 h left");
        assert_eq!(correspondence_words(Some(&by_days), 1, 0), "3 days a move", "a move since: unknown");
        assert_eq!(correspondence_words(None, 0, 0), "no clock");
        assert_eq!(time_left_words(5, 9), "time is up");
        let left = Snapshot {
            out: vec![crate::net::protocol::SeatOut { seat: 1, ply: 4, how: crate::net::protocol::OutHow::Resigned }],
            ..state([true, true], Some(0), None)
        };
        assert_eq!(whose_turn(&left, 1), "you left, the others play on");

        let seat = |id: &str, seat| OnlineSeat { game_id: id.into(), seat, ..Default::default() };
        let mut settings = Settings::default();
        let mut lobby = Lobby::default();
        assert_eq!(summary(&lobby, &settings), None);
        settings.online.games = vec![seat("g", 0), seat("h", 1)];
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games");
        lobby.known.insert("g".into(), state([true, true], Some(0), None));
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games: your move in 1");
        // A finished game is not one in play.
        let won = GameResult { winners: vec![0], resigned: Some(1), ..GameResult::default() };
        lobby.known.insert("h".into(), state([true, true], None, Some(won.clone())));
        assert_eq!(summary(&lobby, &settings).unwrap(), "1 online game: your move in 1");
        lobby.known.insert("g".into(), state([true, true], None, Some(won)));
        assert_eq!(summary(&lobby, &settings), None, "only finished games");
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
            created_ms: 0,
            ..GameListing::default()
        };
        assert_eq!(players_words(&listing), "Ann 1536 · (free)");
        let newcomer = GameListing { provisional: vec![true, false], ..listing.clone() };
        assert_eq!(players_words(&newcomer), "Ann 1536? · (free)", "a provisional rating is marked");
        assert_eq!(clock_words(listing.clock.as_ref()), "5+3");
        assert_eq!(clock_words(None), "no clock");
        assert_eq!(time_control_words(None, Some(7)), "7 days a move");
        assert_eq!(time_control_words(listing.clock.as_ref(), None), "5+3");
        let running =
            GameListing { days_per_move: Some(1), to_move: Some(0), deadline_ms: Some(50 * 60_000), ..listing.clone() };
        assert_eq!(page_turn_words(&running, "Ann", 0), "to move, 50 min left");
        assert_eq!(page_turn_words(&running, "Bob", 0), "playing, 50 min left");
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
