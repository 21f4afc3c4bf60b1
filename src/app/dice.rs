//! Fresh randomness from the operating system: seeds for battles and rolls (recorded, so each
//! can be replayed) and unguessable tokens. The rules core never draws these itself.

use base64::Engine;
use rand::RngCore;

/// A seed for battles and rolls asked for without one. It is stored or reported, so the same
/// dice can be replayed.
pub fn fresh_seed() -> u64 {
    rand::rng().next_u64() >> 11 // exactly representable as a JSON number
}

/// `bytes` random bytes as URL-safe base64: session ids, share links, job ids, nonces.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buf)
}
