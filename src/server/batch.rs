//! The service thread of `triboard serve` (`docs/design.md` §Network play): it takes every event
//! waiting at one moment as a batch, answers each message with the [`Service`], commits the
//! batch's writes together (group commit) and only then sends the answers, the broadcasts and
//! the presence changes; it sweeps for clocks that ran out (the leader only, when several
//! instances share the store) and tells the other instances what changed (`server::cluster`).

use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::announce::{announce_lobby, announce_presence};
use super::bot_runner::BotEvent;
use super::cluster::Cluster;
use super::connection::{ConnId, Event};
use super::hub::{Conn, Hub, Outbox};
use super::password_pool::PasswordPool;
use super::remote::{expire, hear};
use super::requests::client_of;
use super::service::{BotSeat, Broadcast, Caller, Reply, Service};
use super::store::{Store, now_ms};
use crate::net::protocol::{ClientMessage, ServerMessage, encode_server};

/// How often the service thread looks for clocks that ran out, in ms.
pub const SWEEP_MS: u64 = 250;

/// The most events the service thread takes as one batch (one commit).
const MAX_BATCH: usize = 4096;

/// The service thread: takes every waiting event as one batch, answers it, commits, then sends.
pub fn service_thread<S: Store>(
    mut service: Service<S>,
    inbox: std_mpsc::Receiver<Event>,
    events: std_mpsc::Sender<Event>,
    bots: Option<std_mpsc::Sender<BotEvent>>,
    group_commit: bool,
) {
    let mut cluster = Cluster::new(service.store().shared());
    if !cluster.shared {
        cluster.leader = true;
        let _ = service.resume_clocks();
    }
    let Ok(passwords) = PasswordPool::start(&events) else { return };
    let mut hub = Hub::default();
    let sweep_every = Duration::from_millis(SWEEP_MS);
    let mut last_sweep = Instant::now();
    loop {
        let wait = sweep_every.saturating_sub(last_sweep.elapsed());
        let mut batch = Vec::new();
        match inbox.recv_timeout(wait) {
            Ok(event) => batch.push(event),
            Err(std_mpsc::RecvTimeoutError::Timeout) => {}
            Err(std_mpsc::RecvTimeoutError::Disconnected) => break,
        }
        while batch.len() < MAX_BATCH {
            match inbox.try_recv() {
                Ok(event) => batch.push(event),
                Err(_) => break,
            }
        }
        let now = now_ms();
        let batched = group_commit && service.begin_batch().is_ok();
        let mut outbox = Outbox::new();
        let mut senders = Vec::new();
        let mut new_bots = Vec::new();
        // What the batch's own writes queued (answers, broadcasts, flags): taken back if its
        // commit fails. The rest (the other instances' changes, closed connections' presence)
        // is sent either way.
        let mut own = Vec::new();
        for event in batch {
            let from = outbox.len();
            match event {
                Event::Open { conn, out, kill, addr } => {
                    hub.conns.insert(conn, Conn::new(out, kill, addr, conn));
                    hub.people_changed();
                }
                Event::Message { conn, message } => {
                    senders.push(conn);
                    let at = At { now, passwords: &passwords };
                    let seated = answer(&mut service, &mut hub, &mut cluster, conn, message, &at, &mut outbox);
                    new_bots.extend(seated);
                    own.push(from..outbox.len());
                }
                Event::Password { conn, done } => {
                    senders.push(conn);
                    let reply = service.finish_password(done, now);
                    deliver_reply(&mut hub, conn, &reply, &mut outbox);
                    own.push(from..outbox.len());
                }
                Event::Close { conn } => {
                    for game_id in hub.close(conn) {
                        seats_changed(&mut service, &hub, &mut cluster, &game_id, &mut outbox);
                    }
                }
                Event::Remote(text) => hear(&mut service, &mut hub, &mut cluster, text.as_deref(), &mut outbox),
            }
        }
        if last_sweep.elapsed() >= sweep_every {
            last_sweep = Instant::now();
            let from = outbox.len();
            sweep(&mut service, &mut hub, &mut cluster, &mut outbox);
            own.push(from..outbox.len());
        }
        let lobby_changed = service.take_lobby_changed();
        if lobby_changed {
            cluster.lobby();
        }
        if lobby_changed || hub.take_lobby_joined() {
            announce_lobby(&mut service, &hub, &mut outbox);
        }
        cluster.flush(service.store_mut());
        if batched && let Err(refusal) = service.commit_batch() {
            // Nothing of the batch is stored: nothing of it may be acknowledged, and every
            // sender is told to send again.
            let error = encode_server(&refusal.into_message());
            let taken_back = |k: &usize| own.iter().any(|r| r.contains(k));
            outbox = outbox.into_iter().enumerate().filter(|(k, _)| !taken_back(k)).map(|(_, m)| m).collect();
            outbox.extend(senders.into_iter().map(|conn| (conn, error.clone())));
            new_bots.clear();
        }
        if let Some(bots) = &bots {
            for seat in new_bots {
                let _ = bots.send(BotEvent::Seat(seat));
            }
        }
        deliver(&mut service, &mut hub, &mut cluster, outbox);
    }
}

/// Flags the games whose clocks ran out, if this instance leads (it tries to, if it does not:
/// the one that did may be gone); forgets the instances gone silent and the seats they held.
fn sweep<S: Store>(service: &mut Service<S>, hub: &mut Hub, cluster: &mut Cluster, outbox: &mut Outbox) {
    let now = now_ms();
    if !cluster.leader && service.store_mut().try_lead().unwrap_or(false) {
        cluster.leader = true;
        eprintln!("leading: this instance ({}) sweeps the clocks of every live game", cluster.me);
        // The clocks of every live game, wherever it was played.
        let _ = service.resume_clocks();
    }
    if !cluster.leader {
        service.prune(now);
    } else {
        for Broadcast { game_id, messages } in service.sweep(now) {
            let texts: Vec<String> = messages.iter().map(encode_server).collect();
            for text in &texts {
                hub.broadcast(&game_id, text, None, outbox);
            }
            cluster.game(&game_id, service.deadline_of(&game_id), 0, texts);
        }
    }
    expire(service, hub, cluster, outbox);
}

/// Queues a reply that names no game (a sign-in's end): its messages, and the connection's
/// account.
fn deliver_reply(hub: &mut Hub, conn: ConnId, reply: &Reply, outbox: &mut Outbox) {
    if let (Some(account), Some(c)) = (reply.account, hub.conns.get_mut(&conn)) {
        c.account = account;
        c.session = account.and(reply.session.clone());
    }
    for m in &reply.messages {
        outbox.push((conn, encode_server(m)));
    }
}

/// The moment a batch is answered at, and where password jobs go.
struct At<'a> {
    now: u64,
    passwords: &'a PasswordPool,
}

/// Answers one message of connection `conn`, queueing the answers, broadcasts and presence, and
/// the notes for the other instances; a password job goes to the [`PasswordPool`], whose end
/// comes back as an [`Event::Password`]. Returns the bots the message seated.
fn answer<S: Store>(
    service: &mut Service<S>,
    hub: &mut Hub,
    cluster: &mut Cluster,
    conn: ConnId,
    message: ClientMessage,
    at: &At<'_>,
    outbox: &mut Outbox,
) -> Vec<BotSeat> {
    let (now, passwords) = (at.now, at.passwords);
    let writes = !matches!(message, ClientMessage::Watch { .. } | ClientMessage::Sync { .. });
    let game_id = message.game_id().map(str::to_string);
    let token = message.token().map(str::to_string);
    // A sync is a client coming (back) to the board: it gets the presence with the game.
    let sync = matches!(message, ClientMessage::Sync { .. });
    if matches!(message, ClientMessage::Lobby {}) {
        hub.enter_lobby(conn);
        return Vec::new();
    }
    if let ClientMessage::Hello { client } = &message {
        match (client_of(client), hub.conns.get_mut(&conn)) {
            (Ok(client), Some(c)) => {
                c.client = client;
                hub.people_changed();
            }
            (Ok(_), None) => {}
            (Err(refusal), _) => outbox.push((conn, encode_server(&refusal.into_message()))),
        }
        return Vec::new();
    }
    let caller = hub.conns.get(&conn).map_or_else(Caller::default, |c| Caller {
        account: c.account,
        addr: c.addr,
        client: Some(c.client),
    });
    let mut reply = service.handle_for(message, &caller, now);
    if let Some(job) = reply.job.take() {
        if !passwords.submit(conn, job) {
            let refusal = crate::net::protocol::Refusal::new(
                crate::net::protocol::ErrorCode::Storage,
                "the server is too busy to check a password: try again",
            );
            outbox.push((conn, encode_server(&refusal.into_message())));
        }
        return Vec::new();
    }
    deliver_reply(hub, conn, &Reply { messages: Vec::new(), ..reply.clone() }, outbox);
    if let Some(session) = &reply.session_ended {
        // Signed out everywhere: this instance's other connections now, the others' by a note.
        hub.end_session(session, Some(conn), outbox);
        cluster.session_ended(session);
    }
    let refused = reply.error().is_some();
    // The games this connection now follows, and the seats it holds.
    let mut follows: Vec<String> = Vec::new();
    let mut holds: Vec<(String, u8)> = Vec::new();
    for m in &reply.messages {
        match m {
            ServerMessage::Created { game_id, seat, .. }
            | ServerMessage::Joined { game_id, seat, .. }
            | ServerMessage::Rematched { game_id, seat, .. } => {
                follows.push(game_id.clone());
                holds.push((game_id.clone(), *seat));
            }
            _ => {}
        }
    }
    if let Some(game_id) = game_id.clone().filter(|_| !refused) {
        if let Some(seat) = token.and_then(|t| service.seat_of(&game_id, &t)) {
            holds.push((game_id.clone(), seat));
        }
        follows.push(game_id);
    }
    for m in &reply.messages {
        outbox.push((conn, encode_server(m)));
    }
    if let Some(Broadcast { game_id, messages }) = &reply.broadcast {
        let texts: Vec<String> = messages.iter().map(encode_server).collect();
        for text in &texts {
            hub.broadcast(game_id, text, Some(conn), outbox);
        }
        cluster.game(game_id, service.deadline_of(game_id), now, texts);
    }
    if writes && !refused {
        // A change without a broadcast (a game made, a seat taken): the others forget their copy.
        for (game_id, _) in &holds {
            cluster.game(game_id, service.deadline_of(game_id), now, Vec::new());
        }
        if let Some(game_id) = &game_id {
            cluster.game(game_id, service.deadline_of(game_id), now, Vec::new());
        }
    }
    let mut new_follows = Vec::new();
    for game_id in follows {
        if hub.follow(conn, &game_id) {
            new_follows.push(game_id);
        }
    }
    let mut changed: Vec<String> = holds.into_iter().filter(|(g, s)| hub.hold(conn, g, *s)).map(|(g, _)| g).collect();
    changed.dedup();
    for game_id in &changed {
        seats_changed(service, hub, cluster, game_id, outbox);
    }
    if sync && let Some(game_id) = game_id.as_ref().filter(|g| !refused && !new_follows.contains(g)) {
        new_follows.push(game_id.clone());
    }
    for game_id in new_follows.iter().filter(|g| !changed.contains(g)) {
        if let Some(seats) = service.seat_count(game_id) {
            outbox.push((conn, hub.presence(game_id, seats)));
        }
    }
    reply.bots
}

/// The seats of `game_id` held here changed: its presence for its followers here, and the seats
/// for the other instances.
fn seats_changed<S: Store>(
    service: &mut Service<S>,
    hub: &Hub,
    cluster: &mut Cluster,
    game_id: &str,
    outbox: &mut Outbox,
) {
    announce_presence(service, hub, game_id, outbox);
    cluster.held(game_id, hub.local_seats(game_id));
}

/// Sends the batch's messages; a connection whose outbox is full is closed as not reading (the
/// seats it held are told to the other instances with the next batch).
fn deliver<S: Store>(service: &mut Service<S>, hub: &mut Hub, cluster: &mut Cluster, outbox: Outbox) {
    let mut stuck = Vec::new();
    for (conn, text) in outbox {
        let Some(c) = hub.conns.get(&conn) else { continue };
        if let Err(mpsc::error::TrySendError::Full(_)) = c.out.try_send(text) {
            c.kill.notify_one();
            stuck.push(conn);
        }
    }
    stuck.sort_unstable();
    stuck.dedup();
    for conn in stuck {
        let mut outbox = Outbox::new();
        for game_id in hub.close(conn) {
            // Told to the other instances with the next batch.
            seats_changed(service, hub, cluster, &game_id, &mut outbox);
        }
        for (conn, text) in outbox {
            if let Some(c) = hub.conns.get(&conn) {
                let _ = c.out.try_send(text);
            }
        }
    }
}
