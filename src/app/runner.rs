//! The one background runner of the app's [`Anytime`] work — the AI's search, a hint, Analyze game:
//! on the desktop a task of Bevy's `AsyncComputeTaskPool` (at a lowered priority, so the frame
//! comes first) that steps the work in rounds until it is done or cancelled; in the browser, which
//! has no threads, one slice of at most [`AiRunner::Slices`]'s length per frame. Dropping it
//! cancels the work.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};

use crate::ai::Anytime;

/// A thread's rounds: between two, it looks at Cancel and publishes its progress.
pub const ROUND: Duration = Duration::from_millis(250);

/// How the app's background work runs.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiRunner {
    /// On a task thread (the desktop).
    Thread,
    /// In the frame, at most this long per frame (the browser).
    Slices(Duration),
}

impl Default for AiRunner {
    /// Threads where there are threads; 8 ms slices in the browser.
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") { AiRunner::Slices(Duration::from_millis(8)) } else { AiRunner::Thread }
    }
}

/// Work of type `A` running in the background.
pub enum Background<A: Anytime> {
    /// On a task thread, with its progress and a Cancel flag.
    Thread { task: Task<A>, fraction: Arc<AtomicU32>, cancel: Arc<AtomicBool> },
    /// In frame slices (`None` once handed back by [`Background::poll`]).
    Sliced { work: Option<A>, per_frame: Duration },
}

impl<A: Anytime> Background<A> {
    /// Starts `work` the way `runner` says.
    pub fn start(work: A, runner: AiRunner) -> Background<A> {
        match runner {
            AiRunner::Thread => {
                let fraction = Arc::new(AtomicU32::new(0));
                let cancel = Arc::new(AtomicBool::new(false));
                let (f, c) = (fraction.clone(), cancel.clone());
                let mut work = work;
                let task = AsyncComputeTaskPool::get().spawn(async move {
                    lower_priority();
                    while !work.is_done() && !c.load(Ordering::Relaxed) {
                        work.step(ROUND);
                        f.store(work.fraction().to_bits(), Ordering::Relaxed);
                    }
                    work
                });
                Background::Thread { task, fraction, cancel }
            }
            AiRunner::Slices(per_frame) => Background::Sliced { work: Some(work), per_frame },
        }
    }

    /// The work once it is done (a sliced one first runs this frame's slice); `None` before.
    pub fn poll(&mut self) -> Option<A> {
        match self {
            Background::Thread { task, .. } => check_ready(task),
            Background::Sliced { work: slot, per_frame } => {
                let work = slot.as_mut()?;
                work.step(*per_frame);
                if work.is_done() { slot.take() } else { None }
            }
        }
    }

    /// The share of the work done, in `[0, 1]` (a thread's as of its last round).
    pub fn fraction(&self) -> f32 {
        match self {
            Background::Thread { fraction, .. } => f32::from_bits(fraction.load(Ordering::Relaxed)),
            Background::Sliced { work, .. } => work.as_ref().map_or(1.0, |w| w.fraction()),
        }
    }
}

impl<A: Anytime> Drop for Background<A> {
    fn drop(&mut self) {
        if let Background::Thread { cancel, .. } = self {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Lowers the calling thread's scheduling priority (Linux: nice 10), so that on a busy machine the
/// threads that draw the frame get the CPU first and the work takes what is left: the window stays
/// smooth while the AI thinks. The pool's threads only ever run this work, so it stays lowered; the
/// search's own threads, started from it, inherit it (Linux keeps a nice value per thread).
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; it changes the scheduling of this thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
    }
}
