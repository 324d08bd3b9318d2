//! The start screen (egui): the game, its options and who plays each seat, remembered per entry
//! between launches ([`Settings`]); Start, Resume (the game Menu left), Load… (the data folder's
//! games) and Open… (a file anywhere: the system's file dialog, or the browser's file chooser).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::choices::Choices;
use super::flow::Screen;
use super::flow::Status;
use super::learn::Learning;
use super::load_dialog::LoadDialog;
use super::open_file::Dialogs;
use super::pending_open::PendingOpen;
use super::session::OpenRecord;
use super::session::Suspended;
use super::settings::Settings;
use super::setup::Setup;
use super::start_page::{Pressed, StartIn, start_page};
use super::ui::{UiRects, confirm_drop};
use crate::rules::record::Record;

/// What waits for "Drop the game you left?" on the start screen.
enum Pending {
    Start,
    Open(Record),
    Learn(Learning),
}

/// The start screen's own state: the confirmation waiting, if any.
#[derive(Resource, Default)]
struct MenuState {
    confirm: Option<Pending>,
}

pub(super) fn plugin(app: &mut App) {
    let choices = Choices::with_settings(app.world().resource::<Settings>());
    app.insert_resource(choices)
        .init_resource::<MenuState>()
        .init_resource::<LoadDialog>()
        // Only what goes wrong on the start screen itself (a link that cannot be opened) shows there.
        .add_systems(OnEnter(Screen::Menu), |mut status: ResMut<Status>| *status = Status::default())
        .add_systems(EguiPrimaryContextPass, (style, start_screen.run_if(in_state(Screen::Menu))).chain());
}

/// Larger text and roomier spacing than egui's defaults, for every screen (the theme's colours:
/// [`crate::app::settings_page`]).
fn style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    *done = true;
    let ctx = contexts.ctx_mut()?;
    crate::app::ui::app_style(ctx);
    // The clocks' glyphs in the font atlas from the start: a glyph first laid out in a frame can
    // miss that frame's texture (a clock once read "9: 9" for a frame).
    let style = ctx.global_style();
    let fonts = [egui::TextStyle::Monospace, egui::TextStyle::Body].map(|s| s.resolve(&style));
    ctx.fonts_mut(|f| {
        for font in fonts {
            let _ = f.layout_no_wrap("0123456789:.".to_string(), font, egui::Color32::WHITE);
        }
    });
    Ok(())
}

#[cfg_attr(target_arch = "wasm32", allow(unused_mut, unused_variables))]
fn start_screen(
    mut contexts: EguiContexts,
    (mut choices, mut settings): (ResMut<Choices>, ResMut<Settings>),
    (mut setup, mut suspended): (ResMut<Setup>, ResMut<Suspended>),
    (mut state, mut load): (ResMut<MenuState>, ResMut<LoadDialog>),
    (mut status, mut rects, mut page): (ResMut<Status>, ResMut<UiRects>, ResMut<super::settings_page::SettingsPage>),
    (mut pending, mut dialogs, mut lobby): (ResMut<PendingOpen>, Dialogs, ResMut<super::online::lobby::Lobby>),
    (mut commands, mut next): (Commands, ResMut<NextState<Screen>>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let online = super::online::words::summary(&lobby, &settings);
    let kept = suspended.game.as_ref().map(|g| (g.name.as_str(), g.moves));
    let held = settings.online.games.len();
    let mut input = StartIn { choices: &mut choices, kept, online, held, status: &status };
    let pressed = start_page(ctx, &mut input, &mut rects);
    let Pressed { start, resume, open_load, learn, open_file, online, settings: open_settings } = pressed;
    if online {
        lobby.open = true;
    }
    if open_settings {
        page.open = true;
    }
    if open_load {
        load.open();
    }
    if open_file {
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(refused) = dialogs.ask(super::dialogs::Ask::Open) {
            *status = refused;
        }
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = super::web::file_input::upload() {
            *status = Status::error(e);
        }
    }
    // A file dropped (or chosen) while the game Menu left is unfinished: asked about here.
    if let Some((_, record)) = pending.0.take() {
        state.confirm = Some(Pending::Open(record));
    }
    if let Some(record) = load.show(ctx) {
        state.confirm = Some(Pending::Open(record));
    }
    if start {
        state.confirm = Some(Pending::Start);
    }
    if learn && let Some(learning) = Learning::for_game(&choices.entries[choices.game].game.game) {
        state.confirm = Some(Pending::Learn(learning));
    }
    // Starting or opening another game drops the one Menu left: ask first when it is unfinished.
    if state.confirm.is_some() && suspended.unfinished() {
        let kept = suspended.game.as_ref().expect("unfinished");
        let what =
            format!("{} is unfinished: {} played.", kept.name, crate::rules::counted(kept.moves, "move", "moves"));
        let pressed = match state.confirm {
            Some(Pending::Learn(_)) => "Learn",
            Some(Pending::Open(_)) => "Opening a game",
            _ => "Start",
        };
        let drops = format!("Resume brings it back; {pressed} drops it.");
        match confirm_drop(ctx, &mut rects, "Drop the game you left?", &what, &drops, "Drop it") {
            Some(true) => suspended.game = None,
            Some(false) => state.confirm = None,
            None => {}
        }
    }
    if !suspended.unfinished() {
        match state.confirm.take() {
            Some(Pending::Start) => {
                suspended.game = None;
                *setup = choices.setup();
                next.set(Screen::Playing);
            }
            Some(Pending::Open(record)) => {
                suspended.game = None;
                commands.insert_resource(OpenRecord(record));
            }
            Some(Pending::Learn(learning)) => {
                suspended.game = None;
                super::session::open_lesson(learning, &mut commands);
            }
            None => {}
        }
    }
    if resume && suspended.resume(&mut setup) {
        next.set(Screen::Playing);
    }
    let now = choices.settings(&settings);
    if *settings != now {
        *settings = now;
    }
    Ok(())
}
