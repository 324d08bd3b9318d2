//! Leaving and coming back: Menu keeps the game for Resume, starting another drops it, and the
//! start screen's choices survive a restart.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use triboard::app::choices::Choices;
use triboard::app::session::Suspended;
use triboard::app::settings::{SeatChoice, Settings, SettingsFile};
use triboard::app::{Command, Screen, Setup};

use super::{Model, board, click, humans};

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn menu_keeps_the_game_and_resume_brings_it_back_as_it_was() {
    let mut app = humans(7);
    click(&mut app, "d7");
    click(&mut app, "d4");
    click(&mut app, "b4");
    app.world_mut().write_message(Command::Undo);
    app.update();
    let before = board(&mut app);
    let (moves, redo) = {
        let model = app.world().resource::<Model>();
        (model.moves().to_vec(), model.redo().to_vec())
    };
    assert_eq!((moves.len(), redo.len()), (2, 1));

    app.world_mut().write_message(Command::Menu);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    assert!(app.world().get_resource::<Model>().is_none(), "the board is gone");
    let kept = app.world().resource::<Suspended>();
    assert!(kept.unfinished());
    assert_eq!(kept.game.as_ref().map(|g| (g.name.as_str(), g.moves)), Some(("Trike", 2)));

    let world = app.world_mut();
    let mut setup = world.resource::<Setup>().clone();
    assert!(world.resource_mut::<Suspended>().resume(&mut setup));
    world.insert_resource(setup);
    world.resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app.update();
    let model = app.world().resource::<Model>();
    assert_eq!((model.moves(), model.redo()), (&moves[..], &redo[..]), "moves and redo stack as they were");
    assert_eq!(board(&mut app), before);
    assert!(app.world().resource::<Suspended>().game.is_none());
}

#[test]
fn starting_another_game_drops_the_one_menu_kept() {
    let mut app = humans(7);
    click(&mut app, "d7");
    app.world_mut().write_message(Command::Menu);
    app.update();
    app.update();
    assert!(app.world().resource::<Suspended>().game.is_some());
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app.update();
    assert!(app.world().resource::<Model>().moves().is_empty(), "a new game");
    assert!(app.world().resource::<Suspended>().game.is_none());
}

fn app_keeping_settings_in(file: &SettingsFile) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).insert_resource(file.clone());
    triboard::app::core_plugin(&mut app);
    app.update();
    app
}

#[test]
fn the_start_screens_choices_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("triboard-settings-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = SettingsFile(Some(dir.join("settings.json")));
    let mut app = app_keeping_settings_in(&file);
    let mut choices = Choices::with_settings(app.world().resource::<Settings>());
    let fresh = choices.settings(&Settings::default());
    let names = choices.names();
    // Trike on side 9 with its second seat AI level 5; then a four-player Trigon, every seat AI 1.
    assert!(choices.choose(names[0]));
    choices.game_mut().options = serde_json::json!({ "size": 9 });
    choices.seats_mut()[1] = SeatChoice { ai: true, level: 5 };
    let trigon = *names.iter().find(|n| n.starts_with("Blokus Trigon")).expect("Trigon is listed");
    assert!(choices.choose(trigon));
    for seat in choices.seats_mut().iter_mut() {
        *seat = SeatChoice { ai: true, level: 1 };
    }
    let chosen = choices.settings(&Settings::default());
    assert_ne!(chosen, fresh);
    *app.world_mut().resource_mut::<Settings>() = chosen.clone();
    app.update();
    assert!(dir.join("settings.json").exists(), "kept in the data folder");

    let restarted = app_keeping_settings_in(&file);
    let again = Choices::with_settings(restarted.world().resource::<Settings>());
    assert_eq!(again.settings(&Settings::default()), chosen);
    assert_eq!(again.setup(), choices.setup(), "Trigon, every seat AI level 1");
    let mut trike = again;
    assert!(trike.choose(names[0]));
    assert_eq!(trike.game_mut().options["size"], 9);
    assert_eq!(trike.seats_mut()[1], SeatChoice { ai: true, level: 5 });

    // A file that is not settings is ignored: the defaults.
    std::fs::write(dir.join("settings.json"), "{ not json").unwrap();
    let broken = app_keeping_settings_in(&file);
    assert_eq!(Choices::with_settings(broken.world().resource::<Settings>()).settings(&Settings::default()), fresh);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The start screen's form, drawn in a bare egui context at 1280×800 for each entry of the list;
/// returns each entry's form rectangle.
fn form_rects() -> Vec<(&'static str, bevy_egui::egui::Rect)> {
    use bevy_egui::egui;
    let mut choices = Choices::with_settings(&Settings::default());
    let ctx = egui::Context::default();
    let mut out = Vec::new();
    for name in choices.names() {
        assert!(choices.choose(name));
        let mut rect = egui::Rect::NOTHING;
        // Twice: egui settles a layout over a frame or two.
        for _ in 0..2 {
            let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
            ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
            let mut root = triboard::app::ui::root_ui(&ctx, "form");
            egui::CentralPanel::default()
                .show(&mut root, |ui| rect = triboard::app::start_page::setup_form(ui, &mut choices));
            ctx.end_pass().textures_delta.clear();
        }
        out.push((name, rect));
    }
    out
}

#[test]
fn the_start_screens_form_has_one_height_for_every_game_so_start_never_moves() {
    let rects = form_rects();
    let first = rects[0].1;
    for (name, rect) in &rects {
        assert_eq!(rect.height(), first.height(), "{name}: {rects:?}");
    }
}

#[test]
fn the_settings_pages_choices_are_kept_and_applied_at_the_next_start() {
    use triboard::app::palette;
    use triboard::app::settings::{AnimationSpeed, Colours, Look};
    use triboard::app::settings_page::ColoursInUse;
    use triboard::app::tools::ShowThinking;
    let dir = std::env::temp_dir().join(format!("triboard-look-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = SettingsFile(Some(dir.join("settings.json")));
    let mut app = app_keeping_settings_in(&file);
    assert_eq!(app.world().resource::<Settings>().look, Look::default());
    assert!(app.world().resource::<ShowThinking>().0, "Show thinking is on by default");
    assert!(!Look::default().show_proofs, "the AI's proofs are not said during play by default");
    let look =
        Look { colours: Colours::Classic, show_thinking: false, animation: AnimationSpeed::Off, ..Look::default() };
    app.world_mut().resource_mut::<Settings>().look = look;
    app.update();
    assert_eq!(app.world().resource::<ColoursInUse>().0, Colours::Classic, "the palette changes at once");
    assert_eq!(*palette::current(), palette::CLASSIC);

    let restarted = app_keeping_settings_in(&file);
    assert_eq!(restarted.world().resource::<Settings>().look, look);
    assert!(!restarted.world().resource::<ShowThinking>().0, "Show thinking starts as the settings say");
    assert_eq!(restarted.world().resource::<ColoursInUse>().0, Colours::Classic);
    palette::use_classic(false);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The start screen's hover text on an AI level gives its budget, and in Blokus Trigon the Pentobi
/// level it was measured to match; a game with no such measure gives the budget alone.
#[test]
fn a_level_says_its_budget_and_in_trigon_which_pentobi_level_it_matches() {
    use triboard::ai::Level;
    let mut choices = Choices::with_settings(&Settings::default());
    assert!(choices.choose("Blokus Trigon Two-Player"));
    let text = choices.level_text(Level::new(2).unwrap());
    assert!(text.starts_with("AI level 2: 4,000 simulations a move, at most 1 s.\n"), "{text}");
    assert!(text.contains("about Pentobi level 6"), "{text}");
    let four = choices.level_text(Level::new(4).unwrap());
    assert!(four.contains("above Pentobi level 7"), "{four}");
    let top = choices.level_text(Level::new(6).unwrap());
    assert!(top.starts_with("AI level 6: 4,000,000 simulations a move, at most 10 s.\n"), "{top}");
    assert!(top.contains("Pentobi level 7"), "{top}");
    assert!(choices.choose("Trike"));
    assert_eq!(choices.level_text(Level::new(2).unwrap()), "AI level 2: 4,000 simulations a move, at most 1 s.");
}
