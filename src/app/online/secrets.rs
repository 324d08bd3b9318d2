//! The client's own secrets for the server (`docs/design.md` §Threat model): each request's id and
//! the client secret its connections say hello with, both 128 bits from the operating system's
//! generator (`getrandom`; in the browser `crypto.getRandomValues`), as 32 hex digits — the form
//! the server asks for ([`check_secret`](crate::net::protocol::check_secret)).

use std::sync::OnceLock;

/// 128 bits from the system's generator, as 32 hex digits.
///
/// # Panics
/// If the system has no generator to give (no browser or system without one runs the app).
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh request id: a retry of the same request carries the same one.
pub fn request_id() -> String {
    random_id()
}

/// This run's client secret: the server answers a guest's retried request only to the client
/// that sent it (the same on every connection of this run, shown to nobody else).
pub fn client_secret() -> &'static str {
    static SECRET: OnceLock<String> = OnceLock::new();
    SECRET.get_or_init(random_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::check_secret;

    #[test]
    fn ids_are_fresh_and_of_the_form_the_server_takes() {
        let ids: std::collections::BTreeSet<String> = (0..100).map(|_| request_id()).collect();
        assert_eq!(ids.len(), 100);
        for id in &ids {
            assert!(check_secret("request id", id).is_ok(), "{id}");
        }
        assert_eq!(client_secret(), client_secret(), "one secret a run");
        assert!(check_secret("client secret", client_secret()).is_ok());
    }
}
