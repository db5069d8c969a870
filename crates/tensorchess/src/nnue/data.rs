//! The training data file: quiet positions with the search's score and the
//! game's result, compact and appendable game by game (so that `datagen`
//! resumes where it stopped).
//!
//! Layout (little-endian):
//!
//! - header: the magic `TCDATA01`, then the game (`u8`: 0 Tensor Chess,
//!   1 chess, 2 Chessence);
//! - then one block per game: its number (`u32`, from the seed's sequence),
//!   its result (`u8`: 0 Black won, 1 draw, 2 White won), the count of
//!   positions (`u16`), and the positions;
//! - a position: the occupied squares (`u128`, bit = square index of the
//!   game's board), flags (`u8`: bit 0 = Black to move), the hands (`u8`
//!   White's, `u8` Black's), the search's score (`i16`, centipawns from
//!   White's view), then one nibble per occupied square in ascending
//!   order, the piece (`colour × 8 + role`), two to a byte, low nibble
//!   first — 21 bytes plus half a byte per piece.
//!
//! A block cut short (the writer was stopped mid-write) is ignored by the
//! reader, and cut off by a writer that resumes.

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use tensorchess_rules::{Color, Piece, Position, Role, Square, Variant, VariantKind};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TCDATA01";
/// Header bytes: the magic and the game.
const HEADER_BYTES: usize = 9;
/// Block header bytes: number, result, count.
const BLOCK_BYTES: usize = 4 + 1 + 2;
/// Fixed bytes of a position, before its pieces.
const POSITION_BYTES: usize = 16 + 1 + 2 + 2;
/// Most positions one game block holds.
pub const MAX_POSITIONS_PER_GAME: usize = u16::MAX as usize;

/// Why a data file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
    /// Not a data file.
    #[error("{0}: not a tensorchess training data file (bad magic)")]
    BadMagic(String),
    /// A data file of another game.
    #[error("{path}: data for {found}, not {expected}")]
    WrongGame {
        /// The file.
        path: String,
        /// The game asked for.
        expected: VariantKind,
        /// The game the file holds, as its header names it.
        found: String,
    },
    /// A position that cannot be (a piece code beyond the game's board).
    #[error("{path}: corrupt position at byte {offset}")]
    Corrupt {
        /// The file.
        path: String,
        /// Where the bad position starts.
        offset: usize,
    },
}

/// A game's result, White's score: 0, ½ or 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 0.
    BlackWon = 0,
    /// ½.
    Draw = 1,
    /// 1.
    WhiteWon = 2,
}

impl GameResult {
    /// White's score: 0.0, 0.5 or 1.0.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    fn from_code(c: u8) -> Option<GameResult> {
        match c {
            0 => Some(GameResult::BlackWon),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWon),
            _ => None,
        }
    }
}

/// One recorded position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move.
    pub turn: Color,
    /// (square, piece) of every occupied square, ascending.
    pub pieces: Vec<(Square, Piece)>,
    /// Pieces in hand: White's, Black's.
    pub hands: [u8; 2],
    /// The search's score, centipawns from White's view.
    pub score: i16,
}

impl Sample {
    /// The position's sample.
    pub fn of<V: Variant>(pos: &Position<V>, white_score: i16) -> Sample {
        Sample {
            turn: pos.turn(),
            pieces: pos
                .occupied()
                .into_iter()
                .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
                .collect(),
            hands: [pos.hand(Color::White), pos.hand(Color::Black)],
            score: white_score,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        let occupied = self
            .pieces
            .iter()
            .fold(0u128, |o, (sq, _)| o | 1 << sq.index());
        out.extend_from_slice(&occupied.to_le_bytes());
        out.push((self.turn == Color::Black) as u8);
        out.extend_from_slice(&self.hands);
        out.extend_from_slice(&self.score.to_le_bytes());
        for pair in self.pieces.chunks(2) {
            let low = pair[0].1.index() as u8;
            let high = pair.get(1).map_or(0, |(_, p)| p.index() as u8);
            out.push(low | high << 4);
        }
    }

    /// Reads a position at `bytes[at..]`: the sample and the bytes it took,
    /// `Ok(None)` if the bytes end first, `Err(())` if it is corrupt.
    fn read<V: Variant>(bytes: &[u8], at: usize) -> Result<Option<(Sample, usize)>, ()> {
        let Some(fixed) = bytes.get(at..at + POSITION_BYTES) else {
            return Ok(None);
        };
        let occupied = u128::from_le_bytes(fixed[..16].try_into().map_err(|_| ())?);
        let squares = V::GEOMETRY.files as u32 * V::GEOMETRY.ranks as u32;
        if squares < 128 && occupied >> squares != 0 {
            return Err(());
        }
        let n = occupied.count_ones() as usize;
        let len = POSITION_BYTES + n.div_ceil(2);
        let Some(nibbles) = bytes.get(at + POSITION_BYTES..at + len) else {
            return Ok(None);
        };
        let mut pieces = Vec::with_capacity(n);
        let mut bits = occupied;
        let mut i = 0;
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let code = (nibbles[i / 2] >> (4 * (i % 2))) & 15;
            let color = if code >= 8 {
                Color::Black
            } else {
                Color::White
            };
            let role = Role::ALL[(code & 7) as usize];
            if !V::ROLES.contains(&role) {
                return Err(());
            }
            pieces.push((Square::new(sq), Piece::new(color, role)));
            i += 1;
        }
        let sample = Sample {
            turn: if fixed[16] & 1 == 1 {
                Color::Black
            } else {
                Color::White
            },
            pieces,
            hands: [fixed[17], fixed[18]],
            score: i16::from_le_bytes([fixed[19], fixed[20]]),
        };
        Ok(Some((sample, len)))
    }
}

/// A game's positions and result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's number in the seed's sequence.
    pub index: u32,
    /// How it ended.
    pub result: GameResult,
    /// Its recorded positions, in the order played.
    pub samples: Vec<Sample>,
}

impl GameRecord {
    /// Keeps at most `most` of the game's positions, drawn at random
    /// (the same ones for the same `seed` and game) and kept in the order
    /// played. A game whose side could not convert its advantage shuffles
    /// for a hundred plies through nearly the same position; taken whole,
    /// such a game outweighs dozens of others in training.
    pub fn thin(&mut self, most: usize, seed: u64) {
        if self.samples.len() <= most {
            return;
        }
        let mut rng =
            StdRng::seed_from_u64(seed ^ u64::from(self.index).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut kept = rand::seq::index::sample(&mut rng, self.samples.len(), most).into_vec();
        kept.sort_unstable();
        let mut at = kept.into_iter().peekable();
        let mut i = 0;
        self.samples.retain(|_| {
            let keep = at.next_if_eq(&i).is_some();
            i += 1;
            keep
        });
    }
}

/// A data file's complete games, and where the last one ends.
#[derive(Debug)]
pub struct DataFile {
    /// The games, in the file's order.
    pub games: Vec<GameRecord>,
    /// Bytes up to the end of the last complete game.
    pub complete_bytes: u64,
}

/// The code of a game in the header.
fn game_code(game: VariantKind) -> u8 {
    match game {
        VariantKind::Tensor => 0,
        VariantKind::Chess => 1,
        VariantKind::Chessence => 2,
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Reads a data file of game `V` (its complete games; a cut-off last one is left out).
pub fn read_file<V: Variant>(path: &Path) -> Result<DataFile, DataError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io_error(path))?;
    parse::<V>(&bytes, &path.display().to_string())
}

/// Parses a data file's bytes (`name` for messages).
pub fn parse<V: Variant>(bytes: &[u8], name: &str) -> Result<DataFile, DataError> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(DataError::BadMagic(name.to_string()));
    }
    if bytes[8] != game_code(V::KIND) {
        let found = VariantKind::ALL
            .into_iter()
            .find(|&k| game_code(k) == bytes[8])
            .map_or_else(|| format!("unknown game {}", bytes[8]), |k| k.to_string());
        return Err(DataError::WrongGame {
            path: name.to_string(),
            expected: V::KIND,
            found,
        });
    }
    let corrupt = |offset| DataError::Corrupt {
        path: name.to_string(),
        offset,
    };
    let mut games = Vec::new();
    let mut at = HEADER_BYTES;
    'blocks: while let Some(head) = bytes.get(at..at + BLOCK_BYTES) {
        let index = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let result = GameResult::from_code(head[4]).ok_or_else(|| corrupt(at))?;
        let count = u16::from_le_bytes([head[5], head[6]]) as usize;
        let mut pos = at + BLOCK_BYTES;
        let mut samples = Vec::with_capacity(count);
        for _ in 0..count {
            match Sample::read::<V>(bytes, pos) {
                Ok(Some((s, len))) => {
                    samples.push(s);
                    pos += len;
                }
                Ok(None) => break 'blocks,
                Err(()) => return Err(corrupt(pos)),
            }
        }
        games.push(GameRecord {
            index,
            result,
            samples,
        });
        at = pos;
    }
    Ok(DataFile {
        games,
        complete_bytes: at as u64,
    })
}

/// Appends games to a data file.
pub struct DataWriter {
    out: BufWriter<File>,
    path: String,
}

impl DataWriter {
    /// Opens `path` for game `V`: a new file gets its header; an existing
    /// one is checked, cut after its last complete game, and appended to.
    /// Returns the writer and the numbers of the games already there.
    pub fn create_or_resume<V: Variant>(
        path: &Path,
    ) -> Result<(DataWriter, HashSet<u32>), DataError> {
        let mut done = HashSet::new();
        let exists = path.metadata().map(|m| m.len() > 0).unwrap_or(false);
        let file = if exists {
            let data = read_file::<V>(path)?;
            done.extend(data.games.iter().map(|g| g.index));
            let f = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io_error(path))?;
            f.set_len(data.complete_bytes).map_err(io_error(path))?;
            drop(f);
            OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(io_error(path))?
        } else {
            let mut f = File::create(path).map_err(io_error(path))?;
            f.write_all(MAGIC)
                .and_then(|_| f.write_all(&[game_code(V::KIND)]))
                .map_err(io_error(path))?;
            f
        };
        Ok((
            DataWriter {
                out: BufWriter::new(file),
                path: path.display().to_string(),
            },
            done,
        ))
    }

    /// Appends one game (at most [`MAX_POSITIONS_PER_GAME`] positions are kept) and flushes.
    pub fn write_game(&mut self, game: &GameRecord) -> Result<(), DataError> {
        let samples = &game.samples[..game.samples.len().min(MAX_POSITIONS_PER_GAME)];
        let mut bytes = Vec::with_capacity(BLOCK_BYTES + samples.len() * 48);
        bytes.extend_from_slice(&game.index.to_le_bytes());
        bytes.push(game.result as u8);
        bytes.extend_from_slice(&(samples.len() as u16).to_le_bytes());
        for s in samples {
            s.write(&mut bytes);
        }
        let path = self.path.clone();
        self.out
            .write_all(&bytes)
            .and_then(|_| self.out.flush())
            .map_err(|source| DataError::Io { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensorchess_rules::{Chess, Chessence, Tensor};

    fn game<V: Variant>(index: u32, moves: &[&str]) -> GameRecord {
        let mut pos = Position::<V>::new();
        let mut samples = vec![Sample::of(&pos, 12)];
        for (i, m) in moves.iter().enumerate() {
            pos = pos.play(pos.parse_move(m).unwrap());
            samples.push(Sample::of(&pos, -(i as i16) * 7));
        }
        GameRecord {
            index,
            result: GameResult::Draw,
            samples,
        }
    }

    #[test]
    fn thinning_keeps_at_most_so_many_positions_in_order_and_the_same_each_time() {
        let moves = [
            "e2e4", "e7e5", "d2d4", "d7d5", "g1f3", "g8f6", "f1c4", "f8c5",
        ];
        let whole = game::<Chess>(3, &moves);
        let mut thinned = whole.clone();
        thinned.thin(4, 7);
        assert_eq!(thinned.samples.len(), 4);
        let positions: Vec<usize> = thinned
            .samples
            .iter()
            .map(|s| whole.samples.iter().position(|w| w == s).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
        let mut again = whole.clone();
        again.thin(4, 7);
        assert_eq!(again, thinned);
        let mut other_seed = whole.clone();
        other_seed.thin(4, 8);
        assert_eq!(other_seed.samples.len(), 4);
        let mut short = whole.clone();
        short.thin(100, 7);
        assert_eq!(short, whole);
    }

    #[test]
    fn games_read_back_and_a_cut_off_game_is_dropped_then_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.data");
        let a = game::<Tensor>(0, &["e2e4", "e7e5"]);
        let b = GameRecord {
            index: 5,
            result: GameResult::WhiteWon,
            ..game::<Tensor>(5, &["d2d4"])
        };
        let (mut w, done) = DataWriter::create_or_resume::<Tensor>(&path).unwrap();
        assert!(done.is_empty());
        w.write_game(&a).unwrap();
        w.write_game(&b).unwrap();
        drop(w);
        let data = read_file::<Tensor>(&path).unwrap();
        assert_eq!(data.games, vec![a.clone(), b.clone()]);
        // Cut the last game short: it is left out, and a resumed writer drops it.
        let full = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(full - 3).unwrap();
        drop(f);
        assert_eq!(read_file::<Tensor>(&path).unwrap().games, vec![a.clone()]);
        let (mut w, done) = DataWriter::create_or_resume::<Tensor>(&path).unwrap();
        assert_eq!(done, HashSet::from([0]));
        w.write_game(&b).unwrap();
        drop(w);
        assert_eq!(read_file::<Tensor>(&path).unwrap().games, vec![a, b]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), full);
    }

    #[test]
    fn hands_and_the_wrong_game_and_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.data");
        let (mut w, _) = DataWriter::create_or_resume::<Chessence>(&path).unwrap();
        let g = GameRecord {
            index: 1,
            result: GameResult::BlackWon,
            samples: vec![Sample::of(&Position::<Chessence>::new(), 3)],
        };
        w.write_game(&g).unwrap();
        drop(w);
        let back = read_file::<Chessence>(&path).unwrap();
        assert_eq!(back.games, vec![g]);
        assert_eq!(back.games[0].samples[0].hands, [3, 3]);
        assert!(matches!(
            read_file::<Tensor>(&path),
            Err(DataError::WrongGame { .. })
        ));
        assert!(matches!(
            parse::<Tensor>(b"not a data file", "x"),
            Err(DataError::BadMagic(_))
        ));
        // A piece code the game lacks (a white queen in Chessence).
        let mut bytes = std::fs::read(&path).unwrap();
        let first_piece = HEADER_BYTES + BLOCK_BYTES + POSITION_BYTES;
        bytes[first_piece] = (bytes[first_piece] & 0xf0) | Role::Queen.index() as u8;
        assert!(matches!(
            parse::<Chessence>(&bytes, "x"),
            Err(DataError::Corrupt { .. })
        ));
    }
}
