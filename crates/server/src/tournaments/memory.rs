//! An arena's entries and games, kept between the director's ticks by
//! the instance that directs it (issue 43). A tick reads what changed,
//! not the whole arena: the entries only when their revision moved (a
//! join, a withdrawal, a pause: one row says so), and of the games only
//! those it knows to be going on that have ended since (one query keyed
//! by their ids); the games it starts it adds itself. The standings and
//! pairings the pages are told are made from this, once a tick.
//!
//! What is kept is trusted only while this instance's lease has run
//! without a break: another instance may direct the arena once the lease
//! lapses, so memory whose lease ran out before it was renewed is
//! dropped, and the arena is read again whole from the store (as any
//! instance that takes the lease over does).

use crate::store::{EntryRecord, TournamentGame, TournamentGameLink};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One arena as its director last read it.
#[derive(Clone)]
pub(crate) struct Arena {
    /// The entries' revision when they were read.
    pub entries_rev: i64,
    /// The entries, in join order.
    pub entries: Arc<Vec<EntryRecord>>,
    /// Its games, oldest first.
    pub games: Arc<Vec<TournamentGame>>,
    /// Berserk marks told of (a game going on may carry one not read
    /// yet), and how many of them the games as kept include: while
    /// fewer, the games going on are read again whole, not only those
    /// that ended.
    pub marks: (u64, u64),
}

impl Arena {
    /// Whether a berserk mark was told of since the games were read.
    pub fn marks_stale(&self) -> bool {
        self.marks.0 > self.marks.1
    }

    /// The ids of the games going on, as last read.
    pub fn going_on(&self) -> Vec<String> {
        self.games
            .iter()
            .filter(|g| g.ending.is_none())
            .map(|g| g.link.game_id.clone())
            .collect()
    }

    /// Puts in what was read of some games: each replaces the game of
    /// its id (an unknown one, which no other instance should have
    /// started, is added in its place by time).
    pub fn update_games(&mut self, read: Vec<TournamentGame>) {
        if read.is_empty() {
            return;
        }
        let games = Arc::make_mut(&mut self.games);
        let at: HashMap<String, usize> = games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.link.game_id.clone(), i))
            .collect();
        let mut added = false;
        for g in read {
            match at.get(&g.link.game_id) {
                Some(&i) => games[i] = g,
                None => {
                    games.push(g);
                    added = true;
                }
            }
        }
        if added {
            games.sort_by(|a, b| {
                (a.link.created_at, &a.link.game_id).cmp(&(b.link.created_at, &b.link.game_id))
            });
        }
    }
}

/// What one arena's director holds, and until when its lease runs.
struct Held {
    until: i64,
    arena: Option<Arena>,
}

/// The arenas this instance directs, by tournament id.
#[derive(Default)]
pub(crate) struct Memory {
    held: Mutex<HashMap<String, Held>>,
}

impl Memory {
    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// This instance took or renewed the lease of `id` at `now`, until
    /// `until`: what it kept stays only if the lease it had then still
    /// ran at `now` (nobody else can have directed the arena between).
    pub fn leased(&self, id: &str, now: i64, until: i64) {
        let mut held = self.held();
        let h = held
            .entry(id.to_string())
            .or_insert(Held { until, arena: None });
        if h.until <= now {
            h.arena = None;
        }
        h.until = until;
    }

    /// The lease of `id` was not had: whatever was kept goes.
    pub fn lost(&self, id: &str) {
        self.held().remove(id);
    }

    /// The arena `id` as kept, if the lease still runs at `now`.
    pub fn arena(&self, id: &str, now: i64) -> Option<Arena> {
        let held = self.held();
        let h = held.get(id)?;
        if h.until <= now {
            return None;
        }
        h.arena.clone()
    }

    /// Keeps `arena` as read whole (under a lease taken before the
    /// reading; by the director's tick, one at a time).
    pub fn keep(&self, id: &str, arena: Arena) {
        if let Some(h) = self.held().get_mut(id) {
            h.arena = Some(arena);
        }
    }

    fn kept(&self, id: &str, change: impl FnOnce(&mut Arena)) {
        if let Some(arena) = self.held().get_mut(id).and_then(|h| h.arena.as_mut()) {
            change(arena);
        }
    }

    /// The entries of `id` as read at revision `rev` (or later): kept
    /// unless newer ones are.
    pub fn set_entries(&self, id: &str, rev: i64, entries: Vec<EntryRecord>) {
        self.kept(id, |arena| {
            if rev > arena.entries_rev {
                arena.entries_rev = rev;
                arena.entries = Arc::new(entries);
            }
        });
    }

    /// Games of `id` read again; `marks`: the berserk marks told of
    /// before they were read whole (`None`: only those that ended were).
    pub fn update_games(&self, id: &str, read: Vec<TournamentGame>, marks: Option<u64>) {
        self.kept(id, |arena| {
            arena.update_games(read);
            if let Some(told) = marks {
                arena.marks.1 = arena.marks.1.max(told);
            }
        });
    }

    /// Games started by this instance's director: kept with the others.
    pub fn started(&self, id: &str, links: &[TournamentGameLink]) {
        let started = links
            .iter()
            .map(|link| TournamentGame {
                link: link.clone(),
                ending: None,
                plies: 0,
            })
            .collect();
        self.kept(id, |arena| arena.update_games(started));
    }

    /// A player berserked in a game of arena `id` (here or on another
    /// instance): the games going on are read again whole.
    pub fn marks_changed(&self, id: &str) {
        self.kept(id, |arena| arena.marks.0 += 1);
    }

    /// Arenas kept now (for tests and statistics).
    pub fn count(&self) -> usize {
        self.held().values().filter(|h| h.arena.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Ending;

    fn link(game: &str, created_at: i64) -> TournamentGameLink {
        TournamentGameLink {
            tournament_id: "t".into(),
            game_id: game.into(),
            round: None,
            white: format!("{game}-w"),
            black: format!("{game}-b"),
            white_berserked: false,
            black_berserked: false,
            created_at,
        }
    }

    fn arena() -> Arena {
        Arena {
            entries_rev: 1,
            entries: Arc::new(vec![]),
            games: Arc::new(vec![]),
            marks: (0, 0),
        }
    }

    #[test]
    fn kept_only_while_the_lease_runs_without_a_break() {
        let m = Memory::default();
        m.leased("t", 0, 10_000);
        m.keep("t", arena());
        assert!(m.arena("t", 9_999).is_some());
        assert!(m.arena("t", 10_000).is_none(), "the lease ran out");
        // Renewed in time: still kept.
        m.leased("t", 8_000, 18_000);
        assert!(m.arena("t", 17_000).is_some());
        // Renewed after a break (another instance could have directed it
        // meanwhile): dropped, to be read again.
        m.leased("t", 18_000, 28_000);
        assert!(m.arena("t", 19_000).is_none());
        assert_eq!(m.count(), 0);
        m.keep("t", arena());
        assert_eq!(m.count(), 1);
        m.lost("t");
        assert!(m.arena("t", 19_000).is_none());
        // Nothing is kept for an arena whose lease was never taken.
        m.keep("u", arena());
        assert!(m.arena("u", 0).is_none());
    }

    #[test]
    fn games_started_and_ended_replace_what_was_kept() {
        let m = Memory::default();
        m.leased("t", 0, 10_000);
        m.keep("t", arena());
        m.started("t", &[link("b", 2), link("a", 1)]);
        let kept = m.arena("t", 1).unwrap();
        let ids: Vec<&str> = kept.games.iter().map(|g| g.link.game_id.as_str()).collect();
        assert_eq!(ids, ["a", "b"], "oldest first");
        assert_eq!(kept.going_on(), ["a", "b"]);
        let mut kept = kept;
        let mut ended = kept.games[1].clone();
        ended.ending = Some(Ending::Aborted { no_show: None });
        ended.plies = 1;
        kept.update_games(vec![ended]);
        assert_eq!(kept.going_on(), ["a"]);
        assert_eq!(kept.games.len(), 2);
        // What was kept before is not changed by the copy's update.
        assert_eq!(m.arena("t", 1).unwrap().going_on(), ["a", "b"]);
        // Updated in place, keeping what was started meanwhile.
        m.update_games("t", vec![kept.games[1].clone()], None);
        m.started("t", &[link("c", 3)]);
        assert_eq!(m.arena("t", 1).unwrap().going_on(), ["a", "c"]);
    }

    #[test]
    fn a_berserk_mark_makes_the_games_read_again_until_a_reading_after_it() {
        let m = Memory::default();
        m.leased("t", 0, 10_000);
        m.keep("t", arena());
        m.marks_changed("t");
        let told = m.arena("t", 1).unwrap().marks.0;
        assert!(m.arena("t", 1).unwrap().marks_stale());
        // Another mark while the games were read: still stale after.
        m.marks_changed("t");
        m.update_games("t", vec![], Some(told));
        assert!(m.arena("t", 1).unwrap().marks_stale());
        m.update_games("t", vec![], Some(m.arena("t", 1).unwrap().marks.0));
        assert!(!m.arena("t", 1).unwrap().marks_stale());
        // Only those that ended read: the marks are still to be read.
        m.marks_changed("t");
        m.update_games("t", vec![], None);
        assert!(m.arena("t", 1).unwrap().marks_stale());
    }

    #[test]
    fn entries_are_kept_by_revision() {
        let m = Memory::default();
        m.leased("t", 0, 10_000);
        m.keep("t", arena());
        let entry = |p: &str| EntryRecord {
            tournament_id: "t".into(),
            player: p.into(),
            joined_at: 0,
            withdrawn: false,
            paused: false,
            rating: 1500,
        };
        m.set_entries("t", 3, vec![entry("ann"), entry("bob")]);
        // A reading made at an older revision, finished later, is not kept.
        m.set_entries("t", 2, vec![entry("ann")]);
        let kept = m.arena("t", 1).unwrap();
        assert_eq!((kept.entries_rev, kept.entries.len()), (3, 2));
    }
}
