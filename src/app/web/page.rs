//! The page the app runs in, as every part of the browser's side takes it: the window, and a
//! lock that survives a panic of its holder (the page's callbacks share queues with the frame).

use std::sync::Mutex;

/// The browser window the app runs in.
///
/// # Panics
/// Outside a browser window (the app's wasm build runs only in one).
pub fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a browser window")
}

/// Locks `m`, taking the value over from a holder that panicked.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
