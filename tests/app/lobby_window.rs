//! The Play online window's drawing in a bare `egui::Context` at a 1024×640 screen's size, with
//! pointer and text events where a person would press and type: the account form, the lobby's
//! challenges and live games, the leaderboard and a player's page, and every part inside the
//! window and the screen.

use bevy_egui::egui;
use triboard::app::files::Format;
use triboard::app::flow::Status;
use triboard::app::online::account::Account;
use triboard::app::online::link::LinkState;
use triboard::app::online::lobby::{Lobby, LobbyTab};
use triboard::app::online::pages::{Pages, RecordUse};
use triboard::app::online::window::online_window;
use triboard::app::online::window_in::{Chosen, LobbyAction, WindowIn};
use triboard::app::settings::{OnlineSeat, Settings};
use triboard::app::ui::UiRects;
use triboard::net::protocol::{Clock, GameListing, LobbyView, ProfileView, RatingView};

/// The window a 1024×640 screen gives the app, in points (as `hud.rs`'s `SMALL`).
const SMALL: egui::Vec2 = egui::vec2(1000.0, 568.0);
const URL: &str = "ws://127.0.0.1:8099/ws";

/// What the window is drawn from, owned.
#[derive(Default)]
struct Parts {
    lobby: Lobby,
    account: Account,
    pages: Pages,
    settings: Settings,
    /// The start screen's game: Trike unless set.
    chosen: Option<Chosen>,
}

/// One frame of the window with `events`; returns what was pressed and the text drawn, each piece
/// with whether it was whole inside its clip and the screen.
fn frame(
    ctx: &egui::Context,
    parts: &mut Parts,
    rects: &mut UiRects,
    events: Vec<egui::Event>,
) -> (Vec<LobbyAction>, Vec<(String, bool)>) {
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), events, ..Default::default() });
    let chosen = parts.chosen.clone().unwrap_or_else(|| Chosen {
        game: "trike".into(),
        options: serde_json::json!({"size": 7}),
        seats: &["Black", "White"],
        name: "Trike",
    });
    let mut input = WindowIn {
        lobby: &mut parts.lobby,
        account: &mut parts.account,
        pages: &mut parts.pages,
        settings: &parts.settings,
        link: (URL, &LinkState::Open),
        chosen,
    };
    let actions = online_window(ctx, &mut input, rects);
    let mut output = ctx.end_pass();
    output.textures_delta.clear();
    let text = output
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text) => {
                let rect = text.visual_bounding_rect();
                let whole = clipped.clip_rect.intersect(screen).expand(0.5).contains_rect(rect);
                Some((text.galley.text().to_string(), whole))
            }
            _ => None,
        })
        .collect();
    (actions, text)
}

/// A styled context with the window drawn twice (egui settles a layout over a frame or two).
fn settled(parts: &mut Parts, rects: &mut UiRects) -> (egui::Context, Vec<(String, bool)>) {
    let ctx = egui::Context::default();
    triboard::app::ui::app_style(&ctx);
    let mut text = Vec::new();
    for _ in 0..3 {
        text = frame(&ctx, parts, rects, Vec::new()).1;
    }
    (ctx, text)
}

/// A press and release at the centre of the widget `name`, then a frame with the pointer gone;
/// returns what the frames' presses did.
fn press(ctx: &egui::Context, parts: &mut Parts, rects: &mut UiRects, name: &str) -> Vec<LobbyAction> {
    let at = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn")).center();
    let button = |pressed| crate::primary_button(at, pressed);
    let mut actions = frame(ctx, parts, rects, vec![egui::Event::PointerMoved(at), button(true)]).0;
    actions.extend(frame(ctx, parts, rects, vec![button(false)]).0);
    actions.extend(frame(ctx, parts, rects, vec![egui::Event::PointerGone]).0);
    actions
}

/// Presses the field `name` and types `text` into it.
fn type_into(ctx: &egui::Context, parts: &mut Parts, rects: &mut UiRects, name: &str, text: &str) {
    press(ctx, parts, rects, name);
    frame(ctx, parts, rects, vec![egui::Event::Text(text.to_string())]);
}

fn text_of(drawn: &[(String, bool)]) -> String {
    drawn.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join("\n")
}

fn listing(id: &str, players: &[Option<&str>], ratings: &[Option<i32>], rated: bool, winners: &[u8]) -> GameListing {
    GameListing {
        game_id: id.into(),
        game: "trike".into(),
        options: serde_json::json!({"size": 7}),
        clock: rated.then_some(Clock { minutes: 5, increment_s: 3 }),
        rated,
        players: players.iter().map(|p| p.map(str::to_string)).collect(),
        ratings: ratings.to_vec(),
        provisional: Vec::new(),
        ply: 4,
        winners: winners.to_vec(),
        created_ms: 1_795_000_000_000,
        ..GameListing::default()
    }
}

/// A lobby with three challenges (the second the person's own), one live game, two bots.
fn lobby_parts() -> Parts {
    let mut parts = Parts::default();
    parts.lobby.open = true;
    parts.lobby.view = Some(LobbyView {
        challenges: vec![
            listing("c1", &[Some("Ann"), None], &[Some(1536), None], true, &[]),
            listing("c2", &[Some("guest"), None], &[None, None], false, &[]),
            listing("c3", &[None, Some("Bob")], &[None, Some(1490)], false, &[]),
        ],
        live: vec![listing("l1", &[Some("Ann"), Some("Bob")], &[Some(1536), Some(1490)], true, &[])],
        bots: vec!["TriboardAI-1".into(), "TriboardAI-3".into()],
        online: 7,
    });
    parts.settings.online.games.push(OnlineSeat { server: URL.into(), game_id: "c2".into(), ..Default::default() });
    parts
}

#[test]
fn the_lobby_lists_challenges_and_live_games_and_its_buttons_ask_the_server() {
    let mut parts = lobby_parts();
    let mut rects = UiRects::default();
    let (ctx, drawn) = settled(&mut parts, &mut rects);
    let text = text_of(&drawn);
    for shown in ["Open challenges (3)", "Ann 1536 · (free)", "5+3", "rated", "casual", "(free) · Bob 1490"] {
        assert!(text.contains(shown), "{shown} is drawn: {text}");
    }
    assert!(text.contains("Live games (1)") && text.contains("Ann 1536 · Bob 1490"), "{text}");
    assert!(text.contains("connected · 7 online"), "people online: {text}");
    assert!(text.lines().any(|l| l.starts_with("Trike")), "the game's name: {text}");
    // Signed out: a rated challenge cannot be accepted, nor Rated ticked; a casual one can; the
    // person's own challenge has Withdraw.
    assert!(press(&ctx, &mut parts, &mut rects, "lobby accept 0").is_empty(), "rated: sign in first");
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby accept 1"), [LobbyAction::Withdraw("c2".into())]);
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby accept 2"), [LobbyAction::Accept("c3".into())]);
    press(&ctx, &mut parts, &mut rects, "lobby rated");
    assert!(!parts.lobby.rated, "Rated needs an account");
    parts.account.signed_in = Some("Cid".into());
    frame(&ctx, &mut parts, &mut rects, Vec::new());
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby accept 0"), [LobbyAction::Accept("c1".into())]);
    press(&ctx, &mut parts, &mut rects, "lobby rated");
    assert!(parts.lobby.rated, "signed in, Rated ticks");
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby watch 0"), [LobbyAction::Watch("l1".into())]);
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby bot 1"), [LobbyAction::PlayBot("TriboardAI-3".into())]);
    assert_eq!(press(&ctx, &mut parts, &mut rects, "lobby post"), [LobbyAction::Post]);
    // While a request waits, nothing more is asked.
    parts.lobby.posted = Some(OnlineSeat { game_id: "c2".into(), ..Default::default() });
    assert!(press(&ctx, &mut parts, &mut rects, "lobby post").is_empty(), "one challenge at a time");
}

#[test]
fn the_sign_in_form_sends_the_name_and_a_hidden_password_and_shows_the_servers_refusal() {
    let mut parts = lobby_parts();
    let mut rects = UiRects::default();
    let (ctx, _) = settled(&mut parts, &mut rects);
    assert!(press(&ctx, &mut parts, &mut rects, "online sign up").is_empty(), "nothing typed, nothing sent");
    type_into(&ctx, &mut parts, &mut rects, "online name", "Ann");
    type_into(&ctx, &mut parts, &mut rects, "online password", "tr1angles!");
    assert_eq!((parts.account.name.as_str(), parts.account.password.as_str()), ("Ann", "tr1angles!"));
    let drawn = text_of(&frame(&ctx, &mut parts, &mut rects, Vec::new()).1);
    assert!(drawn.contains("Ann") && !drawn.contains("tr1angles!"), "the password is drawn hidden: {drawn}");
    assert_eq!(press(&ctx, &mut parts, &mut rects, "online sign up"), [LobbyAction::SignUp]);
    assert_eq!(press(&ctx, &mut parts, &mut rects, "online sign in"), [LobbyAction::LogIn]);
    parts.account.said = Some(Status::error("the name or the password is wrong"));
    let (_, drawn) = settled(&mut parts, &mut rects);
    assert!(drawn.iter().any(|(t, whole)| t == "the name or the password is wrong" && *whole), "{drawn:?}");
    // Signed in: the name, My page and Sign out.
    parts.account.signed_in = Some("Ann".into());
    parts.account.said = None;
    let (ctx, drawn) = settled(&mut parts, &mut rects);
    assert!(text_of(&drawn).contains("Signed in as"), "{drawn:?}");
    assert_eq!(press(&ctx, &mut parts, &mut rects, "online sign out"), [LobbyAction::SignOut]);
    assert_eq!(press(&ctx, &mut parts, &mut rects, "online my page"), [LobbyAction::Profile("Ann".into())]);
    assert_eq!(parts.lobby.tab, LobbyTab::Player);
}

fn rating(name: &str, rating: i32, games: u32, provisional: bool) -> RatingView {
    RatingView { name: name.into(), game: "trike".into(), rating, deviation: 90, games, provisional, bot: false }
}

#[test]
fn the_leaderboard_opens_a_players_page_whose_games_open_in_review_or_are_kept() {
    let mut parts = lobby_parts();
    parts.lobby.tab = LobbyTab::Leaderboard;
    let mut rects = UiRects::default();
    // Shown without a leaderboard: it is asked for, for the start screen's game.
    let ctx = egui::Context::default();
    triboard::app::ui::app_style(&ctx);
    let (asked, _) = frame(&ctx, &mut parts, &mut rects, Vec::new());
    assert_eq!(asked, [LobbyAction::Leaderboard("trike".into())]);
    parts.pages.leaderboard =
        Some(("trike".into(), vec![rating("Ann", 1536, 14, false), rating("Bob", 1500, 3, true)]));
    let (ctx, drawn) = settled(&mut parts, &mut rects);
    let lines: Vec<&str> = drawn.iter().map(|(t, _)| t.as_str()).collect();
    for shown in ["1", "2", "Ann", "Bob", "1536", "1500?", "14", "3", "Rating", "Games"] {
        assert!(lines.contains(&shown), "{shown} is drawn: {lines:?}");
    }
    assert_eq!(press(&ctx, &mut parts, &mut rects, "leaderboard name 1"), [LobbyAction::Profile("Bob".into())]);
    assert_eq!(parts.lobby.tab, LobbyTab::Player);

    let won = listing("g1", &[Some("Bob"), Some("Ann")], &[Some(1500), Some(1536)], true, &[0]);
    let running = listing("g2", &[Some("Ann"), Some("Bob")], &[Some(1536), Some(1500)], false, &[]);
    parts.pages.profile = Some(ProfileView {
        name: "Bob".into(),
        bot: false,
        created_ms: 1_795_000_000_000,
        ratings: vec![rating("Bob", 1500, 3, true)],
        games: vec![won.clone(), running],
    });
    let (ctx, drawn) = settled(&mut parts, &mut rects);
    let text = text_of(&drawn);
    for shown in ["Bob", "Trike 1500?", "(3 games)", "Games (2), newest first", "won", "playing", "Review", "Watch"] {
        assert!(text.contains(shown), "{shown} is drawn: {text}");
    }
    assert_eq!(
        press(&ctx, &mut parts, &mut rects, "profile review 0"),
        [LobbyAction::Fetch(Box::new(won.clone()), RecordUse::Review)]
    );
    assert_eq!(
        press(&ctx, &mut parts, &mut rects, "profile save 0"),
        [LobbyAction::Fetch(Box::new(won), RecordUse::Save(Format::Json))]
    );
    assert_eq!(press(&ctx, &mut parts, &mut rects, "profile review 1"), [LobbyAction::Watch("g2".into())]);
    // Where a game was kept is said without moving the rows under the pointer.
    let before = rects.get("profile review 0");
    parts.pages.said =
        Some(Status::info("Saved to /home/someone/.local/share/triboard/games/trike-20261127-095132.json"));
    let (_, drawn) = settled(&mut parts, &mut rects);
    assert!(text_of(&drawn).contains("Saved to"), "{drawn:?}");
    assert_eq!(rects.get("profile review 0"), before, "the rows stay where they were");
}

#[test]
fn on_a_1024x640_screen_every_part_of_the_window_fits() {
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    let mut parts = lobby_parts();
    parts.account.said = Some(Status::error("name_taken: a name like 'Ann' is taken; choose another"));
    let limit = "you have 5 open challenges, the most a player may have: withdraw one first";
    parts.lobby.said = Some(limit.to_string());
    let many = |prefix: &str, n: usize| -> Vec<GameListing> {
        (0..n)
            .map(|k| {
                listing(&format!("{prefix}{k}"), &[Some("Annabelle-the-long"), None], &[Some(1536), None], true, &[])
            })
            .collect()
    };
    if let Some(view) = &mut parts.lobby.view {
        view.challenges = many("c", 12);
        view.live = many("l", 12);
    }
    for k in 0..12 {
        let seat = OnlineSeat {
            server: URL.into(),
            game_id: format!("h{k}"),
            game: "a-kind-of-game-this-build-does-not-know-by-a-long-name".into(),
            code: "ABCD2345".into(),
            ..Default::default()
        };
        parts.settings.online.games.push(seat);
    }
    parts.pages.leaderboard =
        Some(("trike".into(), (0..40).map(|k| rating(&format!("P{k}"), 1600 - k, 12, k > 20)).collect()));
    parts.pages.profile = Some(ProfileView {
        name: "Annabelle-the-long".into(),
        bot: false,
        created_ms: 1_795_000_000_000,
        ratings: ["trike", "trigon-2", "trigon-3", "tri-it-out", "trisq"]
            .iter()
            .map(|g| RatingView { game: g.to_string(), ..rating("Annabelle-the-long", 1536, 12, false) })
            .collect(),
        games: many("p", 30).into_iter().map(|l| GameListing { winners: vec![0], ..l }).collect(),
    });
    let tabs = [
        (LobbyTab::Lobby, &["lobby accept 0", "lobby watch 0", "lobby post", "lobby bot 1", "lobby rated"][..]),
        (LobbyTab::Invite, &["online create", "online join", "online code"][..]),
        (LobbyTab::Games, &["online open 0"][..]),
        (LobbyTab::Leaderboard, &["leaderboard name 0"][..]),
        (LobbyTab::Player, &["profile", "profile review 0", "profile save 0", "profile name"][..]),
    ];
    // The longest game name of the start screen's list, whose Post row must wrap, not widen the
    // window (it did).
    let trigon = Chosen {
        game: "trigon-3".into(),
        options: serde_json::json!({"variant": "trigon-3"}),
        seats: &["Blue", "Yellow", "Red"],
        name: "Blokus Trigon Three-Player",
    };
    for (signed_in, chosen) in [(false, None), (true, None), (true, Some(trigon))] {
        parts.account.signed_in = signed_in.then(|| "Annabelle-the-long".to_string());
        parts.chosen = chosen;
        for (tab, names) in tabs {
            parts.lobby.tab = tab;
            let mut rects = UiRects::default();
            let (_, drawn) = settled(&mut parts, &mut rects);
            let window = rects.get("online window").expect("the window was drawn");
            let width = triboard::app::online::window_in::WIDTH;
            assert!(window.width() < width + 14.0, "{tab:?}: the window keeps its width: {window:?}");
            assert!(screen.contains_rect(window), "{tab:?}: the window {window:?} is inside the screen");
            let account = if signed_in { "online sign out" } else { "online sign up" };
            let always = ["online server", account, "lobby tab lobby", "leaderboard", "lobby tab player"];
            for name in names.iter().chain(&always) {
                let rect = rects.get(name).unwrap_or_else(|| panic!("{tab:?}: {name} was drawn"));
                assert!(window.contains_rect(rect), "{tab:?}: {name} {rect:?} is inside the window {window:?}");
            }
            if tab == LobbyTab::Lobby || tab == LobbyTab::Invite {
                assert!(drawn.iter().any(|(t, whole)| t == limit && *whole), "{tab:?}: the lobby's refusal is whole");
            }
            if !signed_in {
                let said = "name_taken: a name like 'Ann' is taken; choose another";
                assert!(drawn.iter().any(|(t, whole)| t == said && *whole), "{tab:?}: the refusal is whole: {drawn:?}");
            }
        }
    }
}

// --- the clipboard and Join (issue 47)

/// A key message as Bevy's window gives it.
fn key(
    logical_key: bevy::input::keyboard::Key,
    key_code: bevy::input::keyboard::KeyCode,
    pressed: bool,
) -> bevy::input::keyboard::KeyboardInput {
    use bevy::input::ButtonState;
    bevy::input::keyboard::KeyboardInput {
        key_code,
        logical_key,
        state: if pressed { ButtonState::Pressed } else { ButtonState::Released },
        text: None,
        repeat: false,
        window: bevy::prelude::Entity::PLACEHOLDER,
    }
}

/// A quick Ctrl+`letter`: its four key messages, as one frame may bring them all.
fn quick_chord(letter: &str, code: bevy::input::keyboard::KeyCode) -> Vec<bevy::input::keyboard::KeyboardInput> {
    use bevy::input::keyboard::{Key, KeyCode};
    vec![
        key(Key::Control, KeyCode::ControlLeft, true),
        key(Key::Character(letter.into()), code, true),
        key(Key::Character(letter.into()), code, false),
        key(Key::Control, KeyCode::ControlLeft, false),
    ]
}

/// The Play online window open on Invite a friend, drawn and settled.
fn invite_parts() -> (Parts, UiRects, egui::Context) {
    let mut parts = Parts::default();
    parts.lobby.open = true;
    parts.lobby.tab = LobbyTab::Invite;
    let mut rects = UiRects::default();
    let (ctx, _) = settled(&mut parts, &mut rects);
    (parts, rects, ctx)
}

#[test]
fn a_quick_ctrl_chord_selects_or_pastes_and_never_types_its_letter() {
    use bevy::input::keyboard::{Key, KeyCode};
    use bevy_egui::input::ModifierKeysState;
    use triboard::app::clipboard::key_events;
    let (mut parts, mut rects, ctx) = invite_parts();
    type_into(&ctx, &mut parts, &mut rects, "online code", "127.0.0.1:8099");
    assert_eq!(parts.lobby.invitation, "127.0.0.1:8099");
    let link = "http://127.0.0.1:8099/#join=ABCD2345";
    let mut held = ModifierKeysState::default();
    let mut asked = 0;
    // Ctrl+A, its four messages in one frame: everything selected, no "a" typed (the letter once
    // replaced the field: "a127.0.0.1:8099").
    let events: Vec<egui::Event> = quick_chord("a", KeyCode::KeyA)
        .iter()
        .flat_map(|m| {
            key_events(&mut held, m, || {
                asked += 1;
                None
            })
        })
        .collect();
    assert!(!events.iter().any(|e| matches!(e, egui::Event::Text(_))), "no text typed: {events:?}");
    frame(&ctx, &mut parts, &mut rects, events);
    assert_eq!(parts.lobby.invitation, "127.0.0.1:8099", "Ctrl+A types nothing");
    assert_eq!(asked, 0, "the clipboard is read for Ctrl+V only");
    // Ctrl+V: the clipboard's link over the selection, no "v".
    let events: Vec<egui::Event> = quick_chord("v", KeyCode::KeyV)
        .iter()
        .flat_map(|m| key_events(&mut held, m, || Some(link.to_string())))
        .collect();
    assert!(events.contains(&egui::Event::Paste(link.to_string())), "{events:?}");
    frame(&ctx, &mut parts, &mut rects, events);
    assert_eq!(parts.lobby.invitation, link, "Ctrl+V pastes over what Ctrl+A selected");
    // Ctrl+C asks egui to copy; a letter without Ctrl still types, and Shift gives its capital.
    let copy: Vec<egui::Event> =
        quick_chord("c", KeyCode::KeyC).iter().flat_map(|m| key_events(&mut held, m, || None)).collect();
    assert!(copy.contains(&egui::Event::Copy), "{copy:?}");
    let typed: Vec<egui::Event> = [
        key(Key::Shift, KeyCode::ShiftLeft, true),
        key(Key::Character("X".into()), KeyCode::KeyX, true),
        key(Key::Shift, KeyCode::ShiftLeft, false),
        key(Key::Character("y".into()), KeyCode::KeyY, true),
    ]
    .iter()
    .flat_map(|m| key_events(&mut held, m, || None))
    .filter(|e| matches!(e, egui::Event::Text(_)))
    .collect();
    assert_eq!(typed, [egui::Event::Text("X".into()), egui::Event::Text("y".into())]);
}

#[test]
fn the_join_fields_context_menu_pastes() {
    use triboard::app::clipboard::paste_asked;
    let (mut parts, mut rects, ctx) = invite_parts();
    let at = rects.get("online code").expect("the Join field").center();
    let secondary = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Secondary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    frame(&ctx, &mut parts, &mut rects, vec![egui::Event::PointerMoved(at), secondary(true)]);
    frame(&ctx, &mut parts, &mut rects, vec![secondary(false)]);
    frame(&ctx, &mut parts, &mut rects, Vec::new());
    assert!(rects.get("paste").is_some(), "a secondary press opens the field's menu with Paste");
    press(&ctx, &mut parts, &mut rects, "paste");
    assert!(paste_asked(&ctx), "Paste asks for the clipboard's text");
    assert!(!paste_asked(&ctx), "once");
    // The keyboard system then sends it as egui's Paste: it lands in the field.
    frame(&ctx, &mut parts, &mut rects, vec![egui::Event::Paste("ABCD-2345".into())]);
    assert_eq!(parts.lobby.invitation, "ABCD-2345");
}

#[test]
fn a_link_that_does_not_read_is_refused_at_join_and_the_server_field_stays() {
    use triboard::app::online::link::Link;
    use triboard::app::online::lobby_window::{Online, carry_out};
    let (mut parts, mut rects, ctx) = invite_parts();
    parts.lobby.server = "127.0.0.1:8099".into();
    // The mistyped link that once rewrote the Server field to `ws://127.0.0.1:80YFZJ-AQZR99/ws`.
    type_into(&ctx, &mut parts, &mut rects, "online code", "http://127.0.0.1:80YFZJ-AQZR99/#join=YFZJAQZR");
    let actions = press(&ctx, &mut parts, &mut rects, "online join");
    assert_eq!(actions, [LobbyAction::Join]);
    let mut link = Link::default();
    let chosen = Chosen {
        game: "trike".into(),
        options: serde_json::json!({"size": 7}),
        seats: &["Black", "White"],
        name: "Trike",
    };
    let Parts { lobby, account, pages, settings, .. } = &mut parts;
    let mut online = Online { lobby, account, pages, settings, link: &mut link };
    carry_out(LobbyAction::Join, &mut online, &chosen);
    assert_eq!(parts.lobby.server, "127.0.0.1:8099", "the Server field is as it was");
    assert_eq!(link.url(), "", "no connection to the link's address");
    assert!(!parts.lobby.waiting(), "nothing waits");
    let said = parts.lobby.said.clone().expect("the refusal");
    assert!(said.contains("port") && said.contains("80YFZJ-AQZR99"), "{said}");
    let (_, drawn) = frame(&ctx, &mut parts, &mut rects, Vec::new());
    assert!(drawn.iter().any(|(t, whole)| *t == said && *whole), "the reason shows whole at Join: {drawn:?}");
    // A link that reads joins on its server, and the Server field follows it.
    parts.lobby.invitation = "http://127.0.0.1:9/#join=ABCD2345".into();
    let Parts { lobby, account, pages, settings, .. } = &mut parts;
    let mut online = Online { lobby, account, pages, settings, link: &mut link };
    carry_out(LobbyAction::Join, &mut online, &chosen);
    assert_eq!(parts.lobby.server, "ws://127.0.0.1:9/ws");
    assert!(parts.lobby.waiting() && parts.lobby.said.is_none());
}
