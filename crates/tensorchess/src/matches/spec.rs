//! Engine specifications: our engine in-process with settings, or any UCI
//! engine command with options.
//!
//! A spec is a comma-separated list of `key=value` items and flags:
//!
//! - in-process (the default): `name=`, `level=1..6`, `elo=N` (the level
//!   `UCI_Elo` N gives), `hash=MB`, `threads=N`, `no=FEATURE` (repeatable),
//!   `feature.FEATURE=on|off`, `weights=FILE|material`, `seed=N`,
//!   `option.NAME=VALUE` (any of our UCI options), and the flag `material2`:
//!   material-only weights searched to depth 2;
//! - external: `cmd=COMMAND [ARGS]`, `dir=DIR`, `name=`, `option.NAME=VALUE`
//!   (sent as `setoption`);
//! - both: `tc=10+0.1`, `movetime=MS`, `depth=N`, `nodes=N` replace the
//!   match's limits for this engine.

use super::budget::{Budget, TimeControl};
use crate::uci::options::{self, Change};
use crate::uci::{EngineSettings, WeightsSource};
use std::time::Duration;
use tensorchess_engine::{Feature, Features, Level};

/// How to run one side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Our engine, in this process, with these settings.
    Internal(EngineSettings),
    /// A UCI engine's program.
    External {
        /// Program and arguments.
        command: Vec<String>,
        /// The directory it runs in (`dir=`); `None`: ours.
        dir: Option<String>,
        /// `setoption` pairs, in order.
        options: Vec<(String, String)>,
    },
}

/// An engine of a match, as `-e` gives it (`depth=6,name=one`,
/// `cmd=/usr/games/stockfish,option.Hash=64`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name given with `name=`, if any.
    pub name: Option<String>,
    /// Ours with its settings, or an outside engine's command.
    pub kind: EngineKind,
    /// Limits replacing the match's, if any was given.
    pub budget: Option<Budget>,
    /// The spec as written (for messages).
    pub text: String,
}

impl EngineSpec {
    /// Reads a spec: `key=value` pairs separated by commas.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let err = |msg: String| format!("engine spec '{text}': {msg}");
        let mut name = None;
        let mut settings = EngineSettings::default();
        let mut command: Option<Vec<String>> = None;
        let mut dir = None;
        let mut ext_options = Vec::new();
        let mut int_options = Vec::new();
        let mut budget = Budget::default();
        let mut budget_set = false;
        let mut internal_only: Vec<&str> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None => (item, ""),
            };
            let num = |v: &str| -> Result<u64, String> {
                v.parse::<u64>()
                    .map_err(|_| err(format!("{key}: '{v}' is not a whole number")))
            };
            match key {
                "internal" | "tensorchess" if value.is_empty() => {}
                "material2" if value.is_empty() => {
                    internal_only.push("material2");
                    settings.weights = WeightsSource::MaterialOnly;
                    budget.depth = Some(2);
                    budget_set = true;
                    if name.is_none() {
                        name = Some("material2".to_string());
                    }
                }
                "name" => name = Some(value.to_string()),
                "cmd" => {
                    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                    if words.is_empty() {
                        return Err(err("cmd is empty".into()));
                    }
                    command = Some(words);
                }
                "dir" => dir = Some(value.to_string()),
                "level" => {
                    internal_only.push("level");
                    let n = num(value)?;
                    if Level::new(n.min(255) as u8).is_none() {
                        return Err(err(format!(
                            "level must be {}..{}, not {n}",
                            Level::MIN,
                            Level::MAX
                        )));
                    }
                    settings.level = Some(n as u8);
                }
                "elo" => {
                    internal_only.push("elo");
                    settings.level = Some(Level::from_elo(num(value)? as u32).number());
                }
                "hash" => {
                    internal_only.push("hash");
                    settings.hash_mb = num(value)?.clamp(1, options::HASH_MAX as u64) as usize;
                }
                "threads" => {
                    internal_only.push("threads");
                    settings.threads = num(value)?.clamp(1, options::THREADS_MAX as u64) as usize;
                }
                "seed" => {
                    internal_only.push("seed");
                    settings.seed = num(value)?;
                }
                "no" => {
                    internal_only.push("no");
                    let Ok(feature) = value.parse::<Feature>() else {
                        let names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
                        return Err(err(format!(
                            "no such feature '{value}' (features: {})",
                            names.join(", ")
                        )));
                    };
                    settings.features.set(feature, false);
                }
                "weights" => {
                    internal_only.push("weights");
                    settings.weights = WeightsSource::from_spec(value).map_err(err)?;
                }
                "tc" => {
                    budget.tc = Some(TimeControl::parse(value).map_err(err)?);
                    budget_set = true;
                }
                "movetime" => {
                    budget.movetime = Some(Duration::from_millis(num(value)?.max(1)));
                    budget_set = true;
                }
                "depth" => {
                    budget.depth = Some(num(value)?.clamp(1, 200) as u32);
                    budget_set = true;
                }
                "nodes" => {
                    budget.nodes = Some(num(value)?.max(1));
                    budget_set = true;
                }
                _ => {
                    if let Some(opt) = key.strip_prefix("option.") {
                        ext_options.push((opt.to_string(), value.to_string()));
                        int_options.push((opt.to_string(), value.to_string()));
                    } else if let Some(feature) = key.strip_prefix("feature.") {
                        internal_only.push("feature.");
                        let on = match value {
                            "on" | "true" | "1" => true,
                            "off" | "false" | "0" => false,
                            _ => return Err(err(format!("{key}: expected on or off"))),
                        };
                        // `on` also overrides a game's own defaults, to measure
                        // a feature where the game switches it off.
                        let Ok(feature) = feature.parse::<Feature>() else {
                            return Err(err(format!("no such feature '{feature}'")));
                        };
                        if on {
                            settings.features.force(feature);
                        } else {
                            settings.features.set(feature, false);
                        }
                    } else {
                        return Err(err(format!("unknown key '{key}'")));
                    }
                }
            }
        }
        let kind = match command {
            Some(command) => {
                if let Some(k) = internal_only.first() {
                    return Err(err(format!(
                        "'{k}' applies to the in-process engine only; use option.NAME=VALUE for a UCI engine"
                    )));
                }
                EngineKind::External {
                    command,
                    dir,
                    options: ext_options,
                }
            }
            None => {
                if dir.is_some() {
                    return Err(err("dir= needs cmd=".into()));
                }
                for (k, v) in &int_options {
                    match options::apply(&mut settings, k, Some(v)) {
                        Ok(Change::Settings | Change::Nothing | Change::ClearHash) => {}
                        Ok(Change::Variant(_)) => {
                            return Err(err(
                                "the game is set with --variant, not UCI_Variant".into()
                            ))
                        }
                        Err(e) => return Err(err(e)),
                    }
                }
                EngineKind::Internal(settings)
            }
        };
        Ok(EngineSpec {
            name,
            kind,
            budget: budget_set.then_some(budget),
            text: text.to_string(),
        })
    }

    /// A name for tables and PGN when none was given.
    pub fn default_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        match &self.kind {
            EngineKind::Internal(s) => {
                let mut n = "tensorchess".to_string();
                if let Some(l) = s.level() {
                    n.push_str(&format!("-L{}", l.number()));
                }
                let d = Features::default();
                for f in Feature::ALL {
                    let (default, here) = (d.is_on(f), s.features.is_on(f));
                    if default != here || s.features.is_forced(f) {
                        n.push_str(&format!("{}{f}", if here { "+" } else { "-" }));
                    }
                }
                if s.weights != WeightsSource::Default {
                    n.push_str("-weights");
                }
                n
            }
            EngineKind::External { command, .. } => std::path::Path::new(&command[0])
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_else(|| command[0].clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_specs() {
        let s = EngineSpec::parse("level=3,hash=32,no=null_move,no=futility").unwrap();
        let EngineKind::Internal(set) = &s.kind else {
            panic!()
        };
        assert_eq!(set.level().map(|l| l.number()), Some(3));
        assert_eq!(set.hash_mb, 32);
        let on = |f| set.features.is_on(f);
        assert!(!on(Feature::NullMove) && !on(Feature::Futility) && on(Feature::Killers));
        assert_eq!(s.default_name(), "tensorchess-L3-null_move-futility");
        assert_eq!(s.budget, None);

        let forced = EngineSpec::parse("feature.tt_eval=on,feature.iir=off").unwrap();
        let EngineKind::Internal(set) = &forced.kind else {
            panic!()
        };
        assert!(set.features.is_forced(Feature::TtEval) && !set.features.is_on(Feature::Iir));
        assert_eq!(forced.default_name(), "tensorchess-iir+tt_eval");

        let m = EngineSpec::parse("material2").unwrap();
        let EngineKind::Internal(set) = &m.kind else {
            panic!()
        };
        assert_eq!(set.weights, WeightsSource::MaterialOnly);
        assert_eq!(m.budget.unwrap().depth, Some(2));
        assert_eq!(m.default_name(), "material2");

        let o = EngineSpec::parse("option.UCI_LimitStrength=true,option.UCI_Elo=1000,name=weak")
            .unwrap();
        let EngineKind::Internal(set) = &o.kind else {
            panic!()
        };
        assert_eq!(set.level().map(|l| l.number()), Some(2));
        assert_eq!(o.default_name(), "weak");
    }

    #[test]
    fn external_specs() {
        let s = EngineSpec::parse(
            "cmd=/usr/games/stockfish,option.UCI_LimitStrength=true,option.UCI_Elo=2000,tc=10+0.1",
        )
        .unwrap();
        match &s.kind {
            EngineKind::External {
                command, options, ..
            } => {
                assert_eq!(command, &vec!["/usr/games/stockfish".to_string()]);
                assert_eq!(options.len(), 2);
                assert_eq!(options[1], ("UCI_Elo".to_string(), "2000".to_string()));
            }
            _ => panic!(),
        }
        assert_eq!(s.default_name(), "stockfish");
        assert!(s.budget.unwrap().tc.is_some());
        let t = EngineSpec::parse("cmd=target/release/tensorchess uci").unwrap();
        assert!(matches!(&t.kind, EngineKind::External { command, .. } if command.len() == 2));
    }

    #[test]
    fn bad_specs_are_refused() {
        for bad in [
            "level=9",
            "no=warp",
            "bogus=1",
            "cmd=sf,level=3",
            "depth=x",
            "option.Hash=0",
            "option.UCI_Variant=chess",
            "dir=/tmp",
            "cmd=",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
