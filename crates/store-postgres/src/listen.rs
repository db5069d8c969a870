//! The listener: a connection of its own (not from the pool, which would
//! hand it to others) that `LISTEN`s on the servers' channel and passes
//! every notification on. When the connection drops, it connects again,
//! backing off, and says [`StoreNotice::Listening`] each time it listens,
//! since notifications sent meanwhile are lost.

use futures_util::StreamExt;
use std::time::Duration;
use tensorchess_store::StoreNotice;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// How often an idle listener checks that its connection still works (a
/// connection cut without a word would otherwise look like silence).
const PROBE_EVERY: Duration = Duration::from_secs(10);
/// The longest wait between two attempts to connect.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Starts listening on `channel`; notices arrive on the receiver until it
/// is dropped.
pub fn listen(
    config: tokio_postgres::Config,
    channel: String,
) -> mpsc::UnboundedReceiver<StoreNotice> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut backoff = Duration::from_millis(100);
        loop {
            match listen_once(&config, &channel, &tx).await {
                Ok(()) => return, // nobody listens any more
                Err(e) => {
                    tracing::warn!("the PostgreSQL listener lost its connection: {e}");
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(backoff) => {}
                _ = tx.closed() => return,
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    });
    rx
}

/// `LISTEN`s on one connection until it fails (`Err`) or the receiver is
/// dropped (`Ok`).
async fn listen_once(
    config: &tokio_postgres::Config,
    channel: &str,
    tx: &mpsc::UnboundedSender<StoreNotice>,
) -> Result<(), String> {
    let (client, mut connection) = config.connect(NoTls).await.map_err(|e| e.to_string())?;
    // The connection's messages (notifications among them) come from
    // polling it; this task does that and hands on the notifications.
    let (note_tx, mut notes) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if note_tx.send(n.payload().to_string()).is_err() {
                        return Ok(());
                    }
                }
                Ok(_) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    });
    let quoted = channel.replace('"', "\"\"");
    if let Err(e) = client.batch_execute(&format!("LISTEN \"{quoted}\"")).await {
        driver.abort();
        return Err(e.to_string());
    }
    if tx.send(StoreNotice::Listening).is_err() {
        driver.abort();
        return Ok(());
    }
    let mut probe = tokio::time::interval(PROBE_EVERY);
    probe.tick().await;
    let result = loop {
        tokio::select! {
            note = notes.recv() => match note {
                Some(text) => {
                    if tx.send(StoreNotice::Text(text)).is_err() {
                        break Ok(());
                    }
                }
                // The connection ended: its error, if any, is the driver's.
                None => break Err(None),
            },
            _ = probe.tick() => {
                if let Err(e) = client.simple_query("SELECT 1").await {
                    break Err(Some(e));
                }
            }
            _ = tx.closed() => break Ok(()),
        }
    };
    drop(client);
    match result {
        Ok(()) => {
            driver.abort();
            Ok(())
        }
        Err(Some(e)) => {
            driver.abort();
            Err(e.to_string())
        }
        Err(None) => match driver.await {
            Ok(Err(e)) => Err(e.to_string()),
            // Closed without an error (the server shut down cleanly):
            // connect again all the same.
            _ => Err("the connection closed".into()),
        },
    }
}
