//! Two players paired for an online game (a seek accepted, a challenge
//! accepted): the colours drawn, the names and ratings read, the game
//! started in the same write as the seek or challenge is taken.

use super::timing::Timing;
use super::{OnlineGames, Origin};
use crate::error::AppError;
use crate::players::Players;
use crate::round::live::SharedGame;
use crate::store::{RatingPool, SeekColor};
use rand::Rng;
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
    /// What is taken in the same write.
    pub origin: Origin<'a>,
}

/// The colour `wanted` gives its maker (random: drawn now).
pub fn draw_color(wanted: SeekColor) -> Color {
    match wanted {
        SeekColor::White => Color::White,
        SeekColor::Black => Color::Black,
        SeekColor::Random => {
            if rand::rng().random_bool(0.5) {
                Color::White
            } else {
                Color::Black
            }
        }
    }
}

impl OnlineGames {
    /// Starts the game of a pairing; returns it and its players (White's
    /// first).
    pub async fn start_paired(
        self: &Arc<Self>,
        players: &Players,
        p: Pairing<'_>,
    ) -> Result<(SharedGame, ByColor<String>), AppError> {
        let (maker, wanted) = p.maker;
        let seats = match draw_color(wanted) {
            Color::White => ByColor::new(maker.to_string(), p.taker.to_string()),
            Color::Black => ByColor::new(p.taker.to_string(), maker.to_string()),
        };
        let names = [
            players.name_of(&seats.white).await?,
            players.name_of(&seats.black).await?,
        ];
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
