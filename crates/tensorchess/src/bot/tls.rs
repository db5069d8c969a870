//! TLS for the bridge (`--server https://…`): rustls with the web's root
//! certificates (webpki-roots, built in: no system store is read), or the
//! certificates of a PEM file (`--ca-file`, for a server with a
//! certificate of one's own, and for tests).

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use std::path::Path;
use std::sync::Arc;
use tokio_rustls::TlsConnector;

/// What a TLS connection needs: the connector and the name the server's
/// certificate must carry.
#[derive(Clone)]
pub struct Tls {
    connector: TlsConnector,
    name: ServerName<'static>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tls({:?})", self.name)
    }
}

impl Tls {
    /// TLS to `host` (a name or an address), trusting the web's roots, or
    /// only the certificates in `ca_file` when it is given.
    pub fn new(host: &str, ca_file: Option<&Path>) -> Result<Tls, String> {
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
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        // An IPv6 address comes in brackets in a URL, not in a certificate.
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let name = ServerName::try_from(bare.to_string())
            .map_err(|_| format!("'{host}' is not a host name TLS can check"))?;
        Ok(Tls {
            connector: TlsConnector::from(Arc::new(config)),
            name,
        })
    }

    /// TLS over `stream`, the server's certificate checked.
    pub async fn connect(
        &self,
        stream: tokio::net::TcpStream,
    ) -> std::io::Result<tokio_rustls::client::TlsStream<tokio::net::TcpStream>> {
        self.connector.connect(self.name.clone(), stream).await
    }
}
