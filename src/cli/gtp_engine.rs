//! The GTP engine of `triboard gtp` ([`GtpEngine`]): the framing of commands and answers, the
//! command table and each command on a Blokus Trigon position (`gtp.rs` tells how it speaks).

use std::time::Duration;

use web_time::Instant;

use super::gtp_time::{GtpTime, Spend};
use super::gtp_trigon::{final_score, reach_colour, variant_from_name};
use crate::ai::{Budget, Engine, Level, SearchConfig};
use crate::rules::trigon::{Trigon, TrigonMove, TrigonOptions, Variant};
use crate::rules::{Game, Knowledge};

/// Every command the engine knows, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "all_legal",
    "clear_board",
    "cputime",
    "final_score",
    "genmove",
    "known_command",
    "list_commands",
    "name",
    "play",
    "protocol_version",
    "quit",
    "set_game",
    "set_random_seed",
    "showboard",
    "time_left",
    "time_settings",
    "undo",
    "version",
];

/// `s` without its first word (and the whitespace before it).
fn after_word(s: &str) -> &str {
    let s = s.trim_start();
    s.find(char::is_whitespace).map_or("", |i| &s[i..])
}

/// Seconds of CPU time this process has used (from `/proc/self/stat` on Linux), else the seconds
/// since `started`.
fn cpu_seconds(started: Instant) -> f64 {
    let from_proc = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // After the command name in parentheses: state is field 3, utime 14 and stime 15, in ticks
        // of 1/100 s.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
        Some((ticks(11)? + ticks(12)?) / 100.0)
    };
    from_proc().unwrap_or_else(|| started.elapsed().as_secs_f64())
}

/// The engine: the position, the moves since the start (for `undo`) and the search's settings.
pub struct GtpEngine {
    start: Trigon,
    game: Trigon,
    history: Vec<TrigonMove>,
    level: Level,
    seed: u64,
    timed: bool,
    /// A time per move or a clock instead of the level's budget.
    pub time: GtpTime,
    /// Search threads.
    pub threads: usize,
    /// The search's settings (`--config`), but for the seed and threads.
    pub config: SearchConfig,
    /// The search, made at the first `genmove` (with `threads` and `config` as they are then): the
    /// next `genmove` keeps its tree below the moves played since (tree reuse).
    engine: Option<Engine<Trigon>>,
    quit: bool,
    started: Instant,
}

/// A command's answer: its text, or the reason it failed.
type Answer = Result<String, String>;

impl GtpEngine {
    /// An engine on the empty board of `variant`, playing `genmove` at `level` with searches seeded
    /// from `seed` (with `timed`, the level's wall-clock cap holds too).
    pub fn new(variant: Variant, level: Level, seed: u64, timed: bool) -> GtpEngine {
        let start = Trigon::new(&TrigonOptions { variant }).expect("every variant has a board");
        GtpEngine {
            game: start.clone(),
            start,
            history: Vec::new(),
            level,
            seed,
            timed,
            time: GtpTime::default(),
            threads: 1,
            config: SearchConfig::default(),
            engine: None,
            quit: false,
            started: Instant::now(),
        }
    }

    /// The current position.
    pub fn game(&self) -> &Trigon {
        &self.game
    }

    /// True once `quit` was answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Answers one input line with its full response (ending with an empty line), or `None` for a
    /// blank or comment line.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let line = line.split('#').next().unwrap_or("");
        let clean: String = line.chars().map(|ch| if ch.is_control() { ' ' } else { ch }).collect();
        let words: Vec<&str> = clean.split_whitespace().collect();
        let first = *words.first()?;
        // A number before the command is its id (a lone number is a command name, as in Pentobi).
        let (id, name, args) = match words.get(1) {
            Some(&name) if first.parse::<u64>().is_ok() => (first, name, &words[2..]),
            _ => ("", first, &words[1..]),
        };
        // The rest of the line after the command name, for arguments with spaces (`set_game`).
        let rest = if id.is_empty() { after_word(&clean) } else { after_word(after_word(&clean)) };
        let (status, text) = match self.command(name, args, rest.trim()) {
            Ok(text) => ('=', text),
            Err(reason) => ('?', reason),
        };
        // GTP answers hold no empty line: one inside an answer becomes a single space.
        let mut body = String::new();
        for (i, l) in text.trim_end_matches('\n').split('\n').enumerate() {
            if i > 0 {
                body.push('\n');
                if l.is_empty() {
                    body.push(' ');
                }
            }
            body.push_str(l);
        }
        Some(format!("{status}{id} {body}\n\n"))
    }

    /// Runs one command.
    fn command(&mut self, name: &str, args: &[&str], rest: &str) -> Answer {
        let count = |n: usize| match args.len() {
            k if k < n => Err("missing argument".to_string()),
            k if k > n => Err("too many arguments".to_string()),
            _ => Ok(()),
        };
        match name {
            "protocol_version" => count(0).map(|()| "2".to_string()),
            "name" => count(0).map(|()| "triboard".to_string()),
            "version" => count(0).map(|()| env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => count(1).map(|()| COMMANDS.contains(&args[0]).to_string()),
            "list_commands" => count(0).map(|()| COMMANDS.join("\n")),
            "quit" => count(0).map(|()| {
                self.quit = true;
                String::new()
            }),
            "clear_board" => count(0).map(|()| self.clear(self.start.options().variant)),
            "set_game" => match variant_from_name(rest) {
                Some(variant) => Ok(self.clear(variant)),
                None if rest.is_empty() => Err("missing argument".to_string()),
                None => Err(format!("unsupported game variant '{rest}' (triboard plays Blokus Trigon)")),
            },
            "set_random_seed" => {
                count(1)?;
                self.seed = args[0].parse().map_err(|_| format!("invalid seed '{}'", args[0]))?;
                if let Some(engine) = &mut self.engine {
                    engine.set_seed(self.seed);
                }
                Ok(String::new())
            }
            "play" => {
                if args.len() < 2 {
                    return Err("missing argument".to_string());
                }
                let c = self.colour_arg(args[0])?;
                self.play(c, after_word(rest).trim())
            }
            "genmove" => {
                count(1)?;
                let c = self.colour_arg(args[0])?;
                self.genmove(c)
            }
            "all_legal" => {
                count(1)?;
                let c = self.colour_arg(args[0])?;
                self.all_legal(c)
            }
            "undo" => count(0).and_then(|()| self.undo()),
            "time_settings" => self.time.settings(args),
            "time_left" => {
                count(3)?;
                let c = self.colour_arg(args[0])?;
                self.time.left(c, args[1], args[2])
            }
            "final_score" => count(0).map(|()| final_score(&self.game)),
            "cputime" => count(0).map(|()| format!("{:.3}", cpu_seconds(self.started))),
            "showboard" => count(0).map(|()| format!("\n{}", self.game.board_text())),
            _ => Err("unknown command".to_string()),
        }
    }

    /// A colour argument, 0-based: `1`–`4` or a colour's name, only colours of this variant.
    fn colour_arg(&self, text: &str) -> Result<usize, String> {
        let t = text.to_ascii_lowercase();
        let c = match t.as_str() {
            "1" | "blue" => 0,
            "2" | "yellow" => 1,
            "3" | "red" => 2,
            "4" | "green" => 3,
            _ => usize::MAX,
        };
        if c < self.game.options().variant.colours() { Ok(c) } else { Err(format!("invalid color argument '{t}'")) }
    }

    /// A new game of `variant`.
    fn clear(&mut self, variant: Variant) -> String {
        self.start = Trigon::new(&TrigonOptions { variant }).expect("every variant has a board");
        self.game = self.start.clone();
        self.history.clear();
        self.time.new_game();
        String::new()
    }

    /// Plays `moves` (legal in turn) and keeps them for `undo`.
    fn commit(&mut self, game: Trigon, moves: &[TrigonMove]) {
        self.game = game;
        self.history.extend_from_slice(moves);
    }

    fn play(&mut self, c: usize, text: &str) -> Answer {
        let mv = self.game.parse_move(text).map_err(|e| format!("invalid move '{text}': {e}"))?;
        if mv == TrigonMove::PASS && self.game.is_out(c) {
            return Ok(String::new()); // Already out: the pass changes nothing.
        }
        let (mut g, mut moves) = reach_colour(&self.game, c)?;
        g.play(mv).map_err(|e| format!("illegal move: {e}"))?;
        moves.push(mv);
        self.commit(g, &moves);
        Ok(String::new())
    }

    fn genmove(&mut self, c: usize) -> Answer {
        if self.game.colour_to_move().is_none() || self.game.is_out(c) {
            return Ok("pass".to_string());
        }
        let (mut g, mut moves) = reach_colour(&self.game, c)?;
        let mut buf = Vec::new();
        g.legal_moves(&mut buf);
        let began = Instant::now();
        let mv = if buf.as_slice() == [TrigonMove::PASS] {
            TrigonMove::PASS
        } else if let Some(mv) = g.book_move() {
            self.time.record(began.elapsed());
            mv
        } else {
            let mut line = self.history.clone();
            line.extend_from_slice(&moves);
            let (seed, threads, config) = (self.seed, self.threads, &self.config);
            let engine =
                self.engine.get_or_insert_with(|| Engine::new(SearchConfig { seed, threads, ..config.clone() }));
            let mut search = engine.search_for(&g, &line, line.len() as u64);
            match self.time.spend(&g, c) {
                Spend::Plan(plan) => _ = search.run_planned(plan),
                Spend::Flat(time) => _ = search.run_settled(time),
                Spend::Level => {
                    let mut budget = self.level.budget();
                    if !self.timed {
                        budget = Budget { simulations: budget.simulations, max_time: Duration::MAX };
                    }
                    search.run(budget);
                }
            }
            let mv = search.best_move().ok_or("the search found no move")?;
            engine.keep_after(search, line, mv);
            self.time.record(began.elapsed());
            mv
        };
        let text = g.move_text(mv);
        g.play(mv).map_err(|e| format!("the search chose an illegal move {text}: {e}"))?;
        moves.push(mv);
        self.commit(g, &moves);
        Ok(text)
    }

    fn all_legal(&self, c: usize) -> Answer {
        if self.game.colour_to_move().is_none() || self.game.is_out(c) {
            return Ok(String::new());
        }
        let (g, _) = reach_colour(&self.game, c)?;
        let mut buf = Vec::new();
        g.legal_moves(&mut buf);
        let texts: Vec<String> = buf.iter().filter(|&&m| m != TrigonMove::PASS).map(|&m| g.move_text(m)).collect();
        Ok(texts.join("\n"))
    }

    fn undo(&mut self) -> Answer {
        let last = self.history.iter().rposition(|&m| m != TrigonMove::PASS).ok_or("cannot undo")?;
        self.history.truncate(last);
        let mut g = self.start.clone();
        for &mv in &self.history {
            g.play_unchecked(mv);
        }
        self.game = g;
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> GtpEngine {
        GtpEngine::new(Variant::Two, Level::new(1).unwrap(), 1, false)
    }

    #[test]
    fn framing() {
        let mut e = engine();
        assert_eq!(e.handle_line("  # a comment"), None);
        assert_eq!(e.handle_line("\r\n"), None);
        assert_eq!(e.handle_line("7 name # trailing comment"), Some("=7 triboard\n\n".to_string()));
        assert_eq!(e.handle_line("foo"), Some("? unknown command\n\n".to_string()));
        assert_eq!(e.handle_line("clear_board"), Some("= \n\n".to_string()));
        assert_eq!(e.handle_line("3 undo"), Some("?3 cannot undo\n\n".to_string()));
        assert!(e.handle_line("showboard").unwrap().starts_with("= \n"));
    }

    /// Random moves through `play` until the colour to move can only pass while the game goes on.
    fn to_a_stuck_colour(e: &mut GtpEngine, seed: u64) -> Option<usize> {
        let mut buf = Vec::new();
        while let Some(c) = e.game().colour_to_move() {
            e.game().legal_moves(&mut buf);
            if buf.as_slice() == [TrigonMove::PASS] {
                return Some(c);
            }
            let mv = buf[(crate::ai::derive_seed(seed, e.game().ply() as u64) % buf.len() as u64) as usize];
            let text = e.game().move_text(mv);
            assert_eq!(e.handle_line(&format!("play {} {text}", c + 1)).unwrap(), "= \n\n");
        }
        None
    }

    #[test]
    fn colours_that_can_only_pass_are_passed_for() {
        let mut e = engine();
        let mut seed = 0;
        let stuck = loop {
            assert!(seed < 200, "no random game left a colour stuck before the end");
            e.handle_line("clear_board");
            if let Some(c) = to_a_stuck_colour(&mut e, seed) {
                let mut g = e.game().clone();
                g.play(TrigonMove::PASS).unwrap();
                let mut buf = Vec::new();
                g.legal_moves(&mut buf);
                if !buf.is_empty() && buf[0] != TrigonMove::PASS {
                    break c;
                }
            }
            seed += 1;
        };
        // The stuck colour lists no move; the next colour may play at once (the stuck one passes).
        assert_eq!(e.handle_line(&format!("all_legal {}", stuck + 1)).unwrap(), "= \n\n");
        let mut after = e.game().clone();
        after.play(TrigonMove::PASS).unwrap();
        let next = after.colour_to_move().unwrap();
        let mut buf = Vec::new();
        after.legal_moves(&mut buf);
        let text = after.move_text(buf[0]);
        let before = e.history.len();
        assert!(e.handle_line(&format!("all_legal {}", next + 1)).unwrap().contains(&text));
        assert_eq!(e.handle_line(&format!("play {} {text}", next + 1)).unwrap(), "= \n\n");
        assert_eq!(e.history[before..], [TrigonMove::PASS, buf[0]]);
        assert!(e.game().is_out(stuck));
        assert_eq!(e.handle_line(&format!("genmove {}", stuck + 1)).unwrap(), "= pass\n\n");
        assert_eq!(e.handle_line(&format!("play {} pass", stuck + 1)).unwrap(), "= \n\n");
        // Undo takes back the placement; the pass before it stays.
        assert_eq!(e.handle_line("undo").unwrap(), "= \n\n");
        assert_eq!(e.history.len(), before + 1);
    }
}
