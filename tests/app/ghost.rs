//! No move reaches the server that a player did not make on that game's board (issue 47): the
//! real `triboard serve` binary (a private server: no limits per address), two headless app clients, and the server's own record read from
//! its database. The sequence that once played a player's previous first move for her (a game,
//! its rematch, a new invitation, a join) is run 50 times on the same two clients, and random
//! sequences of create, join, move, resign and rematch are checked against what each player made.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command as Process, Stdio};

use bevy::prelude::*;
use proptest::prelude::*;
use triboard::app::online::{OnlineGame, OnlineOrder};
use triboard::app::{Command, MoveIntent, ReviewTo, Status};
use triboard::rules::Game as _;
use triboard::rules::trike::Trike;
use triboard::server::{SqliteStore, Store as _};

use super::online::{desktop, lobby, moves, on_board, press, until};

type Model = triboard::app::Model<Trike>;

/// `triboard serve` on 127.0.0.1:0 with its database in a folder of its own; killed when dropped.
struct Served {
    child: Child,
    url: String,
    db: crate::db::TempDb,
}

impl Served {
    fn start() -> Served {
        let db = crate::db::TempDb::new("app", "ghost");
        let mut child = Process::new(env!("CARGO_BIN_EXE_triboard"))
            .args(["serve", "--addr", "127.0.0.1:0", "--no-limits", "--no-bots", "--db"])
            .arg(&db.0)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string();
        Served { child, url: format!("ws://{addr}/ws"), db }
    }

    /// The moves the server stored for `game_id`, read from its database.
    fn stored(&self, game_id: &str) -> Vec<String> {
        let store = SqliteStore::open(&self.db.0).expect("the server's database opens");
        store.load_game(game_id).expect("reads").map(|g| g.moves).unwrap_or_default()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn game_id(app: &App) -> Option<String> {
    app.world().get_resource::<OnlineGame>().map(|g| g.seat.game_id.clone())
}

/// Whether `app`'s board shows online game `id`, placed.
fn shows(app: &App, id: &str) -> bool {
    on_board(app)
        && app.world().resource::<OnlineGame>().placed()
        && app.world().resource::<OnlineGame>().seat.game_id == id
        && app.world().resource::<triboard::app::InPlay>().0.as_ref().is_some_and(|s| s.online.as_deref() == Some(id))
}

/// A creates an invitation to Trike on the 7 board; B joins it by its code. Returns its id.
fn invite_and_join(url: &str, a: &mut App, b: &mut App) -> String {
    let before = game_id(a);
    lobby(a, |lobby, link, _| {
        lobby.seat = 0;
        lobby.create(link, url, "trike", serde_json::json!({"size": 7}));
    });
    // While the new game opens, A steps back through the last one (a change of the old board,
    // which once passed for the new game's board and sent the old game's first move).
    if on_board(a) {
        a.world_mut().write_message(Command::Review(ReviewTo::Start));
        a.update();
    }
    assert!(
        until(a, b, |a, _| on_board(a) && game_id(a) != before),
        "A's invitation is on its board: {:?}, {:?}",
        a.world().resource::<Status>(),
        a.world().resource::<triboard::app::online::lobby::Lobby>().said
    );
    let id = game_id(a).unwrap();
    let code = a.world().resource::<OnlineGame>().seat.code.clone();
    lobby(b, |lobby, link, settings| lobby.join(link, url, &code, settings));
    assert!(until(a, b, |a, b| shows(a, &id) && shows(b, &id)), "both boards show the invitation's game");
    id
}

/// Updates both apps `frames` times, a few ms apart (messages in flight arrive).
fn idle(a: &mut App, b: &mut App, frames: usize) {
    for _ in 0..frames {
        a.update();
        b.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn resign(resigner: &mut App, other: &mut App) {
    resigner.world_mut().write_message(OnlineOrder::Resign);
    assert!(
        until(resigner, other, |a, b| [a, b].iter().all(|app| app.world().resource::<OnlineGame>().over())),
        "the resignation reaches both"
    );
}

#[test]
fn a_game_its_rematch_and_a_new_invitation_fifty_times_and_no_move_is_made_for_a_player() {
    let served = Served::start();
    let url = served.url.clone();
    let (mut a, mut b) = (desktop(), desktop());
    for round in 0..50 {
        // A game: A opens d7, then resigns.
        let first = invite_and_join(&url, &mut a, &mut b);
        assert_eq!(served.stored(&first), Vec::<String>::new(), "round {round}: no move before a player's");
        press(&mut a, "d7");
        assert!(until(&mut a, &mut b, |_, b| moves(b) == ["d7"]), "round {round}: A's move reaches B");
        resign(&mut a, &mut b);
        // Its rematch: A asks, B joins it; B opens there with d7, and resigns.
        a.world_mut().write_message(OnlineOrder::Rematch);
        assert!(
            until(&mut a, &mut b, |_, b| b.world().resource::<Status>().text.contains("rematch")),
            "round {round}: B hears of the rematch"
        );
        b.world_mut().write_message(OnlineOrder::Rematch);
        assert!(
            until(&mut a, &mut b, |a, b| {
                let (ga, gb) = (game_id(a), game_id(b));
                ga != Some(first.clone()) && ga == gb && shows(a, ga.as_deref().unwrap()) && shows(b, &gb.unwrap())
            }),
            "round {round}: the rematch is on both boards"
        );
        let rematch = game_id(&a).unwrap();
        press(&mut b, "d7");
        assert!(until(&mut a, &mut b, |a, _| moves(a) == ["d7"]), "round {round}: B's move reaches A");
        resign(&mut b, &mut a);
        // A new invitation on an empty board, and the join: nothing is played for anyone.
        let fresh = invite_and_join(&url, &mut a, &mut b);
        idle(&mut a, &mut b, 20);
        assert_eq!(served.stored(&fresh), Vec::<String>::new(), "round {round}: a move nobody made");
        assert!(moves(&a).is_empty() && moves(&b).is_empty(), "round {round}: both boards empty");
        // The first move is the one A makes, and only it.
        press(&mut a, "c5");
        assert!(until(&mut a, &mut b, |_, b| moves(b) == ["c5"]), "round {round}: A's move reaches B");
        assert_eq!(served.stored(&fresh), ["c5"], "round {round}");
        assert_eq!(served.stored(&rematch), ["d7"], "round {round}");
        resign(&mut b, &mut a);
    }
}

/// What a step of [`random_sequences_of_play_send_only_the_moves_players_made`] does, by player
/// 0 (A) or 1 (B).
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A new invitation, which the other player joins.
    Invite(usize),
    /// The first legal move, if that player is to move on its board.
    Move(usize),
    Resign(usize),
    Rematch(usize),
    /// Frames pass.
    Wait,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => (0..2usize).prop_map(Step::Invite),
        3 => (0..2usize).prop_map(Step::Move),
        1 => (0..2usize).prop_map(Step::Resign),
        1 => (0..2usize).prop_map(Step::Rematch),
        1 => Just(Step::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_of_play_send_only_the_moves_players_made(steps in prop::collection::vec(step(), 4..14)) {
        let served = Served::start();
        let url = served.url.clone();
        let mut apps = [desktop(), desktop()];
        // Each game's moves as the players made them on its board.
        let mut made: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for step in steps {
            let [a, b] = &mut apps;
            match step {
                Step::Invite(p) => {
                    let id = if p == 0 { invite_and_join(&url, a, b) } else { invite_and_join(&url, b, a) };
                    made.entry(id).or_default();
                }
                Step::Move(p) => {
                    let app = &mut apps[p];
                    let Some(id) = game_id(app) else { continue };
                    if !shows(app, &id) || !app.world().resource::<Model>().human_to_move() {
                        continue;
                    }
                    let model = app.world().resource::<Model>();
                    let mut legal = Vec::new();
                    model.game().legal_moves(&mut legal);
                    let before = model.texts().len();
                    app.world_mut().write_message(MoveIntent { mv: legal[0], from_ai: false });
                    app.update();
                    let texts = app.world().resource::<Model>().texts();
                    if texts.len() > before && game_id(app).as_deref() == Some(id.as_str()) {
                        let line = made.entry(id).or_default();
                        line.truncate(before);
                        line.push(texts[before].clone());
                    }
                }
                Step::Resign(p) | Step::Rematch(p) => {
                    let order = if matches!(step, Step::Resign(_)) { OnlineOrder::Resign } else { OnlineOrder::Rematch };
                    if apps[p].world().get_resource::<OnlineGame>().is_some() {
                        apps[p].world_mut().write_message(order);
                    }
                    let [a, b] = &mut apps;
                    idle(a, b, 10);
                }
                Step::Wait => idle(a, b, 10),
            }
            // A rematch opened on a board is a game too.
            for app in &apps {
                if let Some(id) = game_id(app) {
                    made.entry(id).or_default();
                }
            }
        }
        let [a, b] = &mut apps;
        idle(a, b, 30);
        // Every move the server stored is the one a player made at that ply on that game's board
        // (a move made may still be refused: a resignation that reached the server first).
        for (id, line) in &made {
            let stored = served.stored(id);
            prop_assert!(line.starts_with(&stored), "game {}: stored {:?}, made {:?}", id, stored, line);
        }
    }
}
