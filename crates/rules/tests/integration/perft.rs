//! Perft vectors from `tests/data/*.perft` (copied from the project's shared
//! rules: orthodox values agree with Stockfish 15.1, the Tensor Chess ones come
//! from an independent implementation of the rules, the Chessence start from
//! two independent programs).
//!
//! The ordinary run checks every depth up to `PERFT_MAX_NODES` (5 million);
//! `PERFT_MAX_NODES=200000000 cargo test --release` checks them all.

use tensorchess_rules::{Chess, Chessence, Position, Tensor, Variant, perft};

struct Vector {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn load(text: &str) -> Vec<Vector> {
    let mut out = Vec::new();
    let mut cur: Option<Vector> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "id" => {
                if let Some(v) = cur.take() {
                    out.push(v);
                }
                cur = Some(Vector {
                    id: rest.to_string(),
                    fen: String::new(),
                    depths: Vec::new(),
                });
            }
            "epd" => cur.as_mut().expect("id first").fen = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth nodes");
                cur.as_mut()
                    .expect("id first")
                    .depths
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    out.extend(cur);
    out
}

fn max_nodes() -> u64 {
    std::env::var("PERFT_MAX_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000_000)
}

fn run<V: Variant>(file: &str) {
    let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let limit = max_nodes();
    let mut failures = Vec::new();
    let mut checked = 0;
    for v in load(&text) {
        let pos = Position::<V>::from_fen(&v.fen).unwrap_or_else(|e| panic!("{}: {e}", v.id));
        for &(depth, nodes) in &v.depths {
            if nodes > limit {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{} depth {depth}: expected {nodes}, got {got}",
                    v.id
                ));
            }
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

#[test]
fn chess_vectors() {
    run::<Chess>("chess.perft");
}

#[test]
fn tensor_vectors() {
    run::<Tensor>("tensor.perft");
}

#[test]
fn chessence_vectors() {
    run::<Chessence>("chessence.perft");
}
