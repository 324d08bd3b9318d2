//! Trike (Alek Erickson, 2020), as `docs/rules/trike.md` settles it.
//!
//! A neutral pawn slides along lines of empty cells of a triangle of hexagonal cells; each mover
//! drops a checker of their colour where it stops. When the pawn is trapped, checkers under and
//! around it score. The opener's first placement is subject to the pie rule (`swap`).

use serde::{Deserialize, Serialize};

pub mod features;
mod knowledge;

use super::game::{Game, IllegalMove, Outcome, Player, Rng, random_index};
use super::geometry::triangle::{Cells, Lines, MAX_SIDE, NONE, Triangle};

/// The smallest board (`docs/rules/trike.md` §Board: sizes 3–6 for tests and puzzles).
pub const MIN_SIZE: u8 = 3;
/// The largest board.
pub const MAX_SIZE: u8 = MAX_SIDE as u8;

/// Trike's options (`docs/rules/trike.md` §Board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrikeOptions {
    /// Side of the triangle in cells, 3–19; 7–19 for play, 13 standard.
    pub size: u8,
}

impl Default for TrikeOptions {
    fn default() -> Self {
        TrikeOptions { size: 13 }
    }
}

/// A Trike move: the cell the checker (and pawn) goes to, or the pie rule's swap.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct TrikeMove(u8);

impl TrikeMove {
    /// The pie rule's colour exchange (`docs/rules/trike.md` §Play 2), written `swap`.
    pub const SWAP: TrikeMove = TrikeMove(NONE - 1);

    /// The move that places on (opening) or slides the pawn to `cell`.
    pub fn to(cell: usize) -> TrikeMove {
        TrikeMove(cell as u8)
    }
    /// The destination cell, or `None` for [`TrikeMove::SWAP`].
    pub fn cell(self) -> Option<usize> {
        (self != Self::SWAP).then_some(self.0 as usize)
    }
}

/// The two colours. The seat that opens plays Black until a swap.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Opens the game.
    Black = 0,
    /// Moves second; may swap on the first chance.
    White = 1,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A Trike position: checkers as two bitboards, the pawn's cell, whose turn it is and whether the
/// seats have swapped colours. `Clone` is a copy of a few dozen bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trike {
    geo: &'static Triangle,
    options: TrikeOptions,
    occupied: Cells,
    white: Cells,
    /// `occupied` again, by line, for the pawn's sliding moves.
    lines: Lines,
    pawn: u8,
    ply: u16,
    color_to_move: Color,
    swapped: bool,
    over: bool,
}

impl Trike {
    /// The board's tables.
    pub fn geometry(&self) -> &'static Triangle {
        self.geo
    }
    /// The pawn's cell, `None` before the opening placement.
    pub fn pawn(&self) -> Option<usize> {
        (self.pawn != NONE).then_some(self.pawn as usize)
    }
    /// The colour of the checker on `cell`, if any.
    pub fn checker(&self, cell: usize) -> Option<Color> {
        if !self.occupied.contains(cell) {
            None
        } else if self.white.contains(cell) {
            Some(Color::White)
        } else {
            Some(Color::Black)
        }
    }
    /// The colour a seat plays now (the pie rule may have exchanged them).
    pub fn color_of(&self, player: Player) -> Color {
        if (player.0 == 1) != self.swapped { Color::White } else { Color::Black }
    }
    /// The seat playing `color`.
    pub fn seat_of(&self, color: Color) -> Player {
        Player((color as u8) ^ self.swapped as u8)
    }
    /// True if the pie rule's swap was played.
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    /// True while the next move may be `swap` (White's first move).
    pub fn swap_available(&self) -> bool {
        self.ply == 1
    }
    /// The scored cells once the game is over: the pawn's cell and its neighbours
    /// (`docs/rules/trike.md` §End and score).
    pub fn scored_cells(&self) -> Option<Cells> {
        self.over.then(|| self.geo.around[self.pawn as usize])
    }

    /// Checks a move without playing it.
    fn check(&self, mv: TrikeMove) -> Result<(), IllegalMove> {
        let geo = self.geo;
        if self.over {
            return Err(IllegalMove::new("the game is over: the pawn is trapped"));
        }
        let Some(cell) = mv.cell() else {
            return if self.swap_available() {
                Ok(())
            } else {
                Err(IllegalMove::new("swap is only allowed as White's first move (pie rule)"))
            };
        };
        if cell >= geo.cells {
            return Err(IllegalMove::new("that cell is not on the board"));
        }
        let name = geo.name(cell);
        if self.pawn == NONE {
            return Ok(());
        }
        let pawn = self.pawn as usize;
        if cell == pawn {
            return Err(IllegalMove::new(format!("the pawn is already on {name}; it must move")));
        }
        if self.occupied.contains(cell) {
            return Err(IllegalMove::new(format!("{name} already holds a checker")));
        }
        let dr = geo.row[cell] as i32 - geo.row[pawn] as i32;
        let dc = geo.col[cell] as i32 - geo.col[pawn] as i32;
        if !(dr == 0 || dc == 0 || dr == dc) {
            return Err(IllegalMove::new(format!(
                "{name} is not on a straight line from the pawn on {}",
                geo.name(pawn)
            )));
        }
        let steps = dr.abs().max(dc.abs());
        for k in 1..steps {
            let between = geo.index(geo.row[pawn] as i32 + dr / steps * k, geo.col[pawn] as i32 + dc / steps * k);
            let between = between.expect("cells between two board cells are on the board");
            if self.occupied.contains(between) {
                return Err(IllegalMove::new(format!(
                    "the pawn cannot pass over the checker on {} on its way to {name}",
                    geo.name(between)
                )));
            }
        }
        Ok(())
    }

    /// The six free runs from the pawn (`docs/rules/trike.md` §Play 3).
    #[inline(always)]
    fn runs(&self) -> [usize; 6] {
        let pawn = self.pawn as usize;
        std::array::from_fn(|d| self.geo.free_run(pawn, d, &self.lines))
    }
}

impl Game for Trike {
    type Move = TrikeMove;
    type Options = TrikeOptions;
    const IDS: &'static [&'static str] = &["trike"];

    fn id(&self) -> &'static str {
        "trike"
    }

    fn new(options: &TrikeOptions) -> Result<Trike, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&options.size) {
            return Err(format!("board size {} is outside {MIN_SIZE}–{MAX_SIZE}", options.size));
        }
        Ok(Trike {
            geo: Triangle::get(options.size as usize),
            options: options.clone(),
            occupied: Cells::EMPTY,
            white: Cells::EMPTY,
            lines: Triangle::get(options.size as usize).empty_lines,
            pawn: NONE,
            ply: 0,
            color_to_move: Color::Black,
            swapped: false,
            over: false,
        })
    }

    fn options(&self) -> &TrikeOptions {
        &self.options
    }

    fn num_players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        (!self.over).then(|| self.seat_of(self.color_to_move))
    }

    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn position_hash(&self) -> Option<u64> {
        let flags = u64::from(self.pawn)
            | (self.color_to_move as u64) << 8
            | u64::from(self.swapped) << 9
            | u64::from(self.over) << 10
            | u64::from(self.swap_available()) << 11;
        Some(super::game::hash_words(self.occupied.0.iter().chain(&self.white.0).copied().chain([flags])))
    }

    fn legal_moves(&self, out: &mut Vec<TrikeMove>) {
        out.clear();
        if self.over {
            return;
        }
        if self.pawn == NONE {
            out.extend((0..self.geo.cells).map(TrikeMove::to));
            return;
        }
        let pawn = self.pawn as usize;
        for (d, run) in self.runs().into_iter().enumerate() {
            out.extend((1..=run).map(|k| TrikeMove::to(self.geo.step(pawn, d, k))));
        }
        if self.swap_available() {
            out.push(TrikeMove::SWAP);
        }
    }

    fn play(&mut self, mv: TrikeMove) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: TrikeMove) {
        self.ply += 1;
        let Some(cell) = mv.cell() else {
            // The seats exchange colours; White (now the opener) moves the pawn next.
            self.swapped = !self.swapped;
            return;
        };
        self.occupied.insert(cell);
        self.geo.occupy(&mut self.lines, cell);
        if self.color_to_move == Color::White {
            self.white.insert(cell);
        }
        self.pawn = cell as u8;
        self.color_to_move = self.color_to_move.other();
        // Right after the opening the swap is still a move; otherwise a pawn with no empty
        // neighbour ends the game (`docs/rules/trike.md` §End and score).
        let around = &self.geo.around[cell];
        self.over = self.ply > 1 && around.and(&self.occupied) == *around;
    }

    fn outcome(&self) -> Option<Outcome> {
        let scored = self.scored_cells()?;
        let black = scored.and(&self.occupied).count() as i32 - scored.and(&self.white).count() as i32;
        let white = scored.and(&self.white).count() as i32;
        let by_seat = if self.swapped { [white, black] } else { [black, white] };
        Some(Outcome::from_scores(&by_seat))
    }

    fn parse_move(&self, text: &str) -> Result<TrikeMove, IllegalMove> {
        if text.trim().eq_ignore_ascii_case("swap") {
            return Ok(TrikeMove::SWAP);
        }
        let last = self.geo.side - 1;
        self.geo.parse(text).map(TrikeMove::to).ok_or_else(|| {
            IllegalMove::new(format!(
                "'{}' is not a cell of this board (a1 to {}{}) nor 'swap'",
                text.trim(),
                (b'a' + last as u8) as char,
                last + 1
            ))
        })
    }

    fn notation(&self) -> &'static str {
        "Trike: a move is the cell the pawn goes to, column letter and row number (c3; a1 is the \
         top corner); Black's opening move puts the first checker and the pawn there. On White's first \
         move only, swap takes Black's opening (the pie rule)."
    }

    fn move_text(&self, mv: TrikeMove) -> String {
        match mv.cell() {
            None => "swap".to_string(),
            Some(cell) => self.geo.name(cell),
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        match self.color_of(player) {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    fn board_text(&self) -> String {
        let geo = self.geo;
        let mut s = String::new();
        for r in 0..geo.side {
            s += &format!("{:>3} {}", r + 1, " ".repeat(geo.side - 1 - r));
            for c in 0..=r {
                let cell = geo.index(r as i32, c as i32).unwrap();
                let mark = match (self.checker(cell), self.pawn() == Some(cell)) {
                    (None, _) => '.',
                    (Some(Color::Black), false) => 'x',
                    (Some(Color::White), false) => 'o',
                    (Some(Color::Black), true) => 'X',
                    (Some(Color::White), true) => 'O',
                };
                s.push(mark);
                s.push(' ');
            }
            s.push('\n');
        }
        s += "    ";
        for c in 0..geo.side {
            s.push((b'a' + c as u8) as char);
            s.push(' ');
        }
        s += "\n    x/o: Black/White checkers; the pawn stands on the capital letter\n";
        s
    }

    fn move_key(&self, mv: TrikeMove) -> usize {
        mv.cell().unwrap_or(self.geo.cells)
    }

    fn move_key_space(&self) -> usize {
        self.geo.cells + 1
    }

    fn random_move(&mut self, rng: &mut Rng, _buf: &mut Vec<TrikeMove>) -> Option<TrikeMove> {
        if self.over {
            return None;
        }
        if self.pawn == NONE {
            return Some(TrikeMove::to(random_index(rng, self.geo.cells)));
        }
        let runs = self.runs();
        let swap = self.swap_available() as usize;
        let mut k = random_index(rng, runs.iter().sum::<usize>() + swap);
        for (d, run) in runs.into_iter().enumerate() {
            if k < run {
                return Some(TrikeMove::to(self.geo.step(self.pawn as usize, d, k + 1)));
            }
            k -= run;
        }
        Some(TrikeMove::SWAP)
    }
}
