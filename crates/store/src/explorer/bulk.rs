//! Many games counted at once (a rebuild's chunk): the rows one game at a
//! time would write ([`count_values`](super::count_values),
//! [`position_values`](super::position_values),
//! [`top_values`](super::top_values)) summed in memory first, one row per
//! key, in the order of the keys; and the SQL that reads the games a
//! rebuild counts, page by page.
//!
//! Both backends write a chunk's rows with the upserts that add
//! ([`count_upsert`](super::count_upsert)), so a chunk added to rows
//! already there leaves what adding its games one by one would have left.

use super::{band_of, game_counts, stored_hash, ExplorerGame, EXPLORER_PLIES, TOP_GAMES};
use crate::rows::{
    prefixed_record_columns, read_online, read_record, Row, Value, ONLINE_COLUMNS,
    RECORD_COLUMN_COUNT,
};
use crate::{StoreError, StoredGame, StoredMove};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A row of `explorer_moves`' key: variant, hash, move, rated, speed, band.
pub type CountKey = (&'static str, i64, String, i32, i32, i32);

/// The counts of a row (white, draws, black, rating_sum, rating_games).
pub type Counts = [i64; 5];

/// A bucket of `explorer_top`: variant, hash, rated, speed, band.
pub type TopKey = (&'static str, i64, i32, i32, i32);

/// The rows many games add, summed: what [`ExplorerGame`]s counted one at
/// a time would write, one row per key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorerChunk {
    /// Each `explorer_moves` row's counts, to be added to the row's.
    pub counts: BTreeMap<CountKey, Counts>,
    /// The `explorer_positions` rows: variant, hash, game.
    pub positions: BTreeSet<(&'static str, i64, String)>,
    /// Each `explorer_top` bucket's best games among these (rating, game),
    /// best first: [`TOP_GAMES`] of them, more when ratings tie (the best
    /// of a bucket are among the best of each part of it).
    pub tops: BTreeMap<TopKey, Vec<(i32, String)>>,
}

impl ExplorerChunk {
    /// The rows of `games`, summed.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a ExplorerGame>) -> ExplorerChunk {
        let mut chunk = ExplorerChunk::default();
        for game in games {
            chunk.add(game);
        }
        for best in chunk.tops.values_mut() {
            keep_best(best);
        }
        chunk
    }

    fn add(&mut self, game: &ExplorerGame) {
        let variant = game.variant.name();
        let (w, d, b, sum, n) = game_counts(game);
        let rated = i32::from(game.rated);
        let speed = game.speed.index() as i32;
        let average = game.average_rating();
        let band = band_of(average) as i32;
        let steps = game.counted_steps();
        let mut hashes = HashSet::new();
        for step in &steps {
            let hash = stored_hash(step.hash);
            let key = (variant, hash, step.uci.clone(), rated, speed, band);
            let c = self.counts.entry(key).or_default();
            for (total, add) in c.iter_mut().zip([w, d, b, sum, n]) {
                *total += add;
            }
            hashes.insert(hash);
        }
        if let Some(avg) = average {
            for &hash in &hashes {
                let best = self
                    .tops
                    .entry((variant, hash, rated, speed, band))
                    .or_default();
                best.push((avg, game.id.clone()));
                if best.len() > 4 * TOP_GAMES {
                    keep_best(best);
                }
            }
        }
        hashes.insert(stored_hash(game.after));
        for hash in hashes {
            self.positions.insert((variant, hash, game.id.clone()));
        }
    }

    /// The parameters of [`count_sql`](super::count_sql) for each row, in
    /// the order of their keys.
    pub fn count_values(&self) -> impl Iterator<Item = Vec<Value>> + '_ {
        self.counts.iter().map(|((v, h, uci, r, s, b), c)| {
            let mut row = vec![
                Value::Text(Some(v.to_string())),
                Value::Int(Some(*h)),
                Value::Text(Some(uci.clone())),
                Value::Int32(Some(*r)),
                Value::Int32(Some(*s)),
                Value::Int32(Some(*b)),
            ];
            row.extend(c.iter().map(|&n| Value::Int(Some(n))));
            row
        })
    }

    /// The parameters of [`position_sql`](super::position_sql) for each
    /// row, in the order of their keys.
    pub fn position_values(&self) -> impl Iterator<Item = Vec<Value>> + '_ {
        self.positions.iter().map(|(v, h, id)| {
            vec![
                Value::Text(Some(v.to_string())),
                Value::Int(Some(*h)),
                Value::Text(Some(id.clone())),
            ]
        })
    }

    /// The parameters of [`top_sql`](super::top_sql)'s insert for each
    /// game named in a bucket, in the order of the buckets (its first five
    /// are the bucket, the trim's parameters).
    pub fn top_values(&self) -> impl Iterator<Item = Vec<Value>> + '_ {
        self.tops.iter().flat_map(|((v, h, r, s, b), best)| {
            best.iter().map(move |(rating, id)| {
                vec![
                    Value::Text(Some(v.to_string())),
                    Value::Int(Some(*h)),
                    Value::Int32(Some(*r)),
                    Value::Int32(Some(*s)),
                    Value::Int32(Some(*b)),
                    Value::Int32(Some(*rating)),
                    Value::Text(Some(id.clone())),
                ]
            })
        })
    }
}

/// The best [`TOP_GAMES`] of a bucket's candidates, best first, and those
/// rated as the last of them (the database breaks ties by id in its own
/// collation: [`top_sql`](super::top_sql)'s trim keeps the right ones).
fn keep_best(best: &mut Vec<(i32, String)>) {
    best.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    if let Some(&(last, _)) = best.get(TOP_GAMES - 1) {
        best.retain(|&(rating, _)| rating >= last);
    }
}

/// The finished online games after an id, in id order (parameters: the id
/// after which to start, `''` for the first page; the limit): the record's
/// columns, then the online state's.
pub fn finished_games_sql(mark: fn(usize) -> String) -> String {
    let online: Vec<String> = ONLINE_COLUMNS
        .split(", ")
        .map(|c| format!("o.{}", c.trim()))
        .collect();
    format!(
        "SELECT {}, {} FROM games g JOIN online_games o ON o.game_id = g.id \
         WHERE g.mode = 'online' AND g.result <> '*' AND g.id > {} ORDER BY g.id LIMIT {}",
        prefixed_record_columns(),
        online.join(", "),
        mark(1),
        mark(2)
    )
}

/// The first moves of the games whose ids lie between two (parameters:
/// the first id, the last): game_id, ply, uci, san, by game and ply; only
/// the plies the explorer counts.
pub fn first_moves_sql(mark: fn(usize) -> String) -> String {
    format!(
        "SELECT game_id, ply, uci, san FROM moves WHERE game_id >= {} AND game_id <= {} \
         AND ply < {EXPLORER_PLIES} ORDER BY game_id, ply",
        mark(1),
        mark(2)
    )
}

/// A row of [`finished_games_sql`]: the record and its online state.
pub fn read_finished_game(row: &impl Row) -> Result<StoredGame, StoreError> {
    Ok(StoredGame {
        record: read_record(row, 0)?,
        online: Some(read_online(row, RECORD_COLUMN_COUNT)?),
        moves: Vec::new(),
    })
}

/// A row of [`first_moves_sql`]: the game's id and the move.
pub fn read_first_move(row: &impl Row) -> Result<(String, StoredMove), StoreError> {
    Ok((
        row.text_nn(0)?,
        StoredMove {
            ply: row.int_nn(1)?.max(0) as usize,
            uci: row.text_nn(2)?,
            san: row.text_nn(3)?,
        },
    ))
}

/// The games of a page given their first moves (in the order of their
/// plies); moves of other games are left out.
pub fn with_first_moves(
    mut games: Vec<StoredGame>,
    moves: impl IntoIterator<Item = (String, StoredMove)>,
) -> Vec<StoredGame> {
    let at: HashMap<String, usize> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.record.id.clone(), i))
        .collect();
    for (id, mv) in moves {
        if let Some(&i) = at.get(&id) {
            games[i].moves.push(mv);
        }
    }
    games
}
