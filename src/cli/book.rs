//! `triboard book build GAME --out FILE …`: grows an opening book (`rules::book`) from our own
//! deep searches. From the empty board, breadth first, each position is searched with
//! `--simulations` and its most simulated moves kept; the first `--widths[ply]` of them are
//! followed to the next ply, so the book holds the lines the search prefers, wider near the
//! start. The file is written after every position, and a build run again with the same `--out`
//! takes the positions it already holds from it (it may run in parts and resume). The built-in
//! books are such files (`src/rules/trigon/book.json`; README §AI has the command that built it).

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use web_time::Instant;

use super::error::CliError;
use super::games::{GameFlags, GameTask, start_position, with_game};
use crate::ai::{Budget, Mcts, SearchConfig, available_threads, derive_seed};
use crate::rules::book::{BookFile, BookMove, BookPosition, GameBook, OpeningBook};
use crate::rules::{Knowledge, hash_words};

/// Moves of each position the book keeps.
const TOP: usize = 3;

/// Arguments of `triboard book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// What to do with a book.
    #[command(subcommand)]
    pub action: BookAction,
}

/// The `book` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum BookAction {
    /// Grow a book from deep searches (resuming from the positions `--out` already holds).
    Build(BuildArgs),
}

/// Arguments of `triboard book build`.
#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The book file to write (and to resume from, if it exists).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Simulations a position is searched with.
    #[arg(long, default_value_t = 1_000_000)]
    pub simulations: u64,
    /// Moves followed from a position at each ply, comma-separated: `2,2,1` searches the empty
    /// board, the positions after its 2 preferred moves, and after their 2 each, then stops (the
    /// plies after the last width are not searched).
    #[arg(long, value_delimiter = ',', default_value = "2,2,2,1,1,1")]
    pub widths: Vec<usize>,
    /// Search threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the searches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs `triboard book`.
///
/// # Errors
/// An unknown game (usage); a book file that cannot be read, is not a book, or cannot be written
/// (failure, naming the file).
pub fn run(args: &BookArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    match &args.action {
        BookAction::Build(build) => {
            if build.widths.is_empty() || build.simulations == 0 {
                return Err(CliError::usage("--widths needs at least one width and --simulations at least 1"));
            }
            with_game(&build.game, Build { args: build, out })?
        }
    }
}

/// The book file at `path`, or an empty one if there is none.
fn read_book(path: &Path) -> Result<BookFile, CliError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map_err(|e| CliError::failure(format!("{} is not a book file: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BookFile::default()),
        Err(e) => Err(CliError::failure(format!("cannot read {}: {e}", path.display()))),
    }
}

/// Writes `file` to `path` whole (a temporary file renamed over it).
fn write_book(path: &Path, file: &BookFile) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(file).expect("a book serialises");
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text + "\n")
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))
}

/// `book build` with the game type chosen.
struct Build<'a> {
    args: &'a BuildArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Build<'_> {
    type Output = Result<Value, CliError>;

    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (args, out) = (self.args, self.out);
        let (start, _): (G, _) = start_position(id, &GameFlags::default(), None)?;
        if start.book_key().is_none() {
            return Err(CliError::usage(format!("{id} has no opening book")));
        }
        let mut file = read_book(&args.out)?;
        file.built_with = format!(
            "triboard book build {id} --simulations {} --widths {} --seed {}",
            args.simulations,
            args.widths.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
            args.seed
        );
        let index = match file.books.iter().position(|b| b.game == id) {
            Some(i) => i,
            None => {
                file.books.push(GameBook { game: id.to_string(), simulations: args.simulations, positions: vec![] });
                file.books.len() - 1
            }
        };
        let known: HashMap<Vec<String>, BookPosition> =
            file.books[index].positions.iter().map(|p| (p.line.clone(), p.clone())).collect();
        let threads = args.threads.unwrap_or_else(available_threads);
        let (mut searched, mut reused) = (0, 0);
        let began = Instant::now();
        let mut queue = VecDeque::from([(Vec::<String>::new(), start.clone())]);
        while let Some((line, g)) = queue.pop_front() {
            let ply = line.len();
            if ply >= args.widths.len() || g.outcome().is_some() {
                continue;
            }
            let top = match known.get(&line) {
                Some(p) => {
                    reused += 1;
                    p.top.clone()
                }
                None => {
                    let top = search(&g, args, threads, &line);
                    searched += 1;
                    let best = &top[0];
                    writeln!(
                        out,
                        "{} {}: {} ({} simulations, {:.1} %), {:.0} s in all",
                        ply,
                        if line.is_empty() { "start".to_string() } else { line.join(" ") },
                        best.mv,
                        best.visits,
                        best.value * 100.0,
                        began.elapsed().as_secs_f64()
                    )?;
                    file.books[index].positions.push(BookPosition { line: line.clone(), top: top.clone() });
                    write_book(&args.out, &file)?;
                    top
                }
            };
            for m in top.iter().take(args.widths[ply]) {
                let mv = g.parse_move(&m.mv).map_err(|e| CliError::failure(format!("book move '{}': {e}", m.mv)))?;
                let mut next = g.clone();
                next.play(mv).map_err(|e| CliError::failure(format!("book move '{}': {e}", m.mv)))?;
                let mut next_line = line.clone();
                next_line.push(m.mv.clone());
                queue.push_back((next_line, next));
            }
        }
        write_book(&args.out, &file)?;
        let positions = OpeningBook::new(&file.books[index], &start).map_err(CliError::failure)?.len();
        writeln!(out, "{positions} positions in the {id} book ({searched} searched now, {reused} from the file)")?;
        Ok(json!({ "game": id, "positions": positions, "searched": searched, "reused": reused }))
    }
}

/// The most simulated moves of a search of `g` with the build's budget, most first.
fn search<G: Knowledge>(g: &G, args: &BuildArgs, threads: usize, line: &[String]) -> Vec<BookMove> {
    let key = hash_words(line.iter().flat_map(|m| m.bytes().map(u64::from)));
    let config = SearchConfig { seed: derive_seed(args.seed, key), threads, ..SearchConfig::default() };
    let mut search = Mcts::new(g, config);
    search.run(Budget { simulations: args.simulations, max_time: Duration::MAX });
    let mut children = search.root_children();
    children.sort_by_key(|c| std::cmp::Reverse(c.visits));
    children
        .iter()
        .take(TOP)
        .map(|c| BookMove { mv: g.move_text(c.mv), visits: c.visits as u64, value: c.mean })
        .collect()
}
