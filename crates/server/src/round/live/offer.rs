//! Offers one player makes and the other answers: draws and rematches.

use crate::error::AppError;
use crate::kind::Kind;
use tensorchess_rules::Color;

/// A pending offer, by the side that made it (`None`: nothing pending).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offer(pub Option<Color>);

/// What making an offer did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// The opponent had offered the same: both agree.
    Agreed,
    /// The offer now waits for the opponent.
    Pending,
}

impl Offer {
    /// `by` offers: agreed if the opponent's offer was pending; refused if
    /// `by`'s own offer still waits (`what` names the offer: "draw").
    pub fn make(self, by: Color, what: &str) -> Result<(Offered, Offer), AppError> {
        match self.0 {
            Some(c) if c == !by => Ok((Offered::Agreed, Offer(None))),
            Some(_) => Err(AppError::refused(
                Kind::AlreadyOffered,
                format!("Your {what} offer is waiting for an answer"),
            )),
            None => Ok((Offered::Pending, Offer(Some(by)))),
        }
    }

    /// `by` answers the opponent's offer (accepts or declines): refused
    /// when the opponent has not offered.
    pub fn answer(self, by: Color, what: &str) -> Result<Offer, AppError> {
        if self.0 == Some(!by) {
            Ok(Offer(None))
        } else {
            Err(AppError::refused(
                Kind::NoOffer,
                format!("Your opponent has not offered a {what}"),
            ))
        }
    }

    /// The offer after `mover` moves: a move declines the opponent's offer.
    pub fn after_move_by(self, mover: Color) -> Offer {
        if self.0 == Some(!mover) {
            Offer(None)
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn offers_are_made_answered_and_lapse() {
        let (made, pending) = Offer(None).make(White, "draw").unwrap();
        assert_eq!((made, pending), (Offered::Pending, Offer(Some(White))));
        assert!(pending.make(White, "draw").is_err(), "one offer at a time");
        assert_eq!(pending.make(Black, "draw").unwrap().0, Offered::Agreed);
        assert!(pending.answer(White, "draw").is_err(), "not one's own");
        assert_eq!(pending.answer(Black, "draw").unwrap(), Offer(None));
        assert_eq!(pending.after_move_by(Black), Offer(None));
        assert_eq!(pending.after_move_by(White), pending);
    }
}
