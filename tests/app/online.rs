//! Online play in the app, headless: two apps (two players' desktops) against an in-process
//! `triboard serve` on 127.0.0.1:0. One creates a game through its Play online window's state,
//! the other joins by the code, and moves made by presses on one board arrive on the other;
//! the server refuses what it must, and a resignation ends the game on both.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use triboard::app::online::OnlineGame;
use triboard::app::online::invitation::JoinAtLaunch;
use triboard::app::online::link::Link;
use triboard::app::online::lobby::Lobby;
use triboard::app::online::words::whose_turn;
use triboard::app::settings::{Settings, SettingsFile};
use triboard::app::{Command, InPlay, MoveIntent, Screen, Seat, Status};
use triboard::rules::trike::{Trike, TrikeMove};

type Model = triboard::app::Model<Trike>;

/// A server on 127.0.0.1:0 with an in-memory database, on its own thread for the test's life;
/// returns its WebSocket address.
pub(super) fn server() -> String {
    let store = triboard::server::SqliteStore::open_in_memory().unwrap();
    let server = triboard::server::transport::serve_on("127.0.0.1:0".parse().unwrap(), store, Default::default())
        .expect("the server starts on loopback");
    format!("ws://{}/ws", server.addr)
}

/// A headless app on its start screen, keeping its settings nowhere.
pub(super) fn desktop() -> App {
    launched(SettingsFile(None), None)
}

/// A headless app on its start screen, keeping its settings in `settings`, launched with `join`
/// (as `TRIBOARD_JOIN` would give it).
pub(super) fn launched(settings: SettingsFile, join: Option<String>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).insert_resource(settings).insert_resource(JoinAtLaunch(join));
    triboard::app::core_plugin(&mut app);
    app.update();
    app
}

/// Runs `f` on the app's lobby, link and settings (as the Play online window does).
pub(super) fn lobby(app: &mut App, f: impl FnOnce(&mut Lobby, &mut Link, &mut Settings)) {
    let world = app.world_mut();
    let mut lobby = world.remove_resource::<Lobby>().unwrap();
    let mut settings = world.remove_resource::<Settings>().unwrap();
    let mut link = world.remove_non_send::<Link>().unwrap();
    f(&mut lobby, &mut link, &mut settings);
    world.insert_resource(lobby);
    world.insert_resource(settings);
    world.insert_non_send(link);
}

/// Updates both apps until `done` holds (at most 10 s); false if it never did.
pub(super) fn until(a: &mut App, b: &mut App, mut done: impl FnMut(&mut App, &mut App) -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        a.update();
        b.update();
        if done(a, b) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

pub(super) fn moves(app: &App) -> Vec<String> {
    app.world().get_resource::<Model>().map_or_else(Vec::new, |m| m.record().moves)
}

pub(super) fn press(app: &mut App, cell: &str) {
    let model = app.world().resource::<Model>();
    let at =
        model.game().geometry().parse(cell).unwrap_or_else(|| panic!("{cell} is not a cell of {:?}", model.record()));
    app.world_mut().write_message(MoveIntent { mv: TrikeMove::to(at), from_ai: false });
}

pub(super) fn on_board(app: &App) -> bool {
    app.world().get_resource::<OnlineGame>().is_some()
        && app.world().get_resource::<Model>().is_some()
        && *app.world().resource::<State<Screen>>().get() == Screen::Playing
}

#[test]
fn a_move_pressed_on_one_desktop_arrives_on_the_other_and_the_server_referees() {
    let url = server();
    let (mut a, mut b) = (desktop(), desktop());
    // A creates a game of Trike on the 7 board, 3 min + 2 s, and takes the first seat.
    lobby(&mut a, |lobby, link, _| {
        lobby.seat = 0;
        lobby.clock = 1;
        lobby.create(link, &url, "trike", serde_json::json!({"size": 7}));
    });
    assert!(until(&mut a, &mut b, |a, _| on_board(a)), "A's game is on its board");
    let code = a.world().resource::<OnlineGame>().seat.code.clone();
    assert_eq!(code.len(), 8, "a join code: {code}");
    assert_eq!(a.world().resource::<Model>().seats(), &[Seat::Human, Seat::Remote]);
    // B joins by the code, typed as a person may (lower case, a dash).
    let typed = format!("{}-{}", code[..4].to_lowercase(), &code[4..]);
    lobby(&mut b, |lobby, link, settings| lobby.join(link, &url, &typed, settings));
    assert!(until(&mut a, &mut b, |_, b| on_board(b)), "B's game is on its board");
    assert_eq!(b.world().resource::<Model>().seats(), &[Seat::Remote, Seat::Human]);
    assert_eq!(b.world().resource::<Settings>().online.games.len(), 1, "B keeps its seat's token");

    // B may not move for A: the board refuses, and nothing goes to the server.
    press(&mut b, "d7");
    b.update();
    let said = b.world().resource::<Status>().clone();
    assert!(said.error && said.text.contains("opponent is to move"), "{said:?}");

    // A presses d7: it arrives on B's board; B answers d4, which arrives on A's.
    press(&mut a, "d7");
    assert!(until(&mut a, &mut b, |_, b| moves(b) == ["d7"]), "A's move reaches B: {:?}", moves(&b));
    assert!(b.world().resource::<Model>().human_to_move(), "then B is to move");
    press(&mut b, "d4");
    assert!(until(&mut a, &mut b, |a, _| moves(a) == ["d7", "d4"]), "B's move reaches A: {:?}", moves(&a));
    assert!(
        until(&mut a, &mut b, |a, b| a.world().resource::<OnlineGame>().moves.len() == 2
            && b.world().resource::<OnlineGame>().moves.len() == 2),
        "both hold the server's two moves"
    );

    // No takebacks online.
    a.world_mut().write_message(Command::Undo);
    a.update();
    assert_eq!(moves(&a), ["d7", "d4"]);
    assert!(a.world().resource::<Status>().text.contains("no takebacks"));

    // A resigns: the server ends the game for both, and no more moves are taken.
    a.world_mut().write_message(triboard::app::online::OnlineOrder::Resign);
    assert!(
        until(&mut a, &mut b, |a, b| a.world().resource::<OnlineGame>().ended().is_some()
            && b.world().resource::<OnlineGame>().ended().is_some()),
        "the resignation reaches both"
    );
    let ended = b.world().resource::<OnlineGame>().ended().unwrap();
    assert!(ended.contains("resigned"), "{ended}");
    // Both boards are over: nobody to move, the status says who resigned and who won, no hint,
    // no takeback, and "Your games" says won and lost.
    assert!(
        until(&mut a, &mut b, |a, b| [a, b].iter().all(|app| app
            .world()
            .resource::<InPlay>()
            .0
            .as_ref()
            .is_some_and(|s| s.over))),
        "the resignation ends both boards"
    );
    for (app, said) in [(&mut a, "lost"), (&mut b, "won")] {
        let model = app.world().resource::<Model>();
        assert_eq!(model.to_move(), None);
        assert!(!model.human_to_move(), "no legal-move marks");
        let status = app.world().resource::<Status>().text.clone();
        assert!(status.contains("Black resigned (White wins)"), "{status}");
        let game = app.world().resource::<OnlineGame>();
        let known = &app.world().resource::<Lobby>().known[&game.seat.game_id];
        assert_eq!(whose_turn(known, game.seat.seat), said);
        for order in [Command::Hint, Command::Undo] {
            app.world_mut().write_message(order.clone());
            app.update();
            assert!(app.world().resource::<Status>().error, "{order:?} is refused");
            assert_eq!(app.world().resource::<Model>().record().moves.len(), 2, "{order:?} changes nothing");
        }
    }
    let before = moves(&a);
    press(&mut a, "c4");
    a.update();
    assert_eq!(moves(&a), before, "no move after the end");

    // A asks for a rematch and is on its board at once, in the other seat; B is told, and its
    // Rematch joins the same game, where B now opens.
    let first = a.world().resource::<OnlineGame>().seat.game_id.clone();
    a.world_mut().write_message(triboard::app::online::OnlineOrder::Rematch);
    let fresh = |app: &App| {
        app.world().get_resource::<OnlineGame>().is_some_and(|g| g.seat.game_id != first)
            && moves(app).is_empty()
            && app.world().get_resource::<Model>().is_some()
    };
    assert!(
        until(&mut a, &mut b, |a, _| fresh(a)),
        "A's rematch is on its board: {:?}, {:?}, {:?}",
        a.world().resource::<Status>(),
        a.world().get_resource::<OnlineGame>().map(|g| (&g.seat, &g.moves)),
        moves(&a)
    );
    assert_eq!(a.world().resource::<Model>().seats(), &[Seat::Remote, Seat::Human], "A moved on a seat");
    let started = |app: &App| app.world().resource::<OnlineGame>().state.as_ref().is_some_and(|s| s.clock_started);
    assert!(!started(&a), "the rematch's clocks wait for B");
    assert!(
        until(&mut a, &mut b, |_, b| b.world().resource::<Status>().text.contains("asks for a rematch")),
        "B is told: {:?}",
        b.world().resource::<Status>()
    );
    b.world_mut().write_message(triboard::app::online::OnlineOrder::Rematch);
    assert!(until(&mut a, &mut b, |_, b| fresh(b)), "B joins the rematch");
    let (ga, gb) = (a.world().resource::<OnlineGame>(), b.world().resource::<OnlineGame>());
    assert_eq!(ga.seat.game_id, gb.seat.game_id);
    assert_eq!((ga.seat.seat, gb.seat.seat), (1, 0));
    // Both at the board: the clocks start, and each side sees the other here.
    assert!(
        until(&mut a, &mut b, |a, b| started(a)
            && started(b)
            && [a, b].iter().all(|app| app.world().resource::<OnlineGame>().online == [true, true])),
        "clocks and presence agree: {:?} / {:?}",
        a.world().resource::<OnlineGame>().online,
        b.world().resource::<OnlineGame>().online
    );
    let full = 180_000;
    let clocks = b.world().resource::<OnlineGame>().clocks_now(Some(0)).expect("a live game");
    assert!(clocks[0] > full - 2_000 && clocks[1] == full, "B's clock starts full: {clocks:?}");
    press(&mut b, "d7");
    assert!(until(&mut a, &mut b, |a, _| moves(a) == ["d7"]), "B's opening move reaches A: {:?}", moves(&a));
}

#[test]
fn a_whole_game_played_across_two_desktops_ends_on_both_and_opens_the_tools() {
    use triboard::rules::Game as _;
    let url = server();
    let (mut a, mut b) = (desktop(), desktop());
    lobby(&mut a, |lobby, link, _| lobby.create(link, &url, "trike", serde_json::json!({"size": 5})));
    assert!(until(&mut a, &mut b, |a, _| on_board(a)));
    let code = a.world().resource::<OnlineGame>().seat.code.clone();
    lobby(&mut b, |lobby, link, settings| lobby.join(link, &url, &code, settings));
    assert!(until(&mut a, &mut b, |_, b| on_board(b)));
    assert!(!a.world().resource::<OnlineGame>().tools_allowed(), "no hints while it runs");
    let mut plies = 0;
    while a.world().resource::<Model>().game().outcome().is_none() {
        // Whoever is to move plays its first legal move; the other board must get it.
        let mover = if a.world().resource::<Model>().human_to_move() { &mut a } else { &mut b };
        let mut legal = Vec::new();
        mover.world().resource::<Model>().game().legal_moves(&mut legal);
        mover.world_mut().write_message(MoveIntent { mv: legal[0], from_ai: false });
        plies += 1;
        assert!(
            until(&mut a, &mut b, |a, b| moves(a).len() == plies && moves(b).len() == plies),
            "move {plies} reaches both boards: {:?} / {:?}",
            moves(&a),
            moves(&b)
        );
        assert!(plies < 100, "a Trike-5 game ends");
    }
    assert!(until(&mut a, &mut b, |a, b| a.world().resource::<OnlineGame>().over()
        && b.world().resource::<OnlineGame>().over()));
    for app in [&a, &b] {
        let game = app.world().resource::<OnlineGame>();
        assert_eq!(game.moves, moves(app), "the board holds the server's moves");
        assert!(game.tools_allowed(), "analysis is open once the game is over");
        assert!(game.allows(&Command::Hint).is_ok());
        assert!(app.world().resource::<Model>().game().outcome().is_some());
    }
}

#[test]
fn the_desktop_speaks_wss_to_a_server_behind_a_tls_proxy() {
    use triboard::app::online::link::LinkState;
    // A plain server answers a TLS hello with nonsense: the handshake fails as TLS, which a build
    // without TLS would refuse before trying ("TLS support not compiled in").
    let url = server().replacen("ws://", "wss://", 1);
    let mut app = desktop();
    let mut link = app.world_mut().remove_non_send::<Link>().unwrap();
    link.want(&url);
    let deadline = Instant::now() + Duration::from_secs(10);
    let why = loop {
        link.poll();
        if let LinkState::Down { why, .. } = link.state() {
            break why.clone();
        }
        assert!(Instant::now() < deadline, "the connection neither opened nor failed: {:?}", link.state());
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(!why.to_lowercase().contains("not compiled"), "{why}");
    assert!(!link.is_open());
}

#[test]
fn a_pasted_link_joins_on_the_server_it_names_not_the_one_in_the_settings() {
    use triboard::app::online::link::{join_link, read_invitation};
    let url = server();
    let (mut a, mut b) = (desktop(), desktop());
    lobby(&mut a, |lobby, link, _| lobby.create(link, &url, "trike", serde_json::json!({"size": 7})));
    assert!(until(&mut a, &mut b, |a, _| on_board(a)), "A's game is on its board");
    let invitation = join_link(&url, &a.world().resource::<OnlineGame>().seat.code);
    // B's Play online window is open on the server its settings name, where nothing listens.
    lobby(&mut b, |lobby, _, settings| {
        settings.online.server = "ws://127.0.0.1:9/ws".into();
        lobby.open = true;
    });
    b.update();
    assert_eq!(b.world().non_send::<Link>().url(), "ws://127.0.0.1:9/ws");
    // B pastes A's link and presses Join: the link's server is used, and stays in use.
    lobby(&mut b, |lobby, link, settings| {
        let (code, server) = read_invitation(&invitation).expect("a link that reads");
        lobby.join(link, &server.expect("a link names its server"), &code, settings);
    });
    assert!(until(&mut a, &mut b, |_, b| on_board(b)), "B's game is on its board: {:?}", b.world().resource::<Lobby>());
    assert_eq!(b.world().non_send::<Link>().url(), url);
    let held = &b.world().resource::<Settings>().online.games;
    assert_eq!(held.len(), 1, "B keeps its seat");
    assert_eq!((held[0].server.as_str(), held[0].seat, held[0].game.as_str()), (url.as_str(), 1, "trike"));
    assert_eq!(b.world().resource::<Settings>().online.server, url, "the server that answered is remembered");
}

/// `triboard serve` itself on 127.0.0.1:0 with a temporary database; killed when dropped.
struct ServeBinary {
    child: std::process::Child,
    url: String,
    _db: super::db::TempDb,
}

impl ServeBinary {
    fn start() -> ServeBinary {
        use std::io::BufRead as _;
        let db = super::db::TempDb::new("app-online", "serve");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_triboard"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(&db.0)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string();
        ServeBinary { child, url: format!("ws://{addr}/ws"), _db: db }
    }
}

impl Drop for ServeBinary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn launched_with_a_link_to_the_real_server_a_client_killed_after_its_seat_is_granted_resumes_it() {
    use triboard::app::online::link::join_link;
    let server = ServeBinary::start();
    let mut a = desktop();
    lobby(&mut a, |lobby, link, _| lobby.create(link, &server.url, "trike", serde_json::json!({"size": 7})));
    let mut idle = desktop();
    assert!(until(&mut a, &mut idle, |a, _| on_board(a)), "A's game is on its board");
    let invitation = join_link(&server.url, &a.world().resource::<OnlineGame>().seat.code);
    // B's settings (kept in a file) name another server; B is launched with A's link.
    let folder = std::env::temp_dir().join(format!("triboard-join-at-launch-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let file = SettingsFile(Some(folder.join("settings.json")));
    let mut settings = Settings::default();
    settings.online.server = "ws://127.0.0.1:9/ws".into();
    file.save(&settings).unwrap();
    let mut b = launched(file.clone(), Some(invitation.clone()));
    // Killed (dropped, nothing more run) in the frame the server's grant is heard.
    let granted = until(&mut a, &mut b, |_, b| !b.world().resource::<Settings>().online.games.is_empty());
    assert!(granted, "the server grants B a seat: {:?}", b.world().resource::<Lobby>());
    drop(b);
    let kept = file.load().online.games;
    assert_eq!(kept.len(), 1, "the seat was written before anything else happened");
    assert_eq!((kept[0].server.as_str(), kept[0].seat), (server.url.as_str(), 1));
    assert!(
        until(&mut a, &mut idle, |a, _| a.world().resource::<OnlineGame>().full()),
        "A hears that its opponent joined"
    );
    // Launched again with the same link: the seat held is resumed, not asked for again.
    let mut b = launched(file.clone(), Some(invitation));
    assert!(until(&mut a, &mut b, |_, b| on_board(b)), "B is back on its board: {:?}", b.world().resource::<Status>());
    assert_eq!(b.world().resource::<Model>().seats(), &[Seat::Remote, Seat::Human]);
    assert_eq!(b.world().resource::<Settings>().online.games.len(), 1, "still one seat");
    press(&mut a, "d7");
    assert!(until(&mut a, &mut b, |_, b| moves(b) == ["d7"]), "A's move reaches B: {:?}", moves(&b));
    press(&mut b, "d4");
    assert!(until(&mut a, &mut b, |a, _| moves(a) == ["d7", "d4"]), "B's move reaches A: {:?}", moves(&a));
    let _ = std::fs::remove_dir_all(&folder);
}
