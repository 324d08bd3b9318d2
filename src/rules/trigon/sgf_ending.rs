//! What Pentobi's SGF dialect (`sgf`) says of a game beyond its moves, as triboard reads and writes
//! it: how a game ended off the board (a seat resigned or ran out of time, [`Record::resigned`],
//! [`Record::flagged`]) and the date.
//!
//! - In the two-player variant the ending is SGF 4's result `RE`: the winner (`B` the first player,
//!   `W` the second, as `Pentobi-SGF.md` §Color and Player Properties names them) and how,
//!   `RE[W+Resign]` (the first player resigned) or `RE[B+Time]` (the second ran out of time);
//!   `R` and `T` are read too.
//! - SGF 4's `RE` has no form for three or four players, so there the ending is the root property
//!   `ENDING`, the player's number (`1`–`4`, as the player properties `P1`–`P4`) and how:
//!   `ENDING[2 resigned]`, `ENDING[3 ran out of time]`; `RE` keeps the result in words. Pentobi
//!   reads neither `RE` nor unknown properties (it keeps them), so its files open there as before.
//! - A game aborted (a seat left before every seat had moved, [`Record::aborted`]: nobody won) is
//!   `RE[Void]`, SGF 4's "no result", in the two-player variant, and `ENDING[1 resigned, aborted]`
//!   in any.
//! - `DT` is SGF's date list, `YYYY-MM-DD`: a record's date with a time (`2026-11-24T10:00:00Z`)
//!   is written as its day.
//!
//! [`Record::resigned`]: crate::rules::record::Record::resigned
//! [`Record::flagged`]: crate::rules::record::Record::flagged
//! [`Record::aborted`]: crate::rules::record::Record::aborted

use super::Variant;
use super::sgf_tree::{Node, SgfError, single};

/// The private root property of the ending in the three- and four-player variants.
pub(super) const ENDING: &str = "ENDING";

/// An ending off the board as a file states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileEnding {
    /// The seat that lost, counted from 0.
    pub(super) seat: u8,
    /// It ran out of time (else it resigned).
    pub(super) flagged: bool,
    /// It left before every seat had moved: the game was aborted ([`Record::aborted`]).
    ///
    /// [`Record::aborted`]: crate::rules::record::Record::aborted
    pub(super) aborted: bool,
    /// The property that says so (`RE` or `ENDING`) and the offset of its value.
    pub(super) property: &'static str,
    pub(super) offset: usize,
}

impl FileEnding {
    /// "resigned" or "ran out of time".
    pub(super) fn how(&self) -> &'static str {
        how(self.flagged)
    }
}

fn how(flagged: bool) -> &'static str {
    if flagged { "ran out of time" } else { "resigned" }
}

/// The ending the root node states: `RE[B+Resign]`-style in the two-player variant (another `RE`
/// is a result in words, not an ending), `ENDING` in any variant.
///
/// # Errors
/// An `ENDING` that is not a seat of the game's and how it lost, or that disagrees with `RE`.
pub(super) fn ending_of(root: &Node, variant: Variant) -> Result<Option<FileEnding>, SgfError> {
    let mut found = None;
    if variant == Variant::Two
        && let Some(p) = root.get("RE")
    {
        let value = single(p)?;
        found = two_player_result(&value.text).map(|(seat, flagged)| FileEnding {
            seat,
            flagged,
            aborted: false,
            property: "RE",
            offset: value.offset,
        });
    }
    let Some(p) = root.get(ENDING) else { return Ok(found) };
    let value = single(p)?;
    let seats = variant.seats();
    let bad = || {
        SgfError::new(
            value.offset,
            format!(
                "{ENDING}[{}]: expected a player's number (1 to {seats}) and how the player lost, like \
                 '2 resigned' or '2 ran out of time' (then ', aborted' for a game aborted so)",
                value.text
            ),
        )
    };
    let text = value.text.trim();
    let (text, aborted) = text.strip_suffix(", aborted").map_or((text, false), |t| (t, true));
    let (number, rest) = text.split_once(' ').ok_or_else(bad)?;
    let number: usize = number.parse().map_err(|_| bad())?;
    let flagged = match rest.trim() {
        "resigned" => false,
        "ran out of time" => true,
        _ => return Err(bad()),
    };
    if !(1..=seats).contains(&number) {
        return Err(bad());
    }
    let ending = FileEnding { seat: (number - 1) as u8, flagged, aborted, property: ENDING, offset: value.offset };
    if let Some(re) = found
        && (re.seat, re.flagged, re.aborted) != (ending.seat, ending.flagged, ending.aborted)
    {
        return Err(SgfError::new(value.offset, format!("{ENDING}[{}] disagrees with RE", value.text)));
    }
    Ok(Some(ending))
}

/// The loser and whether on time of SGF 4's `W+Resign`, `B+R`, `W+Time`, `B+T` (case ignored).
fn two_player_result(text: &str) -> Option<(u8, bool)> {
    let (winner, how) = text.trim().split_once('+')?;
    let loser = match winner.trim().to_ascii_uppercase().as_str() {
        "B" => 1,
        "W" => 0,
        _ => return None,
    };
    match how.trim().to_ascii_lowercase().as_str() {
        "r" | "resign" => Some((loser, false)),
        "t" | "time" => Some((loser, true)),
        _ => None,
    }
}

/// The root properties that write the ending `seat` lost (`flagged`: on time; `aborted`: before
/// every seat moved), with `result` the record's result in words: `RE[W+Resign]` in the two-player
/// variant, `RE[Void]` (SGF 4's "no result") and `ENDING[1 resigned, aborted]` for an aborted
/// one; else `RE[result]` and `ENDING[2 resigned]`. Values unescaped.
pub(super) fn ending_properties(
    variant: Variant,
    ending: Option<(u8, bool)>,
    aborted: bool,
    result: Option<&str>,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    match ending {
        Some((seat, flagged)) if variant == Variant::Two && !aborted => {
            let winner = if seat == 0 { "W" } else { "B" };
            out.push(("RE", format!("{winner}+{}", if flagged { "Time" } else { "Resign" })));
        }
        _ => {
            if variant == Variant::Two && ending.is_some() {
                out.push(("RE", "Void".to_string()));
            } else if let Some(result) = result {
                out.push(("RE", result.to_string()));
            }
            if let Some((seat, flagged)) = ending {
                let aborted = if aborted { ", aborted" } else { "" };
                out.push((ENDING, format!("{} {}{aborted}", seat + 1, how(flagged))));
            }
        }
    }
    out
}

/// SGF's `DT` of a record's date: its leading `YYYY-MM-DD` (or `YYYY-MM`, `YYYY`), the time after
/// it left out; `None` for a date that does not start so.
pub(super) fn sgf_date(date: &str) -> Option<&str> {
    let b = date.trim().as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let ends = |at: usize| b.get(at).is_none_or(|c| !c.is_ascii_digit());
    let len = if digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && ends(10)
    {
        10
    } else if digits(0..4) && b.get(4) == Some(&b'-') && digits(5..7) && ends(7) {
        7
    } else if digits(0..4) && ends(4) {
        4
    } else {
        return None;
    };
    Some(&date.trim()[..len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_lose_their_time() {
        assert_eq!(sgf_date("2026-11-24T10:00:00Z"), Some("2026-11-24"));
        assert_eq!(sgf_date("2026-11-24 02:33"), Some("2026-11-24"));
        assert_eq!(sgf_date("2026-11-24"), Some("2026-11-24"));
        assert_eq!(sgf_date("2026-11"), Some("2026-11"));
        assert_eq!(sgf_date("yesterday"), None);
        assert_eq!(sgf_date("20261124"), None);
    }

    #[test]
    fn two_player_results() {
        assert_eq!(two_player_result("W+Resign"), Some((0, false)));
        assert_eq!(two_player_result("b+r"), Some((1, false)));
        assert_eq!(two_player_result("B+Time"), Some((1, true)));
        assert_eq!(two_player_result("W+T"), Some((0, true)));
        assert_eq!(two_player_result("B+12"), None);
        assert_eq!(two_player_result("Blue/Red 40 – Yellow/Green 38"), None);
    }
}
