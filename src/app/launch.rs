//! Before the window opens: whether there is a display to open it on ([`missing_display`]).

/// On Linux without `DISPLAY` or `WAYLAND_DISPLAY`, the sentence saying what is missing and what
/// works without it; `None` where a window may open (other systems are left to try).
pub fn missing_display() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") {
        return None;
    }
    Some(
        "triboard: no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set). \
         Run it on a desktop, or under a virtual display (xvfb-run, see README.md); the subcommands \
         need none: `triboard play trike`, `triboard selfplay …`, `triboard --help`."
            .to_string(),
    )
}
