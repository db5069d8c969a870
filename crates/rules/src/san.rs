//! Standard algebraic notation (RULES 4.3): orthodox SAN plus the beast `T`,
//! propels `Ne3>f5`, beast captures `Td3xc2`, Tensor castling as the king's
//! move `Kh1`, and drops `M@c2`.

use crate::movegen::GenType;
use crate::uci::{parse_move_text, take_square};
use crate::{
    CastlingSide, File, IllegalReason, Move, MoveKind, MoveList, Position, Rank, Role, Square,
    Variant,
};

/// A SAN that names no legal move, or more than one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// Not SAN (the text, shortened).
    #[error("'{0}' is not a move in algebraic notation")]
    Syntax(String),
    /// SAN that names no legal move: the text and why.
    #[error("illegal move {0}: {1}")]
    Illegal(String, IllegalReason),
    /// SAN that names several legal moves: the text and the moves it could mean.
    #[error("ambiguous move {0}: it could mean {1}")]
    Ambiguous(String, String),
}

/// What a SAN says, before looking for the move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SanParts {
    role: Option<Role>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Option<Square>,
    promotion: Option<Role>,
    propel_to: Option<Square>,
    captured_beast: Option<Square>,
    drop: bool,
    /// `O-O` (king side) or `O-O-O` (queen side).
    castle_side: Option<CastlingSide>,
}

/// The key two moves share when SAN must tell their pieces apart.
fn san_key(m: Move) -> (MoveKind, Square, Square, Option<Role>) {
    let aux = match m.kind() {
        MoveKind::Propel | MoveKind::BeastCapture => m.aux(),
        _ => Square::new(0),
    };
    let kind = match m.kind() {
        MoveKind::EnPassant | MoveKind::Castle => MoveKind::Normal,
        k => k,
    };
    (kind, m.to(), aux, m.promotion_role())
}

/// SAN of a legal move, without the check suffix.
fn san_body<V: Variant>(pos: &Position<V>, m: Move, legal: &[Move]) -> String {
    let g = V::GEOMETRY;
    let name = |s: Square| g.square_name(s).to_string();
    if let Some(r) = m.drop_role() {
        return format!("{}@{}", r.upper_char(), name(m.to()));
    }
    if m.kind() == MoveKind::Castle && V::SAN_CASTLING_OO {
        return if g.file_of(m.to()) > g.file_of(m.from()) {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return crate::uci::move_string::<V>(m);
    };
    let role = piece.role();
    let capture = matches!(m.kind(), MoveKind::EnPassant)
        || (matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
            && pos.piece_at(m.to()).is_some());
    let mut s = String::new();
    if role == Role::Pawn {
        if capture {
            s.push(g.file_of(m.from()).char());
            s.push('x');
        }
    } else {
        s.push(role.upper_char());
        // Disambiguation, as in orthodox SAN: file, else rank, else both.
        let key = san_key(m);
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|o| {
                o.from() != m.from()
                    && san_key(**o) == key
                    && pos.piece_at(o.from()).map(|p| p.role()) == Some(role)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let file = g.file_of(m.from());
            let rank = g.rank_of(m.from());
            if rivals.iter().all(|r| g.file_of(*r) != file) {
                s.push(file.char());
            } else if rivals.iter().all(|r| g.rank_of(*r) != rank) {
                s.push_str(&(rank.0 + 1).to_string());
            } else {
                s.push_str(&name(m.from()));
            }
        }
        if capture {
            s.push('x');
        }
    }
    s.push_str(&name(m.to()));
    match m.kind() {
        MoveKind::Promotion => {
            s.push('=');
            s.push(m.promotion_role().unwrap_or(Role::Queen).upper_char());
        }
        MoveKind::Propel => {
            s.push('>');
            s.push_str(&name(m.aux()));
        }
        MoveKind::BeastCapture => {
            s.push('x');
            s.push_str(&name(m.aux()));
        }
        _ => {}
    }
    s
}

/// The SAN of a legal move, with `+` for check and `#` for mate.
///
/// ```
/// use tensorchess_rules::{Chess, Position, san::san};
/// let pos = Position::<Chess>::new();
/// let m = pos.parse_move("g1f3").unwrap();
/// assert_eq!(san(&pos, m), "Nf3");
/// ```
pub fn san<V: Variant>(pos: &Position<V>, m: Move) -> String {
    let legal = pos.legal_moves();
    san_with(pos, m, &legal)
}

/// SAN with the position's legal moves already at hand.
pub fn san_with<V: Variant>(pos: &Position<V>, m: Move, legal: &[Move]) -> String {
    let mut s = san_body(pos, m, legal);
    let after = pos.play(m);
    if after.is_check() {
        s.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    s
}

fn parse_parts<V: Variant>(text: &str) -> Option<SanParts> {
    let g = V::GEOMETRY;
    let mut s = text.trim();
    while let Some(t) = s.strip_suffix(['+', '#', '!', '?']) {
        s = t;
    }
    let mut p = SanParts::default();
    match s {
        "O-O" | "0-0" => {
            p.castle_side = Some(CastlingSide::KingSide);
            return Some(p);
        }
        "O-O-O" | "0-0-0" => {
            p.castle_side = Some(CastlingSide::QueenSide);
            return Some(p);
        }
        _ => {}
    }
    if let Some((role, sq)) = s.split_once('@') {
        let mut cs = role.chars();
        let r = Role::from_char(cs.next()?)?;
        if cs.next().is_some() {
            return None;
        }
        p.role = Some(r);
        p.to = Some(g.parse_square(sq)?);
        p.drop = true;
        return Some(p);
    }
    let first = s.chars().next()?;
    if first.is_ascii_uppercase() {
        p.role = Some(Role::from_char(first)?);
        s = &s[1..];
    }
    // Propel: `<...dest>>beast_dest`.
    if let Some((left, right)) = s.split_once('>') {
        let (sq, rest) = take_square(&g, right)?;
        if !rest.is_empty() {
            return None;
        }
        p.propel_to = Some(sq);
        s = left;
    } else if p.role == Some(Role::Beast) {
        // Beast capture: `<disambiguation><dest>x<captured>`.
        if let Some(i) = s.rfind('x') {
            let (left, right) = (&s[..i], &s[i + 1..]);
            if let Some((sq, "")) = take_square(&g, right)
                && left.len() >= 2
                && left.bytes().last().is_some_and(|b| b.is_ascii_digit())
            {
                p.captured_beast = Some(sq);
                s = left;
            }
        }
    }
    // Promotion: `=Q`, `Q` or `(Q)` at the end.
    let promo = s
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once('('))
        .map(|(a, b)| (a, b.to_string()))
        .or_else(|| s.rsplit_once('=').map(|(a, b)| (a, b.to_string())))
        .or_else(|| {
            let last = s.chars().last()?;
            if last.is_ascii_uppercase() {
                Some((&s[..s.len() - 1], last.to_string()))
            } else {
                None
            }
        });
    if let Some((rest, letter)) = promo {
        let mut cs = letter.chars();
        let r = Role::from_char(cs.next()?)?;
        if cs.next().is_some() {
            return None;
        }
        p.promotion = Some(r);
        s = rest;
    }
    // Destination: the last square; before it an optional 'x' and disambiguation.
    let bytes = s.as_bytes();
    let mut i = bytes.len();
    while i > 0 && bytes[i - 1].is_ascii_digit() {
        i -= 1;
    }
    if i == 0 || i == bytes.len() {
        return None;
    }
    i -= 1;
    let (dest, _) = take_square(&g, &s[i..]).filter(|(_, r)| r.is_empty())?;
    p.to = Some(dest);
    let mut head = &s[..i];
    head = head.strip_suffix('x').unwrap_or(head);
    head = head.strip_suffix(':').unwrap_or(head);
    let hb = head.as_bytes();
    let mut j = 0;
    if j < hb.len() && hb[j].is_ascii_lowercase() {
        p.file = File::from_char(hb[j] as char);
        j += 1;
    }
    if j < hb.len() {
        let r: u8 = head[j..].parse().ok()?;
        p.rank = Some(Rank(r.checked_sub(1)?));
    }
    Some(p)
}

/// Finds the legal move a SAN names.
///
/// ```
/// use tensorchess_rules::{Position, Tensor, san::{parse_san, SanError}};
/// let pos = Position::<Tensor>::new();
/// let m = pos.parse_move("e2e4").unwrap();
/// assert_eq!(parse_san(&pos, "e4"), Ok(m));
/// assert!(matches!(parse_san(&pos, "e5"), Err(SanError::Illegal(..))));
/// ```
pub fn parse_san<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, SanError> {
    let g = V::GEOMETRY;
    let shown: String = text.chars().take(32).collect();
    // SAN is plain ASCII; anything else is not a move (and slicing it byte-wise would be wrong).
    if text.len() > 24 || !text.is_ascii() {
        return Err(SanError::Syntax(shown));
    }
    let parts = parse_parts::<V>(text).ok_or_else(|| SanError::Syntax(shown.clone()))?;
    let legal = pos.legal_moves();
    if let Some(side) = parts.castle_side {
        if !V::SAN_CASTLING_OO {
            return Err(SanError::Illegal(
                shown,
                IllegalReason::CastlingWrittenAsKingMove { game: V::KIND },
            ));
        }
        let found: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.kind() == MoveKind::Castle
                    && (g.file_of(m.to()) > g.file_of(m.from())) == (side == CastlingSide::KingSide)
            })
            .collect();
        return match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(SanError::Illegal(shown, IllegalReason::NoCastling)),
            _ => Err(SanError::Ambiguous(shown, "several castlings".into())),
        };
    }
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| san_names(pos, &parts, *m))
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::Illegal(shown, illegal_reason(pos, &parts))),
        many => Err(SanError::Ambiguous(
            shown,
            many.iter()
                .map(|m| san_with(pos, *m, &legal))
                .collect::<Vec<_>>()
                .join(" or "),
        )),
    }
}

/// Whether SAN `parts` name move `m` (legal or not).
fn san_names<V: Variant>(pos: &Position<V>, parts: &SanParts, m: Move) -> bool {
    let g = V::GEOMETRY;
    let role = parts.role.unwrap_or(Role::Pawn);
    if parts.drop {
        return m.drop_role() == Some(role) && Some(m.to()) == parts.to;
    }
    if m.kind() == MoveKind::Drop {
        return false;
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return false;
    };
    if piece.role() != role || Some(m.to()) != parts.to {
        return false;
    }
    if parts.file.is_some_and(|f| g.file_of(m.from()) != f)
        || parts.rank.is_some_and(|r| g.rank_of(m.from()) != r)
    {
        return false;
    }
    // A pawn that changes file must say where from (exd5).
    if role == Role::Pawn && parts.file.is_none() && g.file_of(m.from()) != g.file_of(m.to()) {
        return false;
    }
    match m.kind() {
        MoveKind::Propel => parts.propel_to == Some(m.aux()),
        MoveKind::BeastCapture => parts.captured_beast == Some(m.aux()),
        MoveKind::Promotion => {
            parts.promotion == m.promotion_role()
                && parts.propel_to.is_none()
                && parts.captured_beast.is_none()
        }
        _ => {
            parts.promotion.is_none() && parts.propel_to.is_none() && parts.captured_beast.is_none()
        }
    }
}

fn illegal_reason<V: Variant>(pos: &Position<V>, parts: &SanParts) -> IllegalReason {
    let g = V::GEOMETRY;
    let role = parts.role.unwrap_or(Role::Pawn);
    let to = parts
        .to
        .map(|s| g.square_name(s).to_string())
        .unwrap_or_default();
    if parts.drop {
        return IllegalReason::NoSuchDrop { role, to };
    }
    if pos.pieces(pos.turn(), role).is_empty() {
        return IllegalReason::NoPieceOfRole { role };
    }
    // A move the pieces could make but for the king's safety: say so (as
    // the same move written as a move string does), not that no piece can.
    let mut pseudo = MoveList::new();
    pos.generate_into(GenType::IgnoringCheck, &mut pseudo);
    if pseudo.iter().any(|m| san_names(pos, parts, *m)) {
        return pos.check_reason();
    }
    IllegalReason::NoSuchMove { role, to }
}

/// Reads a move given as a move string or as SAN.
pub fn parse_any<V: Variant>(pos: &Position<V>, text: &str) -> Result<Move, SanError> {
    let g = V::GEOMETRY;
    let text = text.trim();
    if parse_move_text(&g, text).is_ok() {
        match pos.parse_move(text) {
            Ok(m) => return Ok(m),
            Err(crate::uci::ParseMoveError::Illegal { text, reason }) => {
                // Some SAN looks like a move string (none here, but be safe): try SAN.
                return parse_san(pos, &text).map_err(|_| SanError::Illegal(text, reason));
            }
            Err(_) => {}
        }
    }
    parse_san(pos, text)
}

impl<V: Variant> Position<V> {
    /// The SAN of a legal move.
    pub fn san(&self, m: Move) -> String {
        san(self, m)
    }

    /// Finds the legal move a SAN names.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        parse_san(self, text)
    }
}
