//! The Bevy presentation (`../shared/design.md` §app): a start screen, then the board as entities
//! driven by picking, a model resource written only by the validation system, animation, an AI
//! that searches off the main thread, and egui panels.
//!
//! [`core_plugin`] holds everything that runs without a window or renderer (model, validation,
//! board entities, animation, AI tasks), so `tests/app.rs` drives it with `MinimalPlugins`;
//! [`run`] adds the window, the meshes, picking and the egui screens on top.

pub mod ai_task;
pub mod animation;
pub mod board;
pub mod files;
pub mod frame_log;
pub mod hud;
pub mod input;
pub mod menu;
pub mod model;
pub mod share;
#[cfg(target_arch = "wasm32")]
mod web;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::rules::tri_it_out::TriItOut;
use crate::rules::tricore::TriCore;
use crate::rules::trigon::Trigon;
use crate::rules::trike::Trike;
use crate::rules::trisq::Trisq;

pub use crate::ai::Seat;
pub use model::{AppGame, Command, GameOptions, Model, MoveIntent, Setup, Status};

/// The screens of the app.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The egui start screen: game, options, seats.
    #[default]
    Menu,
    /// A game on the board.
    Playing,
}

/// Everything that runs headless: the screen state's users, the model and its validation, the
/// board's entities, animation and AI tasks. Needs `StatesPlugin` and a time source (both in
/// `DefaultPlugins`; tests add `MinimalPlugins` and `StatesPlugin`).
pub fn core_plugin(app: &mut App) {
    app.init_state::<Screen>();
    model::plugin(app);
    board::plugin(app);
    animation::plugin(app);
    ai_task::plugin(app);
    share::plugin(app);
}

/// Opens the window and runs the app until it is closed.
pub fn run() {
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
    core_plugin(&mut app);
    board::view_plugin(&mut app);
    input::plugin(&mut app);
    menu::plugin(&mut app);
    hud::plugin(&mut app);
    frame_log::plugin(&mut app);
    #[cfg(target_arch = "wasm32")]
    web::plugin(&mut app);
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    })
    .add_systems(Last, window_title);
    app.run();
}

/// The window's title tells the game, the number of moves and who is to move or who won (the
/// browser page shows it as its title, and the browser test reads it).
pub fn title_text<G: AppGame>(model: Option<&Model<G>>) -> String {
    let Some(model) = model else { return "triboard".to_string() };
    let game = &model.game;
    let n = model.moves.len();
    let state = match (model.result_text(), game.to_move()) {
        (Some(result), _) => result,
        (None, Some(p)) => format!("{} to move", game.player_name(p)),
        (None, None) => String::new(),
    };
    format!("{} · {n} move{} · {state} — triboard", game.display_name(), if n == 1 { "" } else { "s" })
}

/// The model of the game in play, whichever game it is: the one list of the app's game types for
/// systems that serve every game (window title, share link, browser state).
#[derive(SystemParam)]
pub struct Playing<'w> {
    trike: Option<Res<'w, Model<Trike>>>,
    trigon: Option<Res<'w, Model<Trigon>>>,
    tri_it_out: Option<Res<'w, Model<TriItOut>>>,
    tricore: Option<Res<'w, Model<TriCore>>>,
    trisq: Option<Res<'w, Model<Trisq>>>,
}

/// Something done with the model in play, whatever its game type ([`Playing::with`]).
pub trait WithModel {
    /// What it returns.
    type Output;
    /// Does it with game type `G`'s model (`Res`, so that `is_changed` can be asked).
    fn run<G: AppGame>(self, model: &Res<Model<G>>) -> Self::Output;
}

impl Playing<'_> {
    /// Runs `task` on the model in play; `None` when no game is (the start screen).
    pub fn with<T: WithModel>(&self, task: T) -> Option<T::Output> {
        if let Some(model) = &self.trike {
            Some(task.run(model))
        } else if let Some(model) = &self.trigon {
            Some(task.run(model))
        } else if let Some(model) = &self.tri_it_out {
            Some(task.run(model))
        } else if let Some(model) = &self.tricore {
            Some(task.run(model))
        } else {
            self.trisq.as_ref().map(|model| task.run(model))
        }
    }
}

fn window_title(playing: Playing, mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>) {
    struct Title;
    impl WithModel for Title {
        type Output = String;
        fn run<G: AppGame>(self, model: &Res<Model<G>>) -> String {
            title_text(Some(&**model))
        }
    }
    let Ok(mut window) = windows.single_mut() else { return };
    let title = playing.with(Title).unwrap_or_else(|| title_text::<Trike>(None));
    if window.title != title {
        window.title = title;
    }
}
