//! `triboard gtp` as a controller drives it (a scripted session through stdin/stdout, errors
//! included), and `triboard match` between GTP engines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;
use triboard::rules::Game;
use triboard::rules::trigon::{Trigon, TrigonMove, TrigonOptions, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_triboard");

/// A running `triboard gtp`.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(args: &[&str]) -> Gtp {
        let mut child = Command::new(BIN)
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Gtp { child, stdin, stdout }
    }

    /// Sends `line` and returns the response without its final empty line.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut response = String::new();
        loop {
            let mut l = String::new();
            assert!(self.stdout.read_line(&mut l).unwrap() > 0, "EOF after '{line}'; so far: {response:?}");
            if l == "\n" {
                break;
            }
            response.push_str(&l);
        }
        assert!(!response.is_empty(), "'{line}' got an empty response");
        response.pop(); // its newline
        response
    }

    /// Sends a command that must succeed and returns its text (after `= `).
    fn ok(&mut self, line: &str) -> String {
        let r = self.send(line);
        r.strip_prefix("= ").unwrap_or_else(|| panic!("'{line}' failed: {r}")).to_string()
    }

    /// Sends a command that must fail and returns its reason (after `? `).
    fn fails(&mut self, line: &str) -> String {
        let r = self.send(line);
        r.strip_prefix("? ").unwrap_or_else(|| panic!("'{line}' did not fail: {r}")).to_string()
    }
}

fn trigon(variant: Variant) -> Trigon {
    Trigon::new(&TrigonOptions { variant }).unwrap()
}

fn legal_texts(g: &Trigon) -> Vec<String> {
    let mut buf = Vec::new();
    g.legal_moves(&mut buf);
    let mut texts: Vec<String> = buf.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

#[test]
fn scripted_session() {
    let mut gtp = Gtp::start(&["--game", "trigon-2", "--level", "1", "--seed", "7", "--untimed"]);
    assert_eq!(gtp.send("protocol_version"), "= 2");
    assert_eq!(gtp.send("12 name"), "=12 triboard");
    assert_eq!(gtp.ok("version"), env!("CARGO_PKG_VERSION"));
    // What Pentobi's twogtp asks of every engine.
    assert!(gtp.ok("cputime").parse::<f64>().is_ok_and(|t| t >= 0.0));
    let commands = gtp.ok("list_commands");
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "final_score",
        "showboard",
        "all_legal",
        "set_game",
    ] {
        assert!(commands.lines().any(|l| l == c), "{c} missing from {commands}");
        assert_eq!(gtp.ok(&format!("known_command {c}")), "true");
    }
    assert_eq!(gtp.ok("known_command frobnicate"), "false");

    // Comments and blank lines get no response: the next response is the next command's.
    writeln!(gtp.stdin, "# a comment\n\n   \t").unwrap();
    assert_eq!(gtp.send("name # with a comment"), "= triboard");

    // The empty board: 2478 moves for the first colour, the same as the rules (and Pentobi).
    let mut game = trigon(Variant::Two);
    let moves: Vec<String> = gtp.ok("all_legal 1").lines().map(str::to_string).collect();
    assert_eq!(moves.len(), 2478);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(sorted, legal_texts(&game));
    // A colour after the one to play, which can still place: refused, as is a colour of no variant.
    assert_eq!(gtp.fails("all_legal 2"), "it is colour 1 (Blue) to play, not 2 (Yellow)");
    assert_eq!(gtp.fails("all_legal 5"), "invalid color argument '5'");
    assert_eq!(gtp.fails("all_legal"), "missing argument");

    // Blue plays the largest move listed; Yellow may then not play over it.
    let blue = moves.iter().max_by_key(|m| m.len()).unwrap().clone();
    assert_eq!(gtp.send(&format!("play 1 {blue}")), "= ");
    game.play(game.parse_move(&blue).unwrap()).unwrap();
    let first_cell = blue.split(',').next().unwrap();
    assert!(gtp.fails(&format!("play 2 {first_cell}")).starts_with("illegal move: "));
    assert!(gtp.fails("play 2 zz99").starts_with("invalid move 'zz99'"));
    assert!(gtp.fails("play 2 pass").contains("may not pass"));
    assert_eq!(gtp.fails("play 1 r15"), "it is colour 2 (Yellow) to play, not 1 (Blue)");
    assert_eq!(gtp.fails("play 9 r15"), "invalid color argument '9'");
    assert_eq!(gtp.fails("play 2"), "missing argument");
    assert_eq!(gtp.fails("frobnicate 1 2"), "unknown command");
    assert_eq!(gtp.send("4 frobnicate"), "?4 unknown command");

    // The engine's move for Yellow is legal by our rules.
    let yellow = gtp.ok("genmove 2");
    let mv = game.parse_move(&yellow).unwrap_or_else(|e| panic!("genmove answered {yellow}: {e}"));
    assert_ne!(mv, TrigonMove::PASS);
    game.play(mv).unwrap_or_else(|e| panic!("genmove answered the illegal {yellow}: {e}"));

    // The board and the score follow; final_score is answered before the end, as Pentobi does.
    assert_eq!(gtp.ok("showboard"), format!("\n{}", game.board_text().trim_end_matches('\n')));
    let diff = blue.split(',').count() as i32 - yellow.split(',').count() as i32;
    let expected = match diff {
        d if d > 0 => format!("B+{d}"),
        d if d < 0 => format!("W+{}", -d),
        _ => "0".to_string(),
    };
    assert_eq!(gtp.ok("final_score"), expected);

    // Undo takes back Yellow's move, then Blue's; then there is nothing to undo.
    assert_eq!(gtp.ok("undo"), "");
    let mut after_blue = trigon(Variant::Two);
    after_blue.play(after_blue.parse_move(&blue).unwrap()).unwrap();
    assert_eq!(gtp.ok("showboard"), format!("\n{}", after_blue.board_text().trim_end_matches('\n')));
    assert_eq!(gtp.ok("undo"), "");
    assert_eq!(gtp.fails("undo"), "cannot undo");
    assert_eq!(gtp.ok("final_score"), "0");

    // The variants by their names in Pentobi's records; others are refused.
    assert_eq!(gtp.ok("set_game Blokus Trigon Three-Player"), "");
    assert_eq!(gtp.ok("final_score"), "0 0 0");
    assert_eq!(gtp.fails("genmove 4"), "invalid color argument '4'");
    assert_eq!(gtp.ok("all_legal 1").lines().count(), 2478);
    assert_eq!(gtp.ok("set_game blokus trigon"), "");
    assert_eq!(gtp.ok("final_score"), "0 0 0 0");
    assert_eq!(gtp.fails("play 4 r15"), "it is colour 1 (Blue) to play, not 4 (Green)");
    assert_eq!(gtp.ok("play blue r15"), "");
    assert_eq!(gtp.ok("clear_board"), "");
    assert_eq!(gtp.ok("showboard"), format!("\n{}", trigon(Variant::Four).board_text().trim_end_matches('\n')));
    assert_eq!(gtp.ok("set_game Blokus Trigon Two-Player"), "");
    assert_eq!(gtp.ok("final_score"), "0");
    assert_eq!(
        gtp.fails("set_game Blokus Duo"),
        "unsupported game variant 'Blokus Duo' (triboard plays Blokus Trigon)"
    );
    assert_eq!(gtp.fails("set_game"), "missing argument");
    assert_eq!(gtp.fails("set_random_seed x"), "invalid seed 'x'");
    assert_eq!(gtp.ok("set_random_seed 3"), "");

    // quit answers, then the engine exits cleanly.
    assert_eq!(gtp.send("99 quit"), "=99 ");
    let mut rest = String::new();
    assert_eq!(gtp.stdout.read_line(&mut rest).unwrap(), 0, "output after quit: {rest}");
    assert!(gtp.child.wait().unwrap().success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut gtp = Gtp::start(&["--game", "trigon-3"]);
    assert_eq!(gtp.ok("name"), "triboard");
    drop(gtp.stdin);
    let mut rest = String::new();
    assert_eq!(gtp.stdout.read_line(&mut rest).unwrap(), 0, "output after EOF: {rest}");
    assert!(gtp.child.wait().unwrap().success());
}

#[test]
fn unknown_game_is_a_usage_error() {
    let out = Command::new(BIN).args(["gtp", "--game", "chess"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `triboard match ARGS --json`: exit code and the JSON last line.
fn run_match(args: &[&str]) -> (i32, String, Value) {
    let out = Command::new(BIN).arg("match").args(args).arg("--json").stdin(Stdio::null()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap_or(Value::Null);
    (out.status.code().unwrap(), stdout, json)
}

#[test]
fn match_between_two_triboard_engines() {
    let a = format!("{BIN} gtp --level 1 --untimed --seed 1");
    // B searches a time per move instead of a level's budget.
    let b = format!("{BIN} gtp --seconds 0.05 --seed 2");
    let (code, stdout, json) = run_match(&["--engine", &a, "--engine", &b, "--game", "trigon-2", "--games", "2"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("engine  moves  mean s/move  max s/move  cpu s (cputime)"), "{stdout}");
    assert!(stdout.contains("game 1 (A 1+3, B 2+4): "), "{stdout}");
    assert!(stdout.contains("game 2 (B 1+3, A 2+4): "), "{stdout}");
    assert!(stdout.contains("win rate (95% interval)"), "{stdout}");
    assert_eq!(json["games"], 2);
    let engines = json["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 2);
    let mut points = 0.0;
    for e in engines {
        assert_eq!(e["forfeits"], 0, "{stdout}");
        assert_eq!(e["name"], format!("triboard {}", env!("CARGO_PKG_VERSION")));
        let games = e["wins"].as_u64().unwrap() + e["losses"].as_u64().unwrap() + e["draws"].as_u64().unwrap();
        assert_eq!(games, 2);
        points += e["points"].as_f64().unwrap();
    }
    assert_eq!(points, 2.0, "one point per game");
    // Every genmove is timed: the engines answered as many as there were placements.
    let results = json["results"].as_array().unwrap();
    let placements: u64 = results.iter().map(|r| r["placements"].as_u64().unwrap()).sum();
    let moves: u64 = engines.iter().map(|e| e["moves"].as_u64().unwrap()).sum();
    assert_eq!(moves, placements, "{stdout}");
    for e in engines {
        let (mean, max) = (e["mean_move_seconds"].as_f64().unwrap(), e["max_move_seconds"].as_f64().unwrap());
        assert!(0.0 < mean && mean <= max, "{e}");
        // triboard answers cputime.
        assert!(e["cpu_seconds"].as_f64().is_some_and(|c| c > 0.0), "{e}");
    }
    assert_eq!(results[0]["seats"], serde_json::json!([0, 1]));
    assert_eq!(results[1]["seats"], serde_json::json!([1, 0]));
    for r in results {
        assert!(r["forfeit"].is_null());
        // Both engines score the final position as the referee does.
        assert_eq!(r["disagreements"], serde_json::json!([]), "{r}");
        let score = r["final_score"].as_str().unwrap();
        assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"), "{r}");
        // A whole game: every colour placed several pieces.
        assert!(r["placements"].as_u64().unwrap() >= 40, "{r}");
    }
}

#[test]
fn an_engine_that_cheats_or_crashes_forfeits() {
    let a = format!("{BIN} gtp --level 1 --untimed --seed 1");
    // Answers every command with `= r15`: a legal first move for Blue, illegal ever after.
    let cheat = r#"while read l; do echo "= r15"; echo; done"#;
    let (code, stdout, json) =
        run_match(&["--engine", &a, "--engine", cheat, "--game", "trigon", "--games", "2", "--max-moves", "12"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(json["engines"][0]["wins"], 2, "{stdout}");
    assert_eq!(json["engines"][1]["forfeits"], 2, "{stdout}");
    assert!(stdout.contains("B forfeits: illegal move 'r15'"), "{stdout}");

    let (code, stdout, json) =
        run_match(&["--engine", &a, "--engine", "exit 3", "--game", "trigon-3", "--games", "1", "--timeout", "10"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(json["engines"][1]["forfeits"], 1, "{stdout}");
    assert!(stdout.contains("B forfeits: crashed"), "{stdout}");

    // A short game stops after --max-moves placements and is scored as it stands.
    let b = format!("{BIN} gtp --level 1 --untimed --seed 2");
    let (code, stdout, json) =
        run_match(&["--engine", &a, "--engine", &b, "--game", "trigon", "--games", "1", "--max-moves", "6"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(json["results"][0]["placements"], 6, "{stdout}");
}

#[test]
fn match_usage_errors() {
    let (code, _, json) = run_match(&["--engine", "x", "--game", "trigon"]);
    assert_eq!(code, 2);
    assert!(json["error"].as_str().unwrap().contains("give 2 to 4 engines"), "{json}");
    let (code, _, _) = run_match(&["--engine", "x", "--engine", "y", "--game", "chess"]);
    assert_eq!(code, 2);
}

#[test]
fn seconds_must_be_a_positive_time_and_excludes_untimed() {
    for args in [&["gtp", "--seconds", "0"][..], &["gtp", "--seconds", "x"], &["gtp", "--seconds", "1", "--untimed"]] {
        let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A time per move answers genmove with a legal move.
    let mut gtp = Gtp::start(&["--game", "trigon-2", "--seconds", "0.05", "--seed", "3"]);
    let mv = gtp.ok("genmove 1");
    assert!(legal_texts(&trigon(Variant::Two)).contains(&mv), "{mv}");
}

/// A GTP engine that resigns every game at its first `genmove`: an opponent of known strength
/// (none) for the SPRT of `match --sprt`, run with `sh -c` as every engine is.
const RESIGNER: &str = r#"while read -r c; do case "$c" in genmove*) printf '= resign\n\n';; quit*) printf '=\n\n'; exit 0;; known_command*) printf '= false\n\n';; name*) printf '= resigner\n\n';; version*) printf '= 1\n\n';; *) printf '=\n\n';; esac; done"#;

#[test]
fn an_sprt_against_an_engine_that_always_resigns_accepts_h1_and_stops() {
    let a = format!("{BIN} gtp --level 1 --untimed --seed 1");
    let (code, stdout, json) = run_match(&[
        "--engine",
        &a,
        "--engine",
        RESIGNER,
        "--game",
        "trigon-2",
        "--sprt",
        "0,20",
        "--games",
        "200",
        "--concurrency",
        "2",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let sprt = &json["sprt"];
    assert_eq!(sprt["verdict"], "H1", "{stdout}");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap(), "{stdout}");
    let pairs = sprt["units"].as_u64().unwrap();
    assert_eq!(sprt["pentanomial"], serde_json::json!([0, 0, 0, 0, pairs]), "{stdout}");
    assert_eq!(sprt["games"].as_u64().unwrap(), 2 * pairs);
    // It stopped once decided: the games in flight then (one per worker at most) finish, no more.
    let games = json["games"].as_u64().unwrap();
    assert!(games >= 2 * pairs && games <= 2 * pairs + 2 && games < 200, "{games} games for {pairs} pairs: {stdout}");
    assert!(sprt["elo_ci95_low"].as_f64().unwrap() > 20.0, "{stdout}");
    assert!(stdout.contains("SPRT [0, 20] α=0.05 β=0.05: H1 accepted after"), "{stdout}");
    // Every game was the resigner's forfeit, whichever seat it held.
    assert_eq!(json["engines"][1]["forfeits"].as_u64(), Some(games), "{stdout}");
}

#[test]
fn an_sprt_of_the_engine_that_always_resigns_accepts_h0() {
    let b = format!("{BIN} gtp --level 1 --untimed --seed 1");
    let (code, stdout, json) =
        run_match(&["--engine", RESIGNER, "--engine", &b, "--game", "trigon-2", "--sprt=-10,10", "--alpha", "0.01"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(json["sprt"]["verdict"], "H0", "{stdout}");
    assert!(json["sprt"]["llr"].as_f64().unwrap() <= json["sprt"]["lower"].as_f64().unwrap(), "{stdout}");
    assert!((json["sprt"]["upper"].as_f64().unwrap() - (0.95f64 / 0.01).ln()).abs() < 1e-9);
    // One worker waits for each result to be taken in, so it starts no game after the decision.
    assert_eq!(json["games"], json["sprt"]["games"], "{stdout}");
    // Bad bounds are a usage error.
    let (code, stdout, _) = run_match(&["--engine", RESIGNER, "--engine", &b, "--sprt", "10,0"]);
    assert_eq!(code, 2, "{stdout}");
}
