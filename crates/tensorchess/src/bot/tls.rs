//! TLS for the bridge (`--server https://…`): the rustls configuration
//! its HTTP client ([`super::http`]) is built with: ring's cryptography,
//! and the web's root certificates (webpki-roots, built in: no system
//! store is read), or only the certificates of a PEM file (`--ca-file`,
//! for a server with a certificate of one's own, and for tests).

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use std::path::Path;
use std::sync::Arc;

/// A client configuration trusting the web's roots, or only the
/// certificates in `ca_file` when it is given.
pub fn client_config(ca_file: Option<&Path>) -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore::empty();
    match ca_file {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{}: not PEM certificates: {e}", path.display()))?;
            if certs.is_empty() {
                return Err(format!("{} holds no certificate", path.display()));
            }
            for cert in certs {
                roots
                    .add(cert)
                    .map_err(|e| format!("{}: a bad certificate: {e}", path.display()))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}
