//! `TRIBOARD_FRAME_LOG=path` writes one line per frame: the frame time in ms and whether the AI was
//! thinking (1) or not (0), to measure how responsive the window stays during a search.

use std::io::Write;

use bevy::prelude::*;

use super::ai_task::AiSearch;

#[derive(Resource)]
struct FrameLog(std::io::BufWriter<std::fs::File>);

pub(super) fn plugin(app: &mut App) {
    let Some(path) = std::env::var_os("TRIBOARD_FRAME_LOG") else { return };
    match std::fs::File::create(&path) {
        Ok(file) => {
            app.insert_resource(FrameLog(std::io::BufWriter::new(file))).add_systems(Last, log_frame);
        }
        Err(e) => warn!("TRIBOARD_FRAME_LOG: cannot create {}: {e}", path.to_string_lossy()),
    }
}

fn log_frame(time: Res<Time<Real>>, search: Res<AiSearch>, mut log: ResMut<FrameLog>) {
    let ms = time.delta().as_secs_f64() * 1000.0;
    let _ = writeln!(log.0, "{ms:.3} {}", search.is_thinking() as u8);
    let _ = log.0.flush();
}
