//! Fitting a [`FloatNet`] to samples: mini-batches, the gradient of each
//! computed on several threads, Adam, and the loss on held-out samples
//! after every epoch.
//!
//! The loss of a sample is `(sigmoid(output) − target)²`.

use super::adam::Adam;
use super::model::{FloatNet, Scratch};
use super::samples::{sigmoid, SampleSet};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Neurons of the hidden layer (per side).
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// The step size is multiplied by this after each epoch.
    pub rate_decay: f32,
    /// Threads computing a batch's gradient.
    pub threads: usize,
    /// The seed of the initial weights and the samples' order.
    pub seed: u64,
}

/// One epoch's losses.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Its number, from 1.
    pub epoch: usize,
    /// The mean loss on the training samples.
    pub train_loss: f32,
    /// On the held-out samples (`NaN` without any).
    pub validation_loss: f32,
}

/// The loss of `net` and, into `grad` when given, its gradient summed
/// over the samples `indices` of `set`.
fn loss_and_gradient(
    net: &FloatNet,
    set: &SampleSet,
    indices: &[usize],
    mut grad: Option<&mut FloatNet>,
) -> f64 {
    let mut scratch = Scratch::default();
    let mut loss = 0.0f64;
    for &i in indices {
        let (us, them) = set.features(i);
        let p = sigmoid(net.forward(us, them, &mut scratch));
        let err = p - set.targets[i];
        loss += (err * err) as f64;
        if let Some(g) = grad.as_deref_mut() {
            net.backward(us, them, &scratch, 2.0 * err * p * (1.0 - p), g);
        }
    }
    loss
}

/// The mean loss of `net` over `set`, on `threads` threads.
pub fn mean_loss(net: &FloatNet, set: &SampleSet, threads: usize) -> f32 {
    if set.is_empty() {
        return f32::NAN;
    }
    let indices: Vec<usize> = (0..set.len()).collect();
    let chunk = indices.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = indices
            .chunks(chunk)
            .map(|part| scope.spawn(move || loss_and_gradient(net, set, part, None)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    (total / set.len() as f64) as f32
}

/// Trains a network of `features` inputs on `train`, reporting each epoch
/// (with the loss on `validation`) to `on_epoch`.
pub fn train(
    features: usize,
    train: &SampleSet,
    validation: &SampleSet,
    cfg: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport),
) -> FloatNet {
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut net = FloatNet::random(features, cfg.hidden, || rng.random_range(-1.0..1.0));
    let mut adam = Adam::new(&net, cfg.rate);
    let threads = cfg.threads.max(1);
    let mut grads = vec![FloatNet::zeros(features, cfg.hidden); threads];
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let mut total = 0.0f64;
        for batch in order.chunks(cfg.batch.max(1)) {
            let chunk = batch.len().div_ceil(threads);
            let net_ref = &net;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(part, grad)| {
                        scope.spawn(move || {
                            grad.params_mut().for_each(|g| *g = 0.0);
                            loss_and_gradient(net_ref, train, part, Some(grad))
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            total += losses.iter().sum::<f64>();
            let used = losses.len();
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                first[0].add(g);
            }
            let scale = 1.0 / batch.len() as f32;
            first[0].params_mut().for_each(|g| *g *= scale);
            adam.step(&mut net, &first[0]);
        }
        on_epoch(&EpochReport {
            epoch,
            train_loss: (total / train.len().max(1) as f64) as f32,
            validation_loss: mean_loss(&net, validation, threads),
        });
        adam.rate *= cfg.rate_decay;
    }
    net
}
