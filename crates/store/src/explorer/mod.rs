//! The opening explorer's tables: every finished online game counted once,
//! move by move from each position of its first [`EXPLORER_PLIES`] plies,
//! split by what the explorer's filters choose, and the engine's
//! evaluations of positions; [`ExplorerRepo`] stores them.
//!
//! Positions are keyed by the game and the rules crate's Zobrist hash, so
//! transpositions meet. The counts are kept per `(position, move, rated,
//! speed, rating band)`: a filtered answer sums the rows the filter keeps,
//! never scanning games.

use crate::columns::{color_text, parse_color};
use crate::rows::{Row, Value};
use crate::StoreError;
use async_trait::async_trait;
use tensorchess_rules::{Color, VariantKind};

pub mod bulk;

/// The plies of each game that are counted (lichess's explorer keeps about
/// as many: past them, positions are mostly a game's own).
pub const EXPLORER_PLIES: usize = 40;

/// The lower bounds of the rating bands (lichess's), by the average rating
/// of the two players: a game whose average is 1500 is in band 1400.
pub const RATING_BANDS: [i32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The band index of games whose players had no rating (casual games of
/// guests): kept apart, counted only when no band is asked for.
pub const UNRATED_BAND: u32 = RATING_BANDS.len() as u32;

/// How many games are named as the top games of a position.
pub const TOP_GAMES: usize = 4;

/// A game's speed, as lichess names them (estimated duration: base time
/// plus 40 increments; no clock is correspondence). Serialized as
/// lichess's name ([`Speed::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Speed {
    /// Under 30 s.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
    /// Days per move, or no clock at all.
    Correspondence,
}

impl Speed {
    /// Every speed, in order (the stored number is the index).
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// lichess's name (`ultraBullet`, `blitz`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// A speed from lichess's name; `None` for another word.
    pub fn parse(s: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|sp| sp.as_str() == s)
    }

    /// The speed of a time control of `base_ms` plus `increment_ms` a move
    /// (`None`: no clock, correspondence).
    pub fn of_clock(clock: Option<(i64, i64)>) -> Speed {
        let Some((base_ms, increment_ms)) = clock else {
            return Speed::Correspondence;
        };
        match (base_ms + 40 * increment_ms) / 1000 {
            ..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The number stored for it.
    pub fn index(self) -> u32 {
        self as u32
    }

    /// The speed stored as `n`.
    pub fn from_index(n: i64) -> Option<Speed> {
        usize::try_from(n)
            .ok()
            .and_then(|i| Speed::ALL.get(i).copied())
    }
}

/// The band index of an average rating ([`RATING_BANDS`]); `None` (no
/// rating known) is [`UNRATED_BAND`].
pub fn band_of(average: Option<i32>) -> u32 {
    match average {
        None => UNRATED_BAND,
        Some(r) => RATING_BANDS.iter().rposition(|&b| r >= b).unwrap_or(0) as u32,
    }
}

/// One counted step of a game: the position before a move, and the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerStep {
    /// The position's Zobrist hash (the rules crate's).
    pub hash: u64,
    /// The move played from it (RULES 4.2's move string).
    pub uci: String,
}

/// A finished game, as the explorer counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerGame {
    /// The game's id: it is counted once.
    pub id: String,
    /// The game played.
    pub variant: VariantKind,
    /// White's name, as shown over the board.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The players' ratings when the game began (rated games).
    pub ratings: [Option<i32>; 2],
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Whether the game was rated.
    pub rated: bool,
    /// Its speed.
    pub speed: Speed,
    /// When it was played (ms since the epoch).
    pub played_at: i64,
    /// Its first plies (at most [`EXPLORER_PLIES`] are counted). A
    /// position and move met twice in one game count once.
    pub steps: Vec<ExplorerStep>,
    /// The position after the last step counted (the game search finds
    /// the game there too).
    pub after: u64,
}

impl ExplorerGame {
    /// The players' average rating, when both are known.
    pub fn average_rating(&self) -> Option<i32> {
        match self.ratings {
            [Some(w), Some(b)] => Some((w + b) / 2),
            _ => None,
        }
    }

    /// The steps counted: the first [`EXPLORER_PLIES`], each `(position,
    /// move)` once.
    pub fn counted_steps(&self) -> Vec<&ExplorerStep> {
        let mut seen = std::collections::HashSet::new();
        self.steps
            .iter()
            .take(EXPLORER_PLIES)
            .filter(|s| seen.insert((s.hash, s.uci.as_str())))
            .collect()
    }
}

/// Which games an answer counts (lichess's filters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerFilter {
    /// Only rated games.
    pub rated_only: bool,
    /// Bit `i` keeps the games of speed `i` ([`Speed::index`]).
    pub speeds: u32,
    /// Bit `i` keeps the games of rating band `i` ([`RATING_BANDS`], and
    /// [`UNRATED_BAND`] for games without ratings).
    pub bands: u32,
}

impl ExplorerFilter {
    /// Every game.
    pub fn all() -> ExplorerFilter {
        ExplorerFilter {
            rated_only: false,
            speeds: (1 << Speed::ALL.len()) - 1,
            bands: (1 << (UNRATED_BAND + 1)) - 1,
        }
    }

    /// Whether a game of these properties is counted.
    pub fn keeps(&self, rated: bool, speed: Speed, band: u32) -> bool {
        (rated || !self.rated_only)
            && self.speeds & (1 << speed.index()) != 0
            && self.bands & (1 << band) != 0
    }
}

/// The games that went on with one move from a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCounts {
    /// The move (RULES 4.2's move string).
    pub uci: String,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The sum of the average ratings of the games with ratings.
    pub rating_sum: i64,
    /// How many games had ratings.
    pub rating_games: u64,
}

impl MoveCounts {
    /// Every game counted.
    pub fn total(&self) -> u64 {
        self.white + self.draws + self.black
    }

    /// The average rating of the games with ratings.
    pub fn average_rating(&self) -> Option<i32> {
        let n = i64::try_from(self.rating_games).ok().filter(|&n| n > 0)?;
        i32::try_from(self.rating_sum / n).ok()
    }
}

/// A game named among a position's top games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopGame {
    /// The game's id.
    pub id: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The players' ratings.
    pub ratings: [Option<i32>; 2],
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// When it was played (ms).
    pub played_at: i64,
    /// The players' average rating (what ranks it).
    pub average: i32,
}

/// What the explorer knows of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorerAnswer {
    /// Each move played from it, the most played first.
    pub moves: Vec<MoveCounts>,
    /// The highest rated games through it (at most [`TOP_GAMES`]), best first.
    pub top_games: Vec<TopGame>,
}

/// The engine's evaluation of a position, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExplorerEval {
    /// Centipawns (`None` when a mate is seen).
    pub cp: Option<i32>,
    /// Moves to mate, negative when the side to move is mated.
    pub mate: Option<i32>,
    /// The depth searched.
    pub depth: u32,
}

/// Storage for the explorer. Each method is one atomic write or one read.
#[async_trait]
pub trait ExplorerRepo: Send + Sync + 'static {
    /// Counts a finished game, once: `false` (and nothing changes) when
    /// its id was counted already, by this server or another.
    async fn add_explorer_game(&self, game: &ExplorerGame) -> Result<bool, StoreError>;
    /// The moves played from a position, and its top games, among the
    /// games `filter` keeps.
    async fn explore(
        &self,
        variant: VariantKind,
        hash: u64,
        filter: &ExplorerFilter,
    ) -> Result<ExplorerAnswer, StoreError>;
    /// Forgets every count (and the games counted), keeping evaluations:
    /// the start of a rebuild.
    async fn clear_explorer(&self) -> Result<(), StoreError>;
    /// Counts many finished games (a rebuild's chunk), as
    /// [`add_explorer_game`](Self::add_explorer_game) each would, their
    /// rows summed first ([`bulk::ExplorerChunk`]); those counted already
    /// (or twice in `games`) count once. Their `explorer_games` rows are
    /// written now; their counts may be staged until
    /// [`merge_explorer_games`](Self::merge_explorer_games) (SQLite stages
    /// them, to write them in the order of the tables' keys; PostgreSQL
    /// writes them now). How many were counted.
    async fn stage_explorer_games(&self, games: &[ExplorerGame]) -> Result<usize, StoreError>;
    /// Writes the counts [`stage_explorer_games`](Self::stage_explorer_games)
    /// staged into the explorer's tables (in steps, each a transaction of
    /// its own): only then are they answered.
    async fn merge_explorer_games(&self) -> Result<(), StoreError>;
    /// The finished online games after `after` in id order, at most
    /// `limit`, each with its online state and its first [`EXPLORER_PLIES`]
    /// moves: what a rebuild reads, page by page (aborted games among
    /// them: the explorer leaves them out).
    async fn explorer_source_games(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<crate::StoredGame>, StoreError>;
    /// The ids of finished online games last changed at or after `since`
    /// (ms) that were never counted, oldest first, at most `limit`: what a
    /// server catches up on (a game whose end was stored by a server that
    /// stopped before counting it).
    async fn uncounted_game_ids(&self, since: i64, limit: usize)
        -> Result<Vec<String>, StoreError>;
    /// The evaluations stored for these positions.
    async fn explorer_evals(
        &self,
        variant: VariantKind,
        hashes: &[u64],
    ) -> Result<Vec<(u64, ExplorerEval)>, StoreError>;
    /// Stores an evaluation, unless a deeper one is stored already.
    async fn put_explorer_eval(
        &self,
        variant: VariantKind,
        hash: u64,
        eval: ExplorerEval,
    ) -> Result<(), StoreError>;
}

/// The hash as stored: the same 64 bits, signed (both backends' integers).
pub fn stored_hash(hash: u64) -> i64 {
    hash as i64
}

/// A hash from its stored form.
pub fn read_hash(stored: i64) -> u64 {
    stored as u64
}

/// The SQL of [`ExplorerRepo::add_explorer_game`]'s count of one step;
/// `mark(n)` writes the `n`-th placeholder (`?n` or `$n`). Parameters:
/// variant, hash, uci, rated, speed, band, white, draws, black,
/// rating_sum, rating_games.
pub fn count_sql(mark: fn(usize) -> String) -> String {
    let marks: Vec<String> = (1..=11).map(mark).collect();
    count_upsert(&format!("VALUES ({})", marks.join(", ")))
}

/// The columns of an `explorer_moves` row, in [`count_sql`]'s order.
pub const COUNT_COLUMNS: &str =
    "variant, hash, uci, rated, speed, band, white, draws, black, rating_sum, rating_games";

/// The upsert that adds the counts of `rows` (`VALUES (...)`, or a
/// `SELECT` of [`COUNT_COLUMNS`]) to those stored.
pub fn count_upsert(rows: &str) -> String {
    format!(
        "INSERT INTO explorer_moves ({COUNT_COLUMNS}) {rows} \
         ON CONFLICT (variant, hash, uci, rated, speed, band) DO UPDATE SET \
         white = explorer_moves.white + excluded.white, \
         draws = explorer_moves.draws + excluded.draws, \
         black = explorer_moves.black + excluded.black, \
         rating_sum = explorer_moves.rating_sum + excluded.rating_sum, \
         rating_games = explorer_moves.rating_games + excluded.rating_games"
    )
}

/// The filter's condition on the table aliased `t`; parameters
/// `mark(first)`..`mark(first + 2)`: rated only (0 or 1), the speeds'
/// mask, the bands' mask.
pub fn filter_sql(t: &str, mark: fn(usize) -> String, first: usize) -> String {
    format!(
        "{t}.rated >= {} AND ((CAST({} AS BIGINT) >> {t}.speed) & 1) = 1 \
         AND ((CAST({} AS BIGINT) >> {t}.band) & 1) = 1",
        mark(first),
        mark(first + 1),
        mark(first + 2)
    )
}

/// The moves' sums from a position (parameters: variant, hash, then
/// [`filter_sql`]'s): uci, white, draws, black, rating_sum, rating_games.
pub fn moves_sql(mark: fn(usize) -> String) -> String {
    format!(
        "SELECT m.uci, CAST(SUM(m.white) AS BIGINT), CAST(SUM(m.draws) AS BIGINT), \
         CAST(SUM(m.black) AS BIGINT), CAST(SUM(m.rating_sum) AS BIGINT), \
         CAST(SUM(m.rating_games) AS BIGINT) FROM explorer_moves m \
         WHERE m.variant = {} AND m.hash = {} AND {} GROUP BY m.uci",
        mark(1),
        mark(2),
        filter_sql("m", mark, 3)
    )
}

/// The candidates for a position's top games, best first (parameters as
/// [`moves_sql`]'s): id, white, black, white_rating, black_rating,
/// winner, played_at, rating.
pub fn top_games_sql(mark: fn(usize) -> String) -> String {
    format!(
        "SELECT g.id, g.white, g.black, g.white_rating, g.black_rating, g.winner, \
         g.played_at, t.rating FROM explorer_top t JOIN explorer_games g \
         ON g.id = t.game_id WHERE t.variant = {} AND t.hash = {} AND {} \
         ORDER BY t.rating DESC, g.id LIMIT {TOP_GAMES}",
        mark(1),
        mark(2),
        filter_sql("t", mark, 3)
    )
}

/// The SQL that names a game among a position's top games (parameters:
/// variant, hash, rated, speed, band, rating, game_id; as
/// [`top_values`]), then the SQL that keeps the best [`TOP_GAMES`] of the
/// position's bucket (parameters: the first five).
pub fn top_sql(mark: fn(usize) -> String) -> (String, String) {
    let m: Vec<String> = (1..=7).map(mark).collect();
    let bucket = format!(
        "variant = {} AND hash = {} AND rated = {} AND speed = {} AND band = {}",
        m[0], m[1], m[2], m[3], m[4]
    );
    (
        format!(
            "INSERT INTO explorer_top (variant, hash, rated, speed, band, rating, game_id) \
             VALUES ({}) ON CONFLICT DO NOTHING",
            m.join(", ")
        ),
        format!(
            "DELETE FROM explorer_top WHERE {bucket} AND game_id NOT IN \
             (SELECT game_id FROM explorer_top WHERE {bucket} \
             ORDER BY rating DESC, game_id LIMIT {TOP_GAMES})"
        ),
    )
}

/// The moves in the order answered: the most played first, then by move.
pub fn sort_moves(moves: &mut [MoveCounts]) {
    moves.sort_by(|a, b| b.total().cmp(&a.total()).then_with(|| a.uci.cmp(&b.uci)));
}

/// The counts one game adds to the row of its step (white, draws, black,
/// rating_sum, rating_games).
pub fn game_counts(game: &ExplorerGame) -> (i64, i64, i64, i64, i64) {
    let (w, d, b) = match game.winner {
        Some(Color::White) => (1, 0, 0),
        None => (0, 1, 0),
        Some(Color::Black) => (0, 0, 1),
    };
    let avg = game.average_rating();
    (
        w,
        d,
        b,
        i64::from(avg.unwrap_or(0)),
        i64::from(avg.is_some()),
    )
}

/// The columns of an `explorer_games` row, in [`explorer_game_values`]' order.
pub const EXPLORER_GAME_COLUMNS: &str =
    "id, variant, white, black, white_rating, black_rating, winner, rated, speed, played_at";

/// A game's `explorer_games` row, in [`EXPLORER_GAME_COLUMNS`]' order.
pub fn explorer_game_values(game: &ExplorerGame) -> Vec<Value> {
    vec![
        Value::Text(Some(game.id.clone())),
        Value::Text(Some(game.variant.name().to_string())),
        Value::Text(Some(game.white.clone())),
        Value::Text(Some(game.black.clone())),
        Value::Int32(game.ratings[0]),
        Value::Int32(game.ratings[1]),
        Value::Text(game.winner.map(|c| color_text(c).to_string())),
        Value::Int32(Some(i32::from(game.rated))),
        Value::Int32(Some(game.speed.index() as i32)),
        Value::Int(Some(game.played_at)),
    ]
}

/// The parameters of [`count_sql`] for each step a game counts, in the
/// order of their rows' keys: two servers adding games at once lock rows
/// in the same order, so neither waits on the other in a circle.
pub fn count_values(game: &ExplorerGame) -> Vec<Vec<Value>> {
    let (w, d, b, sum, n) = game_counts(game);
    let band = band_of(game.average_rating());
    let mut steps = game.counted_steps();
    steps.sort_by(|x, y| (stored_hash(x.hash), &x.uci).cmp(&(stored_hash(y.hash), &y.uci)));
    steps
        .into_iter()
        .map(|step| {
            vec![
                Value::Text(Some(game.variant.name().to_string())),
                Value::Int(Some(stored_hash(step.hash))),
                Value::Text(Some(step.uci.clone())),
                Value::Int32(Some(i32::from(game.rated))),
                Value::Int32(Some(game.speed.index() as i32)),
                Value::Int32(Some(band as i32)),
                Value::Int(Some(w)),
                Value::Int(Some(d)),
                Value::Int(Some(b)),
                Value::Int(Some(sum)),
                Value::Int(Some(n)),
            ]
        })
        .collect()
}

/// The SQL noting that a game went through a position (parameters:
/// variant, hash, game_id; as [`position_values`]).
pub fn position_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO explorer_positions (variant, hash, game_id) VALUES ({}, {}, {}) \
         ON CONFLICT DO NOTHING",
        mark(1),
        mark(2),
        mark(3)
    )
}

/// The parameters of [`position_sql`] for each position a game counts
/// (each once, in the order of their keys).
pub fn position_values(game: &ExplorerGame) -> Vec<Vec<Value>> {
    let mut hashes: Vec<i64> = game
        .counted_steps()
        .iter()
        .map(|s| stored_hash(s.hash))
        .chain([stored_hash(game.after)])
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
        .into_iter()
        .map(|hash| {
            vec![
                Value::Text(Some(game.variant.name().to_string())),
                Value::Int(Some(hash)),
                Value::Text(Some(game.id.clone())),
            ]
        })
        .collect()
}

/// The parameters of [`top_sql`] for each position a game goes through,
/// in the order of their keys; none when the game has no ratings (it
/// ranks nowhere).
pub fn top_values(game: &ExplorerGame) -> Vec<Vec<Value>> {
    let Some(avg) = game.average_rating() else {
        return Vec::new();
    };
    let band = band_of(Some(avg));
    let mut hashes: Vec<i64> = game
        .counted_steps()
        .iter()
        .map(|s| stored_hash(s.hash))
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
        .into_iter()
        .map(|hash| {
            vec![
                Value::Text(Some(game.variant.name().to_string())),
                Value::Int(Some(hash)),
                Value::Int32(Some(i32::from(game.rated))),
                Value::Int32(Some(game.speed.index() as i32)),
                Value::Int32(Some(band as i32)),
                Value::Int32(Some(avg)),
                Value::Text(Some(game.id.clone())),
            ]
        })
        .collect()
}

/// The parameters of [`moves_sql`] and [`top_games_sql`].
pub fn explore_values(variant: VariantKind, hash: u64, filter: &ExplorerFilter) -> Vec<Value> {
    vec![
        Value::Text(Some(variant.name().to_string())),
        Value::Int(Some(stored_hash(hash))),
        Value::Int32(Some(i32::from(filter.rated_only))),
        Value::Int(Some(i64::from(filter.speeds))),
        Value::Int(Some(i64::from(filter.bands))),
    ]
}

fn count(row: &impl Row, i: usize) -> Result<u64, StoreError> {
    Ok(u64::try_from(row.int(i)?.unwrap_or(0)).unwrap_or(0))
}

/// A row of [`moves_sql`].
pub fn read_move_counts(row: &impl Row) -> Result<MoveCounts, StoreError> {
    Ok(MoveCounts {
        uci: row.text_nn(0)?,
        white: count(row, 1)?,
        draws: count(row, 2)?,
        black: count(row, 3)?,
        rating_sum: row.int(4)?.unwrap_or(0),
        rating_games: count(row, 5)?,
    })
}

/// A row of [`top_games_sql`].
pub fn read_top_game(row: &impl Row) -> Result<TopGame, StoreError> {
    let id = row.text_nn(0)?;
    let winner = match row.text(5)? {
        None => None,
        Some(w) => Some(parse_color(&w).ok_or_else(|| StoreError::Corrupt {
            id: id.clone(),
            what: format!("explorer winner {w}"),
        })?),
    };
    Ok(TopGame {
        white: row.text_nn(1)?,
        black: row.text_nn(2)?,
        ratings: [row.int32(3)?, row.int32(4)?],
        winner,
        played_at: row.int_nn(6)?,
        average: row.int32(7)?.unwrap_or(0),
        id,
    })
}

/// The columns of an `explorer_evals` row read back: hash, depth, cp, mate.
pub const EVAL_COLUMNS: &str = "hash, depth, cp, mate";

/// An evaluation's row (`(variant, hash, depth, cp, mate)`).
pub fn eval_values(variant: VariantKind, hash: u64, eval: ExplorerEval) -> Vec<Value> {
    vec![
        Value::Text(Some(variant.name().to_string())),
        Value::Int(Some(stored_hash(hash))),
        Value::Int32(Some(i32::try_from(eval.depth).unwrap_or(i32::MAX))),
        Value::Int32(eval.cp),
        Value::Int32(eval.mate),
    ]
}

/// The SQL storing an evaluation unless a deeper one is stored
/// (parameters as [`eval_values`]).
pub fn put_eval_sql(mark: fn(usize) -> String) -> String {
    format!(
        "INSERT INTO explorer_evals (variant, hash, depth, cp, mate) VALUES ({}, {}, {}, {}, {}) \
         ON CONFLICT (variant, hash) DO UPDATE SET depth = excluded.depth, cp = excluded.cp, \
         mate = excluded.mate WHERE excluded.depth > explorer_evals.depth",
        mark(1),
        mark(2),
        mark(3),
        mark(4),
        mark(5)
    )
}

/// A row of [`EVAL_COLUMNS`].
pub fn read_eval(row: &impl Row) -> Result<(u64, ExplorerEval), StoreError> {
    Ok((
        read_hash(row.int_nn(0)?),
        ExplorerEval {
            depth: u32::try_from(row.int32(1)?.unwrap_or(0)).unwrap_or(0),
            cp: row.int32(2)?,
            mate: row.int32(3)?,
        },
    ))
}

/// The SQL of [`ExplorerRepo::uncounted_game_ids`] (`since`, `limit`).
pub fn uncounted_ids_sql(mark: fn(usize) -> String) -> String {
    format!(
        "SELECT g.id FROM games g WHERE g.mode = 'online' AND g.result <> '*' \
         AND g.updated_at >= {} \
         AND NOT EXISTS (SELECT 1 FROM explorer_games e WHERE e.id = g.id) \
         ORDER BY g.updated_at, g.id LIMIT {}",
        mark(1),
        mark(2)
    )
}

#[cfg(test)]
mod tests {
    use super::Speed;

    #[test]
    fn a_speed_is_serialized_as_its_lichess_name_and_read_back() {
        for speed in Speed::ALL {
            let json = serde_json::to_value(speed).unwrap();
            assert_eq!(json, speed.as_str(), "{speed:?}");
            assert_eq!(Speed::parse(speed.as_str()), Some(speed));
        }
        assert_eq!(Speed::parse("blitz "), None);
    }
}
