//! Glicko-2 ratings, as in Mark Glickman's "Example of the Glicko-2 system"
//! (2013): each rated game is one rating period for both players.

/// The system constant τ: how much volatility may change in a period.
pub const TAU: f64 = 0.5;
/// A new player's rating, deviation and volatility.
pub const START: Glicko = Glicko {
    rating: 1500.0,
    rd: 350.0,
    volatility: 0.06,
};
/// Glicko-2's scale factor between the rating scale and its own.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A rating on the Glicko scale (1500 ± RD), with its volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation, in rating points (350 to start).
    pub rd: f64,
    /// How erratic the player's results are (0.06 to start).
    pub volatility: f64,
}

/// One game of the period: the opponent's rating and the score (1 win,
/// 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Glicko,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after a period of `games` (an empty period only widens the
/// deviation).
///
/// ```
/// use tensorchess_server::rating::glicko2::{rate, Game, Glicko};
/// let p = Glicko { rating: 1500.0, rd: 200.0, volatility: 0.06 };
/// let op = |rating, rd| Glicko { rating, rd, volatility: 0.06 };
/// let after = rate(p, &[
///     Game { opponent: op(1400.0, 30.0), score: 1.0 },
///     Game { opponent: op(1550.0, 100.0), score: 0.0 },
///     Game { opponent: op(1700.0, 300.0), score: 0.0 },
/// ]);
/// assert!((after.rating - 1464.06).abs() < 0.01);
/// ```
pub fn rate(player: Glicko, games: &[Game]) -> Glicko {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Glicko {
            rd: (phi_star * SCALE).min(START.rd),
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance and improvement.
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.rd / SCALE;
        let e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j).powi(2) * e * (1.0 - e);
        delta_sum += g(phi_j) * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // Step 5: the new volatility (the Illinois algorithm).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6 to 8: the new deviation and rating, back to the rating scale.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Glicko {
        rating: mu_new * SCALE + 1500.0,
        rd: (phi_new * SCALE).min(START.rd),
        volatility: sigma_new,
    }
}

/// Both players' ratings after one game between them; `white_score` is
/// White's (1, 0.5 or 0).
pub fn rate_game(white: Glicko, black: Glicko, white_score: f64) -> (Glicko, Glicko) {
    (
        rate(
            white,
            &[Game {
                opponent: black,
                score: white_score,
            }],
        ),
        rate(
            black,
            &[Game {
                opponent: white,
                score: 1.0 - white_score,
            }],
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: f64, rd: f64) -> Glicko {
        Glicko {
            rating,
            rd,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example: 1500/200 beats 1400/30, loses to 1550/100
    /// and to 1700/300; the paper gives 1464.06, 151.52, 0.05999.
    #[test]
    fn the_papers_example() {
        let after = rate(
            at(1500.0, 200.0),
            &[
                Game {
                    opponent: at(1400.0, 30.0),
                    score: 1.0,
                },
                Game {
                    opponent: at(1550.0, 100.0),
                    score: 0.0,
                },
                Game {
                    opponent: at(1700.0, 300.0),
                    score: 0.0,
                },
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_draw_between_equals_changes_little() {
        let (w, b) = rate_game(START, START, 1.0);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-6);
        assert!(w.rd < START.rd && b.rd < START.rd);
        let (w, b) = rate_game(START, START, 0.5);
        assert!((w.rating - 1500.0).abs() < 1e-6 && (b.rating - 1500.0).abs() < 1e-6);
        // Beating a much stronger player gains more than beating an equal.
        let gain_vs_equal = rate_game(at(1500.0, 80.0), at(1500.0, 80.0), 1.0).0.rating;
        let gain_vs_strong = rate_game(at(1500.0, 80.0), at(1900.0, 80.0), 1.0).0.rating;
        assert!(gain_vs_strong > gain_vs_equal);
        // An idle period widens the deviation, never past a new player's.
        assert!(rate(at(1500.0, 50.0), &[]).rd > 50.0);
        assert_eq!(rate(START, &[]).rd, START.rd);
    }
}
