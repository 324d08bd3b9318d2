//! Frame times, to measure how responsive the window stays while the AI searches. On the desktop,
//! `TRIBOARD_FRAME_LOG=path` writes one line per frame: the frame time in ms and whether the AI was
//! thinking (1) or not (0). In the browser they are always kept, and the page reads their summary
//! through `triboard_frame_stats()` (`web` module).

use bevy::prelude::*;
use serde_json::{Value, json};

use super::ai_task::AiThinking;

/// Every frame's time in ms, split by whether the AI was thinking during it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Frames while no search ran.
    pub idle: Vec<f32>,
    /// Frames while a search ran.
    pub thinking: Vec<f32>,
}

impl FrameTimes {
    /// `{"idle": {...}, "thinking": {...}}`, each with `frames`, `p50_ms`, `p99_ms` and `max_ms`.
    pub fn summary(&self) -> Value {
        json!({ "idle": stats(&self.idle), "thinking": stats(&self.thinking) })
    }
}

/// Count, median, 99th percentile (nearest rank) and maximum of frame times in ms.
fn stats(times: &[f32]) -> Value {
    if times.is_empty() {
        return json!({ "frames": 0 });
    }
    let mut sorted = times.to_vec();
    sorted.sort_by(f32::total_cmp);
    let rank = |p: f64| sorted[((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    json!({
        "frames": sorted.len(),
        "p50_ms": rank(0.5),
        "p99_ms": rank(0.99),
        "max_ms": sorted[sorted.len() - 1],
    })
}

pub(super) fn plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = std::env::var_os("TRIBOARD_FRAME_LOG") {
        match std::fs::File::create(&path) {
            Ok(file) => {
                app.insert_resource(file_log::FrameLog(std::io::BufWriter::new(file)))
                    .add_systems(Last, file_log::write.after(record));
            }
            Err(e) => warn!("TRIBOARD_FRAME_LOG: cannot create {}: {e}", path.to_string_lossy()),
        }
    }
    app.init_resource::<FrameTimes>().add_systems(Last, record);
}

/// Frames kept of each kind; past it, the older half is dropped (about an hour at 60 fps).
const KEEP: usize = 200_000;

fn record(time: Res<Time<Real>>, thinking: Res<AiThinking>, mut times: ResMut<FrameTimes>) {
    let ms = time.delta().as_secs_f32() * 1000.0;
    let times = &mut *times;
    let kind = if thinking.0 { &mut times.thinking } else { &mut times.idle };
    if kind.len() >= KEEP {
        kind.drain(..KEEP / 2);
    }
    kind.push(ms);
}

#[cfg(not(target_arch = "wasm32"))]
mod file_log {
    use std::io::Write;

    use bevy::prelude::*;

    use super::super::ai_task::AiThinking;

    #[derive(Resource)]
    pub(super) struct FrameLog(pub(super) std::io::BufWriter<std::fs::File>);

    pub(super) fn write(time: Res<Time<Real>>, thinking: Res<AiThinking>, mut log: ResMut<FrameLog>) {
        let ms = time.delta().as_secs_f64() * 1000.0;
        let _ = writeln!(log.0, "{ms:.3} {}", thinking.0 as u8);
        let _ = log.0.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let times = FrameTimes { idle: (1..=100).map(|k| k as f32).collect(), thinking: vec![] };
        let s = times.summary();
        assert_eq!(s["idle"]["frames"], 100);
        assert_eq!(s["idle"]["p50_ms"], 50.0);
        assert_eq!(s["idle"]["p99_ms"], 99.0);
        assert_eq!(s["idle"]["max_ms"], 100.0);
        assert_eq!(s["thinking"]["frames"], 0);
    }
}
