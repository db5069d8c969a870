//! `tensorchess tune`: fit evaluation weights to self-play results (Texel's method).

use crate::cli::CliError;
use crate::commands::selfplay::load_weights;
use crate::tune::texel::{self, TuneConfig};
use clap::Args;
use tensorchess_engine::eval::{Evaluate, Layout};
use tensorchess_engine::{dispatch, ForGame};
use tensorchess_rules::{Role, VariantKind};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Game: tensor, chess or chessence.
    #[arg(long, default_value = "tensor")]
    pub variant: String,
    /// `FEN;result` lines from `tensorchess selfplay`.
    #[arg(long)]
    pub data: String,
    /// Start from these weights instead of the engine's defaults.
    #[arg(long)]
    pub weights: Option<String>,
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// Write the tuned weights as JSON here.
    #[arg(long)]
    pub out: String,
    /// Also write them as a Rust table here.
    #[arg(long)]
    pub rust: Option<String>,
    /// Name of the Rust table.
    #[arg(long, default_value = "WEIGHTS")]
    pub rust_name: String,
}

struct Run<'a>(&'a TuneArgs);

impl ForGame for Run<'_> {
    type Output = Result<(), CliError>;
    fn run<V: Evaluate>(self) -> Self::Output {
        let a = self.0;
        let file = std::fs::File::open(&a.data)
            .map_err(|e| CliError(format!("cannot read {}: {e}", a.data)))?;
        let (samples, bad) =
            texel::load::<V>(std::io::BufReader::new(file)).map_err(|e| CliError(e.to_string()))?;
        if samples.is_empty() {
            return Err(CliError(format!("{} holds no usable positions", a.data)));
        }
        eprintln!("{} positions ({bad} lines skipped)", samples.len());
        let start: Vec<[i32; 2]> = match load_weights::<V>(a.weights.as_deref())? {
            Some(w) => (*w).clone(),
            None => V::default_weights().to_vec(),
        };
        let mut w: Vec<[f64; 2]> = start.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
        let k = texel::fit_k(&samples, &w);
        eprintln!("K = {k:.4}, error {:.6}", texel::error(&samples, &w, k));
        // The king's material never changes the evaluation: keep it at zero.
        let frozen = vec![Layout::MATERIAL + Role::King.index()];
        texel::tune(
            &samples,
            &mut w,
            k,
            &TuneConfig {
                epochs: a.epochs,
                learning_rate: a.learning_rate,
                frozen,
            },
            |epoch, err| eprintln!("epoch {epoch}: error {err:.6}"),
        );
        let tuned: Vec<[i32; 2]> = w
            .iter()
            .map(|p| [p[0].round() as i32, p[1].round() as i32])
            .collect();
        let json = serde_json::to_string(&tuned).map_err(|e| CliError(e.to_string()))?;
        std::fs::write(&a.out, json)
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
}

pub fn run(args: &TuneArgs) -> Result<(), CliError> {
    let kind: VariantKind = args
        .variant
        .parse()
        .map_err(|e: tensorchess_rules::ParseVariantError| CliError(e.to_string()))?;
    dispatch(kind, Run(args))
}
