//! Invitations: a game's link to send ([`invitation`]), and a `#join=CODE` link the app was
//! launched with ([`JoinAtLaunch`]: the browser's address, or `TRIBOARD_JOIN` on the desktop),
//! which joins at launch — or resumes the seat already held there.

use bevy::prelude::*;

use super::link::{Link, join_link, read_invitation};
use super::lobby::Lobby;
use crate::app::settings::{OnlineSeat, Settings};

/// The invitation to show for a game created: its link, from the server's address.
pub fn invitation(seat: &OnlineSeat) -> Option<String> {
    (!seat.code.is_empty()).then(|| join_link(&seat.server, &seat.code))
}

/// A `#join=CODE` link (or a code) to join at launch: the browser's address, or `TRIBOARD_JOIN`
/// on the desktop, read when the app is built unless one was inserted before (the tests do).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinAtLaunch(pub Option<String>);

impl JoinAtLaunch {
    /// The link the app was launched with, if any.
    pub fn from_launch() -> JoinAtLaunch {
        #[cfg(target_arch = "wasm32")]
        let typed = web_sys::window().and_then(|w| w.location().hash().ok()).filter(|h| h.starts_with("#join="));
        #[cfg(not(target_arch = "wasm32"))]
        let typed = std::env::var("TRIBOARD_JOIN").ok().filter(|t| !t.trim().is_empty());
        JoinAtLaunch(typed)
    }
}

/// The [`JoinAtLaunch`] link, on the first frame: joins, or resumes the seat held for its code,
/// on the server it names. Without one, seats held connect at once, so the start screen can say
/// where it is the person's move.
pub(super) fn join_at_launch(
    mut done: Local<bool>,
    mut launch: ResMut<JoinAtLaunch>,
    mut lobby: ResMut<Lobby>,
    mut link: NonSendMut<Link>,
    mut settings: ResMut<Settings>,
) {
    if *done {
        return;
    }
    *done = true;
    let Some(typed) = launch.0.take() else {
        if let Some(server) = settings.online.games.last().map(|s| s.server.clone()) {
            link.want(&server);
        }
        return;
    };
    let read = read_invitation(&typed).and_then(|(code, server)| {
        let url = server.map_or_else(|| lobby.server_url(&settings), Ok)?;
        Ok((code, url))
    });
    let (code, url) = match read {
        Ok(read) => read,
        Err(e) => {
            lobby.said = Some(e);
            lobby.open = true;
            return;
        }
    };
    lobby.open = true;
    lobby.join(&mut link, &url, &code, &mut settings);
}
