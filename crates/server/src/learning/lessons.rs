//! Lessons in the style of lichess's Learn, for Tensor Chess: stages of
//! levels, each a goal on a live board, judged by the rules here (the page
//! sends the moves; they are replayed from the level's FEN), with stars
//! for meeting the par and each player's best kept. The lessons are data:
//! `crates/server/lessons/tensor.json`, embedded (see
//! `docs/analysis.md`; a test replays every level's stored solution).
//!
//! How a level is played: White (the learner) moves. In a `collect` or
//! `capture` level Black's pieces stand still: after each move the turn
//! comes straight back to White, so a move that checks Black's king is
//! not allowed there (the position would have the side not to move in
//! check). In a `mate` level White's move must mate.

use crate::clock::Clock;
use crate::error::AppError;
use crate::game_views::{parse_move_in, parse_variant, standalone};
use crate::store::{GameStore, LessonRecord};
use crate::views::{MoveView, PositionView};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};
use tensorchess_rules::{with_variant, Color, Move, MoveKind, Position, Role, Square, Variant};

/// The shipped lessons.
pub const LESSONS_JSON: &str = include_str!("../../lessons/tensor.json");
/// The most moves a level's try may have.
pub const MAX_MOVES: usize = 64;

/// A text in each of the page's languages.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[ts(rename = "LessonText")]
pub struct Text {
    /// English.
    pub en: String,
    /// Ukrainian.
    pub uk: String,
}

/// What a level asks for.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "LessonGoal")]
pub enum Goal {
    /// Put a white piece on every marked square (each counts once reached).
    Collect,
    /// Take every black piece on the marked squares.
    Capture,
    /// Checkmate Black (in one move).
    Mate,
}

/// The kind of move a level asks for.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "LessonOnly")]
pub enum Only {
    /// No propel, castling or promotion: a plain move (a slide, a
    /// ricochet, a hop).
    Normal,
    /// A propel: a piece moves onto its own beast and pushes it.
    Propel,
    /// Castling.
    Castle,
    /// A pawn promoting to a beast.
    BeastPromotion,
}

impl Only {
    fn allows(self, m: Move) -> bool {
        match self {
            Only::Normal => m.kind() == MoveKind::Normal,
            Only::Propel => m.kind() == MoveKind::Propel,
            Only::Castle => m.kind() == MoveKind::Castle,
            Only::BeastPromotion => m.promotion_role() == Some(Role::Beast),
        }
    }

    fn message(self) -> &'static str {
        match self {
            Only::Normal => "This level wants a plain move: no propel, castling or promotion",
            Only::Propel => "This level wants a propel: move onto your beast and push it",
            Only::Castle => "This level wants you to castle",
            Only::BeastPromotion => "This level wants the pawn to become a beast",
        }
    }
}

/// One level: a position, a goal, a par.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "LessonLevel")]
pub struct Level {
    /// The level's id (`beast-step-1`), as progress is stored under.
    pub id: String,
    /// The position, White to move.
    pub fen: String,
    /// What the player must do.
    pub goal: Goal,
    /// The marked squares (collect, capture).
    #[serde(default)]
    pub squares: Vec<String>,
    /// Squares whose pieces must stay (jumping an enemy beast without
    /// capturing it): taking one fails the level.
    #[serde(default)]
    pub keep: Vec<String>,
    /// The one kind of move the level allows (a propel, a castling...),
    /// when another kind could also meet the goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub only: Option<Only>,
    /// Moves for three stars.
    pub par: u32,
    /// The instructions shown with the board.
    pub text: Text,
    /// What the level teaches, checked against the solution by the tests
    /// (`step`, `hop_orthogonal`, `ricochet_rook`, `propel_knight`, ...).
    pub teaches: Vec<String>,
    /// A way to meet the goal in `par` moves (kept from pages: the tests
    /// replay it).
    #[serde(skip_serializing)]
    #[ts(skip)]
    pub solution: Vec<String>,
}

/// A stage: levels about one thing.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "LessonStage")]
pub struct Stage {
    /// The stage's id.
    pub id: String,
    /// Its title.
    pub title: Text,
    /// The text shown before its first level.
    pub intro: Text,
    /// Its levels, in order.
    pub levels: Vec<Level>,
}

/// The lessons of a game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct LessonBook {
    /// The game the lessons teach (`tensor`).
    pub variant: String,
    /// The stages, in order.
    pub stages: Vec<Stage>,
}

/// The shipped book (the tests check that it reads).
pub fn book() -> &'static LessonBook {
    static BOOK: OnceLock<LessonBook> = OnceLock::new();
    BOOK.get_or_init(|| {
        serde_json::from_str(LESSONS_JSON).unwrap_or_else(|e| {
            tracing::error!("the shipped lessons do not read: {e}");
            LessonBook {
                variant: "tensor".into(),
                stages: Vec::new(),
            }
        })
    })
}

fn find_level(id: &str) -> Option<&'static Level> {
    book()
        .stages
        .iter()
        .flat_map(|s| &s.levels)
        .find(|l| l.id == id)
}

/// Stars for meeting a goal in `moves`: three at par, two within two
/// moves more, else one.
pub fn stars(moves: usize, par: u32) -> u8 {
    let par = par as usize;
    if moves <= par {
        3
    } else if moves <= par + 2 {
        2
    } else {
        1
    }
}

/// Why a lesson's move could not be played (the page words each).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum LessonRefusalKind {
    /// Not a legal move.
    IllegalMove,
    /// Not a move at all, or one the level cannot go on from.
    BadRequest,
    /// It checks Black's king, which only watches.
    GivesCheck,
    /// The level asks for a mate, and it is none.
    NotMate,
    /// Not the kind of move the level teaches.
    WrongKind,
    /// It takes a piece the level asks to leave.
    TookKept,
    /// A move after the goal was met.
    GoalMet,
    /// More moves than a level takes.
    TooMany,
}

/// A move that could not be played, and why.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct LessonRefusal {
    /// Its index in the moves sent.
    pub index: usize,
    /// Why, in a word.
    pub kind: LessonRefusalKind,
    /// Why, as a sentence for the player.
    pub message: String,
    /// For illegal moves: the rules' reason in a word
    /// ([`IllegalReason::code`](tensorchess_rules::IllegalReason::code)).
    pub code: Option<&'static str>,
    /// For illegal moves: the reason's details by name.
    pub args: Option<BTreeMap<&'static str, String>>,
}

/// What a level's moves come to.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
#[ts(rename = "LessonCheckView")]
pub struct CheckView {
    /// The level's id.
    pub level: String,
    /// The moves that were played (all of them unless `refused`).
    pub played: usize,
    /// The move that could not be played, and why.
    pub refused: Option<LessonRefusal>,
    /// The position now, White to move (or mated), with its legal moves.
    pub position: PositionView,
    /// The last move played, with its path (for the animation).
    pub last: Option<MoveView>,
    /// Marked squares reached or cleared.
    pub done_squares: Vec<String>,
    /// Marked squares left.
    pub remaining: Vec<String>,
    /// The level is done.
    pub goal_met: bool,
    /// 1 to 3, when the goal is met.
    pub stars: Option<u8>,
    /// The level's moves for three stars.
    pub par: u32,
    /// The player's best on this level (after this try).
    pub best: Option<LevelProgressView>,
}

/// A player's best on a level.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct LevelProgressView {
    /// 1 to 3.
    pub stars: u8,
    /// The fewest moves the level took.
    pub moves: u32,
}

/// The replay of a level's moves, before it is made a view.
#[derive(Clone, Debug, PartialEq)]
struct Judged {
    /// The moves that were played.
    played: usize,
    /// The move that could not be played, and why.
    refused: Option<LessonRefusal>,
    /// The position after the moves played (White to move unless mated).
    fen: String,
    /// The position before the last move played, and that move.
    last: Option<(String, String)>,
    /// Marked squares reached or cleared.
    done_squares: Vec<String>,
    /// Marked squares left.
    remaining: Vec<String>,
    /// The level is done.
    goal_met: bool,
}

fn refusal(index: usize, kind: LessonRefusalKind, message: impl Into<String>) -> LessonRefusal {
    LessonRefusal {
        index,
        kind,
        message: message.into(),
        code: None,
        args: None,
    }
}

/// The position with White to move again (Black's turn passed: in collect
/// and capture levels Black's pieces stand still).
fn back_to_white<V: Variant>(pos: &Position<V>) -> Option<Position<V>> {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if fields.len() < 4 {
        return None;
    }
    fields[1] = "w";
    fields[3] = "-";
    Position::<V>::from_fen(&fields.join(" ")).ok()
}

fn square<V: Variant>(name: &str) -> Option<Square> {
    V::GEOMETRY.parse_square(name)
}

/// Replays `moves` on `level` under the rules of `V`.
fn judge<V: Variant>(level: &Level, moves: &[String]) -> Result<Judged, AppError> {
    let mut pos = Position::<V>::from_fen(&level.fen)
        .map_err(|e| AppError::Internal(format!("lesson {}: {e}", level.id)))?;
    let marked: Vec<(String, Square)> = level
        .squares
        .iter()
        .filter_map(|s| Some((s.clone(), square::<V>(s)?)))
        .collect();
    let kept: Vec<(Square, Option<tensorchess_rules::Piece>)> = level
        .keep
        .iter()
        .filter_map(|s| square::<V>(s))
        .map(|s| (s, pos.piece_at(s)))
        .collect();
    let mut reached = vec![false; marked.len()];
    let mut judged = Judged {
        played: 0,
        refused: None,
        fen: pos.fen(),
        last: None,
        done_squares: Vec::new(),
        remaining: Vec::new(),
        goal_met: false,
    };
    let white_on =
        |p: &Position<V>, s: Square| p.piece_at(s).is_some_and(|pc| pc.color() == Color::White);
    let black_on =
        |p: &Position<V>, s: Square| p.piece_at(s).is_some_and(|pc| pc.color() == Color::Black);
    let mut goal_met = false;
    for (i, text) in moves.iter().enumerate() {
        if goal_met {
            judged.refused = Some(refusal(
                i,
                LessonRefusalKind::GoalMet,
                "The goal is met: no more moves",
            ));
            break;
        }
        if i >= MAX_MOVES {
            judged.refused = Some(refusal(
                i,
                LessonRefusalKind::TooMany,
                format!("At most {MAX_MOVES} moves"),
            ));
            break;
        }
        let m = match parse_move_in(&pos, text) {
            Ok(m) => m,
            Err(AppError::IllegalMove { text, reason }) => {
                judged.refused = Some(LessonRefusal {
                    index: i,
                    kind: LessonRefusalKind::IllegalMove,
                    message: format!("Illegal move {text}: {reason}"),
                    code: Some(reason.code()),
                    args: Some(crate::error::reason_args(&reason)),
                });
                break;
            }
            Err(e) => {
                judged.refused = Some(refusal(i, LessonRefusalKind::BadRequest, e.to_string()));
                break;
            }
        };
        if let Some(only) = level.only.filter(|o| !o.allows(m)) {
            judged.refused = Some(refusal(i, LessonRefusalKind::WrongKind, only.message()));
            break;
        }
        let after = pos.play(m);
        let next = match level.goal {
            Goal::Mate => {
                if after
                    .outcome()
                    .is_none_or(|o| o.winner() != Some(Color::White))
                {
                    judged.refused = Some(refusal(
                        i,
                        LessonRefusalKind::NotMate,
                        "That move does not mate: try another",
                    ));
                    break;
                }
                goal_met = true;
                after
            }
            Goal::Collect | Goal::Capture => {
                if after.is_check() {
                    judged.refused = Some(refusal(
                        i,
                        LessonRefusalKind::GivesCheck,
                        "Black's king only watches in this lesson: do not check it",
                    ));
                    break;
                }
                if kept.iter().any(|(s, piece)| after.piece_at(*s) != *piece) {
                    judged.refused = Some(refusal(
                        i,
                        LessonRefusalKind::TookKept,
                        "That takes a piece this level asks you to leave: jump it without capturing",
                    ));
                    break;
                }
                match back_to_white(&after) {
                    Some(p) => p,
                    None => {
                        judged.refused = Some(refusal(
                            i,
                            LessonRefusalKind::BadRequest,
                            "That move cannot be played here",
                        ));
                        break;
                    }
                }
            }
        };
        judged.last = Some((pos.fen(), pos.move_string(m)));
        pos = next;
        judged.played = i + 1;
        for (k, (_, s)) in marked.iter().enumerate() {
            match level.goal {
                Goal::Collect => reached[k] |= white_on(&pos, *s),
                Goal::Capture => reached[k] = !black_on(&pos, *s),
                Goal::Mate => {}
            }
        }
        if level.goal != Goal::Mate && reached.iter().all(|r| *r) {
            goal_met = true;
        }
    }
    if level.goal == Goal::Capture && judged.played == 0 {
        for (k, (_, s)) in marked.iter().enumerate() {
            reached[k] = !black_on(&pos, *s);
        }
    }
    judged.fen = pos.fen();
    judged.goal_met = goal_met;
    for (k, (name, _)) in marked.iter().enumerate() {
        if reached[k] {
            judged.done_squares.push(name.clone());
        } else {
            judged.remaining.push(name.clone());
        }
    }
    Ok(judged)
}

/// The lessons service: the book, and the players' progress.
pub struct Lessons {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
}

impl Lessons {
    /// The service over `store`, reading time on `clock`.
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Lessons {
        Lessons { store, clock }
    }

    /// `player`'s best, by level id (levels not completed are absent).
    pub async fn progress(
        &self,
        player: &str,
    ) -> Result<HashMap<String, LevelProgressView>, AppError> {
        Ok(self
            .store
            .lesson_progress(player)
            .await?
            .into_iter()
            .map(|r| {
                (
                    r.level_id,
                    LevelProgressView {
                        stars: r.stars,
                        moves: r.moves,
                    },
                )
            })
            .collect())
    }

    /// Judges `moves` on level `id` for `player`; a goal met is kept as
    /// their progress (their best stays).
    pub async fn check(
        &self,
        player: &str,
        id: &str,
        moves: &[String],
    ) -> Result<CheckView, AppError> {
        let level = find_level(id).ok_or_else(|| {
            AppError::NotFound(format!(
                "There is no lesson level {}",
                id.chars().take(40).collect::<String>()
            ))
        })?;
        if moves.len() > MAX_MOVES {
            return Err(AppError::bad(format!("At most {MAX_MOVES} moves")));
        }
        let kind = parse_variant(&book().variant)?;
        let (judged, position, last) = with_variant!(kind, V => {
            let judged = judge::<V>(level, moves)?;
            let (_, position) = standalone::<V>(Some(&judged.fen), &[], None)?;
            let last = match &judged.last {
                Some((fen, mv)) => standalone::<V>(Some(fen), &[], Some(mv))?.0,
                None => None,
            };
            (judged, position, last)
        });
        let stars = judged.goal_met.then(|| stars(judged.played, level.par));
        if let Some(stars) = stars {
            self.store
                .save_lesson_result(&LessonRecord {
                    player_id: player.to_string(),
                    level_id: level.id.clone(),
                    stars,
                    moves: judged.played as u32,
                    completed_at: self.clock.now_ms(),
                })
                .await?;
        }
        let best = self.progress(player).await?.get(&level.id).copied();
        Ok(CheckView {
            level: level.id.clone(),
            played: judged.played,
            refused: judged.refused,
            position,
            last,
            done_squares: judged.done_squares,
            remaining: judged.remaining,
            goal_met: judged.goal_met,
            stars,
            par: level.par,
            best,
        })
    }
}
