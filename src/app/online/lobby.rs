//! The start screen's Play online… window ([`Lobby`]): the server's address, Create (the game
//! and options chosen in the start screen's form, the person's seat, a clock or none, whether
//! hints are allowed), Join (a code or a link), and "Your games": every seat held on this server,
//! with whose turn it is, to resume. A `#join=CODE` link (the browser's address, or
//! `TRIBOARD_JOIN` on the desktop) joins at launch — or resumes the seat already held there.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::link::{Link, LinkState, default_server, join_link, read_invitation, server_url};
use crate::app::flow::Screen;
use crate::app::settings::{OnlineSeat, Settings};
use crate::net::protocol::{ClientMessage, Clock, ServerMessage, Snapshot};

pub(super) fn plugin(app: &mut App) {
    if !app.world().contains_resource::<JoinAtLaunch>() {
        app.insert_resource(JoinAtLaunch::from_launch());
    }
    app.add_systems(Update, (join_at_launch, want_server.run_if(in_state(Screen::Menu))).chain());
}

/// While the Play online window is open, the link goes to the lobby's server (as typed, else the
/// one a link or the last game used, else the default), so the window shows whether it answers.
fn want_server(lobby: Res<Lobby>, mut link: NonSendMut<Link>, settings: Res<Settings>) {
    if lobby.open
        && let Ok(url) = lobby.server_url(&settings)
    {
        link.want(&url);
    }
}

/// The clocks offered: none (correspondence: days a move), or Fischer minutes + seconds a move.
pub const CLOCKS: &[(&str, Option<Clock>)] = &[
    ("None (correspondence)", None),
    ("3 min + 2 s", Some(Clock { minutes: 3, increment_s: 2 })),
    ("5 min + 3 s", Some(Clock { minutes: 5, increment_s: 3 })),
    ("10 min + 5 s", Some(Clock { minutes: 10, increment_s: 5 })),
    ("15 min + 10 s", Some(Clock { minutes: 15, increment_s: 10 })),
    ("30 min + 20 s", Some(Clock { minutes: 30, increment_s: 20 })),
];

/// What the lobby waits for from the server.
#[derive(Clone, Debug, PartialEq)]
enum Waiting {
    /// A game created: `Created`, then its `State`.
    Create,
    /// A seat taken by code: `Joined`, then the game's `State`.
    Join(String),
    /// The `State` of a game whose seat is known (created, joined, resumed, rematched).
    State(OnlineSeat),
}

/// The Play online… window's state.
#[derive(Resource, Debug, Default)]
pub struct Lobby {
    /// The window is open.
    pub open: bool,
    /// The server's address as typed.
    pub server: String,
    /// The code or link typed to join.
    pub invitation: String,
    /// The person's seat in a game created.
    pub seat: u8,
    /// The clock of a game created ([`CLOCKS`]).
    pub clock: usize,
    /// Hints, Show thinking and analysis allowed during a game created.
    pub allow_tools: bool,
    /// The last refusal or error, in words.
    pub said: Option<String>,
    waiting: Option<Waiting>,
    /// The games of "Your games" as the server last described them, by game id.
    pub known: BTreeMap<String, Snapshot>,
}

impl Lobby {
    /// True while a create, join or resume waits for the server.
    pub fn waiting(&self) -> bool {
        self.waiting.is_some()
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

    /// The connection (re)opened: asks for the state of every seat held on this server.
    pub(super) fn on_open(&mut self, link: &mut Link, settings: &Settings) {
        let url = link.url().to_string();
        for seat in settings.online.games.iter().filter(|s| s.server == url) {
            link.send(&ClientMessage::Watch { game_id: seat.game_id.clone() });
        }
        if let Some(Waiting::State(seat)) = &self.waiting {
            link.send(&ClientMessage::Sync {
                game_id: seat.game_id.clone(),
                since_ply: 0,
                token: Some(seat.token.clone()),
            });
        }
    }

    /// Starts a game on the server at `url`.
    pub fn create(&mut self, link: &mut Link, url: &str, game: &str, options: serde_json::Value) {
        link.want(url);
        link.send(&ClientMessage::Create {
            game: game.to_string(),
            options,
            seat: self.seat,
            clock: CLOCKS.get(self.clock).and_then(|c| c.1),
            allow_tools: self.allow_tools,
            rated: false,
            lobby: false,
            bots: Vec::new(),
            request_id: None,
        });
        self.waiting = Some(Waiting::Create);
        self.said = None;
    }

    /// Takes a seat by `code` on the server at `url` — or resumes the seat held there already.
    /// That server becomes the lobby's (a pasted link names its own, which may not be the one in
    /// the Server field).
    pub fn join(&mut self, link: &mut Link, url: &str, code: &str, settings: &mut Settings) {
        self.server = url.to_string();
        let code = crate::net::protocol::normalize_code(code);
        if let Some(held) = settings.online.games.iter().find(|s| s.server == url && s.code == code).cloned() {
            link.want(url);
            self.resume(held, link, settings);
            return;
        }
        link.want(url);
        link.send(&ClientMessage::Join { code: code.clone(), request_id: None });
        self.waiting = Some(Waiting::Join(code));
        self.said = None;
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

    /// Hears a message that is not about the game on the board; returns a seat and its game to
    /// put on the board when one is ready.
    pub(super) fn hear(
        &mut self,
        message: ServerMessage,
        server: &str,
        settings: &mut Settings,
    ) -> Option<(OnlineSeat, Snapshot)> {
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
            (ServerMessage::Joined { game_id, seat, token }, Some(Waiting::Join(code))) => {
                let seat = OnlineSeat { server, game_id, token, seat, game: String::new(), code };
                keep(settings, &seat);
                self.waiting = Some(Waiting::State(seat));
                None
            }
            (ServerMessage::State(state), Some(Waiting::State(mut seat))) if state.game_id == seat.game_id => {
                seat.game.clone_from(&state.game);
                keep(settings, &seat);
                // The server that answered is the one to use next time.
                if settings.online.server != seat.server {
                    settings.online.server.clone_from(&seat.server);
                }
                self.known.insert(state.game_id.clone(), state.clone());
                Some((seat, state))
            }
            (ServerMessage::Error { message, .. }, Some(_)) => {
                self.said = Some(message);
                None
            }
            (ServerMessage::State(state), waiting) => {
                self.waiting = waiting;
                self.known.insert(state.game_id.clone(), state);
                None
            }
            (_, waiting) => {
                self.waiting = waiting;
                None
            }
        }
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

/// A `#join=CODE` link (or a code) to join at launch: the browser's address, or `TRIBOARD_JOIN`
/// on the desktop, read when the app is built unless one was inserted before (the tests do).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinAtLaunch(pub Option<String>);

impl JoinAtLaunch {
    /// The link the app was launched with, if any.
    pub fn from_launch() -> JoinAtLaunch {
        #[cfg(target_arch = "wasm32")]
        let typed = web_sys::window().and_then(|w| w.location().hash().ok()).filter(|h| h.starts_with("#join="));
        #[cfg(not(target_arch = "wasm32"))]
        let typed = std::env::var("TRIBOARD_JOIN").ok().filter(|t| !t.trim().is_empty());
        JoinAtLaunch(typed)
    }
}

/// The [`JoinAtLaunch`] link, on the first frame: joins, or resumes the seat held for its code,
/// on the server it names.
fn join_at_launch(
    mut done: Local<bool>,
    mut launch: ResMut<JoinAtLaunch>,
    mut lobby: ResMut<Lobby>,
    mut link: NonSendMut<Link>,
    mut settings: ResMut<Settings>,
) {
    if *done {
        return;
    }
    *done = true;
    let Some(typed) = launch.0.take() else {
        // Seats held: connect now, so the start screen can say where it is your move.
        if let Some(server) = settings.online.games.last().map(|s| s.server.clone()) {
            link.want(&server);
        }
        return;
    };
    let (code, server) = read_invitation(&typed);
    let url = match server.map_or_else(|| lobby.server_url(&settings), Ok) {
        Ok(url) => url,
        Err(e) => {
            lobby.said = Some(e);
            lobby.open = true;
            return;
        }
    };
    lobby.open = true;
    lobby.join(&mut link, &url, &code, &mut settings);
}

/// Whose turn it is in a game of "Your games", for the person holding `seat`.
pub fn whose_turn(state: &Snapshot, seat: u8) -> String {
    if let Some(outcome) = &state.outcome {
        return match (outcome.winners.contains(&seat), outcome.flagged == Some(seat)) {
            (true, _) => "won",
            (false, true) => "lost on time",
            (false, false) if outcome.winners.is_empty() => "over",
            (false, false) => "lost",
        }
        .to_string();
    }
    if state.players.iter().any(|p| !p.taken) {
        return "waiting for a player".to_string();
    }
    match state.to_move {
        Some(s) if s == seat => "your move".to_string(),
        Some(_) => "their move".to_string(),
        None => "over".to_string(),
    }
}

/// The connection's state in a few words.
pub fn link_words(state: &LinkState) -> &'static str {
    match state {
        LinkState::Idle => "not connected",
        LinkState::Connecting => "connecting…",
        LinkState::Open => "connected",
        LinkState::Down { .. } => "reconnecting…",
    }
}

/// The invitation to show for a game created: its link, from the server's address.
pub fn invitation(seat: &OnlineSeat) -> Option<String> {
    (!seat.code.is_empty()).then(|| join_link(&seat.server, &seat.code))
}

/// The start screen's line on the seats held: how many games, and in how many it is the
/// person's move (as the server last said); `None` when none is held.
pub fn summary(lobby: &Lobby, settings: &Settings) -> Option<String> {
    let held = &settings.online.games;
    if held.is_empty() {
        return None;
    }
    let yours = held
        .iter()
        .filter(|s| lobby.known.get(&s.game_id).is_some_and(|state| whose_turn(state, s.seat) == "your move"))
        .count();
    let games = if held.len() == 1 { "1 online game".to_string() } else { format!("{} online games", held.len()) };
    Some(match yours {
        0 => games,
        n => format!("{games}: your move in {n}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{GameResult, SeatView};

    fn state(taken: [bool; 2], to_move: Option<u8>, outcome: Option<GameResult>) -> Snapshot {
        Snapshot {
            game_id: "g".into(),
            game: "trike".into(),
            options: serde_json::json!({"size": 7}),
            since_ply: 0,
            moves: Vec::new(),
            ply: 0,
            players: (0..2)
                .map(|s| SeatView { seat: s, name: "Black".into(), taken: taken[s as usize], player: None })
                .collect(),
            to_move,
            outcome,
            clock: None,
            clock_ms: None,
            clock_started: false,
            allow_tools: false,
            rated: false,
            rematch: None,
            rematch_of: None,
        }
    }

    #[test]
    fn a_seat_granted_is_kept_before_its_game_arrives() {
        let mut settings = Settings::default();
        let mut lobby = Lobby { waiting: Some(Waiting::Join("ABCD2345".into())), ..Lobby::default() };
        let joined = ServerMessage::Joined { game_id: "g".into(), seat: 1, token: "t".into() };
        assert_eq!(lobby.hear(joined, "ws://127.0.0.1:8099/ws", &mut settings), None, "the game comes next");
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

    #[test]
    fn your_games_say_whose_turn_it_is() {
        assert_eq!(whose_turn(&state([true, false], Some(0), None), 0), "waiting for a player");
        assert_eq!(whose_turn(&state([true, true], Some(0), None), 0), "your move");
        assert_eq!(whose_turn(&state([true, true], Some(0), None), 1), "their move");
        let won = GameResult { winners: vec![1], scores: vec![], resigned: Some(0), flagged: None };
        assert_eq!(whose_turn(&state([true, true], None, Some(won.clone())), 1), "won");
        assert_eq!(whose_turn(&state([true, true], None, Some(won)), 0), "lost");
        let flag = GameResult { winners: vec![0], scores: vec![], resigned: None, flagged: Some(1) };
        assert_eq!(whose_turn(&state([true, true], None, Some(flag)), 1), "lost on time");

        let seat = |id: &str, seat| OnlineSeat { game_id: id.into(), seat, ..Default::default() };
        let mut settings = Settings::default();
        let mut lobby = Lobby::default();
        assert_eq!(summary(&lobby, &settings), None);
        settings.online.games = vec![seat("g", 0), seat("h", 1)];
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games");
        lobby.known.insert("g".into(), state([true, true], Some(0), None));
        assert_eq!(summary(&lobby, &settings).unwrap(), "2 online games: your move in 1");
    }
}
