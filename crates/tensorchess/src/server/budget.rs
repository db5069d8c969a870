//! The server's engine budget: at most a few searches at once (about the
//! number of cores), handed out fairly between players (round robin over
//! the players waiting, so one player's many requests cannot starve the
//! others), with a bound on the queue: past it, an advisory search is
//! refused at once (503 with `Retry-After`) rather than slowing everyone.
//! Background work (game reviews) waits at low priority: it is given a slot
//! only when no other search waits, so it never delays play.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// Why no search slot was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The queue is full: try again in a while.
    Overloaded,
    /// This player already has as many searches waiting as allowed.
    TooManyOfYours,
}

#[derive(Default)]
struct Queue {
    running: usize,
    waiting: usize,
    /// Players with waiters, in turn order.
    turns: VecDeque<String>,
    waiters: HashMap<String, VecDeque<oneshot::Sender<()>>>,
    /// Background searches waiting, in order: served after everyone else.
    background: VecDeque<oneshot::Sender<()>>,
}

/// Slots for searches, shared fairly.
pub struct SearchBudget {
    queue: Mutex<Queue>,
    /// Searches at once.
    pub capacity: usize,
    /// Searches that may wait in all.
    pub max_waiting: usize,
    /// Searches one player may have waiting.
    pub max_waiting_per_player: usize,
}

/// A search slot, given back when dropped.
pub struct Slot {
    budget: Arc<SearchBudget>,
}

impl SearchBudget {
    pub fn new(capacity: usize) -> Arc<SearchBudget> {
        let capacity = capacity.max(1);
        Arc::new(SearchBudget {
            queue: Mutex::new(Queue::default()),
            capacity,
            max_waiting: capacity * 16,
            max_waiting_per_player: 4,
        })
    }

    /// Searches running now, and waiting.
    pub fn load(&self) -> (usize, usize) {
        let q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        (q.running, q.waiting)
    }

    /// Waits for a slot for `player`. `may_refuse`: an advisory search is
    /// refused when the queue is full; a game's own search always waits.
    pub async fn slot(self: &Arc<Self>, player: &str, may_refuse: bool) -> Result<Slot, Refusal> {
        let rx = {
            let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            if q.running < self.capacity && q.waiting == 0 {
                q.running += 1;
                return Ok(Slot {
                    budget: self.clone(),
                });
            }
            let mine = q.waiters.get(player).map_or(0, VecDeque::len);
            if may_refuse {
                if q.waiting >= self.max_waiting {
                    return Err(Refusal::Overloaded);
                }
                if mine >= self.max_waiting_per_player {
                    return Err(Refusal::TooManyOfYours);
                }
            }
            let (tx, rx) = oneshot::channel();
            if mine == 0 {
                q.turns.push_back(player.to_string());
            }
            q.waiters
                .entry(player.to_string())
                .or_default()
                .push_back(tx);
            q.waiting += 1;
            rx
        };
        // The slot is handed over by whoever gives theirs back.
        let mut waiting = Waiting {
            rx,
            budget: self.clone(),
            done: false,
        };
        let handed = (&mut waiting.rx).await;
        waiting.done = true;
        match handed {
            Ok(()) => Ok(Slot {
                budget: self.clone(),
            }),
            Err(_) => Err(Refusal::Overloaded),
        }
    }

    /// Waits for a slot at low priority (background work: reviews): given
    /// only when no other search waits, never refused (the callers bound
    /// how many of them there are).
    pub async fn background_slot(self: &Arc<Self>) -> Slot {
        let rx = {
            let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            if q.running < self.capacity && q.waiting == 0 && q.background.is_empty() {
                q.running += 1;
                return Slot {
                    budget: self.clone(),
                };
            }
            let (tx, rx) = oneshot::channel();
            q.background.push_back(tx);
            rx
        };
        // A sender is dropped only by a budget that is gone: then there is
        // nothing to share any more. A review that goes away after a slot
        // was handed to it gives the slot back (`Waiting`).
        let mut waiting = Waiting {
            rx,
            budget: self.clone(),
            done: false,
        };
        let _ = (&mut waiting.rx).await;
        waiting.done = true;
        Slot {
            budget: self.clone(),
        }
    }

    /// Background searches waiting now.
    pub fn background_waiting(&self) -> usize {
        let q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.background.len()
    }

    /// Gives a slot back: to the next waiting player in turn, if any, else
    /// to the next background search.
    fn release(&self) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(player) = q.turns.pop_front() {
            let Some(waiters) = q.waiters.get_mut(&player) else {
                continue;
            };
            let next = waiters.pop_front();
            let more = !waiters.is_empty();
            if more {
                q.turns.push_back(player.clone());
            } else {
                q.waiters.remove(&player);
            }
            if let Some(tx) = next {
                q.waiting -= 1;
                // A waiter that gave up (its request went away) is skipped.
                if tx.send(()).is_ok() {
                    return;
                }
            }
        }
        while let Some(tx) = q.background.pop_front() {
            if tx.send(()).is_ok() {
                return;
            }
        }
        q.running = q.running.saturating_sub(1);
    }
}

/// A waiter for a slot. If it goes away (its request was dropped) after a
/// slot was handed to it but before it took it, it gives the slot back, so
/// that no slot is ever lost.
struct Waiting {
    rx: oneshot::Receiver<()>,
    budget: Arc<SearchBudget>,
    /// The answer was taken (a slot, or the budget's end).
    done: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if !self.done {
            // Closing first: no slot can be handed over after this look.
            self.rx.close();
            if self.rx.try_recv().is_ok() {
                self.budget.release();
            }
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.budget.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn slots_are_capped_and_shared_in_turn() {
        let budget = SearchBudget::new(1);
        let first = budget.slot("a", true).await.unwrap();
        // "a" queues three, "b" one: "b" is served second, not fourth.
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, p) in ["a", "a", "a", "b"].into_iter().enumerate() {
            let (budget, order) = (budget.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _slot = budget.slot(p, false).await.unwrap();
                order.lock().unwrap().push(p);
                tokio::time::sleep(Duration::from_millis(5)).await;
                i
            }));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(budget.load(), (1, 4));
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["a", "b", "a", "a"]);
        assert_eq!(budget.load(), (0, 0));
    }

    #[tokio::test]
    async fn background_work_waits_until_nobody_else_does() {
        let budget = SearchBudget::new(1);
        let held = budget.slot("a", true).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let b = budget.clone();
        let o = order.clone();
        let review = tokio::spawn(async move {
            let _slot = b.background_slot().await;
            o.lock().unwrap().push("review");
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        let b = budget.clone();
        let o = order.clone();
        let game = tokio::spawn(async move {
            let _slot = b.slot("g", false).await.unwrap();
            o.lock().unwrap().push("game");
            tokio::time::sleep(Duration::from_millis(5)).await;
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(budget.background_waiting(), 1);
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
    async fn advice_is_refused_past_the_queue_and_per_player() {
        let budget = SearchBudget::new(1);
        let _held = budget.slot("a", true).await.unwrap();
        let mut waiting = Vec::new();
        for _ in 0..budget.max_waiting_per_player {
            let b = budget.clone();
            waiting.push(tokio::spawn(
                async move { b.slot("p", true).await.map(|_| ()) },
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(
            budget.slot("p", true).await.err(),
            Some(Refusal::TooManyOfYours)
        );
        let mut others = Vec::new();
        for i in 0..budget.max_waiting {
            let b = budget.clone();
            others.push(tokio::spawn(async move {
                b.slot(&format!("o{i}"), true).await.map(|_| ())
            }));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(
            budget.slot("q", true).await.err(),
            Some(Refusal::Overloaded)
        );
        // A game's own search waits even then.
        let b = budget.clone();
        let game = tokio::spawn(async move { b.slot("g", false).await.is_ok() });
        tokio::time::sleep(Duration::from_millis(20)).await;
        for t in waiting.into_iter().chain(others) {
            t.abort();
        }
        drop(_held);
        assert!(game.await.unwrap(), "given abandoned waiters' turns");
    }
}
