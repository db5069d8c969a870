//! Themes of a puzzle, from what its solution does.
//!
//! The orthodox themes follow lichess-puzzler's tagger (`tagger/cook.py`
//! and `tagger/util.py`: `mate_in`, `fork`, `hanging_piece`, `sacrifice`,
//! the length and advantage tags), rewritten for the three games; the
//! Tensor Chess and Chessence themes come from the rules library:
//! [`Position::move_path`] tells a ricochet and a pass-through from a
//! plain slide, [`MoveKind`] a propel, a beast capture, castling, a
//! promotion and a drop.

use tensorchess_rules::{
    Color, File, Move, MoveKind, Outcome, Position, Rank, Role, Square, Variant,
};

/// Every theme the miner can tag, in the order it tags them.
pub const THEMES: [&str; 25] = [
    "mate",
    "mateIn1",
    "mateIn2",
    "mateIn3",
    "mateIn4",
    "mateIn5",
    "crushing",
    "advantage",
    "equality",
    "ricochet",
    "passThrough",
    "propel",
    "beastCapture",
    "castling",
    "promotion",
    "underPromotion",
    "enPassant",
    "drop",
    "fork",
    "hangingPiece",
    "sacrifice",
    "oneMove",
    "short",
    "long",
    "veryLong",
];

/// Material value of a piece kind in pawns, for the material tests (lichess's
/// 1/3/3/5/9; a beast and a Chessence man count as a minor piece).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop | Role::Beast | Role::Man => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// As [`value`], with the king worth more than anything (for attacks).
fn king_value(role: Role) -> i32 {
    if role == Role::King { 99 } else { value(role) }
}

/// Material of `side` (men in reserve included) minus the other side's.
pub fn material_diff<V: Variant>(pos: &Position<V>, side: Color) -> i32 {
    let count = |c: Color| -> i32 {
        let board: i32 = Role::ALL
            .iter()
            .map(|&r| pos.pieces(c, r).count() as i32 * value(r))
            .sum();
        board + pos.hand(c) as i32 * value(V::DROP_ROLE)
    };
    count(side) - count(!side)
}

/// A puzzle line to tag: `positions[i]` is the position before `moves[i]`;
/// `moves[0]` is the opponent's move that sets the puzzle.
pub struct Line<'a, V: Variant> {
    /// The position before each move (as many as `moves`).
    pub positions: &'a [Position<V>],
    /// The opponent's move, then the solution.
    pub moves: &'a [Move],
    /// The engine's score at the end of the solution, in centipawns from
    /// the solver's view (`None` after a mate).
    pub final_cp: Option<i32>,
}

impl<V: Variant> Line<'_, V> {
    fn solver(&self) -> Color {
        self.positions[1].turn()
    }

    /// Indices of the solver's moves in `moves`.
    fn solver_plies(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.moves.len()).step_by(2)
    }

    fn ends_in_mate(&self) -> bool {
        let last = self.positions[self.moves.len() - 1].play(self.moves[self.moves.len() - 1]);
        matches!(last.outcome(), Some(Outcome::Decisive { winner, .. }) if winner == self.solver())
    }
}

/// The themes of a puzzle line.
pub fn themes<V: Variant>(line: &Line<V>) -> Vec<String> {
    let mut tags: Vec<&str> = Vec::new();
    let solver_moves = line.solver_plies().count();
    if line.ends_in_mate() {
        tags.push("mate");
        tags.push(match solver_moves {
            1 => "mateIn1",
            2 => "mateIn2",
            3 => "mateIn3",
            4 => "mateIn4",
            _ => "mateIn5",
        });
    } else {
        match line.final_cp.unwrap_or(0) {
            cp if cp > 600 => tags.push("crushing"),
            cp if cp > 200 => tags.push("advantage"),
            _ => tags.push("equality"),
        }
    }
    let any = |f: &dyn Fn(&Position<V>, Move) -> bool| {
        line.solver_plies()
            .any(|i| f(&line.positions[i], line.moves[i]))
    };
    if any(&is_ricochet) {
        tags.push("ricochet");
    }
    if any(&is_pass_through) {
        tags.push("passThrough");
    }
    let kind = |k: MoveKind| move |_: &Position<V>, m: Move| m.kind() == k;
    if any(&kind(MoveKind::Propel)) {
        tags.push("propel");
    }
    if any(&kind(MoveKind::BeastCapture)) {
        tags.push("beastCapture");
    }
    if any(&kind(MoveKind::Castle)) {
        tags.push("castling");
    }
    if any(&kind(MoveKind::Promotion)) {
        tags.push("promotion");
    }
    if any(&|_, m| m.promotion_role().is_some_and(|r| r != Role::Queen)) {
        tags.push("underPromotion");
    }
    if any(&kind(MoveKind::EnPassant)) {
        tags.push("enPassant");
    }
    if any(&kind(MoveKind::Drop)) {
        tags.push("drop");
    }
    if fork(line) {
        tags.push("fork");
    }
    if hanging_piece(line) {
        tags.push("hangingPiece");
    }
    if sacrifice(line) {
        tags.push("sacrifice");
    }
    tags.push(match line.moves.len() {
        2 => "oneMove",
        4 => "short",
        n if n >= 8 => "veryLong",
        _ => "long",
    });
    tags.into_iter().map(String::from).collect()
}

/// A bishop, rook, queen or knight bouncing off its own beast (RULES 1.5).
pub fn is_ricochet<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    if !V::BEASTS || m.kind() != MoveKind::Normal {
        return false;
    }
    let path = pos.move_path(m);
    path.routes.first().is_some_and(|r| {
        matches!(
            r.piece.role(),
            Role::Bishop | Role::Rook | Role::Queen | Role::Knight
        ) && r.squares.len() == 3
    })
}

/// A move whose piece (or propelled beast) slides, steps twice or castles
/// through a square holding an own beast (RULES 1.4, 1.6, 1.8).
pub fn is_pass_through<V: Variant>(pos: &Position<V>, m: Move) -> bool {
    if !V::BEASTS {
        return false;
    }
    let mover = pos.piece_at(m.from());
    // A beast's own steps and hops jump pieces; they pass nothing through.
    if mover.is_some_and(|p| matches!(p.role(), Role::Beast | Role::Knight)) {
        return false;
    }
    let own_beasts = pos.pieces(pos.turn(), Role::Beast);
    pos.move_path(m).routes.iter().any(|route| {
        route.squares.windows(2).any(|leg| {
            between::<V>(leg[0], leg[1])
                .into_iter()
                .any(|s| own_beasts.contains(s))
        })
    })
}

/// The squares strictly between two squares on a rank, file or diagonal.
fn between<V: Variant>(a: Square, b: Square) -> Vec<Square> {
    let g = V::GEOMETRY;
    let (af, ar) = (g.file_of(a).0 as i32, g.rank_of(a).0 as i32);
    let (bf, br) = (g.file_of(b).0 as i32, g.rank_of(b).0 as i32);
    let (df, dr) = (bf - af, br - ar);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut out = Vec::new();
    let (mut f, mut r) = (af + sf, ar + sr);
    while (f, r) != (bf, br) {
        if let Some(s) = g.square(File(f as u8), Rank(r as u8)) {
            out.push(s);
        }
        f += sf;
        r += sr;
    }
    out
}

/// Enemy pieces (not kings) that the piece on `sq` could capture if its
/// side were to move again.
fn targets<V: Variant>(after: &Position<V>, sq: Square) -> Vec<Square> {
    let again = after.play_null();
    again
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == sq && matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion))
        .map(|m| m.to())
        .filter(|t| {
            again
                .piece_at(*t)
                .is_some_and(|p| p.color() != again.turn())
        })
        .collect()
}

/// Whether the piece on `sq` is defended by its own side.
fn is_defended<V: Variant>(pos: &Position<V>, sq: Square) -> bool {
    match pos.piece_at(sq) {
        Some(p) => pos.is_attacked_by(sq, p.color(), pos.occupied()),
        None => false,
    }
}

/// The piece on `sq` (of the side not to move) can be taken for free or by
/// a piece worth less.
fn is_in_bad_spot<V: Variant>(after: &Position<V>, sq: Square) -> bool {
    let Some(piece) = after.piece_at(sq) else {
        return false;
    };
    let takers: Vec<Role> = after
        .legal_moves()
        .into_iter()
        .filter(|m| m.to() == sq && matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion))
        .filter_map(|m| after.piece_at(m.from()).map(|p| p.role()))
        .collect();
    !takers.is_empty()
        && (!is_defended(after, sq)
            || takers
                .iter()
                .any(|&r| r != Role::King && value(r) < value(piece.role())))
}

/// A solver move (not the last) whose piece attacks two enemy pieces worth
/// more than itself or left undefended, the king included (lichess's `fork`).
fn fork<V: Variant>(line: &Line<V>) -> bool {
    let solver = line.solver();
    let last = line.moves.len() - 1;
    for i in line.solver_plies().filter(|&i| i < last) {
        let m = line.moves[i];
        let after = line.positions[i + 1];
        let sq = m.to();
        let Some(mover) = after.piece_at(sq).filter(|p| p.color() == solver) else {
            continue;
        };
        if matches!(mover.role(), Role::King | Role::Beast) || is_in_bad_spot(&after, sq) {
            continue;
        }
        let mut count = 0;
        if after.is_check() {
            // The moved piece gives check alone when the check goes with it.
            if let Some(k) = after.king_of(!solver)
                && !after.is_attacked_by(k, solver, after.occupied().without(sq))
            {
                count += 1;
            }
        }
        for t in targets(&after, sq) {
            let Some(victim) = after.piece_at(t) else {
                continue;
            };
            if victim.role() == Role::Pawn {
                continue;
            }
            let attacks_back = after
                .legal_moves()
                .iter()
                .any(|r| r.from() == t && r.to() == sq);
            if king_value(victim.role()) > king_value(mover.role())
                || (!is_defended(&after, t) && !attacks_back)
            {
                count += 1;
            }
        }
        if count > 1 {
            return true;
        }
    }
    false
}

/// The first solver move takes an undefended piece that the opponent did
/// not just win back in a trade (lichess's `hanging_piece`).
fn hanging_piece<V: Variant>(line: &Line<V>) -> bool {
    let pos = &line.positions[1];
    let m = line.moves[1];
    if !matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) {
        return false;
    }
    let captured = pos.piece_at(m.to());
    if pos.is_check() && captured.is_none_or(|p| p.role() == Role::Pawn) {
        return false;
    }
    let Some(captured) = captured.filter(|p| p.role() != Role::Pawn) else {
        return false;
    };
    if is_defended(pos, m.to()) {
        return false;
    }
    let op = line.moves[0];
    if op.to() == m.to()
        && line.positions[0]
            .piece_at(op.to())
            .is_some_and(|c| value(c.role()) >= value(captured.role()))
    {
        return false;
    }
    if line.moves.len() < 4 {
        return true;
    }
    let solver = line.solver();
    let after_first = line.positions[2];
    let after_second = line.positions[3].play(line.moves[3]);
    material_diff(&after_second, solver) >= material_diff(&after_first, solver)
}

/// After a later solver move the solver is down two pawns or more from the
/// start, without the opponent having promoted (lichess's `sacrifice`).
fn sacrifice<V: Variant>(line: &Line<V>) -> bool {
    let solver = line.solver();
    let initial = material_diff(&line.positions[1], solver);
    let after = |i: usize| line.positions[i].play(line.moves[i]);
    let down = line
        .solver_plies()
        .skip(1)
        .any(|i| material_diff(&after(i), solver) - initial <= -2);
    let opponent_promotes = (2..line.moves.len())
        .step_by(2)
        .any(|i| line.moves[i].kind() == MoveKind::Promotion);
    down && !opponent_promotes
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Tensor};

    fn line_of<V: Variant>(fen: &str, moves: &[&str]) -> (Vec<Position<V>>, Vec<Move>) {
        let mut pos = Position::<V>::from_fen(fen).unwrap();
        let mut positions = vec![pos];
        let mut ms = Vec::new();
        for s in moves {
            let m = pos.parse_move(s).unwrap();
            pos = pos.play(m);
            positions.push(pos);
            ms.push(m);
        }
        (positions, ms)
    }

    #[test]
    fn a_ricochet_and_a_pass_through() {
        let pos = Position::<Tensor>::from_fen("9k/10/10/10/10/T9/10/R8K w - - 0 1").unwrap();
        assert!(is_ricochet(&pos, pos.parse_move("a1e3").unwrap()));
        assert!(!is_ricochet(&pos, pos.parse_move("a1a2").unwrap()));
        assert!(is_pass_through(&pos, pos.parse_move("a1a5").unwrap()));
        assert!(!is_pass_through(&pos, pos.parse_move("a1e1").unwrap()));
    }

    fn tags<V: Variant>(fen: &str, moves: &[&str], final_cp: Option<i32>) -> Vec<String> {
        let (positions, moves) = line_of::<V>(fen, moves);
        themes(&Line {
            positions: &positions,
            moves: &moves,
            final_cp,
        })
    }

    #[test]
    fn mates_lengths_and_advantages() {
        // 1... Kh8?? 2. Rd8#.
        let t = tags::<Chess>(
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            &["g8h8", "d1d8"],
            None,
        );
        assert_eq!(t, ["mate", "mateIn1", "oneMove"]);
        let t = tags::<Chess>(
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            &["g8h8", "d1d7", "h8g8", "d7d8"],
            None,
        );
        assert!(
            t.contains(&"mateIn2".to_string()) && t.contains(&"short".to_string()),
            "{t:?}"
        );
        let t = tags::<Chess>(
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            &["g8h8", "d1d7"],
            Some(300),
        );
        assert_eq!(t, ["advantage", "oneMove"]);
    }

    #[test]
    fn a_knight_fork_and_a_hanging_piece() {
        // 1... Qa8?? 2. Nc7+ forks king and queen, 2... Kd7 3. Nxa8.
        let t = tags::<Chess>(
            "4k3/q7/8/1N6/8/8/8/4K3 b - - 0 1",
            &["a7a8", "b5c7", "e8d7", "c7a8"],
            Some(900),
        );
        assert!(t.contains(&"fork".to_string()), "{t:?}");
        assert!(!t.contains(&"hangingPiece".to_string()), "{t:?}");
        // 1... Qb5?? 2. Nxb5: the queen was not defended.
        let t = tags::<Chess>(
            "6k1/3q1ppp/8/8/3N4/8/5PPP/6K1 b - - 0 1",
            &["d7b5", "d4b5"],
            Some(900),
        );
        assert!(t.contains(&"hangingPiece".to_string()), "{t:?}");
        assert!(!t.contains(&"fork".to_string()), "{t:?}");
    }

    #[test]
    fn tensor_moves_are_tagged() {
        // A rook ricochets off its beast on a3 to take the queen on e3.
        let t = tags::<Tensor>(
            "9k/9p/10/10/10/T9/4q5/R8K b - - 0 1",
            &["e2e3", "a1e3"],
            Some(900),
        );
        assert!(t.contains(&"ricochet".to_string()), "{t:?}");
        assert!(!t.contains(&"passThrough".to_string()), "{t:?}");
    }
}
