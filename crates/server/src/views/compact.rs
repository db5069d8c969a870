//! The compact forms a move event uses: a position's legal moves grouped
//! by their start, and paths left out wherever a page makes them from the
//! move string and the position (assets/js/game/move-event.js does, by the
//! same rules; a browser test compares its expansion with the whole view).
//!
//! A path a page makes itself:
//! - a drop: the dropped man (`M`/`m`) on its square;
//! - a propel `c1e3>g5`: the piece from `c1` to `e3`, then the beast (`T`/`t`)
//!   from `e3` to `g5`;
//! - any other move with one route that starts on the move's square and ends
//!   on its destination, of the piece standing there: its squares are `[from,
//!   to]` (left out) or listed (a hop chain, a ricochet); what it removes is
//!   the beast named after `x` in a beast capture, else what stands on `to`.
//!
//! Everything else (castling, en passant) keeps its whole path.

use crate::views::path::path_view_of;
use crate::views::{MoveView, PathView};
use serde::Serialize;
use std::collections::BTreeMap;
use tensorchess_rules::{MoveKind, Position, Variant, VariantGame};

/// A path in a move event: its squares where a page can make the rest.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(untagged)]
pub enum CompactPath {
    /// One route of the piece on the move's square, through these squares.
    Squares(Vec<String>),
    /// A path a page cannot make (castling, en passant).
    Full(PathView),
}

impl CompactPath {
    /// The compact form of `path`, the path of move string `uci`; `None`
    /// when a page makes it from the move string alone.
    pub fn of(uci: &str, path: &PathView) -> Option<CompactPath> {
        let Some(parts) = MoveSquares::parse(uci) else {
            return Some(CompactPath::Full(path.clone()));
        };
        let routes = path.routes.as_slice();
        let is = |r: &crate::views::RouteView, piece: &str, squares: &[&str]| {
            r.piece.eq_ignore_ascii_case(piece)
                && r.squares
                    .iter()
                    .map(String::as_str)
                    .eq(squares.iter().copied())
        };
        match (&parts, routes) {
            (MoveSquares::Drop { to }, [r]) if path.captured.is_none() && is(r, "m", &[to]) => None,
            (MoveSquares::Propel { from, to, beast_to }, [piece, beast])
                if path.captured.is_none()
                    && piece.squares == [*from, *to]
                    && is(beast, "t", &[to, beast_to]) =>
            {
                None
            }
            (
                MoveSquares::Plain {
                    from,
                    to,
                    beast_taken,
                },
                [r],
            ) if r.squares.len() >= 2
                && r.squares.first().map(String::as_str) == Some(*from)
                && r.squares.last().map(String::as_str) == Some(*to) =>
            {
                let captured_as_made = match beast_taken {
                    Some(b) => path.captured.as_deref() == Some(*b),
                    // What stands on `to`, if anything: a capture there or none.
                    None => path.captured.as_deref().is_none_or(|c| c == *to),
                };
                if !captured_as_made {
                    Some(CompactPath::Full(path.clone()))
                } else if r.squares.len() == 2 {
                    None
                } else {
                    Some(CompactPath::Squares(r.squares.clone()))
                }
            }
            _ => Some(CompactPath::Full(path.clone())),
        }
    }
}

/// The squares a move string names (RULES 4.2).
enum MoveSquares<'a> {
    Drop {
        to: &'a str,
    },
    Propel {
        from: &'a str,
        to: &'a str,
        beast_to: &'a str,
    },
    /// An ordinary move, a promotion, a beast capture (`beast_taken`).
    Plain {
        from: &'a str,
        to: &'a str,
        beast_taken: Option<&'a str>,
    },
}

impl<'a> MoveSquares<'a> {
    fn parse(uci: &'a str) -> Option<MoveSquares<'a>> {
        if let Some((_, to)) = uci.split_once('@') {
            return Some(MoveSquares::Drop { to });
        }
        let (from, rest) = leading_square(uci)?;
        let (to, rest) = leading_square(rest)?;
        Some(match rest.as_bytes().first() {
            Some(b'>') => MoveSquares::Propel {
                from,
                to,
                beast_to: &rest[1..],
            },
            Some(b'x') => MoveSquares::Plain {
                from,
                to,
                beast_taken: Some(&rest[1..]),
            },
            _ => MoveSquares::Plain {
                from,
                to,
                beast_taken: None,
            },
        })
    }
}

/// A square's name at the start of `s` (a file letter, one or two digits), and the rest.
fn leading_square(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_lowercase() || !b.get(1)?.is_ascii_digit() {
        return None;
    }
    let end = if b.get(2).is_some_and(u8::is_ascii_digit) {
        3
    } else {
        2
    };
    Some(s.split_at(end))
}

/// A special move's kind and rook (what its move string does not say).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct SpecialMove {
    /// `castle` or `en_passant`.
    pub kind: MoveKind,
    /// The rook a castling moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rook: Option<String>,
}

/// A position's legal moves in the compact form.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default, ts_rs::TS)]
pub struct CompactLegal {
    /// Move strings by their start: `{"e2": ["e3", "e4"]}` is `e2e3`, `e2e4`.
    pub moves: BTreeMap<String, Vec<String>>,
    /// The kinds a move string does not tell, by move string.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub special: BTreeMap<String, SpecialMove>,
    /// The paths a page does not make itself, by move string (see the module).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub paths: BTreeMap<String, CompactPath>,
}

impl CompactLegal {
    /// The compact form of a position's legal moves.
    pub fn of(legal: &[MoveView]) -> CompactLegal {
        let mut out = CompactLegal::default();
        for m in legal {
            let start = match m.uci.find('@') {
                Some(at) => &m.uci[..=at],
                None => m.from.as_str(),
            };
            let rest = m.uci.strip_prefix(start).unwrap_or(&m.uci);
            out.moves
                .entry(start.to_string())
                .or_default()
                .push(rest.to_string());
            if matches!(m.kind, MoveKind::Castle | MoveKind::EnPassant) {
                out.special.insert(
                    m.uci.clone(),
                    SpecialMove {
                        kind: m.kind,
                        rook: m.rook.clone(),
                    },
                );
            }
            if let Some(path) = CompactPath::of(&m.uci, &m.path) {
                out.paths.insert(m.uci.clone(), path);
            }
        }
        out
    }

    /// The compact form of the legal moves of `game`'s position, made
    /// from the position itself: what [`CompactLegal::of`] makes of its
    /// move views (a test compares them), without working out each move's
    /// SAN and without naming the squares of a path the form leaves out.
    /// Sent after every move of every online game, so its cost counts.
    pub fn of_game(game: &VariantGame) -> CompactLegal {
        tensorchess_rules::with_game!(game, g => CompactLegal::of_position(g.position()))
    }

    fn of_position<V: Variant>(pos: &Position<V>) -> CompactLegal {
        let mut out = CompactLegal::default();
        for &m in pos.legal_moves().iter() {
            let uci = pos.move_string(m);
            let start = match uci.find('@') {
                Some(at) => &uci[..=at],
                None => leading_square(&uci).map_or(uci.as_str(), |(from, _)| from),
            };
            let rest = uci.strip_prefix(start).unwrap_or(&uci);
            out.moves
                .entry(start.to_string())
                .or_default()
                .push(rest.to_string());
            let kind = m.kind();
            // Drops and propels never keep a path (see the module); the
            // others only when their route is longer than a step, or for
            // castling and en passant.
            if matches!(kind, MoveKind::Drop | MoveKind::Propel) {
                continue;
            }
            let path = pos.move_path(m);
            let special = matches!(kind, MoveKind::Castle | MoveKind::EnPassant);
            if !special && path.routes.iter().all(|r| r.squares.len() <= 2) {
                continue;
            }
            let view = path_view_of::<V>(&path);
            if special {
                let rook = (kind == MoveKind::Castle)
                    .then(|| {
                        view.routes
                            .iter()
                            .find(|r| r.piece.eq_ignore_ascii_case("r"))
                            .and_then(|r| r.squares.first().cloned())
                    })
                    .flatten();
                out.special.insert(uci.clone(), SpecialMove { kind, rook });
            }
            if let Some(path) = CompactPath::of(&uci, &view) {
                out.paths.insert(uci, path);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::RouteView;

    fn route(piece: &str, squares: &[&str]) -> RouteView {
        RouteView {
            piece: piece.into(),
            squares: squares.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn path(routes: Vec<RouteView>, captured: Option<&str>) -> PathView {
        PathView {
            routes,
            captured: captured.map(Into::into),
        }
    }

    fn mv(uci: &str, kind: MoveKind, from: &str, to: &str, p: PathView) -> MoveView {
        MoveView {
            uci: uci.into(),
            san: String::new(),
            kind,
            from: from.into(),
            to: to.into(),
            aux: None,
            promotion: None,
            rook: None,
            path: p,
        }
    }

    #[test]
    fn paths_a_page_makes_are_left_out() {
        let plain = path(vec![route("P", &["e2", "e4"])], None);
        assert_eq!(CompactPath::of("e2e4", &plain), None);
        let taking = path(vec![route("q", &["d8", "d1"])], Some("d1"));
        assert_eq!(CompactPath::of("d8d1", &taking), None);
        let promoting = path(vec![route("P", &["c7", "c8"])], None);
        assert_eq!(CompactPath::of("c7c8t", &promoting), None);
        let drop = path(vec![route("m", &["c2"])], None);
        assert_eq!(CompactPath::of("M@c2", &drop), None);
        let propel = path(
            vec![route("N", &["c1", "e3"]), route("T", &["e3", "g5"])],
            None,
        );
        assert_eq!(CompactPath::of("c1e3>g5", &propel), None);
        let on_ten = path(vec![route("R", &["j1", "j10"])], None);
        assert_eq!(CompactPath::of("j1j10", &on_ten), None, "two-digit ranks");
    }

    #[test]
    fn hop_chains_and_ricochets_keep_their_squares_and_the_rest_its_path() {
        let ricochet = path(vec![route("R", &["a1", "a3", "e3"])], Some("e3"));
        assert_eq!(
            CompactPath::of("a1e3", &ricochet),
            Some(CompactPath::Squares(vec![
                "a1".into(),
                "a3".into(),
                "e3".into()
            ]))
        );
        let beast_capture = path(vec![route("T", &["b1", "d3"])], Some("c2"));
        assert_eq!(CompactPath::of("b1d3xc2", &beast_capture), None);
        let castle = path(
            vec![route("K", &["f1", "h1"]), route("R", &["j1", "g1"])],
            None,
        );
        assert_eq!(
            CompactPath::of("f1h1", &castle),
            Some(CompactPath::Full(castle.clone()))
        );
        let en_passant = path(vec![route("P", &["e5", "d6"])], Some("d5"));
        assert_eq!(
            CompactPath::of("e5d6", &en_passant),
            Some(CompactPath::Full(en_passant.clone()))
        );
    }

    #[test]
    fn moves_are_grouped_by_start_with_special_kinds_named() {
        let legal = [
            mv(
                "e2e3",
                MoveKind::Normal,
                "e2",
                "e3",
                path(vec![route("P", &["e2", "e3"])], None),
            ),
            mv(
                "e2e4",
                MoveKind::Normal,
                "e2",
                "e4",
                path(vec![route("P", &["e2", "e4"])], None),
            ),
            mv(
                "c3e5",
                MoveKind::Normal,
                "c3",
                "e5",
                path(vec![route("T", &["c3", "e5", "g3"])], None),
            ),
            mv(
                "M@c2",
                MoveKind::Drop,
                "c2",
                "c2",
                path(vec![route("M", &["c2"])], None),
            ),
            MoveView {
                rook: Some("j1".into()),
                ..mv(
                    "f1h1",
                    MoveKind::Castle,
                    "f1",
                    "h1",
                    path(
                        vec![route("K", &["f1", "h1"]), route("R", &["j1", "g1"])],
                        None,
                    ),
                )
            },
        ];
        let c = CompactLegal::of(&legal);
        assert_eq!(c.moves["e2"], ["e3", "e4"]);
        assert_eq!(c.moves["M@"], ["c2"]);
        assert_eq!(c.moves["f1"], ["h1"]);
        assert_eq!(c.paths.keys().collect::<Vec<_>>(), ["c3e5", "f1h1"]);
        assert_eq!(c.special["f1h1"].kind, MoveKind::Castle);
        assert_eq!(c.special["f1h1"].rook.as_deref(), Some("j1"));
        assert!(!c.special.contains_key("e2e4"));
    }

    #[test]
    fn made_from_the_position_it_is_what_the_move_views_give() {
        use crate::game_views::GameViews;
        use tensorchess_rules::VariantKind;
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let (mut positions, mut with_paths, mut with_special) = (0, 0, 0);
        for kind in VariantKind::ALL {
            for _ in 0..12 {
                let mut game = VariantGame::new(kind);
                for _ in 0..80 {
                    let legal = game.legal_moves();
                    if legal.is_empty() || game.outcome().is_some() {
                        break;
                    }
                    let view = game.position_view(false);
                    let compact = CompactLegal::of_game(&game);
                    assert_eq!(compact, CompactLegal::of(&view.legal), "{}", game.fen());
                    positions += 1;
                    with_paths += usize::from(!compact.paths.is_empty());
                    with_special += usize::from(!compact.special.is_empty());
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    game.push(legal[(seed % legal.len() as u64) as usize]);
                }
            }
        }
        // Hop chains or ricochets, and castling or en passant, came up.
        assert!(positions > 1_000, "{positions}");
        assert!(
            with_paths > 20 && with_special > 5,
            "{with_paths} {with_special}"
        );
    }
}
