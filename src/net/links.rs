//! The links people pass around, read and written without the app (`docs/design.md` §Web and
//! §Network play (the app's client)), so the fuzz targets (`fuzz/`) and the property tests
//! (`tests/decoders.rs`) reach them without Bevy:
//!
//! - share links: a game record in the URL fragment (`#game=…`, [`fragment`], [`parse_fragment`]),
//!   the record's compact JSON percent-encoded, so a link opens the game at its position;
//! - invitations: a join code on a server (`http://host:port/#join=CODE`, [`join_link`],
//!   [`read_invitation`]), and the server's address as a person types it ([`server_url`]).
//!
//! Reading never panics: text that is not a link is an error, or (for an invitation, where a
//! bare code is allowed) read as the code.

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
    let json = serde_json::to_string(&shared(record)).expect("a record serialises");
    format!("{PREFIX}{}", utf8_percent_encode(&json, KEEP))
}

/// What of `record` a share link keeps ([`fragment`]): all but the result, date, analysis,
/// variations and hint counts.
pub fn shared(record: &Record) -> Record {
    Record { result: None, date: None, analysis: None, variations: Vec::new(), hints: Vec::new(), ..record.clone() }
}

/// Reads a URL fragment (with or without its `#`): `Ok(None)` when it holds no game (empty or
/// another fragment).
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

/// The server's address as a person may type it: `host:port`, `http(s)://host:port/…` or
/// `ws(s)://host:port/ws` all become the WebSocket address `ws(s)://host:port/ws`.
///
/// # Errors
/// An empty address, one with spaces, another scheme, or one that names no host.
pub fn server_url(typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("type the server's address, as host:port".to_string());
    }
    if typed.contains(char::is_whitespace) {
        return Err(format!("'{typed}' is not a server's address (it has spaces)"));
    }
    let (scheme, rest) = match typed.split_once("://") {
        Some(("https" | "wss", rest)) => ("wss", rest),
        Some(("http" | "ws", rest)) => ("ws", rest),
        Some((other, _)) => return Err(format!("'{other}://' is not a web address; use ws:// or http://")),
        None => ("ws", typed),
    };
    let host = rest.split(['/', '#', '?']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("'{typed}' names no host"));
    }
    Ok(format!("{scheme}://{host}/ws"))
}

/// The invitation link of join code `code` on the server at WebSocket address `url` (as
/// [`server_url`] gives it): the page the server serves, with `#join=CODE`
/// (`http://host:port/#join=CODE`).
pub fn join_link(url: &str, code: &str) -> String {
    let page = url.replacen("wss://", "https://", 1).replacen("ws://", "http://", 1);
    let page = page.strip_suffix("/ws").unwrap_or(&page);
    format!("{page}/#join={code}")
}

/// Reads what a person pastes to join: a link with `#join=CODE` (its server too), or the code
/// alone. Returns the code and, for a link, the server's WebSocket address ([`server_url`]; none
/// when the link's page is not a server's address). Never fails: what is not a link is a code,
/// which the server checks.
pub fn read_invitation(typed: &str) -> (String, Option<String>) {
    let typed = typed.trim();
    match typed.split_once("#join=") {
        Some((page, code)) => {
            let server = (!page.is_empty()).then(|| server_url(page).ok()).flatten();
            (code.trim().to_string(), server)
        }
        None => (typed.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_round_trip() {
        let moves = vec!["d4".into(), "swap".into(), "d6".into()];
        let record = Record {
            players: vec!["Human".into(), "AI level 2".into()],
            date: Some("2026-11-23".into()),
            ..Record::of_texts("trike", serde_json::json!({"size": 7}), moves)
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

    #[test]
    fn typed_addresses_become_websocket_addresses() {
        assert_eq!(server_url("127.0.0.1:8080").unwrap(), "ws://127.0.0.1:8080/ws");
        assert_eq!(server_url("http://example.org:8080/").unwrap(), "ws://example.org:8080/ws");
        assert_eq!(server_url("https://example.org/#join=ABCD").unwrap(), "wss://example.org/ws");
        assert_eq!(server_url(" wss://example.org/ws ").unwrap(), "wss://example.org/ws");
        assert!(server_url("").is_err());
        assert!(server_url("ftp://x").unwrap_err().contains("ftp"));
        assert!(server_url("a b").is_err());
    }

    #[test]
    fn invitations_round_trip_through_their_links() {
        let link = join_link("ws://127.0.0.1:8080/ws", "ABCD2345");
        assert_eq!(link, "http://127.0.0.1:8080/#join=ABCD2345");
        assert_eq!(read_invitation(&link), ("ABCD2345".to_string(), Some("ws://127.0.0.1:8080/ws".to_string())));
        assert_eq!(join_link("wss://example.org/ws", "X"), "https://example.org/#join=X");
        assert_eq!(read_invitation(" abcd-2345 "), ("abcd-2345".to_string(), None));
        assert_eq!(read_invitation("#join=K"), ("K".to_string(), None));
    }
}
