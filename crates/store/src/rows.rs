//! The rows of the records both SQL backends store in the same columns,
//! mapped once: a record becomes a list of [`Value`]s in its columns'
//! order, and a result row (of either backend, through [`Row`]) becomes a
//! record. Each backend only says how it binds a value and reads a column.

use crate::columns::{color_text, ending_columns, parse_color, parse_ending, parse_variant};
use crate::{
    ClockSettings, GameMode, GameRecord, GameSummary, OnlineRecord, SeekColor, SeekRecord,
    StoreError,
};
use tensorchess_rules::ByColor;

/// A column's value, as both backends bind it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `TEXT`.
    Text(Option<String>),
    /// `INTEGER` in SQLite, `BIGINT` in PostgreSQL.
    Int(Option<i64>),
    /// A rating: `INTEGER` in both.
    Int32(Option<i32>),
    /// `REAL` in SQLite, `DOUBLE PRECISION` in PostgreSQL.
    Float(Option<f64>),
    /// `INTEGER` 0 or 1 in SQLite, `BOOLEAN` in PostgreSQL.
    Bool(bool),
}

fn text(s: &Option<String>) -> Value {
    Value::Text(s.clone())
}

/// A result row of either backend, read by column number.
pub trait Row {
    /// A `TEXT` column.
    fn text(&self, i: usize) -> Result<Option<String>, StoreError>;
    /// An integer column.
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError>;
    /// A rating column.
    fn int32(&self, i: usize) -> Result<Option<i32>, StoreError>;
    /// A floating-point column.
    fn float(&self, i: usize) -> Result<Option<f64>, StoreError>;
    /// A boolean column.
    fn boolean(&self, i: usize) -> Result<bool, StoreError>;

    /// A `TEXT NOT NULL` column.
    fn text_nn(&self, i: usize) -> Result<String, StoreError> {
        self.text(i)?
            .ok_or_else(|| StoreError::Backend(format!("column {i} is empty")))
    }

    /// An integer `NOT NULL` column.
    fn int_nn(&self, i: usize) -> Result<i64, StoreError> {
        self.int(i)?
            .ok_or_else(|| StoreError::Backend(format!("column {i} is empty")))
    }
}

/// The columns of a game's record, in [`record_values`]' order.
pub const RECORD_COLUMNS: &str = "id, variant, start_fen, mode, human_color, level, white, black, \
     result, end_reason, rev, created_at, updated_at, owner, rated";

/// How many [`RECORD_COLUMNS`] there are.
pub const RECORD_COLUMN_COUNT: usize = 15;

/// A game summary's columns after the record's (the game `g`): its move
/// count, then whether White's and Black's players are bot accounts.
pub const SUMMARY_EXTRA_COLUMNS: &str = "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), \
     EXISTS (SELECT 1 FROM online_games ow JOIN bots b ON b.player_id = ow.white_player \
             WHERE ow.game_id = g.id), \
     EXISTS (SELECT 1 FROM online_games ob JOIN bots b ON b.player_id = ob.black_player \
             WHERE ob.game_id = g.id), \
     (SELECT o.white_player FROM online_games o WHERE o.game_id = g.id), \
     (SELECT o.black_player FROM online_games o WHERE o.game_id = g.id), \
     (SELECT o.days_per_move FROM online_games o WHERE o.game_id = g.id), \
     (SELECT a.username FROM online_games o JOIN accounts a ON a.player_id = o.white_player \
             WHERE o.game_id = g.id), \
     (SELECT a.username FROM online_games o JOIN accounts a ON a.player_id = o.black_player \
             WHERE o.game_id = g.id)";

/// `INSERT INTO table (columns) VALUES (…)` with one placeholder per column.
pub fn insert_sql(table: &str, columns: &str, mark: fn(usize) -> String) -> String {
    let n = columns.split(',').count();
    format!(
        "INSERT INTO {table} ({columns}) VALUES ({})",
        placeholders(mark, 1, n)
    )
}

/// [`RECORD_COLUMNS`] of the game `g` (for a query joining other tables).
pub fn prefixed_record_columns() -> String {
    RECORD_COLUMNS
        .split(", ")
        .map(|c| format!("g.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A games list's line from a row of [`RECORD_COLUMNS`] then
/// [`SUMMARY_EXTRA_COLUMNS`]. A record this program cannot read is `None`
/// (and reported): it is left out of the list rather than hiding every
/// other game.
pub fn read_summary(row: &impl Row) -> Result<Option<GameSummary>, StoreError> {
    let move_count = row.int_nn(RECORD_COLUMN_COUNT)? as usize;
    let bots = ByColor::new(
        row.boolean(RECORD_COLUMN_COUNT + 1)?,
        row.boolean(RECORD_COLUMN_COUNT + 2)?,
    );
    let players = ByColor::new(
        row.text(RECORD_COLUMN_COUNT + 3)?,
        row.text(RECORD_COLUMN_COUNT + 4)?,
    );
    let days = row
        .int(RECORD_COLUMN_COUNT + 5)?
        .and_then(|d| u32::try_from(d).ok());
    let accounts = ByColor::new(
        row.text(RECORD_COLUMN_COUNT + 6)?,
        row.text(RECORD_COLUMN_COUNT + 7)?,
    );
    match read_record(row, 0) {
        Ok(record) => Ok(Some(GameSummary {
            record,
            move_count,
            bots,
            players,
            days,
            accounts,
        })),
        Err(e @ StoreError::Corrupt { .. }) => {
            tracing::error!("{e}");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// A record's values, in [`RECORD_COLUMNS`]' order.
pub fn record_values(r: &GameRecord) -> Vec<Value> {
    let (result, reason) = ending_columns(r.ending);
    vec![
        Value::Text(Some(r.id.clone())),
        Value::Text(Some(r.variant.name().to_string())),
        Value::Text(Some(r.start_fen.clone())),
        Value::Text(Some(r.mode.as_str().to_string())),
        Value::Text(r.human_color.map(|c| color_text(c).to_string())),
        Value::Int(r.level.map(i64::from)),
        Value::Text(Some(r.white.clone())),
        Value::Text(Some(r.black.clone())),
        Value::Text(Some(result.to_string())),
        Value::Text(reason),
        Value::Int(Some(r.rev)),
        Value::Int(Some(r.created_at)),
        Value::Int(Some(r.updated_at)),
        text(&r.owner),
        Value::Bool(r.rated),
    ]
}

/// A record from its columns (from column `at` on); a value this program
/// cannot read is reported, not guessed.
pub fn read_record(row: &impl Row, at: usize) -> Result<GameRecord, StoreError> {
    let id = row.text_nn(at)?;
    let variant = row.text_nn(at + 1)?;
    let result = row.text_nn(at + 8)?;
    let reason = row.text(at + 9)?;
    Ok(GameRecord {
        variant: parse_variant(&id, &variant)?,
        ending: parse_ending(&id, &result, reason.as_deref())?,
        start_fen: row.text_nn(at + 2)?,
        mode: GameMode::parse(&row.text_nn(at + 3)?).unwrap_or(GameMode::Local),
        human_color: row.text(at + 4)?.as_deref().and_then(parse_color),
        level: row.int(at + 5)?.map(|l| l.clamp(1, 6) as u8),
        white: row.text_nn(at + 6)?,
        black: row.text_nn(at + 7)?,
        rev: row.int_nn(at + 10)?,
        created_at: row.int_nn(at + 11)?,
        updated_at: row.int_nn(at + 12)?,
        owner: row.text(at + 13)?,
        rated: row.boolean(at + 14)?,
        id,
    })
}

/// The columns of a game's online state, in [`online_values`]' order.
pub const ONLINE_COLUMNS: &str = "white_seat, black_seat, clock_base_ms, clock_inc_ms, white_ms, \
     black_ms, turn_started_at, draw_offer, rematch_offer, rematch_of, rematch_id, white_player, \
     black_player, white_draw_ply, black_draw_ply, white_rating, black_rating, white_rating_diff, \
     black_rating_diff, days_per_move, white_berserked, black_berserked, no_abort";

/// The online columns set again when the state is replaced (all of them).
pub const ONLINE_COLUMN_COUNT: usize = 23;

/// An online state's values, in [`ONLINE_COLUMNS`]' order.
pub fn online_values(o: &OnlineRecord) -> Vec<Value> {
    let color = |c: Option<tensorchess_rules::Color>| Value::Text(c.map(|c| color_text(c).into()));
    let ply = |p: Option<usize>| Value::Int(p.map(|p| p as i64));
    vec![
        text(&o.seats.white),
        text(&o.seats.black),
        Value::Int(o.clock.map(|c| c.base_ms)),
        Value::Int(o.clock.map(|c| c.increment_ms)),
        Value::Int(Some(o.ms.white)),
        Value::Int(Some(o.ms.black)),
        Value::Int(o.turn_started_at),
        color(o.draw_offer),
        color(o.rematch_offer),
        text(&o.rematch_of),
        text(&o.rematch_id),
        text(&o.players.white),
        text(&o.players.black),
        ply(o.draw_offer_plies.white),
        ply(o.draw_offer_plies.black),
        Value::Int32(o.ratings.white),
        Value::Int32(o.ratings.black),
        Value::Int32(o.rating_diffs.white),
        Value::Int32(o.rating_diffs.black),
        Value::Int(o.days.map(i64::from)),
        Value::Bool(o.berserked.white),
        Value::Bool(o.berserked.black),
        Value::Bool(o.no_abort),
    ]
}

/// An online state from its columns (from column `at` on).
pub fn read_online(row: &impl Row, at: usize) -> Result<OnlineRecord, StoreError> {
    let color = |i: usize| Ok::<_, StoreError>(row.text(at + i)?.as_deref().and_then(parse_color));
    let ply = |i: usize| Ok::<_, StoreError>(row.int(at + i)?.map(|p| p.max(0) as usize));
    let base = row.int(at + 2)?;
    let inc = row.int(at + 3)?;
    Ok(OnlineRecord {
        seats: ByColor::new(row.text(at)?, row.text(at + 1)?),
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: inc.unwrap_or(0),
        }),
        ms: ByColor::new(row.int_nn(at + 4)?, row.int_nn(at + 5)?),
        turn_started_at: row.int(at + 6)?,
        draw_offer: color(7)?,
        rematch_offer: color(8)?,
        rematch_of: row.text(at + 9)?,
        rematch_id: row.text(at + 10)?,
        players: ByColor::new(row.text(at + 11)?, row.text(at + 12)?),
        draw_offer_plies: ByColor::new(ply(13)?, ply(14)?),
        ratings: ByColor::new(row.int32(at + 15)?, row.int32(at + 16)?),
        rating_diffs: ByColor::new(row.int32(at + 17)?, row.int32(at + 18)?),
        days: row
            .int(at + 19)?
            .map(|d| d.clamp(0, i64::from(u32::MAX)) as u32),
        berserked: ByColor::new(row.boolean(at + 20)?, row.boolean(at + 21)?),
        no_abort: row.boolean(at + 22)?,
    })
}

/// The columns of a seek, in [`seek_values`]' order.
pub const SEEK_COLUMNS: &str =
    "id, player_id, variant, clock_base_ms, clock_inc_ms, rated, color, \
     created_at, expires_at, client";

/// A seek's values, in [`SEEK_COLUMNS`]' order.
pub fn seek_values(s: &SeekRecord) -> Vec<Value> {
    vec![
        Value::Text(Some(s.id.clone())),
        Value::Text(Some(s.player_id.clone())),
        Value::Text(Some(s.variant.name().to_string())),
        Value::Int(s.clock.map(|c| c.base_ms)),
        Value::Int(s.clock.map(|c| c.increment_ms)),
        Value::Bool(s.rated),
        Value::Text(Some(s.color.as_str().to_string())),
        Value::Int(Some(s.created_at)),
        Value::Int(Some(s.expires_at)),
        text(&s.client),
    ]
}

/// A seek from its columns (from column `at` on).
pub fn read_seek(row: &impl Row, at: usize) -> Result<SeekRecord, StoreError> {
    let id = row.text_nn(at)?;
    let base = row.int(at + 3)?;
    let inc = row.int(at + 4)?;
    Ok(SeekRecord {
        variant: parse_variant(&id, &row.text_nn(at + 2)?)?,
        player_id: row.text_nn(at + 1)?,
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: inc.unwrap_or(0),
        }),
        rated: row.boolean(at + 5)?,
        color: SeekColor::from_stored(&row.text_nn(at + 6)?),
        created_at: row.int_nn(at + 7)?,
        expires_at: row.int_nn(at + 8)?,
        client: row.text(at + 9)?,
        id,
    })
}

/// Placeholders `first..first + n` in a backend's syntax (`mark(3)` is
/// `?3` or `$3`), comma-separated.
pub fn placeholders(mark: fn(usize) -> String, first: usize, n: usize) -> String {
    (first..first + n).map(mark).collect::<Vec<_>>().join(", ")
}

/// `col = <placeholder>` for each column, from placeholder `first` on (an
/// upsert's update clause).
pub fn assignments(columns: &str, mark: fn(usize) -> String, first: usize) -> String {
    columns
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(i, c)| format!("{c} = {}", mark(first + i)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_their_columns() {
        let count = |cols: &str| cols.split(',').count();
        assert_eq!(count(ONLINE_COLUMNS), ONLINE_COLUMN_COUNT);
        assert_eq!(count(RECORD_COLUMNS), RECORD_COLUMN_COUNT);
        assert_eq!(
            online_values(&OnlineRecord::default()).len(),
            ONLINE_COLUMN_COUNT
        );
        let q = |i: usize| format!("?{i}");
        assert_eq!(placeholders(q, 2, 3), "?2, ?3, ?4");
        assert_eq!(assignments("a, b", q, 5), "a = ?5, b = ?6");
    }
}
