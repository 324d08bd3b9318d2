//! Blokus Trigon records (`docs/rules/trigon.md` §Pieces, §Records): Pentobi's piece names on
//! the generated pieces, Pentobi's SGF dialect (`.blksgf`: round trip, a hand-written file, refusals
//! with their byte offset, never a panic) and the JSON records of the three variants.

use std::collections::BTreeSet;

use proptest::prelude::*;
use triboard::rules::geometry::polyiamond::Tri;
use triboard::rules::record::{Record, RecordError};
use triboard::rules::trigon::pieces::{check, piece_by_name, piece_name};
use triboard::rules::trigon::sgf::{self, SgfError, looks_like_sgf};
use triboard::rules::trigon::{PIECES, Tables, Trigon, TrigonMove, TrigonOptions, Variant};
use triboard::rules::{Game, rng_from_seed};

const VARIANTS: [Variant; 3] = [Variant::Four, Variant::Two, Variant::Three];

fn game(variant: Variant) -> Trigon {
    Trigon::new(&TrigonOptions { variant }).unwrap()
}

/// A random game of `variant` after at most `plies` plies (the whole game for `usize::MAX`).
fn random_game(variant: Variant, seed: u64, plies: usize) -> (Trigon, Vec<TrigonMove>) {
    let mut g = game(variant);
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    while moves.len() < plies
        && let Some(mv) = g.random_move(&mut rng, &mut Vec::new())
    {
        g.play(mv).unwrap();
        moves.push(mv);
    }
    (g, moves)
}

// ---------------------------------------------------------------------------------------------
// (A) Pentobi's piece names

#[test]
fn every_piece_matches_exactly_one_of_pentobis_definitions() {
    check().unwrap();
    let names: Vec<&str> = (0..PIECES).map(piece_name).collect();
    let distinct: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(distinct.len(), PIECES, "{names:?}");
    // `§Pieces`: the names by size.
    let pieces = &Tables::get(9).pieces;
    let by_size =
        |size: usize| -> BTreeSet<&str> { (0..PIECES).filter(|&k| pieces[k].len() == size).map(piece_name).collect() };
    fn want(names: &'static str) -> BTreeSet<&'static str> {
        names.split(' ').collect()
    }
    assert_eq!(by_size(6), want("I6 L6 V S P6 F W A6 G Y X O"));
    assert_eq!(by_size(5), want("I5 L5 C5 P5"));
    assert_eq!(by_size(4), want("I4 C4 A4"));
    assert_eq!(by_size(3), want("I3"));
    assert_eq!(by_size(2), want("2"));
    assert_eq!(by_size(1), want("1"));
    for (k, name) in names.iter().enumerate() {
        assert_eq!(piece_by_name(name), Some(k));
    }
    assert_eq!(piece_by_name("Z"), None);
    assert_eq!(piece_by_name("i6"), None, "names are case-sensitive");
}

/// The corners shared by every triangle of a shape.
fn common_corners(shape: &[Tri]) -> usize {
    let first = shape[0].corners();
    first.iter().filter(|p| shape.iter().all(|t| t.corners().contains(p))).count()
}

#[test]
fn names_denote_the_right_shapes() {
    let pieces = &Tables::get(9).pieces;
    let shape = |name: &str| &pieces[piece_by_name(name).unwrap()];
    // O is the hexagon: six triangles around one point.
    assert_eq!(common_corners(shape("O")), 1);
    // A4 is the triangle of side 2: three up triangles and one down (or the reverse) around it.
    let a4 = shape("A4");
    let ups = a4.iter().filter(|t| t.is_up()).count();
    assert!(ups == 1 || ups == 3, "{a4:?}");
    assert!(a4.iter().any(|t| t.edge_neighbours().iter().all(|n| a4.contains(n))), "one triangle inside: {a4:?}");
    assert_eq!(shape("1").len(), 1);
    assert_eq!(shape("2").len(), 2);
}

// ---------------------------------------------------------------------------------------------
// (C) JSON records of every variant

#[test]
fn json_records_of_every_variant_round_trip() {
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        for (seed, plies) in [(k as u64, usize::MAX), (10 + k as u64, 17)] {
            let (end, moves) = random_game(variant, seed, plies);
            let record = Record::new(&end, &moves);
            assert_eq!(record.game_id(), end.id());
            let read = Record::from_json(&record.to_json()).unwrap();
            assert_eq!(read, record);
            let (start, replayed, replayed_moves) = read.replay::<Trigon>().unwrap();
            assert_eq!(start.id(), end.id());
            assert_eq!(start.options(), end.options());
            assert_eq!(replayed_moves, moves);
            assert_eq!(replayed.ply(), end.ply());
            assert_eq!(replayed.outcome(), end.outcome());
            assert_eq!(replayed.board_text(), end.board_text());
        }
    }
}

#[test]
fn the_game_id_gives_the_variant_when_the_options_leave_it_out() {
    for (id, variant) in [("trigon", Variant::Four), ("trigon-2", Variant::Two), ("trigon-3", Variant::Three)] {
        for options in ["", r#""options": null,"#, r#""options": {},"#] {
            let json = format!(r#"{{"game": "{id}", {options} "moves": []}}"#);
            let (start, _, _) = Record::from_json(&json).unwrap().replay::<Trigon>().unwrap();
            assert_eq!(start.options().variant, variant, "{json}");
            assert_eq!(start.id(), id);
        }
    }
    // Options that name another variant than the id are refused.
    let json = r#"{"game": "trigon-2", "options": {"variant": "trigon-3"}, "moves": []}"#;
    let err = Record::from_json(json).unwrap().replay::<Trigon>().unwrap_err();
    let RecordError::Options(message) = &err else { panic!("{err:?}") };
    assert!(message.contains("'trigon-3'") && message.contains("'trigon-2'"), "{message}");
    // p14 is a starting point of the 384-cell board only: the id alone chose the three-player board.
    let json = r#"{"game": "trigon-3", "moves": ["p14"]}"#;
    assert!(Record::from_json(json).unwrap().replay::<Trigon>().is_ok());
}

/// A record that leaves the options out replays exactly as one whose options name the variant of
/// its id (what the app's `with_variant` filled in before replaying): the replay is the one place
/// that reads a record's variant from its id.
#[test]
fn a_record_without_options_replays_as_the_variant_its_id_names() {
    let mut rng = rng_from_seed(11);
    for variant in Variant::ALL {
        // A few random moves, so that the board size shows in the cells they name.
        let mut g = Trigon::new(&TrigonOptions { variant }).unwrap();
        let mut moves = Vec::new();
        for _ in 0..8 {
            let mv = g.random_move(&mut rng, &mut Vec::new()).unwrap();
            moves.push(g.move_text(mv));
            g.play(mv).unwrap();
        }
        let bare = Record::of_texts(variant.id(), serde_json::Value::Null, moves.clone());
        let filled = Record { options: serde_json::json!({ "variant": variant.id() }), ..bare.clone() };
        let (start, end, _) = bare.replay::<Trigon>().unwrap();
        let (start2, end2, _) = filled.replay::<Trigon>().unwrap();
        assert_eq!(start.options(), &TrigonOptions { variant });
        assert_eq!(start.options(), start2.options());
        assert_eq!(end.board_text(), end2.board_text());
        assert_eq!(end.num_players(), variant.seats());
        assert_eq!(Record::new(&end, &[]).options, filled.options, "a saved record names its variant");
    }
}

// ---------------------------------------------------------------------------------------------
// (B) SGF: round trip

/// The record `read` gives back for `moves`: the same, plus the passes of colours left with no
/// placement after the last move.
fn with_forced_passes(end: &Trigon, moves: &[TrigonMove]) -> (Trigon, Vec<TrigonMove>) {
    let mut end = end.clone();
    let mut moves = moves.to_vec();
    let passes = sgf::pass_forced(&mut end);
    moves.extend(std::iter::repeat_n(TrigonMove::PASS, passes));
    (end, moves)
}

#[test]
fn sgf_round_trips_finished_and_unfinished_games_of_every_variant() {
    let mut passes_written_by_skipping = 0;
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        for (seed, plies) in [(k as u64, usize::MAX), (20 + k as u64, usize::MAX), (30 + k as u64, 23), (40, 0)] {
            let (end, moves) = random_game(variant, seed, plies);
            let (end, moves) = with_forced_passes(&end, &moves);
            let mut record = Record::new(&end, &moves);
            record.players = (0..end.num_players()).map(|p| format!("Player {p} [the \\ best]")).collect();
            record.date = Some("2026-11-23".into());
            record.result = end.outcome().map(|o| format!("{:?}", &o.scores[..o.num_players]));
            let text = sgf::write(&record).unwrap();
            assert!(looks_like_sgf(&text));
            let gm = ["Blokus Trigon]", "Blokus Trigon Two-Player]", "Blokus Trigon Three-Player]"][k];
            assert!(text.starts_with(&format!("(;GM[{gm}FF[4]CA[UTF-8]AP[triboard:")), "{text}");
            let placements = moves.iter().filter(|&&m| m != TrigonMove::PASS).count();
            assert_eq!(text.matches("\n;").count(), placements, "one node per placement, no pass:\n{text}");
            assert!(!text.contains("pass"));
            passes_written_by_skipping += moves.len() - placements;
            let read = sgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read, record, "{text}");
            let (_, replayed, replayed_moves) = read.replay::<Trigon>().unwrap();
            assert_eq!(replayed_moves, moves);
            assert_eq!(replayed.outcome(), end.outcome());
        }
    }
    assert!(passes_written_by_skipping > 0, "some games had passes, read back from skipped colours");
}

#[test]
fn sgf_writes_cells_in_pentobis_order_and_player_properties_by_variant() {
    let mut g = game(Variant::Two);
    let moves: Vec<TrigonMove> = ["r15,r14,s14,r13,s13,r12", "r4,r5"]
        .iter()
        .map(|t| {
            let mv = g.parse_move(t).unwrap();
            g.play(mv).unwrap();
            mv
        })
        .collect();
    let mut record = Record::new(&g, &moves);
    record.players = vec!["Ann".into(), String::new()];
    let text = sgf::write(&record).unwrap();
    // a1, b1, …, a2, b2, …: rows from the bottom, then columns.
    assert!(text.contains("\n;1[r12,r13,s13,r14,s14,r15]\n;2[r4,r5]\n)"), "{text}");
    assert!(text.contains("PB[Ann]") && !text.contains("PW["), "{text}");
    assert!(!text.contains("DT[") && !text.contains("RE["));
    let mut record = Record::new(&game(Variant::Three), &[]);
    record.players = vec!["A".into(), "B".into(), "C".into()];
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("P1[A]P2[B]P3[C]"), "{text}");
    assert_eq!(sgf::read(&text).unwrap().players, ["A", "B", "C"]);
    // A record of another game is refused.
    let trike = Record::from_json(r#"{"game": "trike", "moves": []}"#).unwrap();
    assert!(matches!(sgf::write(&trike), Err(RecordError::WrongGame { .. })));
}

// ---------------------------------------------------------------------------------------------
// (B) SGF: files written by hand from Pentobi's format description

/// Our notation for moves given as cell lists in any order.
fn notation(variant: Variant, moves: &[&str]) -> Vec<String> {
    let mut g = game(variant);
    moves
        .iter()
        .map(|t| {
            let mv = g.parse_move(t).unwrap();
            g.play(mv).unwrap();
            g.move_text(mv)
        })
        .collect()
}

#[test]
fn a_hand_written_four_player_file_loads() {
    // Whitespace between nodes, comments with escapes, a variation (the main line is the first
    // child), unknown properties, cells in any order and upper case, a soft line break in a name.
    let text = "\u{feff}\n(;GM[Blokus Trigon]FF[4]CA[utf-8]AP[Pentobi:27.0]\n  P1[Ann]P2[Bob \\] Jr]P3[Cy]P4[D\\\ni]\n  \
                DT[2026-11-23]RE[unfinished]GN[test]\n  ;1[s15,r15]C[Blue opens \\[with a domino\\]]\n  ;2[R4,R5]\n  \
                (;3[i12,j12,k12]TE[1]\n   ;4[j7]\n   ;1[t16])\n  (;3[j12]C[a variation])\n)\n(;GM[Blokus Trigon];1[r15])";
    assert!(looks_like_sgf(text));
    let record = sgf::read(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.game_id(), "trigon");
    assert_eq!(record.players, ["Ann", "Bob ] Jr", "Cy", "Di"]);
    assert_eq!(record.date.as_deref(), Some("2026-11-23"));
    assert_eq!(record.result.as_deref(), Some("unfinished"));
    assert_eq!(record.moves, notation(Variant::Four, &["r15,s15", "r4,r5", "i12,j12,k12", "j7", "t16"]));
    let (_, end, _) = record.replay::<Trigon>().unwrap();
    assert_eq!(end.colour_to_move(), Some(1), "Yellow to move after five placements");
}

#[test]
fn hand_written_two_and_three_player_files_load() {
    let two = "(;GM[Blokus Trigon Two-Player]PB[Ann]PW[Bob];1[r15];2[r4];3[j12];4[j7];1[r16,q16])";
    let record = sgf::read(two).unwrap();
    assert_eq!(record.game_id(), "trigon-2");
    assert_eq!(record.players, ["Ann", "Bob"]);
    assert_eq!(record.moves, ["r15", "r4", "j12", "j7", "q16,r16"]);
    let (_, end, _) = record.replay::<Trigon>().unwrap();
    assert_eq!(end.to_move(), Some(triboard::rules::Player(1)), "Yellow/Green to move");
    // The 384-cell board: starting points p14, p3, h11 (Pentobi's (15,2), (15,13), (7,5)).
    let three = "(;GM[Blokus Trigon Three-Player];1[p14];2[p3];3[h11])";
    let record = sgf::read(three).unwrap();
    assert_eq!(record.game_id(), "trigon-3");
    assert!(record.players.is_empty());
    assert_eq!(record.moves, ["p14", "p3", "h11"]);
    // Pentobi 0.1's colour names and point lists.
    let old = "(;GM[Blokus Trigon];BLUE[r15][s15];YELLOW[r4])";
    assert_eq!(sgf::read(old).unwrap().moves, notation(Variant::Four, &["r15,s15", "r4"]));
    // An empty game.
    assert!(sgf::read("(;GM[Blokus Trigon])").unwrap().moves.is_empty());
}

// ---------------------------------------------------------------------------------------------
// (B) SGF: refusals with their offset

/// Reads `text`, which must be refused at `offset` with a reason containing `words`.
fn refused(text: &str, offset: usize, words: &str) {
    let err: SgfError = match sgf::read(text) {
        Ok(record) => panic!("should be refused: {text}\n{record:?}"),
        Err(e) => e,
    };
    assert_eq!(err.offset, offset, "{text}: {err}");
    assert!(err.reason.contains(words), "{text}: {err}");
    assert_eq!(err.to_string(), format!("byte {offset}: {}", err.reason));
}

#[test]
fn malformed_files_are_refused_with_their_offset() {
    let gm = "(;GM[Blokus Trigon]"; // 19 bytes
    refused("", 0, "empty");
    refused("  \n", 3, "empty");
    refused("GM[Blokus Trigon]", 0, "starts with 'G', not '('");
    refused(r#"{"game": "trigon"}"#, 0, "not an SGF record");
    refused(gm, 19, "ends inside the game tree opened at byte 0");
    refused("(;GM[Blokus Trigon", 4, "never closed");
    refused("(;GM[Blokus Trigon\\]", 4, "never closed");
    refused("()", 1, "empty game tree");
    refused("((;GM[Blokus Trigon]))", 1, "must begin with a node");
    refused(&format!("{gm};1[r15]x)"), 26, "unexpected 'x'");
    refused(&format!("{gm};1)"), 21, "has no value");
    refused(&format!("{gm}(;1[r15]);2[r4])"), 28, "a node after a variation");
    refused(&format!("{gm}) x"), 21, "after the end of the game tree");
    refused(&format!("{gm}GM[Blokus Trigon])"), 19, "appears twice");
    refused("(;FF[4])", 1, "no GM property");
    refused("(;GM[Blokus Duo])", 4, "GM[Blokus Duo] is not Blokus Trigon");
    refused("(;GM[Blokus Trigon][Blokus])", 2, "takes one value");
    refused(&format!("{gm}CA[ISO-8859-1])"), 21, "only UTF-8");
    refused(&format!("{gm}A1[r15])"), 19, "setup property A1");
    refused(&format!("{gm}PL[2])"), 21, "PL[2]");
    refused(&format!("{gm};B[r15])"), 20, "two-colour games");
    refused(&format!("{gm};1[r15]2[r4])"), 26, "a second move (2)");
    refused(&format!("{gm};1[r15,a1])"), 20, "move 1 (1[r15,a1]): a1 is not on the 486-cell board");
    refused(&format!("{gm};1[r15,t15])"), 20, "not the shape of a piece");
    refused(&format!("{gm};1[])"), 20, "move 1");
    refused(&format!("{gm};1[r4];2[r4])"), 26, "move 2 (2[r4]): r4 is already covered");
    // A skipped colour must have no placement: Yellow could place here.
    refused(&format!("{gm};1[r15];3[j12])"), 27, "Yellow is to move and can still place a piece");
    refused(&format!("{gm};1[r15];1[t16])"), 27, "Yellow is to move");
    refused("(;GM[Blokus Trigon Three-Player];4[p14])", 33, "has no colour 4");
}

#[test]
fn a_colour_that_was_skipped_cannot_move_again_and_a_finished_game_takes_no_move() {
    // A finished four-player game in which some colour passed before the end.
    let (end, moves) = (0..50)
        .map(|seed| random_game(Variant::Four, seed, usize::MAX))
        .find(|(_, moves)| moves.iter().position(|&m| m == TrigonMove::PASS).is_some_and(|k| k < moves.len() - 4))
        .expect("a game with an early pass");
    let record = Record::new(&end, &moves);
    let text = sgf::write(&record).unwrap();
    // The colour that passed first moves once more at the end: after the game is over.
    let mut replay = game(Variant::Four);
    let mut first_out = None;
    for &mv in &moves {
        if mv == TrigonMove::PASS && first_out.is_none() {
            first_out = replay.colour_to_move();
        }
        replay.play(mv).unwrap();
    }
    let colour = first_out.unwrap();
    let extra = format!("{};{}[r15])\n", text.trim_end().trim_end_matches(')'), colour + 1);
    let err = sgf::read(&extra).unwrap_err();
    assert!(err.reason.contains("the game is over") || err.reason.contains("could no longer place"), "{err}");
    assert_eq!(err.offset, extra.rfind(';').unwrap() + 1);
}

#[test]
fn every_truncation_of_a_file_is_refused_at_or_before_its_end() {
    let (end, moves) = random_game(Variant::Four, 7, 30);
    let mut record = Record::new(&end, &moves);
    record.players = vec!["Ann".into(), "Bob".into(), "Cy".into(), "Di".into()];
    let text = sgf::write(&record).unwrap();
    let close = text.rfind(')').unwrap();
    for cut in 0..=close {
        let prefix = &text[..cut];
        let err = sgf::read(prefix).expect_err(prefix);
        assert!(err.offset <= cut, "{cut}: {err}");
    }
    assert!(sgf::read(&text[..close + 1]).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), sgf_start in any::<bool>()) {
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if sgf_start {
            text.insert_str(0, "(;GM[Blokus Trigon]");
        }
        if let Err(e) = sgf::read(&text) {
            prop_assert!(e.offset <= text.len());
        }
        let _ = sgf::read_any(&text);
    }

    #[test]
    fn mutated_files_never_panic(seed in 0u64..1000, at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let variant = VARIANTS[(seed % 3) as usize];
        let (end, moves) = random_game(variant, seed, 40);
        let text = sgf::write(&Record::new(&end, &moves)).unwrap();
        let mut bytes = text.into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        bytes.truncate(cut.index(bytes.len() + 1).max(i));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(e) = sgf::read(&text) {
            prop_assert!(e.offset <= text.len());
        }
    }
}

#[test]
fn deep_nesting_is_no_stack_overflow() {
    let deep = format!("(;GM[Blokus Trigon]{}", "(;C[x]".repeat(100_000));
    assert!(sgf::read(&deep).unwrap_err().reason.contains("ends inside"));
    let closed = format!("{deep}{}", ")".repeat(100_001));
    assert!(sgf::read(&closed).is_ok());
}

#[test]
fn triboard_replay_reads_a_blksgf_file() {
    let dir = std::env::temp_dir().join(format!("triboard-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.blksgf");
    std::fs::write(&file, "(;GM[Blokus Trigon Two-Player]PB[Ann]PW[Bob];1[r15];2[r4])\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["replay", file.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["game"], "trigon-2");
    assert_eq!(last["moves"], serde_json::json!(["r15", "r4"]));
    std::fs::write(&file, "(;GM[Blokus Trigon];1[r15];3[j12])").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["replay", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("byte 27: move 2 (3[j12])"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A resigned game is over in the terminal too.
    std::fs::write(&file, "(;GM[Blokus Trigon Two-Player]PB[Ann]PW[Bob]RE[B+Resign];1[r15];2[r4])").unwrap();
    for json in [false, true] {
        let args = [&["replay", file.to_str().unwrap()][..], if json { &["--json"][..] } else { &[][..] }].concat();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_triboard")).args(args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("result: Yellow/Green resigned (Blue/Red wins)"), "{stdout}");
        assert!(!stdout.contains("unfinished"), "{stdout}");
        if json {
            let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
            assert_eq!(last["finished"], true);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn read_any_picks_the_format() {
    let json = r#"  {"game": "trigon-2", "moves": ["r15"]}"#;
    assert!(!looks_like_sgf(json));
    assert_eq!(sgf::read_any(json).unwrap().game_id(), "trigon-2");
    let blksgf = "\u{feff} \r\n(;GM[Blokus Trigon Two-Player];1[r15])";
    assert!(looks_like_sgf(blksgf));
    let (from_sgf, from_json) = (sgf::read_any(blksgf).unwrap(), sgf::read_any(json).unwrap());
    assert_eq!((from_sgf.game_id(), &from_sgf.moves), (from_json.game_id(), &from_json.moves));
    assert!(sgf::read_any("(;GM[Blokus]").unwrap_err().starts_with("byte "));
    assert!(sgf::read_any("{").unwrap_err().contains("line 1"));
}

// ---------------------------------------------------------------------------------------------
// (C) SGF: what happened beyond the moves — endings off the board, variations, the date

#[test]
fn a_resigned_or_flagged_game_keeps_its_ending_through_blksgf() {
    for (k, variant) in VARIANTS.into_iter().enumerate() {
        let (end, moves) = random_game(variant, 50 + k as u64, 9);
        for (seat, flagged) in [(0u8, false), (1, true), (end.num_players() as u8 - 1, false)] {
            let mut record = Record::new(&end, &moves);
            *(if flagged { &mut record.flagged } else { &mut record.resigned }) = Some(seat);
            record.result = Some("the app's words".into());
            let text = sgf::write(&record).unwrap();
            let how = if flagged { "Time" } else { "Resign" };
            if variant == Variant::Two {
                let winner = if seat == 0 { "W" } else { "B" };
                assert!(text.contains(&format!("RE[{winner}+{how}]")) && !text.contains("ENDING"), "{text}");
            } else {
                let how = if flagged { "ran out of time" } else { "resigned" };
                assert!(text.contains(&format!("ENDING[{} {how}]", seat + 1)), "{text}");
                assert!(text.contains("RE[the app's words]"), "{text}");
            }
            let read = sgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((read.resigned, read.flagged), (record.resigned, record.flagged), "{text}");
            let (_, replayed, _) = read.replay::<Trigon>().expect("an ending the rules allow");
            assert!(replayed.outcome().is_none(), "it ended off the board");
            let result = read.result.unwrap();
            let loser = replayed.player_name(triboard::rules::Player(seat));
            assert!(result.starts_with(loser), "{result}");
            assert!(result.contains(if flagged { "ran out of time" } else { "resigned" }), "{result}");
        }
    }
    // Written by another program: SGF 4's short forms.
    let two = "(;GM[Blokus Trigon Two-Player]RE[B+R];1[r15];2[r4])";
    let record = sgf::read(two).unwrap();
    assert_eq!((record.resigned, record.flagged), (Some(1), None));
    assert_eq!(record.result.as_deref(), Some("Yellow/Green resigned (Blue/Red wins)"));
    let record = sgf::read("(;GM[Blokus Trigon Two-Player]RE[W+T];1[r15])").unwrap();
    assert_eq!((record.resigned, record.flagged), (None, Some(0)));
    // A result in words is no ending.
    let record = sgf::read("(;GM[Blokus Trigon Two-Player]RE[Blue/Red wins];1[r15])").unwrap();
    assert_eq!((record.resigned, record.flagged, record.result.as_deref()), (None, None, Some("Blue/Red wins")));
    // An ending that names no seat, or follows a game the rules ended, is refused.
    let gm = "(;GM[Blokus Trigon Three-Player]";
    refused(&format!("{gm}ENDING[4 resigned];1[p14])"), 38, "1 to 3");
    refused(&format!("{gm}ENDING[2 left];1[p14])"), 38, "like '2 resigned'");
    let (end, moves) = random_game(Variant::Two, 7, usize::MAX);
    let (end, moves) = with_forced_passes(&end, &moves);
    assert!(end.outcome().is_some());
    let finished = sgf::write(&Record::new(&end, &moves)).unwrap().replacen("AP[", "RE[W+Resign]AP[", 1);
    let err = sgf::read(&finished).unwrap_err();
    assert!(err.reason.contains("the rules had ended it"), "{err}");
}

/// A two-player file in the shape of Pentobi's opening book: two first moves, the first with
/// three answers, one of them branching again.
const BOOK: &str = "(\n;GM[Blokus Trigon Two-Player]\n(\n ;1[r12,r13,s13,r14,s14,r15]TE[1]\n (\n  \
                    ;2[r4,q5,r5,q6,r6,r7]TE[1]\n  ;3[j7,k7,l7,m7,m8,n8]\n )\n (\n  ;2[r4,r5,s5,r6,s6,r7]\n )\n \
                    (\n  ;2[r4,q5,r5,p6,q6,p7]\n  (;3[j7,k7,l7,m7,m8,n8])\n  (;3[j7,k7,l7,m7,n7,o7])\n )\n)\n(\n \
                    ;1[t12,s13,t13,r14,s14,r15]TE[1]\n ;2[r4,q5,r5,p6,q6,p7]\n)\n)\n";

#[test]
fn every_variation_of_a_pentobi_book_is_read_and_written_back() {
    let record = sgf::read(BOOK).unwrap_or_else(|e| panic!("{e}"));
    let two = |moves: &[&str]| notation(Variant::Two, moves);
    assert_eq!(record.moves, two(&["r12,r13,s13,r14,s14,r15", "r4,q5,r5,q6,r6,r7", "j7,k7,l7,m7,m8,n8"]));
    assert_eq!(
        record.variations,
        [
            two(&["r12,r13,s13,r14,s14,r15", "r4,r5,s5,r6,s6,r7"]),
            two(&["r12,r13,s13,r14,s14,r15", "r4,q5,r5,p6,q6,p7", "j7,k7,l7,m7,m8,n8"]),
            two(&["r12,r13,s13,r14,s14,r15", "r4,q5,r5,p6,q6,p7", "j7,k7,l7,m7,n7,o7"]),
            two(&["t12,s13,t13,r14,s14,r15", "r4,q5,r5,p6,q6,p7"]),
        ],
        "the second first move is kept with the rest"
    );
    let (start, _, _) = record.replay::<Trigon>().expect("every line replays");
    assert_eq!(record.variation_lines(&start).unwrap().len(), 4);
    // Written back as a tree of the same lines: Pentobi's shape, each line once.
    let text = sgf::write(&record).unwrap();
    assert_eq!(text.matches('(').count(), 1 + 2 + 3 + 2, "{text}");
    assert_eq!(text.matches(";1[").count(), 2, "{text}");
    assert_eq!(sgf::read(&text).unwrap(), record, "{text}");
    // A variation that does not replay refuses the file, with its place.
    let bad = BOOK.replace("t12,s13,t13,r14,s14,r15", "a1");
    let err = sgf::read(&bad).unwrap_err();
    assert_eq!(err.offset, BOOK.find(";1[t12").unwrap() + 1, "{err}");
}

#[test]
fn the_date_is_written_without_a_time() {
    let mut record = Record::new(&game(Variant::Four), &[]);
    record.date = Some("2026-11-28T11:40:00Z".into());
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("DT[2026-11-28]") && !text.contains("11:40"), "{text}");
    record.date = Some("2026-11-24 02:33".into());
    assert!(sgf::write(&record).unwrap().contains("DT[2026-11-24]"));
    record.date = Some("some day".into());
    assert!(!sgf::write(&record).unwrap().contains("DT["), "no date SGF can hold");
}

#[test]
fn what_is_read_is_written_back_the_same_whatever_the_trees_shape() {
    // Two nodes for one first move, a line of comments only, a copy of a line, and a date with a
    // time: read, written and read again, the record is the same.
    let a = "1[r12,r13,s13,r14,s14,r15]";
    let text = format!(
        "(;GM[Blokus Trigon Two-Player]DT[2026-11-24T10:00:00Z](;{a};2[r4,q5,r5,q6,r6,r7])(;1[t12,s13,t13,r14,s14,r15])\
         (;{a};2[r4,r5,s5,r6,s6,r7])(;C[only words])(;1[t12,s13,t13,r14,s14,r15]))"
    );
    let record = sgf::read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.date.as_deref(), Some("2026-11-24"), "DT keeps its day");
    assert_eq!(record.variations.len(), 2, "{:?}", record.variations);
    let again = sgf::write(&record).unwrap();
    assert_eq!(sgf::read(&again).unwrap(), record, "{again}");

    // The app's record after an undo: its main line stops where a variation goes on.
    let (end, moves) = random_game(Variant::Two, 3, 6);
    let mut record = Record::new(&end, &moves[..2]);
    record.variations = vec![Record::new(&end, &moves).moves];
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("(;)"), "an empty node keeps the main line's end:\n{text}");
    assert_eq!(sgf::read(&text).unwrap(), record, "{text}");
}

/// A node per placement of `moves` from the start of `variant`, passes left out.
fn nodes_of(variant: Variant, moves: &[TrigonMove]) -> String {
    let mut g = game(variant);
    let mut out = String::new();
    for &mv in moves {
        if mv != TrigonMove::PASS {
            out.push_str(&format!(";{}[{}]", g.colour_to_move().unwrap() + 1, g.move_text(mv)));
        }
        g.play(mv).unwrap();
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Lines of a few games, cut anywhere, each a variation of the root (so first moves repeat in
    /// sibling nodes, and lines hold others whole): read, written and read again, the same record.
    #[test]
    fn any_tree_of_lines_reads_back_the_same(lines in proptest::collection::vec((0u64..3, 0usize..12), 1..8), two in any::<bool>()) {
        let variant = if two { Variant::Two } else { Variant::Four };
        let mut text = format!("(;GM[{}]", variant.name());
        for (seed, plies) in lines {
            let (_, moves) = random_game(variant, seed, plies);
            text.push_str(&format!("(;C[a line]{})", nodes_of(variant, &moves)));
        }
        text.push(')');
        let record = sgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let again = sgf::write(&record).unwrap();
        prop_assert_eq!(sgf::read(&again).unwrap(), record, "{}\n{}", text, again);
    }
}

#[test]
fn a_colours_retirement_is_a_node_of_its_own() {
    let gm = "(;GM[Blokus Trigon]";
    refused(&format!("{gm};1[r15];RETIRE[9])"), 33, "expected the colour that retires, 1 to 4");
    let g = game(Variant::Four);
    // The rules' `retire` (docs/rules/trigon.md §Play: a player who left a game of three or four).
    let Ok(retire) = g.parse_move("retire") else { return };
    let (mut end, mut moves) = random_game(Variant::Four, 5, 2);
    end.play(retire).unwrap();
    moves.push(retire);
    let mut rng = rng_from_seed(9);
    for _ in 0..9 {
        let mv = end.random_move(&mut rng, &mut Vec::new()).unwrap();
        end.play(mv).unwrap();
        moves.push(mv);
    }
    let (end, moves) = with_forced_passes(&end, &moves);
    let record = Record::new(&end, &moves);
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("\n;RETIRE[3]\n"), "Red retires after Blue and Yellow placed:\n{text}");
    assert_eq!(sgf::read(&text).unwrap(), record, "{text}");
    assert!(sgf::read(&format!("{gm};RETIRE[1];1[r15])")).is_err(), "a colour that retired places no more");
}

#[test]
fn an_aborted_game_keeps_its_ending() {
    for variant in [Variant::Two, Variant::Four] {
        let (end, moves) = random_game(variant, 1, 1);
        let mut record = Record::new(&end, &moves);
        record.flagged = Some(1);
        record.aborted = true;
        let text = sgf::write(&record).unwrap();
        assert!(text.contains("ENDING[2 ran out of time, aborted]"), "{text}");
        assert_eq!(text.contains("RE[Void]"), variant == Variant::Two, "SGF 4's no result for two:\n{text}");
        let read = sgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!((read.resigned, read.flagged, read.aborted), (None, Some(1), true), "{text}");
        let result = read.result.clone().unwrap();
        assert!(
            result.ends_with("ran out of time before every player moved: the game is aborted, unrated"),
            "{result}"
        );
        assert_eq!(sgf::read(&sgf::write(&read).unwrap()).unwrap(), read);
    }
    // RE says who won, ENDING that nobody did: refused.
    let text = "(;GM[Blokus Trigon Two-Player]RE[W+Resign]ENDING[1 resigned, aborted];1[r15])";
    assert!(sgf::read(text).unwrap_err().reason.contains("disagrees with RE"));
    // Aborted with no seat that left: refused on load.
    let mut record = Record::new(&game(Variant::Two), &[]);
    record.aborted = true;
    assert!(matches!(record.replay::<Trigon>(), Err(RecordError::Ending(_))));
}
