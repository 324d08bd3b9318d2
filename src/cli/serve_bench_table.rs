//! `serve-bench --soak`'s table: two signed-up players and a watcher playing game after game
//! until the soak's end, as people do over a day — lobby challenges accepted, rematches, some
//! games resigned, and players whose connection drops mid-game and who come back on the other
//! server (`Resume`, `Sync`, the move sent again if it was not stored). Everything one table's
//! games were acknowledged, and what its watcher saw, is kept for the check against the store.
//!
//! Which game does what follows from its number at the table (so a short soak does each): every
//! game has one dropped connection, its mover's, at a random ply below 12, the player signing in
//! again with its session (every fourth game, the 4th, 8th, …, with its password); every third game
//! (the 2nd, 5th, …) is resigned at a random ply below 30 by a random seat; every game whose
//! number is even is followed by its rematch, the others by a new lobby challenge.

use std::time::{Duration, Instant};

use super::bench_client::{Client, RESENDS};
use crate::net::protocol::{ClientMessage, NewGame, ServerMessage};
use crate::rules::{Rng, random_index, rng_from_seed};

/// One game as the table played it.
pub struct TableGame {
    /// The game.
    pub game_id: String,
    /// Every move its players had acknowledged: (ply, text); a move sent before a dropped
    /// connection counts once the game's state after the resume shows it, or its resend is
    /// acknowledged.
    pub acknowledged: Vec<(usize, String)>,
    /// The moves its watcher was sent, in order.
    pub watched: Vec<String>,
}

/// What one table did.
#[derive(Default)]
pub struct TableReport {
    /// Its games, finished or not.
    pub games: Vec<TableGame>,
    /// Games ended by a resignation.
    pub resigned: usize,
    /// Games that were rematches.
    pub rematches: usize,
    /// Connections dropped and resumed on the other server.
    pub resumed: usize,
    /// Why the table stopped early, if it did.
    pub error: Option<String>,
}

/// Where a table plays: the servers (the players start on different ones), its number, its
/// seed, the longest think time, when to stop starting games, and its players' names' start.
pub struct TablePlan {
    /// The servers' WebSocket URLs; the watcher is on the second player's.
    pub urls: [String; 2],
    /// The game ids it cycles through (two-seat games, as a rated lobby game needs).
    pub ids: Vec<&'static str>,
    /// Its seed.
    pub seed: u64,
    /// The longest think time, in ms.
    pub think_ms: u64,
    /// No game is started after this.
    pub until: Instant,
    /// The players are `{name}a` and `{name}b`.
    pub name: String,
}

/// A player: its client, its name, password and session, the URL it is on and its current seat
/// and token.
struct Player {
    client: Client,
    name: String,
    password: String,
    session: String,
    url: usize,
    seat: u8,
    token: String,
}

/// Plays games at one table until `plan.until`.
pub async fn run_table(plan: TablePlan) -> TableReport {
    let mut report = TableReport::default();
    if let Err(e) = table_into(&plan, &mut report).await {
        let game = report.games.last().map_or("", |g| g.game_id.as_str());
        report.error = Some(format!("table {} game {game}: {e}", plan.name));
    }
    report
}

async fn table_into(plan: &TablePlan, report: &mut TableReport) -> Result<(), String> {
    let mut rng = rng_from_seed(plan.seed);
    let first = plan.ids[random_index(&mut rng, plan.ids.len())];
    let mut players = Vec::new();
    for (url, side) in [(0, "a"), (1, "b")] {
        let mut client = Client::connect(&plan.urls[url], first).await?;
        let name = format!("{}{side}", plan.name);
        let password = format!("{name} soak password");
        let signup = ClientMessage::Signup { name: name.clone(), password: password.clone(), claim: Vec::new() };
        let session = client
            .ask(&signup, |m| match m {
                ServerMessage::SignedIn { session, .. } => Some(session.clone()),
                _ => None,
            })
            .await?;
        players.push(Player { client, name, password, session, url, seat: 0, token: String::new() });
    }
    let mut watcher = Client::connect(&plan.urls[1], first).await?;
    let mut rematch: Option<String> = None;
    let mut number = 0usize;
    let mut id = first;
    while Instant::now() < plan.until {
        let game_id = match rematch.take() {
            Some(finished) => {
                report.rematches += 1;
                start_rematch(&mut players, &finished).await?
            }
            None => {
                id = plan.ids[random_index(&mut rng, plan.ids.len())];
                start_challenge(&mut players, id).await?
            }
        };
        for p in players.iter_mut() {
            p.client.table = crate::net::position::start(id)?;
        }
        watcher.table = crate::net::position::start(id)?;
        let watch = ClientMessage::Watch { game_id: game_id.clone() };
        watcher.ask(&watch, |m| matches!(m, ServerMessage::State(s) if s.game_id == game_id).then_some(())).await?;
        report.games.push(TableGame { game_id: game_id.clone(), acknowledged: Vec::new(), watched: Vec::new() });
        let game = report.games.last_mut().ok_or("no game")?;
        let plies = Plies {
            drop_at: random_index(&mut rng, 12),
            resign_at: (number % 3 == 1).then(|| 2 + random_index(&mut rng, 28)),
            login: number % 4 == 3,
        };
        let resigned = play(plan, &mut rng, &mut players, &mut watcher, game, plies, &mut report.resumed).await?;
        report.resigned += usize::from(resigned);
        if number.is_multiple_of(2) {
            rematch = Some(game_id);
        }
        number += 1;
    }
    for p in &mut players {
        p.client.ws.close().await;
    }
    watcher.ws.close().await;
    Ok(())
}

/// Posts a rated lobby challenge of `id` by the first player, accepted by the second; returns
/// the game.
async fn start_challenge(players: &mut [Player], id: &str) -> Result<String, String> {
    let create = ClientMessage::Create(NewGame { rated: true, lobby: true, ..NewGame::of(id) });
    let (game_id, token) = players[0]
        .client
        .ask(&create, |m| match m {
            ServerMessage::Created { game_id, token, .. } => Some((game_id.clone(), token.clone())),
            _ => None,
        })
        .await?;
    (players[0].seat, players[0].token) = (0, token);
    let accept = ClientMessage::Accept { game_id: game_id.clone(), request_id: None };
    let (seat, token) = players[1]
        .client
        .ask(&accept, |m| match m {
            ServerMessage::Joined { seat, token, .. } => Some((*seat, token.clone())),
            _ => None,
        })
        .await?;
    (players[1].seat, players[1].token) = (seat, token);
    Ok(game_id)
}

/// The first player asks for the rematch of `finished` (its seat moves on, its token stays);
/// the second hears of it (its followers are sent the rematch) and comes back to the new game
/// with a `sync`, as the app does. Returns the new game.
async fn start_rematch(players: &mut [Player], finished: &str) -> Result<String, String> {
    let rematched = |m: &ServerMessage| match m {
        ServerMessage::Rematched { game_id, rematch_of, seat } if rematch_of == finished => {
            Some((game_id.clone(), *seat))
        }
        _ => None,
    };
    let token = players[0].token.clone();
    let rematch = ClientMessage::Rematch { game_id: finished.to_string(), token };
    let (game_id, seat) = players[0].client.ask(&rematch, rematched).await?;
    players[0].seat = seat;
    let p = &mut players[1];
    let (heard, _) = p.client.until(rematched).await?;
    if heard != game_id {
        return Err(format!("two rematches of {finished}: {game_id} and {heard}"));
    }
    p.seat = u8::from(seat == 0);
    let sync = ClientMessage::Sync { game_id: game_id.clone(), since_ply: 0, token: Some(p.token.clone()) };
    p.client.ask(&sync, |m| matches!(m, ServerMessage::State(s) if s.game_id == game_id).then_some(())).await?;
    Ok(game_id)
}

/// The plies where something happens in a game: its mover's connection drops after sending the
/// move of `drop_at` (and it signs in again with its password if `login`, else with its
/// session); `resign_at`, a seat resigns instead of the move.
struct Plies {
    drop_at: usize,
    resign_at: Option<usize>,
    login: bool,
}

/// Plays the game to its end (or its resignation: returns true), the watcher following it.
async fn play(
    plan: &TablePlan,
    rng: &mut Rng,
    players: &mut [Player],
    watcher: &mut Client,
    game: &mut TableGame,
    plies: Plies,
    resumed: &mut usize,
) -> Result<bool, String> {
    let game_id = game.game_id.clone();
    while let Some(to_move) = players[0].client.table.to_move().map(|p| p.0) {
        let ply = players[0].client.table.ply();
        if plies.resign_at == Some(ply) {
            let who = random_index(rng, 2);
            let token = players[who].token.clone();
            let over = |m: &ServerMessage| matches!(m, ServerMessage::State(s) if s.outcome.is_some()).then_some(());
            players[who].client.ask(&ClientMessage::Resign { game_id: game_id.clone(), token }, over).await?;
            players[1 - who].client.until(over).await?;
            watcher.until(over).await?;
            return Ok(true);
        }
        let mover = players.iter().position(|p| p.seat == to_move).ok_or("no player has the seat to move")?;
        let think = if plan.think_ms == 0 { 0 } else { random_index(rng, plan.think_ms as usize + 1) as u64 };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let text = players[mover].client.table.random_move_text(rng);
        let p = &mut players[mover];
        let send = ClientMessage::Move { game_id: game_id.clone(), token: p.token.clone(), text, ply: ply as u32 };
        p.client.send(&send).await?;
        let mut got = Vec::new();
        if ply == plies.drop_at {
            got = resume(p, &plan.urls, &game_id, (ply, plies.login)).await?;
            *resumed += 1;
            if got.is_empty() {
                p.client.send(&send).await?;
            }
        }
        let mut target = ply + 1;
        let mut resent = 0;
        while got.is_empty() {
            match p.client.catch_up(target).await {
                Ok((moves, _)) => {
                    got = moves;
                    break;
                }
                // Its batch failed, nothing of it stored: sent again, as the client is told to.
                Err(e) if e.starts_with("storage:") && resent < RESENDS => {
                    resent += 1;
                    p.client.send(&send).await?;
                }
                Err(e) => return Err(e),
            }
        }
        target = p.client.table.ply();
        while p.client.table.to_move().is_some() && p.client.table.forced_text().is_some() {
            target += 1;
            got.extend(p.client.catch_up(target).await?.0);
        }
        game.acknowledged.extend(got);
        players[1 - mover].client.catch_up(target).await?;
        let (seen, _) = watcher.catch_up(target).await?;
        game.watched.extend(seen.into_iter().map(|(_, text)| text));
        if players[0].client.table.ply() != players[1].client.table.ply() {
            return Err("the players disagree".into());
        }
    }
    Ok(false)
}

/// The player's connection drops (just after it sent its move at `ply`): it connects to the
/// other server, signs in again (its password if `login`, else its session) and syncs the game
/// from `ply` on. Returns the moves from
/// `ply` on that the game's state shows, played on its table (none: the move was not stored).
async fn resume(
    p: &mut Player,
    urls: &[String; 2],
    game_id: &str,
    (ply, login): (usize, bool),
) -> Result<Vec<(usize, String)>, String> {
    p.url = 1 - p.url;
    p.client.reconnect(&urls[p.url]).await?;
    let sign_in = if login {
        ClientMessage::Login { name: p.name.clone(), password: p.password.clone(), claim: Vec::new() }
    } else {
        ClientMessage::Resume { session: p.session.clone(), claim: Vec::new() }
    };
    p.session = p
        .client
        .ask(&sign_in, |m| match m {
            ServerMessage::SignedIn { session, .. } => Some(session.clone()),
            _ => None,
        })
        .await?;
    let sync =
        ClientMessage::Sync { game_id: game_id.to_string(), since_ply: ply as u32, token: Some(p.token.clone()) };
    let moves = p
        .client
        .ask(&sync, |m| match m {
            ServerMessage::State(s) if s.game_id == game_id => Some(s.moves.clone()),
            _ => None,
        })
        .await?;
    let mut got = Vec::new();
    for (k, text) in moves.into_iter().enumerate() {
        p.client.table.play_text(&text).map_err(|e| e.reason)?;
        got.push((ply + k, text));
    }
    Ok(got)
}
