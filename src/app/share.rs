//! Share links: the game record in the URL fragment (`#game=…`), so a link opens the game at its
//! position (`docs/design.md` §Web). The fragment is the record's compact JSON, percent-encoded.
//!
//! [`OpenRecord`] opens a record as a new game from any screen: it is checked move by move first,
//! and a bad one leaves the app as it was, with the reason in the status line.

use bevy::prelude::*;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use super::Screen;
use super::games::{AppGame, ForGame, for_id};
use super::in_play::InPlay;
use super::model::{Command, Status, Step};
use super::setup::{GameOptions, Setup, unknown_game};
use crate::ai::Seat;
use crate::rules::record::Record;

/// What starts a share link's fragment.
pub const PREFIX: &str = "#game=";

/// Characters left as they are: letters, digits and a few that are plain in a fragment
/// (RFC 3986 §3.5), so moves and keys stay readable.
const KEEP: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~').remove(b':').remove(b',');

/// The fragment (`#game=…`) for `record`: its game, options, moves and players (the result and
/// date are left out, and so are the analysis, the variations and the hint counts, to keep the link
/// short; the result is recomputed on opening).
pub fn fragment(record: &Record) -> String {
    let shared = Record {
        result: None,
        date: None,
        analysis: None,
        variations: Vec::new(),
        hints: Vec::new(),
        ..record.clone()
    };
    let json = serde_json::to_string(&shared).expect("a record serialises");
    format!("{PREFIX}{}", utf8_percent_encode(&json, KEEP))
}

/// Reads a URL fragment: `Ok(None)` when it holds no game (empty or another fragment).
///
/// # Errors
/// The fragment starts with `#game=` but is not a record: bad percent-encoding or JSON (with the
/// line and column). Its moves are checked when it is opened.
pub fn parse_fragment(fragment: &str) -> Result<Option<Record>, String> {
    let Some(encoded) = fragment.strip_prefix(PREFIX).or_else(|| fragment.strip_prefix(&PREFIX[1..])) else {
        return Ok(None);
    };
    let json = percent_decode_str(encoded).decode_utf8().map_err(|e| format!("the link is not valid text: {e}"))?;
    Record::from_json(&json).map(Some).map_err(|e| e.to_string())
}

/// A record to open as the game in play, with its own seats (a share link); removed once it has
/// been opened or refused.
#[derive(Resource, Clone, Debug)]
pub struct OpenRecord(pub Record);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, open_record.in_set(Step::Intents).run_if(resource_exists::<OpenRecord>));
}

/// Checks the record; from the start screen, or from a board of another game, starts a game of
/// its kind first (re-entering [`Screen::Playing`]); then opens the record with its seats (people
/// where it names none) through [`Command::Open`].
#[allow(clippy::too_many_arguments)]
fn open_record(
    mut commands: Commands,
    open: Res<OpenRecord>,
    in_play: Res<InPlay>,
    mut setup: ResMut<Setup>,
    mut status: ResMut<Status>,
    mut next: ResMut<NextState<Screen>>,
    mut orders: MessageWriter<Command>,
) {
    let record = open.0.clone();
    /// The record's game with its options and seat count, after checking every move.
    struct Check<'a>(&'a Record);
    impl ForGame for Check<'_> {
        type Output = Result<(GameOptions, usize, &'static [&'static str]), String>;
        fn run<G: AppGame>(self) -> Self::Output {
            let (start, _, _) = self.0.replay::<G>().map_err(|e| e.to_string())?;
            Ok((GameOptions::of::<G>(start.options()), start.num_players(), G::IDS))
        }
    }
    let id = record.game.as_str();
    let (game, players, ids) = match for_id(id, Check(&record)).unwrap_or_else(|| Err(unknown_game(id))) {
        Ok(found) => found,
        Err(e) => {
            *status = Status::error(format!("cannot open the game: {e}"));
            commands.remove_resource::<OpenRecord>();
            return;
        }
    };
    let seats: Vec<Seat> = record.players.iter().filter_map(|p| Seat::from_label(p)).collect();
    let seats = if seats.len() == players { seats } else { vec![Seat::Human; players] };
    setup.game = game;
    setup.seats = seats;
    // Once the board of the record's game is up (it may have been started for it a frame ago).
    if in_play.0.as_ref().is_some_and(|s| s.ids == ids) {
        orders.write(Command::Open(record));
        commands.remove_resource::<OpenRecord>();
    } else {
        next.set(Screen::Playing);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_round_trip() {
        let record = Record {
            game: "trike".into(),
            options: serde_json::json!({"size": 7}),
            moves: vec!["d4".into(), "swap".into(), "d6".into()],
            players: vec!["Human".into(), "AI level 2".into()],
            date: Some("2026-11-23".into()),
            result: None,
            analysis: None,
            variations: Vec::new(),
            hints: Vec::new(),
        };
        let link = fragment(&record);
        assert!(link.starts_with("#game=%7B%22game%22:%22trike%22,"), "{link}");
        assert!(!link[1..].contains(['#', ' ', '"', '{', '}', '[', ']']), "{link}");
        let back = parse_fragment(&link).unwrap().unwrap();
        assert_eq!(back, Record { date: None, ..record });
    }

    #[test]
    fn fragments_without_a_game() {
        assert_eq!(parse_fragment(""), Ok(None));
        assert_eq!(parse_fragment("#"), Ok(None));
        assert_eq!(parse_fragment("#about"), Ok(None));
    }

    #[test]
    fn bad_fragments_are_refused_with_the_place() {
        let err = parse_fragment("#game=%7B%22game%22:%22trike%22,").unwrap_err();
        assert!(err.contains("line 1 column"), "{err}");
        let err = parse_fragment("#game=%FF%FE").unwrap_err();
        assert!(err.contains("not valid text"), "{err}");
    }
}
