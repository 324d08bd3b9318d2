//! The start screen's Play online… window's state ([`Lobby`]) and what it asks of the server: the
//! lobby's open challenges and live games (`docs/design.md` §Lobby: accept one, post one and
//! withdraw it, play a bot, watch a game), Create and invite (the game and options chosen in the
//! start screen's form, the person's seat, a clock or none, whether hints are allowed, rated or
//! not), Join (a code or a link), and "Your games": every seat held on this server, to resume. A
//! game ready for the board comes back from [`Lobby::hear`] as an [`OnlineGame`].

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::game::OnlineGame;
use super::link::{Link, default_server, server_url};
use super::secrets::request_id;
use crate::app::settings::{OnlineSeat, Settings};
use crate::net::protocol::{ClientMessage, Clock, LobbyView, NewGame, ServerMessage, Snapshot};

/// While the Play online window is open, the link goes to the lobby's server (as typed, else the
/// one a link or the last game used, else the default), so the window shows whether it answers,
/// and the window follows that server's lobby.
pub(super) fn want_server(mut lobby: ResMut<Lobby>, mut link: NonSendMut<Link>, settings: Res<Settings>) {
    if !lobby.open {
        return;
    }
    if let Ok(url) = lobby.server_url(&settings) {
        link.want(&url);
    }
    if link.is_open() && !lobby.subscribed {
        link.send(&ClientMessage::Lobby {});
        lobby.subscribed = true;
    }
}

/// A time control offered: a live game's Fischer clock, a correspondence game's days per move,
/// or neither (a correspondence game without deadlines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The Fischer clock of a live game.
    pub clock: Option<Clock>,
    /// A correspondence game's days per move (1, 3 or 7).
    pub days_per_move: Option<u32>,
}

/// A live game's Fischer clock: `minutes` + `increment_s` seconds a move.
const fn fischer(minutes: u32, increment_s: u32) -> TimeControl {
    TimeControl { clock: Some(Clock { minutes, increment_s }), days_per_move: None }
}

/// A correspondence game's `days` per move.
const fn days(days: u32) -> TimeControl {
    TimeControl { clock: None, days_per_move: Some(days) }
}

/// The time controls offered: none (correspondence without deadlines), Fischer minutes + seconds
/// a move, or correspondence with days per move (the server flags a seat whose days ran out).
pub const CLOCKS: &[(&str, TimeControl)] = &[
    ("None (correspondence)", TimeControl { clock: None, days_per_move: None }),
    ("3 min + 2 s", fischer(3, 2)),
    ("5 min + 3 s", fischer(5, 3)),
    ("10 min + 5 s", fischer(10, 5)),
    ("15 min + 10 s", fischer(15, 10)),
    ("30 min + 20 s", fischer(30, 20)),
    ("1 day per move", days(1)),
    ("3 days per move", days(3)),
    ("7 days per move", days(7)),
];

/// The Play online window's parts, one shown at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LobbyTab {
    /// Open challenges, live games, bots.
    #[default]
    Lobby,
    /// Create and invite, Join by code.
    Invite,
    /// The seats held on this server.
    Games,
    /// The best players of a game.
    Leaderboard,
    /// A player's page.
    Player,
}

/// What the lobby waits for from the server.
#[derive(Clone, Debug, PartialEq)]
enum Waiting {
    /// A game created: `Created`, then its `State`.
    Create,
    /// A challenge posted: `Created`; it waits in the lobby until someone accepts it.
    Post,
    /// A seat taken by code (or by accepting a challenge: no code): `Joined`, then the `State`.
    Join(String),
    /// The `State` of a game whose seat is known (created, joined, resumed, rematched).
    State(OnlineSeat),
    /// The `State` of a game to watch.
    Watch(String),
}

/// The Play online… window's state.
#[derive(Resource, Debug, Default)]
pub struct Lobby {
    /// The window is open.
    pub open: bool,
    /// The part of the window shown.
    pub tab: LobbyTab,
    /// The server's address as typed.
    pub server: String,
    /// The code or link typed to join.
    pub invitation: String,
    /// The person's seat in a game created.
    pub seat: u8,
    /// The time control of a game created to invite a friend to ([`CLOCKS`]).
    pub clock: usize,
    /// The time control of a challenge posted in the lobby (and a bot's game), its own setting
    /// ([`CLOCKS`]).
    pub post_clock: usize,
    /// Hints, Show thinking and analysis allowed during a game created.
    pub allow_tools: bool,
    /// A game created or posted is rated (only when signed in: the window keeps it so).
    pub rated: bool,
    /// The last refusal or error, in words.
    pub said: Option<String>,
    waiting: Option<Waiting>,
    /// The games of "Your games" as the server last described them, by game id.
    pub known: BTreeMap<String, Snapshot>,
    /// The server's lobby as it last sent it.
    pub view: Option<LobbyView>,
    /// The challenge posted from here, until it is accepted (its game then opens) or withdrawn.
    pub posted: Option<OnlineSeat>,
    /// This connection asked for the lobby (the server sends it again whenever it changes).
    subscribed: bool,
    /// The request waiting for its seat, sent again after a reconnection (its request id makes
    /// the server answer it once).
    request: Option<ClientMessage>,
}

impl Lobby {
    /// True while a create, join, accept, watch or resume waits for the server.
    pub fn waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// Whether the request waiting for its answer carries `request_id` (an error naming it is
    /// this lobby's).
    pub fn asked(&self, request_id: &str) -> bool {
        self.request.as_ref().and_then(ClientMessage::request_id) == Some(request_id)
    }

    /// The game waited for to watch, if any.
    pub fn watching(&self) -> Option<&str> {
        match &self.waiting {
            Some(Waiting::Watch(id)) => Some(id),
            _ => None,
        }
    }

    /// The server's WebSocket address: as typed, else the one last used, else the default.
    pub fn server_url(&self, settings: &Settings) -> Result<String, String> {
        if !self.server.trim().is_empty() {
            return server_url(&self.server);
        }
        if !settings.online.server.is_empty() {
            return Ok(settings.online.server.clone());
        }
        Ok(default_server())
    }

    /// The connection (re)opened: asks for the state of every seat held on this server, for the
    /// lobby while the window is open, and again for what was waited for.
    pub(super) fn on_open(&mut self, link: &mut Link, settings: &Settings) {
        let url = link.url().to_string();
        for seat in settings.online.games.iter().filter(|s| s.server == url) {
            link.send(&ClientMessage::Watch { game_id: seat.game_id.clone() });
        }
        self.subscribed = self.open;
        if self.open {
            link.send(&ClientMessage::Lobby {});
        }
        match &self.waiting {
            Some(Waiting::State(seat)) => link.send(&ClientMessage::Sync {
                game_id: seat.game_id.clone(),
                since_ply: 0,
                token: Some(seat.token.clone()),
            }),
            Some(Waiting::Watch(game_id)) => link.send(&ClientMessage::Watch { game_id: game_id.clone() }),
            Some(_) => {
                if let Some(request) = &self.request {
                    link.send(request);
                }
            }
            None => {}
        }
    }

    /// Sends a request that gives a seat, and waits for its answer.
    fn ask(&mut self, link: &mut Link, request: ClientMessage, waiting: Waiting) {
        link.send(&request);
        self.request = Some(request);
        self.waiting = Some(waiting);
        self.said = None;
    }

    /// A new game of `game` with `options` on the server at `url`: the person's seat, clock,
    /// tools and rating as the window has them; `lobby` lists it as an open challenge, `bots`
    /// seats the server's bots at once.
    fn new_game(&self, game: &str, options: serde_json::Value, lobby: bool, bots: Vec<String>) -> ClientMessage {
        // The Post's own time control for the lobby's games, the Invite's for a friend's.
        let time = CLOCKS.get(if lobby || !bots.is_empty() { self.post_clock } else { self.clock }).map(|c| c.1);
        ClientMessage::Create(NewGame {
            game: game.to_string(),
            options,
            seat: self.seat,
            clock: time.and_then(|t| t.clock),
            days_per_move: time.and_then(|t| t.days_per_move),
            allow_tools: self.allow_tools,
            rated: self.rated,
            lobby,
            bots,
            request_id: Some(request_id()),
        })
    }

    /// Starts a game on the server at `url`, to invite a friend to by its code.
    pub fn create(&mut self, link: &mut Link, url: &str, game: &str, options: serde_json::Value) {
        link.want(url);
        let request = self.new_game(game, options, false, Vec::new());
        self.ask(link, request, Waiting::Create);
    }

    /// Posts an open challenge in the lobby of the server at `url`: it waits there (with
    /// Withdraw) until someone accepts it, and then its game opens.
    pub fn post(&mut self, link: &mut Link, url: &str, game: &str, options: serde_json::Value) {
        link.want(url);
        let request = self.new_game(game, options, true, Vec::new());
        self.ask(link, request, Waiting::Post);
    }

    /// A game against the server's bot `bot`, which takes every other one of the game's `seats`.
    pub fn play_bot(&mut self, link: &mut Link, url: &str, (game, options): (&str, serde_json::Value), bot: &str) {
        link.want(url);
        let seats =
            crate::net::position::replay(&crate::rules::record::Record::of_texts(game, options.clone(), vec![]))
                .map_or(2, |p| p.num_players());
        let request = self.new_game(game, options, false, vec![bot.to_string(); seats.saturating_sub(1)]);
        self.ask(link, request, Waiting::Create);
    }

    /// Accepts the open challenge `game_id`: its first free seat, then its game on the board.
    pub fn accept(&mut self, link: &mut Link, game_id: &str) {
        let request = ClientMessage::Accept { game_id: game_id.to_string(), request_id: Some(request_id()) };
        self.ask(link, request, Waiting::Join(String::new()));
    }

    /// Withdraws the person's open challenge `game_id` (its seat is forgotten).
    pub fn withdraw(&mut self, link: &mut Link, game_id: &str, settings: &mut Settings) {
        let server = link.url().to_string();
        let held = &mut settings.online.games;
        if let Some(seat) = held.iter().find(|s| s.server == server && s.game_id == game_id) {
            link.send(&ClientMessage::Withdraw { game_id: game_id.to_string(), token: seat.token.clone() });
            held.retain(|s| !(s.server == server && s.game_id == game_id));
        }
        if self.posted.as_ref().is_some_and(|p| p.game_id == game_id) {
            self.posted = None;
        }
        self.said = None;
    }

    /// Watches game `game_id` without a seat (or resumes the seat held in it).
    pub fn watch(&mut self, link: &mut Link, game_id: &str, settings: &mut Settings) {
        let server = link.url().to_string();
        if let Some(held) = settings.online.games.iter().find(|s| s.server == server && s.game_id == game_id).cloned() {
            self.resume(held, link, settings);
            return;
        }
        link.send(&ClientMessage::Watch { game_id: game_id.to_string() });
        self.waiting = Some(Waiting::Watch(game_id.to_string()));
        self.said = None;
    }

    /// Takes a seat by `code` on the server at `url` — or resumes the seat held there already.
    /// That server becomes the lobby's (a pasted link names its own, which may not be the one in
    /// the Server field).
    pub fn join(&mut self, link: &mut Link, url: &str, code: &str, settings: &mut Settings) {
        self.server = url.to_string();
        let code = crate::net::protocol::normalize_code(code);
        link.want(url);
        if let Some(held) = settings.online.games.iter().find(|s| s.server == url && s.code == code).cloned() {
            self.resume(held, link, settings);
            return;
        }
        let request = ClientMessage::Join { code: code.clone(), request_id: Some(request_id()) };
        self.ask(link, request, Waiting::Join(code));
    }

    /// Resumes the seat `seat` (held, or just given by a rematch): asks for its game.
    pub fn resume(&mut self, seat: OnlineSeat, link: &mut Link, settings: &mut Settings) {
        self.server.clone_from(&seat.server);
        link.want(&seat.server);
        link.send(&ClientMessage::Sync {
            game_id: seat.game_id.clone(),
            since_ply: 0,
            token: Some(seat.token.clone()),
        });
        keep(settings, &seat);
        self.waiting = Some(Waiting::State(seat));
        self.said = None;
    }

    /// Hears a message that is not about the game on the board; returns the game to put on the
    /// board when one is ready (a seat's, or one to watch).
    pub(super) fn hear(&mut self, message: ServerMessage, server: &str, settings: &mut Settings) -> Option<OnlineGame> {
        let server = server.to_string();
        match (message, self.waiting.take()) {
            // A seat granted is kept before anything else happens (its game's kind comes with the
            // state that follows), so a client that stops now resumes it on its next start.
            (ServerMessage::Created { game_id, code, seat, token }, Some(Waiting::Create)) => {
                let seat = OnlineSeat { server, game_id, token, seat, game: String::new(), code };
                keep(settings, &seat);
                self.waiting = Some(Waiting::State(seat));
                None
            }
            (ServerMessage::Created { game_id, code, seat, token }, Some(Waiting::Post)) => {
                let seat = OnlineSeat { server, game_id, token, seat, game: String::new(), code };
                keep(settings, &seat);
                self.posted = Some(seat);
                self.request = None;
                None
            }
            (ServerMessage::Joined { game_id, seat, token }, Some(Waiting::Join(code))) => {
                let seat = OnlineSeat { server, game_id, token, seat, game: String::new(), code };
                keep(settings, &seat);
                self.waiting = Some(Waiting::State(seat));
                None
            }
            (ServerMessage::State(state), Some(Waiting::State(mut seat))) if state.game_id == seat.game_id => {
                self.request = None;
                seat.game.clone_from(&state.game);
                keep(settings, &seat);
                // The server that answered is the one to use next time.
                if settings.online.server != seat.server {
                    settings.online.server.clone_from(&seat.server);
                }
                self.known.insert(state.game_id.clone(), state.clone());
                Some(OnlineGame::new(seat, state))
            }
            (ServerMessage::State(state), Some(Waiting::Watch(id))) if state.game_id == id => {
                Some(OnlineGame::watched(&server, state))
            }
            (ServerMessage::Error { message, .. }, Some(_)) => {
                self.request = None;
                self.said = Some(message);
                None
            }
            (ServerMessage::Lobby(view), waiting) => {
                self.waiting = waiting;
                self.view = Some(view);
                None
            }
            (ServerMessage::State(state), waiting) => {
                self.waiting = waiting;
                self.known.insert(state.game_id.clone(), state.clone());
                self.accepted(state, settings)
            }
            (_, waiting) => {
                self.waiting = waiting;
                None
            }
        }
    }

    /// The game of the challenge posted from here, once its seats are taken.
    fn accepted(&mut self, state: Snapshot, settings: &mut Settings) -> Option<OnlineGame> {
        let posted = self.posted.as_ref().filter(|p| p.game_id == state.game_id)?;
        if state.outcome.is_some() || !state.players.iter().all(|p| p.taken) {
            return None;
        }
        let mut seat = posted.clone();
        self.posted = None;
        seat.game.clone_from(&state.game);
        keep(settings, &seat);
        Some(OnlineGame::new(seat, state))
    }
}

/// Keeps `seat` among the seats held (replacing an older copy of it).
fn keep(settings: &mut Settings, seat: &OnlineSeat) {
    let held = &mut settings.online.games;
    match held.iter_mut().find(|s| s.server == seat.server && s.game_id == seat.game_id) {
        Some(old) if old == seat => {}
        Some(old) => {
            let code = if seat.code.is_empty() { old.code.clone() } else { seat.code.clone() };
            *old = OnlineSeat { code, ..seat.clone() };
        }
        None => held.push(seat.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_granted_is_kept_before_its_game_arrives() {
        let mut settings = Settings::default();
        let mut lobby = Lobby { waiting: Some(Waiting::Join("ABCD2345".into())), ..Lobby::default() };
        let joined = ServerMessage::Joined { game_id: "g".into(), seat: 1, token: "t".into() };
        assert!(lobby.hear(joined, "ws://127.0.0.1:8099/ws", &mut settings).is_none(), "the game comes next");
        let held = &settings.online.games;
        assert_eq!(held.len(), 1, "the seat's token is kept at once");
        assert_eq!((held[0].server.as_str(), held[0].token.as_str(), held[0].seat), ("ws://127.0.0.1:8099/ws", "t", 1));
        assert_eq!(held[0].code, "ABCD2345");
        let mut lobby = Lobby { waiting: Some(Waiting::Create), ..Lobby::default() };
        let created =
            ServerMessage::Created { game_id: "h".into(), code: "EFGH6789".into(), seat: 0, token: "u".into() };
        lobby.hear(created, "ws://127.0.0.1:8099/ws", &mut settings);
        assert_eq!(settings.online.games.len(), 2, "a game created is kept at once too");
    }
}
