//! The network trainer (`tensorchess train`): samples from data files
//! (`samples`), the network in floating point with its gradient and
//! quantisation (`model`), Adam (`adam`) and the epochs (`trainer`).

pub mod adam;
pub mod model;
pub mod samples;
pub mod trainer;

#[cfg(test)]
mod tests;
