//! The player's tools over the board (`docs/design.md` §Player tools): the hint's move, the heat map
//! of a running search (*Show thinking*), and in review the move played next and, where the
//! analysis found one, the better move. [`analysis`] runs *Analyze game*. The panel's side of them
//! (buttons, review controls, the win-rate graph) is in `hud`.

pub mod analysis;

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::ai_task::AiSearch;
use super::board::marks::{HeatCell, hint_colour, paint_heat, paint_marks};
use super::board::{BoardCamera, WorldPainter};
use super::flow::Screen;
use super::games::AppGame;
use super::model::Model;
use super::palette::mistake;
use super::ui::NEXT;
use crate::ai::MoveStats;

/// *Show thinking*: while a search runs (the AI's or a hint's), the board shows a heat map of its
/// root moves' simulations. Toggled by the panel's checkbox and the T key.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowThinking(pub bool);

impl Default for ShowThinking {
    /// On: a person sees what the AI considers, as Ludii shows its move distribution.
    fn default() -> Self {
        ShowThinking(true)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShowThinking>();
}

/// The tools of one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    analysis::game_plugin::<G>(app);
}

/// The drawn part for one game type: the marks over its board.
pub(super) fn view_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        overlay::<G>.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)),
    );
}

/// What the review shows of the position after `model.moves`: the move the line goes on with, and
/// the analysis's best move there when it differs (`(next, better, mistake)`).
pub fn review_marks<G: AppGame>(model: &Model<G>) -> (Option<G::Move>, Option<G::Move>, bool) {
    let next = model.redo().last().copied();
    let Some(a) = model.analysed().get(model.moves().len()) else { return (next, None, false) };
    let better = model.game().parse_move(&a.best).ok().filter(|&b| Some(b) != next);
    (next, better, a.mistake)
}

/// Paints the heat map, the hint and the review's moves over the board.
fn overlay<G: AppGame>(
    mut contexts: EguiContexts,
    model: Res<Model<G>>,
    search: Res<AiSearch<G>>,
    show: Res<ShowThinking>,
    camera: BoardCamera,
    mut cached: Local<(u64, u64, Vec<HeatCell>)>,
) -> Result {
    let world = WorldPainter::new(contexts.ctx_mut()?, *camera);
    if show.0
        && let Some(view) = search.root_view()
    {
        // The view changes four times a second: its cells are worked out once per change.
        let visits: u64 = view.iter().map(|v| u64::from(v.visits)).sum();
        if (cached.0, cached.1) != (model.revision(), visits) {
            *cached = (model.revision(), visits, heat(model.game(), &view));
        }
        paint_heat(&world, &cached.2);
    }
    let hint = hint_colour(G::INFO.black_and_white);
    if let Some(shown) = search.hint(model.revision()) {
        paint_marks(&world, &model.game().move_marks(shown.mv), hint);
    }
    if model.review() {
        let (next, better, was_mistake) = review_marks(&model);
        if let Some(next) = next {
            paint_marks(&world, &model.game().move_marks(next), if was_mistake { mistake() } else { NEXT });
        }
        if let Some(better) = better {
            paint_marks(&world, &model.game().move_marks(better), hint);
        }
    }
    Ok(())
}

/// The heat map of a search's root moves `view` (move, simulations) in position `game`: every cell
/// or point a move marks, with the simulations of the moves that mark it summed (a Trigon cell
/// counts every placement covering it), most visited first.
pub fn heat<G: AppGame>(game: &G, view: &[MoveStats<G::Move>]) -> Vec<HeatCell> {
    let mut cells: HashMap<(i32, i32), HeatCell> = HashMap::new();
    let key = |points: &[Vec2]| {
        let c = points.iter().copied().sum::<Vec2>() / points.len().max(1) as f32;
        ((c.x * 4.0).round() as i32, (c.y * 4.0).round() as i32)
    };
    for &MoveStats { mv, visits, .. } in view.iter().filter(|v| v.visits > 0) {
        let marks = game.move_marks(mv);
        let targets = marks.shapes.iter().cloned().chain(marks.points.iter().map(|&p| vec![p]));
        for outline in targets {
            let cell = cells.entry(key(&outline)).or_insert(HeatCell { outline, radius: marks.radius, visits: 0 });
            cell.visits += u64::from(visits);
        }
    }
    let mut cells: Vec<HeatCell> = cells.into_values().collect();
    cells.sort_by(|a, b| b.visits.cmp(&a.visits).then_with(|| a.outline[0].x.total_cmp(&b.outline[0].x)));
    cells
}
