//! The network tests' harness (`tests/serve.rs`, `tests/instances.rs`): the real `triboard serve`
//! binary on a database of either store ([`Db`]: a temporary SQLite file, or a fresh database on
//! the test PostgreSQL cluster), clients speaking the protocol over WebSockets (tokio-tungstenite)
//! as the app and the browser do, and a game played by two connections ([`Match`]).

#![allow(dead_code)] // each test binary uses a different part of this module

use std::ffi::OsString;
use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use triboard::net::position::{Position, start};
use triboard::net::protocol::{
    ClientMessage, Clock, ErrorCode, NewGame, ServerMessage, Snapshot, decode_server, encode_client,
};
use triboard::rules::rng_from_seed;
use triboard::server::store::{Store, StoredGame};
use triboard::server::{PgStore, SqliteStore};

use super::db::TempDb;

/// Runs `f` on a thread of its own: the PostgreSQL client starts a runtime, which it cannot do on
/// a tokio test's thread.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| s.spawn(f).join().expect("no panic"))
}

/// A test's database: a temporary SQLite file, or a fresh PostgreSQL database.
pub enum Db {
    /// The file, removed when dropped.
    Sqlite(TempDb),
    /// The database's URL and the name of the test it is for.
    Postgres(String, String),
}

impl Db {
    /// A temporary SQLite file for test `name`.
    pub fn sqlite(name: &str) -> Db {
        Db::Sqlite(TempDb::new("serve", name))
    }

    /// A fresh database on the test PostgreSQL cluster for test `name`; `None` (the test is
    /// skipped, said on stderr) if PostgreSQL is not installed and this is not CI.
    pub fn postgres(name: &str) -> Option<Db> {
        match off_runtime(|| triboard::server::throwaway_pg::test_database(name)) {
            Some(url) => Some(Db::Postgres(url, name.into())),
            None => {
                eprintln!("{name}: skipped on PostgreSQL (not installed; CI installs it)");
                None
            }
        }
    }

    /// What `--db` is given.
    pub fn arg(&self) -> OsString {
        match self {
            Db::Sqlite(file) => file.0.clone().into(),
            Db::Postgres(url, _) => url.into(),
        }
    }

    /// A new log file's path for a server on this database.
    fn new_log(&self) -> PathBuf {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let name = match self {
            Db::Sqlite(file) => file.0.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            Db::Postgres(_, name) => format!("pg-{name}"),
        };
        std::env::temp_dir().join(format!("triboard-{name}-{}-{nanos}.log", std::process::id()))
    }

    /// The store, opened on a connection of its own.
    pub fn open(&self) -> Box<dyn Store + Send> {
        match self {
            Db::Sqlite(file) => Box::new(SqliteStore::open(&file.0).expect("the file opens")),
            Db::Postgres(url, _) => Box::new(PgStore::connect(url).expect("the database opens")),
        }
    }

    /// The game as stored.
    pub fn game(&self, game_id: &str) -> StoredGame {
        off_runtime(|| self.open().load_game(game_id).unwrap().expect("the game is stored"))
    }

    /// The moves stored for a game.
    pub fn stored_moves(&self, game_id: &str) -> Vec<String> {
        off_runtime(|| self.open().load_game(game_id).unwrap().map(|g| g.moves).unwrap_or_default())
    }

    /// Every row of the games' tables, read by a connection of its own.
    pub fn dump(&self) -> Vec<String> {
        off_runtime(|| self.dump_here())
    }

    fn dump_here(&self) -> Vec<String> {
        const TABLES: [&str; 3] = ["games", "seats", "moves"];
        match self {
            Db::Sqlite(file) => super::db::dump(&file.0, &TABLES),
            Db::Postgres(url, _) => super::db::pg_dump(url, &TABLES),
        }
    }

    /// The stored text of the database (SQLite's file and log; PostgreSQL's rows of every table).
    pub fn raw_text(&self) -> String {
        off_runtime(|| self.raw_text_here())
    }

    fn raw_text_here(&self) -> String {
        match self {
            Db::Sqlite(file) => {
                String::from_utf8_lossy(&std::fs::read(&file.0).unwrap_or_default()).into_owned()
                    + &String::from_utf8_lossy(&std::fs::read(format!("{}-wal", file.0.display())).unwrap_or_default())
            }
            Db::Postgres(url, _) => {
                let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
                let tables =
                    client.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()", &[]).unwrap();
                let mut text = String::new();
                for row in tables {
                    let table: String = row.get(0);
                    for r in client.query(&format!("SELECT row_to_json(t)::text FROM {table} t"), &[]).unwrap() {
                        text.push_str(&r.get::<_, String>(0));
                        text.push('\n');
                    }
                }
                text
            }
        }
    }
}

/// Runs a test body on both stores: `sqlite` and `postgres` tests in a module named after it.
#[macro_export]
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name(super::net::Db::sqlite(stringify!($name))).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(db) = super::net::Db::postgres(stringify!($name)) {
                        super::$name(db).await;
                    }
                }
            }
        )*
    };
}

/// The server binary running on a database; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub url: String,
    pub addr: String,
    /// Where its standard error (its log) goes: removed when dropped.
    pub log: std::path::PathBuf,
}

impl Server {
    /// Starts `triboard serve --addr 127.0.0.1:0 --db DB` and reads its `listening on` line.
    pub fn start(db: &Db) -> Server {
        Server::start_with(db, &[])
    }

    /// [`Server::start`] with more arguments.
    pub fn start_with(db: &Db, more: &[&std::ffi::OsStr]) -> Server {
        let log = db.new_log();
        let mut child = Command::new(env!("CARGO_BIN_EXE_triboard"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.arg())
            .args(more)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string();
        assert!(addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"), "{addr}");
        Server { child, url: format!("ws://{addr}/ws"), addr, log }
    }

    /// SIGKILL: no clean shutdown.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// A protocol client on one WebSocket connection.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("connects");
        Client { ws }
    }

    pub async fn send(&mut self, message: &ClientMessage) {
        self.send_text(&encode_client(message)).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.expect("sends");
    }

    /// The next server message; fails the test after 10 s.
    pub async fn recv(&mut self) -> ServerMessage {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("an answer within 10 s")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                return decode_server(text.as_str()).expect("a readable server message");
            }
        }
    }

    /// Reads until `pick` accepts a message (others, such as presence, skipped).
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.recv().await;
            if let Some(value) = pick(&message) {
                return value;
            }
        }
    }

    /// The next error's code and sentence (other messages skipped, but no moves: a move would be
    /// a change).
    pub async fn error(&mut self) -> (ErrorCode, String) {
        self.until(|m| match m {
            ServerMessage::Error { code, message, .. } => Some((*code, message.clone())),
            ServerMessage::Moved { .. } => panic!("a move where an error was due: {m:?}"),
            _ => None,
        })
        .await
    }

    pub async fn state(&mut self) -> Snapshot {
        self.until(|m| match m {
            ServerMessage::State(s) => Some(s.clone()),
            ServerMessage::Error { .. } => panic!("{m:?}"),
            _ => None,
        })
        .await
    }

    pub async fn watch(&mut self, game_id: &str) -> Snapshot {
        self.send(&ClientMessage::Watch { game_id: game_id.into() }).await;
        self.state().await
    }

    /// The next `moved` message: (ply, text, clock_ms).
    pub async fn moved(&mut self) -> (u32, String, Option<Vec<u64>>) {
        self.until(|m| match m {
            ServerMessage::Moved { ply, text, clock_ms, .. } => Some((*ply, text.clone(), clock_ms.clone())),
            ServerMessage::Error { .. } => panic!("{m:?}"),
            _ => None,
        })
        .await
    }
}

/// A game being played by two connections: the seats' tokens, which connection holds each, and
/// both connections' view of the position.
pub struct Match {
    pub game_id: String,
    pub clients: [Client; 2],
    pub tables: [Box<dyn Position>; 2],
    pub tokens: Vec<String>,
    pub seat_client: Vec<usize>,
    /// Every acknowledged move's text, in order.
    pub acknowledged: Vec<String>,
}

impl Match {
    /// Creates a game of `id` (the creator in seat 0) and seats the rest, the two connections
    /// taking the seats in turn.
    pub async fn start(url: &str, id: &str, clock: Option<Clock>) -> Match {
        Match::start_across([url, url], id, clock).await
    }

    /// [`Match::start`] with the two connections to `urls[0]` and `urls[1]` (two instances).
    pub async fn start_across(urls: [&str; 2], id: &str, clock: Option<Clock>) -> Match {
        let mut a = Client::connect(urls[0]).await;
        let b = Client::connect(urls[1]).await;
        a.send(&ClientMessage::Create(NewGame { clock, ..NewGame::of(id) })).await;
        let (game_id, code, token) = a
            .until(|m| match m {
                ServerMessage::Created { game_id, code, token, .. } => {
                    Some((game_id.clone(), code.clone(), token.clone()))
                }
                _ => None,
            })
            .await;
        let seats = a.state().await.players.len();
        let mut tokens = vec![token];
        let mut seat_client = vec![0];
        let mut clients = [a, b];
        for seat in 1..seats {
            let k = seat % 2;
            clients[k].send(&ClientMessage::Join { code: code.clone(), request_id: None }).await;
            let (joined, token) = clients[k]
                .until(|m| match m {
                    ServerMessage::Joined { seat, token, .. } => Some((*seat, token.clone())),
                    ServerMessage::Error { .. } => panic!("{m:?}"),
                    _ => None,
                })
                .await;
            assert_eq!(usize::from(joined), seat, "the first free seat");
            tokens.push(token);
            seat_client.push(k);
        }
        let tables = [start(id).unwrap(), start(id).unwrap()];
        Match { game_id, clients, tables, tokens, seat_client, acknowledged: Vec::new() }
    }

    /// The seat to move, by the first connection's view.
    pub fn to_move(&self) -> Option<u8> {
        self.tables[0].to_move().map(|p| p.0)
    }

    /// Plays `text` for the seat to move: its connection gets the acknowledgement (and the moves
    /// the rules force), the other connection the same moves as broadcasts. Returns the last
    /// acknowledgement's clocks.
    pub async fn play(&mut self, text: &str) -> Option<Vec<u64>> {
        let seat = self.to_move().expect("the game runs");
        let mover = self.seat_client[usize::from(seat)];
        let ply = self.tables[mover].ply();
        let token = self.tokens[usize::from(seat)].clone();
        let message = ClientMessage::Move { game_id: self.game_id.clone(), token, text: text.into(), ply: ply as u32 };
        self.clients[mover].send(&message).await;
        let mut clock_ms = None;
        let mut first = true;
        while first || (self.tables[mover].outcome().is_none() && self.tables[mover].forced_text().is_some()) {
            first = false;
            let (at, text, clock) = self.clients[mover].moved().await;
            assert_eq!(at as usize, self.tables[mover].ply(), "{}", self.game_id);
            self.tables[mover].play_text(&text).unwrap();
            self.acknowledged.push(text);
            clock_ms = clock;
        }
        let other = 1 - mover;
        while self.tables[other].ply() < self.tables[mover].ply() {
            let (at, text, _) = self.clients[other].moved().await;
            if at as usize == self.tables[other].ply() {
                assert_eq!(text, self.acknowledged[at as usize], "the broadcast is the acknowledged move");
                self.tables[other].play_text(&text).unwrap();
            }
        }
        clock_ms
    }

    /// Plays `plies` random moves (or to the end), 30 ms apart: each connection sends a move
    /// every 60 ms, under the rate limit of 20 messages a second. Returns the last move's clocks.
    pub async fn play_random(&mut self, seed: u64, plies: usize) -> Option<Vec<u64>> {
        let mut rng = rng_from_seed(seed);
        let mut clock_ms = None;
        for _ in 0..plies {
            if self.to_move().is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
            let text = self.tables[0].random_move_text(&mut rng);
            clock_ms = self.play(&text).await;
        }
        clock_ms
    }

    /// Both seats come back on new connections to `url` (after a restart) with `sync` and their
    /// tokens; returns what the first sees.
    pub async fn reconnect(&mut self, url: &str) -> Snapshot {
        self.clients = [Client::connect(url).await, Client::connect(url).await];
        let mut first = None;
        for (seat, token) in self.tokens.iter().enumerate() {
            let k = self.seat_client[seat];
            let sync = ClientMessage::Sync { game_id: self.game_id.clone(), since_ply: 0, token: Some(token.clone()) };
            self.clients[k].send(&sync).await;
            let state = self.clients[k].state().await;
            first.get_or_insert(state);
        }
        first.unwrap()
    }
}
