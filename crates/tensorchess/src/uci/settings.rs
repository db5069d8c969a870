//! Engine settings shared by the UCI options and the match runner's
//! in-process engines, and evaluation weight files.

use std::sync::Arc;
use std::time::Duration;
use tensorchess_engine::eval::{term_name, Evaluate, Layout};
use tensorchess_engine::nnue::{Network, MAGIC, MAX_FILE_BYTES};
use tensorchess_engine::{Features, Level, Options};

/// Where the evaluation weights come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum WeightsSource {
    /// The engine's own tuned weights.
    #[default]
    Default,
    /// Material only: every term zero except the piece values (the
    /// "material-only search" of the strength tests).
    MaterialOnly,
    /// A weights file's text (see [`parse_weights`]), with its name for messages.
    File {
        /// The file's name.
        name: String,
        /// Its text.
        text: String,
    },
    /// A network file's bytes (the engine's format), with its name; the
    /// weights stay the defaults, and the network evaluates when `UseNNUE` is on.
    Network {
        /// The file's name.
        name: String,
        /// Its bytes.
        bytes: Arc<Vec<u8>>,
    },
}

impl WeightsSource {
    /// Whether `UseNNUE` may evaluate with a network: not when the
    /// hand-made evaluation's weights were chosen (`<material>`, a weights
    /// file), since they are what was asked for.
    pub fn network_may_evaluate(&self) -> bool {
        matches!(self, WeightsSource::Default | WeightsSource::Network { .. })
    }
}

/// Reads an evaluation file: a regular file of at most `max` bytes. A
/// directory, a FIFO or a device (`/dev/zero`) is refused at once, never
/// read (it would hang or never end).
pub fn read_eval_file(path: &str, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opening a FIFO for reading would wait for a writer: not with O_NONBLOCK.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .map_err(|e| format!("cannot read evaluation file {path}: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read evaluation file {path}: {e}"))?;
    if meta.is_dir() {
        return Err(format!("evaluation file {path} is a directory"));
    }
    if !meta.is_file() {
        return Err(format!("evaluation file {path} is not a regular file"));
    }
    if meta.len() > max {
        return Err(format!(
            "evaluation file {path} has {} bytes, more than the {max} allowed",
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read evaluation file {path}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "evaluation file {path} is larger than the {max} bytes allowed"
        ));
    }
    Ok(bytes)
}

impl WeightsSource {
    /// `<default>` or empty, `<material>`, or a path to a weights file.
    pub fn from_spec(spec: &str) -> Result<WeightsSource, String> {
        let spec = spec.trim();
        match spec {
            "" | "<default>" | "<empty>" | "default" => Ok(WeightsSource::Default),
            "<material>" | "material" => Ok(WeightsSource::MaterialOnly),
            path => {
                let bytes = read_eval_file(path, MAX_FILE_BYTES)?;
                if bytes.starts_with(MAGIC) {
                    return Ok(WeightsSource::Network {
                        name: path.to_string(),
                        bytes: Arc::new(bytes),
                    });
                }
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("weights file {path} is neither text nor a network"))?;
                Ok(WeightsSource::File {
                    name: path.to_string(),
                    text,
                })
            }
        }
    }

    /// The weight table for game `V` (`None` for the defaults).
    pub fn weights<V: Evaluate>(&self) -> Result<Option<Arc<Vec<[i32; 2]>>>, String> {
        match self {
            WeightsSource::Default | WeightsSource::Network { .. } => Ok(None),
            WeightsSource::MaterialOnly => Ok(Some(Arc::new(material_only::<V>()))),
            WeightsSource::File { name, text } => parse_weights::<V>(text)
                .map(|w| Some(Arc::new(w)))
                .map_err(|e| format!("{name}: {e}")),
        }
    }
}

impl WeightsSource {
    /// The network for game `V`, if this is a network file (an error if it
    /// is not one for `V`).
    pub fn network<V: Evaluate>(&self) -> Result<Option<Arc<Network>>, String> {
        match self {
            WeightsSource::Network { name, bytes } => Network::from_bytes::<V>(bytes)
                .map(|n| Some(Arc::new(n)))
                .map_err(|e| format!("{name}: {e}")),
            _ => Ok(None),
        }
    }
}

/// Weights that count material only (the default piece values), all else zero.
pub fn material_only<V: Evaluate>() -> Vec<[i32; 2]> {
    let defaults = V::default_weights();
    let mut w = vec![[0, 0]; V::LAYOUT.len()];
    for (i, slot) in w.iter_mut().enumerate().skip(Layout::MATERIAL).take(8) {
        *slot = defaults[i];
    }
    w
}

/// Writes weights in the file format [`parse_weights`] reads: one term a line.
pub fn format_weights<V: Evaluate>(weights: &[[i32; 2]]) -> String {
    let mut out = format!(
        "# tensorchess evaluation weights for {}: term middlegame endgame\nbase default\n",
        V::KIND.name()
    );
    for (i, w) in weights.iter().enumerate() {
        out.push_str(&format!("{} {} {}\n", term_name(&V::LAYOUT, i), w[0], w[1]));
    }
    out
}

/// Reads a weights file for game `V`.
///
/// Lines are `TERM MG EG` (term names as the engine's `term_name` prints
/// them, e.g. `material_knight 320 290`), `#` starts a comment, and a line
/// `base default` (the default) or `base zero` says what the terms not
/// listed are: the engine's defaults or zero.
pub fn parse_weights<V: Evaluate>(text: &str) -> Result<Vec<[i32; 2]>, String> {
    let layout = V::LAYOUT;
    let names: Vec<String> = (0..layout.len()).map(|i| term_name(&layout, i)).collect();
    let mut w: Vec<[i32; 2]> = V::default_weights().to_vec();
    let mut seen_term = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let at = |msg: String| format!("line {}: {msg}", n + 1);
        if fields[0] == "base" {
            if seen_term {
                return Err(at("'base' must come before the terms".into()));
            }
            match fields.get(1).copied() {
                Some("default") => w = V::default_weights().to_vec(),
                Some("zero") => w = vec![[0, 0]; layout.len()],
                _ => return Err(at("expected 'base default' or 'base zero'".into())),
            }
            continue;
        }
        if fields.len() != 3 {
            return Err(at(format!(
                "expected 'TERM MIDDLEGAME ENDGAME', found '{line}'"
            )));
        }
        let Some(index) = names.iter().position(|t| t == fields[0]) else {
            return Err(at(format!(
                "unknown term '{}' for {}",
                fields[0],
                V::KIND.name()
            )));
        };
        let num = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| at(format!("'{s}' is not a whole number")))
        };
        w[index] = [num(fields[1])?, num(fields[2])?];
        seen_term = true;
    }
    Ok(w)
}

/// Everything a user can set about our engine, independent of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// `Hash`: the transposition table's size, in MiB.
    pub hash_mb: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `MultiPV`: lines searched and reported.
    pub multipv: usize,
    /// `UCI_LimitStrength` with `UCI_Elo`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for when it is limited.
    pub elo: u32,
    /// `Skill Level` 1..=6 (6 is full strength); used when strength is not limited by Elo.
    pub skill: u8,
    /// A level set directly (match engine specs); overrides Elo and skill.
    pub level: Option<u8>,
    /// Search features switched on or off (match specs, experiments).
    pub features: Features,
    /// Seed of a weak level's noise.
    pub seed: u64,
    /// `EvalFile`: where the evaluation's weights (or network) come from.
    pub weights: WeightsSource,
    /// Time kept back per move, beyond the engine's own margin.
    pub move_overhead: Duration,
    /// `UseNNUE`: evaluate with the network (EvalFile's or the built-in one).
    pub use_nnue: bool,
    /// `Contempt`: centipawns a draw is worth less than even to the engine.
    pub contempt: i32,
}

impl Default for EngineSettings {
    fn default() -> Self {
        let o = Options::default();
        EngineSettings {
            hash_mb: o.hash_mb,
            threads: o.threads,
            multipv: o.multipv,
            limit_strength: false,
            elo: ELO_MAX,
            skill: Level::MAX,
            level: None,
            features: o.features,
            seed: o.seed,
            weights: WeightsSource::Default,
            move_overhead: Duration::from_millis(10),
            use_nnue: o.use_nnue,
            contempt: o.contempt,
        }
    }
}

/// The `UCI_Elo` range: levels below and at the top of [`Level::from_elo`]'s scale.
pub const ELO_MIN: u32 = 600;
/// The top of the `UCI_Elo` range (see [`ELO_MIN`]).
pub const ELO_MAX: u32 = 2400;

impl EngineSettings {
    /// The playing level these settings ask for (`None` = full strength).
    pub fn level(&self) -> Option<Level> {
        let level = if let Some(n) = self.level {
            Level::new(n)
        } else if self.limit_strength {
            Some(Level::from_elo(self.elo))
        } else {
            Level::new(self.skill)
        };
        level.filter(|l| *l != Level::FULL)
    }

    /// Whether the network evaluates: `UseNNUE` is on and no hand-made
    /// weights were chosen in its place.
    pub fn uses_network(&self) -> bool {
        self.use_nnue && self.weights.network_may_evaluate()
    }

    /// Engine options for game `V`.
    pub fn options<V: Evaluate>(&self) -> Result<Options, String> {
        Ok(Options {
            weights: self.weights.weights::<V>()?,
            network: self.weights.network::<V>()?,
            ..self.options_without_weights()
        })
    }

    /// Engine options that do not depend on the game: all but the weights
    /// and the network, which `EvalFile` gives per game (none here).
    pub fn options_without_weights(&self) -> Options {
        Options {
            hash_mb: self.hash_mb,
            threads: self.threads.max(1),
            multipv: self.multipv.max(1),
            level: self.level(),
            features: self.features,
            seed: self.seed,
            weights: None,
            use_nnue: self.uses_network(),
            network: None,
            contempt: self.contempt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_engine::eval::Evaluate;
    use tensorchess_rules::{Chess, Tensor};

    #[test]
    fn weights_round_trip_through_the_file_format() {
        let w = Tensor::default_weights();
        let text = format_weights::<Tensor>(w);
        assert_eq!(parse_weights::<Tensor>(&text).unwrap(), w.to_vec());
    }

    #[test]
    fn material_only_keeps_piece_values_and_zeroes_the_rest() {
        let m = material_only::<Chess>();
        let d = Chess::default_weights();
        assert_eq!(m.len(), d.len());
        assert_eq!(m[Layout::MATERIAL + 1], d[Layout::MATERIAL + 1]);
        assert!(m[8..].iter().all(|w| *w == [0, 0]));
        let text = "base zero\nmaterial_pawn 100 100\n";
        let parsed = parse_weights::<Chess>(text).unwrap();
        assert_eq!(parsed[0], [100, 100]);
        assert!(parsed[1..].iter().all(|w| *w == [0, 0]));
    }

    #[test]
    fn chosen_hand_made_weights_switch_the_network_off() {
        let on = EngineSettings::default();
        assert!(on.use_nnue);
        assert!(on.options::<Chess>().unwrap().use_nnue);
        let material = EngineSettings {
            weights: WeightsSource::MaterialOnly,
            ..EngineSettings::default()
        };
        assert!(!material.options::<Chess>().unwrap().use_nnue);
        let file = EngineSettings {
            weights: WeightsSource::File {
                name: "w.txt".into(),
                text: "tempo 1 2\n".into(),
            },
            ..EngineSettings::default()
        };
        assert!(!file.options::<Chess>().unwrap().use_nnue);
    }

    #[test]
    fn bad_weight_files_name_the_line() {
        let e = parse_weights::<Chess>("tempo 1 2\nnonsense 1 2\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        let e = parse_weights::<Chess>("tempo x 2\n").unwrap_err();
        assert!(e.contains("'x'"), "{e}");
        let e = parse_weights::<Chess>("tempo 1 2\nbase zero\n").unwrap_err();
        assert!(e.contains("base"), "{e}");
    }

    #[test]
    fn strength_settings_map_to_levels() {
        let mut s = EngineSettings::default();
        assert_eq!(s.level(), None);
        s.skill = 2;
        assert_eq!(s.level(), Level::new(2));
        s.limit_strength = true;
        s.elo = 1000;
        assert_eq!(s.level(), Level::new(2));
        s.elo = 1600;
        assert_eq!(s.level(), Level::new(4));
        s.elo = ELO_MAX;
        assert_eq!(s.level(), None);
        s.level = Some(1);
        assert_eq!(s.level(), Level::new(1));
    }
}
