//! Pentobi's SGF dialect for Blokus Trigon records (`.blksgf`, `docs/rules/trigon.md` §Records), read
//! into and written from the JSON [`Record`], so that the app and the CLI load either format.
//!
//! The dialect, as Pentobi's format description (`Pentobi-SGF.md`) defines it and Pentobi writes it:
//! - SGF 4 syntax: `(;GM[Blokus Trigon]CA[UTF-8];1[r12,r13,s13,r14,s14,r15];2[…]…)`, a tree of
//!   nodes (`;`) holding properties (`ID[value][value]…`), values escaped with `\` (`\]`, `\\`).
//! - `GM` names the variant: `Blokus Trigon`, `Blokus Trigon Two-Player`, `Blokus Trigon
//!   Three-Player`. Only UTF-8 (`CA`) is supported.
//! - A move is a node with a colour property `1`–`4` (Blue, Yellow, Red, Green — also in the
//!   two-player variant, whose players own two colours each) whose value is the comma-separated list
//!   of the cells the piece covers, cells named as in our notation (case-insensitive), written in the
//!   order `a1, b1, …, a2, b2, …`. Pentobi 0.1's `BLUE`/`YELLOW`/`RED`/`GREEN` and point lists are
//!   read too.
//! - Players: `PB`/`PW` in the two-player variant, `P1`–`P4` otherwise; `DT` the date, `RE` the result;
//!   how a game ended off the board (a resignation, a loss on time) as `sgf_ending` says: SGF's
//!   `RE[W+Resign]` for two players, a root property `ENDING[2 resigned]` for more.
//! - No pass is written: a colour that cannot place is skipped, so a move by a colour other than the
//!   one to move means the colours in between passed.
//! - A colour's retirement (the rules' `retire`: its player left a game of three or four that went
//!   on) is a node of its own, `;RETIRE[3]` ([`RETIRE`]), which Pentobi ignores.
//!
//! What this module does with it:
//! - Reading takes the main line (the first child of every node) as the game's moves and every
//!   other line, root to leaf, as a variation ([`Record::variations`], each a whole line from the
//!   start; one another line holds whole adds nothing, `sgf_lines`), and ignores comments (`C`)
//!   and other annotations; `DT` keeps its day. Setup (`AB AW A1–A4 AE`) is refused
//!   with its reason: games start from the empty board here. A skipped colour must indeed have no
//!   placement. After the last move of a line, colours with no placement pass, so a finished game
//!   loads finished; an ending off the board loads too, so a resigned game loads over. Errors name
//!   the byte offset.
//! - Writing gives a [`Record`]'s main line and its variations, one node per placement, passes left
//!   out, and its ending.

use super::sgf_ending::{ending_of, ending_properties, sgf_date};
use super::sgf_lines::{Fork, kept_lines, tree_of};
pub use super::sgf_tree::SgfError;
use super::sgf_tree::{Node, single, tree};
use super::{COLOURS, Trigon, TrigonMove, TrigonOptions, Variant};
use crate::rules::game::Game;
use crate::rules::record::{Record, RecordError};

/// The node property of a colour's retirement: its player left a game of three or four (resigned
/// or ran out of time online) and the others played on; the value is the colour, `1`–`4`, as the
/// move properties name it. Pentobi knows no such move and ignores the property, so the colour is
/// simply not seen again there.
pub const RETIRE: &str = "RETIRE";

/// The file extension of Pentobi's records.
pub const EXTENSION: &str = "blksgf";

/// True when `text` is an SGF record rather than a JSON one: its first character after a byte order
/// mark and ASCII whitespace is `(` (a JSON record starts with `{`). A loader uses it to choose
/// between [`read`] and [`Record::from_json`].
pub fn looks_like_sgf(text: &str) -> bool {
    text.strip_prefix('\u{feff}').unwrap_or(text).trim_start_matches(|c: char| c.is_ascii_whitespace()).starts_with('(')
}

/// A record in either format, SGF ([`read`]) or JSON ([`Record::from_json`]), chosen by
/// [`looks_like_sgf`].
///
/// # Errors
/// The reader's error as text: `byte 123: reason` for SGF, line and column for JSON.
pub fn read_any(text: &str) -> Result<Record, String> {
    if looks_like_sgf(text) {
        read(text).map_err(|e| e.to_string())
    } else {
        Record::from_json(text).map_err(|e| e.to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Meaning: the game

/// The player properties of each seat (`Pentobi-SGF.md` §Color and Player Properties).
fn player_properties(variant: Variant) -> &'static [&'static str] {
    match variant {
        Variant::Four => &["P1", "P2", "P3", "P4"],
        Variant::Two => &["PB", "PW"],
        Variant::Three => &["P1", "P2", "P3"],
    }
}

/// The colour (`0..4`) a move property stands for, if it is one (Pentobi 0.1 used colour names).
fn move_colour(id: &str) -> Option<usize> {
    match id {
        "1" | "BLUE" => Some(0),
        "2" | "YELLOW" => Some(1),
        "3" | "RED" => Some(2),
        "4" | "GREEN" => Some(3),
        _ => None,
    }
}

/// Most lines one file may hold, its main line and its variations together: a [`Record`] keeps
/// each variation as a whole line from the start, so a file of more is refused, not read.
pub const MAX_LINES: usize = 1000;

/// Reads a Blokus Trigon record in Pentobi's SGF dialect (see the module documentation) into a
/// [`Record`] with the game id (`trigon`, `trigon-2`, `trigon-3`), options, moves in our notation
/// (including the passes of the colours Pentobi skips), every variation (each a whole line from
/// the start, [`Record::variations`]), players, date, result and the ending off the board (`RE`'s
/// `B+Resign`/`W+Time` in the two-player variant, `ENDING` in any). Every move has been replayed,
/// so the record loads with [`Record::replay`].
///
/// # Errors
/// [`SgfError`] with the byte offset and reason: malformed SGF, a missing or other `GM`, another
/// character set than UTF-8, setup properties, a move (of the main line or of a variation) that
/// does not name a piece on the board, is illegal, or is by a colour other than the one to move when
/// the colours in between could still place; more than [`MAX_LINES`] lines; an ending that names
/// no seat of the game or follows a game the rules ended.
pub fn read(text: &str) -> Result<Record, SgfError> {
    let nodes = tree(text)?;
    let root = nodes.first().ok_or_else(|| SgfError::new(0, "the game tree has no node"))?;
    let gm = root.get("GM").ok_or_else(|| {
        SgfError::new(root.offset, "the root node has no GM property: it does not say which game it records")
    })?;
    let gm_value = single(gm)?;
    // The `GM` value of each variant is its name (`Pentobi-SGF.md` §Game Property), matched exactly.
    let variant = Variant::ALL.into_iter().find(|&v| v.name() == gm_value.text.trim()).ok_or_else(|| {
        SgfError::new(
            gm_value.offset,
            format!(
                "GM[{}] is not Blokus Trigon: triboard reads 'Blokus Trigon', 'Blokus Trigon Two-Player' \
                     and 'Blokus Trigon Three-Player'",
                gm_value.text
            ),
        )
    })?;
    if let Some(ca) = root.get("CA") {
        let value = single(ca)?;
        if !value.text.trim().eq_ignore_ascii_case("UTF-8") {
            return Err(SgfError::new(value.offset, format!("CA[{}]: only UTF-8 is supported", value.text)));
        }
    }
    let text_of = |id: &str| -> Result<Option<String>, SgfError> {
        root.get(id).map(|p| single(p).map(|v| v.text.clone())).transpose()
    };
    let mut players = Vec::new();
    for id in player_properties(variant) {
        players.push(text_of(id)?.unwrap_or_default());
    }
    if players.iter().all(String::is_empty) {
        players.clear();
    }
    // SGF's DT is a date (a list of them): the day is kept.
    let date = text_of("DT")?.and_then(|d| sgf_date(&d).map(str::to_string));
    let result = text_of("RE")?;
    let ending = ending_of(root, variant)?;
    let leaves = nodes.iter().filter(|n| n.children.is_empty()).count();
    if leaves > MAX_LINES {
        return Err(SgfError::new(
            root.offset,
            format!("the game tree has {leaves} lines (variations): triboard reads at most {MAX_LINES}"),
        ));
    }

    let options = TrigonOptions { variant };
    let start = Trigon::new(&options).map_err(|e| SgfError::new(gm_value.offset, e))?;
    let (lines, ends): (Vec<Vec<String>>, Vec<Trigon>) = read_lines(&nodes, start, &gm_value.text)?.into_iter().unzip();
    let end = ends.into_iter().next().expect("a tree has a line");
    let (moves, variations) = kept_lines(lines);
    let mut record = Record {
        players,
        date,
        result,
        variations,
        ..Record::of_texts(end.id(), serde_json::to_value(&options).expect("options serialise"), moves)
    };
    if let Some(ending) = ending {
        if end.colour_to_move().is_none() {
            return Err(SgfError::new(
                ending.offset,
                format!("{}: the game {}, but the rules had ended it", ending.property, ending.how()),
            ));
        }
        *(if ending.flagged { &mut record.flagged } else { &mut record.resigned }) = Some(ending.seat);
        record.aborted = ending.aborted;
        record.result = record.ending_text(&end);
    }
    Ok(record)
}

/// A line of the tree being read: the position, the moves so far in our notation and how many of
/// them were placements (to number them in errors).
#[derive(Clone)]
struct Line {
    game: Trigon,
    moves: Vec<String>,
    placements: usize,
}

/// Plays the passes of the colours to move that have no placement left, one after another, as
/// reading does after a line's last move (so a finished game loads finished); returns how many.
pub fn pass_forced(game: &mut Trigon) -> usize {
    let (mut legal, mut passes) = (Vec::new(), 0);
    while game.colour_to_move().is_some() {
        game.legal_moves(&mut legal);
        if legal != [TrigonMove::PASS] {
            break;
        }
        game.play_unchecked(TrigonMove::PASS);
        passes += 1;
    }
    passes
}

/// Every line of the tree, root to leaf, the main line first and the others in the file's order:
/// each line's moves (passes included, and the passes of the colours left with no placement after
/// its last move) and its last position.
fn read_lines(nodes: &[Node], start: Trigon, gm: &str) -> Result<Vec<(Vec<String>, Trigon)>, SgfError> {
    let mut done = Vec::new();
    // Depth first without recursion (a file may nest deeply); the first child is taken first.
    let mut stack = vec![(0, Line { game: start, moves: Vec::new(), placements: 0 })];
    while let Some((k, mut line)) = stack.pop() {
        let node = &nodes[k];
        play_node(node, &mut line, gm)?;
        match node.children.as_slice() {
            [] => {
                for _ in 0..pass_forced(&mut line.game) {
                    line.moves.push(line.game.move_text(TrigonMove::PASS));
                }
                done.push((line.moves, line.game));
            }
            [only] => stack.push((*only, line)),
            children => stack.extend(children.iter().rev().map(|&c| (c, line.clone()))),
        }
    }
    Ok(done)
}

/// Plays the move of `node`, if it has one, on `line`, after the passes of the colours it skips.
fn play_node(node: &Node, line: &mut Line, gm: &str) -> Result<(), SgfError> {
    let game = &mut line.game;
    for p in &node.properties {
        match p.id.as_str() {
            "AB" | "AW" | "A1" | "A2" | "A3" | "A4" | "AE" => {
                return Err(SgfError::new(
                    p.offset,
                    format!(
                        "setup property {}: triboard replays games from the empty board, not set-up positions",
                        p.id
                    ),
                ));
            }
            "B" | "W" => {
                return Err(SgfError::new(
                    p.offset,
                    format!("{} is a move of two-colour games: Blokus Trigon's moves are 1, 2, 3 and 4", p.id),
                ));
            }
            "PL" => {
                let value = single(p)?;
                let named = move_colour(value.text.trim());
                if named.is_none() || named != game.colour_to_move() {
                    return Err(SgfError::new(
                        value.offset,
                        format!("PL[{}] sets the colour to play, which triboard does not support", value.text),
                    ));
                }
            }
            _ => {}
        }
    }
    // The node's move: a placement (`1`–`4`), or a colour's retirement (`RETIRE[n]`).
    let mut node_moves = Vec::new();
    for p in &node.properties {
        if let Some(c) = move_colour(&p.id) {
            let cells = p.values.iter().map(|v| v.text.trim()).collect::<Vec<_>>().join(",");
            node_moves.push((c, p, cells));
        } else if p.id == RETIRE {
            let value = single(p)?;
            let colour = value.text.trim().parse::<usize>().ok().filter(|n| (1..=4).contains(n)).ok_or_else(|| {
                SgfError::new(
                    value.offset,
                    format!("{RETIRE}[{}]: expected the colour that retires, 1 to 4", value.text),
                )
            })?;
            node_moves.push((colour - 1, p, "retire".to_string()));
        }
    }
    let Some((colour, p, value)) = node_moves.first() else { return Ok(()) };
    let (colour, p, value) = (*colour, *p, value.clone());
    if let Some((_, second, _)) = node_moves.get(1) {
        return Err(SgfError::new(second.offset, format!("a second move ({}) in one node", second.id)));
    }
    line.placements += 1;
    let number = line.placements;
    let here = |reason: String| SgfError::new(p.offset, format!("move {number} ({}[{value}]): {reason}", p.id));
    let colours = game.options().variant.colours();
    if colour >= colours {
        return Err(here(format!("{gm} has no colour {}: its colours are 1 to {colours}", p.id)));
    }
    // The colours before this one are skipped: each must have no placement left.
    while let Some(to_move) = game.colour_to_move() {
        if to_move == colour {
            break;
        }
        if game.is_out(colour) {
            return Err(here(format!("{} could no longer place a piece", COLOURS[colour])));
        }
        if game.play(TrigonMove::PASS).is_err() {
            return Err(here(format!(
                "{} is to move and can still place a piece, so it cannot be skipped",
                COLOURS[to_move]
            )));
        }
        line.moves.push(game.move_text(TrigonMove::PASS));
    }
    if game.colour_to_move().is_none() {
        return Err(here("the game is over: no colour can place a piece".to_string()));
    }
    let mv = game.parse_move(&value.to_ascii_lowercase()).map_err(|e| here(e.reason))?;
    let text = game.move_text(mv);
    game.play(mv).map_err(|e| here(e.reason))?;
    line.moves.push(text);
    Ok(())
}

/// A value escaped for SGF: `\` and `]` get a `\` before them.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A placement's cells in Pentobi's order `a1, b1, …, a2, b2, …` (by row from the bottom, then by
/// column), comma-separated.
fn cells_text(game: &Trigon, mv: TrigonMove) -> String {
    let tables = game.tables();
    let board = tables.board;
    let mut cells: Vec<usize> = tables.placements[mv.0 as usize].cells.iter().map(|&c| c as usize).collect();
    cells.sort_by_key(|&c| (std::cmp::Reverse(board.xy[c].1), board.xy[c].0));
    cells.iter().map(|&c| board.label(c)).collect::<Vec<_>>().join(",")
}

/// Writes a Blokus Trigon record in Pentobi's SGF dialect: a root node with `GM` (first, as
/// Pentobi's MIME detection wants), `FF[4]`, `CA[UTF-8]`, `AP[triboard:version]`, the players
/// (`PB`/`PW` or `P1`–`P4`, empty names left out), `DT` (the record's day, `YYYY-MM-DD`, without a
/// time), `RE` and the ending off the board (`sgf_ending`: `RE[W+Resign]`, or `ENDING[2 resigned]`
/// beside `RE` in words) when the record has them, then one node per placement (`;1[…]` …
/// `;4[…]`), cells in Pentobi's order, the record's variations as SGF variations where they leave
/// the line (main line first); passes are not written.
///
/// # Errors
/// The record does not replay as Trigon ([`Record::replay`]'s error).
pub fn write(record: &Record) -> Result<String, RecordError> {
    let (start, _, moves) = record.replay::<Trigon>()?;
    let variant = start.options().variant;
    let mut out = format!("(;GM[{}]FF[4]CA[UTF-8]AP[triboard:{}]", variant.name(), env!("CARGO_PKG_VERSION"));
    let mut root: Vec<(&str, String)> = Vec::new();
    for (id, name) in player_properties(variant).iter().zip(&record.players) {
        if !name.is_empty() {
            root.push((id, name.clone()));
        }
    }
    if let Some(day) = record.date.as_deref().and_then(sgf_date) {
        root.push(("DT", day.to_string()));
    }
    root.extend(ending_properties(variant, record.ending(), record.aborted, record.result.as_deref()));
    for (id, value) in root {
        out.push_str(&format!("{id}[{}]", escape(&value)));
    }
    out.push('\n');
    // The lines as a tree, the main line first at each fork.
    let lines: Vec<Vec<TrigonMove>> = std::iter::once(moves).chain(record.variation_lines(&start)?).collect();
    let tree = tree_of(&lines);
    write_tree(&mut out, &tree, 0, start);
    out.push_str(")\n");
    Ok(out)
}

/// Writes the tree's moves from node `at`, `game` the position there: a line while it has one way
/// on, then each way in parentheses; a line that ends where others go on is an empty node `(;)`
/// first, so it is read back as the line it is.
fn write_tree(out: &mut String, tree: &[Fork<TrigonMove>], mut at: usize, mut game: Trigon) {
    loop {
        let fork = &tree[at];
        match fork.children.as_slice() {
            [] => return,
            &[(mv, next)] if !fork.ends => {
                write_move(out, &mut game, mv);
                at = next;
            }
            ways => {
                if fork.ends {
                    out.push_str("(;)\n");
                }
                for &(mv, next) in ways {
                    let mut branch = game.clone();
                    out.push('(');
                    write_move(out, &mut branch, mv);
                    write_tree(out, tree, next, branch);
                    out.push_str(")\n");
                }
                return;
            }
        }
    }
}

/// Writes `mv`'s node (nothing for a pass; `RETIRE[n]` for the rules' `retire`, known by its
/// text) and plays it.
fn write_move(out: &mut String, game: &mut Trigon, mv: TrigonMove) {
    if mv != TrigonMove::PASS
        && let Some(colour) = game.colour_to_move()
    {
        if game.move_text(mv) == "retire" {
            out.push_str(&format!(";{RETIRE}[{}]\n", colour + 1));
        } else {
            out.push_str(&format!(";{}[{}]\n", colour + 1, cells_text(game, mv)));
        }
    }
    game.play_unchecked(mv);
}
