//! Rated puzzles from the shipped files ([`tensorchess_analysis::puzzles::shipped`]):
//! the next puzzle for a player (near their puzzle rating, not one they
//! tried lately), and a try's result, which is one Glicko-2 rating period
//! for the player and one for the puzzle. See `docs/puzzles.md`.
//!
//! What a try counts for: the server judges it from the moves the player
//! sends (never from a claim), a player's first try of a puzzle changes
//! their rating (repeats and streaks change none), and only an account's
//! first try changes the puzzle's rating: guests, who cost nothing to
//! make, move only their own.

use crate::clock::Clock;
use crate::error::AppError;
use crate::game_views::{new_game, parse_variant, GameViews};
use crate::rating::glicko2::{self, Glicko};
use crate::rating::START;
use crate::store::{
    GameStore, PuzzleAttemptRecord, PuzzleRatingWrite, PuzzleResultWrite, RatingRecord, StoreError,
    MAX_PUZZLE_ATTEMPTS,
};
use rand::seq::IndexedRandom;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};
use tensorchess_analysis::puzzles::{shipped, Puzzle};
use tensorchess_rules::{Chessence, Color, Outcome, Position, Tensor, VariantGame, VariantKind};

/// A puzzle's volatility before anyone tried it (lichess-puzzler's start).
pub const PUZZLE_VOLATILITY: f64 = 0.09;
/// Puzzles near the target rating one is drawn from.
const NEAREST: usize = 8;
/// A streak's first puzzle is rated about this; each solved one adds
/// [`STREAK_STEP`].
const STREAK_START: f64 = 700.0;
/// What each solved puzzle of a streak adds to the next one's rating.
const STREAK_STEP: f64 = 60.0;
/// Conditional rating writes tried before giving up (others rating the
/// same puzzle at the same moment).
const WRITE_TRIES: usize = 4;

/// `GET /api/puzzles/next` and `/api/puzzles/themes`.
#[derive(Deserialize, Debug, Clone, Default)]
pub struct NextQuery {
    /// `tensor` (default) or `chessence`.
    pub variant: Option<String>,
    /// Only puzzles with this theme.
    pub theme: Option<String>,
    /// In a streak: the puzzles solved so far (harder as it grows).
    pub streak: Option<u32>,
}

/// `POST /api/puzzles/{id}/result`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ResultRequest {
    /// The solver's moves as played, in order (move strings or SAN): up to
    /// and with the first wrong one, or fewer when the solution was shown.
    pub moves: Vec<String>,
    /// What the page concluded; the server judges the moves itself.
    #[serde(default)]
    pub solved: Option<bool>,
    /// A try in a streak: recorded, never rated.
    #[serde(default)]
    pub streak: bool,
}

/// Moves a result may send (a puzzle's line is far shorter).
const MAX_TRIED_MOVES: usize = 64;

/// Whether `tried` (the solver's moves, in order) solve puzzle `p`: each
/// is the line's move or mates, and the line is played to its end.
pub fn judge(kind: VariantKind, p: &Puzzle, tried: &[String]) -> Result<bool, AppError> {
    if tried.len() > MAX_TRIED_MOVES {
        return Err(AppError::bad(format!(
            "At most {MAX_TRIED_MOVES} moves in a puzzle's result"
        )));
    }
    let me = solver(kind, p);
    let mut game = new_game(kind, Some(&p.fen))?;
    let line = &p.moves;
    let play = |game: &mut VariantGame, text: &str| -> Result<String, AppError> {
        let m = game.parse_player_move(text)?;
        let uci = game.move_string(m);
        game.push(m);
        Ok(uci)
    };
    // The opponent's move, then the solver's, answered from the line.
    play(&mut game, &line[0])?;
    let mut next = 1;
    for text in tried {
        if next >= line.len() {
            break;
        }
        let uci = play(&mut game, text)?;
        let mates = matches!(
            game.outcome(),
            Some(Outcome::Decisive { winner, .. }) if winner == me
        );
        if mates {
            return Ok(true);
        }
        if uci != line[next] {
            return Ok(false);
        }
        next += 1;
        if next < line.len() {
            play(&mut game, &line[next])?;
            next += 1;
        }
    }
    Ok(next >= line.len())
}

/// A puzzle offered to a player, with the ratings it is shown with.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleOffer {
    /// The puzzle's game.
    pub kind: VariantKind,
    /// The puzzle.
    pub puzzle: &'static Puzzle,
    /// The puzzle's own rating.
    pub rating: RatingRecord,
    /// The asker's puzzle rating in this game.
    pub player: RatingRecord,
}

impl PuzzleOffer {
    /// The side the player solves for (the puzzle's FEN has the opponent
    /// to move first).
    pub fn solver(&self) -> Color {
        solver(self.kind, self.puzzle)
    }
}

/// What a try changed.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleTry {
    /// The puzzle's id.
    pub id: String,
    /// The player found the solution.
    pub solved: bool,
    /// The ratings changed (a first try outside a streak).
    pub rated: bool,
    /// The player's puzzle rating after the try.
    pub player: RatingRecord,
    /// How the player's rating changed (rounded; 0 when not rated).
    pub player_diff: i32,
    /// The puzzle's rating after the try.
    pub puzzle: RatingRecord,
}

/// A game's puzzles by theme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeCounts {
    /// The game.
    pub kind: VariantKind,
    /// The game's puzzles, in all.
    pub count: usize,
    /// Each theme with how many puzzles have it, most common first.
    pub themes: Vec<(String, usize)>,
}

/// Every shipped puzzle, by game and by id (ids are unique over the files).
struct Shipped {
    by_variant: HashMap<VariantKind, Vec<Puzzle>>,
    by_id: HashMap<String, (VariantKind, usize)>,
}

fn shipped_puzzles() -> &'static Shipped {
    static SHIPPED: OnceLock<Shipped> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        let mut by_variant = HashMap::new();
        let mut by_id = HashMap::new();
        for kind in [
            VariantKind::Tensor,
            VariantKind::Chess,
            VariantKind::Chessence,
        ] {
            let set = shipped(kind);
            for (i, p) in set.iter().enumerate() {
                by_id.insert(p.id.clone(), (kind, i));
            }
            by_variant.insert(kind, set);
        }
        Shipped { by_variant, by_id }
    })
}

fn glicko(r: &RatingRecord) -> Glicko {
    Glicko {
        rating: r.rating,
        rd: r.rd,
        volatility: r.volatility,
    }
}

/// A puzzle's rating before anyone tried it: the shipped estimate.
fn initial(p: &Puzzle) -> RatingRecord {
    RatingRecord {
        rating: p.rating as f64,
        rd: p.rating_deviation as f64,
        volatility: PUZZLE_VOLATILITY,
        games: 0,
    }
}

/// The side that solves: the one moving after the opponent's first move.
fn solver(kind: VariantKind, p: &Puzzle) -> Color {
    let turn = match kind {
        VariantKind::Tensor => Position::<Tensor>::from_fen(&p.fen).map(|pos| pos.turn()),
        VariantKind::Chessence => Position::<Chessence>::from_fen(&p.fen).map(|pos| pos.turn()),
        VariantKind::Chess => {
            Position::<tensorchess_rules::Chess>::from_fen(&p.fen).map(|pos| pos.turn())
        }
    };
    // The shipped files are checked by the tests: their FENs read.
    !turn.unwrap_or(Color::White)
}

/// The puzzle of the day, for the home page.
#[derive(serde::Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct DailyPuzzle {
    /// The puzzle's id (`/puzzles.html#ID` opens it).
    pub id: String,
    /// Its game.
    pub variant: VariantKind,
    /// The position before the opponent's first move.
    pub fen: String,
    /// The side that solves it.
    pub solver: tensorchess_rules::Color,
    /// Its rating in the shipped file.
    pub rating: u32,
}

/// The puzzles service: the shipped puzzles, their ratings and the
/// players'.
pub struct Puzzles {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
}

impl Puzzles {
    /// The service over `store`, reading time on `clock`.
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Puzzles {
        Puzzles { store, clock }
    }

    fn set(variant: Option<&str>) -> Result<(VariantKind, &'static [Puzzle]), AppError> {
        let kind = parse_variant(variant.unwrap_or("tensor"))?;
        let set = shipped_puzzles()
            .by_variant
            .get(&kind)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if set.is_empty() {
            return Err(AppError::NotFound(format!(
                "There are no {} puzzles yet",
                kind.title()
            )));
        }
        Ok((kind, set))
    }

    /// The themes of a game's puzzles.
    pub fn themes(&self, variant: Option<&str>) -> Result<ThemeCounts, AppError> {
        let (kind, set) = Self::set(variant)?;
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for p in set {
            for t in &p.themes {
                *counts.entry(t.as_str()).or_default() += 1;
            }
        }
        let mut themes: Vec<(String, usize)> = counts
            .into_iter()
            .map(|(name, count)| (name.to_string(), count))
            .collect();
        themes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(ThemeCounts {
            kind,
            count: set.len(),
            themes,
        })
    }

    async fn player_rating(
        &self,
        player: &str,
        kind: VariantKind,
    ) -> Result<RatingRecord, AppError> {
        Ok(self
            .store
            .puzzle_player_rating(player, kind)
            .await?
            .unwrap_or(START))
    }

    /// A puzzle for `player`: near their rating (or, in a streak, near the
    /// streak's), with the theme if one is asked for, not one of their
    /// latest tries while others remain.
    pub async fn next(&self, player: &str, q: &NextQuery) -> Result<PuzzleOffer, AppError> {
        let (kind, set) = Self::set(q.variant.as_deref())?;
        let theme = q.theme.as_deref().filter(|t| !t.is_empty());
        let pool: Vec<&Puzzle> = set
            .iter()
            .filter(|p| theme.is_none_or(|t| p.has_theme(t)))
            .collect();
        if pool.is_empty() {
            return Err(AppError::NotFound(format!(
                "No {} puzzle has the theme '{}'",
                kind.title(),
                theme
                    .unwrap_or_default()
                    .chars()
                    .take(40)
                    .collect::<String>()
            )));
        }
        let me = self.player_rating(player, kind).await?;
        let recent = self
            .store
            .recent_puzzle_attempts(player, kind, MAX_PUZZLE_ATTEMPTS)
            .await?;
        let ratings: HashMap<String, RatingRecord> =
            self.store.puzzle_ratings(kind).await?.into_iter().collect();
        let rating_of = |p: &Puzzle| ratings.get(&p.id).copied().unwrap_or_else(|| initial(p));
        let target = match q.streak {
            Some(n) => STREAK_START + STREAK_STEP * n.min(40) as f64,
            None => me.rating,
        };
        let tried: HashSet<&str> = recent.iter().map(|a| a.puzzle_id.as_str()).collect();
        let mut fresh: Vec<&Puzzle> = pool
            .iter()
            .copied()
            .filter(|p| !tried.contains(p.id.as_str()))
            .collect();
        if fresh.is_empty() {
            // All tried: the ones tried longest ago (the latest half stays out).
            let latest: HashSet<&str> = recent
                .iter()
                .take(pool.len() / 2)
                .map(|a| a.puzzle_id.as_str())
                .collect();
            fresh = pool
                .iter()
                .copied()
                .filter(|p| !latest.contains(p.id.as_str()))
                .collect();
            if fresh.is_empty() {
                fresh = pool.clone();
            }
        }
        fresh.sort_by(|a, b| {
            let da = (rating_of(a).rating - target).abs();
            let db = (rating_of(b).rating - target).abs();
            da.total_cmp(&db).then(a.id.cmp(&b.id))
        });
        let nearest = &fresh[..fresh.len().min(NEAREST)];
        let chosen = nearest
            .choose(&mut rand::rng())
            .copied()
            .ok_or_else(|| AppError::NotFound("No puzzle left".into()))?;
        Ok(PuzzleOffer {
            kind,
            puzzle: chosen,
            rating: rating_of(chosen),
            player: me,
        })
    }

    /// The puzzle of the day: one Tensor Chess puzzle, the same for
    /// everyone on a UTC day (every server alike), another the next day.
    pub fn daily(&self) -> Result<DailyPuzzle, AppError> {
        let (kind, set) = Self::set(None)?;
        let day = self.clock.now_ms().div_euclid(86_400_000).unsigned_abs();
        // A step coprime with most lengths walks the set, not in file order.
        let i = (day.wrapping_mul(2_654_435_761) % set.len() as u64) as usize;
        let p = set
            .get(i)
            .ok_or_else(|| AppError::NotFound("No puzzle today".into()))?;
        Ok(DailyPuzzle {
            id: p.id.clone(),
            variant: kind,
            fen: p.fen.clone(),
            solver: solver(kind, p),
            rating: p.rating,
        })
    }

    /// One puzzle by its id.
    pub async fn get(&self, player: &str, id: &str) -> Result<PuzzleOffer, AppError> {
        let (kind, p) = lookup(id)?;
        let rating = self.puzzle_rating(kind, p).await?;
        let me = self.player_rating(player, kind).await?;
        Ok(PuzzleOffer {
            kind,
            puzzle: p,
            rating,
            player: me,
        })
    }

    async fn puzzle_rating(&self, kind: VariantKind, p: &Puzzle) -> Result<RatingRecord, AppError> {
        Ok(self
            .store
            .puzzle_ratings(kind)
            .await?
            .into_iter()
            .find(|(id, _)| *id == p.id)
            .map(|(_, r)| r)
            .unwrap_or_else(|| initial(p)))
    }

    /// Records `player`'s try at puzzle `id`, judged from its moves: a
    /// first try outside a streak rates the player against the puzzle (one
    /// Glicko-2 period), and, for an account, the puzzle against the player.
    pub async fn result(
        &self,
        player: &str,
        id: &str,
        req: &ResultRequest,
    ) -> Result<PuzzleTry, AppError> {
        let (kind, p) = lookup(id)?;
        let solved = judge(kind, p, &req.moves)?;
        let account = self
            .store
            .player(player)
            .await?
            .is_some_and(|r| r.account.is_some());
        for _ in 0..WRITE_TRIES {
            let first = !self.store.puzzle_attempted(player, &p.id).await?;
            let rated = !req.streak && first;
            let rates_puzzle = rated && account;
            let before_player = self.store.puzzle_player_rating(player, kind).await?;
            let before_puzzle = self
                .store
                .puzzle_ratings(kind)
                .await?
                .into_iter()
                .find(|(pid, _)| *pid == p.id)
                .map(|(_, r)| r);
            let me = before_player.unwrap_or(START);
            let puzzle = before_puzzle.unwrap_or_else(|| initial(p));
            let score = if solved { 1.0 } else { 0.0 };
            let (me_after, puzzle_after) = if rated {
                let (a, b) = glicko2::rate_game(glicko(&me), glicko(&puzzle), score);
                let record = |g: Glicko, old: &RatingRecord| RatingRecord {
                    rating: g.rating,
                    rd: g.rd,
                    volatility: g.volatility,
                    games: old.games + 1,
                };
                let puzzle_after = if rates_puzzle {
                    record(b, &puzzle)
                } else {
                    puzzle
                };
                (record(a, &me), puzzle_after)
            } else {
                (me, puzzle)
            };
            let diff = (me_after.rating.round() - me.rating.round()) as i32;
            let write = PuzzleResultWrite {
                attempt: PuzzleAttemptRecord {
                    player_id: player.to_string(),
                    puzzle_id: p.id.clone(),
                    variant: kind,
                    solved,
                    rated,
                    rating_diff: rated.then_some(diff),
                    played_at: self.clock.now_ms(),
                },
                player: rated.then_some(PuzzleRatingWrite {
                    before: before_player,
                    after: me_after,
                }),
                puzzle: rates_puzzle.then_some(PuzzleRatingWrite {
                    before: before_puzzle,
                    after: puzzle_after,
                }),
            };
            match self.store.record_puzzle_attempt(&write).await {
                Ok(()) => {
                    return Ok(PuzzleTry {
                        id: p.id.clone(),
                        solved,
                        rated,
                        player: me_after,
                        player_diff: if rated { diff } else { 0 },
                        puzzle: puzzle_after,
                    })
                }
                // Someone else rated the puzzle (or this player, in another
                // tab) meanwhile: read again and rate from there.
                Err(StoreError::Stale { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(AppError::Conflict(
            "The puzzle's rating kept changing: try again".into(),
        ))
    }
}

fn lookup(id: &str) -> Result<(VariantKind, &'static Puzzle), AppError> {
    let shipped = shipped_puzzles();
    shipped
        .by_id
        .get(id)
        .and_then(|(kind, i)| Some((*kind, shipped.by_variant.get(kind)?.get(*i)?)))
        .ok_or_else(|| {
            AppError::NotFound(format!(
                "There is no puzzle {}",
                id.chars().take(40).collect::<String>()
            ))
        })
}
