//! The user's data folder, one for the app (saved games, settings) and the server (its database):
//! native only, with the features that bring the `directories` crate (`app`, `server`).

use std::path::PathBuf;

/// The data folder: `TRIBOARD_DATA_DIR`, else the user's (`~/.local/share/triboard` on Linux),
/// else `triboard-data` in the working folder. That last fallback is a folder of its own rather
/// than the working folder itself, so that the app's `games/` and `settings.json` and the
/// server's `server.sqlite` never mix with whatever else the working folder holds.
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TRIBOARD_DATA_DIR") {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("org", "triboard", "triboard")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("triboard-data"))
}
