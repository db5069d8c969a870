//! Match statistics: score, Elo difference with a 95% interval, likelihood
//! of superiority, and the sequential probability ratio test.
//!
//! Elo is the logistic scale: an expected score `s` means a difference of
//! `-400 log10(1/s - 1)`. The error and the SPRT use the per-game score's
//! measured variance (a trinomial model of wins, draws and losses), the
//! normal approximation of Michel Van den Bergh's GSPRT that fishtest and
//! fastchess use. For the SPRT the variance is taken with half a game of
//! each result added, so that a one-sided start (all wins, variance 0)
//! gives a finite, cautious ratio instead of none; the effect fades as
//! games accumulate.

use serde::Serialize;

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// The expected score for an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game's score for the first engine: 1, 0.5 or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The first engine's mean score per game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score.
    pub fn variance(&self) -> f64 {
        variance(self.wins as f64, self.draws as f64, self.losses as f64)
    }

    /// The variance with half a game of each result added (for the SPRT).
    pub fn smoothed_variance(&self) -> f64 {
        variance(
            self.wins as f64 + 0.5,
            self.draws as f64 + 0.5,
            self.losses as f64 + 0.5,
        )
    }

    /// The Elo difference and the half-width of its 95% interval; `None`
    /// while the score is 0% or 100% (the difference is unbounded).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let se = (self.variance() / n).sqrt();
        let lo = (s - 1.959_964 * se).clamp(1e-6, 1.0 - 1e-6);
        let hi = (s + 1.959_964 * se).clamp(1e-6, 1.0 - 1e-6);
        // `+ 0.0` turns -0.0 into 0.0 for printing.
        Some((
            elo_of_score(s) + 0.0,
            (elo_of_score(hi) - elo_of_score(lo)) / 2.0,
        ))
    }

    /// Likelihood of superiority: the chance the first engine is the stronger.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The share of games drawn (0 to 1).
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }
}

fn variance(w: f64, d: f64, l: f64) -> f64 {
    let n = w + d + l;
    if n == 0.0 {
        return 0.0;
    }
    let s = (w + 0.5 * d) / n;
    (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n
}

/// An SPRT between two Elo hypotheses.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis (no gain).
    pub elo0: f64,
    /// The Elo difference of the alternative (a gain).
    pub elo1: f64,
    /// The chance accepted of taking a non-gain for a gain.
    pub alpha: f64,
    /// The chance accepted of missing a gain.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SprtState {
    /// Neither bound reached: play on.
    Continue,
    /// H0 (Elo ≤ elo0) accepted.
    H0,
    /// H1 (Elo ≥ elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected KEY=VALUE, found '{part}'"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("--sprt: '{v}' is not a number"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => return Err(format!("--sprt: unknown key '{other}'")),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err("--sprt needs elo0 and elo1".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be above elo0".into());
        }
        let open = |p: f64| p > 0.0 && p < 0.5;
        if !open(s.alpha) || !open(s.beta) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        Ok(s)
    }

    /// Accept H0 at or below this log-likelihood ratio.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Accept H1 at or above this log-likelihood ratio.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 given the games so far.
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = t.games() as f64;
        let var = t.smoothed_variance();
        if n == 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * t.score() - s0 - s1) / (2.0 * var)
    }

    /// Where the test stands after the games of `t`.
    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        if llr >= self.upper_bound() {
            SprtState::H1
        } else if llr <= self.lower_bound() {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -50.0, 0.0, 10.0, 191.0] {
            assert!((elo_of_score(expected_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(erf(0.0).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-2.0) + 0.995_322_27).abs() < 1e-6);
    }

    #[test]
    fn tally_statistics() {
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert_eq!(t.games(), 100);
        assert!((t.score() - 0.7).abs() < 1e-12);
        let (elo, err) = t.elo().unwrap();
        assert!((elo - 147.19).abs() < 0.1, "{elo}");
        // sqrt(var/n) = 0.0436 → 95% interval of about ±66 Elo here.
        assert!(err > 55.0 && err < 75.0, "{err}");
        assert!(t.los() > 0.999);
        let even = Tally {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!((even.los() - 0.5).abs() < 1e-9);
        assert_eq!(even.elo().unwrap().0, 0.0);
        assert!(Tally {
            wins: 3,
            draws: 0,
            losses: 0
        }
        .elo()
        .is_none());
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
        assert!((s.upper_bound() - 2.944).abs() < 1e-3);
        assert!((s.lower_bound() + 2.944).abs() < 1e-3);
        let strong = Tally {
            wins: 700,
            draws: 200,
            losses: 100,
        };
        assert_eq!(s.state(&strong), SprtState::H1);
        let weak = Tally {
            wins: 100,
            draws: 200,
            losses: 700,
        };
        assert_eq!(s.state(&weak), SprtState::H0);
        let few = Tally {
            wins: 3,
            draws: 2,
            losses: 2,
        };
        assert_eq!(s.state(&few), SprtState::Continue);
        // All wins: decided, but not at once.
        let s400 = Sprt::parse("elo0=0,elo1=400,alpha=0.1,beta=0.1").unwrap();
        let wins = |n| Tally {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert_eq!(s400.state(&wins(1)), SprtState::Continue);
        assert_eq!(s400.state(&wins(6)), SprtState::H1);
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
    }
}
