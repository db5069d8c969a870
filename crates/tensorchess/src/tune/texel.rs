//! Texel tuning: fit evaluation weights to game results.
//!
//! Each position's evaluation is linear in the weights (see the engine's
//! `eval` module), so we extract its terms once and optimise with Adam on the
//! mean squared error between the result and `1 / (1 + 10^(-K e / 400))`.

use std::io::BufRead;
use tensorchess_engine::eval::{phase, term_name, Accumulator, Evaluate};
use tensorchess_rules::Position;

/// One position: sparse terms (White minus Black), phase and result (White's score).
pub struct Sample {
    terms: Vec<(u32, i32)>,
    phase: f64,
    result: f64,
}

struct Collect(Vec<(u32, i32)>);

impl Accumulator for Collect {
    fn add(&mut self, term: usize, value: i32) {
        if value != 0 {
            self.0.push((term as u32, value));
        }
    }
}

/// Reads `FEN;result` or `FEN;result;score` lines; bad lines are skipped
/// and counted. The target of a position is the result, or with a score and
/// `lambda < 1` a blend: `lambda * result + (1 - lambda) * sigmoid(k, score)`
/// (a search score is a less noisy label than a single game's result).
pub fn load<V: Evaluate>(
    reader: impl BufRead,
    lambda: f64,
    k: f64,
) -> std::io::Result<(Vec<Sample>, usize)> {
    let mut out = Vec::new();
    let mut bad = 0;
    for line in reader.lines() {
        let line = line?;
        let mut parts = line.split(';');
        let (Some(fen), Some(result)) = (parts.next(), parts.next()) else {
            bad += 1;
            continue;
        };
        let score: Option<f64> = parts.next().and_then(|s| s.trim().parse().ok());
        let result = match result.trim() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => {
                bad += 1;
                continue;
            }
        };
        let Ok(pos) = Position::<V>::from_fen(fen) else {
            bad += 1;
            continue;
        };
        let result = match score {
            Some(sc) if lambda < 1.0 => lambda * result + (1.0 - lambda) * sigmoid(k, sc),
            _ => result,
        };
        let mut c = Collect(Vec::new());
        V::terms(&pos, &mut c);
        out.push(Sample {
            terms: c.0,
            phase: phase(&pos) as f64 / 256.0,
            result,
        });
    }
    Ok((out, bad))
}

fn eval(s: &Sample, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(t, v) in &s.terms {
        mg += w[t as usize][0] * v as f64;
        eg += w[t as usize][1] * v as f64;
    }
    mg * s.phase + eg * (1.0 - s.phase)
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let d = s.result - sigmoid(k, eval(s, w));
            d * d
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The scaling constant K that best fits the current weights (golden-section search).
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, w, c) < error(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Settings of a tuning run.
pub struct TuneConfig {
    /// Passes over the positions.
    pub epochs: usize,
    /// The gradient step's size.
    pub learning_rate: f64,
    /// Terms kept at their starting value.
    pub frozen: Vec<usize>,
    /// Pull of each weight back toward its starting value (L2), per sample.
    pub l2: f64,
}

/// Tunes `weights` in place on `train`, keeping the weights that predict
/// `valid` best (early stopping against over-fitting the many table terms).
/// Reports (epoch, train error, validation error) through `progress`.
pub fn tune(
    train: &[Sample],
    valid: &[Sample],
    weights: &mut [[f64; 2]],
    k: f64,
    cfg: &TuneConfig,
    mut progress: impl FnMut(usize, f64, f64),
) {
    let n = weights.len();
    let start: Vec<[f64; 2]> = weights.to_vec();
    let (mut m, mut v) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let check = |w: &[[f64; 2]]| {
        if valid.is_empty() {
            error(train, w, k)
        } else {
            error(valid, w, k)
        }
    };
    let mut best_err = check(weights);
    let mut best = weights.to_vec();
    for epoch in 1..=cfg.epochs {
        let mut grad = vec![[0.0f64; 2]; n];
        for s in train {
            let p = sigmoid(k, eval(s, weights));
            // d(error)/d(eval) for this sample.
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for &(t, val) in &s.terms {
                grad[t as usize][0] += g * val as f64 * s.phase;
                grad[t as usize][1] += g * val as f64 * (1.0 - s.phase);
            }
        }
        let inv = 1.0 / train.len().max(1) as f64;
        for t in 0..n {
            if cfg.frozen.contains(&t) {
                continue;
            }
            for ph in 0..2 {
                let gr = grad[t][ph] * inv + 2.0 * cfg.l2 * (weights[t][ph] - start[t][ph]);
                m[t][ph] = b1 * m[t][ph] + (1.0 - b1) * gr;
                v[t][ph] = b2 * v[t][ph] + (1.0 - b2) * gr * gr;
                let mh = m[t][ph] / (1.0 - b1.powi(epoch as i32));
                let vh = v[t][ph] / (1.0 - b2.powi(epoch as i32));
                weights[t][ph] -= cfg.learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 10 == 0 || epoch == cfg.epochs {
            let e = check(weights);
            if e < best_err {
                best_err = e;
                best.copy_from_slice(weights);
            }
            progress(epoch, error(train, weights, k), e);
        }
    }
    weights.copy_from_slice(&best);
}

/// The weights as a Rust table for `crates/engine/src/eval/`.
pub fn rust_table<V: Evaluate>(name: &str, weights: &[[i32; 2]]) -> String {
    let l = V::LAYOUT;
    let mut s = format!(
        "// Generated by `tensorchess tune --variant {}`; see docs/tuning.md.\n/// The weights fitted for {}: `[middlegame, endgame]` per term of its layout.\n#[rustfmt::skip]\npub static {name}: [[i32; 2]; {}] = [\n",
        V::KIND.name(),
        V::KIND.title(),
        weights.len()
    );
    for (i, w) in weights.iter().enumerate() {
        s.push_str(&format!(
            "    [{}, {}], // {}\n",
            w[0],
            w[1],
            term_name(&l, i)
        ));
    }
    s.push_str("];\n");
    s
}
