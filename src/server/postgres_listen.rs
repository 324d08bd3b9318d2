//! What the servers sharing a PostgreSQL store publish ([`Store::publish`](super::store::Store::publish)),
//! heard on a connection of its own: [`listen`] `LISTEN`s on [`CHANNEL`] before it returns, then
//! hands each notification to its callback on a thread, and connects again when the connection
//! breaks, saying so ([`Heard::Reconnected`]: notifications may have been missed meanwhile, so
//! the caller refreshes what it keeps from the store).

use std::thread::JoinHandle;
use std::time::Duration;

use postgres::Client;
use postgres::fallible_iterator::FallibleIterator;

use super::postgres_conn::Target;
use super::store::CHANNEL;
use super::store_error::StoreError;

/// What the listener hands its callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A payload published on [`CHANNEL`] (by any server, this one included).
    Payload(String),
    /// The connection broke and was made again: what was published in between is lost.
    Reconnected,
}

/// How long the listener waits for a notification before it checks that its connection lives.
const IDLE_CHECK: Duration = Duration::from_secs(5);

/// How long that check may take before the connection counts as broken.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// The first wait before connecting again; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(50);

/// The longest wait between two tries to connect again.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Listens on [`CHANNEL`] of the database at `url` (as [`PgStore::connect`](super::postgres::PgStore::connect)
/// reads it) on a connection of its own: the `LISTEN` is done when this returns, so everything
/// published after that is heard. A thread (`pg-listen`) then calls `on` with each payload, in the
/// order they were committed; after a broken connection it connects again (waiting 50 ms, then
/// twice as long each try, at most 1 s between tries), listens again and calls
/// `on(Heard::Reconnected)`. The thread ends when `on` returns `false`, at the next thing heard.
///
/// # Errors
/// [`StoreError::Failed`]: the URL cannot be read, the server cannot be reached or refuses the
/// login or the `LISTEN`, or the thread cannot start.
pub fn listen(url: &str, mut on: impl FnMut(Heard) -> bool + Send + 'static) -> Result<JoinHandle<()>, StoreError> {
    let target = Target::parse(url)?;
    let mut client = listening(&target)?;
    let thread = std::thread::Builder::new().name("pg-listen".into()).spawn(move || {
        loop {
            if !hear(&mut client, &mut on) {
                return;
            }
            let mut wait = FIRST_BACKOFF;
            client = loop {
                std::thread::sleep(wait);
                match listening(&target) {
                    Ok(client) => break client,
                    Err(_) => wait = (wait * 2).min(MAX_BACKOFF),
                }
            };
            if !on(Heard::Reconnected) {
                return;
            }
        }
    });
    thread.map_err(|e| StoreError::Failed(format!("the listener's thread: {e}")))
}

/// A new connection that listens on [`CHANNEL`].
fn listening(target: &Target) -> Result<Client, StoreError> {
    let mut client = target.connect()?;
    client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
    Ok(client)
}

/// Hands `on` what `client` hears until `on` returns `false` (then `false`) or the connection
/// breaks (then `true`: listen again).
fn hear(client: &mut Client, on: &mut impl FnMut(Heard) -> bool) -> bool {
    loop {
        let next = client.notifications().timeout_iter(IDLE_CHECK).next();
        match next {
            Ok(Some(note)) => {
                if note.channel() == CHANNEL && !on(Heard::Payload(note.payload().to_string())) {
                    return false;
                }
            }
            // Nothing heard for a while, or the connection closed: see which.
            Ok(None) => {
                if client.is_closed() || client.is_valid(CHECK_TIMEOUT).is_err() {
                    return true;
                }
            }
            Err(_) => return true,
        }
    }
}
