//! The server's secrets and names: seat tokens, join codes and game ids, drawn from the operating
//! system's generator.

use rand::TryRngCore as _;
use rand::rngs::OsRng;

use crate::net::protocol::{ErrorCode, Refusal};

/// The characters of join codes: digits and capitals without look-alikes (no 0, O, 1, I, L).
pub const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// How many characters a join code has (31⁸ ≈ 8.5 · 10¹¹ codes).
pub const CODE_LENGTH: usize = 8;

/// `N` bytes from the operating system's generator.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], Refusal> {
    let mut bytes = [0u8; N];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Refusal::new(ErrorCode::Storage, format!("no randomness from the system: {e}")))?;
    Ok(bytes)
}

/// `bytes` as lowercase hex digits, two a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat token: 128 random bits from the operating system, as 32 hex digits.
pub fn new_token() -> Result<String, Refusal> {
    Ok(hex(&random_bytes::<16>()?))
}

/// A join code: [`CODE_LENGTH`] characters of [`CODE_ALPHABET`], uniformly drawn from the
/// operating system's generator.
pub fn new_code() -> Result<String, Refusal> {
    let n = CODE_ALPHABET.len();
    // Bytes at or past the largest multiple of the alphabet's size are drawn again (no bias).
    let limit = 256 - 256 % n;
    let mut code = String::with_capacity(CODE_LENGTH);
    while code.len() < CODE_LENGTH {
        for b in random_bytes::<16>()? {
            if usize::from(b) < limit && code.len() < CODE_LENGTH {
                code.push(char::from(CODE_ALPHABET[usize::from(b) % n]));
            }
        }
    }
    Ok(code)
}

/// A game id: 64 random bits from the operating system, as 16 hex digits.
pub fn new_game_id() -> Result<String, Refusal> {
    Ok(hex(&random_bytes::<8>()?))
}
