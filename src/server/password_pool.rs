//! The threads that hash and check passwords for the service thread (`docs/design.md` §Lobby):
//! a fixed number of workers (the machine's cores) over one bounded queue, so a burst of sign-ups
//! neither starts a thread each (Argon2id takes 19 MiB per hash) nor stalls the games.

use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};

use super::connection::{ConnId, Event};
use super::passwords::PasswordJob;

/// Password jobs waiting at most; more are refused as "too busy".
pub const QUEUE: usize = 1024;

/// The workers' queue.
pub struct PasswordPool {
    jobs: std_mpsc::SyncSender<(ConnId, PasswordJob)>,
}

impl PasswordPool {
    /// Starts one worker per core, each sending its result to `events` as an [`Event::Password`].
    ///
    /// # Errors
    /// A worker thread cannot start.
    pub fn start(events: &std_mpsc::Sender<Event>) -> std::io::Result<PasswordPool> {
        let (jobs, queue) = std_mpsc::sync_channel::<(ConnId, PasswordJob)>(QUEUE);
        let queue = Arc::new(Mutex::new(queue));
        let workers = std::thread::available_parallelism().map_or(1, usize::from);
        for k in 0..workers {
            let (queue, events) = (queue.clone(), events.clone());
            std::thread::Builder::new().name(format!("triboard-password-{k}")).spawn(move || {
                loop {
                    let next = match queue.lock() {
                        Ok(queue) => queue.recv(),
                        Err(_) => return,
                    };
                    let Ok((conn, job)) = next else { return };
                    if events.send(Event::Password { conn, done: job.run() }).is_err() {
                        return;
                    }
                }
            })?;
        }
        Ok(PasswordPool { jobs })
    }

    /// Queues a job for connection `conn`; false if the queue is full.
    pub fn submit(&self, conn: ConnId, job: PasswordJob) -> bool {
        self.jobs.try_send((conn, job)).is_ok()
    }
}
