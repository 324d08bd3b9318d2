//! The in-game panels (egui): the side panel ([`side`]: players and scores ([`players`]), the
//! buttons, the status line, the AI's progress with Move now, the game's own actions, the result
//! once the game is over, the move list) and the windows it opens (rules, the confirmation before
//! an unfinished game is dropped, the Load dialog of [`crate::app::load_dialog`], and on the
//! desktop Open… and Save as…, the system's file dialogs of `crate::app::dialogs`). The frame is shared; what
//! differs per game are the panel words of its [`AppGame`] (Trigon's piece chooser is its own
//! panel, in `board::trigon`).
//!
//! The drawing ([`side::side_panel`]) reads plain values and returns what was pressed as
//! [`PanelAction`]s, so `tests/app/hud.rs` drives it in a bare `egui::Context`; the system here
//! gathers the resources and carries the actions out.

pub mod action;
pub mod confirm;
pub mod graph;
pub mod lesson;
pub mod move_list;
pub mod online;
pub mod players;
pub mod review;
pub mod side;
pub mod windows;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use action::{PanelAction, PanelIn};
pub use side::side_panel;
pub use windows::PanelWindows;

use super::ai_task::AiSearch;
use super::files;
use super::flow::Screen;
use super::flow::{Command, MoveIntent, Status, TextIntent};
use super::games::AppGame;
use super::learn::{Learning, LessonAction};
use super::load_dialog::LoadDialog;
use super::model::Model;
use super::open_file::Dialogs;
use super::runner::AiRunner;
use super::settings::Settings;
use super::settings_page::SettingsPage;
use super::sound::{self, Sound};
use super::tools::ShowThinking;
use super::tools::analysis::Analyzing;
use super::ui::{LeftPanelWidth, PanelWidth, UiRects};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelWidth>()
        .init_resource::<LeftPanelWidth>()
        .init_resource::<PanelWindows>()
        .init_resource::<UiRects>()
        .add_systems(OnEnter(Screen::Playing), |mut windows: ResMut<PanelWindows>| *windows = PanelWindows::default())
        .add_systems(EguiPrimaryContextPass, (zoom, warm_fonts).chain());
}

/// Every glyph the panels use, laid out once per zoom at each text size of the app, so the font
/// atlas holds them before they are first shown. Without it the first move's text (the move
/// list's monospace digits, say) was drawn for one frame from an atlas being grown: "Black played
/// e" and "__" once flashed after Trike's first move.
fn warm_fonts(mut contexts: EguiContexts, mut warmed: Local<Option<f32>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let ppp = ctx.pixels_per_point();
    if *warmed == Some(ppp) {
        return Ok(());
    }
    *warmed = Some(ppp);
    let text: String = (' '..='~').chain("⟲⟳…–·×✓⏮◀▶⏭".chars()).collect();
    ctx.fonts_mut(|fonts| {
        for size in [11.0, 12.0, 12.5, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 20.0, 24.0, 44.0] {
            for font in [egui::FontId::proportional(size), egui::FontId::monospace(size)] {
                let _ = fonts.layout_no_wrap(text.clone(), font, egui::Color32::WHITE);
            }
        }
    });
    Ok(())
}

/// The side panels' systems (the board's keys are read before them, so that a key a dialog takes
/// is not the board's too).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Panels;

/// The side panel of one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        panels::<G>.in_set(Panels).after(zoom).run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)),
    )
    .add_systems(Update, sounds::<G>.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)));
}

/// The move sound at each move played on the board (one more move than the frame before: a game
/// loaded, undone or reviewed is silent), and the low-time sound as the person's own clock in an
/// online game crosses under ten seconds; with Settings' Sounds on, where the platform plays them
/// ([`sound::PLAYS`]).
fn sounds<G: AppGame>(
    model: Res<Model<G>>,
    online: Option<Res<super::online::OnlineGame>>,
    settings: Res<Settings>,
    mut last: Local<(usize, Option<u64>)>,
) {
    let moves = model.moves().len();
    let moved = moves == last.0 + 1;
    last.0 = moves;
    let running = model.to_move().map(|p| p.0);
    let mine = online
        .as_deref()
        .zip(running)
        .filter(|(o, seat)| o.mine(*seat))
        .and_then(|(o, seat)| o.clocks_now(Some(seat)).and_then(|c| c.get(usize::from(seat)).copied()));
    let low = mine.is_some_and(|ms| sound::low_time_crossed(last.1, ms));
    last.1 = mine;
    if !settings.look.sounds {
        return;
    }
    if low {
        sound::play(Sound::LowTime);
    } else if moved {
        sound::play(Sound::Move);
    }
}

/// egui's zoom follows the window: 1 up to 1280×800 logical pixels, larger on larger windows
/// (1.35 at 1920×1080, at most 1.6), so text stays readable on a large screen; small windows keep
/// 1 and narrow the panels instead ([`crate::app::ui::side_width`]).
pub fn zoom_for(window: Vec2) -> f32 {
    (window.x / 1280.0).min(window.y / 800.0).clamp(1.0, 1.6)
}

fn zoom(
    mut contexts: EguiContexts,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut rects: ResMut<UiRects>,
) -> Result {
    let Ok(window) = windows.single() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let wanted = (zoom_for(window.size()) * 20.0).round() / 20.0;
    if (ctx.zoom_factor() - wanted).abs() > 1e-3 {
        ctx.set_zoom_factor(wanted);
    }
    let now = ctx.zoom_factor();
    if rects.zoom != now {
        rects.zoom = now;
    }
    Ok(())
}

/// What the side panel shows of the game: the model, its search, the online game if it is one.
type GameIn<'w, G> = (Res<'w, Model<G>>, Res<'w, AiSearch<G>>, Option<Res<'w, super::online::OnlineGame>>);

/// Draws the side panel and its windows, then carries out what was pressed.
#[cfg_attr(target_arch = "wasm32", allow(unused_mut, unused_variables))]
fn panels<G: AppGame>(
    mut contexts: EguiContexts,
    (model, search, online): GameIn<'_, G>,
    (mut status, mut load, mut online_orders): (
        ResMut<Status>,
        ResMut<LoadDialog>,
        MessageWriter<super::online::OnlineOrder>,
    ),
    (mut windows, mut panel_width, mut rects): (ResMut<PanelWindows>, ResMut<PanelWidth>, ResMut<UiRects>),
    (mut analyzing, mut show_thinking, runner): (ResMut<Analyzing<G>>, ResMut<ShowThinking>, Res<AiRunner>),
    (mut learning, mut dialogs, mut page, settings): (
        Option<ResMut<Learning>>,
        Dialogs,
        ResMut<SettingsPage>,
        Res<Settings>,
    ),
    (mut intents, mut orders, mut texts): (
        MessageWriter<MoveIntent<G::Move>>,
        MessageWriter<Command>,
        MessageWriter<TextIntent>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let input = PanelIn {
        model: &model,
        status: &status,
        progress: search.progress(),
        // What the solver proved gives the game away: said during play only when asked for.
        verdict: search.verdict(model.moves().len()).filter(|_| settings.look.show_proofs),
        searching: search.purpose(),
        hint: search.hint(model.revision()).map(|h| h.text.as_str()),
        analyzing: analyzing.progress(),
        show_thinking: show_thinking.0,
        lesson: learning.as_deref(),
        online: online.as_deref(),
    };
    let (width, mut actions) = side_panel::<G>(ctx, &input, &mut windows, &mut rects);
    let width = width * ctx.zoom_factor();
    if (panel_width.0 - width).abs() > 0.5 {
        panel_width.0 = width;
    }
    if let Some(record) = load.show(ctx) {
        actions.extend(windows.drop_game(&model, Command::Load(record)).map(PanelAction::Order));
    }
    for action in actions {
        match action {
            PanelAction::Move(intent) => {
                intents.write(intent);
            }
            PanelAction::Order(order) => {
                orders.write(order);
            }
            PanelAction::MoveNow => search.move_now(),
            PanelAction::Save(format) => {
                *status = match files::save_as(&model.record(), format) {
                    Ok(place) => Status::info(format!("Saved to {place}")),
                    Err(e) => Status::error(e),
                };
            }
            PanelAction::OpenLoad => load.open(),
            #[cfg(not(target_arch = "wasm32"))]
            PanelAction::OpenFile => {
                if let Err(refused) = dialogs.ask(super::dialogs::Ask::Open) {
                    *status = refused;
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            PanelAction::SaveAs => {
                let ask = super::dialogs::Ask::SaveAs { record: Box::new(model.record()), sgf: G::INFO.sgf };
                if let Err(refused) = dialogs.ask(ask) {
                    *status = refused;
                }
            }
            // The browser has no such buttons (its own file buttons stand there).
            #[cfg(target_arch = "wasm32")]
            PanelAction::OpenFile | PanelAction::SaveAs => {}
            PanelAction::Status(said) => *status = said,
            PanelAction::Analyze(simulations) => {
                analyzing.start(&model, simulations, *runner);
                *status =
                    Status::info(format!("Analyzing {} moves, {simulations} simulations a position", model.line_len()));
            }
            PanelAction::CancelAnalysis => {
                analyzing.cancel();
                *status = Status::info("Analysis cancelled");
            }
            PanelAction::ToggleThinking => show_thinking.0 = !show_thinking.0,
            PanelAction::OpenSettings => page.open = true,
            PanelAction::Text(text) => {
                texts.write(TextIntent(text));
            }
            PanelAction::Online(order) => {
                online_orders.write(order);
            }
            PanelAction::Lesson(action) => {
                let Some(learning) = learning.as_deref_mut() else { continue };
                match learning.go(action) {
                    Some(record) => {
                        orders.write(Command::Load(record));
                    }
                    // Leaving the board ends the lesson (`app::plugin` removes it on exit).
                    None if action == LessonAction::Leave => {
                        orders.write(Command::NewGame);
                    }
                    None => {}
                }
            }
        }
    }
    Ok(())
}
