//! Default evaluation weights, per game: `[middlegame, endgame]` per term.
//!
//! The starting values are conventional (material after PeSTO by Ronald
//! Friederich; simple centralisation tables); `tensorchess tune` refits them
//! to game results and its output replaces the tables in `eval/tuned/*.rs`.

use super::terms::{Layout, Misc};
use tensorchess_rules::Role;

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

/// Hand-set starting weights for a board.
pub const fn initial<const N: usize>(l: Layout, beast: [i32; 2], man: [i32; 2]) -> [[i32; 2]; N] {
    let mut w = [[0i32; 2]; N];
    let material: [[i32; 2]; 8] = [
        [82, 94],
        [337, 281],
        [365, 297],
        [477, 512],
        [1025, 936],
        [0, 0],
        beast,
        man,
    ];
    let mut r = 0;
    while r < 8 {
        w[Layout::MATERIAL + r] = material[r];
        r += 1;
    }
    // Distance from the centre, doubled so that even-sized boards work.
    let half = l.half_files();
    let mut idx = 0;
    while idx < l.pst_squares() {
        let f = (idx % half) as i32;
        let rank = (idx / half) as i32;
        let cf = abs(2 * f - (l.files as i32 - 1));
        let cr = abs(2 * rank - (l.ranks as i32 - 1));
        let center = -(cf + cr); // 0 best, more negative toward corners
        let last = l.ranks as i32 - 1;
        w[l.pst(Role::Pawn, idx)] = [(rank - 1) * 4 + if cf <= 2 { 8 } else { 0 }, (rank - 1) * 8];
        w[l.pst(Role::Knight, idx)] = [center * 4, center * 4];
        w[l.pst(Role::Bishop, idx)] = [center * 2, center * 2];
        w[l.pst(Role::Rook, idx)] = [if rank == last - 1 { 15 } else { 0 }, 0];
        w[l.pst(Role::Queen, idx)] = [center, center * 2];
        w[l.pst(Role::King, idx)] = [-rank * 15 + if cf >= 4 { 10 } else { 0 }, center * 5];
        w[l.pst(Role::Beast, idx)] = [center * 2, center * 2];
        w[l.pst(Role::Man, idx)] = [center * 3, center * 3];
        idx += 1;
    }
    w[l.mobility(Role::Knight)] = [4, 4];
    w[l.mobility(Role::Bishop)] = [5, 5];
    w[l.mobility(Role::Rook)] = [3, 5];
    w[l.mobility(Role::Queen)] = [2, 4];
    w[l.mobility(Role::Beast)] = [3, 3];
    w[l.mobility(Role::Man)] = [5, 5];
    w[l.misc(Misc::Tempo)] = [15, 5];
    w[l.misc(Misc::BishopPair)] = [30, 50];
    w[l.misc(Misc::RookOpenFile)] = [25, 10];
    w[l.misc(Misc::RookSemiOpenFile)] = [12, 8];
    w[l.misc(Misc::DoubledPawn)] = [-10, -20];
    w[l.misc(Misc::IsolatedPawn)] = [-10, -15];
    w[l.misc(Misc::ConnectedPawn)] = [8, 10];
    w[l.misc(Misc::PawnShield)] = [12, 0];
    w[l.misc(Misc::KingZoneAttacks)] = [8, 2];
    w[l.misc(Misc::KingOpenFile)] = [-20, 0];
    w[l.misc(Misc::BeastLinked)] = [10, 10];
    w[l.misc(Misc::BeastAdvanced)] = [5, 5];
    w[l.misc(Misc::MenRookPower)] = [10, 10];
    w[l.misc(Misc::MenBishopPower)] = [10, 10];
    w[l.misc(Misc::MenKnightPower)] = [10, 10];
    w[l.misc(Misc::MenIdle)] = [-20, -20];
    w[l.misc(Misc::Reserve)] = [20, 20];
    w[l.misc(Misc::MenNearKing)] = [15, 15];
    w[l.misc(Misc::PawnThreatened)] = [-30, -20];
    let passed: [i32; 10] = [0, 5, 10, 20, 35, 60, 100, 150, 200, 250];
    let mut i = 0;
    while i < 10 {
        w[l.passed(i)] = [passed[i] / 2, passed[i]];
        i += 1;
    }
    w
}

/// Terms of orthodox chess.
pub const CHESS_LEN: usize = Layout::new(8, 8).len();
/// Terms of Tensor Chess.
pub const TENSOR_LEN: usize = Layout::new(10, 8).len();
/// Terms of Chessence.
pub const CHESSENCE_LEN: usize = Layout::new(6, 9).len();

/// Orthodox chess: tuned (material, mobility and named terms, threats and
/// king attackers included, from 235 407 self-play positions; tables as
/// initially set). +52 ± 31 Elo over the previous fit, which lacked the
/// threat terms, in 300 games at 2 s + 0.02 s (docs/engine.md).
pub use super::tuned::chess::CHESS;

/// The hand-set chess weights the tuning started from.
pub static CHESS_INITIAL: [[i32; 2]; CHESS_LEN] = initial(Layout::new(8, 8), [0, 0], [0, 0]);
/// Tensor Chess: tuned (material, mobility and named terms, threats and
/// king attackers included, from 119 482 self-play positions; tables as
/// initially set). Round 1 gained +200 Elo over the initial weights in 100
/// games at 100 ms per move; the refit with the threat terms +30 ± 45 over
/// round 1 in 200 games at 2 s + 0.02 s (docs/engine.md).
pub use super::tuned::tensor::TENSOR;

/// The hand-set Tensor Chess weights the tuning started from.
pub static TENSOR_INITIAL: [[i32; 2]; TENSOR_LEN] = initial(Layout::new(10, 8), [300, 300], [0, 0]);
/// Chessence: tuned (round 1: material, mobility and named terms from
/// 84 691 self-play positions; tables as initially set). +35 ± 27 Elo over
/// the initial weights in 100 games at 100 ms per move (docs/engine.md).
pub use super::tuned::chessence::CHESSENCE;

/// The hand-set Chessence weights the tuning started from.
pub static CHESSENCE_INITIAL: [[i32; 2]; CHESSENCE_LEN] =
    initial(Layout::new(6, 9), [0, 0], [300, 300]);
