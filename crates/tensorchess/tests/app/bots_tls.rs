//! The bridge over TLS (`tensorchess bot --server https://…`): a local
//! TLS endpoint with a self-signed certificate for `localhost` (made here
//! with rcgen, nothing fetched) passes the connections on to the test's
//! server. With that certificate given (`--ca-file`), the bridge's client
//! reads the account and follows the event stream; with the web's roots
//! only, the unknown certificate is refused.

use crate::bots::bot_account;
use crate::common::online::*;
use std::sync::Arc;
use tensorchess::bot::http::Server;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A TLS endpoint on a port of its own, passing each connection on to
/// `backend`; answers its address.
async fn tls_endpoint(
    backend: std::net::SocketAddr,
    cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
) -> std::net::SocketAddr {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(backend).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_speaks_https_with_a_certificate_it_trusts() {
    let t = TestApp::new();
    let (backend, _stop) = t.serve().await;
    let (_, token) = bot_account(&t, "robo").await;
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, made.cert.pem()).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.key_pair.serialize_der()));
    let addr = tls_endpoint(backend, made.cert.der().clone(), key).await;
    let url = format!("https://localhost:{}", addr.port());

    let server = Server::with_ca(&url, &token, Some(&ca)).unwrap();
    assert!(server.is_tls());
    let me = server.get("/api/account").await.unwrap();
    assert_eq!(me["username"], "robo", "{me}");
    assert_eq!(me["title"], "BOT");
    // A stream too (chunked over TLS): the keep-alive on the test clock.
    let mut lines = server.stream("/api/stream/event").await.unwrap();
    t.armed_for(T0 + 7_000).await;
    t.clock.advance(7_000);
    assert_eq!(lines.next().await.unwrap().as_deref(), Some(""));

    // The web's roots do not know this certificate: refused.
    let server = Server::new(&url, &token).unwrap();
    let e = server.get("/api/account").await.unwrap_err().to_string();
    assert!(e.contains("certificate"), "{e}");
    // A file without certificates is refused before connecting.
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    assert!(Server::with_ca(&url, &token, Some(&empty)).is_err());
}
