//! The network in floating point, as the trainer fits it: the engine's
//! architecture (features → hidden, SCReLU on both perspectives, → 1),
//! its gradient, and its quantisation to the engine's integers.

use tensorchess_engine::nnue::{Network, QA, QB};
use tensorchess_rules::VariantKind;

/// Largest magnitude of any weight: the output weights must stay within
/// ±127 once multiplied by `QB`, and the first layer's sums within `i16`.
pub const WEIGHT_CLIP: f32 = 127.0 / QB as f32;

/// The parameters, or a gradient of the same shape.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Neurons of the hidden layer (per side).
    pub hidden: usize,
    /// `features × hidden`, feature-major.
    pub w1: Vec<f32>,
    /// The hidden layer's biases.
    pub b1: Vec<f32>,
    /// `2 × hidden`: the side to move's half, then the other's.
    pub w2: Vec<f32>,
    /// The output's bias.
    pub b2: f32,
}

/// `clamp(x, 0, 1)²`.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The derivative of [`screlu`].
#[inline(always)]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// Scratch space of one forward pass.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
}

impl FloatNet {
    /// All zeros (a gradient's start).
    pub fn zeros(features: usize, hidden: usize) -> FloatNet {
        FloatNet {
            hidden,
            w1: vec![0.0; features * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
        }
    }

    /// Small random weights from `next` (uniform in [-1, 1)).
    pub fn random(features: usize, hidden: usize, mut next: impl FnMut() -> f32) -> FloatNet {
        let mut net = FloatNet::zeros(features, hidden);
        // Some ten to forty pieces are on: keep the sums inside SCReLU's slope.
        net.w1.iter_mut().for_each(|w| *w = next() * 0.05);
        net.b1.iter_mut().for_each(|w| *w = 0.3 + next() * 0.1);
        net.w2
            .iter_mut()
            .for_each(|w| *w = next() / (hidden as f32).sqrt());
        net
    }

    /// The first layer's sums of one perspective.
    fn accumulate(&self, features: &[u16], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(&self.b1);
        let h = self.hidden;
        for &f in features {
            let row = &self.w1[f as usize * h..(f as usize + 1) * h];
            for (a, w) in out.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The raw output (before the sigmoid; times `SCALE` in centipawns).
    pub fn forward(&self, us: &[u16], them: &[u16], scratch: &mut Scratch) -> f32 {
        self.accumulate(us, &mut scratch.us);
        self.accumulate(them, &mut scratch.them);
        let h = self.hidden;
        let mut out = self.b2;
        for i in 0..h {
            out += screlu(scratch.us[i]) * self.w2[i] + screlu(scratch.them[i]) * self.w2[h + i];
        }
        out
    }

    /// Adds `dout` (the loss's derivative by the raw output) times the
    /// output's gradient to `grad`, after a [`FloatNet::forward`] of the
    /// same sample into `scratch`.
    pub fn backward(
        &self,
        us: &[u16],
        them: &[u16],
        scratch: &Scratch,
        dout: f32,
        grad: &mut FloatNet,
    ) {
        let h = self.hidden;
        grad.b2 += dout;
        for (side, (features, acc)) in [(us, &scratch.us), (them, &scratch.them)]
            .into_iter()
            .enumerate()
        {
            let w2 = &self.w2[side * h..(side + 1) * h];
            let g2 = &mut grad.w2[side * h..(side + 1) * h];
            // d out / d acc_i, reused for every feature's row.
            let mut dacc = vec![0.0f32; h];
            for i in 0..h {
                g2[i] += dout * screlu(acc[i]);
                dacc[i] = dout * w2[i] * screlu_slope(acc[i]);
            }
            for (g, d) in grad.b1.iter_mut().zip(&dacc) {
                *g += d;
            }
            for &f in features {
                let row = &mut grad.w1[f as usize * h..(f as usize + 1) * h];
                for (g, d) in row.iter_mut().zip(&dacc) {
                    *g += d;
                }
            }
        }
    }

    /// Adds `other` to these values.
    pub fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
    }

    /// Every parameter, in one order (for the optimiser).
    pub fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
    }

    /// Every parameter, in the order of [`FloatNet::params_mut`].
    pub fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(std::iter::once(&self.b2))
    }

    /// Keeps the weights (not the output bias) within ±[`WEIGHT_CLIP`].
    pub fn clip(&mut self) {
        for w in self
            .w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
        {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The engine's integer network for `game`.
    pub fn quantise(&self, game: VariantKind) -> Network {
        let q = |w: f32, scale: i32, limit: i32| {
            (w * scale as f32)
                .round()
                .clamp(-limit as f32, limit as f32) as i16
        };
        Network {
            game,
            hidden: self.hidden,
            input_weights: self.w1.iter().map(|&w| q(w, QA, i16::MAX as i32)).collect(),
            input_bias: self.b1.iter().map(|&w| q(w, QA, i16::MAX as i32)).collect(),
            output_weights: self.w2.iter().map(|&w| q(w, QB, 127)).collect(),
            output_bias: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}
