//! Online play's client (`docs/design.md` §Network play): the game server is the referee, the
//! board follows it. [`OnlineGame`] is the online game on the board: the seat held (its token),
//! the server's moves, clocks and who is connected. Its systems read the [`link::Link`] each
//! frame: the opponent's moves are played on the board as [`ServerMove`]s (animated as any move),
//! a board out of step with the server gets the server's game ([`Command::Load`]), and the
//! person's moves go to the server ([`sync::next_to_send`]). After a drop the link reconnects by
//! itself and the game is asked for again (`sync` with the seat's token).
//!
//! The start screen's Play online… window ([`lobby`], drawn by [`lobby_window`]) signs in
//! ([`account`]), lists the lobby's challenges and live games, accepts, posts, plays a bot,
//! watches, creates, joins and resumes games, and shows leaderboards and players' pages
//! ([`pages`]); the seats held and the sessions are kept in the settings ([`OnlineSettings`]).
//!
//! [`OnlineSettings`]: super::settings::OnlineSettings

pub mod account;
pub mod account_form;
pub mod game;
pub mod invitation;
pub mod invite_tab;
pub mod link;
pub mod lobby;
pub mod lobby_tab;
pub mod lobby_window;
pub mod pages;
pub mod players_tab;
pub mod secrets;
pub mod sync;
pub mod window;
pub mod window_in;
pub mod words;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use web_time::Instant;

use self::account::Account;
pub use self::game::{OnlineGame, OnlineOrder, Phase, Role};
use self::link::{Heard, Link};
use self::lobby::Lobby;
use self::pages::{Pages, keep_or_open};
use self::sync::{Catch, catch_up, next_to_send};
use super::flow::{Command, Ending, Gate, PlayedPly, Screen, ServerMove, Status, Step};
use super::in_play::InPlay;
use super::session::{OpenRecord, OpenSeats};
use super::settings::{OnlineSeat, Settings};
use crate::ai::Seat;
use crate::net::protocol::{ClientMessage, ServerMessage};

pub(super) fn plugin(app: &mut App) {
    // wss:// on the desktop: rustls with ring (a second install, as in tests with two apps, is
    // refused and harmless).
    #[cfg(not(target_arch = "wasm32"))]
    let _ = rustls::crypto::ring::default_provider().install_default();
    if !app.world().contains_resource::<invitation::JoinAtLaunch>() {
        app.insert_resource(invitation::JoinAtLaunch::from_launch());
    }
    app.init_non_send::<Link>()
        .init_resource::<Lobby>()
        .init_resource::<Account>()
        .init_resource::<Pages>()
        .add_message::<OnlineOrder>()
        .add_systems(Update, (invitation::join_at_launch, lobby::want_server.run_if(in_state(Screen::Menu))).chain())
        .add_systems(Update, pump.in_set(Step::Intents))
        .init_resource::<Gate>()
        .add_systems(Update, carry_out.in_set(Step::Intents).after(pump).run_if(resource_exists::<OnlineGame>))
        .add_systems(Update, keep_gate.in_set(Step::Intents).after(carry_out))
        .add_systems(Update, keep_ending.in_set(Step::Intents).after(pump).run_if(resource_exists::<OnlineGame>))
        .add_systems(Update, send_moves.in_set(Step::View))
        .add_systems(OnEnter(Screen::Menu), leave);
}

/// Those who read the server's messages besides the game on the board: the lobby, the account,
/// the players' pages, and the settings they keep.
#[derive(SystemParam)]
struct Readers<'w> {
    lobby: ResMut<'w, Lobby>,
    account: ResMut<'w, Account>,
    pages: ResMut<'w, Pages>,
    settings: ResMut<'w, Settings>,
}

/// Reads the link: the account's, the pages' and the lobby's answers go to them, the game's to
/// the [`OnlineGame`], which carries out at most one server move a frame (so forced moves the
/// board plays by itself are seen before the server's copy of them).
fn pump(
    mut commands: Commands,
    mut link: NonSendMut<Link>,
    mut readers: Readers,
    game: Option<ResMut<OnlineGame>>,
    in_play: Res<InPlay>,
    mut board: ToBoard,
) {
    let mut game = game;
    let Readers { lobby, account, pages, settings } = &mut readers;
    // A game the lobby put on the board this frame: the rest of this frame's messages about it
    // wait in its inbox.
    let mut fresh: Option<OnlineGame> = None;
    for heard in link.poll() {
        match heard {
            Heard::Opened => {
                account.on_open(&mut link, settings);
                if let Some(game) = game.as_deref_mut() {
                    link.send(&game.sync_message());
                }
                lobby.on_open(&mut link, settings);
            }
            Heard::Unreadable(why) => {
                *board.status = Status::error(format!("the server said something unreadable: {why}"))
            }
            Heard::Message(message) => {
                let message = *message;
                let id = message.game_id().map(str::to_string);
                match &message {
                    ServerMessage::SignedIn { .. } | ServerMessage::SignedOut {} => {
                        account.hear(message, link.url(), settings);
                        continue;
                    }
                    ServerMessage::Error { code, .. } if account.hears_error(*code) => {
                        account.hear(message, link.url(), settings);
                        continue;
                    }
                    ServerMessage::Leaderboard { .. } | ServerMessage::Profile(_) => {
                        pages.hear(message);
                        continue;
                    }
                    // An error names the request or the game it answers (protocol 3): a request's
                    // goes to the lobby that sent it, a game's to that game (below); one that
                    // names neither to whoever waits for an answer.
                    ServerMessage::Error { request_id: Some(request), .. } => {
                        if lobby.asked(request) {
                            lobby.hear(message, link.url(), settings);
                        }
                        continue;
                    }
                    ServerMessage::Error { game_id: None, .. } if pages.waiting() && !lobby.waiting() => {
                        pages.hear(message);
                        continue;
                    }
                    ServerMessage::State(state) if pages.wants(&state.game_id) => {
                        if let Some((record, use_)) = pages.hear(message)
                            && keep_or_open(&mut commands, record, use_, pages)
                        {
                            lobby.open = false;
                        }
                        continue;
                    }
                    ServerMessage::Lobby(view) => {
                        for game in [game.as_deref_mut(), fresh.as_mut()].into_iter().flatten() {
                            game.take_listing(view);
                        }
                    }
                    _ => {}
                }
                let error = matches!(message, ServerMessage::Error { game_id: None, .. }) && !lobby.waiting();
                if let Some(fresh) = fresh.as_mut().filter(|g| id.as_deref() == Some(g.seat.game_id.as_str())) {
                    fresh.inbox.push_back(message);
                } else if let Some(game) =
                    game.as_deref_mut().filter(|g| error || id.as_deref() == Some(g.seat.game_id.as_str()))
                {
                    game.inbox.push_back(message);
                } else if let Some(mut opened) = lobby.hear(message, link.url(), settings) {
                    if let Some(view) = &lobby.view {
                        opened.take_listing(view);
                    }
                    fresh = Some(start(&mut commands, opened, &mut link, lobby));
                }
            }
        }
    }
    if let Some(fresh) = fresh {
        commands.insert_resource(fresh);
        return;
    }
    let Some(mut game) = game else { return };
    if game.connection != *link.state() {
        game.connection = link.state().clone();
    }
    // The board in play is this game's only when it was opened for it (its id, not its look).
    let on_board = in_play.0.as_ref().filter(|s| s.online.as_deref() == Some(game.seat.game_id.as_str()));
    if !game.placed() {
        // Until the board shows this game (opened from the start screen, or over the last one),
        // the server's messages wait.
        if on_board.is_none() {
            return;
        }
        game.phase = Phase::Waiting;
        game.follow_state();
        *board.status = Status::info(game.greeting());
    }
    let Some(summary) = on_board else {
        // Another board replaced this game's (a file opened over it): nothing more is its.
        return;
    };
    let local: &[String] = &summary.record.moves;
    if !game.over()
        && summary.over
        && summary.shown == summary.record.moves.len()
        && catch_up(local, &game.moves) == Catch::InStep
    {
        game.phase = Phase::Over;
    }
    // Read through `Deref` first: an empty inbox leaves the game unchanged, so `send_moves`
    // works only when the board or the game changed.
    if game.inbox.is_empty() {
        return;
    }
    while let Some(message) = game.inbox.pop_front() {
        match message {
            ServerMessage::State(state) => {
                // "Your games" says what the server last said of it (won, lost, whose move).
                lobby.known.insert(state.game_id.clone(), state.clone());
                let was_full = game.full();
                game.take_state(state);
                if !was_full && game.full() {
                    *board.status = Status::info(if game.seats().len() == 2 {
                        "Your opponent has joined: the game is on"
                    } else {
                        "Every seat is taken: the game is on"
                    });
                }
            }
            ServerMessage::Moved { ply, text, clock_ms, deadline_ms, .. } => {
                let ply = ply as usize;
                if ply > game.moves.len() {
                    // A gap: ask for the whole game.
                    link.send(&game.sync_message());
                    continue;
                }
                if ply == game.moves.len() {
                    game.moves.push(text);
                }
                if game.in_flight.is_some_and(|f| f as usize <= ply) {
                    game.in_flight = None;
                }
                if let Some(ms) = clock_ms {
                    game.clock = Some((ms, Instant::now()));
                }
                // A correspondence game's next deadline comes with the move that set it.
                let stored = game.moves.len() as u32;
                if let (Some(deadline), Some(state)) = (deadline_ms, game.state.as_mut()) {
                    (state.deadline_ms, state.ply) = (Some(deadline), stored);
                }
            }
            ServerMessage::Presence { online, .. } => game.online = online,
            // A spectator stays with the game watched.
            ServerMessage::Rematched { .. } if game.watching() => {}
            ServerMessage::Rematched { game_id, .. } if game.phase == Phase::RematchAsked => {
                // The server moves every seat's token on by one seat (the message's seat is the
                // asker's, who may be the other player).
                let seats = game.online.len().max(1) as u8;
                let seat = (game.seat.seat + 1) % seats;
                let next = OnlineSeat { game_id, seat, code: String::new(), ..game.seat.clone() };
                lobby.resume(next, &mut link, settings);
            }
            ServerMessage::Rematched { game_id, .. } => {
                // The other player asked: Rematch (now "Play the rematch") joins it.
                if let Some(state) = &mut game.state {
                    state.rematch = Some(game_id);
                }
                let asker = if game.seats().len() == 2 { "Your opponent" } else { "A player" };
                *board.status = Status::info(format!("{asker} asks for a rematch: press Play the rematch"));
            }
            ServerMessage::Error { message, .. } => {
                *board.status = Status::error(format!("the server refused: {message}"));
                game.in_flight = None;
                link.send(&game.sync_message());
            }
            ServerMessage::Rated { changes, .. } => {
                let said: Vec<String> = changes.iter().map(words::change_words).collect();
                *board.status = Status::info(format!("Ratings: {}", said.join(", ")));
                // The panel's rows show the ratings after the game.
                for change in &changes {
                    let seat = usize::from(change.seat);
                    if let Some(rating) = game.ratings.get_mut(seat) {
                        *rating = Some(change.after);
                    }
                    if game.provisional.len() <= seat {
                        game.provisional.resize(seat + 1, false);
                    }
                    game.provisional[seat] = change.provisional;
                }
                game.rated = changes;
            }
            ServerMessage::Created { .. }
            | ServerMessage::Joined { .. }
            | ServerMessage::SignedIn { .. }
            | ServerMessage::SignedOut {}
            | ServerMessage::Lobby(_)
            | ServerMessage::Leaderboard { .. }
            | ServerMessage::Profile(_) => {}
        }
        // One move a frame: the board plays it (and any move it forces) before the next is read.
        match catch_up(local, &game.moves) {
            Catch::Play(text) => {
                board.served.write(ServerMove(text));
                break;
            }
            Catch::Reload if game.inbox.is_empty() => {
                game.outbox.clear();
                board.orders.write(Command::OpenSeated(game.record(), game.seating()));
                break;
            }
            _ => {}
        }
    }
}

/// What the online systems tell the board: the status line, the server's moves to play and the
/// server's game to load.
#[derive(SystemParam)]
struct ToBoard<'w> {
    status: ResMut<'w, Status>,
    served: MessageWriter<'w, ServerMove>,
    orders: MessageWriter<'w, Command>,
}

/// Puts the online game `game` on the board (from the start screen or over the game in play);
/// returns it, for the caller to insert.
fn start(commands: &mut Commands, game: OnlineGame, link: &mut Link, lobby: &mut Lobby) -> OnlineGame {
    commands.insert_resource(OpenRecord(game.record()));
    commands.insert_resource(OpenSeats(game.seating()));
    // Present at the seat from now on (the server counts a connection that named its token).
    if !game.watching() {
        link.send(&game.sync_message());
    }
    lobby.open = false;
    game
}

/// Sends the person's moves to the server: only a move the person made on this game's board
/// ([`PlayedPly`] of this game's id, at the person's seat, not an AI's), each when the server's
/// moves reach its ply. Moves of any other board are dropped.
fn send_moves(mut played: MessageReader<PlayedPly>, game: Option<ResMut<OnlineGame>>, mut link: NonSendMut<Link>) {
    let Some(mut game) = game else {
        played.clear();
        return;
    };
    for ply in played.read() {
        if ply.online.as_deref() == Some(game.seat.game_id.as_str()) && game.mine(ply.seat) && !ply.from_ai {
            game.outbox.push_back(ply.clone());
        }
    }
    if game.outbox.is_empty() || game.outcome.is_some() {
        return;
    }
    let Role::Player { token, .. } = game.role.clone() else { return };
    let stored = game.moves.len();
    let in_flight = game.in_flight;
    if let Some(ply) = next_to_send(&mut game.outbox, stored, in_flight) {
        link.send(&ClientMessage::Move { game_id: game.seat.game_id.clone(), token, text: ply.text, ply: ply.ply });
        game.in_flight = Some(ply.ply);
    }
}

/// A game the server ended (a resignation, a flag) ends on the board too ([`Command::End`]), once
/// the board holds the server's moves: nobody is to move, the Game over box names the winner.
fn keep_ending(game: Res<OnlineGame>, in_play: Res<InPlay>, mut orders: MessageWriter<Command>) {
    let Some(outcome) = &game.outcome else { return };
    let Some(seat) = outcome.resigned.or(outcome.flagged) else { return };
    let Some(summary) = &in_play.0 else { return };
    if game.placed()
        && summary.online.as_deref() == Some(game.seat.game_id.as_str())
        && !summary.over
        && catch_up(&summary.record.moves, &game.moves) == Catch::InStep
    {
        orders.write(Command::End(Ending { seat, flagged: outcome.resigned.is_none(), aborted: outcome.aborted }));
    }
}

/// Back on the start screen, the online game is left (it goes on on the server: Play online…
/// resumes it from "Your games", which asks the server for its state now); Resume does not bring
/// back a board that lost its server.
fn leave(
    mut commands: Commands,
    mut suspended: ResMut<super::session::Suspended>,
    game: Option<Res<OnlineGame>>,
    mut link: NonSendMut<Link>,
) {
    if let Some(game) = game.filter(|g| !g.watching()) {
        link.send(&ClientMessage::Watch { game_id: game.seat.game_id.clone() });
    }
    commands.remove_resource::<OnlineGame>();
    if suspended.game.as_ref().is_some_and(|g| g.setup.seats.contains(&Seat::Remote)) {
        suspended.game = None;
    }
}

/// The window title of the game in play: "Your move · " before it when the person's seat is to
/// move in an online game.
pub fn title(summary: &super::in_play::Summary, online: Option<&OnlineGame>) -> String {
    match online {
        Some(game) if game.outcome.is_none() && summary.person_to_move && !summary.over => {
            format!("Your move · {}", summary.title)
        }
        _ => summary.title.clone(),
    }
}

/// Keeps the game line's [`Gate`] as the online game on the board has it (none: it refuses
/// nothing), before the moves and commands of the frame are applied.
fn keep_gate(online: Option<Res<OnlineGame>>, mut gate: ResMut<Gate>) {
    gate.set_if_neq(online.map(|game| game.gate()).unwrap_or_default());
}

/// Sends the panel's orders to the server.
fn carry_out(
    mut orders: MessageReader<OnlineOrder>,
    mut game: ResMut<OnlineGame>,
    mut link: NonSendMut<Link>,
    mut status: ResMut<Status>,
) {
    for order in orders.read() {
        let Role::Player { token, .. } = game.role.clone() else {
            *status = Status::error("you are watching this game: only its players resign or ask for a rematch");
            continue;
        };
        let game_id = game.seat.game_id.clone();
        match order {
            OnlineOrder::Resign => {
                link.send(&ClientMessage::Resign { game_id, token });
                *status = Status::info("Resigning…");
            }
            OnlineOrder::Rematch => {
                game.phase = Phase::RematchAsked;
                link.send(&ClientMessage::Rematch { game_id, token });
                *status = Status::info("Asking for a rematch…");
            }
        }
    }
}
