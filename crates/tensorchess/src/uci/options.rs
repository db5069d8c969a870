//! The UCI options the engine offers, and `setoption`.

use super::settings::{EngineSettings, WeightsSource, ELO_MAX, ELO_MIN};
use std::time::Duration;
use tensorchess_engine::{Feature, Level, CONTEMPT_MAX};
use tensorchess_rules::VariantKind;

/// The largest `Hash`, in MiB.
pub const HASH_MAX: usize = 65_536;
/// The most `Threads`.
pub const THREADS_MAX: usize = 256;
/// The most `MultiPV` lines.
pub const MULTIPV_MAX: usize = 256;
/// The largest `Move Overhead`, in milliseconds.
pub const OVERHEAD_MAX: u64 = 5_000;

/// The `option` lines sent after `uci`.
pub fn option_lines(defaults: &EngineSettings) -> Vec<String> {
    let mut lines = vec![
        "option name UCI_Variant type combo default tensor var tensor var chess var chessence"
            .to_string(),
        format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX}",
            defaults.hash_mb
        ),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            defaults.threads
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max {MULTIPV_MAX}",
            defaults.multipv
        ),
        "option name Ponder type check default false".to_string(),
        format!(
            "option name UCI_LimitStrength type check default {}",
            defaults.limit_strength
        ),
        format!(
            "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
            defaults.elo
        ),
        format!(
            "option name Skill Level type spin default {} min {} max {}",
            defaults.skill,
            Level::MIN,
            Level::MAX
        ),
        format!(
            "option name Move Overhead type spin default {} min 0 max {OVERHEAD_MAX}",
            defaults.move_overhead.as_millis()
        ),
        format!(
            "option name Seed type spin default {} min 0 max 2147483647",
            defaults.seed
        ),
        "option name EvalFile type string default <default>".to_string(),
        format!(
            "option name UseNNUE type check default {}",
            defaults.use_nnue
        ),
        format!(
            "option name Contempt type spin default {} min -{CONTEMPT_MAX} max {CONTEMPT_MAX}",
            defaults.contempt
        ),
    ];
    for feature in Feature::ALL {
        lines.push(format!(
            "option name Feature {feature} type check default {}",
            defaults.features.is_on(feature)
        ));
    }
    lines
}

/// What a `setoption` changed.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// An engine setting (already stored in the settings).
    Settings,
    /// `UCI_Variant`: the game changed.
    Variant(VariantKind),
    /// `Clear Hash`: the table is to be cleared.
    ClearHash,
    /// Accepted, nothing to do (e.g. `Ponder`).
    Nothing,
}

/// Splits `setoption name NAME... [value VALUE...]` (the tokens after `setoption`).
pub fn split_setoption(rest: &str) -> Result<(String, Option<String>), String> {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    if tokens.first().map(|t| t.to_ascii_lowercase()) != Some("name".into()) {
        return Err("setoption: expected 'setoption name NAME [value VALUE]'".into());
    }
    let value_at = tokens
        .iter()
        .position(|t| t.eq_ignore_ascii_case("value"))
        .unwrap_or(tokens.len());
    let name = tokens[1..value_at].join(" ");
    if name.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let value = (value_at < tokens.len()).then(|| tokens[value_at + 1..].join(" "));
    Ok((name, value))
}

fn parse_bool(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("{name} needs the value true or false")),
    }
}

fn parse_spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value"))?;
    let n: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("{name}: '{v}' is not a whole number"))?;
    if n < min || n > max {
        return Err(format!("{name} must be between {min} and {max}, not {n}"));
    }
    Ok(n)
}

/// Applies `setoption name NAME value VALUE` to the settings.
pub fn apply(
    settings: &mut EngineSettings,
    name: &str,
    value: Option<&str>,
) -> Result<Change, String> {
    let key = name.to_ascii_lowercase();
    match key.as_str() {
        "uci_variant" => {
            let v = value.ok_or("UCI_Variant needs a value")?;
            let kind: VariantKind = v.trim().parse().map_err(|e| format!("UCI_Variant: {e}"))?;
            Ok(Change::Variant(kind))
        }
        "hash" => {
            settings.hash_mb = parse_spin(name, value, 1, HASH_MAX as i64)? as usize;
            Ok(Change::Settings)
        }
        "clear hash" => Ok(Change::ClearHash),
        "threads" => {
            settings.threads = parse_spin(name, value, 1, THREADS_MAX as i64)? as usize;
            Ok(Change::Settings)
        }
        "multipv" => {
            settings.multipv = parse_spin(name, value, 1, MULTIPV_MAX as i64)? as usize;
            Ok(Change::Settings)
        }
        "ponder" => {
            parse_bool(name, value)?;
            Ok(Change::Nothing)
        }
        "uci_limitstrength" => {
            settings.limit_strength = parse_bool(name, value)?;
            Ok(Change::Settings)
        }
        "uci_elo" => {
            settings.elo = parse_spin(name, value, ELO_MIN as i64, ELO_MAX as i64)? as u32;
            Ok(Change::Settings)
        }
        "skill level" => {
            settings.skill = parse_spin(name, value, Level::MIN as i64, Level::MAX as i64)? as u8;
            Ok(Change::Settings)
        }
        "move overhead" => {
            let ms = parse_spin(name, value, 0, OVERHEAD_MAX as i64)?;
            settings.move_overhead = Duration::from_millis(ms as u64);
            Ok(Change::Settings)
        }
        "seed" => {
            settings.seed = parse_spin(name, value, 0, i32::MAX as i64)? as u64;
            Ok(Change::Settings)
        }
        "usennue" => {
            settings.use_nnue = parse_bool(name, value)?;
            Ok(Change::Settings)
        }
        "contempt" => {
            let max = CONTEMPT_MAX as i64;
            settings.contempt = parse_spin(name, value, -max, max)? as i32;
            Ok(Change::Settings)
        }
        "evalfile" => {
            settings.weights = WeightsSource::from_spec(value.unwrap_or(""))?;
            Ok(Change::Settings)
        }
        _ => {
            if let Some(feature) = key.strip_prefix("feature ") {
                let on = parse_bool(name, value)?;
                if let Ok(feature) = feature.trim().parse::<Feature>() {
                    settings.features.set(feature, on);
                    return Ok(Change::Settings);
                }
            }
            Err(format!("no such option: {name}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_names_and_values_split_on_the_value_keyword() {
        assert_eq!(
            split_setoption("name Skill Level value 3").unwrap(),
            ("Skill Level".to_string(), Some("3".to_string()))
        );
        assert_eq!(
            split_setoption("name Clear Hash").unwrap(),
            ("Clear Hash".to_string(), None)
        );
        assert!(split_setoption("Hash value 3").is_err());
        assert!(split_setoption("name value 3").is_err());
    }

    #[test]
    fn options_are_checked_and_stored() {
        let mut s = EngineSettings::default();
        assert_eq!(apply(&mut s, "hash", Some("64")), Ok(Change::Settings));
        assert_eq!(s.hash_mb, 64);
        assert!(apply(&mut s, "Hash", Some("0")).is_err());
        assert!(apply(&mut s, "Hash", Some("lots")).is_err());
        assert_eq!(s.hash_mb, 64);
        assert_eq!(
            apply(&mut s, "UCI_Variant", Some("Chess")),
            Ok(Change::Variant(VariantKind::Chess))
        );
        assert!(apply(&mut s, "UCI_Variant", Some("xiangqi")).is_err());
        assert_eq!(
            apply(&mut s, "Feature null_move", Some("false")),
            Ok(Change::Settings)
        );
        assert!(!s.features.is_on(Feature::NullMove));
        assert!(apply(&mut s, "Feature warp_drive", Some("false")).is_err());
        assert!(apply(&mut s, "Frobnicate", Some("1")).is_err());
        assert_eq!(apply(&mut s, "Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(apply(&mut s, "Contempt", Some("-25")), Ok(Change::Settings));
        assert_eq!(s.contempt, -25);
        assert!(apply(&mut s, "Contempt", Some("201")).is_err());
        assert_eq!(s.contempt, -25);
    }

    #[test]
    fn every_feature_is_offered_with_its_default() {
        let lines = option_lines(&EngineSettings::default());
        for feature in Feature::ALL {
            assert!(lines
                .iter()
                .any(|l| l == &format!("option name Feature {feature} type check default true")));
        }
    }
}
