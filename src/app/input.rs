//! Input: Bevy's picking turns hovers and presses on cells into the hovered cell and
//! [`CellClicked`] messages, and the keyboard and the mouse wheel become [`KeyAction`] messages and
//! undo/redo [`Command`]s; each game's view turns these into move intents or view changes, and no
//! view reads a key itself. Observers are attached to every cell entity as it is created. A move is
//! made on the press (not the click) so a quick tap whose press and release fall in the same frame
//! still counts.

use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::board::cursor::{Arrow, BoardCursor, CursorKey};
use super::board::{BoardCell, CellClicked, Hovered};
use super::flow::Screen;
use super::flow::{Command, ReviewTo};
use super::tools::ShowThinking;

/// What a key (or the wheel over the board) asks of the view in play. Sent by the input plugin
/// unless a text field has the keyboard; headless tests write them directly.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Enter: end the turn where a turn may end early (TriCore's climb, Trisq's second piece).
    EndTurn,
    /// Esc: put back what is held (Trigon's piece, TriCore's chosen Ring or disc).
    Cancel,
    /// R (+1), Shift+R (−1), or a wheel notch over the board: turn the held piece by 60°.
    Rotate(i8),
    /// F: flip the held piece.
    Flip,
    /// A: show or hide the attach points (Trigon).
    ToggleAttach,
}

pub(super) fn plugin(app: &mut App) {
    app.add_observer(|add: On<Add, BoardCell>, mut commands: Commands| {
        commands.entity(add.entity).observe(on_over).observe(on_out).observe(on_press);
    })
    .add_systems(EguiPrimaryContextPass, keys.before(super::hud::Panels).run_if(in_state(Screen::Playing)));
}

/// The messages of the input plugin, which the views read (headless too).
pub(super) fn messages(app: &mut App) {
    app.add_message::<KeyAction>();
}

fn on_over(over: On<Pointer<Over>>, cells: Query<&BoardCell>, mut hovered: ResMut<Hovered>) {
    if let Ok(cell) = cells.get(over.entity) {
        hovered.0 = Some(cell.cell);
    }
}

fn on_out(out: On<Pointer<Out>>, cells: Query<&BoardCell>, mut hovered: ResMut<Hovered>) {
    if let Ok(cell) = cells.get(out.entity)
        && hovered.0 == Some(cell.cell)
    {
        hovered.0 = None;
    }
}

fn on_press(click: On<Pointer<Press>>, cells: Query<&BoardCell>, mut clicks: MessageWriter<CellClicked>) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Ok(cell) = cells.get(click.entity) {
        clicks.write(CellClicked { cell: cell.cell });
    }
}

/// The keyboard (as egui sees it, so that a focused text field keeps its keys) and the wheel over
/// the board: Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo, H a hint, T Show thinking, ↑/↓ the board's
/// cursor (then ←/→ move it too and Space presses its cell, [`crate::app::board::cursor`]),
/// ←/→/Home/End review, N and P the next and previous mistake, and the board's [`KeyAction`]s.
fn keys(
    mut contexts: EguiContexts,
    load: Res<super::load_dialog::LoadDialog>,
    windows: Res<super::hud::windows::PanelWindows>,
    mut actions: MessageWriter<KeyAction>,
    mut orders: MessageWriter<Command>,
    mut show_thinking: ResMut<ShowThinking>,
    (cursor, mut cursor_keys): (Res<BoardCursor>, MessageWriter<CursorKey>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // A dialog up (Load, the confirmation) takes the keys: its Esc closes it, nothing else.
    let dialog = load.open || windows.confirm.is_some();
    if !ctx.egui_wants_keyboard_input() && !dialog {
        let pressed: Vec<(egui::Key, egui::Modifiers)> = ctx.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::Key { key, pressed: true, repeat: false, modifiers, .. } => Some((*key, *modifiers)),
                    _ => None,
                })
                .collect()
        });
        for (key, modifiers) in pressed {
            let action = match key {
                egui::Key::Z if modifiers.command => {
                    orders.write(if modifiers.shift { Command::Redo } else { Command::Undo });
                    None
                }
                egui::Key::Y if modifiers.command => {
                    orders.write(Command::Redo);
                    None
                }
                _ if modifiers.command => None,
                egui::Key::H => {
                    orders.write(Command::Hint);
                    None
                }
                egui::Key::N => {
                    orders.write(Command::Review(ReviewTo::NextMistake));
                    None
                }
                egui::Key::P => {
                    orders.write(Command::Review(ReviewTo::PreviousMistake));
                    None
                }
                egui::Key::T => {
                    show_thinking.0 = !show_thinking.0;
                    None
                }
                egui::Key::ArrowUp | egui::Key::ArrowDown => {
                    cursor_keys.write(CursorKey::Step(if key == egui::Key::ArrowUp { Arrow::Up } else { Arrow::Down }));
                    None
                }
                egui::Key::ArrowLeft | egui::Key::ArrowRight if cursor.0.is_some() => {
                    cursor_keys.write(CursorKey::Step(if key == egui::Key::ArrowLeft {
                        Arrow::Left
                    } else {
                        Arrow::Right
                    }));
                    None
                }
                egui::Key::Space if cursor.0.is_some() => {
                    cursor_keys.write(CursorKey::Press);
                    None
                }
                egui::Key::ArrowLeft | egui::Key::ArrowRight | egui::Key::Home | egui::Key::End => {
                    orders.write(Command::Review(match key {
                        egui::Key::ArrowLeft => ReviewTo::Back,
                        egui::Key::ArrowRight => ReviewTo::Forward,
                        egui::Key::Home => ReviewTo::Start,
                        _ => ReviewTo::End,
                    }));
                    None
                }
                egui::Key::Enter => Some(KeyAction::EndTurn),
                egui::Key::Escape => {
                    cursor_keys.write(CursorKey::Hide);
                    Some(KeyAction::Cancel)
                }
                egui::Key::R => Some(KeyAction::Rotate(if modifiers.shift { -1 } else { 1 })),
                egui::Key::F => Some(KeyAction::Flip),
                egui::Key::A => Some(KeyAction::ToggleAttach),
                _ => None,
            };
            if let Some(action) = action {
                actions.write(action);
            }
        }
    }
    if !ctx.is_pointer_over_egui() {
        // One turn per wheel event (a notch), whatever its unit.
        let wheel: f32 = ctx.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::MouseWheel { delta, .. } => Some(delta.y.signum()),
                    _ => None,
                })
                .sum()
        });
        if wheel != 0.0 {
            actions.write(KeyAction::Rotate(if wheel > 0.0 { 1 } else { -1 }));
        }
    }
    Ok(())
}
