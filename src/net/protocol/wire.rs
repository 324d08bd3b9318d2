//! The wire form: each message as one JSON object with its `version`, and reading one back with
//! every check of the protocol (sizes, JSON, version, type, fields), never a panic.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::{ErrorCode, Refusal};
use super::limits::{MAX_MESSAGE_BYTES, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};
use super::messages::{ClientMessage, ServerMessage};

/// A message with its version, as written.
#[derive(Serialize)]
struct Versioned<'a, M> {
    version: u32,
    #[serde(flatten)]
    message: &'a M,
}

/// The JSON text of a client message, with its `version`.
pub fn encode_client(message: &ClientMessage) -> String {
    encode(message)
}

/// The JSON text of a server message, with its `version`.
pub fn encode_server(message: &ServerMessage) -> String {
    encode(message)
}

fn encode<M: Serialize>(message: &M) -> String {
    serde_json::to_string(&Versioned { version: PROTOCOL_VERSION, message })
        .expect("messages have string keys and no non-finite floats")
}

/// Reads a client message, refusing text over [`MAX_MESSAGE_BYTES`], malformed JSON, another
/// version, an unknown `type`, a bad field or a string field over
/// [`MAX_FIELD_BYTES`](super::limits::MAX_FIELD_BYTES).
///
/// # Errors
/// The [`Refusal`] to send back; never a panic.
pub fn decode_client(text: &str) -> Result<ClientMessage, Refusal> {
    let message: ClientMessage = decode(text, ClientMessage::TYPES)?;
    message.check_sizes()?;
    Ok(message)
}

/// Reads a server message (a client's side), with the checks of [`decode_client`] but for field
/// lengths.
///
/// # Errors
/// A [`Refusal`] saying what is wrong; never a panic.
pub fn decode_server(text: &str) -> Result<ServerMessage, Refusal> {
    decode(text, ServerMessage::TYPES)
}

fn decode<M: DeserializeOwned>(text: &str, types: &[&str]) -> Result<M, Refusal> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(Refusal::new(
            ErrorCode::TooLarge,
            format!("a message of {} bytes is over the limit of {MAX_MESSAGE_BYTES}", text.len()),
        ));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| Refusal::new(ErrorCode::Malformed, format!("not JSON: {e}")))?;
    let Value::Object(mut object) = value else {
        return Err(Refusal::new(ErrorCode::Malformed, "a message is a JSON object"));
    };
    match object.remove("version") {
        None => {
            return Err(Refusal::new(
                ErrorCode::Malformed,
                format!("the message has no \"version\" (this server speaks version {PROTOCOL_VERSION})"),
            ));
        }
        Some(Value::Number(n))
            if n.as_u64()
                .is_some_and(|v| (u64::from(OLDEST_PROTOCOL_VERSION)..=u64::from(PROTOCOL_VERSION)).contains(&v)) => {}
        Some(Value::Number(n)) => {
            return Err(Refusal::new(
                ErrorCode::UnsupportedVersion,
                format!(
                    "protocol version {n} is not spoken here (this server reads versions \
                     {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION})"
                ),
            ));
        }
        Some(other) => {
            return Err(Refusal::new(ErrorCode::Malformed, format!("\"version\" must be a number, not {other}")));
        }
    }
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(other) => {
            return Err(Refusal::new(ErrorCode::Malformed, format!("\"type\" must be a string, not {other}")));
        }
        None => return Err(Refusal::new(ErrorCode::Malformed, "the message has no \"type\"")),
    };
    if !types.contains(&kind.as_str()) {
        let mut shown: String = kind.chars().take(40).collect();
        if shown.len() < kind.len() {
            shown.push('…');
        }
        return Err(Refusal::new(
            ErrorCode::UnknownType,
            format!("unknown message type '{shown}' (types: {})", types.join(", ")),
        ));
    }
    serde_json::from_value(Value::Object(object))
        .map_err(|e| Refusal::new(ErrorCode::Malformed, format!("a bad '{kind}' message: {e}")))
}
