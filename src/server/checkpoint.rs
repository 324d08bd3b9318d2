//! The SQLite store's checkpoints on a thread of their own, off the writers' path.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

use super::store::StoreError;

/// How often the checkpointer copies the write-ahead log into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// A thread with its own connection that checkpoints the write-ahead log ([`CHECKPOINT_EVERY`],
/// passive: it never waits for or blocks a writer). The writing connection's automatic
/// checkpoints are off, so no commit also pays for copying the log into the file and syncing it
/// (what made `serve-bench`'s slowest moves on a slow disk). Measured with every sync slowed to
/// 8 ms by strace (README §Host a server): `serve-bench --games 500` p99 54.8 and 59.8 ms with
/// the writer's own checkpoints, 35.3, 43.8 and 44.5 ms with this thread; p50 18 ms either way.
pub struct Checkpointer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on the database file at `path`.
    ///
    /// # Errors
    /// The file cannot be opened; the thread cannot start.
    pub fn start(path: &Path) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::Builder::new()
            .name("triboard-checkpoint".into())
            .spawn(move || {
                let checkpoint = || {
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                };
                while !stopped.load(Ordering::Relaxed) {
                    std::thread::park_timeout(CHECKPOINT_EVERY);
                    checkpoint();
                }
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(Checkpointer { stop, thread: Some(thread) })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}
