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
//! - Players: `PB`/`PW` in the two-player variant, `P1`–`P4` otherwise; `DT` the date, `RE` the result.
//! - No pass is written: a colour that cannot place is skipped, so a move by a colour other than the
//!   one to move means the colours in between passed.
//!
//! What this module does with it:
//! - Reading takes the main line (the first child of every node) and ignores comments (`C`) and
//!   other annotations. Setup (`AB AW A1–A4 AE`) is refused with its reason: games start from the
//!   empty board here. A skipped colour must indeed have no placement. After the last move, colours
//!   with no placement pass, so a finished game loads finished. Errors name the byte offset.
//! - Writing gives the main line of a [`Record`], one node per placement, passes left out.

use std::fmt;

use super::{COLOURS, Trigon, TrigonMove, TrigonOptions, Variant};
use crate::rules::game::Game;
use crate::rules::record::{Record, RecordError};

/// The file extension of Pentobi's records.
pub const EXTENSION: &str = "blksgf";

/// Why an SGF text was refused: the byte offset (from the start of the text) where the trouble
/// is, and what is wrong there. Shown as `byte 123: reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// Byte offset in the text, at most its length (the length itself: the text ended too early).
    pub offset: usize,
    /// What is wrong, a sentence fragment without a final full stop.
    pub reason: String,
}

impl SgfError {
    fn new(offset: usize, reason: impl Into<String>) -> SgfError {
        SgfError { offset, reason: reason.into() }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for SgfError {}

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
// Syntax: the game tree

/// A property value, unescaped, with the offset of its `[`.
#[derive(Debug)]
struct Value {
    text: String,
    offset: usize,
}

/// A property: identifier, its offset, and one or more values.
#[derive(Debug)]
struct Property {
    id: String,
    offset: usize,
    values: Vec<Value>,
}

/// A node (`;`) with its offset, its properties and its first child (the main line).
#[derive(Debug)]
struct Node {
    offset: usize,
    properties: Vec<Property>,
    first_child: Option<usize>,
}

impl Node {
    fn get(&self, id: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.id == id)
    }
}

/// An open game tree while parsing.
struct Frame {
    /// Offset of its `(`.
    open: usize,
    /// The node its first node follows (`None` for the root tree).
    parent: Option<usize>,
    /// Its last node so far.
    last: Option<usize>,
    /// A variation has been read: no more nodes in this tree.
    has_variation: bool,
}

fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// The character at `pos`, quoted, for an error message.
fn describe(text: &str, pos: usize) -> String {
    match text.get(pos..).and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() => format!("the character {:?}", c),
        Some(c) => format!("'{c}'"),
        None => "the end of the file".to_string(),
    }
}

/// The main line of the first game tree of `text`: the root node and then the first child of each
/// node. The whole first tree is checked for syntax; further trees of the collection are ignored.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let mut pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
    pos = skip_whitespace(bytes, pos);
    match bytes.get(pos) {
        None => return Err(SgfError::new(pos, "the file is empty: an SGF record starts with '('")),
        Some(b'(') => {}
        Some(_) => {
            return Err(SgfError::new(
                pos,
                format!("not an SGF record: it starts with {}, not '('", describe(text, pos)),
            ));
        }
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack = vec![Frame { open: pos, parent: None, last: None, has_variation: false }];
    pos += 1;
    while let Some(top) = stack.last_mut() {
        pos = skip_whitespace(bytes, pos);
        let Some(&c) = bytes.get(pos) else {
            return Err(SgfError::new(
                pos,
                format!("the file ends inside the game tree opened at byte {}: ')' is missing", top.open),
            ));
        };
        match c {
            b'(' => {
                let Some(last) = top.last else {
                    return Err(SgfError::new(pos, "a game tree must begin with a node ';', not with '('"));
                };
                top.has_variation = true;
                stack.push(Frame { open: pos, parent: Some(last), last: None, has_variation: false });
                pos += 1;
            }
            b')' => {
                if top.last.is_none() {
                    return Err(SgfError::new(pos, "an empty game tree: '(' must be followed by a node ';'"));
                }
                stack.pop();
                pos += 1;
            }
            b';' => {
                if top.has_variation {
                    return Err(SgfError::new(pos, "a node after a variation: variations must end their game tree"));
                }
                let id = nodes.len();
                if let Some(before) = top.last.or(top.parent) {
                    nodes[before].first_child.get_or_insert(id);
                }
                top.last = Some(id);
                let (node, next) = parse_node(text, pos)?;
                nodes.push(node);
                pos = next;
            }
            _ => {
                return Err(SgfError::new(
                    pos,
                    format!("unexpected {} outside a property value (expected ';', '(' or ')')", describe(text, pos)),
                ));
            }
        }
    }
    let rest = skip_whitespace(bytes, pos);
    if rest < bytes.len() && bytes[rest] != b'(' {
        return Err(SgfError::new(rest, format!("unexpected {} after the end of the game tree", describe(text, rest))));
    }
    let mut line = Vec::new();
    let mut next = Some(0);
    let mut nodes: Vec<Option<Node>> = nodes.into_iter().map(Some).collect();
    while let Some(k) = next {
        let Some(node) = nodes.get_mut(k).and_then(Option::take) else { break };
        next = node.first_child;
        line.push(node);
    }
    Ok(line)
}

/// Reads the node starting with the `;` at `pos`: its properties, up to the next character that is
/// not part of one. Returns the node and the offset after it.
fn parse_node(text: &str, start: usize) -> Result<(Node, usize), SgfError> {
    let bytes = text.as_bytes();
    let mut node = Node { offset: start, properties: Vec::new(), first_child: None };
    let mut pos = start + 1;
    loop {
        pos = skip_whitespace(bytes, pos);
        match bytes.get(pos) {
            Some(c) if c.is_ascii_uppercase() || c.is_ascii_digit() => {}
            _ => return Ok((node, pos)),
        }
        let id_offset = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_alphanumeric() {
            pos += 1;
        }
        // SGF 3 allowed lowercase letters in identifiers, to be ignored (`AddBlack` is `AB`).
        let id: String = text[id_offset..pos].chars().filter(|c| !c.is_ascii_lowercase()).collect();
        if node.properties.iter().any(|p| p.id == id) {
            return Err(SgfError::new(id_offset, format!("the property {id} appears twice in one node")));
        }
        pos = skip_whitespace(bytes, pos);
        if bytes.get(pos) != Some(&b'[') {
            return Err(SgfError::new(
                pos,
                format!("the property {id} has no value: '[' expected, found {}", describe(text, pos)),
            ));
        }
        let mut values = Vec::new();
        while bytes.get(pos) == Some(&b'[') {
            let (value, next) = parse_value(text, pos)?;
            values.push(value);
            pos = skip_whitespace(bytes, next);
        }
        node.properties.push(Property { id, offset: id_offset, values });
    }
}

/// Reads the value whose `[` is at `start`: unescaped (`\x` is `x`; `\` before a line break removes
/// both). Returns the value and the offset after its `]`.
fn parse_value(text: &str, start: usize) -> Result<(Value, usize), SgfError> {
    let bytes = text.as_bytes();
    let unclosed = || SgfError::new(start, "the value opened here is never closed: ']' is missing");
    let mut out = String::new();
    let mut pos = start + 1;
    loop {
        // '\' and ']' are ASCII, so every offset found here is a character boundary.
        let run = bytes[pos..].iter().position(|&c| c == b'\\' || c == b']').ok_or_else(unclosed)?;
        out.push_str(&text[pos..pos + run]);
        pos += run;
        if bytes[pos] == b']' {
            return Ok((Value { text: out, offset: start }, pos + 1));
        }
        let escaped = text[pos + 1..].chars().next().ok_or_else(unclosed)?;
        pos += 1 + escaped.len_utf8();
        match escaped {
            // A soft line break: "\\\n", "\\\r\n", "\\\n\r" or "\\\r".
            '\n' | '\r' => {
                let pair = if escaped == '\n' { b'\r' } else { b'\n' };
                if bytes.get(pos) == Some(&pair) {
                    pos += 1;
                }
            }
            c => out.push(c),
        }
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

/// The single value of a property that takes one.
fn single(p: &Property) -> Result<&Value, SgfError> {
    match p.values.as_slice() {
        [v] => Ok(v),
        _ => Err(SgfError::new(p.offset, format!("the property {} takes one value, not {}", p.id, p.values.len()))),
    }
}

/// Reads a Blokus Trigon record in Pentobi's SGF dialect (see the module documentation) into a
/// [`Record`] with the game id (`trigon`, `trigon-2`, `trigon-3`), options, moves in our notation
/// (including the passes of the colours Pentobi skips), players, date and result. Every move has been
/// replayed, so the record loads with [`Record::replay`].
///
/// # Errors
/// [`SgfError`] with the byte offset and reason: malformed SGF, a missing or other `GM`, another
/// character set than UTF-8, setup properties, a move that does not name a piece on the board, is
/// illegal, or is by a colour other than the one to move when the colours in between could still
/// place.
pub fn read(text: &str) -> Result<Record, SgfError> {
    let line = main_line(text)?;
    let root = line.first().ok_or_else(|| SgfError::new(0, "the game tree has no node"))?;
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
    let date = text_of("DT")?;
    let result = text_of("RE")?;

    let options = TrigonOptions { variant };
    let mut game = Trigon::new(&options).map_err(|e| SgfError::new(gm_value.offset, e))?;
    let colours = variant.colours();
    let mut moves: Vec<String> = Vec::new();
    let mut number = 0;
    for node in &line {
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
        let mut node_moves = node.properties.iter().filter_map(|p| move_colour(&p.id).map(|c| (c, p)));
        let Some((colour, p)) = node_moves.next() else { continue };
        if let Some((_, second)) = node_moves.next() {
            return Err(SgfError::new(second.offset, format!("a second move ({}) in one node", second.id)));
        }
        number += 1;
        let value = p.values.iter().map(|v| v.text.trim()).collect::<Vec<_>>().join(",");
        let here = |reason: String| SgfError::new(p.offset, format!("move {number} ({}[{value}]): {reason}", p.id));
        if colour >= colours {
            return Err(here(format!("{} has no colour {}: its colours are 1 to {colours}", gm_value.text, p.id)));
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
            moves.push(game.move_text(TrigonMove::PASS));
        }
        if game.colour_to_move().is_none() {
            return Err(here("the game is over: no colour can place a piece".to_string()));
        }
        let mv = game.parse_move(&value.to_ascii_lowercase()).map_err(|e| here(e.reason))?;
        let text = game.move_text(mv);
        game.play(mv).map_err(|e| here(e.reason))?;
        moves.push(text);
    }
    // Colours left with no placement pass, so a finished game loads finished.
    let mut legal = Vec::new();
    while game.colour_to_move().is_some() {
        game.legal_moves(&mut legal);
        if legal != [TrigonMove::PASS] {
            break;
        }
        game.play_unchecked(TrigonMove::PASS);
        moves.push(game.move_text(TrigonMove::PASS));
    }
    Ok(Record {
        game: game.id().to_string(),
        options: serde_json::to_value(&options).expect("options serialise"),
        moves,
        players,
        date,
        result,
        analysis: None,
        variations: Vec::new(),
        hints: Vec::new(),
        resigned: None,
        flagged: None,
    })
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
/// (`PB`/`PW` or `P1`–`P4`, empty names left out), `DT` and `RE` when the record has them, then one
/// node per placement (`;1[…]` … `;4[…]`), cells in Pentobi's order; passes are not written.
///
/// # Errors
/// The record does not replay as Trigon ([`Record::replay`]'s error).
pub fn write(record: &Record) -> Result<String, RecordError> {
    let (start, _, moves) = record.replay::<Trigon>()?;
    let variant = start.options().variant;
    let mut out = format!("(;GM[{}]FF[4]CA[UTF-8]AP[triboard:{}]", variant.name(), env!("CARGO_PKG_VERSION"));
    for (id, name) in player_properties(variant).iter().zip(&record.players) {
        if !name.is_empty() {
            out.push_str(&format!("{id}[{}]", escape(name)));
        }
    }
    for (id, value) in [("DT", &record.date), ("RE", &record.result)] {
        if let Some(value) = value {
            out.push_str(&format!("{id}[{}]", escape(value)));
        }
    }
    out.push('\n');
    let mut game = start;
    for mv in moves {
        if mv.is_placement()
            && let Some(colour) = game.colour_to_move()
        {
            out.push_str(&format!(";{}[{}]\n", colour + 1, cells_text(&game, mv)));
        }
        game.play_unchecked(mv);
    }
    out.push_str(")\n");
    Ok(out)
}
