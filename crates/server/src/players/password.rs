//! Passwords, kept only as Argon2id hashes (PHC strings). Hashing is slow
//! on purpose, so it runs on a blocking thread, off the async runtime.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::RngCore;

/// The PHC string of `password`'s Argon2id hash, with a fresh random salt.
pub async fn hash(password: String) -> Result<String, String> {
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        rand::rng().fill_bytes(&mut salt);
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Whether `password` matches a stored hash (false for a malformed hash).
pub async fn verify(password: String, stored: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_salted_and_verify() {
        let a = hash("correct horse".into()).await.unwrap();
        let b = hash("correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify("correct horse".into(), a.clone()).await);
        assert!(!verify("wrong horse".into(), a).await);
        assert!(!verify("x".into(), "not a hash".into()).await);
    }
}
