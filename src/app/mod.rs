//! The Bevy presentation (`docs/design.md` §app): a start screen, then the board as entities
//! driven by picking, a model resource written only by the validation system, animation, an AI
//! that searches off the main thread, and egui panels.
//!
//! [`core_plugin`] holds everything that runs without a window or renderer (model, validation,
//! board entities, animation, AI tasks), so `tests/app.rs` drives it with `MinimalPlugins`;
//! [`run`] adds the window, the meshes, picking and the egui screens on top.

pub mod ai_task;
pub mod animation;
pub mod board;
pub mod choices;
pub mod clipboard;
#[cfg(not(target_arch = "wasm32"))]
pub mod dialogs;
pub mod files;
pub mod flow;
pub mod frame_log;
pub mod games;
pub mod hud;
pub mod in_play;
pub mod input;
pub mod launch;
pub mod learn;
pub mod load_dialog;
pub mod local_time;
pub mod menu;
pub mod model;
pub mod online;
pub mod open_file;
pub mod palette;
pub mod pending_open;
pub mod play;
pub mod runner;
pub mod save_format;
pub mod session;
pub mod settings;
pub mod settings_page;
pub mod setup;
pub mod share;
pub mod sound;
pub mod start_page;
pub mod tools;
pub mod ui;
#[cfg(target_arch = "wasm32")]
mod web;

use bevy::prelude::*;

use games::{AppGame, ForEachGame, each_game};

pub use crate::ai::Seat;
pub use flow::{Command, Ending, MoveIntent, PlayedPly, ReviewTo, Screen, Seating, Status, TextIntent};
pub use in_play::{InPlay, title_text};
pub use model::Model;
pub use setup::{GameOptions, Setup};

/// Everything that runs headless: the screen state's users, the model and its validation, the
/// board's entities, animation and AI tasks, for every game of the registry. Needs `StatesPlugin`
/// and a time source (both in `DefaultPlugins`; tests add `MinimalPlugins` and `StatesPlugin`).
pub fn core_plugin(app: &mut App) {
    app.init_state::<Screen>();
    settings::plugin(app);
    settings_page::plugin(app);
    play::plugin(app);
    session::plugin(app);
    board::plugin(app);
    board::cursor::plugin(app);
    animation::plugin(app);
    ai_task::plugin(app);
    tools::plugin(app);
    input::messages(app);
    open_file::plugin(app);
    online::plugin(app);
    struct Core<'a>(&'a mut App);
    impl ForEachGame for Core<'_> {
        fn game<G: AppGame>(&mut self) {
            play::game_plugin::<G>(self.0);
            board::cursor::game_plugin::<G>(self.0);
            session::game_plugin::<G>(self.0);
            ai_task::game_plugin::<G>(self.0);
            tools::game_plugin::<G>(self.0);
            open_file::game_plugin::<G>(self.0);
            G::plugin(self.0);
        }
    }
    each_game(&mut Core(app));
}

/// What is drawn, for every game of the registry: the side panels and the board views.
fn view_plugins(app: &mut App) {
    struct View<'a>(&'a mut App);
    impl ForEachGame for View<'_> {
        fn game<G: AppGame>(&mut self) {
            hud::game_plugin::<G>(self.0);
            G::view_plugin(self.0);
            tools::view_plugin::<G>(self.0);
            #[cfg(target_arch = "wasm32")]
            web::game_plugin::<G>(self.0);
        }
    }
    each_game(&mut View(app));
}

/// Opens the window and runs the app until it is closed.
///
/// # Errors
/// No display to open it on ([`launch::missing_display`]): the sentence to print.
pub fn run() -> Result<(), String> {
    if let Some(why) = launch::missing_display() {
        return Err(why);
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "triboard".into(),
            resolution: (1280u32, 800u32).into(),
            // In the browser: the canvas of web/index.html, filling the page and following resizes.
            canvas: Some("#triboard".into()),
            fit_canvas_to_parent: true,
            ..default()
        }),
        ..default()
    }))
    .add_plugins((MeshPickingPlugin, bevy_egui::EguiPlugin::default()))
    .insert_resource(ClearColor(Color::srgb(0.13, 0.14, 0.16)));
    clipboard::plugin(&mut app);
    core_plugin(&mut app);
    board::view_plugin(&mut app);
    board::lattice::view_plugin(&mut app);
    board::cursor::view_plugin(&mut app);
    input::plugin(&mut app);
    menu::plugin(&mut app);
    settings_page::view_plugin(&mut app);
    online::lobby_window::view_plugin(&mut app);
    hud::plugin(&mut app);
    view_plugins(&mut app);
    frame_log::plugin(&mut app);
    #[cfg(not(target_arch = "wasm32"))]
    dialogs::plugin(&mut app);
    #[cfg(target_arch = "wasm32")]
    web::plugin(&mut app);
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    })
    .add_systems(Startup, open_at_launch)
    .add_systems(Update, fit_window_to_monitor)
    .add_systems(Last, window_title);
    app.run();
    Ok(())
}

/// `TRIBOARD_OPEN=FILE` (a saved record, JSON or `.blksgf`) or `TRIBOARD_OPEN=LINK` (a share link,
/// or its `#game=…` fragment) opens that game at launch, as a share link does in the browser; what
/// cannot be read is refused on the start screen with the reason. `TRIBOARD_LEARN=GAME[:STEP]`
/// opens the game's lesson (Learn), at step STEP (from 1). `TRIBOARD_SETTINGS=1` opens the settings
/// page.
fn open_at_launch(mut commands: Commands, mut status: ResMut<Status>, mut page: ResMut<settings_page::SettingsPage>) {
    // TRIBOARD_SETTINGS=1: the settings page open over the start screen (for screenshots).
    page.open = std::env::var_os("TRIBOARD_SETTINGS").is_some();
    if let Some(learn) = std::env::var_os("TRIBOARD_LEARN") {
        let learn = learn.to_string_lossy();
        let (id, step) = learn.split_once(':').unwrap_or((&learn, "1"));
        match learn::Learning::for_game(id) {
            Some(mut learning) => {
                for _ in 1..step.parse::<usize>().unwrap_or(1) {
                    learning.go(learn::LessonAction::Next);
                }
                session::open_lesson(learning, &mut commands);
            }
            None => *status = Status::error(format!("TRIBOARD_LEARN: no lesson for '{id}'")),
        }
        return;
    }
    let Some(what) = std::env::var_os("TRIBOARD_OPEN") else { return };
    let what = what.to_string_lossy();
    let read = match what.find("#game=").or_else(|| what.starts_with("game=").then_some(0)) {
        Some(at) => {
            share::parse_fragment(&what[at..]).and_then(|r| r.ok_or_else(|| "the link holds no game".to_string()))
        }
        None => pending_open::read_file(std::path::Path::new(&*what))
            .map_err(|e| format!("{what}: {e}"))
            .and_then(|text| files::parse(&text)),
    };
    match read {
        Ok(record) => commands.insert_resource(session::OpenRecord(record)),
        Err(e) => *status = Status::error(format!("TRIBOARD_OPEN: {e}")),
    }
}

/// The window opens at 1280×800 logical pixels, then, once its monitor is known, takes 85 % of a
/// larger screen (1632×918 on 1920×1080) or shrinks to fit a smaller one (less room for a taskbar
/// and the title bar), centred there. The panels narrow on small windows
/// ([`ui::side_width`]) and egui zooms on large ones ([`hud::zoom_for`]).
fn fit_window_to_monitor(
    mut done: Local<bool>,
    monitors: Query<(&bevy::window::Monitor, Has<bevy::window::PrimaryMonitor>)>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if *done || cfg!(target_arch = "wasm32") {
        return;
    }
    let Some((monitor, _)) = monitors.iter().max_by_key(|(_, primary)| *primary) else { return };
    let Ok(mut window) = windows.single_mut() else { return };
    *done = true;
    let scale = monitor.scale_factor.max(0.5) as f32;
    let screen = Vec2::new(monitor.physical_width as f32, monitor.physical_height as f32) / scale;
    let room = (screen - Vec2::new(24.0, 72.0)).max(Vec2::new(640.0, 400.0));
    let size = window.size();
    let fit = (screen * 0.85).max(size).min(room).floor();
    if (fit - size).abs().max_element() >= 1.0 {
        info!("the screen is {}x{}: the window opens at {}x{}", screen.x, screen.y, fit.x, fit.y);
        window.resolution.set(fit.x, fit.y);
        window.position = WindowPosition::Centered(MonitorSelection::Primary);
    }
}

/// The window's title follows the game in play ([`title_text`]); "triboard" on the start screen.
fn window_title(
    in_play: Res<InPlay>,
    online: Option<Res<online::OnlineGame>>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    let Ok(mut window) = windows.single_mut() else { return };
    let title = in_play.0.as_ref().map_or("triboard".to_string(), |s| online::title(s, online.as_deref()));
    if window.title != title {
        window.title = title.to_string();
    }
}
