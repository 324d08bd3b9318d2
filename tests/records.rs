//! Game records (`docs/design.md` §Three layers: options plus the move list, as JSON): they
//! round-trip, and a bad one is refused with an error that names the place — line and column, the
//! option, or the move number — never with a panic.

use proptest::prelude::*;
use triboard::rules::record::{Record, RecordError};
use triboard::rules::trike::{Trike, TrikeOptions};
use triboard::rules::{Game, Player, play_moves, rng_from_seed};

fn trike(size: u8, moves: &str) -> Trike {
    let mut g = Trike::new(&TrikeOptions { size }).unwrap();
    play_moves(&mut g, moves).unwrap();
    g
}

/// Replays `json` as Trike, catching a panic so a test can say which input caused it.
fn load(json: &str) -> Result<(Trike, Trike, Vec<<Trike as Game>::Move>), RecordError> {
    std::panic::catch_unwind(|| Record::from_json(json)?.replay::<Trike>())
        .unwrap_or_else(|_| panic!("loading panicked instead of refusing:\n{json}"))
}

fn load_err(json: &str) -> RecordError {
    match load(json) {
        Ok(_) => panic!("should be refused:\n{json}"),
        Err(e) => e,
    }
}

/// A random finished game on `size`, and its moves.
fn random_game(size: u8, seed: u64) -> (Trike, Vec<<Trike as Game>::Move>) {
    let mut g = trike(size, "");
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    while let Some(m) = g.random_move(&mut rng, &mut Vec::new()) {
        g.play(m).unwrap();
        moves.push(m);
    }
    (g, moves)
}

// ---------------------------------------------------------------------------------------------
// Round trip

#[test]
fn round_trip_with_every_field() {
    for (size, seed) in [(3u8, 1u64), (7, 2), (13, 3), (19, 4)] {
        let (end, moves) = random_game(size, seed);
        let mut record = Record::new(&end, &moves);
        assert_eq!(record.game_id(), "trike");
        assert_eq!(record.options, serde_json::json!({ "size": size }));
        assert_eq!(record.moves.len(), moves.len());
        assert_eq!(record.moves[0], end.move_text(moves[0]));
        record.players = vec!["Human".into(), "AI level 3".into()];
        record.date = Some("2026-11-22T20:00:00Z".into());
        record.result = Some("Black 4 – White 3".into());
        let json = record.to_json();
        let read = Record::from_json(&json).unwrap();
        assert_eq!(read, record);
        let (start, replayed, replayed_moves) = read.replay::<Trike>().unwrap();
        assert_eq!(start, trike(size, ""));
        assert_eq!(replayed, end);
        assert_eq!(replayed_moves, moves);
        assert_eq!(replayed.to_move(), None, "a finished game replays finished");
    }
}

#[test]
fn a_game_in_progress_with_a_swap_round_trips() {
    let g = trike(9, "e5 swap e9 a5");
    let moves: Vec<_> = ["e5", "swap", "e9", "a5"].iter().map(|t| g.parse_move(t).unwrap()).collect();
    let record = Record::new(&g, &moves);
    assert_eq!(record.moves, ["e5", "swap", "e9", "a5"]);
    let json = record.to_json();
    // Optional fields that are empty are not written.
    for absent in ["players", "date", "result"] {
        assert!(!json.contains(absent), "{absent} written:\n{json}");
    }
    let (_, end, _) = load(&json).unwrap();
    assert_eq!(end, g);
    assert!(end.swapped());
    assert_eq!(end.to_move(), Some(Player(0)), "the opener, now White, moves after e9 and a5");
}

#[test]
fn a_hand_written_record_loads() {
    // rules/trike.md §End and score: a2 B, b2 W, a1 B traps the pawn in the corner a1.
    let (_, end, moves) = load(r#"{"game": "trike", "options": {"size": 3}, "moves": ["a2", "b2", "a1"]}"#).unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(end.outcome().unwrap().scores[..2], [2, 1]);
    // Unknown text fields are free text, not trusted: a wrong result is not an error.
    let json = r#"{"game":"trike","options":{"size":3},"moves":["a2","b2","a1"],"result":"White wins","players":["a","b"],"date":"yesterday"}"#;
    assert_eq!(load(json).unwrap().1, end);
}

#[test]
fn missing_or_empty_options_mean_the_defaults() {
    for json in [
        r#"{"game":"trike","moves":["a1"]}"#,
        r#"{"game":"trike","options":null,"moves":["a1"]}"#,
        r#"{"game":"trike","options":{},"moves":["a1"]}"#,
    ] {
        let (start, end, _) = load(json).unwrap();
        assert_eq!(start.options(), &TrikeOptions { size: 13 }, "{json}");
        assert_eq!(end.ply(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Refusals that name the place

#[test]
fn truncated_json_names_line_and_column() {
    let (end, moves) = random_game(7, 11);
    let json = Record::new(&end, &moves).to_json();
    assert!(json.lines().count() > 5, "pretty-printed over several lines");
    // Every proper prefix is refused as JSON, and the error names the line where the text stops.
    for cut in 0..json.trim_end().len() {
        let prefix = &json[..cut];
        let err = load_err(prefix);
        let RecordError::Json(message) = &err else { panic!("prefix of {cut} bytes: {err:?}") };
        let line = prefix.matches('\n').count() + 1;
        assert!(
            message.contains(&format!("line {line} column")),
            "prefix of {cut} bytes: '{message}' should name line {line}"
        );
        assert!(err.to_string().contains(message.as_str()));
    }
    // One exactly: the text stops after the 14th character of line 3, inside the first move.
    let err = load_err("{\n  \"game\": \"trike\",\n  \"moves\": [\"a");
    assert_eq!(err.to_string(), "not a valid record: EOF while parsing a string at line 3 column 14");
}

#[test]
fn unknown_top_level_field_is_named() {
    let err = load_err("{\"game\": \"trike\",\n \"moves\": [],\n \"winner\": \"me\"}");
    let RecordError::Json(message) = &err else { panic!("{err:?}") };
    assert!(message.contains("winner") && message.contains("line 3 column"), "'{message}'");
}

#[test]
fn missing_or_mistyped_fields_are_named() {
    for (json, field) in [
        (r#"{"game":"trike"}"#, "moves"),
        (r#"{"moves":[]}"#, "game"),
        (r#"{"game":"trike","moves":"a1 a2"}"#, "string"),
        (r#"{"game":"trike","moves":[1, 2]}"#, "integer"),
        (r#"{"game":7,"moves":[]}"#, "integer"),
        (r#"[]"#, "struct Record"),
        (r#""trike""#, "string"),
        ("", "EOF"),
    ] {
        let err = load_err(json);
        let RecordError::Json(message) = &err else { panic!("{json}: {err:?}") };
        assert!(message.contains(field) && message.contains("line 1 column"), "{json}: '{message}'");
    }
}

#[test]
fn wrong_game_id() {
    for id in ["tricore", "Trike", "", "trike "] {
        let json = format!(r#"{{"game":"{id}","options":{{"size":5}},"moves":["a1"]}}"#);
        let err = load_err(&json);
        assert_eq!(err, RecordError::WrongGame { expected: "trike".into(), found: id.into() });
        let text = err.to_string();
        assert!(text.contains(&format!("'{id}'")), "'{text}'");
        if id == "tricore" {
            // Another game triboard plays: named as such.
            assert!(text.contains("not 'trike'"), "'{text}'");
        } else {
            // No game at all: the known ones are listed.
            assert!(text.contains("is not a game triboard knows") && text.contains("trike, tri-it-out"), "'{text}'");
        }
    }
}

#[test]
fn unknown_option_field() {
    let err = load_err(r#"{"game":"trike","options":{"size":13,"colour":2},"moves":[]}"#);
    let RecordError::Options(message) = &err else { panic!("{err:?}") };
    assert!(message.contains("colour"), "'{message}' names the field");
    assert!(err.to_string().starts_with("bad options"), "'{err}'");
}

#[test]
fn out_of_range_or_mistyped_size() {
    // rules/trike.md §Board: sizes 3–19.
    for (options, named) in [
        (r#"{"size":25}"#, "25"),
        (r#"{"size":2}"#, "2"),
        (r#"{"size":20}"#, "20"),
        (r#"{"size":0}"#, "0"),
        (r#"{"size":300}"#, "300"),
        (r#"{"size":-1}"#, "-1"),
        (r#"{"size":13.5}"#, "13.5"),
        (r#"{"size":"13"}"#, "13"),
        (r#"{"size":null}"#, "null"),
        ("13", "13"),
        ("true", "boolean"),
    ] {
        let json = format!(r#"{{"game":"trike","options":{options},"moves":["a1"]}}"#);
        let err = load_err(&json);
        let RecordError::Options(message) = &err else { panic!("{options}: {err:?}") };
        assert!(message.contains(named), "{options}: '{message}' should name {named}");
    }
    // The edges of the range load.
    for size in [3, 19] {
        let json = format!(r#"{{"game":"trike","options":{{"size":{size}}},"moves":["a1"]}}"#);
        assert!(load(&json).is_ok(), "size {size}");
    }
}

#[test]
fn illegal_move_names_its_number_and_reason() {
    for (size, moves, number, text, reason_has) in [
        // rules/trike.md §Play 3: b2 lies beyond the checker on b3.
        (5u8, r#"["b3","b5","b2"]"#, 3usize, "b2", "b3"),
        // Landing on a checker.
        (5, r#"["b3","b5","b4","b3"]"#, 4, "b3", "b3"),
        // Not on a line.
        (5, r#"["b3","b5","c4"]"#, 3, "c4", "line"),
        // §Play 2: swap only as the second move; the swap counts as a move.
        (5, r#"["b3","b5","swap"]"#, 3, "swap", "swap"),
        (5, r#"["swap"]"#, 1, "swap", "swap"),
        (5, r#"["b3","swap","swap"]"#, 3, "swap", "swap"),
        (5, r#"["b3","swap","b3"]"#, 3, "b3", "b3"),
        // Unreadable text, and a cell of a bigger board.
        (5, r#"["a1","zz9"]"#, 2, "zz9", "zz9"),
        (5, r#"["a1","a2","f6"]"#, 3, "f6", "f6"),
        (5, r#"["a1",""]"#, 2, "", "swap"),
        // §End and score: nothing after the pawn is trapped.
        (3, r#"["a2","b2","a1","b3"]"#, 4, "b3", "over"),
    ] {
        let json = format!(r#"{{"game":"trike","options":{{"size":{size}}},"moves":{moves}}}"#);
        let err = load_err(&json);
        let RecordError::Move { number: n, text: t, reason } = &err else { panic!("{moves}: {err:?}") };
        assert_eq!((*n, t.as_str()), (number, text), "{moves}");
        assert!(reason.contains(reason_has), "{moves}: '{reason}' should mention {reason_has}");
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("move {number} ({text}) is illegal: ")), "'{shown}'");
    }
}

#[test]
fn extreme_row_number_in_a_record_is_an_error_not_a_panic() {
    // A record file from anywhere must not crash the program (a row number that once overflowed).
    let json = r#"{"game":"trike","options":{"size":13},"moves":["a1","a-2147483648"]}"#;
    let loaded = std::panic::catch_unwind(|| Record::from_json(json).unwrap().replay::<Trike>());
    match loaded {
        Err(_) => panic!("loading panicked instead of refusing move 2"),
        Ok(result) => {
            let err = result.expect_err("a-2147483648 is no cell");
            assert!(matches!(err, RecordError::Move { number: 2, .. }), "{err:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Never a panic

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Any list of move texts on any size either replays or names the first bad move.
    #[test]
    fn any_move_list_replays_or_names_the_bad_move(
        size in 3u8..=19,
        moves in prop::collection::vec("swap|[a-t][1-9]|[a-t]1[0-9]|\\PC{0,4}", 0..24),
    ) {
        let json = serde_json::json!({ "game": "trike", "options": { "size": size }, "moves": moves }).to_string();
        match load(&json) {
            Ok((start, end, played)) => {
                prop_assert_eq!(played.len(), moves.len());
                prop_assert_eq!(start, trike(size, ""));
                // The same moves through the plain move-list reader reach the same position.
                let mut again = trike(size, "");
                for (t, &m) in moves.iter().zip(&played) {
                    prop_assert_eq!(again.parse_move(t), Ok(m));
                    again.play(m).unwrap();
                }
                prop_assert_eq!(again, end);
            }
            Err(RecordError::Move { number, text, reason }) => {
                prop_assert!((1..=moves.len()).contains(&number));
                prop_assert_eq!(&text, &moves[number - 1]);
                prop_assert!(!reason.is_empty());
                // The moves before it are fine.
                let mut before = trike(size, "");
                for t in &moves[..number - 1] {
                    let m = before.parse_move(t).unwrap();
                    prop_assert!(before.play(m).is_ok());
                }
            }
            Err(other) => prop_assert!(false, "unexpected error {:?}", other),
        }
    }

    /// Any edit of a valid record's text is loaded or refused, never a panic.
    #[test]
    fn edited_json_never_panics(
        seed in 0u64..1000,
        edits in prop::collection::vec((0usize..2000, prop::sample::select(vec![
            "", "\"", "{", "}", "[", "]", ",", ":", "0", "-1", "99", "null", "x", "\\", "swap", "a1",
        ])), 1..4),
    ) {
        let (end, moves) = random_game(5 + (seed % 9) as u8, seed);
        let mut json = Record::new(&end, &moves).to_json();
        for (at, insert) in edits {
            let at = at % (json.len() + 1);
            // Replace one byte (or insert at the end) with the snippet; stay on char boundaries.
            let at = (0..=at).rev().find(|&i| json.is_char_boundary(i)).unwrap();
            let next = (at + 1..=json.len()).find(|&i| json.is_char_boundary(i)).unwrap_or(json.len());
            json.replace_range(at..next, insert);
        }
        let _ = load(&json);
    }
}

#[test]
fn variations_and_hints_round_trip_and_a_bad_variation_is_refused_with_its_place() {
    let json = r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3", "b2"],
        "variations": [["c3", "d4", "c4"]], "hints": [0, 2]}"#;
    let record = Record::from_json(json).unwrap();
    let (start, _, _) = record.replay::<Trike>().expect("a record with a variation loads");
    let lines = record.variation_lines(&start).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].len(), 3);
    assert_eq!(Record::from_json(&record.to_json()).unwrap(), record);
    let bad = r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3"],
        "variations": [["c3", "d4"], ["c3", "c3"]]}"#;
    let e = load_err(bad);
    assert!(e.to_string().starts_with("move 2 of variation 2 is illegal: c3: "), "{e}");
    // A record written before variations and hints existed leaves them out.
    let plain = Record::new(&trike(5, ""), &[]);
    assert!(!plain.to_json().contains("variations") && !plain.to_json().contains("hints"));
}

#[test]
fn a_resignation_round_trips_and_an_impossible_ending_is_refused_with_its_reason() {
    let json = r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3", "b2"], "resigned": 1}"#;
    let record = Record::from_json(json).unwrap();
    assert_eq!(record.ending(), Some((1, false)));
    let (_, end, _) = record.replay::<Trike>().expect("a resigned game loads");
    assert!(end.to_move().is_some(), "the rules did not end it: the resignation did");
    assert_eq!(Record::from_json(&record.to_json()).unwrap(), record);
    let flagged = Record::from_json(&json.replace("resigned", "flagged")).unwrap();
    assert_eq!(flagged.ending(), Some((1, true)));
    flagged.replay::<Trike>().expect("a game lost on time loads");

    let refused = |json: &str| load_err(json).to_string();
    let both = r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3"], "resigned": 0, "flagged": 1}"#;
    assert_eq!(refused(both), "the game's ending: a seat resigned and a seat ran out of time: only one ends a game");
    let seat = r#"{"game": "trike", "options": {"size": 5}, "moves": ["c3"], "flagged": 2}"#;
    assert_eq!(refused(seat), "the game's ending: seat 2 ran out of time, but the game has seats 0 to 1");
    let (end, moves) = random_game(3, 1);
    let mut over = Record::new(&end, &moves);
    over.resigned = Some(0);
    assert_eq!(
        refused(&over.to_json()),
        "the game's ending: seat 0 resigned, but the rules ended the game at its last move"
    );
    // A game that did not end off the board says nothing of it.
    let plain = Record::new(&trike(5, ""), &[]);
    assert!(!plain.to_json().contains("resigned") && !plain.to_json().contains("flagged"));
}
