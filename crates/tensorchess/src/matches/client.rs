//! A UCI engine in a child process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tensorchess_rules::VariantKind;

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// Why talking to the engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The process ended or closed its output.
    Crashed,
    /// No answer in time.
    Timeout,
    /// Could not start or set up the engine (not a game forfeit: the match stops).
    Setup(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Crashed => f.write_str("the engine crashed or closed its output"),
            ClientError::Timeout => f.write_str("the engine did not answer in time"),
            ClientError::Setup(e) => f.write_str(e),
        }
    }
}

/// A running UCI engine.
pub struct UciClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// `id name`, if the engine sent one.
    pub id_name: Option<String>,
    /// Values of the engine's `UCI_Variant` combo, if it has one.
    pub variants: Option<Vec<String>>,
    /// Names of the options the engine offers.
    pub option_names: Vec<String>,
}

/// What an engine said while thinking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The `bestmove` it sent (`(none)` without a legal move).
    pub bestmove: String,
    /// The last reported score, from the engine's side: centipawns, or
    /// `Err(moves)` for a mate in `moves` (negative: being mated).
    pub score: Option<Result<i32, i32>>,
    /// The last reported depth.
    pub depth: Option<u32>,
    /// The last reported node count.
    pub nodes: Option<u64>,
}

impl UciClient {
    /// Starts the engine and completes the `uci` handshake.
    pub fn start(command: &[String], dir: Option<&str>) -> Result<UciClient, ClientError> {
        let mut cmd = Command::new(&command[0]);
        cmd.args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        // A process group of its own: Ctrl-C at the terminal interrupts the
        // match, which plays out the games in progress with these engines.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|e| {
            ClientError::Setup(format!("cannot start '{}': {e}", command.join(" ")))
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name("uci-client-reader".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| ClientError::Setup(format!("cannot start a reader thread: {e}")))?;
        let mut client = UciClient {
            child,
            stdin,
            lines: rx,
            id_name: None,
            variants: None,
            option_names: Vec::new(),
        };
        client.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = client.recv_until(deadline)?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                client.id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let vars: Vec<String> = rest
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .windows(2)
                        .filter(|w| w[0] == "var")
                        .map(|w| w[1].to_ascii_lowercase())
                        .collect();
                    client.variants = Some(vars);
                }
                client.option_names.push(name);
            }
        }
        Ok(client)
    }

    /// Sets the game and options, then waits until the engine is ready.
    pub fn configure(
        &mut self,
        variant: VariantKind,
        options: &[(String, String)],
    ) -> Result<(), ClientError> {
        match &self.variants {
            Some(vars) => {
                if !vars.iter().any(|v| v == variant.name()) {
                    return Err(ClientError::Setup(format!(
                        "the engine's UCI_Variant does not offer '{}'",
                        variant.name()
                    )));
                }
                self.send(&format!(
                    "setoption name UCI_Variant value {}",
                    variant.name()
                ))?;
            }
            None if variant != VariantKind::Chess => {
                return Err(ClientError::Setup(format!(
                    "the engine has no UCI_Variant option, so it cannot play {}",
                    variant.title()
                )))
            }
            None => {}
        }
        for (name, value) in options {
            if !self
                .option_names
                .iter()
                .any(|n| n.eq_ignore_ascii_case(name))
            {
                return Err(ClientError::Setup(format!(
                    "the engine has no option '{name}'"
                )));
            }
            if value.is_empty() {
                self.send(&format!("setoption name {name}"))?;
            } else {
                self.send(&format!("setoption name {name} value {value}"))?;
            }
        }
        self.ready(HANDSHAKE_TIMEOUT)
    }

    /// Sends a line to the engine; a closed pipe means it crashed.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| ClientError::Crashed)
    }

    fn recv_until(&mut self, deadline: Instant) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Crashed),
        }
    }

    /// `isready` … `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.recv_until(deadline)? != "readyok" {}
        Ok(())
    }

    /// `ucinewgame` and wait until ready.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")?;
        self.ready(HANDSHAKE_TIMEOUT)
    }

    /// Sends `position` and `go`, and reads until `bestmove` or `timeout`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<Answer, ClientError> {
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        let mut answer = Answer::default();
        loop {
            let line = self.recv_until(deadline)?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    answer.bestmove = tokens.next().unwrap_or("").to_string();
                    return Ok(answer);
                }
                Some("info") => parse_info(&line, &mut answer),
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        crate::child::wait_or_kill(
            &mut self.child,
            Duration::from_millis(500),
            Duration::from_millis(5),
        );
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        crate::child::kill_if_running(&mut self.child);
    }
}

/// Reads score, depth and nodes from an `info` line (the first PV only).
pub fn parse_info(line: &str, answer: &mut Answer) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.get(1) == Some(&"string") {
        return;
    }
    let get = |key: &str| {
        tokens
            .iter()
            .position(|t| *t == key)
            .and_then(|i| tokens.get(i + 1))
            .copied()
    };
    if get("multipv").is_some_and(|m| m != "1") {
        return;
    }
    if let Some(i) = tokens.iter().position(|t| *t == "score") {
        let value = tokens.get(i + 2).and_then(|v| v.parse::<i32>().ok());
        match (tokens.get(i + 1).copied(), value) {
            (Some("cp"), Some(v)) => answer.score = Some(Ok(v)),
            (Some("mate"), Some(v)) => answer.score = Some(Err(v)),
            _ => {}
        }
    }
    if let Some(d) = get("depth").and_then(|d| d.parse().ok()) {
        answer.depth = Some(d);
    }
    if let Some(n) = get("nodes").and_then(|n| n.parse().ok()) {
        answer.nodes = Some(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_depth_and_nodes() {
        let mut a = Answer::default();
        parse_info(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 123456 nps 1000 pv e2e4",
            &mut a,
        );
        assert_eq!(a.score, Some(Ok(-35)));
        assert_eq!(a.depth, Some(12));
        assert_eq!(a.nodes, Some(123456));
        parse_info("info depth 13 multipv 2 score cp 500", &mut a);
        assert_eq!(a.score, Some(Ok(-35)));
        parse_info("info depth 14 score mate -3 lowerbound", &mut a);
        assert_eq!(a.score, Some(Err(-3)));
        parse_info("info string hello depth 3", &mut a);
        assert_eq!(a.depth, Some(14));
    }
}
