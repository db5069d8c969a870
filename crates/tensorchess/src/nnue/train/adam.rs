//! The Adam optimiser (Kingma and Ba), over a flat list of parameters.

use super::model::FloatNet;

/// Decay of the gradient's running mean.
const BETA1: f32 = 0.9;
/// Decay of the squared gradient's running mean.
const BETA2: f32 = 0.999;
/// Keeps the step finite where the gradient has been zero.
const EPSILON: f32 = 1e-8;

/// Adam's running moments for every parameter.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    /// The step size.
    pub rate: f32,
}

impl Adam {
    /// Moments of zero for a network's parameters.
    pub fn new(net: &FloatNet, rate: f32) -> Adam {
        let n = net.params().count();
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
            rate,
        }
    }

    /// One step of `net` against the gradient `grad`.
    pub fn step(&mut self, net: &mut FloatNet, grad: &FloatNet) {
        self.steps += 1;
        let c1 = 1.0 - BETA1.powi(self.steps);
        let c2 = 1.0 - BETA2.powi(self.steps);
        let rate = self.rate * c2.sqrt() / c1;
        for (((p, &g), m), v) in net
            .params_mut()
            .zip(grad.params())
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= rate * *m / (v.sqrt() + EPSILON);
        }
        net.clip();
    }
}
