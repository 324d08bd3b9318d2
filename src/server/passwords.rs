//! Account names, passwords and session tokens (`docs/design.md` §Lobby): which names are taken
//! ([`check_name`], [`name_key`]), Argon2id password hashes ([`hash_password`],
//! [`verify_password`]) and the hash a session token is stored as ([`session_hash`]).
//!
//! Hashing a password is slow on purpose (Argon2id with the `argon2` crate's default cost: 19 MiB,
//! two passes, one lane — OWASP's recommendation), so the transport runs it off the service
//! thread ([`PasswordJob`]).

use std::cell::RefCell;
use std::net::IpAddr;

use argon2::password_hash::{self, Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use blake2::{Blake2s256, Digest};

use super::account_store::AccountId;
use super::ids::{hex, random_bytes};
use crate::net::protocol::{ErrorCode, Refusal};

/// The shortest and longest account names, in characters.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// The shortest and longest passwords, in bytes.
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;

/// Names (as [`name_key`] reads them) that nobody may take, each a prefix: they would pass for
/// the server, its bots or a guest.
const RESERVED: &[&str] = &["admln", "guest", "trlboard", "server", "moderator", "system", "anonymous"];

/// The name as names are compared: lowercase, `_` and `-` dropped, and the look-alikes `0`→`o`,
/// `1`/`i`→`l`, `5`→`s`, `rn`→`m` folded, so that `Ann_1e` and `annie` are one name, as are
/// `Mo0n` and `moon`.
pub fn name_key(name: &str) -> String {
    let folded: String = name
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' => 'l',
            '5' => 's',
            c => c,
        })
        .collect();
    folded.replace("rn", "m")
}

/// Checks a new account's name: [`NAME_LENGTH`] characters, ASCII letters, digits, `_` and `-`,
/// starting with a letter, no reserved name.
///
/// # Errors
/// A [`ErrorCode::BadName`] refusal saying what is wrong.
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let bad = |why: String| Err(Refusal::new(ErrorCode::BadName, why));
    let count = name.chars().count();
    if !NAME_LENGTH.contains(&count) {
        return bad(format!("a name has {} to {} characters, not {count}", NAME_LENGTH.start(), NAME_LENGTH.end()));
    }
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return bad("a name starts with a letter (a–z, A–Z)".into());
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        return bad(format!("a name has letters a–z, digits, '_' and '-' only, not '{c}'"));
    }
    let key = name_key(name);
    if RESERVED.iter().any(|r| key.starts_with(r)) {
        return bad(format!("'{name}' is kept for the server"));
    }
    Ok(())
}

/// Checks a new password's length ([`PASSWORD_LENGTH`] bytes).
///
/// # Errors
/// A [`ErrorCode::BadLogin`] refusal saying what is wrong.
pub fn check_password(password: &str) -> Result<(), Refusal> {
    if PASSWORD_LENGTH.contains(&password.len()) {
        Ok(())
    } else {
        Err(Refusal::new(
            ErrorCode::BadLogin,
            format!("a password has {} to {} bytes", PASSWORD_LENGTH.start(), PASSWORD_LENGTH.end()),
        ))
    }
}

thread_local! {
    /// This thread's Argon2 working memory (19 MiB at the default cost), kept from one hash to
    /// the next. Argon2's own `hash_password` allocates and frees it for each hash, and the
    /// allocator kept much of what was freed: `serve-bench --soak` saw a server's resident memory
    /// grow by ~130 MiB in 20 s of sign-ins with passwords and never come down. Kept here, a
    /// password thread holds one block of memory, its size fixed by the cost.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Argon2 `argon`'s output for `password` and `salt` (raw bytes) into `out`, in this thread's
/// [`MEMORY`].
fn argon2_into(argon: &Argon2<'_>, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), argon2::Error> {
    MEMORY.with_borrow_mut(|blocks| {
        let wanted = argon.params().block_count();
        if blocks.len() != wanted {
            *blocks = vec![Block::default(); wanted];
        }
        argon.hash_password_into_with_memory(password, salt, out, &mut blocks[..])
    })
}

/// The password's Argon2id hash (the crate's default cost) with a fresh random salt, in the PHC
/// string form, as `Argon2::hash_password` writes it.
///
/// # Errors
/// A storage refusal if the system gives no randomness.
pub fn hash_password(password: &str) -> Result<String, Refusal> {
    let failed =
        |e: &dyn std::fmt::Display| Refusal::new(ErrorCode::Storage, format!("the password could not be hashed: {e}"));
    let salt_bytes = random_bytes::<16>()?;
    let salt =
        SaltString::encode_b64(&salt_bytes).map_err(|e| Refusal::new(ErrorCode::Storage, format!("no salt: {e}")))?;
    let argon = Argon2::default();
    let output = Output::init_with(Params::DEFAULT_OUTPUT_LEN, |out| {
        argon2_into(&argon, password.as_bytes(), &salt_bytes, out).map_err(password_hash::Error::from)
    })
    .map_err(|e| failed(&e))?;
    let hash = PasswordHash {
        algorithm: Algorithm::default().ident(),
        version: Some(Version::default().into()),
        params: ParamsString::try_from(argon.params()).map_err(|e| failed(&e))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(hash.to_string())
}

/// Whether `password` matches the stored `hash` (false for a hash that cannot be read), with the
/// algorithm, version and cost the hash names.
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else { return false };
    let (Ok(algorithm), Ok(params)) = (Algorithm::try_from(parsed.algorithm), Params::try_from(&parsed)) else {
        return false;
    };
    let Ok(version) = parsed.version.map(Version::try_from).transpose() else { return false };
    let argon = Argon2::new(algorithm, version.unwrap_or_default(), params);
    let mut salt_buf = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_buf) else { return false };
    let computed = Output::init_with(expected.len(), |out| {
        argon2_into(&argon, password.as_bytes(), salt_bytes, out).map_err(password_hash::Error::from)
    });
    // `Output`'s comparison takes the same time wherever the outputs differ.
    computed.is_ok_and(|computed| computed == expected)
}

/// What a session token is stored as: its BLAKE2s-256 hash, hex. A token is 128 random bits, so
/// a fast hash suffices: the store's copy cannot be used as a token.
pub fn session_hash(token: &str) -> String {
    hex(&Blake2s256::digest(token.as_bytes()))
}

/// The slow half of a sign-up or a sign-in, run off the service thread: hashing a new password
/// or checking one against its hash. [`PasswordJob::run`] does it; the service then finishes the
/// request with the [`PasswordDone`] (`Service::finish_password`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordJob {
    /// Hash a new account's password.
    Hash {
        /// The new account's name.
        name: String,
        /// Its password.
        password: String,
        /// The seat tokens to claim once signed in.
        claim: Vec<String>,
    },
    /// Check a password against the account's hash.
    Verify {
        /// The account.
        account: AccountId,
        /// The password given.
        password: String,
        /// The stored hash.
        hash: String,
        /// The seat tokens to claim once signed in.
        claim: Vec<String>,
        /// The name as given, read as its key ([`name_key`]), and the address it came from: a
        /// wrong password is counted against the two together.
        from: (String, Option<IpAddr>),
    },
}

/// What a [`PasswordJob`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordDone {
    /// A new account's password was hashed.
    Hashed {
        /// The new account's name.
        name: String,
        /// The hash, or why there is none.
        hash: Result<String, Refusal>,
        /// The seat tokens to claim.
        claim: Vec<String>,
    },
    /// A password was checked.
    Verified {
        /// The account.
        account: AccountId,
        /// Whether the password matched its hash.
        matched: bool,
        /// The seat tokens to claim.
        claim: Vec<String>,
        /// The name's key and the address, as the job had them.
        from: (String, Option<IpAddr>),
    },
}

impl PasswordJob {
    /// Does the slow work (tens of ms; in a test build more).
    pub fn run(self) -> PasswordDone {
        match self {
            PasswordJob::Hash { name, password, claim } => {
                PasswordDone::Hashed { name, hash: hash_password(&password), claim }
            }
            PasswordJob::Verify { account, password, hash, claim, from } => {
                PasswordDone::Verified { account, matched: verify_password(&password, &hash), claim, from }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_names_read_as_one() {
        assert_eq!(name_key("Ann_1e"), name_key("annie"));
        assert_eq!(name_key("Mo0n"), name_key("moon"));
        assert_eq!(name_key("barn"), name_key("bam"));
        assert_ne!(name_key("alice"), name_key("alicia"));
        assert!(check_name("Alice-2").is_ok());
        for bad in ["al", "2pac", "a b c", "Ålice", "x".repeat(21).as_str(), "Guest7", "TRIBOARD-x", "Adm1n"] {
            assert_eq!(check_name(bad).unwrap_err().code, ErrorCode::BadName, "{bad}");
        }
    }

    #[test]
    fn a_password_hash_verifies_only_its_password() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsf", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(hash_password("correct horse").unwrap(), hash, "each hash has its own salt");
        assert_eq!(session_hash("ab").len(), 64);
        assert!(check_password("short").is_err() && check_password("long enough").is_ok());
    }

    #[test]
    fn hashes_read_both_ways_with_the_crates_own() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier, SaltString};
        // A hash stored before this thread kept its memory, and one stored now.
        let salt = SaltString::encode_b64(b"sixteen bytes!!!").unwrap();
        let before = argon2::Argon2::default().hash_password(b"correct horse", &salt).unwrap().to_string();
        assert!(verify_password("correct horse", &before) && !verify_password("correct horsf", &before));
        let now = hash_password("correct horse").unwrap();
        let parsed = argon2::PasswordHash::new(&now).unwrap();
        assert!(argon2::Argon2::default().verify_password(b"correct horse", &parsed).is_ok());
        // Another cost (as a hash stored under other settings would have) is read with its own.
        let params = argon2::Params::new(4096, 3, 1, None).unwrap();
        let other = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
        let cheaper = other.hash_password(b"correct horse", &salt).unwrap().to_string();
        assert!(verify_password("correct horse", &cheaper) && !verify_password("correct horsf", &cheaper));
        assert!(verify_password("correct horse", &now), "after another size of memory");
    }
}
