//! The account on the lobby's server ([`Account`], `docs/design.md` §Lobby): the Sign in / Sign up
//! form's fields, who is signed in, and the session kept in the settings
//! ([`OnlineSettings::sessions`]) so that every (re)opened connection signs in again with `resume`.
//! Each sign-in claims the seats held on that server for the account. The password is sent once
//! and forgotten; it is never kept in the settings nor printed.
//!
//! [`OnlineSettings::sessions`]: crate::app::settings::OnlineSettings::sessions

use bevy::prelude::*;

use super::link::Link;
use crate::app::flow::Status;
use crate::app::settings::{OnlineSession, Settings};
use crate::net::protocol::{ClientMessage, ErrorCode, ServerMessage};

/// The account form and who is signed in on the link's server.
#[derive(Resource, Default)]
pub struct Account {
    /// The name typed.
    pub name: String,
    /// The password typed (cleared once signed in; never kept).
    pub password: String,
    /// The account signed in on this connection, by name.
    pub signed_in: Option<String>,
    /// What the server last said to the form: a refusal (an error), or the seats a sign-in made
    /// the account's.
    pub said: Option<Status>,
    /// A sign-up, sign-in or resume waits for the server's answer.
    waiting: bool,
}

impl std::fmt::Debug for Account {
    /// Without the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("name", &self.name)
            .field("signed_in", &self.signed_in)
            .field("said", &self.said)
            .field("waiting", &self.waiting)
            .finish_non_exhaustive()
    }
}

impl Account {
    /// True while a sign-in waits for the server.
    pub fn waiting(&self) -> bool {
        self.waiting
    }

    /// Makes an account of the name and password typed and signs in, claiming the seats held on
    /// the link's server.
    pub fn sign_up(&mut self, link: &mut Link, settings: &Settings) {
        let (name, password, claim) = self.form(link, settings);
        link.send(&ClientMessage::Signup { name, password, claim });
        self.sent();
    }

    /// Signs in with the name and password typed, claiming the seats held on the link's server.
    pub fn log_in(&mut self, link: &mut Link, settings: &Settings) {
        let (name, password, claim) = self.form(link, settings);
        link.send(&ClientMessage::Login { name, password, claim });
        self.sent();
    }

    fn form(&self, link: &Link, settings: &Settings) -> (String, String, Vec<String>) {
        (self.name.trim().to_string(), self.password.clone(), settings.online.tokens(link.url()))
    }

    fn sent(&mut self) {
        self.waiting = true;
        self.said = None;
    }

    /// Signs out on the link's server: the session ends there and is forgotten here at once.
    pub fn sign_out(&mut self, link: &mut Link, settings: &mut Settings) {
        let server = link.url().to_string();
        if let Some(kept) = settings.online.session(&server) {
            link.send(&ClientMessage::Logout { session: kept.session.clone() });
        }
        settings.online.sessions.retain(|s| s.server != server);
        self.signed_in = None;
        self.said = None;
        self.waiting = false;
    }

    /// The connection (re)opened: nobody is signed in on it until the session kept for its server
    /// is resumed (which claims the seats held there too).
    pub(super) fn on_open(&mut self, link: &mut Link, settings: &Settings) {
        self.signed_in = None;
        self.waiting = false;
        if let Some(kept) = settings.online.session(link.url()) {
            let claim = settings.online.tokens(link.url());
            link.send(&ClientMessage::Resume { session: kept.session.clone(), claim });
            self.waiting = true;
        }
    }

    /// Whether an error with `code` is the account's to hear: the sign-in's refusals, and any
    /// refusal while a sign-in waits.
    pub(super) fn hears_error(&self, code: ErrorCode) -> bool {
        self.waiting
            || matches!(code, ErrorCode::BadName | ErrorCode::NameTaken | ErrorCode::BadLogin | ErrorCode::BadSession)
    }

    /// Hears the server's answer to a sign-in or sign-out (or a refusal, [`Account::hears_error`]);
    /// a session given is kept for `server`, one refused is forgotten.
    pub(super) fn hear(&mut self, message: ServerMessage, server: &str, settings: &mut Settings) {
        match message {
            ServerMessage::SignedIn { name, session, claimed } => {
                self.waiting = false;
                self.password.clear();
                self.said = (claimed > 0).then(|| {
                    let are = if claimed == 1 { "is" } else { "are" };
                    Status::info(format!("{claimed} of the games on this device {are} now yours"))
                });
                let kept = OnlineSession { server: server.to_string(), name: name.clone(), session };
                let sessions = &mut settings.online.sessions;
                if sessions.iter().find(|s| s.server == server) != Some(&kept) {
                    sessions.retain(|s| s.server != server);
                    sessions.push(kept);
                }
                // The server signed in on is the one to use next time.
                if settings.online.server != server {
                    settings.online.server = server.to_string();
                }
                self.signed_in = Some(name);
            }
            ServerMessage::SignedOut {} => {
                // Ours, or the session's end elsewhere (signed out on another device): either way
                // it is gone, and this device plays as a guest until it signs in again.
                if !self.waiting && self.signed_in.is_some() {
                    self.said = Some(Status::info("signed out: the session was ended on another device"));
                }
                self.waiting = false;
                self.signed_in = None;
                settings.online.sessions.retain(|s| s.server != server);
            }
            ServerMessage::Error { code, message, .. } => {
                self.waiting = false;
                if code == ErrorCode::BadSession {
                    // The session ended (signed out elsewhere, or the server forgot it).
                    settings.online.sessions.retain(|s| s.server != server);
                    self.signed_in = None;
                    self.said = Some(Status::error(format!("{message} (signed out)")));
                } else {
                    self.said = Some(Status::error(message));
                }
            }
            _ => {}
        }
    }
}
