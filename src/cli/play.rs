//! `triboard play GAME [--size N] [--black human|ai:L] [--white human|ai:L] [--seed S]
//! [--moves "…"] [--record FILE]`: a game in the terminal.
//!
//! The board is printed before each human move; a move is typed in the game's notation and an
//! illegal one is answered with its reason (the prompt repeats). Commands: `undo` (back to the
//! previous human turn), `moves`, `board`, `help`, `quit` (end of input quits too). AI seats answer
//! with their move, win rate, search size and the line they expect (`--explain`: and what the solver
//! proved). Seats are not colours: `--black` names the seat that
//! opens (as Black) and `--white` the other; in Trike a `swap` exchanges their colours.
//! JSON: `moves`, `finished`, `result`, `seed`.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use super::ai_flags::parse_seat;
use super::error::CliError;
use super::games::{GameFlags, GameTask, start_position, with_game};
use super::output::{now_iso8601, outcome_json, result_text};
use crate::ai::{Engine, SearchConfig, Seat, Verdict, available_threads, book_move, derive_seed, hint_budget};
use crate::rules::record::Record;
use crate::rules::{Knowledge, Player, counted, move_texts};

/// Arguments of `triboard play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game id: one of [`crate::rules::game_ids`].
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The game's options.
    #[command(flatten)]
    pub flags: GameFlags,
    /// Who sits in the seat that opens (as Black): `human`, `ai` (level 3) or `ai:L` (1–6).
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    pub black: Seat,
    /// Who sits in the second seat (White): `human`, `ai` or `ai:L`.
    #[arg(long, default_value = "ai:3", value_parser = parse_seat)]
    pub white: Seat,
    /// Every seat in the order they move, comma-separated (`human,ai:3,ai:3,ai:3` for Trigon's
    /// four colours); replaces `--black`/`--white`.
    #[arg(long, value_delimiter = ',', value_parser = parse_seat)]
    pub seats: Vec<Seat>,
    /// Seed of the AI seats' searches (default: from the clock, printed so the game can be repeated).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start after these moves, in the game's notation.
    #[arg(long)]
    pub moves: Option<String>,
    /// Write the game record (JSON) to this file at the end (also after `quit`).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// AI seats from level 3 play the built-in opening book's move while it has the position
    /// (`rules::book`; off by default: it lost its screen, `rules/trigon/book.rs`).
    #[arg(long)]
    pub book: bool,
    /// After each AI move, also what the solver proved of the position ("solved: a win within 3
    /// more plies"), when it proved something; off by default, as a player does not ask for it.
    #[arg(long)]
    pub explain: bool,
}

/// The commands of `triboard play`, after the game's own notation ([`crate::rules::Game::notation`]).
const COMMANDS: &str = "Or a command:
  undo          take back the last move (and the AI's answer to it)
  moves         the legal moves (when there are many, their count and a few:
                `moves all` lists every one, `moves c4` those naming c4)
  hint          the search's best move for you, its win rate and the line it expects
  board         print the board again
  help          this text
  quit          stop the game (end of input does the same)";

struct Task<'a> {
    args: &'a PlayArgs,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

/// A game in progress: the start, the moves since, and a search tree per AI seat.
struct Session<G: Knowledge> {
    seats: Vec<Seat>,
    seed: u64,
    start: G,
    game: G,
    history: Vec<G::Move>,
    /// One engine per seat (an AI seat's keeps its tree from one of its moves to the next).
    engines: Vec<Engine<G>>,
    /// `--explain`: an AI move says what the solver proved.
    explain: bool,
}

impl<G: Knowledge> Session<G> {
    fn seat(&self, p: Player) -> Seat {
        self.seats[p.index()]
    }

    /// The seat's colour, number and who sits there: "White (player 2, AI level 3)".
    fn who(&self, p: Player) -> String {
        format!("{} (player {}, {})", self.game.player_name(p), p.index() + 1, self.seat(p).label())
    }

    /// As [`Session::who`] for the seat to move, `p`, named first by the colour that moves when the
    /// seat plays several ([`crate::rules::Game::to_move_name`]; Trigon Two-Player): "Red
    /// (Blue/Red, player 1, Human)".
    fn who_moves(&self, p: Player) -> String {
        let seat = self.game.player_name(p);
        match self.game.to_move_name() {
            Some(colour) if colour != seat => {
                format!("{colour} ({seat}, player {}, {})", p.index() + 1, self.seat(p).label())
            }
            _ => self.who(p),
        }
    }

    /// Plays a legal move (an AI seat's engine follows the line when it next searches).
    fn apply(&mut self, mv: G::Move) -> Result<(), String> {
        self.game.play(mv).map_err(|e| e.reason)?;
        self.history.push(mv);
        Ok(())
    }

    fn human_to_move(g: &G, seats: &[Seat]) -> bool {
        g.to_move().is_some_and(|p| seats[p.index()] == Seat::Human && g.is_turn_boundary())
    }

    /// Takes back moves to the previous human turn; false if there is none.
    fn undo(&mut self) -> bool {
        let replay = |n: usize| {
            let mut g = self.start.clone();
            for &mv in &self.history[..n] {
                g.play_unchecked(mv);
            }
            g
        };
        let mut n = self.history.len();
        while n > 0 {
            n -= 1;
            if Self::human_to_move(&replay(n), &self.seats) {
                self.game = replay(n);
                self.history.truncate(n);
                self.engines.iter_mut().for_each(Engine::forget);
                return true;
            }
        }
        false
    }

    /// The AI seat `p` searches with its level's budget and plays its choice.
    fn ai_move(&mut self, p: Player, out: &mut dyn Write) -> Result<(), CliError> {
        let Seat::Ai(level) = self.seat(p) else { unreachable!("only AI seats search") };
        if let Some(mv) = book_move(&self.game, level) {
            writeln!(
                out,
                "{}. {} plays {} from the opening book",
                self.game.ply() + 1,
                self.who_moves(p),
                self.game.move_label(mv)
            )?;
            return self.apply(mv).map_err(|e| CliError::failure(format!("the book's move is illegal: {e}")));
        }
        let seed_index = ((self.game.ply() as u64) << 8) | p.index() as u64;
        let engine = &mut self.engines[p.index()];
        let mut search = engine.search_for(&self.game, &self.history, seed_index);
        let started = Instant::now();
        search.run(level.budget());
        let seconds = started.elapsed().as_secs_f64();
        let verdict = Verdict::of(&search);
        let mv = verdict.best.ok_or_else(|| CliError::failure("the search found no move in a running game"))?;
        engine.keep_after(search, self.history.clone(), mv);
        let (rate, simulations) = (verdict.win_rate_text(), verdict.simulations);
        let proof = verdict.proof_text().filter(|_| self.explain);
        let expects =
            format!(", expects {}", verdict.line_labels()) + &proof.map(|p| format!("; {p}")).unwrap_or_default();
        writeln!(
            out,
            "{}. {} plays {}   {rate}, {simulations} simulations in {seconds:.2} s{expects}",
            self.game.ply() + 1,
            self.who_moves(p),
            self.game.move_label(mv),
        )?;
        self.apply(mv).map_err(|e| CliError::failure(format!("the AI chose an illegal move: {e}")))
    }
}

/// The search's advice for the seat to move of `game`, reached by `line`: a search at the hint's
/// budget ([`crate::ai::HINT_LEVEL`], the app's too) on every core, in the words the app uses, its
/// moves as a player reads them ([`crate::rules::Game::move_label`]).
fn hint<G: Knowledge>(game: &G, line: &[G::Move], seed: u64) -> Result<String, CliError> {
    let mut engine = Engine::new(SearchConfig { seed, threads: available_threads(), ..SearchConfig::default() });
    let verdict = engine.think(game, line, hint_budget(), 0);
    if verdict.best.is_none() {
        return Err(CliError::failure("the search found no move in a running game"));
    }
    Ok(format!("hint: {}", verdict.label_text()))
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let args = self.args;
        let (game, history) = start_position::<G>(id, &args.flags, args.moves.as_deref())?;
        let seats = if args.seats.is_empty() { vec![args.black, args.white] } else { args.seats.clone() };
        if seats.len() != game.num_players() {
            return Err(CliError::usage(format!(
                "{id} seats {} players, not {}: name each with --seats (or --black/--white for two)",
                game.num_players(),
                seats.len()
            )));
        }
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
        });
        let mut s = Session {
            engines: seats
                .iter()
                .map(|_| Engine::new(SearchConfig { seed, threads: available_threads(), ..SearchConfig::default() }))
                .collect(),
            seats,
            seed,
            start: G::new(game.options()).map_err(CliError::usage)?,
            game,
            history,
            explain: args.explain,
        };
        let (input, out) = (self.input, self.out);
        let who: Vec<String> = (0..s.seats.len())
            .map(|i| format!("{} as {}", s.seats[i].label(), s.game.player_name(Player(i as u8))))
            .collect();
        writeln!(
            out,
            "{id} {}: {}; seed {seed}; type 'help' for commands",
            json!(s.game.options()),
            who.join(", then ")
        )?;
        let mut quit = false;
        let mut hints = 0u32;
        let mut line = String::new();
        // The board is shown again when the position changed, or on request.
        let mut show_board = true;
        while let Some(p) = s.game.to_move() {
            if let Seat::Ai(_) = s.seat(p) {
                s.ai_move(p, out)?;
                show_board = true;
                continue;
            }
            if std::mem::take(&mut show_board) {
                write!(out, "\n{}", s.game.board_text())?;
            }
            write!(out, "{}. {} to move> ", s.game.ply() + 1, s.who_moves(p))?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line).map_err(|e| CliError::failure(format!("cannot read input: {e}")))? == 0 {
                writeln!(out)?;
                quit = true;
                break;
            }
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" | "q" => {
                    quit = true;
                    break;
                }
                "help" | "?" => writeln!(out, "{}\n{COMMANDS}", wrap(s.game.notation(), 92))?,
                "board" => show_board = true,
                "hint" => {
                    let seed = derive_seed(s.seed, (s.game.ply() as u64) << 8 | 0xff);
                    writeln!(out, "{}", hint(&s.game, &s.history, seed)?)?;
                    hints += 1;
                }
                command if command == "moves" || command.starts_with("moves ") => {
                    let mut moves = Vec::new();
                    s.game.legal_moves(&mut moves);
                    let texts: Vec<(String, String)> =
                        moves.iter().map(|&mv| (s.game.move_text(mv), s.game.move_label(mv))).collect();
                    writeln!(out, "{}", list_moves(&texts, command["moves".len()..].trim()))?;
                }
                "undo" => {
                    if s.undo() {
                        show_board = true;
                        writeln!(out, "undone: back to move {}", s.game.ply() + 1)?;
                    } else {
                        writeln!(out, "nothing to undo")?;
                    }
                }
                _ if text.split_whitespace().count() > 1 => writeln!(out, "one move at a time, please")?,
                _ => match s.game.parse_move(text).map_err(|e| e.reason).and_then(|mv| s.apply(mv)) {
                    Ok(()) => show_board = true,
                    Err(reason) => writeln!(out, "illegal: {reason}")?,
                },
            }
        }

        write!(out, "\n{}", s.game.board_text())?;
        let result = result_text(&s.game);
        match &result {
            Some(text) => writeln!(out, "game over after {}: {text}", counted(s.history.len(), "move", "moves"))?,
            None => writeln!(out, "game stopped after {}", counted(s.history.len(), "move", "moves"))?,
        }
        // Who ended as which colour (Trike's swap exchanges them).
        let seats: Vec<String> = (0..s.seats.len()).map(|i| s.who(Player(i as u8))).collect();
        writeln!(out, "seats: {}", seats.join(", "))?;
        if let Some(path) = &args.record {
            let mut record = Record::new(&s.game, &s.history);
            record.players = s.seats.iter().map(|seat| seat.label()).collect();
            record.date = Some(now_iso8601());
            record.result = result;
            std::fs::write(path, record.to_json() + "\n")
                .map_err(|e| CliError::failure(format!("cannot write the record to {}: {e}", path.display())))?;
            writeln!(out, "record written to {}", path.display())?;
        }
        debug_assert!(quit || s.game.outcome().is_some());
        Ok(json!({
            "game": id,
            "options": s.game.options(),
            "seed": seed,
            "moves": move_texts(&s.start, &s.history),
            "hints": hints,
            "finished": s.game.outcome().is_some(),
            "result": outcome_json(&s.game),
        }))
    }
}

/// At most this many legal moves are listed without being asked for all.
const LIST_AT_ONCE: usize = 60;

/// The answer to `moves` (`filter` empty), `moves all` or `moves TEXT` (the moves naming TEXT):
/// every move when there are at most [`LIST_AT_ONCE`], else the count, the first few and how to see
/// more (Trigon's opening has thousands of placements). `moves` pairs each move's text, which the
/// filter reads, with its label, which is shown ([`crate::rules::Game::move_label`]).
fn list_moves(moves: &[(String, String)], filter: &str) -> String {
    let chosen: Vec<&str> = match filter {
        "" | "all" => moves.iter().map(|(_, label)| label.as_str()).collect(),
        part => moves.iter().filter(|(text, _)| names(text, part)).map(|(_, label)| label.as_str()).collect(),
    };
    let what = if filter.is_empty() || filter == "all" { String::new() } else { format!(" naming '{filter}'") };
    if chosen.len() <= LIST_AT_ONCE || filter == "all" {
        return wrap(&format!("{} legal moves{what}: {}", chosen.len(), chosen.join(" ")), 92);
    }
    wrap(
        &format!(
            "{} legal moves{what}; the first {}: {} … (`moves all` lists every one, `moves c4` those naming c4)",
            chosen.len(),
            LIST_AT_ONCE / 3,
            chosen[..LIST_AT_ONCE / 3].join(" ")
        ),
        92,
    )
}

/// True when the move `text` names `part`: one of its points, cells or squares is `part` (`r12` in
/// `r13,r12`, `c4` in Trisq's `c4H2`), not merely begins with it (`a1` is not in `a10`).
fn names(text: &str, part: &str) -> bool {
    text.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|token| token.strip_prefix(part).is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit())))
}

/// `text` broken into lines of at most `width` characters at spaces (a longer word keeps its line).
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

/// Runs `triboard play`, reading moves and commands from `input`.
///
/// # Errors
/// An unknown game, bad options, seats or `--moves` (usage errors); unreadable input or an
/// unwritable record (failures).
pub fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Value, CliError> {
    crate::rules::book::set_enabled(args.book);
    with_game(&args.game, Task { args, input, out })?
}
