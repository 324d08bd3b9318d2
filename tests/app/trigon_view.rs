//! Blokus Trigon's piece chooser drawn in a bare `egui::Context`: every piece keeps its slot through
//! placements and from colour to colour, and a placed piece cannot be chosen again.

use bevy_egui::egui;
use triboard::app::board::trigon::Selection;
use triboard::app::board::trigon::chooser::chooser_ui;
use triboard::app::{Model, Seat};
use triboard::rules::Game;
use triboard::rules::trigon::{Trigon, TrigonOptions, Variant};

/// One frame of the chooser at 1280×800 points with `events`; the large grid's slots.
fn frame(
    ctx: &egui::Context,
    model: &Model<Trigon>,
    selection: &mut Selection,
    events: Vec<egui::Event>,
) -> Vec<(usize, egui::Rect)> {
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), events, ..Default::default() });
    let (_, slots) = chooser_ui(ctx, model, selection);
    ctx.end_pass().textures_delta.clear();
    slots
}

/// Two frames, as egui settles a layout.
fn settled(ctx: &egui::Context, model: &Model<Trigon>, selection: &mut Selection) -> Vec<(usize, egui::Rect)> {
    frame(ctx, model, selection, Vec::new());
    frame(ctx, model, selection, Vec::new())
}

/// A press and release at `at` over two frames, then the pointer away.
fn press(ctx: &egui::Context, model: &Model<Trigon>, selection: &mut Selection, at: egui::Pos2) {
    let button = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    frame(ctx, model, selection, vec![egui::Event::PointerMoved(at), button(true)]);
    frame(ctx, model, selection, vec![button(false)]);
    frame(ctx, model, selection, vec![egui::Event::PointerGone]);
}

#[test]
fn the_choosers_pieces_keep_their_slots_through_placements_and_colours() {
    let ctx = egui::Context::default();
    let mut model = Model::<Trigon>::with(&TrigonOptions { variant: Variant::Four }, &[Seat::Human; 4]).unwrap();
    let mut selection = Selection::default();
    let before = settled(&ctx, &model, &mut selection);
    assert_eq!(before.len(), 22, "one slot per piece");
    let mut moves = Vec::new();
    // Blue, Yellow, Red, Green and Blue again each place their first legal piece.
    for _ in 0..5 {
        let colour = model.game().colour_to_move().unwrap();
        model.game().legal_moves(&mut moves);
        let mv = moves[0];
        let piece = model.game().tables().placements[mv.0 as usize].piece as usize;
        model.play(mv).unwrap();
        let after = settled(&ctx, &model, &mut selection);
        assert_eq!(
            after,
            before,
            "the slots moved after {} placed piece {piece}",
            ["Blue", "Yellow", "Red", "Green"][colour]
        );
    }
    // Yellow to move again, its first piece placed: that slot cannot be chosen, another one can.
    assert_eq!(model.game().colour_to_move(), Some(1));
    let yellows = model.game().tables().placements[model.moves()[1].0 as usize].piece as usize;
    assert_eq!(model.game().pieces_left(1) & (1 << yellows), 0);
    press(&ctx, &model, &mut selection, before[yellows].1.center());
    assert_eq!(selection.piece, None, "a placed piece is not chosen again");
    let other = (0..22).find(|&p| model.game().pieces_left(1) & (1 << p) != 0).unwrap();
    press(&ctx, &model, &mut selection, before[other].1.center());
    assert_eq!(selection.piece, Some(other as u8));
}

/// The presses the page's test hook makes (`click_points`) play the move with the pointer where
/// they press: the piece's centre follows the pointer, and the press places what the ghost shows.
#[test]
fn a_press_with_the_pointer_places_the_piece_centred_on_it() {
    use bevy::prelude::*;
    use triboard::app::board::CellClicked;
    use triboard::app::board::trigon::entities::click_points;
    use triboard::app::board::trigon::layout::cell_center;
    use triboard::app::board::trigon::pointing::BoardPointer;
    use triboard::app::{Command, Seat};

    let mut app = super::trigon_app(Variant::Four, &[Seat::Human; 4]);
    let mut moves = Vec::new();
    super::trigon_model(&app).game().legal_moves(&mut moves);
    assert!(moves.len() > 100);
    for &mv in moves.iter().step_by(moves.len() / 40) {
        let at = click_points(app.world_mut(), mv).expect("a press makes it")[0];
        let board = super::trigon_model(&app).game().tables().board;
        let cell = (0..board.cells()).find(|&c| cell_center(board, c) == at).expect("a cell's centre");
        app.world_mut().resource_mut::<BoardPointer>().0 = Some(at);
        app.world_mut().write_message(CellClicked { cell });
        app.update();
        assert_eq!(
            super::trigon_model(&app).moves().last(),
            Some(&mv),
            "{:?}",
            app.world().resource::<triboard::app::Status>()
        );
        app.world_mut().write_message(Command::Undo);
        app.update();
        assert!(super::trigon_model(&app).moves().is_empty());
    }
}
