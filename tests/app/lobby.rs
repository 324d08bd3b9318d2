//! The lobby, accounts and ratings in the app, headless, against an in-process `triboard serve`
//! (`docs/design.md` §Lobby): the Play online window's presses ([`LobbyAction`]s, carried out as
//! its system does) sign up, sign in again on a new connection, post and accept a challenge, watch
//! a game without a seat, and read leaderboards and players' pages; a rated game's end shows each
//! player's rating change in the Game over box.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use triboard::app::hud::{PanelIn, PanelWindows, side_panel};
use triboard::app::online::OnlineGame;
use triboard::app::online::account::Account;
use triboard::app::online::link::Link;
use triboard::app::online::lobby::Lobby;
use triboard::app::online::lobby_window::{Online, carry_out};
use triboard::app::online::pages::{Pages, RecordUse};
use triboard::app::online::window_in::{Chosen, LobbyAction};
use triboard::app::settings::{Settings, SettingsFile};
use triboard::app::ui::UiRects;
use triboard::app::{InPlay, Seat, Status};
use triboard::rules::trike::Trike;

use super::online::{desktop, launched, moves, on_board, press};

type Model = triboard::app::Model<Trike>;

/// A server on 127.0.0.1:0 with an in-memory database and the bot `TriboardAI-1`; returns its
/// WebSocket address.
fn server() -> String {
    let store = triboard::server::SqliteStore::open_in_memory().unwrap();
    let options = triboard::server::transport::ServeOptions { bots: vec![1], ..Default::default() };
    let server = triboard::server::transport::serve_on("127.0.0.1:0".parse().unwrap(), store, options)
        .expect("the server starts on loopback");
    format!("ws://{}/ws", server.addr)
}

/// Trike on the 7 board, as the start screen's form would choose it.
fn trike() -> Chosen {
    Chosen { game: "trike".into(), options: serde_json::json!({"size": 7}), seats: &["Black", "White"], name: "Trike" }
}

/// A desktop on its start screen whose Play online window is open on `url`.
fn at_lobby(url: &str) -> App {
    let mut app = desktop();
    let mut lobby = app.world_mut().resource_mut::<Lobby>();
    lobby.open = true;
    lobby.server = url.to_string();
    app
}

/// Carries out `action` as the Play online window's system does, with Trike chosen.
fn act(app: &mut App, action: LobbyAction) {
    let world = app.world_mut();
    let mut lobby = world.remove_resource::<Lobby>().unwrap();
    let mut account = world.remove_resource::<Account>().unwrap();
    let mut pages = world.remove_resource::<Pages>().unwrap();
    let mut settings = world.remove_resource::<Settings>().unwrap();
    let mut link = world.remove_non_send::<Link>().unwrap();
    let mut online = Online {
        lobby: &mut lobby,
        account: &mut account,
        pages: &mut pages,
        settings: &mut settings,
        link: &mut link,
    };
    carry_out(action, &mut online, &trike());
    world.insert_resource(lobby);
    world.insert_resource(account);
    world.insert_resource(pages);
    world.insert_resource(settings);
    world.insert_non_send(link);
}

/// Types `name` and `password` into the account form and presses `action` (Sign up or Sign in).
fn sign(app: &mut App, name: &str, password: &str, action: LobbyAction) {
    let mut account = app.world_mut().resource_mut::<Account>();
    account.name = name.to_string();
    account.password = password.to_string();
    act(app, action);
}

/// Updates every app until `done` holds (at most 15 s); false if it never did.
fn until(apps: &mut [&mut App], mut done: impl FnMut(&[&mut App]) -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        for app in apps.iter_mut() {
            app.update();
        }
        if done(apps) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

fn signed_in(app: &App) -> Option<String> {
    app.world().resource::<Account>().signed_in.clone()
}

fn challenges(app: &App) -> Vec<String> {
    let lobby = app.world().resource::<Lobby>();
    lobby.view.as_ref().map_or_else(Vec::new, |v| v.challenges.iter().map(|c| c.game_id.clone()).collect())
}

/// Signs `name` up on `app` and waits until the server says so.
fn signed_up(app: &mut App, name: &str) {
    sign(app, name, "correct horse battery", LobbyAction::SignUp);
    assert!(until(&mut [app], |a| signed_in(a[0]).as_deref() == Some(name)), "{name} is signed in");
}

#[test]
fn signing_up_keeps_the_session_and_a_new_connection_resumes_it_the_password_never_kept() {
    let url = server();
    let folder = std::env::temp_dir().join(format!("triboard-sessions-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let file = SettingsFile(Some(folder.join("settings.json")));
    let mut a = launched(file.clone(), None);
    a.world_mut().resource_mut::<Lobby>().open = true;
    a.world_mut().resource_mut::<Lobby>().server = url.clone();
    let password = "correct horse battery";
    sign(&mut a, "Ann", password, LobbyAction::SignUp);
    assert!(until(&mut [&mut a], |a| signed_in(a[0]).is_some()), "{:?}", a.world().resource::<Account>());
    let sessions = a.world().resource::<Settings>().online.sessions.clone();
    assert_eq!(sessions.len(), 1, "the session is kept");
    assert_eq!((sessions[0].server.as_str(), sessions[0].name.as_str()), (url.as_str(), "Ann"));
    assert_eq!(sessions[0].session.len(), 32, "a 128-bit token");
    assert!(a.world().resource::<Account>().password.is_empty(), "the password is forgotten");
    a.update();
    let kept = std::fs::read_to_string(folder.join("settings.json")).unwrap();
    assert!(kept.contains(&sessions[0].session) && !kept.contains(password), "the file keeps the session only");
    assert!(!format!("{:?}", a.world().resource::<Account>()).contains("password:"), "nor is it printed");
    drop(a);

    // Launched again: the new connection signs in with the session (resume).
    let mut b = launched(file.clone(), None);
    b.world_mut().resource_mut::<Lobby>().open = true;
    assert!(until(&mut [&mut b], |b| signed_in(b[0]).as_deref() == Some("Ann")), "resumed");
    // Signing out forgets it here and ends it on the server.
    act(&mut b, LobbyAction::SignOut);
    assert!(b.world().resource::<Settings>().online.sessions.is_empty());
    assert_eq!(signed_in(&b), None);

    // A wrong password is refused with the server's sentence; a name taken too.
    sign(&mut b, "Ann", "not the password", LobbyAction::LogIn);
    assert!(until(&mut [&mut b], |b| b[0].world().resource::<Account>().said.is_some()));
    let said = b.world().resource::<Account>().said.clone().unwrap();
    assert!(said.error && !said.text.is_empty(), "{said:?}");
    assert_eq!(signed_in(&b), None);
    sign(&mut b, "ann", password, LobbyAction::SignUp);
    assert!(until(&mut [&mut b], |b| b[0].world().resource::<Account>().said.as_ref().is_some_and(|s| s != &said)));
    assert!(b.world().resource::<Account>().said.as_ref().unwrap().error, "a look-alike name is taken");
    sign(&mut b, "Ann", password, LobbyAction::LogIn);
    assert!(until(&mut [&mut b], |b| signed_in(b[0]).as_deref() == Some("Ann")), "the right password signs in");
    drop(b);

    // A session the server does not know is forgotten at the next connection.
    let mut settings = file.load();
    settings.online.sessions[0].session = "0".repeat(32);
    file.save(&settings).unwrap();
    let mut c = launched(file.clone(), None);
    c.world_mut().resource_mut::<Lobby>().open = true;
    assert!(until(&mut [&mut c], |c| c[0].world().resource::<Settings>().online.sessions.is_empty()), "forgotten");
    assert_eq!(signed_in(&c), None);
    assert!(c.world().resource::<Account>().said.as_ref().is_some_and(|s| s.error));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_challenge_posted_is_accepted_from_the_lobby_and_both_boards_name_the_players() {
    let url = server();
    let (mut a, mut b) = (at_lobby(&url), at_lobby(&url));
    signed_up(&mut a, "Ann");
    signed_up(&mut b, "Bob");
    // Ann posts a rated challenge: it waits in both lobbies, hers with Withdraw (her seat held).
    a.world_mut().resource_mut::<Lobby>().rated = true;
    act(&mut a, LobbyAction::Post);
    assert!(until(&mut [&mut a, &mut b], |x| challenges(x[0]).len() == 1 && challenges(x[1]).len() == 1));
    let id = challenges(&b)[0].clone();
    assert_eq!(a.world().resource::<Lobby>().posted.as_ref().map(|p| p.game_id.clone()), Some(id.clone()));
    assert!(!on_board(&a), "the challenge waits in the lobby, not on a board");
    let listed = b.world().resource::<Lobby>().view.clone().unwrap().challenges[0].clone();
    assert!(listed.rated);
    assert_eq!(listed.players, [Some("Ann".to_string()), None]);
    // Bob accepts: both are on their boards, the game on, the names and ratings in the panel.
    act(&mut b, LobbyAction::Accept(id.clone()));
    assert!(until(&mut [&mut a, &mut b], |x| on_board(x[0]) && on_board(x[1])), "both boards");
    assert!(until(&mut [&mut a, &mut b], |x| challenges(x[0]).is_empty() && challenges(x[1]).is_empty()));
    for app in [&a, &b] {
        let game = app.world().resource::<OnlineGame>();
        assert_eq!(game.seat.game_id, id);
        assert!(game.state.as_ref().is_some_and(|s| s.rated));
    }
    let (ga, gb) = (a.world().resource::<OnlineGame>(), b.world().resource::<OnlineGame>());
    // New accounts have no rating in the game yet: the one they start from, provisional.
    assert_eq!(ga.player_label(0), "You (Ann 1500?)");
    assert!(ga.player_label(1).starts_with("Bob"), "{}", ga.player_label(1));
    assert!(gb.player_label(0).starts_with("Ann"), "{}", gb.player_label(0));
    assert!(gb.player_label(1).starts_with("You (Bob"), "{}", gb.player_label(1));
    assert_eq!(b.world().resource::<Model>().seats(), &[Seat::Remote, Seat::Human]);
}

#[test]
fn a_challenge_is_withdrawn_and_a_bot_is_played() {
    let url = server();
    let mut a = at_lobby(&url);
    act(&mut a, LobbyAction::Post);
    assert!(until(&mut [&mut a], |x| challenges(x[0]).len() == 1), "a guest's challenge is listed");
    let id = challenges(&a)[0].clone();
    act(&mut a, LobbyAction::Withdraw(id));
    assert!(until(&mut [&mut a], |x| challenges(x[0]).is_empty()), "withdrawn");
    assert!(a.world().resource::<Settings>().online.games.is_empty(), "its seat is forgotten");
    let bots = a.world().resource::<Lobby>().view.as_ref().unwrap().bots.clone();
    assert_eq!(bots, ["TriboardAI-1"]);
    act(&mut a, LobbyAction::PlayBot(bots[0].clone()));
    assert!(
        until(&mut [&mut a], |x| on_board(x[0])),
        "the bot's game is on the board: {:?}",
        a.world().resource::<Lobby>()
    );
    let game = a.world().resource::<OnlineGame>();
    assert!(game.full(), "the bot took the other seat");
    assert_eq!(game.player_label(1), "TriboardAI-1 1500?", "a bot's first game: the rating it starts from");
}

#[test]
fn a_spectator_follows_the_moves_of_a_live_game_and_cannot_move() {
    let url = server();
    let (mut a, mut b, mut c) = (at_lobby(&url), at_lobby(&url), at_lobby(&url));
    act(&mut a, LobbyAction::Post);
    assert!(until(&mut [&mut a, &mut b], |x| challenges(x[1]).len() == 1));
    let id = challenges(&b)[0].clone();
    act(&mut b, LobbyAction::Accept(id.clone()));
    assert!(until(&mut [&mut a, &mut b], |x| on_board(x[0]) && on_board(x[1])));
    // The game is live in C's lobby; C watches it.
    let live = |app: &App| app.world().resource::<Lobby>().view.as_ref().map_or(0, |v| v.live.len());
    assert!(until(&mut [&mut a, &mut b, &mut c], |x| live(x[2]) == 1), "listed live");
    act(&mut c, LobbyAction::Watch(id.clone()));
    assert!(until(&mut [&mut a, &mut b, &mut c], |x| on_board(x[2])), "C watches: {:?}", c.world().resource::<Lobby>());
    let watched = c.world().resource::<OnlineGame>();
    assert!(watched.watching() && watched.seat.token.is_empty());
    assert_eq!(c.world().resource::<Model>().seats(), &[Seat::Remote, Seat::Remote]);
    assert!(c.world().resource::<Settings>().online.games.is_empty(), "no seat is kept for a game watched");
    // The panel says so where Resign and Rematch stand, and names the players.
    let text = panel_text(c.world().resource::<Model>(), c.world().resource::<OnlineGame>());
    assert!(text.lines().any(|l| l == "Watching"), "{text}");
    assert!(!text.contains("Resign"), "{text}");
    assert_eq!(text.lines().filter(|l| *l == "guest").count(), 2, "both players are guests: {text}");
    // A's and B's moves arrive on C's board; C's press is refused, and nothing is sent.
    press(&mut a, "d7");
    assert!(until(&mut [&mut a, &mut b, &mut c], |x| moves(x[2]) == ["d7"]), "A's move reaches C");
    press(&mut c, "d4");
    c.update();
    let said = c.world().resource::<Status>().clone();
    assert!(said.error && said.text.contains("watching"), "{said:?}");
    press(&mut b, "d4");
    let both = ["d7", "d4"];
    assert!(until(&mut [&mut a, &mut b, &mut c], |x| moves(x[0]) == both && moves(x[2]) == both), "B's move reaches C");
    let game = a.world().resource::<OnlineGame>();
    assert_eq!(game.moves, both, "the server has B's move, not C's: {:?}", game.moves);
    // A resigns: C's board ends too, and C's Rematch does nothing.
    a.world_mut().write_message(triboard::app::online::OnlineOrder::Resign);
    assert!(until(&mut [&mut a, &mut b, &mut c], |x| x[2]
        .world()
        .resource::<InPlay>()
        .0
        .as_ref()
        .is_some_and(|s| s.over)));
    c.world_mut().write_message(triboard::app::online::OnlineOrder::Rematch);
    c.update();
    assert!(c.world().resource::<Status>().text.contains("watching"));
}

/// The text drawn by one frame of `model`'s side panel with `online`, at 1280×800.
fn panel_text(model: &Model, online: &OnlineGame) -> String {
    let ctx = egui::Context::default();
    triboard::app::ui::app_style(&ctx);
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let status = Status::default();
    let mut text = String::new();
    for _ in 0..2 {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
        let input = PanelIn {
            model,
            status: &status,
            progress: None,
            verdict: None,
            searching: None,
            hint: None,
            analyzing: None,
            show_thinking: false,
            lesson: None,
            online: Some(online),
        };
        side_panel::<Trike>(&ctx, &input, &mut windows, &mut rects);
        text = super::texts_drawn(ctx.end_pass()).join("\n");
    }
    text
}

#[test]
fn a_rated_game_shows_the_rating_changes_at_its_end_and_the_pages_list_it() {
    let url = server();
    let (mut a, mut b) = (at_lobby(&url), at_lobby(&url));
    signed_up(&mut a, "Ann");
    signed_up(&mut b, "Bob");
    a.world_mut().resource_mut::<Lobby>().rated = true;
    act(&mut a, LobbyAction::Post);
    assert!(until(&mut [&mut a, &mut b], |x| challenges(x[1]).len() == 1));
    let id = challenges(&b)[0].clone();
    act(&mut b, LobbyAction::Accept(id.clone()));
    assert!(until(&mut [&mut a, &mut b], |x| on_board(x[0]) && on_board(x[1])));
    press(&mut a, "d7");
    assert!(until(&mut [&mut a, &mut b], |x| moves(x[1]) == ["d7"]));
    // Bob moves too (a game resigned before each player moved is aborted, unrated).
    press(&mut b, "d4");
    assert!(until(&mut [&mut a, &mut b], |x| moves(x[0]) == ["d7", "d4"]));
    // Bob resigns: Ann won; both hear each rating's change, shown in the Game over box.
    b.world_mut().write_message(triboard::app::online::OnlineOrder::Resign);
    let rated = |app: &App| app.world().resource::<OnlineGame>().rated.len() == 2;
    assert!(until(&mut [&mut a, &mut b], |x| rated(x[0]) && rated(x[1])), "the changes arrive");
    assert!(until(&mut [&mut a, &mut b], |x| x[0].world().resource::<InPlay>().0.as_ref().is_some_and(|s| s.over)));
    let changes = a.world().resource::<OnlineGame>().rated.clone();
    let ann = changes.iter().find(|c| c.name == "Ann").unwrap();
    assert!(ann.after > ann.before && ann.provisional, "{ann:?}");
    let text = panel_text(a.world().resource::<Model>(), a.world().resource::<OnlineGame>());
    assert!(text.contains("Game over"), "{text}");
    let line = format!("Ann {}? to {}? (+{})", ann.before, ann.after, ann.after - ann.before);
    assert!(text.lines().any(|l| l == line), "{line} in the Game over box: {text}");
    assert!(text.lines().any(|l| l.starts_with("Bob ") && l.contains("(-")), "Bob's loss too: {text}");

    // Back at the lobby: the leaderboard of Trike has Ann first, and her page lists the game won.
    let mut c = at_lobby(&url);
    act(&mut c, LobbyAction::Leaderboard("trike".into()));
    let rows = |app: &App| app.world().resource::<Pages>().leaderboard.clone().map(|(_, rows)| rows);
    assert!(until(&mut [&mut c], |x| rows(x[0]).is_some()), "the leaderboard arrives");
    let names: Vec<String> = rows(&c).unwrap().iter().map(|r| r.name.clone()).collect();
    assert_eq!(names, ["Ann", "Bob"]);
    assert!(rows(&c).unwrap()[0].shown().ends_with('?'), "provisional");
    act(&mut c, LobbyAction::Profile("Ann".into()));
    let profile = |app: &App| app.world().resource::<Pages>().profile.clone();
    assert!(until(&mut [&mut c], |x| profile(x[0]).is_some()), "her page arrives");
    let page = profile(&c).unwrap();
    assert_eq!(page.games.len(), 1);
    assert_eq!(triboard::app::online::players_tab::result_for(&page.games[0], "Ann"), "won");
    assert_eq!(page.ratings[0].game, "trike");
    // Review opens the game on the board, its players named, over: Bob resigned.
    act(&mut c, LobbyAction::Fetch(Box::new(page.games[0].clone()), RecordUse::Review));
    assert!(
        until(&mut [&mut c], |x| x[0]
            .world()
            .get_resource::<Model>()
            .is_some_and(|m| m.record().moves == ["d7", "d4"])),
        "the game is on the board: {:?}",
        c.world().resource::<Status>()
    );
    let model = c.world().resource::<Model>();
    assert_eq!(model.seat_name(0), "Ann");
    assert_eq!(model.seat_name(1), "Bob");
    assert!(model.over() && model.to_move().is_none(), "nobody is to move in a resigned game");
    assert_eq!(model.result_text().as_deref(), Some("White resigned (Black wins)"));
    assert_eq!(model.record().resigned, Some(1), "saved again, it says so");
    assert!(c.world().get_resource::<OnlineGame>().is_none(), "a record to review, not an online game");
    // Nobody here played it: every seat the server's players' (the panel then offers no Undo,
    // New game or Play from here).
    assert!(model.seats().iter().all(|s| *s == Seat::Remote), "{:?}", model.seats());
}
