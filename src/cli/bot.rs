//! `triboard bot --server URL --engine "CMD" --name NAME --password PW [--game trigon-2]
//! [--rated] [--clock M+I] [--games N]`: an outside GTP engine (Pentobi's `pentobi-gtp`, or any
//! engine speaking Pentobi's Blokus Trigon protocol, `gtp.rs`) seated on a server as a bot account
//! (`docs/design.md` §Lobby), so engines play people and each other online.
//!
//! The bot signs in (making its account the first time), posts an open challenge in the lobby and
//! waits for someone to accept it (or, with `--accept`, accepts someone else's); then it plays the game through the engine — `set_game`,
//! `clear_board`, the others' placements as `play c MOVE`, `genmove c` for its own colours — and
//! posts the next challenge, until `--games` games were played (default: until stopped). The
//! server is the referee: it refuses an illegal move (the bot then resigns, as an engine that
//! answered `resign` does). Passes the rules force are played by the server and not sent to the
//! engine, as `match` does. The password can come from `TRIBOARD_BOT_PASSWORD` instead of the
//! command line.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::gtp_client::Engine;
use super::ws_client::WsClient;
use crate::net::protocol::{ClientMessage, Clock, NewGame, ServerMessage, Snapshot};
use crate::rules::Game;
use crate::rules::record::Record;
use crate::rules::trigon::{Trigon, Variant};

/// `triboard bot`'s flags.
#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The server's WebSocket address (`ws://HOST:PORT/ws`, or `wss://` behind TLS).
    #[arg(long)]
    pub server: String,
    /// The engine's command, run with `sh -c`.
    #[arg(long)]
    pub engine: String,
    /// The bot account's name (made at the first run).
    #[arg(long)]
    pub name: String,
    /// The bot account's password; default `TRIBOARD_BOT_PASSWORD` from the environment (kept out
    /// of the process list).
    #[arg(long)]
    pub password: Option<String>,
    /// The game its challenges are for: `trigon`, `trigon-2` or `trigon-3`.
    #[arg(long, default_value = "trigon-2")]
    pub game: String,
    /// Rated challenges.
    #[arg(long)]
    pub rated: bool,
    /// A live game's clock, `MINUTES+INCREMENT_S` (`10+5`); default correspondence.
    #[arg(long)]
    pub clock: Option<String>,
    /// Games to play before stopping (0: until stopped).
    #[arg(long, default_value_t = 0)]
    pub games: usize,
    /// Accept others' open challenges of `--game` from the lobby instead of posting one (so two
    /// engines can meet: one posts, the other accepts).
    #[arg(long)]
    pub accept: bool,
    /// The longest wait for one engine answer, in seconds.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
}

/// How one game went, for the summary.
struct Played {
    game_id: String,
    winners: Vec<u8>,
    seat: u8,
    moves: usize,
}

/// Runs `triboard bot`.
///
/// # Errors
/// Usage errors (a game no GTP engine plays, a bad clock); failures (the server cannot be reached,
/// the account refused, the engine failing to start).
pub fn run(args: &BotArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if Variant::from_id(&args.game).is_none() {
        return Err(CliError::usage(format!(
            "--game {}: an outside engine plays Blokus Trigon (trigon, trigon-2, trigon-3)",
            args.game
        )));
    }
    let clock = args.clock.as_deref().map(parse_clock).transpose().map_err(CliError::usage)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start: {e}")))?;
    let played = runtime.block_on(serve_games(args, clock, out)).map_err(CliError::failure)?;
    let games: Vec<Value> = played
        .iter()
        .map(|p| json!({ "game_id": p.game_id, "seat": p.seat, "winners": p.winners, "moves": p.moves }))
        .collect();
    Ok(json!({ "name": args.name, "games": games }))
}

/// `M+I` as a clock.
fn parse_clock(text: &str) -> Result<Clock, String> {
    let (m, i) = text.split_once('+').unwrap_or((text, "0"));
    let clock = Clock {
        minutes: m.trim().parse().map_err(|_| format!("--clock {text}: minutes+increment, as 10+5"))?,
        increment_s: i.trim().parse().map_err(|_| format!("--clock {text}: minutes+increment, as 10+5"))?,
    };
    clock.check().map(|()| clock).map_err(|e| format!("--clock {text}: {e}"))
}

/// Signs in and plays challenge after challenge.
async fn serve_games(args: &BotArgs, clock: Option<Clock>, out: &mut dyn Write) -> Result<Vec<Played>, String> {
    // Waiting for an opponent may take long: a read waits up to a day.
    let mut ws = WsClient::connect(&args.server, Duration::from_secs(86_400)).await?;
    sign_in(&mut ws, args).await?;
    let mut engine = Engine::new(&args.engine, Duration::from_secs(args.timeout));
    let mut played = Vec::new();
    while args.games == 0 || played.len() < args.games {
        let game = play_one(&mut ws, &mut engine, args, clock).await?;
        let _ = writeln!(out, "game {}: winners {:?} (the bot was seat {})", game.game_id, game.winners, game.seat);
        played.push(game);
    }
    engine.stop();
    ws.close().await;
    Ok(played)
}

/// Signs in, making the account if it does not exist.
async fn sign_in(ws: &mut WsClient, args: &BotArgs) -> Result<(), String> {
    let password = args.password.clone().or_else(|| std::env::var("TRIBOARD_BOT_PASSWORD").ok());
    let password = password.ok_or("no password: give --password or set TRIBOARD_BOT_PASSWORD")?;
    let name = args.name.clone();
    ws.send(&ClientMessage::Login { name: name.clone(), password: password.clone(), claim: Vec::new() }).await?;
    let signed = |m: &ServerMessage| matches!(m, ServerMessage::SignedIn { .. }).then_some(());
    match ws.until(signed).await {
        Ok(()) => Ok(()),
        Err(e) if e.starts_with("bad_login") => {
            ws.send(&ClientMessage::Signup { name, password, claim: Vec::new() }).await?;
            ws.until(signed).await.map_err(|e| format!("cannot sign up: {e}"))
        }
        Err(e) => Err(format!("cannot sign in: {e}")),
    }
}

/// Posts an open challenge: its game, the bot's seat and token.
async fn post(ws: &mut WsClient, args: &BotArgs, clock: Option<Clock>) -> Result<(String, u8, String), String> {
    ws.send(&ClientMessage::Create(NewGame { clock, rated: args.rated, lobby: true, ..NewGame::of(&args.game) }))
        .await?;
    ws.until(|m| match m {
        ServerMessage::Created { game_id, seat, token, .. } => Some((game_id.clone(), *seat, token.clone())),
        _ => None,
    })
    .await
}

/// Waits in the lobby for someone else's open challenge of `--game` and accepts it: its game,
/// the bot's seat and token.
async fn accept(ws: &mut WsClient, args: &BotArgs) -> Result<(String, u8, String), String> {
    ws.send(&ClientMessage::Lobby {}).await?;
    let name = Some(args.name.as_str());
    let game_id = ws
        .until(|m| match m {
            ServerMessage::Lobby(view) => view
                .challenges
                .iter()
                .find(|c| c.game == args.game && c.players.iter().all(|p| p.as_deref() != name))
                .map(|c| c.game_id.clone()),
            _ => None,
        })
        .await?;
    ws.send(&ClientMessage::Accept { game_id, request_id: None }).await?;
    ws.until(|m| match m {
        ServerMessage::Joined { game_id, seat, token } => Some((game_id.clone(), *seat, token.clone())),
        _ => None,
    })
    .await
}

/// Posts a challenge (or accepts one), waits for every seat to be taken and plays the game to its
/// end.
async fn play_one(
    ws: &mut WsClient,
    engine: &mut Engine,
    args: &BotArgs,
    clock: Option<Clock>,
) -> Result<Played, String> {
    let (game_id, seat, token) = if args.accept { accept(ws, args).await? } else { post(ws, args, clock).await? };
    // Every seat taken: the game is on.
    let state: Snapshot = ws
        .until(|m| match m {
            ServerMessage::State(s) if s.game_id == game_id && s.players.iter().all(|p| p.taken) => Some(s.clone()),
            _ => None,
        })
        .await?;
    let record = Record::of_texts(&state.game, state.options.clone(), Vec::new());
    let (_, mut game, _) = record.replay::<Trigon>().map_err(|e| e.to_string())?;
    let name = game.options().variant.name();
    engine.ensure_started()?;
    for command in [format!("set_game {name}"), "clear_board".to_string()] {
        engine.send(&command)?.map_err(|e| format!("{command}: {e}"))?;
    }
    let mut moves = 0;
    // The ply the engine was last asked to move at: its move is on its way to the server.
    let mut asked = None;
    let winners = loop {
        if asked != Some(moves)
            && game.outcome().is_none()
            && game.forced_move().is_none()
            && let Some(c) = game.colour_to_move()
            && game.player_of(c).0 == seat
        {
            asked = Some(moves);
            let answer = engine.send(&format!("genmove {}", c + 1))?;
            let text = answer.map_err(|e| format!("genmove: {e}"))?;
            let ply = moves as u32;
            let message = if text.eq_ignore_ascii_case("resign") {
                ClientMessage::Resign { game_id: game_id.clone(), token: token.clone() }
            } else {
                ClientMessage::Move { game_id: game_id.clone(), token: token.clone(), text, ply }
            };
            ws.send(&message).await?;
        }
        if let Some(outcome) = game.outcome() {
            break outcome.winners().iter().map(|p| p.0).collect();
        }
        match ws.next().await? {
            ServerMessage::Moved { game_id: g, ply, text, seat: mover, .. } if g == game_id => {
                if ply as usize != moves {
                    return Err(format!("the server's move {ply} came out of order (the bot has {moves})"));
                }
                let mv = game.parse_move(&text).map_err(|e| format!("the server's move {text}: {}", e.reason))?;
                let forced = game.forced_move() == Some(mv);
                let colour = game.colour_to_move();
                game.play(mv).map_err(|e| format!("the server's move {text}: {}", e.reason))?;
                moves += 1;
                if mover != seat
                    && !forced
                    && let Some(c) = colour
                {
                    engine.send(&format!("play {} {}", c + 1, text))?.map_err(|e| format!("play: {e}"))?;
                }
            }
            ServerMessage::State(s) if s.game_id == game_id && s.outcome.is_some() => {
                break s.outcome.map(|o| o.winners).unwrap_or_default();
            }
            ServerMessage::Error { code, message, .. } => {
                // The engine's move was refused: the bot resigns rather than stall the game.
                eprintln!("the server refused: {code}: {message}; resigning");
                ws.send(&ClientMessage::Resign { game_id: game_id.clone(), token: token.clone() }).await?;
            }
            _ => {}
        }
    };
    Ok(Played { game_id, winners, seat, moves })
}
