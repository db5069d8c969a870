//! Two players paired for an online game (a seek accepted, a challenge
//! accepted): the colours drawn, the names and ratings read, the game
//! started in the same write as the seek or challenge is taken.

use super::timing::Timing;
use super::{OnlineGames, Origin};
use crate::error::AppError;
use crate::round::live::SharedGame;
use crate::store::{RatingPool, SeekColor};
use std::sync::Arc;
use tensorchess_rules::{ByColor, Color, VariantKind};

/// What two players agreed to play.
pub struct Pairing<'a> {
    /// The game.
    pub variant: VariantKind,
    /// The clock or days per move, if any.
    pub timing: Timing,
    /// Rated (both players' ratings are read now).
    pub rated: bool,
    /// Who asked first (the seek's or challenge's maker), and the colour
    /// they asked for.
    pub maker: (&'a str, SeekColor),
    /// Who answered.
    pub taker: &'a str,
    /// The maker's and the taker's names, as the game shows them.
    pub names: [String; 2],
    /// What is taken in the same write.
    pub origin: Origin<'a>,
}

pub use crate::requests::draw_color;

impl OnlineGames {
    /// Starts the game of a pairing; returns it and its players (White's
    /// first).
    pub async fn start_paired(
        self: &Arc<Self>,
        p: Pairing<'_>,
    ) -> Result<(SharedGame, ByColor<String>), AppError> {
        let (maker, wanted) = p.maker;
        let [maker_name, taker_name] = p.names.clone();
        let (seats, names) = match draw_color(wanted) {
            Color::White => (
                ByColor::new(maker.to_string(), p.taker.to_string()),
                [maker_name, taker_name],
            ),
            Color::Black => (
                ByColor::new(p.taker.to_string(), maker.to_string()),
                [taker_name, maker_name],
            ),
        };
        let pool = RatingPool {
            variant: p.variant,
            correspondence: p.timing.days().is_some(),
        };
        let rated = if p.rated {
            let mut r = [0; 2];
            for (slot, player) in r.iter_mut().zip([&seats.white, &seats.black]) {
                *slot = self.live.rating_of(player, pool).await?.rating.round() as i32;
            }
            Some(r)
        } else {
            None
        };
        let arc = self
            .start(
                p.variant,
                p.timing,
                [Some(seats.white.clone()), Some(seats.black.clone())],
                names,
                rated,
                p.origin,
            )
            .await?;
        Ok((arc, seats))
    }
}
