//! Move strings (RULES 4.2): the protocol and storage form of a move.
//!
//! | move | form |
//! |---|---|
//! | ordinary, capture, castling | `e2e4`, `f1h1` |
//! | promotion | `c7c8q`, `c7c8t` |
//! | propel | `c1e3>g5` |
//! | beast capture | `b1d3xc2` |
//! | drop | `M@c2` |

use crate::{Geometry, IllegalReason, Move, MoveKind, Position, Role, Square, Variant};
use std::fmt;

/// A move string that could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Not a move string of this board.
    #[error("'{text}' is not a move: {reason}")]
    Syntax {
        /// The text as given.
        text: String,
        /// Why it is not a move, or not a legal one.
        reason: String,
    },
    /// A well-formed move that the rules forbid here.
    #[error("illegal move {text}: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why it is not a move, or not a legal one.
        reason: IllegalReason,
    },
}

/// A move string read without looking at a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The square the piece starts from (the destination, for a drop).
    pub from: Square,
    /// The square it ends on.
    pub to: Square,
    /// The role a promotion asks for.
    pub promotion: Option<Role>,
    /// The square a propelled beast goes to (`c1e3>g5`).
    pub propel_to: Option<Square>,
    /// The square of the enemy beast a beast capture removes (`b1d3xc2`).
    pub captured_beast: Option<Square>,
    /// The role dropped (`M@c2`).
    pub drop: Option<Role>,
}

/// Reads a square name at the start of `s`; returns it and the rest.
pub(crate) fn take_square<'a>(g: &Geometry, s: &'a str) -> Option<(Square, &'a str)> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let mut n = 1;
    while n < b.len() && n < 3 && b[n].is_ascii_digit() {
        n += 1;
    }
    if n == 1 {
        return None;
    }
    Some((g.parse_square(&s[..n])?, &s[n..]))
}

/// Parses the syntax of a move string for a board.
pub fn parse_move_text(g: &Geometry, text: &str) -> Result<MoveText, ParseMoveError> {
    let syntax = |reason: &str| ParseMoveError::Syntax {
        text: text.chars().take(32).collect(),
        reason: reason.to_string(),
    };
    if text.len() > 16 || !text.is_ascii() {
        return Err(syntax("too long or not plain text"));
    }
    if let Some((role, sq)) = text.split_once('@') {
        let mut chars = role.chars();
        let role = match (chars.next().and_then(Role::from_char), chars.next()) {
            (Some(r), None) => r,
            _ => return Err(syntax("a drop is written like M@c2")),
        };
        let to = g
            .parse_square(sq)
            .ok_or_else(|| syntax("the drop square is not on this board"))?;
        return Ok(MoveText {
            from: to,
            to,
            promotion: None,
            propel_to: None,
            captured_beast: None,
            drop: Some(role),
        });
    }
    let (from, rest) = take_square(g, text).ok_or_else(|| syntax("no starting square"))?;
    let (to, rest) = take_square(g, rest).ok_or_else(|| syntax("no destination square"))?;
    let mut mt = MoveText {
        from,
        to,
        promotion: None,
        propel_to: None,
        captured_beast: None,
        drop: None,
    };
    if rest.is_empty() {
        return Ok(mt);
    }
    if let Some(r) = rest.strip_prefix('>') {
        let (sq, tail) = take_square(g, r).ok_or_else(|| syntax("no square after '>'"))?;
        if !tail.is_empty() {
            return Err(syntax("unexpected text after the propel square"));
        }
        mt.propel_to = Some(sq);
        return Ok(mt);
    }
    if let Some(r) = rest.strip_prefix('x') {
        let (sq, tail) = take_square(g, r).ok_or_else(|| syntax("no square after 'x'"))?;
        if !tail.is_empty() {
            return Err(syntax("unexpected text after the captured beast's square"));
        }
        mt.captured_beast = Some(sq);
        return Ok(mt);
    }
    let mut chars = rest.chars();
    match (chars.next().and_then(Role::from_char), chars.next()) {
        (Some(r), None) if r != Role::Pawn && r != Role::King => {
            mt.promotion = Some(r);
            Ok(mt)
        }
        _ => Err(syntax("unexpected text after the destination")),
    }
}

/// Writes a move string (RULES 4.2) for game `V`.
///
/// ```
/// use tensorchess_rules::{Move, Tensor, Square, uci::move_string};
/// let m = Move::propel(Square::new(2), Square::new(24), Square::new(46));
/// assert_eq!(move_string::<Tensor>(m), "c1e3>g5");
/// ```
pub fn move_string<V: Variant>(m: Move) -> String {
    MoveString::<V>(m, std::marker::PhantomData).to_string()
}

/// Displays a move string.
pub struct MoveString<V: Variant>(pub Move, pub std::marker::PhantomData<V>);

impl<V: Variant> fmt::Display for MoveString<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = V::GEOMETRY;
        let m = self.0;
        let from = g.square_name(m.from());
        let to = g.square_name(m.to());
        match m.kind() {
            MoveKind::Drop => write!(
                f,
                "{}@{}",
                m.drop_role().unwrap_or(V::DROP_ROLE).upper_char(),
                to
            ),
            MoveKind::Promotion => write!(
                f,
                "{from}{to}{}",
                m.promotion_role().unwrap_or(Role::Queen).char()
            ),
            MoveKind::Propel => write!(f, "{from}{to}>{}", g.square_name(m.aux())),
            MoveKind::BeastCapture => write!(f, "{from}{to}x{}", g.square_name(m.aux())),
            _ => write!(f, "{from}{to}"),
        }
    }
}

impl<V: Variant> Position<V> {
    /// The move string of `m` (RULES 4.2).
    pub fn move_string(&self, m: Move) -> String {
        move_string::<V>(m)
    }

    /// Finds the legal move a move string names.
    ///
    /// ```
    /// use tensorchess_rules::{Position, Tensor, uci::ParseMoveError};
    /// let pos = Position::<Tensor>::new();
    /// let m = pos.parse_move("e2e4").unwrap();
    /// assert_eq!(pos.move_string(m), "e2e4");
    /// assert!(matches!(pos.parse_move("e2e5"), Err(ParseMoveError::Illegal { .. })));
    /// assert!(matches!(pos.parse_move("k9k8"), Err(ParseMoveError::Syntax { .. })));
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let g = V::GEOMETRY;
        let mt = parse_move_text(&g, text.trim())?;
        let canonical = MoveTextDisplay::<V>(&mt, std::marker::PhantomData).to_string();
        if let Some(m) = self
            .legal_moves()
            .into_iter()
            .find(|m| move_string::<V>(*m) == canonical)
        {
            return Ok(m);
        }
        Err(ParseMoveError::Illegal {
            text: canonical,
            reason: self.why_illegal(&mt),
        })
    }
}

/// Displays a [`MoveText`] as its move string.
pub(crate) struct MoveTextDisplay<'a, V: Variant>(&'a MoveText, std::marker::PhantomData<V>);

impl<'a, V: Variant> MoveTextDisplay<'a, V> {
    pub(crate) fn new(mt: &'a MoveText) -> Self {
        MoveTextDisplay(mt, std::marker::PhantomData)
    }
}

impl<V: Variant> fmt::Display for MoveTextDisplay<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = V::GEOMETRY;
        let mt = self.0;
        if let Some(r) = mt.drop {
            return write!(f, "{}@{}", r.upper_char(), g.square_name(mt.to));
        }
        write!(f, "{}{}", g.square_name(mt.from), g.square_name(mt.to))?;
        if let Some(r) = mt.promotion {
            write!(f, "{}", r.char())?;
        }
        if let Some(s) = mt.propel_to {
            write!(f, ">{}", g.square_name(s))?;
        }
        if let Some(s) = mt.captured_beast {
            write!(f, "x{}", g.square_name(s))?;
        }
        Ok(())
    }
}
