//! The client's own secrets on the wire: request ids and the client secret of a guest
//! ([`ClientMessage::Hello`]), and the check that each carries at least 128 random bits
//! (`docs/design.md` §Threat model).
//!
//! A server cannot measure randomness, so it checks a form that a generator of 128 bits or more
//! fills and a person or a counter does not: [`MIN_SECRET_CHARS`] to [`MAX_SECRET_CHARS`]
//! characters of the URL-safe alphabet (`A–Z a–z 0–9 - _`; 32 hex digits are 128 bits, 22
//! base64url characters 132), at least [`MIN_DISTINCT_CHARS`] of them different (so "aaaa…" or
//! "0000…0001" is refused).
//!
//! [`ClientMessage::Hello`]: super::ClientMessage::Hello

use super::error::{ErrorCode, Refusal};

/// The fewest characters of a request id or client secret (32: 128 bits as hex digits).
pub const MIN_SECRET_CHARS: usize = 32;

/// The most characters of a request id or client secret.
pub const MAX_SECRET_CHARS: usize = 64;

/// The fewest different characters of a request id or client secret.
pub const MIN_DISTINCT_CHARS: usize = 8;

/// Checks that `secret`, named `what` in the refusal ("request id", "client secret"), has the form
/// of 128 random bits or more (see the module's doc).
///
/// # Errors
/// A [`ErrorCode::Malformed`] refusal saying what is wrong; nothing else happens.
pub fn check_secret(what: &str, secret: &str) -> Result<(), Refusal> {
    let refuse = |why: String| {
        Err(Refusal::new(
            ErrorCode::Malformed,
            format!(
                "a {what} is {MIN_SECRET_CHARS} to {MAX_SECRET_CHARS} random characters of A–Z a–z 0–9 - _ \
                 (128 bits or more, from the system's generator): {why}"
            ),
        ))
    };
    let n = secret.chars().count();
    if !(MIN_SECRET_CHARS..=MAX_SECRET_CHARS).contains(&n) {
        return refuse(format!("this one has {n}"));
    }
    if let Some(c) = secret.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return refuse(format!("{c:?} is not one of them"));
    }
    let mut seen = [false; 128];
    for b in secret.bytes() {
        seen[usize::from(b)] = true;
    }
    let distinct = seen.iter().filter(|&&s| s).count();
    if distinct < MIN_DISTINCT_CHARS {
        return refuse(format!("this one has only {distinct} different characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_long_random_looking_secrets_pass() {
        assert!(check_secret("request id", "3f9c2a7b41d06e58c9a1f2b3d4e5f607").is_ok(), "32 hex digits");
        assert!(check_secret("request id", "Zx_3-kQp9LmN2vBc8RtY4wEa").is_err(), "24 characters are too few");
        assert!(check_secret("request id", "Zx_3-kQp9LmN2vBc8RtY4wEa7uIoPs0D").is_ok(), "32 base64url characters");
        for bad in ["r", "req-2", "", &"a".repeat(32), "00000000000000000000000000000001", &"ab12cd34".repeat(9)] {
            let refused = check_secret("request id", bad).unwrap_err();
            assert_eq!(refused.code, ErrorCode::Malformed, "{bad}");
            assert!(refused.message.contains("a request id is 32 to 64"), "{}", refused.message);
        }
        let spaced = check_secret("client secret", "3f9c2a7b41d06e58 9a1f2b3d4e5f6071").unwrap_err();
        assert!(spaced.message.contains("' ' is not one of them"), "{}", spaced.message);
    }
}
