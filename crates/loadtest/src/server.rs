//! The server under test: started by this tool (or given), stopped, and
//! measured (memory, CPU time).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::db::DbTarget;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::Error;

/// A directory removed when dropped.
pub struct TempDir(
    /// Where it is.
    pub PathBuf,
);

impl TempDir {
    /// A fresh directory under the system's temporary one.
    pub fn new() -> std::io::Result<TempDir> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("tc-loadtest-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The server under test, when this tool started it.
pub struct Server {
    /// Its process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `tensorchess serve` on a free loopback port and waits until it
    /// says where it listens (it has opened the database by then).
    pub fn start(bin: &Path, db: &DbTarget) -> Result<Server, Error> {
        // A load test on one machine: its clients are all on loopback.
        Server::start_with(bin, db, &["--trusted-local"])
    }

    /// [`Server::start`] with other options of `serve` instead of
    /// `--trusted-local`.
    pub fn start_with(bin: &Path, db: &DbTarget, options: &[&str]) -> Result<Server, Error> {
        let mut child = Command::new(bin)
            .args(["serve", "--host", "127.0.0.1", "--port", "0"])
            .args(options)
            .arg("--db")
            .arg(db.arg())
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let addr = loop {
            let Some(line) = lines.next() else {
                return Err("the server stopped before saying where it listens".into());
            };
            let line = line?;
            if let Some(rest) = line.split("http://").nth(1) {
                let host = rest.split('/').next().unwrap_or("");
                break host.parse::<SocketAddr>()?;
            }
        };
        // Keep draining stdout so the server never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        Ok(Server { child, addr })
    }

    /// Its process id (to measure it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server the way Ctrl-C does (SIGTERM), and waits.
    pub fn stop(&mut self) {
        // SAFETY: kill(2) on our own child's pid has no memory effects.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        // Up to 20 s to finish the requests in flight, then a kill.
        let exited = (0..400).any(|_| {
            let done = matches!(self.child.try_wait(), Ok(Some(_)));
            if !done {
                std::thread::sleep(Duration::from_millis(50));
            }
            done
        });
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for Server {
    /// A server this tool started never outlives it.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Resident memory of a process, in kB: (now, peak).
pub fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// CPU time a process has used (user + system), in seconds.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // SAFETY: sysconf has no memory effects.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some((utime + stime) / ticks.max(1.0))
}

/// The whole machine's CPU time by kind, in clock ticks, from the first
/// line of `/proc/stat` (all CPUs together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineCpu {
    /// Running anything (user, nice, system, interrupts).
    pub busy: u64,
    /// Idle or waiting for I/O.
    pub idle: u64,
    /// Taken by the hypervisor for other guests while this machine wanted
    /// to run ("steal"): on a shared host, a run whose steal is high is
    /// slowed by its neighbours, not by itself.
    pub stolen: u64,
}

impl MachineCpu {
    /// The machine's counters now (`None` where there is no `/proc/stat`).
    pub fn now() -> Option<MachineCpu> {
        MachineCpu::parse(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    /// Reads the `cpu` line of a `/proc/stat` text.
    pub fn parse(stat: &str) -> Option<MachineCpu> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let n: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        // user nice system idle iowait irq softirq steal (guest time is
        // within user's).
        let at = |i: usize| n.get(i).copied().unwrap_or(0);
        Some(MachineCpu {
            busy: at(0) + at(1) + at(2) + at(5) + at(6),
            idle: at(3) + at(4),
            stolen: at(7),
        })
    }

    /// What the machine did from `earlier` to `self`, each kind as a share
    /// of all its CPU time then: (busy, idle, stolen), or `None` for no time.
    pub fn shares_since(&self, earlier: &MachineCpu) -> Option<(f64, f64, f64)> {
        let busy = self.busy.saturating_sub(earlier.busy) as f64;
        let idle = self.idle.saturating_sub(earlier.idle) as f64;
        let stolen = self.stolen.saturating_sub(earlier.stolen) as f64;
        let all = busy + idle + stolen;
        (all > 0.0).then(|| (busy / all, idle / all, stolen / all))
    }
}

#[cfg(test)]
mod tests {
    use super::MachineCpu;

    #[test]
    fn the_machine_line_of_proc_stat_is_read_by_kind() {
        let stat = "cpu  100 10 20 300 5 1 4 60 0 0\ncpu0 50 5 10 150 2 0 2 30 0 0\nintr 1 2\n";
        let a = MachineCpu::parse(stat).unwrap();
        assert_eq!(
            a,
            MachineCpu {
                busy: 135,
                idle: 305,
                stolen: 60
            }
        );
        let b = MachineCpu {
            busy: a.busy + 50,
            idle: a.idle + 25,
            stolen: a.stolen + 25,
        };
        assert_eq!(b.shares_since(&a), Some((0.5, 0.25, 0.25)));
        assert_eq!(a.shares_since(&a), None);
        assert_eq!(MachineCpu::parse("intr 1 2\n"), None);
    }
}
