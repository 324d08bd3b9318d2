//! The Play online window's pages of players (`docs/design.md` §Lobby): a game's leaderboard and a
//! player's page ([`Pages`]), and the finished games listed there, fetched whole from the server
//! (`watch`) to open in review or to keep as a file ([`RecordUse`], [`record_of`]).

use bevy::prelude::*;

use super::link::Link;
use crate::ai::Seat;
use crate::app::files::Format;
use crate::app::flow::{Seating, Status};
use crate::app::save_format::{date_of, utc_stamp};
use crate::app::session::{OpenRecord, OpenSeats};
use crate::net::protocol::{ClientMessage, GameListing, ProfileView, RatingView, ServerMessage, Snapshot};
use crate::rules::record::Record;

/// What a finished game fetched from the server is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordUse {
    /// Opened on the board, to review (as any record: its seats are people, nobody is to move).
    Review,
    /// Kept as a file in this format (the data folder; the browser downloads it).
    Save(Format),
}

/// What the pages wait for from the server.
#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Leaderboard(String),
    Profile(String),
    Record { game_id: String, use_: RecordUse, created_ms: u64 },
}

/// The leaderboard and the player's page as the server last sent them.
#[derive(Resource, Debug, Default)]
pub struct Pages {
    /// The game whose leaderboard is shown (a game id: `trike`, `trigon-3`, …).
    pub game: String,
    /// The leaderboard: its game and its rows, best first.
    pub leaderboard: Option<(String, Vec<RatingView>)>,
    /// The player's page shown.
    pub profile: Option<ProfileView>,
    /// A player's name typed, to look up.
    pub typed: String,
    /// What the server last said of a request here (a refusal), or where a game was saved.
    pub said: Option<Status>,
    waiting: Option<Asked>,
}

impl Pages {
    /// True while a request waits for the server.
    pub fn waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// Asks for the leaderboard of game `game`.
    pub fn ask_leaderboard(&mut self, link: &mut Link, game: &str) {
        self.game = game.to_string();
        link.send(&ClientMessage::Leaderboard { game: game.to_string() });
        self.waiting = Some(Asked::Leaderboard(game.to_string()));
        self.said = None;
    }

    /// Asks for the page of player `name`.
    pub fn ask_profile(&mut self, link: &mut Link, name: &str) {
        link.send(&ClientMessage::Profile { name: name.to_string() });
        self.waiting = Some(Asked::Profile(name.to_string()));
        self.said = None;
    }

    /// Fetches the finished game `listing` whole (its moves), for `use_`.
    pub fn fetch(&mut self, link: &mut Link, listing: &GameListing, use_: RecordUse) {
        link.send(&ClientMessage::Watch { game_id: listing.game_id.clone() });
        self.waiting = Some(Asked::Record { game_id: listing.game_id.clone(), use_, created_ms: listing.created_ms });
        self.said = None;
    }

    /// Whether the state of game `game_id` is the one fetched here.
    pub(super) fn wants(&self, game_id: &str) -> bool {
        matches!(&self.waiting, Some(Asked::Record { game_id: id, .. }) if id == game_id)
    }

    /// Hears a leaderboard, a player's page, a fetched game's state or a refusal; returns the
    /// record of a fetched game with what it is for.
    pub(super) fn hear(&mut self, message: ServerMessage) -> Option<(Record, RecordUse)> {
        match (message, self.waiting.take()) {
            (ServerMessage::Leaderboard { game, rows }, waiting) => {
                if waiting != Some(Asked::Leaderboard(game.clone())) {
                    self.waiting = waiting;
                }
                self.leaderboard = Some((game, rows));
                None
            }
            (ServerMessage::Profile(profile), waiting) => {
                if waiting != Some(Asked::Profile(profile.name.clone())) {
                    self.waiting = waiting;
                }
                self.profile = Some(profile);
                None
            }
            (ServerMessage::State(state), Some(Asked::Record { game_id, use_, created_ms }))
                if state.game_id == game_id =>
            {
                let mut record = record_of(&state);
                record.date = Some(date_of(&utc_stamp(created_ms / 1000)));
                Some((record, use_))
            }
            (ServerMessage::Error { message, .. }, Some(_)) => {
                self.said = Some(Status::error(message));
                None
            }
            (_, waiting) => {
                self.waiting = waiting;
                None
            }
        }
    }
}

/// The record of the server's game `state` (whole: a `watch`'s), its seats named by their
/// accounts ("guest" without one) and its result in words.
pub fn record_of(state: &Snapshot) -> Record {
    let mut record = Record::of_texts(&state.game, state.options.clone(), state.moves.clone());
    let name = |seat: u8| {
        state.players.get(usize::from(seat)).and_then(|p| p.player.clone()).unwrap_or_else(|| "guest".to_string())
    };
    record.players = (0..state.players.len() as u8).map(name).collect();
    if let Some(outcome) = &state.outcome {
        record.resigned = outcome.resigned;
        record.flagged = outcome.flagged;
        record.aborted = outcome.aborted && (outcome.resigned.is_some() || outcome.flagged.is_some());
    }
    record.result = state.outcome.as_ref().map(|outcome| {
        let winners: Vec<String> = outcome.winners.iter().map(|&w| name(w)).collect();
        let verdict = match winners.len() {
            _ if outcome.aborted => "aborted before every player moved, unrated".to_string(),
            0 => "nobody wins".to_string(),
            1 => format!("{} wins", winners[0]),
            n if n == state.players.len() => "a draw".to_string(),
            _ => format!("{} share first place", winners.join(" and ")),
        };
        match (outcome.resigned, outcome.flagged) {
            (Some(seat), _) => format!("{verdict}: {} resigned", name(seat)),
            (_, Some(seat)) => format!("{verdict}: {} ran out of time", name(seat)),
            _ => verdict,
        }
    });
    record
}

/// Keeps `record` as a file in `format`: in the data folder on the desktop, downloaded in the
/// browser; returns where, for the person.
///
/// # Errors
/// The file could not be written (or SGF of a game other than Trigon).
pub fn keep_record(record: &Record, format: Format) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    return crate::app::web::download::download_record(record, format);
    #[cfg(not(target_arch = "wasm32"))]
    crate::app::files::save_as(record, format)
}

/// Opens a game fetched from a player's page in review, or keeps it as a file; true when it was
/// opened on the board (the Play online window then closes).
pub(super) fn keep_or_open(commands: &mut Commands, record: Record, use_: RecordUse, pages: &mut Pages) -> bool {
    match use_ {
        RecordUse::Review => {
            // Nobody here played it: every seat the server's players', so the panel offers no
            // Undo, New game or Play from here, only review.
            commands.insert_resource(OpenSeats(Seating { seats: vec![Seat::Remote; 4], online: None }));
            commands.insert_resource(OpenRecord(record));
            true
        }
        RecordUse::Save(format) => {
            pages.said = Some(match keep_record(&record, format) {
                Ok(place) => Status::info(format!("Saved to {place}")),
                Err(e) => Status::error(e),
            });
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{GameResult, SeatView};

    #[test]
    fn a_fetched_game_becomes_a_record_with_its_players_and_result() {
        let seat = |seat, player: Option<&str>| SeatView {
            seat,
            name: "Black".into(),
            taken: true,
            player: player.map(str::to_string),
        };
        let state = Snapshot {
            game_id: "g".into(),
            game: "trike".into(),
            options: serde_json::json!({"size": 7}),
            since_ply: 0,
            moves: vec!["d7".into(), "d4".into()],
            ply: 2,
            players: vec![seat(0, Some("Ann")), seat(1, None)],
            to_move: None,
            outcome: Some(GameResult { winners: vec![0], resigned: Some(1), ..GameResult::default() }),
            clock: None,
            clock_ms: None,
            clock_started: false,
            allow_tools: false,
            rated: false,
            rematch: None,
            rematch_of: None,
            ..Snapshot::default()
        };
        let record = record_of(&state);
        assert_eq!(record.players, ["Ann", "guest"]);
        assert_eq!(record.moves, ["d7", "d4"]);
        assert_eq!(record.result.as_deref(), Some("Ann wins: guest resigned"));
        assert_eq!((record.resigned, record.flagged), (Some(1), None), "the resignation is the record's, for review");
        assert!(record.replay::<crate::rules::trike::Trike>().is_ok(), "it replays");
    }
}
