// Shared by `build.rs` (which `include!`s this file) and the server: the
// hash of the page's files, for the assets' version (build.rs) and each
// file's ETag (http/assets.rs). Not for anything an attacker chooses.

/// FNV-1a's starting value (64 bits).
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a: `bytes` folded into the running hash `h` (begin with [`FNV_START`]).
pub fn fnv1a(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}
