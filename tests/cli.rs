//! The headless CLI as a user runs it: the binary with arguments and stdin, its stdout, stderr and
//! exit code. Every command's `--json` last line must parse.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;
use triboard::rules::trike::{Trike, TrikeOptions};
use triboard::rules::{Game, perft, play_moves, rng_from_seed};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The last line of stdout as JSON.
    fn json(&self) -> Value {
        let last = self.stdout.lines().last().unwrap_or_else(|| panic!("no output; stderr: {}", self.stderr));
        serde_json::from_str(last).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {last}"))
    }
}

fn triboard(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).expect("stdin");
    let out = child.wait_with_output().expect("the binary runs");
    Run {
        code: out.status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn ok(args: &[&str], stdin: &str) -> Run {
    let run = triboard(args, stdin);
    assert_eq!(run.code, 0, "triboard {args:?} failed: {}\n{}", run.stderr, run.stdout);
    run
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("triboard-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn trike(size: u8) -> Trike {
    Trike::new(&TrikeOptions { size }).unwrap()
}

fn counts(v: &Value) -> Vec<u64> {
    v.as_array().expect("an array").iter().map(|c| c.as_u64().expect("a count")).collect()
}

#[test]
fn perft_counts_equal_the_library() {
    let run = ok(&["perft", "trike", "--size", "5", "--depth", "4", "--json"], "");
    let expected = perft(&trike(5), 4);
    assert_eq!(counts(&run.json()["perft"]), expected);
    assert_eq!(expected[0], 15, "the first move may go anywhere");
    // The human lines: `d count`.
    for (d, c) in expected.iter().enumerate() {
        assert!(run.stdout.contains(&format!("{} {c}\n", d + 1)), "{}", run.stdout);
    }

    let run = ok(&["perft", "trike", "--size", "7", "--moves", "d4 swap e5", "--depth", "3", "--json"], "");
    let mut start = trike(7);
    play_moves(&mut start, "d4 swap e5").unwrap();
    assert_eq!(counts(&run.json()["perft"]), perft(&start, 3));

    // The default size is 13.
    let run = ok(&["perft", "trike", "--depth", "2", "--json"], "");
    assert_eq!(counts(&run.json()["perft"]), perft(&trike(13), 2));
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    for args in [
        &["perft", "trike", "--size", "5", "--moves", "c3 c4 c3", "--depth", "2"][..],
        &["perft", "trike", "--size", "25", "--depth", "1"],
        &["perft", "chess", "--depth", "1"],
        &["perft", "trisq", "--size", "12", "--depth", "1"],
        &["perft", "trigon", "--size", "9", "--depth", "1"],
        &["bench", "trike", "--size", "5", "--moves", "a1 q7"],
        &["play", "trike", "--white", "robot"],
        &["selfplay", "trike", "--a", "ai:7", "--b", "ai:1"],
    ] {
        let run = triboard(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    }
    let run = triboard(&["perft", "trike", "--size", "5", "--moves", "c3 c4 c3", "--depth", "2", "--json"], "");
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.trim(), "triboard: --moves: move 3 (c3): c3 already holds a checker");
    assert_eq!(run.json()["error"], "--moves: move 3 (c3): c3 already holds a checker");
    let run = triboard(&["perft", "trisq", "--size", "12", "--depth", "1"], "");
    assert!(run.stderr.contains("size 12 is outside 2–9"), "{}", run.stderr);
}

#[test]
fn trigon_perft_from_the_start_and_after_moves() {
    // `docs/rules/trigon.md` §Records: 2,478 first moves in every variant; the second colour then has the
    // 413 placements over each of the five other starting points.
    for id in ["trigon", "trigon-2", "trigon-3"] {
        let run = ok(&["perft", id, "--depth", "2", "--json"], "");
        assert_eq!(counts(&run.json()["perft"]), [2478, 2478 * 5 * 413], "{id}");
    }
    let run = ok(&["perft", "trigon", "--moves", "r15 r4 j12 j7", "--depth", "1", "--json"], "");
    let mut g = triboard::rules::trigon::Trigon::new(&Default::default()).unwrap();
    play_moves(&mut g, "r15 r4 j12 j7").unwrap();
    assert_eq!(counts(&run.json()["perft"]), perft(&g, 1));
}

#[cfg(not(feature = "app"))]
#[test]
fn no_subcommand_without_a_window_is_a_usage_error() {
    let run = triboard(&[], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("Usage"), "{}", run.stderr);
}

#[test]
fn bench_reports_both_speeds() {
    let run = ok(&["bench", "trike", "--size", "7", "--seconds", "0.2", "--moves", "d4", "--json"], "");
    let v = run.json();
    assert!(v["playouts_per_s"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["simulations_per_s"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["plies_per_playout"].as_f64().unwrap() >= 1.0, "{v}");
    assert_eq!(v["ply"], 1);
}

#[test]
fn selfplay_two_tiny_games() {
    let dir = temp_dir("selfplay");
    let dir_arg = dir.to_str().unwrap();
    let args =
        ["selfplay", "trike", "--size", "5", "--a", "ai:1", "--b", "ai:1", "--games", "2", "--seed", "5", "--json"];
    let run = ok(&[&args[..], &["--record", dir_arg]].concat(), "");
    let v = run.json();
    assert_eq!(v["games"], 2);
    assert_eq!(v["a_wins"].as_u64().unwrap() + v["b_wins"].as_u64().unwrap(), 2, "Trike has no draws: {v}");
    let (lo, rate, hi) =
        (v["ci95_low"].as_f64().unwrap(), v["a_win_rate"].as_f64().unwrap(), v["ci95_high"].as_f64().unwrap());
    assert!(0.0 <= lo && lo <= rate && rate <= hi && hi <= 1.0, "{v}");
    assert!(v["a_ms_per_move"].as_f64().unwrap() >= 0.0 && v["b_ms_per_move"].as_f64().unwrap() >= 0.0);

    // The records replay, and threads change nothing but the speed.
    for k in 1..=2 {
        let file = dir.join(format!("game-000{k}.json"));
        let replay = ok(&["replay", file.to_str().unwrap(), "--json"], "");
        assert_eq!(replay.json()["finished"], true);
    }
    let threaded = ok(&[&args[..], &["--threads", "2"]].concat(), "").json();
    for key in ["a_wins", "b_wins", "mean_plies", "moves_digest"] {
        assert_eq!(threaded[key], v[key], "{key}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_with_two_people_on_stdin() {
    // An illegal move, a bad cell, `moves`, `undo` and `help`, then end of input.
    let script = "c3\nc3\nzz9\nmoves\nundo\nd4\nswap\nhelp\n";
    // c3 again: the pawn stands there and must move.
    let run = ok(&["play", "trike", "--size", "5", "--black", "human", "--white", "human", "--json"], script);
    assert!(run.stdout.contains("illegal: the pawn is already on c3; it must move"), "{}", run.stdout);
    assert!(run.stdout.contains("illegal: 'zz9' is not a cell"), "{}", run.stdout);
    assert!(run.stdout.contains("legal moves: "), "{}", run.stdout);
    assert!(run.stdout.contains("undone"), "{}", run.stdout);
    // After the swap the opener (player 1) plays White and moves.
    assert!(run.stdout.contains("White (player 1, Human) to move>"), "{}", run.stdout);
    let v = run.json();
    assert_eq!(v["moves"], serde_json::json!(["d4", "swap"]));
    assert_eq!(v["finished"], false);
    assert_eq!(v["result"], Value::Null);

    // `quit` stops at once, even with input left.
    let run = ok(&["play", "trike", "--size", "5", "--black", "human", "--white", "human", "--json"], "b2\nquit\nc3\n");
    assert_eq!(run.json()["moves"], serde_json::json!(["b2"]));
}

#[test]
fn play_a_whole_game_to_its_result() {
    // A random game from the library, typed in move by move.
    let mut g = trike(6);
    let (mut rng, mut buf, mut texts) = (rng_from_seed(11), Vec::new(), Vec::new());
    while let Some(mv) = g.random_move(&mut rng, &mut buf) {
        texts.push(g.move_text(mv));
        g.play(mv).unwrap();
    }
    let outcome = g.outcome().unwrap();
    let dir = temp_dir("play");
    let file = dir.join("game.json");
    let args = [
        "play",
        "trike",
        "--size",
        "6",
        "--black",
        "human",
        "--white",
        "human",
        "--json",
        "--record",
        file.to_str().unwrap(),
    ];
    let run = ok(&args, &(texts.join("\n") + "\n"));
    let v = run.json();
    assert_eq!(v["finished"], true);
    assert_eq!(v["moves"], serde_json::json!(texts));
    let scores: Vec<i64> = v["result"]["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
    assert_eq!(scores, outcome.scores[..2].iter().map(|&s| i64::from(s)).collect::<Vec<_>>());
    assert!(run.stdout.contains("game over after"), "{}", run.stdout);

    let replay = ok(&["replay", file.to_str().unwrap(), "--json"], "");
    assert_eq!(replay.json()["moves"], v["moves"]);
    assert_eq!(replay.json()["result"], v["result"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_against_the_ai_and_undo() {
    // The human opens; the AI answers each move; undo takes back both.
    let run = ok(&["play", "trike", "--size", "5", "--white", "ai:1", "--seed", "1", "--json"], "c3\nundo\nb2\n");
    assert!(run.stdout.contains("White (player 2, AI level 1) plays"), "{}", run.stdout);
    assert!(run.stdout.contains("win rate"), "{}", run.stdout);
    let moves = run.json()["moves"].as_array().unwrap().clone();
    assert_eq!(moves.len(), 2, "b2 and the AI's answer: {moves:?}");
    assert_eq!(moves[0], "b2");

    // Two AI seats play a whole game without input, the same for the same seed.
    let args = [
        "play", "trike", "--size", "5", "--black", "ai:1", "--white", "ai:2", "--seed", "4", "--moves", "c3", "--json",
    ];
    let a = ok(&args, "").json();
    assert_eq!(a["finished"], true);
    assert_eq!(a["moves"][0], "c3");
    assert_eq!(ok(&args, "").json()["moves"], a["moves"]);
}

#[test]
fn replay_refuses_bad_records_with_the_reason() {
    let dir = temp_dir("replay");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let good = write("good.json", r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3", "swap", "c4"]}"#);
    let run = ok(&["replay", &good, "--json"], "");
    assert_eq!(run.json()["moves"], serde_json::json!(["c3", "swap", "c4"]));
    assert_eq!(run.json()["finished"], false);
    assert!(run.stdout.contains("1.c3 2.swap 3.c4"), "{}", run.stdout);

    let cases = [
        (
            write("illegal.json", r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3", "c4", "c3"]}"#),
            "move 3 (c3) is illegal: c3 already holds a checker",
        ),
        (write("size.json", r#"{"game": "trike", "options": {"size": 40}, "moves": []}"#), "bad options"),
        (write("game.json", r#"{"game": "chess", "moves": []}"#), "unknown game 'chess'"),
        (write("broken.json", r#"{"game": "trike", "moves": ["#), "not a valid record"),
        (dir.join("missing.json").to_str().unwrap().to_string(), "cannot read"),
    ];
    for (file, reason) in &cases {
        let run = triboard(&["replay", file, "--json"], "");
        assert_eq!(run.code, 1, "{file}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{file}: expected '{reason}' in: {}", run.stderr);
        assert!(run.json()["error"].as_str().unwrap().contains(reason));
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tri_it_out_ties_go_against_the_last_mover_unless_told() {
    // hex-2-3: after Blue's b4 Red cannot place, at 3–3 (`tests/tri_it_out.rs` has the position).
    let play = |tie: &[&str]| {
        let mut args =
            vec!["play", "tri-it-out", "--board", "hex-2-3", "--seats", "human,human", "--moves", "b2 b3 a1 c4 b1 b4"];
        args.extend_from_slice(tie);
        args.push("--json");
        ok(&args, "").json()
    };
    let default = play(&[]);
    assert_eq!(default["finished"], true);
    assert_eq!(default["result"]["winners"], serde_json::json!([0]), "the last mover, Blue, loses: {default}");
    assert_eq!(play(&["--tie", "last-mover-loses"])["result"], default["result"]);
    let stuck = play(&["--tie", "stuck-player-loses"]);
    assert_eq!(stuck["result"]["winners"], serde_json::json!([1]), "the stuck player, Red, loses: {stuck}");
}

#[test]
fn play_seats_every_colour_of_trigon() {
    // Four people: Blue opens on a starting point, Yellow's first piece on a covered one is refused.
    let script = "r15\nr15\nquit\n";
    let run = ok(&["play", "trigon", "--seats", "human,human,human,human", "--json"], script);
    assert!(run.stdout.contains("Human as Blue, then Human as Yellow, then Human as Red, then Human as Green"));
    assert!(run.stdout.contains("illegal: r15 is already covered"), "{}", run.stdout);
    assert_eq!(run.json()["moves"], serde_json::json!(["r15"]));
    // The number of seats must match the variant.
    let run = triboard(&["play", "trigon-3", "--seats", "human,ai:1"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("trigon-3 seats 3 players, not 2"), "{}", run.stderr);
}

#[test]
fn tri_it_out_flags_choose_the_options_and_bad_ones_are_refused() {
    use triboard::rules::tri_it_out::{Board, TieRule, TriItOut, TriItOutOptions, Variant};
    let run = ok(
        &[
            "perft",
            "tri-it-out",
            "--board",
            "tri-5",
            "--tie",
            "stuck-player-loses",
            "--variant",
            "any-mixed-triangle",
            "--depth",
            "2",
            "--json",
        ],
        "",
    );
    let options =
        TriItOutOptions { board: Board::Tri5, tie: TieRule::StuckPlayerLoses, variant: Variant::AnyMixedTriangle };
    assert_eq!(counts(&run.json()["perft"]), perft(&TriItOut::new(&options).unwrap(), 2));
    // The default board is hex-3-4 (27 points).
    let run = ok(&["perft", "tri-it-out", "--depth", "1", "--json"], "");
    assert_eq!(counts(&run.json()["perft"]), [27]);
    for (args, says) in [
        (&["perft", "tri-it-out", "--board", "hex-9", "--depth", "1"][..], "unknown board 'hex-9' (boards: hex-2-3,"),
        (&["perft", "tri-it-out", "--tie", "draw", "--depth", "1"], "unknown tie rule 'draw'"),
        (&["perft", "tri-it-out", "--size", "5", "--depth", "1"], "tri-it-out takes no --size"),
        (&["perft", "trike", "--board", "hex-3", "--depth", "1"], "trike takes no --board"),
    ] {
        let run = triboard(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

#[cfg(all(feature = "app", target_os = "linux"))]
#[test]
fn without_a_display_the_window_says_so_in_one_sentence_and_no_panic() {
    let out = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one sentence: {stderr}");
    for words in ["no display", "DISPLAY", "WAYLAND_DISPLAY", "triboard play"] {
        assert!(stderr.contains(words), "{words:?} missing from {stderr}");
    }
}

#[test]
fn help_inside_play_describes_each_games_own_notation() {
    for (args, words) in [
        (&["play", "trike"][..], &["Trike", "c3", "swap"][..]),
        (&["play", "tri-it-out"], &["Tri-It-Out", "xd2"]),
        (&["play", "trigon-2", "--seats", "human,human"], &["Blokus Trigon", "r12,r13,s13"]),
        (&["play", "trisq"], &["Trisq", "c4H2", "end"]),
        (&["play", "tricore"], &["TriCore", "d4-d7", "c3^d3"]),
    ] {
        let run = ok(args, "help\nquit\n");
        let help = run.stdout.split("type 'help'").nth(1).expect("the banner");
        for word in words {
            assert!(help.contains(word), "{args:?}: {word:?} missing from {help}");
        }
        if args[1] != "trike" {
            assert!(!help.contains("c3, or swap") && !help.contains("Trike:"), "{args:?} describes Trike: {help}");
        }
    }
}

#[test]
fn every_game_id_is_named_in_the_help_of_commands_that_take_one() {
    for command in ["play", "selfplay", "bench", "perft"] {
        let run = ok(&[command, "--help"], "");
        for id in triboard::rules::game_ids() {
            assert!(run.stdout.contains(id), "{command} --help does not name {id}");
        }
    }
}

#[test]
fn many_legal_moves_are_counted_with_a_hint_and_can_be_filtered() {
    let run = ok(&["play", "trigon", "--seats", "human,human,human,human"], "moves\nmoves r12\nquit\n");
    let answers: Vec<&str> = run.stdout.split("to move> ").skip(1).collect();
    let first = answers[0];
    assert!(first.starts_with("2478 legal moves; the first 20:") && first.contains("moves all"), "{first}");
    assert!(first.lines().count() <= 8, "not a wall: {first}");
    let r12 = answers[1];
    assert!(r12.starts_with("2 legal moves naming 'r12':"), "{r12}");
    // Few moves are listed whole.
    let run = ok(&["play", "trike", "--size", "3"], "moves\nquit\n");
    assert!(run.stdout.contains("6 legal moves: a1 a2 b2 a3 b3 c3"), "{}", run.stdout);
}

#[test]
fn the_trisq_text_board_shows_each_squares_filling_and_slots() {
    let run = ok(&["play", "trisq", "--size", "6", "--white", "human"], "c4H2\nquit\n");
    // The last board printed: square c4 with filling H in its first line, slot 2 (bottom-left) Red's
    // in its second.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let at = lines.iter().rposition(|l| l.starts_with(" 4 ")).expect("row 4");
    assert_eq!(lines[at].split_whitespace().nth(3), Some("H.."), "{}", run.stdout);
    assert_eq!(lines[at + 1].split_whitespace().nth(2), Some("r."), "{}", run.stdout);
}

#[test]
fn a_record_of_an_unknown_game_says_so_and_names_the_known_ones() {
    let err = triboard::rules::record::Record::from_json(r#"{"game":"chess","moves":[]}"#)
        .unwrap()
        .replay::<Trike>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("'chess' is not a game triboard knows"), "{err}");
    for id in triboard::rules::game_ids() {
        assert!(err.contains(id), "{err}");
    }
}

/// `learn` fits weights to records `selfplay` wrote, writes a file `gtp --weights` loads; a
/// corrupted file is refused by `gtp` with the field and reason, and exit code 1.
#[test]
fn learn_writes_weights_that_gtp_loads() {
    let dir = temp_dir("learn");
    let records = dir.join("records");
    let recs = records.to_str().unwrap();
    let made = triboard(&["selfplay", "trigon-2", "--a", "ai:1", "--b", "ai:1", "--games", "2", "--record", recs], "");
    assert_eq!(made.code, 0, "{}", made.stderr);
    let weights = dir.join("weights.json");
    let w = weights.to_str().unwrap();
    let run =
        triboard(&["learn", "trigon-2", recs, "--holdout", "0.5", "--iterations", "50", "--out", w, "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    assert_eq!(json["records"], 2);
    assert!(json["held_out"]["positions"].as_u64().unwrap() > 20, "{json}");
    let fit = json["fit"]["learned"]["log_likelihood"].as_f64().unwrap();
    assert!(fit > json["fit"]["uniform"]["log_likelihood"].as_f64().unwrap(), "the fit beats a uniform choice: {json}");
    let gtp = triboard(&["gtp", "--game", "trigon-2", "--weights", w], "genmove 1\nquit\n");
    assert_eq!(gtp.code, 0, "{}", gtp.stderr);
    assert!(gtp.stdout.starts_with("= "), "{}", gtp.stdout);

    // Expert iteration: every 8th position's target is a search's visit shares, with these weights.
    let all = json["fit"]["positions"].as_u64().unwrap() + json["held_out"]["positions"].as_u64().unwrap();
    let args = ["learn", "trigon-2", recs, "--search", "300", "--every", "8", "--iterations", "50", "--weights", w];
    let searched = triboard(&[&args[..], &["--json"]].concat(), "");
    assert_eq!(searched.code, 0, "{}", searched.stderr);
    let json = searched.json();
    let positions = json["fit"]["positions"].as_u64().unwrap() + json["held_out"]["positions"].as_u64().unwrap();
    assert!(positions * 4 < all && positions * 16 > all, "about one position in 8: {positions} of {all}");
    let fit = json["fit"]["learned"]["log_likelihood"].as_f64().unwrap();
    assert!(fit > json["fit"]["uniform"]["log_likelihood"].as_f64().unwrap(), "{json}");
    let zero = triboard(&["learn", "trigon-2", recs, "--search", "0"], "");
    assert_eq!(zero.code, 2, "{}", zero.stderr);
    assert!(zero.stderr.contains("at least 1"), "{}", zero.stderr);

    let text = std::fs::read_to_string(&weights).unwrap().replace("\"taken 2\"", "\"taken 9\"");
    std::fs::write(&weights, text).unwrap();
    let refused = triboard(&["gtp", "--game", "trigon-2", "--weights", w], "quit\n");
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("\"taken 2\" is missing"), "{}", refused.stderr);
    let none = triboard(&["learn", "trigon-2", dir.join("nothing-here.json").to_str().unwrap()], "");
    assert_eq!(none.code, 1);
    assert!(none.stderr.contains("cannot read"), "{}", none.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// `learn` works for every game with move features: on Trike records it beats a uniform choice on
/// the records it fits, gives the same weights twice, and `selfplay --weights` plays with them;
/// a game's weights are refused by another game.
#[test]
fn learn_is_deterministic_and_selfplay_loads_the_weights() {
    let dir = temp_dir("learn-trike");
    let records = dir.join("records");
    let recs = records.to_str().unwrap();
    let made = triboard(
        &["selfplay", "trike", "--size", "7", "--a", "ai:1", "--b", "ai:1", "--games", "6", "--record", recs],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let (one, two) = (dir.join("one.json"), dir.join("two.json"));
    for out in [&one, &two] {
        let run =
            triboard(&["learn", "trike", recs, "--iterations", "60", "--out", out.to_str().unwrap(), "--json"], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json = run.json();
        let (fit, uniform) = (&json["fit"]["learned"]["log_likelihood"], &json["fit"]["uniform"]["log_likelihood"]);
        assert!(fit.as_f64().unwrap() > uniform.as_f64().unwrap(), "{json}");
    }
    assert_eq!(
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&two).unwrap(),
        "the same weights twice"
    );
    let w = one.to_str().unwrap();
    let play = triboard(
        &[
            "selfplay",
            "trike",
            "--size",
            "7",
            "--a",
            "ai:1",
            "--b",
            "ai:1",
            "--games",
            "1",
            "--weights",
            w,
            "--a-config",
            "prior_exploration=0.87",
        ],
        "",
    );
    assert_eq!(play.code, 0, "{}", play.stderr);
    let foreign = triboard(&["selfplay", "trisq", "--a", "ai:1", "--b", "ai:1", "--games", "1", "--weights", w], "");
    assert_eq!(foreign.code, 1);
    assert!(foreign.stderr.contains("\"format\" is not \"triboard trisq move weights\""), "{}", foreign.stderr);
    let bad = triboard(&["selfplay", "trike", "--a", "ai:1", "--b", "ai:1", "--a-config", "nonsense=1"], "");
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// `analyze` prints one line per move and the same JSON twice; a bad threshold is a usage error
/// and a corrupt record a failure naming the file.
#[test]
fn analyze_a_recorded_game() {
    let dir = temp_dir("analyze");
    let recs = dir.join("records");
    let r = recs.to_str().unwrap();
    let made = triboard(
        &["selfplay", "trike", "--size", "6", "--a", "ai:2", "--b", "ai:1", "--games", "1", "--record", r],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let file = recs.join("game-0001.json");
    let f = file.to_str().unwrap();
    let plies = serde_json::from_str::<Value>(&std::fs::read_to_string(&file).unwrap()).unwrap()["moves"]
        .as_array()
        .unwrap()
        .len();
    let first = triboard(&["analyze", f, "--budget", "quick", "--json"], "");
    assert_eq!(first.code, 0, "{}", first.stderr);
    let json = first.json();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), plies);
    for m in moves {
        let (before, loss) = (m["win_rate"].as_f64().unwrap(), m["loss"].as_f64().unwrap());
        assert!((0.0..=1.0).contains(&before) && (0.0..=1.0).contains(&loss), "{m}");
        assert_eq!(m["mistake"].as_bool().unwrap(), loss > 0.15 && m["move"] != m["best"], "{m}");
    }
    assert!(first.stdout.lines().any(|l| l.starts_with("1. ")), "{}", first.stdout);
    assert_eq!(triboard(&["analyze", f, "--budget", "quick", "--json"], "").json(), json, "the same analysis twice");
    assert_eq!(triboard(&["analyze", f, "--threshold", "2"], "").code, 2);
    // Kept in the record: it reloads with it, and a record whose analysis is wrong is refused.
    assert_eq!(triboard(&["analyze", f, "--budget", "quick", "--write"], "").code, 0);
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let entries = kept["analysis"]["moves"].as_array().unwrap();
    assert_eq!(entries.len(), plies);
    for (entry, m) in entries.iter().zip(moves) {
        assert_eq!(entry["best"], m["best"]);
        assert_eq!(entry["mistake"], m["mistake"]);
    }
    assert_eq!(triboard(&["replay", f], "").code, 0);
    let bad_best = std::fs::read_to_string(&file).unwrap().replacen("\"best\": \"", "\"best\": \"z", 1);
    std::fs::write(&file, bad_best).unwrap();
    let refused = triboard(&["replay", f], "");
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("the analysis of move 1: best move z"), "{}", refused.stderr);
    std::fs::write(&file, "{\"game\": \"trike\", \"options\": {\"size\": 6}, \"moves\": [\"zz9\"]}").unwrap();
    let bad = triboard(&["analyze", f], "");
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("game-0001.json"), "{}", bad.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// `play`'s `hint` gives the search's best move for the person to move: on a Trike-4 position
/// where one move wins at once it names that move (checked by playing it), and the count of hints
/// is in the JSON.
#[test]
fn play_hint_names_a_winning_move() {
    // Find, in random Trike-4 games, a position with a move that wins at once and one that does not.
    let mut rng = rng_from_seed(3);
    let mut buf = Vec::new();
    let (moves, winning) = loop {
        let mut g = trike(4);
        let mut texts = Vec::new();
        let mut found = None;
        while g.outcome().is_none() && found.is_none() {
            g.legal_moves(&mut buf);
            let mover = g.to_move().unwrap();
            let wins: Vec<String> = buf
                .iter()
                .filter(|&&mv| {
                    let mut next = g.clone();
                    next.play(mv).unwrap();
                    next.outcome().is_some_and(|o| o.ranks[mover.index()] == 1.0)
                })
                .map(|&mv| g.move_text(mv))
                .collect();
            if !wins.is_empty() && wins.len() < buf.len() {
                found = Some(wins);
                break;
            }
            let mv = buf[triboard::rules::random_index(&mut rng, buf.len())];
            texts.push(g.move_text(mv));
            g.play(mv).unwrap();
        }
        if let Some(wins) = found {
            break (texts.join(" "), wins);
        }
    };
    let args = [
        "play", "trike", "--size", "4", "--black", "human", "--white", "human", "--moves", &moves, "--seed", "1",
        "--json",
    ];
    let run = triboard(&args, "hint\nhint\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // "hint: d4, win rate 100% (solved: it wins at once)"
    let hinted = run.stdout.split("hint: ").nth(1).and_then(|t| t.split(',').next()).unwrap_or_default();
    assert!(winning.iter().any(|w| w == hinted), "hint '{hinted}' is not one of {winning:?}: {}", run.stdout);
    assert_eq!(run.json()["hints"], 2);
}

// Trigon Two-Player: each seat plays two colours, so the prompt names the colour to move first
// and the seat after it (`docs/rules/trigon.md` §Variants); with one colour per seat it is as
// before. An AI's move names the colour too, and its piece.
#[test]
fn the_trigon_prompt_names_the_colour_to_move() {
    let run = ok(&["play", "trigon-2", "--seats", "human,human"], "r15\nr4\nquit\n");
    for prompt in [
        "1. Blue (Blue/Red, player 1, Human) to move>",
        "2. Yellow (Yellow/Green, player 2, Human) to move>",
        "3. Red (Blue/Red, player 1, Human) to move>",
    ] {
        assert!(run.stdout.contains(prompt), "{prompt:?} missing from {}", run.stdout);
    }
    assert!(run.stdout.contains("seats: Blue/Red (player 1, Human), Yellow/Green (player 2, Human)"), "{}", run.stdout);
    let run = ok(&["play", "trigon", "--seats", "human,human,human,human"], "r15\nquit\n");
    assert!(run.stdout.contains("2. Yellow (player 2, Human) to move>"), "{}", run.stdout);
    let run = ok(&["play", "trigon-2", "--seats", "human,ai:1", "--seed", "1"], "r15\nquit\n");
    let at = run.stdout.find("2. Yellow (Yellow/Green, player 2, AI level 1) plays ").expect(&run.stdout);
    let plays = run.stdout[at..].lines().next().unwrap();
    let label = plays.split(" plays ").nth(1).and_then(|t| t.split_whitespace().next()).unwrap();
    let (piece, cells) = label.split_once(':').unwrap_or_else(|| panic!("a piece's name first: {label}"));
    let mut g = triboard::rules::trigon::Trigon::new(&Default::default()).unwrap();
    play_moves(&mut g, "r15").unwrap();
    let mv = g.parse_move(cells).unwrap();
    let placed = g.tables().placements[mv.0 as usize].piece as usize;
    assert_eq!(piece, triboard::rules::trigon::pieces::piece_name(placed), "{plays}");
}

// Trigon's move listing gives each move its piece's name (Pentobi's, `docs/rules/trigon.md`
// §Pieces) before the cells; a listed move typed back is played; the record keeps the cells alone.
#[test]
fn trigon_moves_are_listed_with_their_piece_and_read_back() {
    use triboard::rules::trigon::{Trigon, pieces::piece_name};
    let run = ok(
        &["play", "trigon", "--seats", "human,human,human,human", "--json"],
        "moves r15\nI3:q15,r15,s15\nmoves\nquit\n",
    );
    let answers: Vec<&str> = run.stdout.split("to move> ").skip(1).collect();
    // "413 legal moves naming 'r15'; the first 20: 1:r15 2:r15,s15 … (`moves all` …"
    let listed: Vec<&str> =
        answers[0].split(": ").nth(1).expect("the list").split_whitespace().take_while(|&t| t != "…").collect();
    assert_eq!(listed.len(), 20, "{}", answers[0]);
    let g = Trigon::new(&Default::default()).unwrap();
    assert!(listed.contains(&"1:r15") && listed.contains(&"I3:q15,r15,s15"), "{}", answers[0]);
    for label in &listed {
        let (piece, cells) = label.split_once(':').unwrap_or_else(|| panic!("{label}"));
        let mv = g.parse_move(cells).unwrap();
        assert_eq!(piece, piece_name(g.tables().placements[mv.0 as usize].piece as usize), "{label}");
        assert_eq!(g.parse_move(label), Ok(mv), "{label} reads back");
        assert_eq!(g.move_label(mv), *label);
    }
    assert!(!answers[1].starts_with("illegal"), "the listed move is played: {}", answers[1]);
    assert!(answers[1].contains("...BBB..."), "Blue's I3 on the board: {}", answers[1]);
    assert!(answers[2].contains("2065 legal moves; the first 20: 1:j12 2:"), "Yellow's moves: {}", answers[2]);
    assert_eq!(run.json()["moves"], serde_json::json!(["q15,r15,s15"]), "the record has the cells alone");
    // A name that is not the cells' piece is refused.
    let run = ok(&["play", "trigon", "--seats", "human,human,human,human"], "L5:q15,r15,s15\nquit\n");
    assert!(run.stdout.contains("illegal: 'q15,r15,s15' is the piece I3, not L5"), "{}", run.stdout);
}

// The Trigon board letters its columns above and below as cell labels name them (`r15`; a
// two-letter column written downwards), with row numbers on both sides (`docs/rules/trigon.md`
// §Board).
#[test]
fn the_trigon_board_letters_its_columns() {
    let run = ok(&["play", "trigon", "--seats", "human,human,human,human"], "r15\nquit\n");
    // The last board printed: two lines of letters, 18 rows, two lines of letters.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let end = lines.iter().rposition(|l| l.starts_with("    abc")).expect("the letters below the board");
    let board = &lines[end - 21..=end];
    let (first, last) = (board[0], board[1]);
    assert_eq!(last, "    abcdefghijklmnopqrstuvwxyzabcdefghi");
    assert_eq!(first, format!("{}aaaaaaaaa", " ".repeat(4 + 26)));
    assert_eq!(&board[20..], &board[..2], "the same letters below");
    // r15: column r, row 15 counted from the bottom (the fourth row line), holds Blue's piece.
    let row15 = board[2 + 3];
    assert!(row15.starts_with(" 15 ") && row15.ends_with(" 15"), "{row15}");
    let r = last.find('r').unwrap();
    assert_eq!(&row15[r..=r], "B", "{board:#?}");
    // ai10: columns aa.. read downwards.
    let ai = last.rfind('i').unwrap();
    assert_eq!((&first[ai..=ai], &last[ai..=ai]), ("a", "i"));
    assert_eq!(&board[2 + 8][ai..=ai], ".", "ai10 is on the board");
}

// Tri-It-Out and TriCore boards name their points: an empty point shows its letter on the line of
// its row's number (`docs/rules/tri-it-out.md` and `docs/rules/tricore.md` §Board, notation).
#[test]
fn lattice_boards_show_the_letters_of_empty_points() {
    let run = ok(&["play", "tri-it-out", "--board", "hex-3", "--seats", "human,human", "--moves", "a1 a2"], "quit\n");
    let row = |n: &str| run.stdout.lines().find(|l| l.starts_with(n)).unwrap_or_else(|| panic!("{n}: {}", run.stdout));
    // Row 1: Red a1, then b1 and c1; row 2: Blue a2, the restricted b2, then c2 and d2; each
    // row's number at both ends (README, "Coordinates"), the right ones in one column.
    assert_eq!(row("  1 ").split_whitespace().collect::<Vec<_>>(), ["1", "R", "b", "c", "1"]);
    assert_eq!(row("  2 ").split_whitespace().collect::<Vec<_>>(), ["2", "B", "-", "c", "d", "2"]);
    assert_eq!(row("  1 ").len(), row("  2 ").len(), "the right-hand numbers line up");
    // c2 lies half a step (two characters) right of b1.
    assert_eq!(row("  2 ").rfind('c').unwrap(), row("  1 ").find('b').unwrap() + 2);
    let run = ok(&["play", "tricore", "--seats", "human,human", "--moves", "d4 b3 f5 a1"], "quit\n");
    let row = |n: &str| run.stdout.lines().find(|l| l.starts_with(n)).unwrap_or_else(|| panic!("{n}: {}", run.stdout));
    // The Ring on a1 shows its letter; the Core on d4 stands between c3 and d3 of the row above.
    assert_eq!(row("  1 ").split_whitespace().collect::<Vec<_>>(), ["1", "(a)", "b", "c", "d", "e", "f", "1"]);
    let row4: Vec<&str> = row("  4 ").split_whitespace().collect();
    assert_eq!(row4, ["4", "a", "b", "c", "##", "e", "f", "g", "h", "i", "4"]);
    assert_eq!(row("  4 ").find('#').unwrap(), row("  3 ").find('d').unwrap() - 2);
}

// Opening books (`rules::book`, `cli::book`): a build writes the book; run again with more plies
// it keeps the positions the file holds and searches only the new ones. With `--book` the AI seats
// of `play` (level 3 and up) answer the empty board from the built-in book at once; without it
// they search.
#[test]
fn a_book_build_resumes_and_ai_seats_asked_to_play_the_built_in_books_move() {
    let dir = temp_dir("book");
    let file = dir.join("book.json");
    let path = file.to_str().unwrap();
    let build = |widths: &str| {
        ok(
            &[
                "book",
                "build",
                "trigon-2",
                "--out",
                path,
                "--simulations",
                "300",
                "--widths",
                widths,
                "--threads",
                "1",
                "--json",
            ],
            "",
        )
        .json()
    };
    let first = build("2");
    assert_eq!((first["positions"].as_u64(), first["searched"].as_u64()), (Some(1), Some(1)), "{first}");
    let second = build("2,1");
    assert_eq!(
        (second["positions"].as_u64(), second["searched"].as_u64(), second["reused"].as_u64()),
        (Some(3), Some(2), Some(1)),
        "{second}"
    );
    let book: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let positions = book["books"][0]["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    // The children are the positions after the root's two most simulated moves.
    let root_top: Vec<&str> =
        positions[0]["top"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    for (child, mv) in positions[1..].iter().zip(&root_top) {
        assert_eq!(child["line"][0].as_str(), Some(*mv));
    }
    // A corrupt book is refused with the file's name, and the file is left as it was.
    std::fs::write(&file, "{\"books\": [").unwrap();
    let run = triboard(&["book", "build", "trigon-2", "--out", path, "--simulations", "300", "--widths", "1"], "");
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("is not a book file"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"books\": [");

    let builtin: Value = serde_json::from_str(triboard::rules::trigon::book::BUILTIN_BOOK).unwrap();
    let two = builtin["books"].as_array().unwrap().iter().find(|b| b["game"] == "trigon-2").expect("a trigon-2 book");
    let first_move = two["positions"][0]["top"][0]["move"].as_str().unwrap();
    let run = ok(&["play", "trigon-2", "--seats", "ai:3,human", "--seed", "1", "--book"], "quit\n");
    let line = run.stdout.lines().find(|l| l.starts_with("1. Blue")).expect(&run.stdout);
    assert!(line.ends_with("from the opening book"), "{line}");
    assert!(line.contains(first_move), "{line} is not the book's {first_move}");
    let run = ok(&["play", "trigon-2", "--seats", "ai:3,human", "--seed", "1"], "quit\n");
    let line = run.stdout.lines().find(|l| l.starts_with("1. Blue")).expect(&run.stdout);
    assert!(line.contains("simulations in"), "{line}");
}

// GTP's clock: `time_settings` and `time_left` are known commands and answered; bad arguments
// are refused with a reason.
#[test]
fn gtp_takes_a_clock() {
    let run = ok(
        &["gtp", "--game", "trigon-2", "--level", "1"],
        "known_command time_left\ntime_settings 30 0 0\ntime_left 1 12.5 0\ntime_left 1 x 0\ntime_settings 1 2\ngenmove 1\nquit\n",
    );
    let answers: Vec<&str> = run.stdout.split("\n\n").map(str::trim).collect();
    assert_eq!(&answers[..3], ["= true", "=", "="], "{}", run.stdout);
    assert_eq!(answers[3], "? invalid time 'x'");
    assert_eq!(answers[4], "? time_settings needs 3 arguments");
    assert!(answers[5].starts_with("= ") && answers[5].contains(','), "{}", answers[5]);
}

#[test]
fn an_ai_move_says_what_the_solver_proved_only_when_asked() {
    // Two AI seats on the smallest board: the solver proves the end before the game reaches it.
    let args = ["play", "trike", "--size", "4", "--black", "ai:2", "--white", "ai:2", "--seed", "1"];
    let plain = ok(&args, "");
    assert!(!plain.stdout.contains("solved"), "the verdict was not asked for:\n{}", plain.stdout);
    assert!(plain.stdout.contains("game over after "), "{}", plain.stdout);
    let explained = ok(&[&args[..], &["--explain"]].concat(), "");
    assert!(explained.stdout.contains("solved"), "--explain says what the solver proved:\n{}", explained.stdout);
    for run in [&plain, &explained] {
        for wrong in [" 1 more plies", " 1 plies", "after 1 moves"] {
            assert!(!run.stdout.contains(wrong), "'{wrong}':\n{}", run.stdout);
        }
    }
}
