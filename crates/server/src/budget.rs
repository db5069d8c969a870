//! The server's engine budget: at most a few searches at once (about the
//! number of cores), handed out fairly between *clients* (round robin over
//! the client addresses waiting, so that many throwaway guests from one
//! address wait their turn as one), with bounds on the queue:
//!
//! - an advisory search (hint, evaluation, analysis) is refused at once
//!   (503 with `Retry-After`) when the queue is full, and 429 when its
//!   player or address already has as many waiting as allowed;
//! - a game's own search (the engine's move) is never refused once the
//!   person's move is made, so the move is refused before it is made
//!   ([`SearchBudget::admits_game`]) when its player or address already
//!   has too many engine moves waiting;
//! - a game's search handed its slot while others wait thinks for a share
//!   of its time ([`SearchBudget::time_share`]), so that a crowd of engine
//!   games shortens each reply instead of delaying everyone's.
//!
//! Background work (game reviews) waits at low priority: it is given a slot
//! only when no other search waits, so it never delays play.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// Why no search slot was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The queue is full: try again in a while.
    Overloaded,
    /// This player or address already has as many searches waiting as allowed.
    TooManyOfYours,
}

/// Who a search is for: the player, and the client address that asked
/// (`None` for work the server resumes by itself).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requester {
    /// The player's id.
    pub player: String,
    /// The client's address (after trusted proxies).
    pub client: Option<IpAddr>,
}

impl Requester {
    /// A requester from a player's id and their address.
    pub fn new(player: &str, client: Option<IpAddr>) -> Requester {
        Requester {
            player: player.to_string(),
            client,
        }
    }

    /// The key turns go round: the address, or the player when there is none.
    fn turn_key(&self) -> String {
        match self.client {
            Some(ip) => format!("@{ip}"),
            None => format!("p:{}", self.player),
        }
    }
}

/// What waits for a slot, counted by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    game: usize,
    advice: usize,
}

impl Counts {
    fn of(&mut self, game: bool) -> &mut usize {
        if game {
            &mut self.game
        } else {
            &mut self.advice
        }
    }
}

struct Waiter {
    tx: oneshot::Sender<()>,
    who: Requester,
    game: bool,
}

#[derive(Default)]
struct Queue {
    running: usize,
    waiting: usize,
    /// Clients with waiters, in turn order.
    turns: VecDeque<String>,
    waiters: HashMap<String, VecDeque<Waiter>>,
    by_player: HashMap<String, Counts>,
    by_client: HashMap<String, Counts>,
    /// Background searches waiting, in order: served after everyone else.
    background: VecDeque<oneshot::Sender<()>>,
}

impl Queue {
    fn count(&mut self, who: &Requester, game: bool, up: bool) {
        let step = |c: &mut Counts| {
            let n = c.of(game);
            *n = if up { *n + 1 } else { n.saturating_sub(1) };
            *c == Counts::default()
        };
        let player_empty = step(self.by_player.entry(who.player.clone()).or_default());
        if player_empty {
            self.by_player.remove(&who.player);
        }
        let key = who.turn_key();
        let client_empty = step(self.by_client.entry(key.clone()).or_default());
        if client_empty {
            self.by_client.remove(&key);
        }
    }

    fn waiting_of(&self, who: &Requester) -> (Counts, Counts) {
        (
            self.by_player.get(&who.player).copied().unwrap_or_default(),
            self.by_client
                .get(&who.turn_key())
                .copied()
                .unwrap_or_default(),
        )
    }
}

/// How many searches wait, and how much work one may do while they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueLimits {
    /// Searches that may wait in all (advice is refused past it).
    pub max_waiting: usize,
    /// Advisory searches one player may have waiting.
    pub advice_per_player: usize,
    /// Advisory searches one address may have waiting.
    pub advice_per_client: usize,
    /// Engine moves one player may have waiting.
    pub games_per_player: usize,
    /// Engine moves one address may have waiting.
    pub games_per_client: usize,
    /// The least thinking time of a game's search when others wait.
    pub min_share: Duration,
}

impl QueueLimits {
    fn for_capacity(capacity: usize) -> QueueLimits {
        QueueLimits {
            max_waiting: capacity * 16,
            advice_per_player: 4,
            advice_per_client: 8,
            games_per_player: 2,
            games_per_client: 6,
            min_share: Duration::from_millis(100),
        }
    }
}

/// Slots for searches, shared fairly.
pub struct SearchBudget {
    queue: Mutex<Queue>,
    /// Searches at once.
    pub capacity: usize,
    /// How many searches may wait, per player, per address and in all.
    pub limits: QueueLimits,
}

/// A search slot, given back when dropped.
pub struct Slot {
    budget: Arc<SearchBudget>,
}

impl SearchBudget {
    /// A budget of `capacity` slots (at least 1), with queue limits that
    /// grow with it.
    pub fn new(capacity: usize) -> Arc<SearchBudget> {
        let capacity = capacity.max(1);
        SearchBudget::with_limits(capacity, QueueLimits::for_capacity(capacity))
    }

    /// A budget of `capacity` slots (at least 1) and these limits.
    pub fn with_limits(capacity: usize, limits: QueueLimits) -> Arc<SearchBudget> {
        Arc::new(SearchBudget {
            queue: Mutex::new(Queue::default()),
            capacity: capacity.max(1),
            limits,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches running now, and waiting.
    pub fn load(&self) -> (usize, usize) {
        let q = self.lock();
        (q.running, q.waiting)
    }

    /// Whether `who` may make a move that the engine will answer: refused
    /// when their player or address has as many engine moves waiting as
    /// allowed (the answer would be the one after those).
    pub fn admits_game(&self, who: &Requester) -> Result<(), Refusal> {
        let q = self.lock();
        let (player, client) = q.waiting_of(who);
        let exempt_client = who.client.is_none();
        if player.game >= self.limits.games_per_player
            || (!exempt_client && client.game >= self.limits.games_per_client)
        {
            return Err(Refusal::TooManyOfYours);
        }
        Ok(())
    }

    /// The thinking time a game's search may use now, of `wanted`: all of
    /// it when nobody waits; a share when others do, so that the queue
    /// moves (never below [`QueueLimits::min_share`]).
    pub fn time_share(&self, wanted: Duration) -> Duration {
        let waiting = self.lock().waiting;
        if waiting == 0 {
            return wanted;
        }
        let share = wanted.mul_f64(self.capacity as f64 / (self.capacity + waiting) as f64);
        share.max(self.limits.min_share).min(wanted)
    }

    /// Waits for a slot for `who`. `game`: a game's own search, which
    /// always waits; advice is refused when the queue is full.
    pub async fn slot(self: &Arc<Self>, who: &Requester, game: bool) -> Result<Slot, Refusal> {
        let rx = {
            let mut q = self.lock();
            if q.running < self.capacity && q.waiting == 0 {
                q.running += 1;
                return Ok(Slot {
                    budget: self.clone(),
                });
            }
            if !game {
                if q.waiting >= self.limits.max_waiting {
                    return Err(Refusal::Overloaded);
                }
                let (player, client) = q.waiting_of(who);
                if player.advice >= self.limits.advice_per_player
                    || client.advice >= self.limits.advice_per_client
                {
                    return Err(Refusal::TooManyOfYours);
                }
            }
            let (tx, rx) = oneshot::channel();
            let key = who.turn_key();
            if q.waiters.get(&key).is_none_or(VecDeque::is_empty) {
                q.turns.push_back(key.clone());
            }
            q.waiters.entry(key).or_default().push_back(Waiter {
                tx,
                who: who.clone(),
                game,
            });
            q.waiting += 1;
            q.count(who, game, true);
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
            let mut q = self.lock();
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
        self.lock().background.len()
    }

    /// Gives a slot back: to the next waiting client in turn, if any, else
    /// to the next background search.
    fn release(&self) {
        let mut q = self.lock();
        while let Some(key) = q.turns.pop_front() {
            let Some(line) = q.waiters.get_mut(&key) else {
                continue;
            };
            let next = line.pop_front();
            if line.is_empty() {
                q.waiters.remove(&key);
            } else {
                q.turns.push_back(key);
            }
            if let Some(w) = next {
                q.waiting -= 1;
                q.count(&w.who, w.game, false);
                // A waiter that gave up (its request went away) is skipped.
                if w.tx.send(()).is_ok() {
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
mod tests;
