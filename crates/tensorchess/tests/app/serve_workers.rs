//! `tensorchess serve --workers N`: the threads that run the server's
//! work, twice the CPUs by default (docs/deployment.md), as
//! `GET /api/health` reports them; a count of none is refused.

use crate::common::{http_client, ServeProcess};
use serde_json::Value;

async fn workers(server: &ServeProcess) -> u64 {
    let answer = http_client()
        .get(format!("http://{}/api/health", server.addr))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 200);
    let health: Value = serde_json::from_str(&answer.text().await.expect("a body")).expect("JSON");
    health["workers"].as_u64().expect("a count of threads")
}

#[tokio::test]
async fn the_server_runs_on_as_many_threads_as_asked_and_twice_the_cpus_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let db = db.to_str().unwrap();
    let three = ServeProcess::start(&["--db", db, "--no-schedule", "--workers", "3"]);
    assert_eq!(workers(&three).await, 3);
    drop(three);
    let default = ServeProcess::start(&["--db", db, "--no-schedule"]);
    let cpus = std::thread::available_parallelism().unwrap().get() as u64;
    assert_eq!(workers(&default).await, 2 * cpus);
}

#[test]
fn no_threads_is_refused() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tensorchess"))
        .args(["serve", "--port", "0", "--workers", "0"])
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--workers"), "{err}");
}
