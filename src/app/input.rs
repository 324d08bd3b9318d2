//! Input: Bevy's picking turns hovers and presses on cells into the hovered cell and
//! [`CellClicked`] messages, which each game's view turns into move intents.
//! Observers are attached to every cell entity as it is created. A move is made on the press (not
//! the click) so a quick tap whose press and release fall in the same frame still counts.

use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;

use super::board::{BoardCell, CellClicked, Hovered};

pub(super) fn plugin(app: &mut App) {
    app.add_observer(|add: On<Add, BoardCell>, mut commands: Commands| {
        commands.entity(add.entity).observe(on_over).observe(on_out).observe(on_press);
    });
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
