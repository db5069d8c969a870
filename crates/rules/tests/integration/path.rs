//! Move routes (for display) start and end where the move does, and hop
//! chains go hop by hop.

use tensorchess_rules::{Geometry, MoveKind, Position, Role, Tensor, Variant};

fn positions() -> Vec<String> {
    let text = include_str!("../data/tensor.perft");
    text.lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(str::to_string)
        .collect()
}

fn coords(g: &Geometry, s: tensorchess_rules::Square) -> (i32, i32) {
    (g.file_of(s).0 as i32, g.rank_of(s).0 as i32)
}

#[test]
fn every_route_starts_and_ends_where_its_move_does() {
    let g = Tensor::GEOMETRY;
    let mut ricochets = 0;
    let mut chains = 0;
    for fen in positions() {
        let pos = Position::<Tensor>::from_fen(&fen).unwrap();
        for m in pos.legal_moves() {
            let path = pos.move_path(m);
            let main = &path.routes[0];
            assert_eq!(
                main.squares.first(),
                Some(&m.from()),
                "{fen} {}",
                pos.move_string(m)
            );
            assert_eq!(
                main.squares.last(),
                Some(&m.to()),
                "{fen} {}",
                pos.move_string(m)
            );
            match m.kind() {
                MoveKind::Propel => {
                    assert_eq!(path.routes[1].piece.role(), Role::Beast);
                    assert_eq!(path.routes[1].squares, vec![m.to(), m.aux()]);
                }
                MoveKind::Castle => assert_eq!(path.routes[1].piece.role(), Role::Rook),
                MoveKind::BeastCapture => assert_eq!(path.captured, Some(m.aux())),
                _ => {}
            }
            if main.piece.role() == Role::Beast && main.squares.len() > 2 {
                chains += 1;
                for w in main.squares.windows(2) {
                    let (a, b) = (coords(&g, w[0]), coords(&g, w[1]));
                    let (df, dr) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                    assert!(
                        matches!((df, dr), (2, 0) | (0, 2) | (2, 2)),
                        "{fen} {}: hop {:?}->{:?}",
                        pos.move_string(m),
                        a,
                        b
                    );
                }
            }
            if matches!(main.piece.role(), Role::Bishop | Role::Rook | Role::Queen)
                && main.squares.len() == 3
            {
                ricochets += 1;
                let bounce = main.squares[1];
                assert_eq!(pos.piece_at(bounce).map(|p| p.role()), Some(Role::Beast));
            }
        }
    }
    assert!(ricochets > 0 && chains > 0);
}

#[test]
fn castling_route_moves_king_and_rook() {
    let pos = Position::<Tensor>::from_fen("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1").unwrap();
    let g = Tensor::GEOMETRY;
    let m = pos.parse_move("f1i1").unwrap();
    let path = pos.move_path(m);
    let names = |r: usize| -> Vec<String> {
        path.routes[r]
            .squares
            .iter()
            .map(|s| g.square_name(*s).to_string())
            .collect()
    };
    assert_eq!(names(0), ["f1", "i1"]);
    assert_eq!(names(1), ["j1", "h1"]);
}
