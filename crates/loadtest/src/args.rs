//! The command line, and the checks that turn it into a run's settings:
//! which instances, which database, how the players pace themselves.
//! Parsing lives here, apart from the run, so that it can be tested without
//! a server.

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::db::DbTarget;
use crate::{
    Error, MAX_ARENA_PLAYERS, MAX_GAMES, MAX_INSTANCES, MAX_PLIES, MAX_SECONDS, MAX_SOCKETS,
};

#[derive(Parser, Debug)]
#[command(
    name = "loadtest",
    about = "Load test of tensorchess online play over WebSockets, on loopback only"
)]
pub(crate) struct Args {
    /// Games played at the same time (two WebSocket clients each); 0 with
    /// --sockets measures the idle crowd alone.
    #[arg(long, default_value_t = 500)]
    pub(crate) games: usize,
    /// Game: tensor, chess, chessence, or mixed (the three in turn).
    #[arg(long, default_value = "tensor")]
    pub(crate) variant: String,
    /// Time control as BASE+INCREMENT in seconds, or "none".
    #[arg(long, default_value = "900+5")]
    pub(crate) clock: String,
    /// A game still on after this many plies is agreed drawn (offer, accept).
    #[arg(long, default_value_t = 200)]
    pub(crate) max_plies: usize,
    /// The whole run's time limit, in seconds.
    #[arg(long, default_value_t = 900)]
    pub(crate) timeout: u64,
    /// Use the servers already listening here (loopback addresses, comma
    /// separated) instead of starting them; give their database with --db,
    /// and their process ids with --server-pid for the memory figures. With
    /// several, game i's White plays on instance i % n, its Black on
    /// (i + 1) % n.
    #[arg(long, value_name = "ADDR[,ADDR...]")]
    pub(crate) connect: Option<AddrList>,
    /// The servers' database: an SQLite file (default: a new temporary
    /// file) or a PostgreSQL URL, postgres://user@host:port/db, on loopback.
    #[arg(long)]
    pub(crate) db: Option<DbTarget>,
    /// Servers to start on --db (more than one needs PostgreSQL).
    #[arg(long, default_value_t = 1)]
    pub(crate) instances: usize,
    /// Both players of a game on the same instance (game i on i % n), so
    /// that no move has to cross from one instance to another: a baseline
    /// for the split placement, and a way to test a kill and the
    /// reconnections on servers that do not share live updates.
    #[arg(long)]
    pub(crate) together: bool,
    /// The process ids of the --connect servers, in the same order.
    #[arg(long, value_delimiter = ',', value_name = "PID[,PID...]")]
    pub(crate) server_pid: Vec<u32>,
    /// The tensorchess binary to start (default: next to this one).
    #[arg(long)]
    pub(crate) server_bin: Option<PathBuf>,
    /// Seed of the move choices (and of the thinking times).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Each player thinks a random time in this range, in milliseconds
    /// (e.g. 500-2000), before each move; default: no thinking, flat out.
    #[arg(long, value_name = "MIN-MAX")]
    pub(crate) think: Option<Think>,
    /// Kill instance 0 (SIGKILL, no warning) this many seconds into the
    /// games. With one instance its clients stop there and the moves
    /// acknowledged before are checked; with several they reconnect to
    /// another instance and play on.
    #[arg(long)]
    pub(crate) kill_after: Option<f64>,
    /// A player that hears nothing about its game for this many seconds
    /// (no move, no acknowledgement) gives the game up as stalled.
    #[arg(long, default_value_t = 60)]
    pub(crate) stall: u64,
    /// After the games, wait this many seconds and report the servers'
    /// memory again (finished games leave memory a minute after their end).
    #[arg(long, default_value_t = 0)]
    pub(crate) linger: u64,
    /// Requests in flight while setting up games.
    #[arg(long, default_value_t = 32)]
    pub(crate) setup_concurrency: usize,
    /// An arena of this many players (guests) instead of fixed games: they
    /// join, are paired by the server's director, play, and are paired
    /// again until the arena ends (`--games` is not used).
    #[arg(long, value_name = "PLAYERS")]
    pub(crate) arena: Option<usize>,
    /// The arena's length in minutes (the server's least is 10).
    #[arg(long, default_value_t = 10)]
    pub(crate) arena_minutes: u32,
    /// Seconds from the arena's creation to its start, for everyone to join.
    #[arg(long, default_value_t = 30)]
    pub(crate) arena_lead: u64,
    /// An idle crowd of this many pages on the instance (one WebSocket
    /// each, subscribed as the site's pages are, pinging as they do, from
    /// 127.0.0.2 on: 5,000 a source address), opened before the games and
    /// held while they play: the server's memory and CPU per socket, and
    /// the games' round trips beside the crowd.
    #[arg(long, value_name = "PAGES")]
    pub(crate) sockets: Option<usize>,
    /// Seconds the idle crowd is held before the games (or alone, with
    /// --games 0): the server's CPU is measured over them.
    #[arg(long, default_value_t = 30)]
    pub(crate) hold: u64,
    /// Writes each acknowledged move of the games played here as a line
    /// `SENT_MS RTT_US` (when it was sent, in milliseconds since the Unix
    /// epoch, and its round trip): to lay the slow moves beside the
    /// server's own times (an arena's waves in `GET /api/health`).
    #[arg(long, value_name = "FILE")]
    pub(crate) rtt_log: Option<std::path::PathBuf>,
}

/// `--connect`: one or more loopback addresses, comma separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AddrList(pub(crate) Vec<SocketAddr>);

impl FromStr for AddrList {
    type Err = String;

    fn from_str(s: &str) -> Result<AddrList, String> {
        let mut out: Vec<SocketAddr> = Vec::new();
        for part in s.split(',').map(str::trim) {
            if part.is_empty() {
                return Err(format!("an empty address in {s:?}"));
            }
            let addr: SocketAddr = part
                .parse()
                .map_err(|_| format!("{part:?} is not an address such as 127.0.0.1:8080"))?;
            // The tool loads only servers on this machine.
            if !addr.ip().is_loopback() {
                return Err(format!(
                    "{addr} is not a loopback address: this tool only loads servers on this machine"
                ));
            }
            if out.contains(&addr) {
                return Err(format!("{addr} is given twice"));
            }
            out.push(addr);
        }
        if out.len() > MAX_INSTANCES {
            return Err(format!("at most {MAX_INSTANCES} instances"));
        }
        Ok(AddrList(out))
    }
}

/// `--think MIN-MAX`: a player's thinking time before each move, drawn
/// uniformly from this range (milliseconds), like a blitz player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Think {
    pub(crate) min_ms: u64,
    pub(crate) max_ms: u64,
}

/// The longest thinking time accepted: longer would only make runs slow.
const MAX_THINK_MS: u64 = 60_000;

impl FromStr for Think {
    type Err = String;

    fn from_str(s: &str) -> Result<Think, String> {
        let (a, b) = s.split_once('-').unwrap_or((s, s));
        let ms = |v: &str| {
            v.trim().parse::<u64>().map_err(|_| {
                format!("--think takes MIN-MAX in milliseconds, e.g. 500-2000, not {s:?}")
            })
        };
        let (min_ms, max_ms) = (ms(a)?, ms(b)?);
        if min_ms > max_ms {
            return Err(format!("--think {s}: the minimum is above the maximum"));
        }
        if max_ms > MAX_THINK_MS {
            return Err(format!("--think {s}: at most {MAX_THINK_MS} ms"));
        }
        Ok(Think { min_ms, max_ms })
    }
}

impl Think {
    /// A thinking time drawn from the range.
    pub(crate) fn draw(&self, rng: &mut impl rand::Rng) -> Duration {
        Duration::from_millis(rng.random_range(self.min_ms..=self.max_ms))
    }
}

impl std::fmt::Display for Think {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{} ms", self.min_ms, self.max_ms)
    }
}

/// Where the servers come from.
#[derive(Debug, PartialEq)]
pub(crate) enum Servers {
    /// Already running at these addresses, with these pids if known.
    Connect {
        addrs: Vec<SocketAddr>,
        pids: Vec<Option<u32>>,
    },
    /// Started by this tool, so many.
    Start(usize),
}

/// Which instance each of game `game`'s players uses, (White, Black), of
/// `n`: White on `game % n`, Black on the next one, so that with several
/// instances every move has to travel from one instance to the other; or,
/// `together`, both on `game % n`.
pub(crate) fn seat_instances(game: usize, n: usize, together: bool) -> (usize, usize) {
    let n = n.max(1);
    let white = game % n;
    (white, if together { white } else { (game + 1) % n })
}

impl Args {
    /// The bounds and the combinations that cannot work, refused before
    /// anything starts; the servers to use.
    pub(crate) fn check(&self) -> Result<Servers, Error> {
        let least = if self.sockets.is_some() { 0 } else { 1 };
        if self.games < least || self.games > MAX_GAMES {
            return Err(format!("--games must be 1 to {MAX_GAMES} (0 only with --sockets)").into());
        }
        if let Some(n) = self.sockets {
            if n == 0 || n > MAX_SOCKETS {
                return Err(format!("--sockets must be 1 to {MAX_SOCKETS}").into());
            }
            if self.arena.is_some() || self.kill_after.is_some() || self.instances != 1 {
                return Err(
                    "--sockets measures one instance: without --arena, --kill-after or --instances"
                        .into(),
                );
            }
            if matches!(&self.connect, Some(list) if list.0.len() != 1) {
                return Err("--sockets measures one instance: --connect one address".into());
            }
            if self.hold > MAX_SECONDS {
                return Err(format!("--hold must be at most {MAX_SECONDS} seconds").into());
            }
        }
        if self.max_plies == 0 || self.max_plies > MAX_PLIES {
            return Err(format!("--max-plies must be 1 to {MAX_PLIES}").into());
        }
        if self.timeout == 0 || self.timeout > MAX_SECONDS {
            return Err(format!("--timeout must be 1 to {MAX_SECONDS} seconds").into());
        }
        if self.stall == 0 || self.stall > MAX_SECONDS {
            return Err(format!("--stall must be 1 to {MAX_SECONDS} seconds").into());
        }
        if let Some(n) = self.arena {
            if !(2..=MAX_ARENA_PLAYERS).contains(&n) {
                return Err(format!("--arena must be 2 to {MAX_ARENA_PLAYERS} players").into());
            }
            if self.kill_after.is_some() || self.variant == "mixed" || self.clock == "none" {
                return Err(
                    "--arena goes without --kill-after, with one --variant and a --clock".into(),
                );
            }
            let needed = self.arena_lead + u64::from(self.arena_minutes) * 60;
            if self.timeout <= needed {
                return Err(format!(
                    "--timeout {} is too short for the arena: it ends {needed} s after its creation",
                    self.timeout
                )
                .into());
            }
        }
        if let Some(k) = self.kill_after {
            if !(k.is_finite() && k >= 0.0 && k <= MAX_SECONDS as f64) {
                return Err(format!("--kill-after must be 0 to {MAX_SECONDS} seconds").into());
            }
        }
        let postgres = matches!(self.db, Some(DbTarget::Postgres(_)));
        let servers = match &self.connect {
            Some(list) => {
                let n = list.0.len();
                if self.instances != 1 && self.instances != n {
                    return Err(format!(
                        "--instances {} with {n} --connect addresses: with --connect the list says how many",
                        self.instances
                    )
                    .into());
                }
                if self.db.is_none() {
                    return Err("with --connect, give the servers' database with --db".into());
                }
                if !self.server_pid.is_empty() && self.server_pid.len() != n {
                    return Err(format!(
                        "--server-pid lists {} pids for {n} --connect addresses",
                        self.server_pid.len()
                    )
                    .into());
                }
                if self.kill_after.is_some() && self.server_pid.is_empty() {
                    return Err("--kill-after with --connect needs --server-pid".into());
                }
                let pids = (0..n).map(|i| self.server_pid.get(i).copied()).collect();
                Servers::Connect {
                    addrs: list.0.clone(),
                    pids,
                }
            }
            None => {
                if !self.server_pid.is_empty() {
                    return Err("--server-pid goes with --connect".into());
                }
                if self.instances == 0 || self.instances > MAX_INSTANCES {
                    return Err(format!("--instances must be 1 to {MAX_INSTANCES}").into());
                }
                Servers::Start(self.instances)
            }
        };
        let n = match &servers {
            Servers::Connect { addrs, .. } => addrs.len(),
            Servers::Start(n) => *n,
        };
        if n > 1 && !postgres {
            return Err(format!(
                "{n} instances need a shared PostgreSQL database (--db postgres://…): an SQLite \
                 file belongs to one server. For a throwaway one: \
                 url=$(bash scripts/pg-cluster.sh start $(mktemp -d))"
            )
            .into());
        }
        Ok(servers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Args {
        Args::try_parse_from(std::iter::once("loadtest").chain(line.split_whitespace())).unwrap()
    }

    #[test]
    fn connect_takes_one_address_or_a_list_of_loopback_ones() {
        let one: AddrList = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(one.0, vec!["127.0.0.1:8080".parse().unwrap()]);
        let two: AddrList = "127.0.0.1:8080, [::1]:8081".parse().unwrap();
        assert_eq!(two.0.len(), 2);
        assert_eq!(two.0[1], "[::1]:8081".parse().unwrap());
        assert!("127.0.0.1:8080,".parse::<AddrList>().is_err());
        assert!("localhost:8080".parse::<AddrList>().is_err());
        assert!("127.0.0.1:8080,127.0.0.1:8080".parse::<AddrList>().is_err());
        let far = "127.0.0.1:1,10.0.0.1:8080".parse::<AddrList>().unwrap_err();
        assert!(far.contains("not a loopback"), "{far}");
    }

    #[test]
    fn think_takes_a_range_or_one_value_in_milliseconds() {
        assert_eq!(
            "500-2000".parse::<Think>().unwrap(),
            Think {
                min_ms: 500,
                max_ms: 2000
            }
        );
        assert_eq!(
            "300".parse::<Think>().unwrap(),
            Think {
                min_ms: 300,
                max_ms: 300
            }
        );
        assert!("2000-500".parse::<Think>().is_err());
        assert!("0.5-2".parse::<Think>().is_err());
        assert!("500-".parse::<Think>().is_err());
        assert!("1-100000".parse::<Think>().is_err());
        let t = Think {
            min_ms: 500,
            max_ms: 2000,
        };
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(7);
        for _ in 0..1000 {
            let d = t.draw(&mut rng).as_millis() as u64;
            assert!((500..=2000).contains(&d));
        }
    }

    #[test]
    fn white_and_black_play_on_neighbouring_instances() {
        assert_eq!(seat_instances(0, 1, false), (0, 0));
        assert_eq!(seat_instances(7, 1, false), (0, 0));
        assert_eq!(seat_instances(0, 2, false), (0, 1));
        assert_eq!(seat_instances(1, 2, false), (1, 0));
        assert_eq!(seat_instances(2, 3, false), (2, 0));
        assert_eq!(seat_instances(0, 2, true), (0, 0));
        assert_eq!(seat_instances(3, 2, true), (1, 1));
        // Every instance gets as many clients as every other.
        let mut load = [0; 3];
        for g in 0..300 {
            let (w, b) = seat_instances(g, 3, false);
            assert_ne!(w, b);
            load[w] += 1;
            load[b] += 1;
        }
        assert_eq!(load, [200, 200, 200]);
    }

    #[test]
    fn several_instances_need_postgres() {
        assert_eq!(args("--games 5").check().unwrap(), Servers::Start(1));
        let e = args("--instances 2").check().unwrap_err().to_string();
        assert!(e.contains("PostgreSQL"), "{e}");
        let e = args("--instances 2 --db x.sqlite3")
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("PostgreSQL"), "{e}");
        assert_eq!(
            args("--instances 2 --db postgres://u@127.0.0.1:5432/db")
                .check()
                .unwrap(),
            Servers::Start(2)
        );
        let e = args("--connect 127.0.0.1:1,127.0.0.1:2 --db x.sqlite3")
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("PostgreSQL"), "{e}");
    }

    #[test]
    fn an_idle_crowd_goes_on_one_instance_with_or_without_games() {
        assert!(args("--games 0").check().is_err(), "no games, no crowd");
        assert_eq!(
            args("--games 0 --sockets 18000").check().unwrap(),
            Servers::Start(1)
        );
        assert!(args("--sockets 18000 --think 500-2000").check().is_ok());
        assert!(args("--sockets 0").check().is_err());
        assert!(args(&format!("--sockets {}", MAX_SOCKETS + 1))
            .check()
            .is_err());
        let e = args("--sockets 10 --instances 2 --db postgres://127.0.0.1/d")
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("one instance"), "{e}");
        assert!(args("--sockets 10 --arena 10").check().is_err());
        assert!(args("--sockets 10 --kill-after 3").check().is_err());
        assert!(
            args("--sockets 10 --connect 127.0.0.1:1,127.0.0.1:2 --db postgres://127.0.0.1/d")
                .check()
                .is_err()
        );
        assert!(args("--sockets 10 --connect 127.0.0.1:1 --db x.sqlite3")
            .check()
            .is_ok());
    }

    #[test]
    fn connect_lists_pids_in_the_same_order() {
        let a = args(
            "--connect 127.0.0.1:1,127.0.0.1:2 --db postgres://127.0.0.1/d --server-pid 10,20",
        );
        assert_eq!(
            a.check().unwrap(),
            Servers::Connect {
                addrs: vec![
                    "127.0.0.1:1".parse().unwrap(),
                    "127.0.0.1:2".parse().unwrap()
                ],
                pids: vec![Some(10), Some(20)],
            }
        );
        let a = args("--connect 127.0.0.1:1 --db x.sqlite3");
        assert_eq!(
            a.check().unwrap(),
            Servers::Connect {
                addrs: vec!["127.0.0.1:1".parse().unwrap()],
                pids: vec![None],
            }
        );
        assert!(args(
            "--connect 127.0.0.1:1,127.0.0.1:2 --db postgres://127.0.0.1/d --server-pid 10"
        )
        .check()
        .is_err());
        assert!(args("--connect 127.0.0.1:1").check().is_err());
        assert!(args("--connect 127.0.0.1:1 --db x --kill-after 3")
            .check()
            .is_err());
        assert!(args("--server-pid 3").check().is_err());
    }
}
