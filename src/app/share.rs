//! Share links: the game record in the URL fragment (`#game=…`), so a link opens the game at its
//! position (`docs/design.md` §Web). The fragment is the record's compact JSON, percent-encoded.
//! The session opens what a link holds ([`super::session::OpenRecord`]).

use bevy::prelude::*;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

use crate::rules::record::Record;

/// What starts a share link's fragment.
pub const PREFIX: &str = "#game=";

/// Characters left as they are: letters, digits and a few that are plain in a fragment
/// (RFC 3986 §3.5), so moves and keys stay readable.
const KEEP: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~').remove(b':').remove(b',');

/// The fragment (`#game=…`) for `record`: its game, options, moves and players, and the seat that
/// resigned or ran out of time (the result and date are left out, and so are the analysis, the
/// variations and the hint counts, to keep the link short; the result is recomputed on opening).
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
            resigned: None,
            flagged: None,
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
