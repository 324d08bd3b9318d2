//! The side panel's drawing in a bare `egui::Context`, frame by frame, with pointer events where a
//! person would press: its buttons keep their place whatever the status says, and an unfinished
//! game is dropped only after Drop.

use bevy_egui::egui;
use triboard::ai::Level;
use triboard::app::Seat;
use triboard::app::hud::{PanelAction, PanelIn, PanelWindows, side_panel};
use triboard::app::learn::Learning;
use triboard::app::online::OnlineGame;
use triboard::app::ui::UiRects;
use triboard::app::{Command, Model, Status};
use triboard::rules::Game;
use triboard::rules::trike::{Trike, TrikeMove, TrikeOptions};

/// One frame of the panel at 1280×800 points with `events`; returns what was pressed.
fn frame(
    ctx: &egui::Context,
    model: &Model<Trike>,
    status: &Status,
    progress: Option<(Level, u64, f32)>,
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    events: Vec<egui::Event>,
) -> Vec<PanelAction<TrikeMove>> {
    frame_in(ctx, &Window::default(), model, status, progress, (windows, rects), events)
}

/// The window a frame is drawn in: its size in points, the lesson in progress, the online game.
struct Window<'a> {
    size: egui::Vec2,
    lesson: Option<&'a Learning>,
    online: Option<&'a OnlineGame>,
}

impl Default for Window<'_> {
    /// 1280×800, no lesson, no online game.
    fn default() -> Self {
        Window { size: egui::vec2(1280.0, 800.0), lesson: None, online: None }
    }
}

/// A context with the app's style ([`triboard::app::ui::app_style`]), as the app draws with.
fn styled() -> egui::Context {
    let ctx = egui::Context::default();
    triboard::app::ui::app_style(&ctx);
    ctx
}

/// The window a 1024×640 screen gives the app, in points: 1000×568 under Xvfb without a window
/// manager (what the screenshots show); a desktop's title bar and task bar take as much.
const SMALL: egui::Vec2 = egui::vec2(1000.0, 568.0);

thread_local! {
    /// The pieces of text the last frame drew, each with whether it was whole inside the window
    /// and its clip.
    static DRAWN: std::cell::RefCell<Vec<(String, bool)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The text the last frame of this thread put on the clipboard (egui's `CopyText`), if any.
    static COPIED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What the last frame of this thread copied to the clipboard.
fn copied() -> Vec<String> {
    COPIED.with(|c| c.borrow().clone())
}

/// The text the last frame of this thread drew, each piece on a line of its own.
fn drawn() -> String {
    DRAWN.with(|d| d.borrow().iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join("\n"))
}

/// The pieces of text the last frame of this thread drew whole, inside the window and not cut.
fn drawn_whole() -> Vec<String> {
    DRAWN.with(|d| d.borrow().iter().filter(|(_, whole)| *whole).map(|(t, _)| t.clone()).collect())
}

/// One frame of the panel in `window` with `events`, into the panel's windows and rectangles;
/// returns what was pressed.
fn frame_in(
    ctx: &egui::Context,
    window: &Window,
    model: &Model<Trike>,
    status: &Status,
    progress: Option<(Level, u64, f32)>,
    (windows, rects): (&mut PanelWindows, &mut UiRects),
    events: Vec<egui::Event>,
) -> Vec<PanelAction<TrikeMove>> {
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, window.size);
    ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), events, ..Default::default() });
    let input = PanelIn {
        model,
        status,
        progress,
        verdict: None,
        searching: None,
        hint: None,
        analyzing: None,
        show_thinking: true,
        lesson: window.lesson,
        online: window.online,
    };
    let (_, actions) = side_panel::<Trike>(ctx, &input, windows, rects);
    let mut output = ctx.end_pass();
    output.textures_delta.clear();
    let shown: Vec<(String, bool)> = output
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
    DRAWN.with(|d| *d.borrow_mut() = shown);
    let copies = output.platform_output.commands.iter().filter_map(|c| match c {
        egui::OutputCommand::CopyText(text) => Some(text.clone()),
        _ => None,
    });
    COPIED.with(|c| *c.borrow_mut() = copies.collect());
    actions
}

/// A press and release at the centre of the widget `name` drew last frame, over two frames;
/// returns what the two frames' presses did.
fn press(
    ctx: &egui::Context,
    model: &Model<Trike>,
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    name: &str,
) -> Vec<PanelAction<TrikeMove>> {
    press_in(ctx, &Window::default(), model, (windows, rects), name)
}

/// [`press`] in `window`.
fn press_in(
    ctx: &egui::Context,
    window: &Window,
    model: &Model<Trike>,
    (windows, rects): (&mut PanelWindows, &mut UiRects),
    name: &str,
) -> Vec<PanelAction<TrikeMove>> {
    let at = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn")).center();
    let status = Status::default();
    let button = |pressed| crate::primary_button(at, pressed);
    let frame = |events, windows: &mut PanelWindows, rects: &mut UiRects| {
        frame_in(ctx, window, model, &status, None, (windows, rects), events)
    };
    let mut actions = frame(vec![egui::Event::PointerMoved(at), button(true)], windows, rects);
    actions.extend(frame(vec![button(false)], windows, rects));
    // A frame with the pointer away, so the next press starts afresh.
    actions.extend(frame(vec![egui::Event::PointerGone], windows, rects));
    actions
}

/// A context with the panel of `model` drawn twice at 1280×800 (egui settles a layout over a
/// frame or two), and the panel's windows and rectangles.
fn settled(model: &Model<Trike>) -> (egui::Context, PanelWindows, UiRects) {
    let ctx = styled();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    for _ in 0..2 {
        frame(&ctx, model, &Status::default(), None, &mut windows, &mut rects, Vec::new());
    }
    (ctx, windows, rects)
}

fn model_with_moves(n: usize) -> Model<Trike> {
    let mut model = Model::<Trike>::with(&TrikeOptions { size: 7 }, &[Seat::Human, Seat::Human]).expect("a board");
    for _ in 0..n {
        let mut moves = Vec::new();
        model.game().legal_moves(&mut moves);
        let mv = *moves.iter().find(|m| m.cell().is_some()).expect("a cell move");
        model.play(mv).expect("legal");
    }
    model
}

const BUTTONS: [&str; 15] = [
    "undo",
    "redo",
    "save",
    "load",
    "menu",
    "new game",
    "rematch",
    "hint",
    "analyze",
    "show thinking",
    "review start",
    "review back",
    "review forward",
    "review end",
    "next mistake",
];

#[test]
fn the_buttons_stay_where_they_are_whatever_the_status_says() {
    let ctx = styled();
    let model = model_with_moves(3);
    let mut windows = PanelWindows::default();
    let mut rects = UiRects::default();
    let long = "Saved to /home/someone/.local/share/triboard/games/trike-20261124-023305.json, \
                which is a long path that takes three lines or more in a narrow panel and would push the buttons"
        .to_string();
    let statuses = [
        (Status::info("Black played c5"), None),
        (Status::info(long.clone()), None),
        (Status::error(long), None),
        (Status::default(), Some((Level::new(3).unwrap(), 12_345, 0.4))),
        (Status::info("x"), None),
    ];
    let mut seen: Option<Vec<egui::Rect>> = None;
    for (status, progress) in statuses {
        // Twice: egui settles a layout over a frame or two.
        for _ in 0..2 {
            frame(&ctx, &model, &status, progress, &mut windows, &mut rects, Vec::new());
        }
        let now: Vec<egui::Rect> = BUTTONS.iter().map(|b| rects.get(b).expect("drawn")).collect();
        match &seen {
            None => seen = Some(now),
            Some(before) => assert_eq!(before, &now, "buttons moved with the status {:?}", status.text),
        }
    }
}

#[test]
fn new_game_on_an_unfinished_game_asks_first_and_keep_playing_keeps_it() {
    let model = model_with_moves(4);
    let (ctx, mut windows, mut rects) = settled(&model);
    let actions = press(&ctx, &model, &mut windows, &mut rects, "new game");
    assert!(actions.is_empty(), "New game on an unfinished game sent {actions:?} without asking");
    assert!(matches!(windows.confirm, Some(Command::NewGame)), "the question is up");
    let actions = press(&ctx, &model, &mut windows, &mut rects, "keep");
    assert!(actions.is_empty(), "Keep playing sent {actions:?}");
    assert!(windows.confirm.is_none(), "the question is gone");

    // Rematch asks too, and Drop sends it.
    let actions = press(&ctx, &model, &mut windows, &mut rects, "rematch");
    assert!(actions.is_empty());
    let actions = press(&ctx, &model, &mut windows, &mut rects, "drop");
    assert!(matches!(actions[..], [PanelAction::Order(Command::Rematch)]), "Drop sent {actions:?}");
    assert!(windows.confirm.is_none());
}

#[test]
fn new_game_on_a_game_without_moves_or_finished_goes_at_once() {
    let ctx = styled();
    let mut windows = PanelWindows::default();
    let mut rects = UiRects::default();
    let fresh = model_with_moves(0);
    for _ in 0..2 {
        frame(&ctx, &fresh, &Status::default(), None, &mut windows, &mut rects, Vec::new());
    }
    let actions = press(&ctx, &fresh, &mut windows, &mut rects, "new game");
    assert!(matches!(actions[..], [PanelAction::Order(Command::NewGame)]), "sent {actions:?}");

    // Menu never asks: it keeps the game.
    let mid = model_with_moves(5);
    let actions = press(&ctx, &mid, &mut windows, &mut rects, "menu");
    assert!(matches!(actions[..], [PanelAction::Order(Command::Menu)]), "sent {actions:?}");
    assert!(windows.confirm.is_none());
}

#[test]
fn the_move_list_keeps_a_turn_of_several_plies_in_one_cell() {
    use triboard::app::games::AppGame;
    use triboard::app::hud::move_list::{rows, turns};
    use triboard::rules::trisq::Trisq;
    let mut model = Model::<Trisq>::with(&Default::default(), &[Seat::Human, Seat::Human]).expect("a board");
    let mut moves = Vec::new();
    // Red's opening turn is one piece; every later turn two (or one and `end`).
    for _ in 0..7 {
        model.game().legal_moves(&mut moves);
        let mv = moves[moves.len() / 2];
        model.play(mv).expect("legal");
    }
    let turns = turns(&model);
    let plies: Vec<usize> = turns.iter().map(|t| t.plies.len()).collect();
    assert_eq!(plies, [1, 2, 2, 2], "{turns:?}");
    assert_ne!(turns[0].swatch, turns[1].swatch, "turns alternate colours");
    assert_eq!(turns[1].swatch, turns[3].swatch);
    let rows = rows(&turns, model.game().turns_per_row());
    assert_eq!(rows.iter().map(|(n, r)| (*n, r.len())).collect::<Vec<_>>(), [(1, 2), (2, 2)], "numbered by rounds");
}

/// A press at the centre of the widget `name` drew last frame, then `events` (typing), over
/// frames at 1280×800; returns what the frames' presses did.
fn press_then(
    ctx: &egui::Context,
    model: &Model<Trike>,
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    name: &str,
    events: Vec<egui::Event>,
) -> Vec<PanelAction<TrikeMove>> {
    let mut actions = press(ctx, model, windows, rects, name);
    actions.extend(frame(ctx, model, &Status::default(), None, windows, rects, events));
    actions.extend(frame(ctx, model, &Status::default(), None, windows, rects, Vec::new()));
    actions
}

fn enter() -> egui::Event {
    egui::Event::Key {
        key: egui::Key::Enter,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    }
}

#[test]
fn a_move_typed_in_the_move_box_is_sent_on_enter_and_the_box_empties() {
    let model = model_with_moves(2);
    let (ctx, mut windows, mut rects) = settled(&model);
    let typed = vec![egui::Event::Text("d4".into())];
    let actions = press_then(&ctx, &model, &mut windows, &mut rects, "move box", typed);
    assert!(actions.is_empty(), "nothing is sent before Enter: {actions:?}");
    assert_eq!(windows.typed, "d4");
    let actions = frame(&ctx, &model, &Status::default(), None, &mut windows, &mut rects, vec![enter()]);
    assert!(matches!(&actions[..], [PanelAction::Text(t)] if t == "d4"), "Enter sends the typed move: {actions:?}");
    assert!(windows.typed.is_empty(), "the box is ready for the next move");
}

#[test]
fn on_a_1024x640_screen_a_lesson_shows_its_buttons_and_its_text() {
    let ctx = styled();
    let learning = Learning::for_game("trike").expect("Trike has a lesson");
    let model = model_with_moves(0);
    let mut windows = PanelWindows::default();
    let mut rects = UiRects::default();
    let window = Window { size: SMALL, lesson: Some(&learning), online: None };
    for _ in 0..2 {
        frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    }
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, window.size);
    for name in ["lesson back", "lesson retry", "lesson next", "lesson leave"] {
        let rect = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn"));
        assert!(screen.contains_rect(rect), "{name} is inside the window: {rect:?}");
    }
    let text = rects.get("lesson text").expect("the lesson's text was drawn");
    assert!(screen.contains_rect(text), "{text:?}");
    assert!(text.height() >= 200.0, "the lesson's text has room: {text:?}");
}

#[test]
fn the_graph_names_the_side_it_plots_whatever_move_review_shows() {
    use triboard::app::hud::graph::caption;
    // White swaps (the pie rule): the first seat plays White from then on, and its curve with it.
    let mut model = model_with_moves(1);
    model.play(TrikeMove::SWAP).expect("the swap is legal on White's first move");
    for _ in 0..4 {
        let mut moves = Vec::new();
        model.game().legal_moves(&mut moves);
        let mv = *moves.iter().find(|m| m.cell().is_some()).expect("a cell move");
        model.play(mv).expect("legal");
    }
    let at_end = caption(&model);
    assert!(at_end.starts_with("White's win rate"), "{at_end}");
    assert!(at_end.contains("Black at the start"), "{at_end}");
    for ply in 0..model.line_len() {
        assert!(model.review_to(ply), "review reaches ply {ply}");
        assert_eq!(caption(&model), at_end, "the same title at ply {ply}");
    }
    let plain = model_with_moves(3);
    assert_eq!(caption(&plain), "Black's win rate after each move");
}

#[test]
fn on_a_1024x640_screen_review_after_analysis_keeps_rows_of_the_move_list_in_view() {
    use triboard::rules::record::{AnalysedMove, Analysis};
    // A finished Trike-5 game, analysed (every third move a mistake).
    let mut model = Model::<Trike>::with(&TrikeOptions { size: 5 }, &[Seat::Human, Seat::Human]).expect("a board");
    while model.game().outcome().is_none() {
        let mut moves = Vec::new();
        model.game().legal_moves(&mut moves);
        let mv = *moves.iter().find(|m| m.cell().is_some()).expect("a cell move");
        model.play(mv).expect("legal");
    }
    let line = model.line();
    let analysed = (0..line.len())
        .map(|k| AnalysedMove { win_rate: 0.5, best: "a1".into(), kept: Some(0.4), mistake: k % 3 == 0 })
        .collect();
    model.keep_analysis(Analysis { simulations: 4000, threshold: 0.1, moves: analysed }, line);
    let end = model.line_len();
    // At the game's end (the Game over box, the analysis just said), and in review at move 3.
    for (ply, said) in [(end, "Analysed 14 moves: 5 mistakes"), (3, "Reviewing: the arrow keys step through the game")]
    {
        model.review_to(ply);
        let ctx = styled();
        let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
        let window = Window { size: SMALL, ..Window::default() };
        for _ in 0..3 {
            let status = Status::info(said);
            frame_in(&ctx, &window, &model, &status, None, (&mut windows, &mut rects), Vec::new());
        }
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, window.size);
        let list = rects.get("move list").expect("the move list was drawn");
        assert!(screen.contains_rect(list.intersect(screen)), "{list:?}");
        // No row cut at the list's top or bottom (a half row once showed at its top).
        let cut: Vec<String> = DRAWN.with(|d| {
            d.borrow()
                .iter()
                .filter(|(t, whole)| !whole && t.strip_suffix('.').is_some_and(|n| n.parse::<usize>().is_ok()))
                .map(|(t, _)| t.clone())
                .collect()
        });
        if ply == end {
            assert!(cut.is_empty(), "rows cut: {cut:?}");
        }
        // The move numbers drawn whole ("1.", "2.", …): at least three rows of the list in view.
        let rows: Vec<String> = drawn_whole()
            .into_iter()
            .filter(|t| t.strip_suffix('.').is_some_and(|n| n.parse::<usize>().is_ok()))
            .collect();
        assert!(rows.len() >= 3, "at move {ply}, three rows of the move list in view, not {rows:?}: {}", drawn());
    }
}

/// An online game of Trike 7 at its second move, the person in the first seat, the opponent
/// connected; and its board.
fn online_game() -> (OnlineGame, Model<Trike>) {
    use triboard::app::settings::OnlineSeat;
    use triboard::net::protocol::{SeatView, Snapshot};
    let mut model = Model::<Trike>::with(&TrikeOptions { size: 7 }, &[Seat::Human, Seat::Remote]).expect("a board");
    let mut moves = Vec::new();
    for text in ["d7", "d4"] {
        moves.push(text.to_string());
        model.play(model.game().parse_move(text).expect("a move")).expect("legal");
    }
    let seat = OnlineSeat {
        server: "ws://127.0.0.1:8080/ws".into(),
        game_id: "g".into(),
        token: "t".into(),
        seat: 0,
        game: "trike".into(),
        code: "ABCD2345".into(),
    };
    let state = Snapshot {
        game_id: "g".into(),
        game: "trike".into(),
        options: serde_json::json!({"size": 7}),
        since_ply: 0,
        ply: 2,
        moves,
        players: ["Black", "White"]
            .iter()
            .map(|n| SeatView { seat: 0, name: n.to_string(), taken: true, player: None })
            .collect(),
        to_move: Some(0),
        outcome: None,
        clock: None,
        clock_ms: None,
        clock_started: false,
        allow_tools: true,
        rated: false,
        rematch: None,
        rematch_of: None,
        ..Snapshot::default()
    };
    let mut game = OnlineGame::new(seat, state);
    game.online = vec![true, true];
    (game, model)
}

#[test]
fn resign_asks_first_and_after_it_the_panel_says_the_game_is_over() {
    use triboard::app::Ending;
    use triboard::app::online::OnlineOrder;
    let (game, mut model) = online_game();
    let ctx = styled();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
    let settle = |model: &Model<Trike>, windows: &mut PanelWindows, rects: &mut UiRects| {
        for _ in 0..2 {
            frame_in(&ctx, &window, model, &Status::default(), None, (windows, rects), Vec::new());
        }
    };
    settle(&model, &mut windows, &mut rects);
    assert!(drawn().contains("to move"), "{}", drawn());
    // One press asks; Keep playing keeps the game; Resign in the question sends it.
    let actions = press_in(&ctx, &window, &model, (&mut windows, &mut rects), "online resign");
    assert!(actions.is_empty(), "nothing is sent on the first press: {actions:?}");
    assert!(drawn().contains("Resign this game?"), "the question is asked: {}", drawn());
    let actions = press_in(&ctx, &window, &model, (&mut windows, &mut rects), "keep");
    assert!(actions.is_empty() && !windows.resign, "Keep playing keeps it: {actions:?}");
    press_in(&ctx, &window, &model, (&mut windows, &mut rects), "online resign");
    let actions = press_in(&ctx, &window, &model, (&mut windows, &mut rects), "drop");
    assert!(matches!(&actions[..], [PanelAction::Online(OnlineOrder::Resign)]), "{actions:?}");

    // The server ended it: the board's game is over, the panel says who won and how.
    assert!(model.end(Ending { seat: 0, flagged: false, aborted: false }));
    assert_eq!(model.to_move(), None);
    assert!(model.person_may_move().is_err(), "no move after a resignation");
    settle(&model, &mut windows, &mut rects);
    let text = drawn();
    assert!(text.contains("Game over"), "a Game over box: {text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("White (") && l.ends_with(") wins")), "the winner named: {text}");
    assert!(lines.contains(&"Black resigned"), "and how: {text}");
    assert!(lines.contains(&"resigned") && lines.contains(&"wins"), "the player rows say it too: {text}");
    assert!(!text.contains("to move"), "nobody is to move: {text}");
    assert!(rects.get("undo").is_none(), "no Undo in an online game");
    for name in ["hint", "online resign"] {
        let actions = press_in(&ctx, &window, &model, (&mut windows, &mut rects), name);
        assert!(actions.is_empty(), "{name} does nothing once the game is over: {actions:?}");
    }
}

#[test]
fn an_aborted_game_says_so_and_names_no_winner() {
    use triboard::app::Ending;
    let (game, mut model) = online_game();
    let ctx = styled();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
    // White left before every player moved: the server aborted the game.
    assert!(model.end(Ending { seat: 1, flagged: false, aborted: true }));
    for _ in 0..2 {
        frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    }
    let text = drawn();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"Aborted: unrated"), "the Game over box says aborted: {text}");
    assert!(lines.contains(&"White resigned"), "and how: {text}");
    assert!(!lines.iter().any(|l| l.ends_with("wins") || *l == "A draw"), "no winner, no draw: {text}");
}

#[test]
fn on_a_1024x640_screen_the_online_box_and_the_settings_fit_the_window() {
    use triboard::app::settings::Look;
    use triboard::app::settings_page::settings_window;
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    // The online box: its buttons, and while a seat is free, the invitation.
    let (mut game, model) = online_game();
    game.connection = triboard::app::online::link::LinkState::Open;
    for free in [false, true] {
        if let Some(state) = &mut game.state {
            state.players[1].taken = !free;
        }
        let ctx = styled();
        let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
        let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
        for _ in 0..2 {
            frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
        }
        let names: &[&str] =
            if free { &["online resign", "online invite"] } else { &["online resign", "online rematch"] };
        for name in names {
            let rect = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn"));
            assert!(screen.contains_rect(rect), "{name} is inside the window: {rect:?}");
        }
        let whole = drawn_whole();
        assert!(whole.iter().any(|t| t == "• all here" || t == "• connected"), "{whole:?}");
        assert!(!free || whole.iter().any(|t| t.contains("ABCD-2345")), "the code to send: {whole:?}");
    }
    // The settings page, over the game.
    let ctx = styled();
    let mut rects = UiRects::default();
    let mut look = Look::default();
    for _ in 0..2 {
        ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
        settings_window(&ctx, &mut look, &mut rects);
        ctx.end_pass().textures_delta.clear();
    }
    for name in ["settings page", "settings close"] {
        let rect = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn"));
        assert!(screen.contains_rect(rect), "{name} is inside the window: {rect:?}");
    }
}

#[test]
fn on_a_1024x640_screen_the_start_screen_shows_its_form_its_buttons_and_its_last_line() {
    use triboard::app::choices::Choices;
    use triboard::app::settings::Settings;
    use triboard::app::start_page::{StartIn, start_page};
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    let mut choices = Choices::with_settings(&Settings::default());
    let names = choices.names();
    let refused = Status::error("No file dialog here (no desktop portal, no zenity): Load… lists the data folder");
    for name in names {
        assert!(choices.choose(name));
        for (status, kept) in [(Status::default(), None), (refused.clone(), Some(("Trike", 12)))] {
            let ctx = styled();
            let mut rects = UiRects::default();
            let mut shown = Vec::new();
            for _ in 0..2 {
                ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
                let mut input = StartIn { choices: &mut choices, kept, online: None, held: 0, status: &status };
                start_page(&ctx, &mut input, &mut rects);
                let mut output = ctx.end_pass();
                output.textures_delta.clear();
                shown = output
                    .shapes
                    .iter()
                    .filter_map(|c| match &c.shape {
                        egui::Shape::Text(t) => Some((t.galley.text().to_string(), t.visual_bounding_rect())),
                        _ => None,
                    })
                    .collect();
            }
            for button in ["start", "resume", "menu open", "menu load", "learn", "menu online", "menu settings"] {
                let rect = rects.get(button).unwrap_or_else(|| panic!("{name}: {button} was drawn"));
                assert!(screen.contains_rect(rect), "{name}: {button} is inside the window: {rect:?}");
            }
            // The last line: the game's summary, or the error in its place.
            let last = shown.iter().max_by(|a, b| a.1.bottom().total_cmp(&b.1.bottom())).expect("text");
            assert!(
                screen.contains_rect(last.1),
                "{name}: the last line {:?} is inside the window: {:?}",
                last.0,
                last.1
            );
            if status.error {
                assert_eq!(last.0, status.text, "{name}: the error is the last line");
            }
        }
    }
}

/// A question shown after another of another size (Resign after "Drop the game in play?") stands
/// where it is drawn from its first visible frame: its buttons' rectangles do not move once
/// recorded, so a press where the button was drawn lands on it (a question that re-centred on its
/// second frame took a press on Resign as a press beside it, in the browser test).
#[test]
fn a_question_after_another_stands_still_from_its_first_frame() {
    use triboard::app::ui::confirm_drop;
    let ctx = styled();
    let mut rects = UiRects::default();
    let frame = |ctx: &egui::Context, rects: &mut UiRects, ask: Option<(&str, &str, &str)>| {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
        if let Some((heading, state, drop)) = ask {
            assert_eq!(confirm_drop(ctx, rects, heading, state, "What happens then.", drop), None);
        }
        ctx.end_pass().textures_delta.clear();
    };
    let long = "Blokus Trigon, 3 players, 41 moves: Blue to move. ".repeat(4);
    for _ in 0..3 {
        frame(&ctx, &mut rects, Some(("Drop the game in play?", &long, "Drop it")));
    }
    let before = rects.get("drop");
    frame(&ctx, &mut rects, None);
    let mut seen = Vec::new();
    for _ in 0..4 {
        frame(&ctx, &mut rects, Some(("Resign this game?", "The other players win.", "Resign")));
        seen.extend(rects.get("drop").filter(|r| Some(*r) != before));
    }
    assert!(!seen.is_empty(), "the Resign button was recorded");
    assert!(seen.iter().all(|r| *r == seen[0]), "the Resign button moved after it was recorded: {seen:?}");
}

// --- online games show what they offer (issue 47)

/// Presses `name` and returns what the two frames copied to the clipboard.
fn press_copies(
    ctx: &egui::Context,
    window: &Window,
    model: &Model<Trike>,
    rects: &mut UiRects,
    name: &str,
) -> Vec<String> {
    let at = rects.get(name).unwrap_or_else(|| panic!("{name} was drawn")).center();
    let button = |pressed| crate::primary_button(at, pressed);
    let mut windows = PanelWindows::default();
    let status = Status::default();
    frame_in(
        ctx,
        window,
        model,
        &status,
        None,
        (&mut windows, rects),
        vec![egui::Event::PointerMoved(at), button(true)],
    );
    let mut all = copied();
    frame_in(ctx, window, model, &status, None, (&mut windows, rects), vec![button(false)]);
    all.extend(copied());
    all
}

#[test]
fn the_invitations_code_and_link_are_copied_by_their_buttons() {
    let (mut game, model) = online_game();
    if let Some(state) = &mut game.state {
        state.players[1].taken = false;
    }
    let ctx = styled();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
    for _ in 0..2 {
        frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    }
    assert!(copied().is_empty());
    assert_eq!(press_copies(&ctx, &window, &model, &mut rects, "online copy code"), ["ABCD-2345"]);
    frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    assert!(drawn().contains("Copied"), "the button says so: {}", drawn());
    let link = "http://127.0.0.1:8080/#join=ABCD2345";
    assert_eq!(press_copies(&ctx, &window, &model, &mut rects, "online copy link"), [link]);
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    for name in ["online copy code", "online copy link"] {
        assert!(screen.contains_rect(rects.get(name).unwrap()), "{name} is inside the window");
    }
}

#[test]
fn an_online_game_offers_one_rematch_no_new_game_or_undo_and_cancel_until_it_has_started() {
    let (mut game, model) = online_game();
    let ctx = styled();
    let frames = |game: &OnlineGame, model: &Model<Trike>| {
        let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
        let window = Window { size: SMALL, online: Some(game), ..Window::default() };
        for _ in 0..2 {
            frame_in(&ctx, &window, model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
        }
        rects
    };
    // Two moves of two seats: started, Resign.
    let rects = frames(&game, &model);
    for name in ["undo", "redo", "new game", "rematch"] {
        assert!(rects.get(name).is_none(), "no {name} in an online game");
    }
    for name in ["online rematch", "online resign", "menu", "save"] {
        assert!(rects.get(name).is_some(), "{name} is there");
    }
    let text = drawn();
    assert_eq!(text.lines().filter(|l| l.contains("Rematch")).count(), 1, "one Rematch: {text}");
    assert!(text.lines().any(|l| l == "Resign") && !text.lines().any(|l| l == "Cancel"), "{text}");
    // One move of two: not started, Cancel (the same order), and its question says so.
    game.moves.truncate(1);
    let mut windows = PanelWindows::default();
    let mut rects = frames(&game, &model);
    assert!(drawn().lines().any(|l| l == "Cancel") && !drawn().lines().any(|l| l == "Resign"), "{}", drawn());
    let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
    press_in(&ctx, &window, &model, (&mut windows, &mut rects), "online resign");
    assert!(drawn().contains("Cancel this game?") && drawn().contains("nothing is rated"), "{}", drawn());
    let actions = press_in(&ctx, &window, &model, (&mut windows, &mut rects), "drop");
    assert!(matches!(&actions[..], [PanelAction::Online(triboard::app::online::OnlineOrder::Resign)]), "{actions:?}");
    // A game of the server's players opened to review (from a player's page: every seat the
    // server's) offers no Undo, Redo or New game either.
    let mut reviewed = Model::<Trike>::with(&TrikeOptions { size: 7 }, &[Seat::Remote, Seat::Remote]).unwrap();
    reviewed.play(reviewed.game().parse_move("d7").unwrap()).unwrap();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    frame(&ctx, &reviewed, &Status::default(), None, &mut windows, &mut rects, Vec::new());
    for name in ["undo", "redo", "new game", "rematch"] {
        assert!(rects.get(name).is_none(), "no {name} in a reviewed server game");
    }
    // A local game keeps its buttons.
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    frame(&ctx, &model, &Status::default(), None, &mut windows, &mut rects, Vec::new());
    for name in ["undo", "redo", "new game", "rematch"] {
        assert!(rects.get(name).is_some(), "{name} in a local game");
    }
}

#[test]
fn after_a_pie_rule_swap_the_clocks_follow_the_colours() {
    use triboard::app::hud::online::{ClockLook, clock_label, clock_look, clock_text};
    let (mut game, _) = online_game();
    // Trike 7 after d7 and Swap: the first seat (the person's) now plays White.
    let mut model_swapped = Model::<Trike>::with(&TrikeOptions { size: 7 }, &[Seat::Human, Seat::Remote]).unwrap();
    model_swapped.play(model_swapped.game().parse_move("d7").unwrap()).unwrap();
    model_swapped.play(TrikeMove::SWAP).unwrap();
    game.moves = vec!["d7".into(), "swap".into()];
    game.clock = Some((vec![120_000, 95_000], web_time::Instant::now()));
    let ctx = styled();
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let window = Window { size: SMALL, online: Some(&game), ..Window::default() };
    for _ in 0..2 {
        frame_in(&ctx, &window, &model_swapped, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    }
    let text = drawn();
    assert!(text.lines().any(|l| l == "You (White) 2:00"), "the person's clock names the colour played now: {text}");
    assert!(text.lines().any(|l| l == "Black 1:35"), "and the other seat's: {text}");
    // Before the swap: the colours as dealt.
    assert_eq!(clock_label(&game, &["Black", "White"], 0, 120_000), "You (Black) 2:00");
    // The clock under ten seconds: tenths and the warning colour, while it runs.
    assert_eq!(clock_text(9_450), "0:09.4");
    assert_eq!(clock_look(9_999, true), ClockLook::Warning);
    assert_eq!(clock_look(10_000, true), ClockLook::Running);
    assert_eq!(clock_look(3_000, false), ClockLook::Still);
}

#[test]
fn on_a_1024x640_screen_the_player_rows_words_are_whole() {
    // "to move" once overhung the panel's edge by a point, its last letter cut.
    let ctx = styled();
    let model = model_with_moves(3);
    let (mut windows, mut rects) = (PanelWindows::default(), UiRects::default());
    let window = Window { size: SMALL, ..Window::default() };
    for _ in 0..2 {
        frame_in(&ctx, &window, &model, &Status::default(), None, (&mut windows, &mut rects), Vec::new());
    }
    let whole = drawn_whole();
    assert!(whole.iter().any(|t| t == "to move"), "{:?}", DRAWN.with(|d| d.borrow().clone()));
}

#[test]
fn the_ais_progress_names_no_simulations_before_the_first_report() {
    use triboard::app::hud::side::thinking_words;
    let level = Level::new(3).unwrap();
    // "0 simulations" beside a bar at 47 % read as a stalled search.
    assert_eq!(thinking_words(false, level, 0), format!("AI {level} is thinking…"));
    assert_eq!(thinking_words(false, level, 1), format!("AI {level} is thinking… 1 simulation"));
    assert_eq!(thinking_words(true, level, 2500), "Looking for a hint… 2500 simulations");
}
