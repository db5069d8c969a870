//! The server instances under load: started by this tool (`--instances N`,
//! all on one `--db`) or given (`--connect`), measured while the games run
//! (memory from `/proc/PID/status`, CPU time from `/proc/PID/stat`), one of
//! them killed on request, and the rest stopped at the end as Ctrl-C would.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::args::{Args, Servers};
use crate::db::DbTarget;
use crate::server::{cpu_seconds, memory_kb, MachineCpu, Server, TempDir};
use crate::Error;

/// Where the clients may connect, and which instances are still up: shared
/// with every player, so that a client whose instance died reconnects to
/// one that lives.
pub(crate) struct Route {
    pub(crate) addrs: Vec<SocketAddr>,
    alive: Vec<AtomicBool>,
}

impl Route {
    pub(crate) fn new(addrs: Vec<SocketAddr>) -> Route {
        let alive = addrs.iter().map(|_| AtomicBool::new(true)).collect();
        Route { addrs, alive }
    }

    pub(crate) fn len(&self) -> usize {
        self.addrs.len()
    }

    pub(crate) fn is_alive(&self, i: usize) -> bool {
        self.alive[i].load(Ordering::Relaxed)
    }

    fn mark_dead(&self, i: usize) {
        self.alive[i].store(false, Ordering::Relaxed);
    }

    /// The instances to try, in order, after losing the connection to
    /// `current`: the live others from the next one on, then `current`
    /// itself if it still lives (the socket may have dropped for another
    /// reason).
    pub(crate) fn reconnect_order(&self, current: usize) -> Vec<usize> {
        let alive: Vec<bool> = (0..self.len()).map(|i| self.is_alive(i)).collect();
        reconnect_order(current, &alive)
    }
}

pub(crate) fn reconnect_order(current: usize, alive: &[bool]) -> Vec<usize> {
    let n = alive.len();
    let mut out: Vec<usize> = (1..n)
        .map(|k| (current + k) % n)
        .filter(|&i| alive[i])
        .collect();
    if alive.get(current).copied().unwrap_or(false) {
        out.push(current);
    }
    out
}

/// Resident memory figures of one instance, in kB.
#[derive(Default, Clone, Copy)]
pub(crate) struct Memory {
    /// Before any game was set up.
    pub(crate) idle: Option<u64>,
    /// The highest seen while the games ran (sampled every 200 ms).
    pub(crate) peak: u64,
    /// At the end of the games, and its VmHWM (peak over its whole life).
    pub(crate) end: Option<(u64, u64)>,
    /// After `--linger`.
    pub(crate) linger: Option<u64>,
}

/// One instance.
pub(crate) struct Instance {
    pub(crate) addr: SocketAddr,
    pub(crate) pid: Option<u32>,
    server: Option<Server>,
    pub(crate) mem: Memory,
    cpu_start: Option<f64>,
    cpu_last: Option<f64>,
    /// Killed by this tool (`--kill-after`).
    pub(crate) killed: bool,
}

impl Instance {
    /// CPU seconds used since [`Cluster::start_clocks`] (up to the last
    /// sample before a kill).
    pub(crate) fn cpu_used(&self) -> Option<f64> {
        Some(self.cpu_last? - self.cpu_start?)
    }
}

/// The instances and their database.
pub(crate) struct Cluster {
    pub(crate) instances: Vec<Instance>,
    pub(crate) db: DbTarget,
    /// The temporary SQLite file's folder, when --db was not given.
    _dir: Option<TempDir>,
    /// The machine's CPU counters when the clocks started, and at the end.
    pub(crate) machine: (Option<MachineCpu>, Option<MachineCpu>),
}

impl Cluster {
    /// Starts the servers (one after the other, so that the first alone
    /// brings the schema up to date) or takes the given ones.
    pub(crate) fn open(args: &Args, servers: Servers) -> Result<Cluster, Error> {
        let (db, dir) = match &args.db {
            Some(db) => (db.clone(), None),
            None => {
                let dir = TempDir::new()?;
                let db = DbTarget::sqlite(&dir.0.join("loadtest.sqlite3"));
                (db, Some(dir))
            }
        };
        let mut instances = Vec::new();
        match servers {
            Servers::Connect { addrs, pids } => {
                for (addr, pid) in addrs.into_iter().zip(pids) {
                    instances.push(Instance::new(addr, pid, None));
                }
            }
            Servers::Start(n) => {
                let bin = match &args.server_bin {
                    Some(b) => b.clone(),
                    None => std::env::current_exe()?.with_file_name("tensorchess"),
                };
                for _ in 0..n {
                    let s = Server::start(&bin, &db)?;
                    instances.push(Instance::new(s.addr, Some(s.pid()), Some(s)));
                }
            }
        }
        if let Some(far) = instances.iter().find(|i| !i.addr.ip().is_loopback()) {
            return Err(format!("{} is not on loopback", far.addr).into());
        }
        let mut c = Cluster {
            instances,
            db,
            _dir: dir,
            machine: (None, None),
        };
        for i in &mut c.instances {
            i.mem.idle = i.pid.and_then(memory_kb).map(|m| m.0);
        }
        Ok(c)
    }

    pub(crate) fn addrs(&self) -> Vec<SocketAddr> {
        self.instances.iter().map(|i| i.addr).collect()
    }

    /// Where the clients' CPU figures start from.
    pub(crate) fn start_clocks(&mut self) {
        self.machine = (MachineCpu::now(), None);
        for i in &mut self.instances {
            i.cpu_start = i.pid.and_then(cpu_seconds);
            i.cpu_last = i.cpu_start;
        }
    }

    /// Takes each live instance's memory and CPU time now.
    pub(crate) fn sample(&mut self) {
        for i in self.instances.iter_mut().filter(|i| !i.killed) {
            if let Some((rss, _)) = i.pid.and_then(memory_kb) {
                i.mem.peak = i.mem.peak.max(rss);
            }
            if let Some(c) = i.pid.and_then(cpu_seconds) {
                i.cpu_last = Some(c);
            }
        }
    }

    /// The figures at the end of the games.
    pub(crate) fn sample_end(&mut self) {
        self.sample();
        self.machine.1 = MachineCpu::now();
        for i in self.instances.iter_mut().filter(|i| !i.killed) {
            i.mem.end = i.pid.and_then(memory_kb);
        }
    }

    pub(crate) fn sample_linger(&mut self) {
        for i in self.instances.iter_mut().filter(|i| !i.killed) {
            i.mem.linger = i.pid.and_then(memory_kb).map(|m| m.0);
        }
    }

    /// SIGKILLs instance `k` (no warning, as a crash or an OOM kill): it is
    /// marked dead on the route first, so that no client reconnects to it.
    pub(crate) fn kill(&mut self, k: usize, route: &Route) -> Result<(), Error> {
        let pid = self.instances[k].pid.ok_or("no pid to kill")?;
        route.mark_dead(k);
        // SAFETY: kill(2) has no memory effects.
        let r = unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        if r != 0 {
            return Err(
                format!("cannot kill pid {pid}: {}", std::io::Error::last_os_error()).into(),
            );
        }
        self.instances[k].killed = true;
        Ok(())
    }

    /// Stops the instances this tool started, as Ctrl-C does (SIGTERM).
    pub(crate) fn stop(&mut self) {
        for i in &mut self.instances {
            if let Some(s) = i.server.as_mut() {
                s.stop();
            }
        }
    }
}

impl Instance {
    fn new(addr: SocketAddr, pid: Option<u32>, server: Option<Server>) -> Instance {
        Instance {
            addr,
            pid,
            server,
            mem: Memory::default(),
            cpu_start: None,
            cpu_last: None,
            killed: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_reconnects_to_the_next_live_instance() {
        assert_eq!(reconnect_order(0, &[false, true]), vec![1]);
        assert_eq!(reconnect_order(1, &[false, true]), vec![1]);
        assert_eq!(reconnect_order(0, &[true, true]), vec![1, 0]);
        assert_eq!(reconnect_order(1, &[true, true, true]), vec![2, 0, 1]);
        assert_eq!(reconnect_order(0, &[false, false, true]), vec![2]);
        assert_eq!(reconnect_order(0, &[true]), vec![0]);
        assert!(reconnect_order(0, &[false]).is_empty());
        let route = Route::new(vec![
            "127.0.0.1:1".parse().unwrap(),
            "127.0.0.1:2".parse().unwrap(),
        ]);
        route.mark_dead(0);
        assert_eq!(route.reconnect_order(0), vec![1]);
        assert!(!route.is_alive(0) && route.is_alive(1));
    }
}
