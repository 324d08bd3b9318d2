//! The links people pass around, read and written without the app (`docs/design.md` §Web and
//! §Network play (the app's client)), so the fuzz targets (`fuzz/`) and the property tests
//! (`tests/decoders.rs`) reach them without Bevy:
//!
//! - share links: a game record in the URL fragment (`#game=…`, [`fragment`], [`parse_fragment`]),
//!   the record's compact JSON percent-encoded, so a link opens the game at its position;
//! - invitations: a join code on a server (`http://host:port/#join=CODE`, [`join_link`],
//!   [`read_invitation`]), and the server's address as a person types it ([`server_url`]).
//!
//! Reading never panics: text that is not a link (or, for an invitation, a code) is an error that
//! says why.

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
/// An empty address, one with spaces, another scheme, one that names no host, a host with
/// characters no host name has, or a port that is not a number from 1 to 65535.
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
    check_host(host)?;
    Ok(format!("{scheme}://{host}/ws"))
}

/// Checks `host[:port]` (an IPv6 address in brackets, `[::1]:8080`).
fn check_host(host: &str) -> Result<(), String> {
    let (name, port) = match host.strip_prefix('[') {
        Some(v6) => {
            let (address, after) =
                v6.split_once(']').ok_or_else(|| format!("'{host}': an IPv6 address is closed by ']'"))?;
            if address.is_empty() || !address.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.') {
                return Err(format!("'[{address}]' is not an IPv6 address"));
            }
            match after {
                "" => (address, None),
                _ => (address, Some(after.strip_prefix(':').ok_or_else(|| format!("'{after}' after '[{address}]'"))?)),
            }
        }
        None => {
            let (name, port) = host.split_once(':').map_or((host, None), |(n, p)| (n, Some(p)));
            if name.is_empty() {
                return Err(format!("'{host}' names no host before its port"));
            }
            if let Some(bad) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))) {
                return Err(format!("'{name}' is not a host name (it has '{bad}')"));
            }
            (name, port)
        }
    };
    match port {
        Some(port) if !port.parse::<u16>().is_ok_and(|p| p > 0) => {
            Err(format!("the port of '{name}' is '{port}', not a number from 1 to 65535"))
        }
        _ => Ok(()),
    }
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
/// alone. Returns the code as typed (trimmed; the server reads it without case, spaces and
/// dashes) and, for a link that names its page, the server's WebSocket address ([`server_url`]).
///
/// # Errors
/// Nothing typed; a link whose address does not read ([`server_url`]'s reason); a link without
/// `#join=` (a page's address, a share link); a code with other than letters, digits, spaces and
/// dashes, or over 32 characters.
pub fn read_invitation(typed: &str) -> Result<(String, Option<String>), String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("type the code, or paste the invitation's link".to_string());
    }
    let (page, code) = match typed.split_once("#join=") {
        Some((page, code)) => (Some(page), code.trim()),
        None if typed.contains(['/', '#', ':', '.']) => {
            return Err(format!(
                "'{typed}' is not an invitation: its link ends in #join= and the code (the server's \
                 address goes in the Server field)"
            ));
        }
        None => (None, typed),
    };
    check_code(code)?;
    let server = match page {
        Some("") | None => None,
        Some(page) => Some(server_url(page).map_err(|e| format!("the link's server does not read: {e}"))?),
    };
    Ok((code.to_string(), server))
}

/// Checks a join code as typed: letters and digits, spaces and dashes between them.
fn check_code(code: &str) -> Result<(), String> {
    let letters = code.chars().filter(|c| !c.is_whitespace() && *c != '-');
    if code.is_empty() {
        return Err("the link has no code after #join=".to_string());
    }
    if let Some(bad) = letters.clone().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(format!("'{code}' is not a join code: it has '{bad}' (a code is letters and digits, ABCD-2345)"));
    }
    match letters.count() {
        0 => Err(format!("'{code}' is not a join code (a code is letters and digits, ABCD-2345)")),
        n if n > 32 => Err(format!("'{code}' is not a join code: {n} characters, a code has 8")),
        _ => Ok(()),
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
        assert_eq!(read_invitation(&link), Ok(("ABCD2345".to_string(), Some("ws://127.0.0.1:8080/ws".to_string()))));
        assert_eq!(join_link("wss://example.org/ws", "X"), "https://example.org/#join=X");
        assert_eq!(read_invitation(" abcd-2345 "), Ok(("abcd-2345".to_string(), None)));
        assert_eq!(read_invitation("#join=K"), Ok(("K".to_string(), None)));
        assert_eq!(
            read_invitation("http://[::1]:8080/#join=K"),
            Ok(("K".to_string(), Some("ws://[::1]:8080/ws".into())))
        );
    }

    #[test]
    fn a_link_that_does_not_read_is_refused_with_its_reason() {
        // The mistyped link that once became the Server field's `ws://127.0.0.1:80YFZJ-AQZR99/ws`.
        let err = read_invitation("http://127.0.0.1:80YFZJ-AQZR99/#join=YFZJAQZR").unwrap_err();
        assert!(err.contains("port") && err.contains("80YFZJ-AQZR99"), "{err}");
        assert!(server_url("127.0.0.1:80YFZJ-AQZR99").unwrap_err().contains("not a number"));
        assert!(server_url("127.0.0.1:0").is_err());
        assert!(server_url("127.0.0.1:65536").is_err());
        assert!(server_url("user@host:1").unwrap_err().contains("'@'"));
        assert!(read_invitation("").is_err());
        assert!(read_invitation("http://127.0.0.1:8080/").unwrap_err().contains("#join="));
        assert!(read_invitation("127.0.0.1:8099").unwrap_err().contains("Server field"));
        assert!(read_invitation("http://h:1/#join=").unwrap_err().contains("no code"));
        assert!(read_invitation("http://h:1/#join=AB?D").unwrap_err().contains("'?'"));
        assert!(read_invitation(&"A".repeat(40)).unwrap_err().contains("40 characters"));
    }
}
