//! `tensorchess tune`: fit evaluation weights to self-play results (Texel's method).

use super::error::CliError;
use super::game_args::VariantParser;
use crate::commands::selfplay::load_weights;
use crate::tune::texel::{self, TuneConfig};
use crate::uci::settings::format_weights;
use clap::Args;
use tensorchess_engine::eval::{Evaluate, Layout};
use tensorchess_rules::{with_variant, Role, VariantKind};

/// The options of `tensorchess tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// `FEN;result` lines from `tensorchess selfplay`.
    #[arg(long)]
    pub data: String,
    /// Start from these weights instead of the engine's defaults.
    #[arg(long)]
    pub weights: Option<String>,
    /// Passes over the positions.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// The gradient step's size.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// L2 pull toward the starting weights.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Weight of the game result in each position's target; the rest is the
    /// recorded search score (lines `FEN;result;score`), through the logistic
    /// with `--score-k`.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Scale of the logistic that turns a recorded score into an expected result.
    #[arg(long, default_value_t = 1.0)]
    pub score_k: f64,
    /// Term groups kept as they are: any of `material`, `pst`, `mobility`, `misc` (comma-separated).
    #[arg(long, default_value = "")]
    pub freeze: String,
    /// Share of the positions held out to stop before over-fitting.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Write the tuned weights here (the weights file format of `docs/uci.md`).
    #[arg(long)]
    pub out: String,
    /// Also write them as a Rust table here.
    #[arg(long)]
    pub rust: Option<String>,
    /// Name of the Rust table.
    #[arg(long, default_value = "WEIGHTS")]
    pub rust_name: String,
}

fn go<V: Evaluate>(a: &TuneArgs) -> Result<(), CliError> {
    let file = std::fs::File::open(&a.data)
        .map_err(|e| CliError(format!("cannot read {}: {e}", a.data)))?;
    let (mut samples, bad) = texel::load::<V>(std::io::BufReader::new(file), a.lambda, a.score_k)
        .map_err(|e| CliError(e.to_string()))?;
    if samples.is_empty() {
        return Err(CliError(format!("{} holds no usable positions", a.data)));
    }
    eprintln!("{} positions ({bad} lines skipped)", samples.len());
    let start: Vec<[i32; 2]> = match load_weights::<V>(a.weights.as_deref())? {
        Some(w) => (*w).clone(),
        None => V::default_weights().to_vec(),
    };
    let mut w: Vec<[f64; 2]> = start.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    // Hold out every n-th block of positions: a game's positions are
    // written together, so blocks keep most games on one side.
    let stride = if a.validation > 0.0 {
        (1.0 / a.validation.min(0.5)).round() as usize
    } else {
        usize::MAX
    };
    let mut valid = Vec::new();
    let mut train = Vec::new();
    for (i, s) in samples.drain(..).enumerate() {
        if (i / 256) % stride == stride - 1 {
            valid.push(s);
        } else {
            train.push(s);
        }
    }
    let k = texel::fit_k(&train, &w);
    eprintln!(
        "K = {k:.4}, error {:.6} (validation {:.6}, {} positions)",
        texel::error(&train, &w, k),
        texel::error(&valid, &w, k),
        valid.len()
    );
    // The king's material never changes the evaluation: keep it at zero.
    let mut frozen = vec![Layout::MATERIAL + Role::King.index()];
    let l = V::LAYOUT;
    let pst_end = l.pst(Role::Pawn, 0) + 8 * l.pst_squares();
    let mobility_end = l.mobility(Role::Pawn) + 8;
    for group in a.freeze.split(',').map(str::trim).filter(|g| !g.is_empty()) {
        let range = match group {
            "material" => Layout::MATERIAL..Layout::MATERIAL + 8,
            "pst" => l.pst(Role::Pawn, 0)..pst_end,
            "mobility" => l.mobility(Role::Pawn)..mobility_end,
            "misc" => mobility_end..l.len(),
            other => {
                return Err(CliError(format!(
                    "unknown term group '{other}' (material, pst, mobility, misc)"
                )))
            }
        };
        frozen.extend(range);
    }
    texel::tune(
        &train,
        &valid,
        &mut w,
        k,
        &TuneConfig {
            epochs: a.epochs,
            learning_rate: a.learning_rate,
            frozen,
            l2: a.l2,
        },
        |epoch, err, verr| eprintln!("epoch {epoch}: error {err:.6}, validation {verr:.6}"),
    );
    let tuned: Vec<[i32; 2]> = w
        .iter()
        .map(|p| [p[0].round() as i32, p[1].round() as i32])
        .collect();
    std::fs::write(&a.out, format_weights::<V>(&tuned))
        .map_err(|e| CliError(format!("cannot write {}: {e}", a.out)))?;
    if let Some(path) = &a.rust {
        std::fs::write(path, texel::rust_table::<V>(&a.rust_name, &tuned))
            .map_err(|e| CliError(format!("cannot write {path}: {e}")))?;
    }
    let names = ["P", "N", "B", "R", "Q", "K", "T", "M"];
    let material: Vec<String> = (0..8)
        .map(|r| format!("{}={}/{}", names[r], tuned[r][0], tuned[r][1]))
        .collect();
    eprintln!("material (mg/eg): {}", material.join(" "));
    Ok(())
}

/// Runs `tensorchess tune`.
pub fn run(args: &TuneArgs) -> Result<(), CliError> {
    with_variant!(args.variant, V => go::<V>(args))
}
