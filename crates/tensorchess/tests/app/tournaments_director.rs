//! An arena's director keeps the arena in memory between ticks and reads
//! only what changed (issue 43): what it makes from memory equals what is
//! made from the store; the lease handed over and back has the arena read
//! whole again, so games another instance started count and nobody is
//! paired twice. And the presence's counts with two instances.

use crate::common::online::*;
use crate::tournaments::{
    arena, create, post, running, tick_at, total_points, view, white_wins, Field, START,
};
use serde_json::{json, Value};

/// The standings and pairings, as a page sees them.
fn seen(v: &Value) -> (Value, Value) {
    (v["standings"].clone(), v["pairings"].clone())
}

/// A and B over one database: A directs and stalls, B takes the lease and
/// pairs, B stalls, A takes the lease back. At each step the director's
/// view (made from memory) is the view read from the store by the other.
async fn lease_handed_over_and_back(a: TestApp, b: TestApp) {
    let mut f = Field::new(&a, &["ann", "bob", "cyd", "dee"]).await;
    f.connect(&b);
    let id = create(&a, f.of(&json!("ann")), arena("Handed over", 60)).await;
    for n in ["ann", "bob", "cyd", "dee"] {
        post(&a, &id, "join", f.of(&json!(n))).await;
    }
    tick_at(&a, START).await;
    let v = view(&a, &id).await;
    let first = running(&v);
    assert_eq!(first.len(), 2, "{v}");
    for p in &first {
        white_wins(&a, &f, p).await;
    }
    // A ticks no more (a stalled process): once its lease lapsed, B takes
    // it, reads the arena whole, and pairs everyone again.
    tick_at(&b, START + 10_000).await;
    let v = view(&b, &id).await;
    let second = running(&v);
    assert_eq!(second.len(), 2, "{v}");
    assert_eq!(total_points(&v), 4, "{v}");
    for p in &second {
        white_wins(&b, &f, p).await;
    }
    // Back to A once B's lease lapsed: what A kept (the first two games)
    // is dropped and the arena read again, so B's games count.
    tick_at(&a, START + 20_000).await;
    let from_memory = view(&a, &id).await;
    assert_eq!(running(&from_memory).len(), 2, "{from_memory}");
    for s in from_memory["standings"].as_array().unwrap() {
        assert_eq!(
            s["games"], 2,
            "each played twice, once a wave: {from_memory}"
        );
    }
    assert!(total_points(&from_memory) >= 8, "{from_memory}");
    // B no longer directs: it reads the store.
    assert_eq!(seen(&from_memory), seen(&view(&b, &id).await));

    // A's later ticks read only what changed: results of games ended on
    // B, and a withdrawal made on B.
    for p in &running(&from_memory) {
        white_wins(&b, &f, p).await;
    }
    post(&b, &id, "withdraw", f.of(&json!("dee"))).await;
    tick_at(&a, START + 22_000).await;
    let from_memory = view(&a, &id).await;
    let from_store = view(&b, &id).await;
    assert_eq!(seen(&from_memory), seen(&from_store));
    assert_eq!(from_memory["players"], 3, "{from_memory}");
    // Three players waiting, one withdrawn: one board, and nobody in two
    // games at once.
    let now = running(&from_memory);
    assert_eq!(now.len(), 1, "{from_memory}");
    assert!(now
        .iter()
        .all(|p| p["white"]["name"] != "dee" && p["black"]["name"] != "dee"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lease_handed_over_and_back_reads_the_arena_again() {
    let a = TestApp::new();
    let b = a.reopen();
    lease_handed_over_and_back(a, b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn the_lease_handed_over_and_back_reads_the_arena_again_on_postgres() {
    let a = TestApp::on_postgres();
    let b = a.reopen();
    until_both_listen(&a, &b).await;
    lease_handed_over_and_back(a, b).await;
}

/// Players online and spectators counted once over two instances, kept
/// as connections come and go on either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TENSORCHESS_TEST_PG (scripts/test.sh does)"]
async fn counts_are_the_same_on_two_instances() {
    let a = TestApp::on_postgres();
    let b = a.reopen();
    until_both_listen(&a, &b).await;
    let (pa, pb) = (a.state.games.live.presence(), b.state.games.live.presence());
    let both = |players: usize, spectators: usize| {
        let (pa, pb) = (pa.clone(), pb.clone());
        async move {
            [&pa, &pb]
                .iter()
                .all(|p| p.players_online() == players && p.spectators("g1") == spectators)
        }
    };
    let ann_a = pa.player_here("ann");
    let ann_b = pb.player_here("ann");
    let bob_b = pb.player_here("bob");
    let watch_a = pa.watch("g1", "cyd");
    let watch_b = pb.watch("g1", "cyd");
    let dee_b = pb.watch("g1", "dee");
    wait_until("2 players online and 2 spectators on both", || both(2, 2)).await;
    drop(ann_a);
    drop(watch_a);
    // Ann and Cyd are still on B.
    wait_until("the same after A's go", || both(2, 2)).await;
    drop(ann_b);
    drop(dee_b);
    wait_until("1 player and 1 spectator on both", || both(1, 1)).await;
    drop(bob_b);
    drop(watch_b);
    wait_until("nobody on both", || both(0, 0)).await;
}
