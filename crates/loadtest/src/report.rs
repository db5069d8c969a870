//! The report, on stdout (progress and errors go to stderr): what ran,
//! the throughput and round trips, each instance's memory and CPU time, the
//! games' endings and failures, and the database check.

use crate::args::Args;
use crate::instances::Cluster;
use crate::tally::{counts, percentile, Tally};
use crate::verify::Check;
use crate::watch::Watched;

/// Each instance's address and pid, and the database.
pub(crate) fn instances(cluster: &Cluster) {
    for (k, i) in cluster.instances.iter().enumerate() {
        println!(
            "instance {k}: http://{}/ (pid {})",
            i.addr,
            i.pid.map_or("?".into(), |p| p.to_string())
        );
    }
    println!("database: {}", cluster.db);
}

pub(crate) fn header(args: &Args, cluster: &Cluster) {
    instances(cluster);
    let n = cluster.instances.len();
    println!(
        "load: {} games at once ({} WebSocket clients{}), {}, clock {}, drawn by agreement at ply {}, {}",
        args.games,
        args.games * 2,
        if n > 1 && args.together {
            format!("; both players of game i on instance i % {n}")
        } else if n > 1 {
            format!("; White on instance i % {n}, Black on the next")
        } else {
            String::new()
        },
        args.variant,
        args.clock,
        args.max_plies,
        match args.think {
            Some(t) => format!("each player thinking {t} before each move"),
            None => "flat out (no thinking time)".into(),
        }
    );
}

/// Writes `--rtt-log`: a line `SENT_MS RTT_US` a move, in sending order.
pub(crate) fn rtt_log(path: Option<&std::path::Path>, t: &Tally) {
    let Some(path) = path else { return };
    let mut lines: Vec<(u64, u64)> = t
        .sent_ms
        .iter()
        .copied()
        .zip(t.rtts_us.iter().copied())
        .collect();
    lines.sort_unstable();
    let text: String = lines
        .iter()
        .map(|(at, rtt)| format!("{at} {rtt}\n"))
        .collect();
    match std::fs::write(path, text) {
        Ok(()) => println!(
            "round trips of {} moves written to {}",
            lines.len(),
            path.display()
        ),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
}

/// The figures of the games (before the database check).
pub(crate) fn play(
    t: &Tally,
    w: &Watched,
    cluster: &Cluster,
    reconnects: u64,
    games: usize,
    failed: usize,
) {
    let mut rtts = t.rtts_us.clone();
    rtts.sort_unstable();
    let n = t.acked.len();
    println!(
        "play: {n} moves acknowledged in {:.1} s: {:.0} moves/s",
        w.play_s,
        n as f64 / w.play_s
    );
    println!(
        "round trip of a move (sent → acknowledged, thinking excluded): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&rtts, 0.5),
        percentile(&rtts, 0.99),
        percentile(&rtts, 1.0)
    );
    for (k, i) in cluster.instances.iter().enumerate() {
        let m = &i.mem;
        let mb = |kb: u64| format!("{} MB", kb / 1024);
        let mut parts = vec![
            format!("idle {}", m.idle.map_or("?".into(), mb)),
            format!("peak {} while playing", mb(m.peak)),
        ];
        match m.end {
            Some((rss, hwm)) => parts.push(format!("{} at the end (VmHWM {})", mb(rss), mb(hwm))),
            None if i.killed => parts.push("killed".into()),
            None => {}
        }
        if let Some(l) = m.linger {
            parts.push(format!("{} after --linger", mb(l)));
        }
        let cpu = match i.cpu_used() {
            Some(c) => format!(
                "; CPU {c:.1} s ({:.0}% of one core{})",
                c * 100.0 / w.play_s,
                if i.killed { ", until the kill" } else { "" }
            ),
            None => String::new(),
        };
        if i.pid.is_some() {
            println!("instance {k} memory (RSS): {}{cpu}", parts.join(", "));
        }
    }
    let cpu: Vec<f64> = cluster
        .instances
        .iter()
        .filter_map(|i| i.cpu_used())
        .collect();
    if !cpu.is_empty() && n > 0 {
        let total: f64 = cpu.iter().sum();
        println!(
            "server CPU: {total:.1} s over all instances for {n} moves ({:.0} µs a move)",
            total * 1e6 / n as f64
        );
    }
    if let (Some(start), Some(end)) = cluster.machine {
        if let Some((busy, idle, stolen)) = end.shares_since(&start) {
            println!(
                "the machine meanwhile (/proc/stat, all CPUs): busy {:.0}%, idle {:.0}%, stolen by the host {:.1}% ({:.2} s for every second it ran){}",
                busy * 100.0,
                idle * 100.0,
                stolen * 100.0,
                stolen / busy.max(f64::EPSILON),
                if stolen >= 0.1 * busy {
                    " (a shared host's neighbours slowed this run: compare it only with runs stolen as much)"
                } else {
                    ""
                }
            );
        }
    }
    println!("endings: {}", counts(&t.endings));
    println!("refusals: {}", counts(&t.refused));
    if let Some((at, moves)) = w.killed {
        println!(
            "kill: instance 0 SIGKILLed {at:.1} s into the games, after {moves} acknowledged moves"
        );
        if cluster.instances.len() > 1 {
            println!(
                "reconnections: {reconnects}; moves in flight at the break: {} stored, {} not (by the snapshot)",
                t.in_doubt_stored, t.in_doubt_lost
            );
        } else {
            println!(
                "the only instance was killed: {} client connections broke off, as they must",
                t.errors.len()
            );
        }
    } else if reconnects > 0 {
        println!("reconnections: {reconnects} (no instance was killed)");
    }
    let single_kill = w.killed.is_some() && cluster.instances.len() == 1;
    println!(
        "games: {} of {games} finished{}",
        t.ended.len(),
        if failed > 0 {
            format!(", {failed} FAILED (no end seen)")
        } else if single_kill {
            ", the others cut off by the kill".into()
        } else {
            String::new()
        }
    );
    if w.cut > 0 {
        println!("{} clients were still playing at the time limit", w.cut);
    }
    if !t.errors.is_empty() && !single_kill {
        println!("errors: {}", t.errors.len());
        for e in summarize(&t.errors) {
            println!("  {e}");
        }
    }
}

/// The errors grouped by their kind (the text after the game and side),
/// each with a count and one example: a stalled two-instance run makes
/// hundreds of the same error.
fn summarize(errors: &[String]) -> Vec<String> {
    let mut kinds: Vec<(String, usize, &String)> = Vec::new();
    for e in errors {
        // "game ID, white: what" → "what", with digits (plies, ports) blurred.
        let what = e.split_once(": ").map_or(e.as_str(), |x| x.1);
        let mut key = String::new();
        for c in what.chars().take(120) {
            if !c.is_ascii_digit() {
                key.push(c);
            } else if !key.ends_with('#') {
                key.push('#');
            }
        }
        match kinds.iter_mut().find(|k| k.0 == key) {
            Some(k) => k.1 += 1,
            None => kinds.push((key, 1, e)),
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    kinds
        .into_iter()
        .take(10)
        .map(|(_, n, e)| format!("{n} × e.g. {e}"))
        .collect()
}

/// `kill`: None, or whether the clients played on after it (several
/// instances) or stopped there (one).
pub(crate) fn database(check: &Check, acked: usize, games: usize, kill: Option<bool>) {
    if check.problems.is_empty() {
        println!(
            "database check: all {acked} acknowledged moves{} are stored at their ply ({} move rows); \
             every game a client saw end ({games}) has its result",
            match kill {
                Some(true) => " (before and after the kill)",
                Some(false) => " (up to the kill)",
                None => "",
            },
            check.rows
        );
    } else {
        println!("database check: {} PROBLEMS", check.problems.len());
        for p in check.problems.iter().take(20) {
            println!("  {p}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rtt_log_has_a_line_a_move_in_sending_order() {
        let t = Tally {
            sent_ms: vec![1_700_000_000_020, 1_700_000_000_010],
            rtts_us: vec![5_000, 700],
            ..Tally::default()
        };
        let path = std::env::temp_dir().join(format!("rtt-log-{}.txt", std::process::id()));
        rtt_log(Some(&path), &t);
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(text, "1700000000010 700\n1700000000020 5000\n");
    }

    #[test]
    fn errors_are_grouped_by_kind() {
        let errors = vec![
            "game a, white: stalled: nothing heard about the game for 60 s at ply 3".to_string(),
            "game b, black: stalled: nothing heard about the game for 60 s at ply 17".to_string(),
            "game c, white: refused illegal_move: no".to_string(),
        ];
        let s = summarize(&errors);
        assert_eq!(s.len(), 2);
        assert!(s[0].starts_with("2 × e.g. game a"), "{}", s[0]);
        assert!(s[1].starts_with("1 × e.g. game c"), "{}", s[1]);
    }
}
