use super::*;

fn who(player: &str, client: &str) -> Requester {
    Requester::new(player, Some(client.parse().unwrap()))
}

/// Lets the spawned waiters run until `n` wait (no sleep: yields).
async fn until_waiting(budget: &SearchBudget, n: usize) {
    for _ in 0..10_000 {
        if budget.load().1 == n {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("{n} waiters expected, {:?} now", budget.load());
}

/// Queues a game search of `who` that records its turn and holds its slot
/// until told to go on.
fn queue_game(
    budget: &Arc<SearchBudget>,
    who: Requester,
    order: &Arc<Mutex<Vec<String>>>,
) -> tokio::task::JoinHandle<()> {
    let (budget, order) = (budget.clone(), order.clone());
    tokio::spawn(async move {
        let _slot = budget.slot(&who, true).await.unwrap();
        order.lock().unwrap().push(who.player.clone());
    })
}

#[tokio::test]
async fn turns_go_round_clients_not_identities() {
    let budget = SearchBudget::new(1);
    let held = budget.slot(&who("first", "192.0.2.1"), true).await.unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    // Five fresh guests from one address, then an honest player elsewhere.
    for i in 0..5 {
        tasks.push(queue_game(
            &budget,
            who(&format!("guest{i}"), "203.0.113.7"),
            &order,
        ));
        until_waiting(&budget, i + 1).await;
    }
    tasks.push(queue_game(&budget, who("honest", "198.51.100.2"), &order));
    until_waiting(&budget, 6).await;
    drop(held);
    for t in tasks {
        t.await.unwrap();
    }
    let order = order.lock().unwrap().clone();
    assert_eq!(order[1], "honest", "served second, not sixth: {order:?}");
    assert_eq!(budget.load(), (0, 0));
}

#[tokio::test]
async fn engine_moves_are_admitted_per_player_and_per_address() {
    let budget = SearchBudget::new(1);
    let _held = budget.slot(&who("x", "192.0.2.9"), true).await.unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    let p = who("p", "203.0.113.1");
    for n in 0..budget.limits.games_per_player {
        assert_eq!(budget.admits_game(&p), Ok(()));
        tasks.push(queue_game(&budget, p.clone(), &order));
        until_waiting(&budget, n + 1).await;
    }
    assert_eq!(budget.admits_game(&p), Err(Refusal::TooManyOfYours));
    // Other guests of the same address, up to the address's share.
    let mut n = budget.limits.games_per_player;
    let mut i = 0;
    while n < budget.limits.games_per_client {
        let g = who(&format!("g{i}"), "203.0.113.1");
        assert_eq!(budget.admits_game(&g), Ok(()));
        tasks.push(queue_game(&budget, g, &order));
        n += 1;
        i += 1;
        until_waiting(&budget, n).await;
    }
    assert_eq!(
        budget.admits_game(&who("fresh-guest", "203.0.113.1")),
        Err(Refusal::TooManyOfYours)
    );
    assert_eq!(budget.admits_game(&who("other", "198.51.100.1")), Ok(()));
    // Work the server resumes by itself has no address: only the player counts.
    assert_eq!(budget.admits_game(&Requester::new("resumed", None)), Ok(()));
    for t in tasks {
        t.abort();
    }
}

#[tokio::test]
async fn a_crowd_shortens_each_reply() {
    let budget = SearchBudget::new(2);
    let second = Duration::from_secs(1);
    assert_eq!(budget.time_share(second), second, "nobody waits");
    let _a = budget.slot(&who("a", "192.0.2.1"), true).await.unwrap();
    let _b = budget.slot(&who("b", "192.0.2.2"), true).await.unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for i in 0..38 {
        tasks.push(queue_game(
            &budget,
            who(&format!("c{i}"), &format!("10.0.0.{i}")),
            &order,
        ));
        until_waiting(&budget, i + 1).await;
    }
    // 2 slots for 38 waiting: a twentieth of the time each.
    assert_eq!(
        budget.time_share(second),
        Duration::from_millis(50).max(budget.limits.min_share)
    );
    assert_eq!(
        budget.time_share(Duration::from_millis(50)),
        Duration::from_millis(50)
    );
    for t in tasks {
        t.abort();
    }
}

#[tokio::test]
async fn background_work_waits_until_nobody_else_does() {
    let budget = SearchBudget::new(1);
    let held = budget.slot(&who("a", "192.0.2.1"), true).await.unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let b = budget.clone();
    let o = order.clone();
    let review = tokio::spawn(async move {
        let _slot = b.background_slot().await;
        o.lock().unwrap().push("review".to_string());
    });
    for _ in 0..10_000 {
        if budget.background_waiting() == 1 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(budget.background_waiting(), 1);
    let game = queue_game(&budget, who("game", "192.0.2.3"), &order);
    until_waiting(&budget, 1).await;
    drop(held);
    game.await.unwrap();
    review.await.unwrap();
    assert_eq!(
        *order.lock().unwrap(),
        ["game", "review"],
        "the game came later, went first"
    );
    assert_eq!(budget.load(), (0, 0));
}

#[tokio::test]
async fn advice_is_refused_past_the_queue_per_player_and_per_address() {
    let budget = SearchBudget::new(1);
    let held = budget.slot(&who("a", "192.0.2.1"), false).await.unwrap();
    let mut waiting = Vec::new();
    let p = who("p", "203.0.113.5");
    for n in 0..budget.limits.advice_per_player {
        let (b, p) = (budget.clone(), p.clone());
        waiting.push(tokio::spawn(
            async move { b.slot(&p, false).await.map(|_| ()) },
        ));
        until_waiting(&budget, n + 1).await;
    }
    assert_eq!(
        budget.slot(&p, false).await.err(),
        Some(Refusal::TooManyOfYours)
    );
    let mut n = budget.limits.advice_per_player;
    while n < budget.limits.advice_per_client {
        let (b, g) = (budget.clone(), who(&format!("g{n}"), "203.0.113.5"));
        waiting.push(tokio::spawn(
            async move { b.slot(&g, false).await.map(|_| ()) },
        ));
        n += 1;
        until_waiting(&budget, n).await;
    }
    assert_eq!(
        budget.slot(&who("fresh", "203.0.113.5"), false).await.err(),
        Some(Refusal::TooManyOfYours),
        "a fresh guest of the same address"
    );
    while n < budget.limits.max_waiting {
        let (b, o) = (
            budget.clone(),
            who(&format!("o{n}"), &format!("10.1.{}.{}", n / 200, n % 200)),
        );
        waiting.push(tokio::spawn(
            async move { b.slot(&o, false).await.map(|_| ()) },
        ));
        n += 1;
        until_waiting(&budget, n).await;
    }
    assert_eq!(
        budget.slot(&who("q", "198.51.100.9"), false).await.err(),
        Some(Refusal::Overloaded)
    );
    // A game's own search waits even then, and gets abandoned waiters' turns.
    let b = budget.clone();
    let game = tokio::spawn(async move { b.slot(&who("g", "198.51.100.10"), true).await.is_ok() });
    until_waiting(&budget, n + 1).await;
    for t in waiting {
        t.abort();
    }
    drop(held);
    assert!(game.await.unwrap());
}
