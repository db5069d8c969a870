//! A quantised perspective network and its file format.
//!
//! Architecture: `features → hidden` (one weight row per feature, shared
//! by both perspectives), SCReLU (`clamp(x, 0, 1)²`) on the side to move's
//! accumulator and the other side's, concatenated (`2 × hidden`), `→ 1`.
//! Integers: the first layer in units of [`QA`], the output weights of
//! [`QB`], the output bias of `QA × QB`; the output times [`SCALE`] is the
//! evaluation in centipawns.
//!
//! File (little-endian): the magic `TCNNUE01`, the game (`u8`: 0 Tensor
//! Chess, 1 chess, 2 Chessence), the hidden size (`u16`), the feature
//! count (`u32`), then `i16` input weights (feature-major, `features ×
//! hidden`), `i16` input biases (`hidden`), `i16` output weights (`2 ×
//! hidden`: side to move's half first) and the `i32` output bias.

use super::accumulator::Accumulator;
use super::features::feature_count;
use super::simd::screlu_dot;
use tensorchess_rules::{Variant, VariantKind};

/// The first layer's quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' quantisation: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;
/// The largest network file read (bytes).
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TCNNUE01";
/// Bytes before the weights.
const HEADER_BYTES: usize = 8 + 1 + 2 + 4;

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`].
    #[error("not a tensorchess network (bad magic)")]
    BadMagic,
    /// The file ends before its declared weights do, or goes on after them.
    #[error("network file has {found} bytes, its header promises {expected}")]
    BadLength {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The file is for another game.
    #[error("network is for {found}, not {expected}")]
    WrongGame {
        /// The game asked for.
        expected: VariantKind,
        /// The game of the file (or its unknown code).
        found: String,
    },
    /// The file's feature count is not the game's.
    #[error("network has {found} input features, the game has {expected}")]
    WrongFeatures {
        /// The game's count.
        expected: usize,
        /// The file's count.
        found: usize,
    },
    /// The hidden size is 0 or beyond [`MAX_HIDDEN`].
    #[error("hidden layer of {0} is outside 1..={MAX_HIDDEN}")]
    BadHidden(usize),
    /// An output weight is beyond ±127, which the integer arithmetic needs.
    #[error("output weight {0} is outside -127..=127")]
    BadOutputWeight(i16),
}

/// A quantised network for one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it evaluates.
    pub game: VariantKind,
    /// Neurons of the hidden layer (per perspective).
    pub hidden: usize,
    /// `features × hidden`, feature-major.
    pub input_weights: Vec<i16>,
    /// `hidden`.
    pub input_bias: Vec<i16>,
    /// `2 × hidden`: the side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
    /// In units of `QA × QB`.
    pub output_bias: i32,
}

/// The code of a game in the file.
fn game_code(game: VariantKind) -> u8 {
    match game {
        VariantKind::Tensor => 0,
        VariantKind::Chess => 1,
        VariantKind::Chessence => 2,
    }
}

impl Network {
    /// A network of zeros for game `V` (evaluates everything as 0).
    pub fn zeros<V: Variant>(hidden: usize) -> Network {
        Network {
            game: V::KIND,
            hidden,
            input_weights: vec![0; feature_count::<V>() * hidden],
            input_bias: vec![0; hidden],
            output_weights: vec![0; 2 * hidden],
            output_bias: 0,
        }
    }

    /// The input weights of feature `f`.
    #[inline(always)]
    pub fn feature_row(&self, f: usize) -> &[i16] {
        &self.input_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Reads a network for game `V` from its file's bytes.
    pub fn from_bytes<V: Variant>(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let code = bytes[8];
        if code != game_code(V::KIND) {
            let found = VariantKind::ALL
                .into_iter()
                .find(|&k| game_code(k) == code)
                .map_or_else(|| format!("unknown game {code}"), |k| k.to_string());
            return Err(NetworkError::WrongGame {
                expected: V::KIND,
                found,
            });
        }
        let hidden = u16::from_le_bytes([bytes[9], bytes[10]]) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::BadHidden(hidden));
        }
        let features = u32::from_le_bytes([bytes[11], bytes[12], bytes[13], bytes[14]]) as usize;
        if features != feature_count::<V>() {
            return Err(NetworkError::WrongFeatures {
                expected: feature_count::<V>(),
                found: features,
            });
        }
        let weights = features * hidden + hidden + 2 * hidden;
        let expected = HEADER_BYTES + 2 * weights + 4;
        if bytes.len() != expected {
            return Err(NetworkError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let mut words = bytes[HEADER_BYTES..HEADER_BYTES + 2 * weights]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let input_weights: Vec<i16> = words.by_ref().take(features * hidden).collect();
        let input_bias: Vec<i16> = words.by_ref().take(hidden).collect();
        let output_weights: Vec<i16> = words.collect();
        if let Some(&w) = output_weights.iter().find(|w| w.abs() > 127) {
            return Err(NetworkError::BadOutputWeight(w));
        }
        let tail = &bytes[expected - 4..];
        Ok(Network {
            game: V::KIND,
            hidden,
            input_weights,
            input_bias,
            output_weights,
            output_bias: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + 2 * self.input_weights.len() + 4096);
        out.extend_from_slice(MAGIC);
        out.push(game_code(self.game));
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        let features = self.input_weights.len() / self.hidden.max(1);
        out.extend_from_slice(&(features as u32).to_le_bytes());
        for w in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The evaluation in centipawns from the side to move's view, given the
    /// side to move's accumulator and the other side's.
    #[inline]
    pub fn output(&self, us: &Accumulator, them: &Accumulator) -> i32 {
        let h = self.hidden;
        let sum = screlu_dot(&us.values, &self.output_weights[..h])
            + screlu_dot(&them.values, &self.output_weights[h..]);
        let out = sum / QA as i64 + self.output_bias as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }
}
