//! SGF 4's syntax as Pentobi's dialect uses it (`sgf`'s module documentation): a game tree of
//! nodes (`;`) holding properties (`ID[value][value]…`), values escaped with `\`, variations in
//! parentheses. Every node is kept with its children, so the reader sees every variation.

use std::fmt;

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
    pub(super) fn new(offset: usize, reason: impl Into<String>) -> SgfError {
        SgfError { offset, reason: reason.into() }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for SgfError {}

/// A property value, unescaped, with the offset of its `[`.
#[derive(Debug)]
pub(super) struct Value {
    pub(super) text: String,
    pub(super) offset: usize,
}

/// A property: identifier, its offset, and one or more values.
#[derive(Debug)]
pub(super) struct Property {
    pub(super) id: String,
    pub(super) offset: usize,
    pub(super) values: Vec<Value>,
}

/// A node (`;`) with its offset, its properties and its children (indices into the tree's nodes,
/// in the file's order: the first is the main line).
#[derive(Debug)]
pub(super) struct Node {
    pub(super) offset: usize,
    pub(super) properties: Vec<Property>,
    pub(super) children: Vec<usize>,
}

impl Node {
    pub(super) fn get(&self, id: &str) -> Option<&Property> {
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
pub(super) fn describe(text: &str, pos: usize) -> String {
    match text.get(pos..).and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() => format!("the character {:?}", c),
        Some(c) => format!("'{c}'"),
        None => "the end of the file".to_string(),
    }
}

/// The nodes of the first game tree of `text`, the root first (index 0), each with its children.
/// The whole first tree is checked for syntax; further trees of the collection are ignored.
pub(super) fn tree(text: &str) -> Result<Vec<Node>, SgfError> {
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
                    nodes[before].children.push(id);
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
    Ok(nodes)
}

/// Reads the node starting with the `;` at `pos`: its properties, up to the next character that is
/// not part of one. Returns the node and the offset after it.
fn parse_node(text: &str, start: usize) -> Result<(Node, usize), SgfError> {
    let bytes = text.as_bytes();
    let mut node = Node { offset: start, properties: Vec::new(), children: Vec::new() };
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

/// The single value of a property that takes one.
pub(super) fn single(p: &Property) -> Result<&Value, SgfError> {
    match p.values.as_slice() {
        [v] => Ok(v),
        _ => Err(SgfError::new(p.offset, format!("the property {} takes one value, not {}", p.id, p.values.len()))),
    }
}
