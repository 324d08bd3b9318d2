//! The game line's texts ([`Model::texts`], the record's moves) are kept as the line grows and
//! shrinks, not replayed on each change: after any sequence of moves, undo, redo, review, play
//! from here and variation switches they equal the texts of a replay from the start.

use proptest::prelude::*;
use triboard::app::Seat;
use triboard::rules::Game as _;
use triboard::rules::move_texts;
use triboard::rules::trike::{Trike, TrikeOptions};

type Model = triboard::app::Model<Trike>;

#[derive(Clone, Copy, Debug)]
enum Op {
    Play(usize),
    Undo,
    Redo,
    Review(usize),
    PlayFromHere,
    Switch(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<usize>().prop_map(Op::Play),
        1 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => (0..30usize).prop_map(Op::Review),
        1 => Just(Op::PlayFromHere),
        1 => (0..4usize).prop_map(Op::Switch),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_lines_texts_equal_a_replay_after_any_change(ops in prop::collection::vec(op(), 1..60)) {
        let mut model = Model::with(&TrikeOptions { size: 7 }, &[Seat::Human, Seat::Human]).unwrap();
        for op in ops {
            match op {
                Op::Play(k) => {
                    if model.review() || model.game().outcome().is_some() {
                        continue;
                    }
                    let mut legal = Vec::new();
                    model.game().legal_moves(&mut legal);
                    if !legal.is_empty() {
                        model.play(legal[k % legal.len()]).unwrap();
                    }
                }
                Op::Undo => drop(model.undo_turn()),
                Op::Redo => drop(model.redo_turn()),
                Op::Review(k) => drop(model.review_to(k)),
                Op::PlayFromHere => drop(model.play_from_here()),
                Op::Switch(k) => {
                    if k < model.variations().len() {
                        model.switch_line(k);
                    }
                }
            }
            let replayed = move_texts(model.start(), model.moves());
            prop_assert_eq!(model.texts(), replayed.as_slice());
            let whole = if model.review() { model.line() } else { model.moves().to_vec() };
            prop_assert_eq!(model.record().moves, move_texts(model.start(), &whole));
        }
    }
}
