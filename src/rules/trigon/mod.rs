//! Blokus Trigon (`docs/rules/trigon.md`): four colours Blue, Yellow, Red, Green place the 22
//! free polyiamonds of sizes 1–6 on a hexagon of triangles; variants `trigon` (4 players),
//! `trigon-2` (Blue+Red against Yellow+Green) and `trigon-3` (3 players, 384 cells).
//!
//! A move is one placement from a precomputed table (piece × orientation × position), or `pass` for
//! a colour that cannot place: it is out from then on (`§Play`), and the game ends when every colour
//! is out. Per colour the state keeps its cells, the cells next to them along an edge (where it may
//! never place) and those touching them at a corner (where a later piece must reach), as bitboards.

pub mod book;
pub mod features;
pub mod knowledge;
pub mod movegen;
pub mod pieces;
pub mod placement;
pub mod playout;
pub mod reward;
pub mod schedule;
pub mod sgf;
mod sgf_ending;
mod sgf_lines;
mod sgf_tree;
pub mod tables;

use serde::{Deserialize, Serialize};

use super::game::{Game, IllegalMove, Outcome, ParamError, Player, Rng, random_index};
use super::geometry::trigon::TrigonBoard;
pub use placement::{Cells, PIECES, Placement, WORDS};
pub use tables::{NO_CELL, Tables};

/// The colours in their order of play.
pub const COLOURS: [&str; 4] = ["Blue", "Yellow", "Red", "Green"];

/// The variants of `§Variants`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    /// Four players, one colour each, 486 cells.
    #[default]
    #[serde(rename = "trigon")]
    Four,
    /// Two players: Blue and Red against Yellow and Green, scores summed.
    #[serde(rename = "trigon-2")]
    Two,
    /// Three players, one colour each, 384 cells.
    #[serde(rename = "trigon-3")]
    Three,
}

impl Variant {
    /// Every variant, in the order of `docs/rules/trigon.md` §Variants.
    pub const ALL: [Variant; 3] = [Variant::Four, Variant::Two, Variant::Three];

    /// The variant's game id in records and on the command line: `trigon`, `trigon-2`, `trigon-3`
    /// (also its value in the options, `{"variant": "trigon-2"}`). One of [`Trigon`]'s
    /// [`Game::IDS`].
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Four => "trigon",
            Variant::Two => "trigon-2",
            Variant::Three => "trigon-3",
        }
    }

    /// The variant with this game id (exactly as [`Variant::id`] writes it), if any.
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// The variant's name as Pentobi calls it (`docs/rules/trigon.md` §Records and engine
    /// protocol): "Blokus Trigon", "Blokus Trigon Two-Player", "Blokus Trigon Three-Player". It is
    /// also the value of Pentobi's SGF `GM` property and of GTP's `set_game`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Four => "Blokus Trigon",
            Variant::Two => "Blokus Trigon Two-Player",
            Variant::Three => "Blokus Trigon Three-Player",
        }
    }

    /// The variant with this [`Variant::name`], ignoring ASCII case and surrounding whitespace.
    pub fn from_name(name: &str) -> Option<Variant> {
        let name = name.trim();
        Variant::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// A label for a menu that lists the three side by side: the name, with the player count
    /// added where the name has none ("Blokus Trigon (4 players)").
    pub const fn label(self) -> &'static str {
        match self {
            Variant::Four => "Blokus Trigon (4 players)",
            Variant::Two => Variant::Two.name(),
            Variant::Three => Variant::Three.name(),
        }
    }

    /// How many seats play (`§Variants`): 4, 2 (each seat plays two colours) or 3. The same as
    /// [`Game::num_players`] of a game of this variant.
    pub const fn seats(self) -> usize {
        match self {
            Variant::Four => 4,
            Variant::Two => 2,
            Variant::Three => 3,
        }
    }

    /// How many colours play (`§Variants`): 4, or 3 (Blue, Yellow, Red) in the three-player
    /// variant. Colours are `0..colours()`, in the order of [`COLOURS`].
    pub const fn colours(self) -> usize {
        match self {
            Variant::Four | Variant::Two => 4,
            Variant::Three => 3,
        }
    }

    /// Triangles per side of the variant's board (`§Board`, `§Variants`): 9 (486 cells), or 8
    /// (384 cells) in the three-player variant; the board is [`TrigonBoard::get`] of it.
    pub const fn side(self) -> usize {
        match self {
            Variant::Four | Variant::Two => 9,
            Variant::Three => 8,
        }
    }

    /// How many cells the variant's board has: 486, or 384 in the three-player variant.
    pub const fn cells(self) -> usize {
        match self {
            Variant::Four | Variant::Two => 486,
            Variant::Three => 384,
        }
    }
}

/// Trigon's options: the variant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrigonOptions {
    /// Which variant (default four players).
    pub variant: Variant,
}

/// A move: a placement's index in [`Tables::placements`], or [`TrigonMove::PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrigonMove(pub u16);

impl TrigonMove {
    /// The move of a colour that cannot place (it is out from then on).
    pub const PASS: TrigonMove = TrigonMove(u16::MAX);
    /// The move of a colour whose player left the game, resigned or ran out of time online, written
    /// `retire` (`docs/rules/trigon.md` §Play): it is out from then on, as if it could not place,
    /// and keeps its score. Legal for the colour to move at any time, never among
    /// [`Game::legal_moves`] (no engine chooses it).
    pub const RETIRE: TrigonMove = TrigonMove(u16::MAX - 1);

    /// Whether the move places a piece (neither a pass nor a retirement).
    pub fn is_placement(self) -> bool {
        self != TrigonMove::PASS && self != TrigonMove::RETIRE
    }
}

/// A Blokus Trigon position.
#[derive(Clone)]
pub struct Trigon {
    options: TrigonOptions,
    tables: &'static Tables,
    colours: u8,
    /// The colour to move, `0..colours`.
    turn: u8,
    ply: u16,
    occupied: Cells,
    own: [Cells; 4],
    /// Cells a colour may not cover: covered ones and those sharing an edge with its pieces.
    forbidden: [Cells; 4],
    /// Cells touching a colour's pieces at a corner: a later piece must cover one.
    corners: [Cells; 4],
    /// Attach points where no placement of the colour is legal, found by [`Game::random_move`].
    /// Legality of a placement through a cell only ever shrinks (cells fill, pieces are used), so a
    /// dead cell stays dead: a cache, not part of the position.
    dead: [Cells; 4],
    /// Per colour, the target cells where no placement of its pieces of size 6 (`[0]`) or 5
    /// (`[1]`) fits any more: a cache of the playout policy (`playout.rs`), as [`Trigon::dead`].
    no_fit: [[Cells; 2]; 4],
    /// Bit `k` set while piece `k` is still to place.
    left: [u32; 4],
    out: [bool; 4],
    /// The last piece placed was the 1-triangle piece.
    last_mono: [bool; 4],
    /// Each colour's last placement ([`NO_PLACEMENT`] before its first), for the playout policy's
    /// frontier response (`playout.rs`) and the move features: a cache of the history, not part of
    /// the position.
    last: [u16; 4],
}

/// [`Trigon::last`] of a colour that has placed nothing.
const NO_PLACEMENT: u16 = u16::MAX;

impl std::fmt::Debug for Trigon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Trigon({:?}, ply {}, {} to move)\n{}",
            self.options.variant,
            self.ply,
            COLOURS[self.turn as usize],
            self.board_text()
        )
    }
}

impl Trigon {
    /// The tables (board, pieces, placements).
    pub fn tables(&self) -> &'static Tables {
        self.tables
    }

    /// The colour to move (`0..colours`), even when it has only a pass.
    pub fn colour_to_move(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.turn as usize)
    }

    /// The placement covering the cells of `text`, comma-separated labels in any order (its shape
    /// on the board; not whether it is legal here).
    fn parse_cells(&self, text: &str) -> Result<TrigonMove, IllegalMove> {
        let text = text.trim();
        let b = self.tables.board;
        let mut cells = text
            .split(',')
            .map(|label| b.parse(label.trim()).map(|c| c as u16))
            .collect::<Result<Vec<u16>, String>>()
            .map_err(IllegalMove::new)?;
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0] == w[1]) {
            return Err(IllegalMove::new(format!("'{text}' names a cell twice")));
        }
        self.tables
            .placement_by_cells(&cells)
            .map(TrigonMove)
            .ok_or_else(|| IllegalMove::new(format!("'{text}' is not the shape of a piece")))
    }

    /// The colour of each cell, if covered.
    pub fn colour_at(&self, cell: usize) -> Option<usize> {
        (0..self.colours as usize).find(|&c| self.own[c].contains(cell))
    }

    /// The pieces colour `c` has still to place (a bit per piece).
    pub fn pieces_left(&self, c: usize) -> u32 {
        self.left[c]
    }

    /// True once colour `c` is out.
    pub fn is_out(&self, c: usize) -> bool {
        self.out[c]
    }

    fn is_over(&self) -> bool {
        self.out[..self.colours as usize].iter().all(|&o| o)
    }

    /// The seat playing colour `c`.
    pub fn player_of(&self, c: usize) -> Player {
        match self.options.variant {
            Variant::Two => Player((c % 2) as u8),
            _ => Player(c as u8),
        }
    }

    /// Colour `c`'s score (`§Score`): triangles placed, +15 for all 22 pieces, +20 instead when the
    /// last of them was the 1-triangle piece.
    pub fn colour_score(&self, c: usize) -> i32 {
        let placed = self.own[c].count() as i32;
        let bonus = match (self.left[c], self.last_mono[c]) {
            (0, true) => 20,
            (0, false) => 15,
            _ => 0,
        };
        placed + bonus
    }

    /// Why placement `k` is illegal for colour `c`, or `None` if it is legal.
    fn refusal(&self, c: usize, k: usize) -> Option<String> {
        let p = &self.tables.placements[k];
        let b = self.tables.board;
        let label = |cells: Cells| cells.first().map_or(String::new(), |x| b.label(x));
        if self.left[c] & (1 << p.piece) == 0 {
            return Some(format!("{} has already placed this piece", COLOURS[c]));
        }
        let taken = p.mask.and(&self.occupied);
        if !taken.is_empty() {
            return Some(format!("{} is already covered", label(taken)));
        }
        if self.left[c] == (1 << PIECES) - 1 {
            if p.mask.and(&self.tables.starts).is_empty() {
                return Some(format!("{}'s first piece must cover a free starting point", COLOURS[c]));
            }
            return None;
        }
        let edge = p.mask.and(&self.forbidden[c]);
        if !edge.is_empty() {
            return Some(format!("{} would share an edge with a {} piece", label(edge), COLOURS[c]));
        }
        if p.mask.and(&self.corners[c]).is_empty() {
            return Some(format!("the piece must touch a {} piece at a corner", COLOURS[c]));
        }
        None
    }

    /// Colour `colour`'s attach points (`docs/rules/trigon.md` §Play): the cells its next piece may
    /// cover to touch one of its pieces at a corner, that is the free cells that share a corner
    /// with one of its pieces and no edge with any; before its first piece, the starting points no
    /// piece covers yet. A legal placement of the colour covers at least one of them (and no cell
    /// sharing an edge with its pieces), though not every attach point has a piece that still fits.
    ///
    /// A set of cell indices of [`Tables::board`] (iterate it with [`Cells::iter`], test a cell
    /// with [`Cells::contains`]); computed from the bitboards the position keeps, without a scan of
    /// the board. Still defined for a colour that is out. `colour` is in `0..colours` of the
    /// variant ([`Variant::colours`]); panics from 4 on.
    pub fn attach_points(&self, colour: usize) -> Cells {
        self.targets(colour)
    }

    /// Where colour `c`'s next piece must reach, free and not forbidden: a starting point for its
    /// first piece, else one of its attach points.
    #[inline(always)]
    fn targets(&self, c: usize) -> Cells {
        let targets = if self.left[c] == (1 << PIECES) - 1 { self.tables.starts } else { self.corners[c] };
        targets.and_not(&self.forbidden[c])
    }

    /// The targets of colour `c` not yet known to be dead.
    #[inline(always)]
    fn live_targets(&self, c: usize) -> Cells {
        self.targets(c).and_not(&self.dead[c])
    }

    /// Calls `f` with every placement legal for the colour to move, each once: through each live
    /// target cell, the listed placements of the pieces left that cover no forbidden cell, each
    /// counted at the lowest target it covers.
    fn for_each_legal(&self, mut f: impl FnMut(u16)) {
        let c = self.turn as usize;
        let t = self.tables;
        let forbidden = &self.forbidden[c];
        let targets = self.targets(c);
        for x in targets.and_not(&self.dead[c]).iter() {
            let (list, offsets) = t.lists.list(x, t.lists.status(x, forbidden));
            let mut left = self.left[c];
            while left != 0 {
                let piece = left.trailing_zeros() as usize;
                left &= left - 1;
                for &k in &list[offsets[piece] as usize..offsets[piece + 1] as usize] {
                    let w = &t.windows[k as usize];
                    if !w.hits(forbidden) && w.lowest_in(&targets) == Some(x) {
                        f(k);
                    }
                }
            }
        }
    }

    /// A random legal placement of the colour to move, or `PASS`: a random live target cell, then a
    /// random placement through it (a few draws from its list, then a full look at the list; a cell
    /// with none is marked dead and another is drawn). Allocates nothing once `buf` has grown.
    fn fast_random(&mut self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> TrigonMove {
        let c = self.turn as usize;
        let t = self.tables;
        loop {
            let live = self.live_targets(c);
            let n = live.count() as usize;
            if n == 0 {
                return TrigonMove::PASS;
            }
            let x = nth(&live, random_index(rng, n));
            let status = t.lists.status(x, &self.forbidden[c]);
            let pieces = t.lists.pieces(x, status) & self.left[c];
            match self.sample_at(rng, buf, x, status, pieces) {
                Some(mv) => return mv,
                None => self.dead[c].insert(x),
            }
        }
    }

    /// A random legal placement through cell `x` (whose status is `status`) of one of its
    /// `pieces`, or `None`: a few random draws, then a full look at the list.
    #[inline(always)]
    fn sample_at(
        &self,
        rng: &mut Rng,
        buf: &mut Vec<TrigonMove>,
        x: usize,
        status: usize,
        pieces: u32,
    ) -> Option<TrigonMove> {
        const TRIES: usize = 4;
        if pieces == 0 {
            return None;
        }
        let t = self.tables;
        let forbidden = &self.forbidden[self.turn as usize];
        let (list, offsets) = t.lists.list(x, status);
        let total = movegen::count_of(offsets, pieces);
        if total > 0 {
            for _ in 0..TRIES {
                let k = movegen::pick(list, offsets, pieces, random_index(rng, total));
                if !t.windows[k as usize].hits(forbidden) {
                    return Some(TrigonMove(k));
                }
            }
        }
        buf.clear();
        let mut p = pieces;
        while p != 0 {
            let piece = p.trailing_zeros() as usize;
            p &= p - 1;
            for &k in &list[offsets[piece] as usize..offsets[piece + 1] as usize] {
                if !t.windows[k as usize].hits(forbidden) {
                    buf.push(TrigonMove(k));
                }
            }
        }
        (!buf.is_empty()).then(|| buf[random_index(rng, buf.len())])
    }

    /// After a move: the next colour that is not out.
    fn advance(&mut self) {
        self.ply += 1;
        if self.is_over() {
            return;
        }
        loop {
            self.turn = (self.turn + 1) % self.colours;
            if !self.out[self.turn as usize] {
                break;
            }
        }
    }
}

impl Game for Trigon {
    type Move = TrigonMove;
    type Options = TrigonOptions;

    const IDS: &'static [&'static str] = &[Variant::Four.id(), Variant::Two.id(), Variant::Three.id()];

    fn id(&self) -> &'static str {
        self.options.variant.id()
    }

    /// The variant the id names ([`Variant::from_id`]); the default variant for an id that is
    /// none of [`Trigon::IDS`](Game::IDS).
    fn options_for_id(id: &str) -> TrigonOptions {
        TrigonOptions { variant: Variant::from_id(id).unwrap_or_default() }
    }

    /// None: the id names the variant, and the variant is the board (`docs/rules/trigon.md`
    /// §Variants).
    fn options_with(id: &str, params: &[(&str, &str)]) -> Result<TrigonOptions, ParamError> {
        match params.first() {
            Some((name, _)) => Err(ParamError::Unknown(name.to_string())),
            None => Ok(Self::options_for_id(id)),
        }
    }

    fn new(options: &TrigonOptions) -> Result<Trigon, String> {
        let variant = options.variant;
        Ok(Trigon {
            options: options.clone(),
            tables: Tables::get(variant.side()),
            colours: variant.colours() as u8,
            turn: 0,
            ply: 0,
            occupied: Cells::default(),
            own: [Cells::default(); 4],
            forbidden: [Cells::default(); 4],
            corners: [Cells::default(); 4],
            dead: [Cells::default(); 4],
            no_fit: [[Cells::default(); 2]; 4],
            left: [(1 << PIECES) - 1; 4],
            out: [false; 4],
            last_mono: [false; 4],
            last: [NO_PLACEMENT; 4],
        })
    }

    fn options(&self) -> &TrigonOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        self.options.variant.seats()
    }

    fn to_move(&self) -> Option<Player> {
        self.colour_to_move().map(|c| self.player_of(c))
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut Vec<TrigonMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        self.for_each_legal(|k| out.push(TrigonMove(k)));
        if out.is_empty() {
            out.push(TrigonMove::PASS);
        }
    }

    fn play(&mut self, mv: TrigonMove) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::new("the game is over: no colour can place a piece"));
        }
        let c = self.turn as usize;
        if mv == TrigonMove::RETIRE {
            // Always allowed: a player may leave (docs/rules/trigon.md §Play).
        } else if mv == TrigonMove::PASS {
            let mut any = false;
            self.for_each_legal(|_| any = true);
            if any {
                return Err(IllegalMove::new(format!("{} can still place a piece, so may not pass", COLOURS[c])));
            }
        } else if (mv.0 as usize) >= self.tables.placements.len() {
            return Err(IllegalMove::new("no such placement on this board"));
        } else if let Some(reason) = self.refusal(c, mv.0 as usize) {
            return Err(IllegalMove::new(reason));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: TrigonMove) {
        let c = self.turn as usize;
        if !mv.is_placement() {
            self.out[c] = true;
        } else {
            let p = &self.tables.windows[mv.0 as usize];
            let s = &self.tables.stamps[mv.0 as usize];
            let w0 = p.word as usize;
            for i in 0..3 {
                self.occupied.0[w0 + i] |= p.bits[i];
                self.own[c].0[w0 + i] |= p.bits[i];
                for f in &mut self.forbidden {
                    f.0[w0 + i] |= p.bits[i];
                }
            }
            let s0 = s.word as usize;
            for i in 0..5 {
                self.forbidden[c].0[s0 + i] |= s.edge[i];
                self.corners[c].0[s0 + i] |= s.corner[i];
            }
            self.left[c] &= !(1 << p.piece);
            self.last_mono[c] = p.size == 1;
            self.last[c] = mv.0;
        }
        self.advance();
    }

    /// A colour that cannot place passes (`docs/rules/trigon.md` §Play): its only legal move.
    fn forced_move(&self) -> Option<TrigonMove> {
        self.colour_to_move()?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        (moves == [TrigonMove::PASS]).then_some(TrigonMove::PASS)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let mut scores = [0i32; 4];
        for c in 0..self.colours as usize {
            scores[self.player_of(c).index()] += self.colour_score(c);
        }
        Some(Outcome::from_scores(&scores[..self.num_players()]))
    }

    /// The cells, comma-separated (`docs/rules/trigon.md` §Records and engine protocol), or `pass`;
    /// the cells may follow a piece's name and a colon, as [`Game::move_label`] writes them
    /// (`L5:r12,…`, the name in any case), and must then be that piece.
    fn parse_move(&self, text: &str) -> Result<TrigonMove, IllegalMove> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(TrigonMove::PASS);
        }
        if text.eq_ignore_ascii_case("retire") {
            return Ok(TrigonMove::RETIRE);
        }
        let (named, cells_text) = match text.split_once(':') {
            Some((name, cells)) => {
                let name = name.trim();
                let piece =
                    (0..PIECES).find(|&k| pieces::piece_name(k).eq_ignore_ascii_case(name)).ok_or_else(|| {
                        let names: Vec<&str> = (0..PIECES).map(pieces::piece_name).collect();
                        IllegalMove::new(format!("'{name}' is not a piece's name ({})", names.join(" ")))
                    })?;
                (Some(piece), cells)
            }
            None => (None, text),
        };
        let mv = self.parse_cells(cells_text)?;
        match named {
            Some(piece) if piece != self.tables.placements[mv.0 as usize].piece as usize => {
                Err(IllegalMove::new(format!(
                    "'{}' is the piece {}, not {}",
                    cells_text.trim(),
                    pieces::piece_name(self.tables.placements[mv.0 as usize].piece as usize),
                    pieces::piece_name(piece)
                )))
            }
            _ => Ok(mv),
        }
    }

    fn notation(&self) -> &'static str {
        "Blokus Trigon: a move is the cells the piece covers, comma-separated (r12,r13,s13: \
         column letters a..ai, row numbers 1..18 from the bottom, as Pentobi writes them), after the \
         piece's name and a colon if you like (I3:r12,r13,s13, as moves are listed); a colour that \
         cannot place passes by itself. `moves r15` lists the legal placements covering r15."
    }

    fn move_text(&self, mv: TrigonMove) -> String {
        if mv == TrigonMove::PASS {
            return "pass".to_string();
        }
        if mv == TrigonMove::RETIRE {
            return "retire".to_string();
        }
        let b = self.tables.board;
        let cells: Vec<String> =
            self.tables.placements[mv.0 as usize].cells.iter().map(|&c| b.label(c as usize)).collect();
        cells.join(",")
    }

    /// The piece's name as Pentobi calls it, a colon, then the cells (`L5:r12,r13,s13,s14,t14`;
    /// `docs/rules/trigon.md` §Pieces); `pass`; `retire`.
    fn move_label(&self, mv: TrigonMove) -> String {
        if !mv.is_placement() {
            return self.move_text(mv);
        }
        format!("{}:{}", pieces::piece_name(self.tables.placements[mv.0 as usize].piece as usize), self.move_text(mv))
    }

    /// The colour to move (`docs/rules/trigon.md` §Variants: in Two-Player a seat plays two).
    fn to_move_name(&self) -> Option<&'static str> {
        self.colour_to_move().map(|c| COLOURS[c])
    }

    fn player_name(&self, player: Player) -> &'static str {
        match self.options.variant {
            Variant::Two => ["Blue/Red", "Yellow/Green"][player.index()],
            _ => COLOURS[player.index()],
        }
    }

    /// One character per cell, rows numbered from the bottom on both sides and the columns lettered
    /// above and below, as a cell's label names them (`docs/rules/trigon.md` §Board, record labels:
    /// `r15`); a two-letter column (`aa` …) is written downwards, its first letter on the line
    /// above the second. `B Y R G` a colour's piece, `+` a free starting point.
    fn board_text(&self) -> String {
        let b = self.tables.board;
        let columns: Vec<String> = (0..b.width).map(TrigonBoard::column_label).collect();
        // One line per letter of the longest column label, first letters first.
        let depth = columns.iter().map(String::len).max().unwrap_or(1);
        let letters = || {
            (0..depth).map(|i| {
                let letter = |c: &String| (i + c.len()).checked_sub(depth).map_or(' ', |k| c.as_bytes()[k] as char);
                let line: String = columns.iter().map(letter).collect();
                format!("    {}\n", line.trim_end())
            })
        };
        let mut out: String = letters().collect();
        for y in 0..b.height {
            let row = b.height - y;
            out.push_str(&format!("{row:>3} "));
            for x in 0..b.width {
                out.push(match b.at(x, y) {
                    None => ' ',
                    Some(cell) => match self.colour_at(cell) {
                        Some(c) => ['B', 'Y', 'R', 'G'][c],
                        None if self.tables.starts.contains(cell) => '+',
                        None => '.',
                    },
                });
            }
            out.push_str(&format!(" {row}\n"));
        }
        out.extend(letters());
        out
    }

    /// The placement (or pass) and the colour to move: in `trigon-2` a seat's two colours play the
    /// same placements, which are different moves.
    fn move_key(&self, mv: TrigonMove) -> usize {
        let k = if mv.is_placement() { mv.0 as usize } else { self.tables.placements.len() };
        self.turn as usize * (self.tables.placements.len() + 1) + k
    }

    fn move_key_space(&self) -> usize {
        4 * (self.tables.placements.len() + 1)
    }

    /// A random legal move, fast and allocation-free but not exactly uniform: a uniformly random
    /// live target cell (attach point, or starting point for a first piece), then a random
    /// placement through it. `PASS` when the colour has no placement.
    fn random_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> Option<TrigonMove> {
        if self.is_over() {
            return None;
        }
        Some(self.fast_random(rng, buf))
    }
}

/// The `i`-th smallest cell of `set` (`i < set.count()`).
#[inline(always)]
fn nth(set: &Cells, mut i: usize) -> usize {
    for (w, &word) in set.0.iter().enumerate() {
        let n = word.count_ones() as usize;
        if i < n {
            let mut word = word;
            for _ in 0..i {
                word &= word - 1;
            }
            return w * 64 + word.trailing_zeros() as usize;
        }
        i -= n;
    }
    unreachable!("nth: index beyond the set")
}
