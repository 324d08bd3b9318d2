//! The Blokus Trigon board: a hexagon of triangles, `n` per side (`docs/rules/trigon.md` §Board), in
//! Pentobi's coordinates so that records and engines can be exchanged with it.
//!
//! Cell `(x, y)`: a grid of width `4n-1` and height `2n`, `y = 0` at the top; with
//! `dy = min(y, 2n-1-y)` and `m = n-1-dy`, the cell is on the board iff `m <= x <= 4n-2-m`.
//! Cells are numbered row by row from the top. For odd `n` a cell with `x + y` even points up, for
//! even `n` one with `x + y` odd; either way cell `(x, y)` is the triangle `(x + shift, y)` of
//! [`super::polyiamond`] with `shift` 0 or 1, so the pieces' shapes place on it directly.

use std::sync::OnceLock;

use super::polyiamond::Tri;

/// The tables of one board side. Obtain it with [`TrigonBoard::get`].
#[derive(Debug)]
pub struct TrigonBoard {
    /// Triangles per side of the hexagon: 9 (486 cells) or 8 (384 cells).
    pub side: usize,
    /// Grid width `4n-1`.
    pub width: usize,
    /// Grid height `2n`.
    pub height: usize,
    /// `(x, y)` of each cell.
    pub xy: Vec<(u8, u8)>,
    /// Cell index by `y * width + x`, or `None` off the board.
    index: Vec<Option<u16>>,
    /// The cells sharing an edge with each cell (2 or 3).
    pub edge_neighbours: Vec<Vec<u16>>,
    /// The cells sharing only a corner with each cell (up to 9).
    pub corner_neighbours: Vec<Vec<u16>>,
    /// The six starting points (`docs/rules/trigon.md` §Play).
    pub starting_points: [u16; 6],
    /// Column shift from board `x` to the shape grid's `x` (see the module doc).
    shift: i32,
}

impl TrigonBoard {
    /// The board with `side` triangles per side.
    ///
    /// # Panics
    /// If `side` is not 8 or 9 (the two boards of the rules).
    pub fn get(side: usize) -> &'static TrigonBoard {
        static BOARDS: [OnceLock<TrigonBoard>; 2] = [OnceLock::new(), OnceLock::new()];
        match side {
            8 => BOARDS[0].get_or_init(|| TrigonBoard::build(8)),
            9 => BOARDS[1].get_or_init(|| TrigonBoard::build(9)),
            _ => panic!("a Trigon board has 8 or 9 triangles per side, not {side}"),
        }
    }

    fn build(n: usize) -> TrigonBoard {
        let (width, height) = (4 * n - 1, 2 * n);
        let mut xy = Vec::new();
        let mut index = vec![None; width * height];
        for y in 0..height {
            let dy = y.min(2 * n - 1 - y);
            let m = n - 1 - dy;
            for x in m..=4 * n - 2 - m {
                index[y * width + x] = Some(xy.len() as u16);
                xy.push((x as u8, y as u8));
            }
        }
        let shift = if n % 2 == 1 { 0 } else { 1 };
        let mut board = TrigonBoard {
            side: n,
            width,
            height,
            xy,
            index,
            edge_neighbours: Vec::new(),
            corner_neighbours: Vec::new(),
            starting_points: [0; 6],
            shift,
        };
        let cells = board.xy.len();
        for cell in 0..cells {
            let t = board.tri(cell);
            let edges: Vec<u16> =
                t.edge_neighbours().iter().filter_map(|&n| board.cell_of(n)).map(|c| c as u16).collect();
            let corners = t.corners();
            let mut touching = Vec::new();
            let (x, y) = (t.x, t.y);
            for ny in y - 1..=y + 1 {
                for nx in x - 2..=x + 2 {
                    let n = Tri::new(nx, ny);
                    let Some(other) = board.cell_of(n) else { continue };
                    let shared = n.corners().iter().filter(|p| corners.contains(p)).count();
                    if shared == 1 {
                        touching.push(other as u16);
                    }
                }
            }
            board.edge_neighbours.push(edges);
            board.corner_neighbours.push(touching);
        }
        let points: [(usize, usize); 6] = if n == 9 {
            [(17, 3), (17, 14), (9, 6), (9, 11), (25, 6), (25, 11)]
        } else {
            [(15, 2), (15, 13), (7, 5), (7, 10), (23, 5), (23, 10)]
        };
        board.starting_points = points.map(|(x, y)| board.at(x, y).expect("a starting point is on the board") as u16);
        board
    }

    /// The number of cells (486 or 384).
    pub fn cells(&self) -> usize {
        self.xy.len()
    }

    /// The cell at `(x, y)`, if on the board.
    pub fn at(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.width && y < self.height).then(|| self.index[y * self.width + x]).flatten().map(usize::from)
    }

    /// True when the cell points up.
    pub fn is_up(&self, cell: usize) -> bool {
        self.tri(cell).is_up()
    }

    /// The cell as a triangle of the shape grid.
    pub fn tri(&self, cell: usize) -> Tri {
        let (x, y) = self.xy[cell];
        Tri::new(x as i32 + self.shift, y as i32)
    }

    /// The cell that is this triangle of the shape grid, if on the board.
    pub fn cell_of(&self, t: Tri) -> Option<usize> {
        let x = t.x - self.shift;
        (x >= 0 && t.y >= 0).then(|| self.at(x as usize, t.y as usize)).flatten()
    }

    /// Every placement of a shape (one orientation, as [`super::polyiamond::normalize`] gives it) on
    /// the board: each translation that keeps the triangles' directions and every triangle on the
    /// board, as sorted cell lists.
    pub fn placements(&self, shape: &[Tri]) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        let (w, h) = (self.width as i32 + 2, self.height as i32);
        for dy in -h..=h {
            for dx in -w..=w {
                // An odd shift would turn up triangles down.
                if (dx + dy) % 2 != 0 {
                    continue;
                }
                let cells: Option<Vec<u16>> =
                    shape.iter().map(|t| self.cell_of(Tri::new(t.x + dx, t.y + dy)).map(|c| c as u16)).collect();
                if let Some(mut cells) = cells {
                    cells.sort_unstable();
                    out.push(cells);
                }
            }
        }
        out
    }

    /// The cell's label: column letters `a … z, aa, ab, …`, then the row counted from the bottom
    /// (`(17, 3)` on the 486-cell board is `r15`).
    pub fn label(&self, cell: usize) -> String {
        let (x, y) = self.xy[cell];
        format!("{}{}", Self::column_label(x as usize), self.height - y as usize)
    }

    /// The letters of column `x` in a cell's label (`docs/rules/trigon.md` §Board, record labels):
    /// `a … z` for `x = 0 … 25`, then `aa, ab, …`.
    pub fn column_label(x: usize) -> String {
        if x < 26 {
            ((b'a' + x as u8) as char).to_string()
        } else {
            format!("{}{}", (b'a' + (x / 26 - 1) as u8) as char, (b'a' + (x % 26) as u8) as char)
        }
    }

    /// The cell named `text` (see [`TrigonBoard::label`]).
    ///
    /// # Errors
    /// Not a label, or off the board, said in words.
    pub fn parse(&self, text: &str) -> Result<usize, String> {
        let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
        let (column, row) = text.split_at(letters);
        let x = match column.as_bytes() {
            [a] => (a - b'a') as usize,
            [a, b] => (a - b'a' + 1) as usize * 26 + (b - b'a') as usize,
            _ => return Err(format!("'{text}' is not a cell: a column of one or two letters, then a row number")),
        };
        let row: usize =
            row.parse().map_err(|_| format!("'{text}' is not a cell: a column of letters, then a row number"))?;
        (1..=self.height)
            .contains(&row)
            .then(|| self.at(x, self.height - row))
            .flatten()
            .ok_or_else(|| format!("{text} is not on the {}-cell board", self.cells()))
    }
}
