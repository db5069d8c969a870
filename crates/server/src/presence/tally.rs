//! The counts the site shows (players online, each game's spectators, the
//! games with a player connected), kept as presence keys come and go on
//! any server: a change costs O(1) and reading a count costs nothing, so
//! that the home page and every game's spectator count stay cheap with
//! tens of thousands of connections. A key counts once however many
//! servers hold it (a player with pages on two instances is one player).

use std::collections::HashMap;

/// What one presence key counts for.
enum Counted<'a> {
    /// `u:{player}`: a player with a connection open.
    Player,
    /// `s:{game}:{player}`: a spectator of a game.
    Spectator(&'a str),
    /// `g:{game}:{w|b}`: a seat of a game connected.
    Seat(&'a str),
    /// A key of a kind this server does not know (a newer server's).
    Other,
}

impl Counted<'_> {
    fn of(key: &str) -> Counted<'_> {
        if key.starts_with("u:") {
            Counted::Player
        } else if let Some(rest) = key.strip_prefix("s:") {
            // A game's id has no colon; the player's id comes after it.
            rest.split_once(':')
                .map_or(Counted::Other, |(game, _)| Counted::Spectator(game))
        } else if let Some(rest) = key.strip_prefix("g:") {
            rest.rsplit_once(':')
                .map_or(Counted::Other, |(game, _)| Counted::Seat(game))
        } else {
            Counted::Other
        }
    }
}

/// The keys held by any server, with the counts made from them.
#[derive(Default)]
pub(super) struct Tally {
    /// How many servers (this one included) hold each key.
    holders: HashMap<String, u32>,
    players: usize,
    /// Spectators by game (games with none are absent).
    spectators: HashMap<String, usize>,
    /// Seats connected by game (games with none are absent).
    seats: HashMap<String, u8>,
    /// Changes of the seats connected so far (a seat come or gone).
    seat_changes: u64,
}

impl Tally {
    /// One more server holds `key`.
    pub(super) fn add(&mut self, key: &str) {
        let n = self.holders.entry(key.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            self.count(key, true);
        }
    }

    /// One server fewer holds `key` (nothing if none did).
    pub(super) fn remove(&mut self, key: &str) {
        let Some(n) = self.holders.get_mut(key) else {
            return;
        };
        *n -= 1;
        if *n == 0 {
            self.holders.remove(key);
            self.count(key, false);
        }
    }

    fn count(&mut self, key: &str, on: bool) {
        fn step<
            T: Copy + Default + PartialEq + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
        >(
            map: &mut HashMap<String, T>,
            game: &str,
            on: bool,
            one: T,
        ) {
            if on {
                let n = map.entry(game.to_string()).or_default();
                *n = *n + one;
            } else if let Some(n) = map.get_mut(game) {
                *n = *n - one;
                if *n == T::default() {
                    map.remove(game);
                }
            }
        }
        match Counted::of(key) {
            Counted::Player if on => self.players += 1,
            Counted::Player => self.players -= 1,
            Counted::Spectator(game) => step(&mut self.spectators, game, on, 1),
            Counted::Seat(game) => {
                step(&mut self.seats, game, on, 1);
                self.seat_changes += 1;
            }
            Counted::Other => {}
        }
    }

    /// Players with a connection open on some server.
    pub(super) fn players(&self) -> usize {
        self.players
    }

    /// Players watching game `id` without a seat, on any server.
    pub(super) fn spectators(&self, id: &str) -> usize {
        self.spectators.get(id).copied().unwrap_or(0)
    }

    /// The games with a seat connected on some server.
    pub(super) fn games(&self) -> impl Iterator<Item = &str> {
        self.seats.keys().map(String::as_str)
    }

    /// How many times a seat came or went, on any server: the same
    /// number, the same seats connected.
    pub(super) fn seat_changes(&self) -> u64 {
        self.seat_changes
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn a_key_counts_once_however_many_servers_hold_it() {
        let mut t = Tally::default();
        t.add("u:ann");
        t.add("u:ann");
        t.add("u:bob");
        assert_eq!(t.players(), 2);
        t.remove("u:ann");
        assert_eq!(t.players(), 2, "ann is still on another server");
        t.remove("u:ann");
        assert_eq!(t.players(), 1);
        t.remove("u:ann");
        assert_eq!(t.players(), 1, "a key nobody holds is not taken away twice");
    }

    #[test]
    fn spectators_and_seats_count_by_game() {
        let mut t = Tally::default();
        t.add("s:g1:ann");
        t.add("s:g1:bob");
        t.add("s:g2:ann");
        t.add("g:g1:w");
        t.add("g:g1:b");
        t.add("g:g3:w");
        assert_eq!(
            (t.spectators("g1"), t.spectators("g2"), t.spectators("g3")),
            (2, 1, 0)
        );
        assert_eq!(t.games().count(), 2);
        assert_eq!(t.seat_changes(), 3);
        let mut games: Vec<&str> = t.games().collect();
        games.sort();
        assert_eq!(games, ["g1", "g3"]);
        t.remove("g:g1:w");
        assert_eq!(t.games().count(), 2, "g1's black is still connected");
        t.remove("g:g1:b");
        t.remove("s:g1:ann");
        assert_eq!((t.games().count(), t.spectators("g1")), (1, 1));
        t.remove("s:g1:bob");
        assert!(
            !t.spectators.contains_key("g1"),
            "a game without spectators is forgotten"
        );
        assert_eq!(t.players(), 0, "no player key was added");
        t.add("x:unknown");
        t.remove("x:unknown");
        assert_eq!(t.holders.len(), 2, "s:g2:ann and g:g3:w are left");
    }
}
