//! Matchings in general graphs, the engines under the pairings: who can
//! play whom is a graph, and a round is a matching of it.
//!
//! * [`weighted`]: a matching of maximum total weight (Edmonds' weighted
//!   blossom algorithm), for the arena's minimum-cost pairing.
//! * [`cardinality`]: whether a perfect matching exists (Edmonds' blossom
//!   algorithm), for the Dutch system's completion test.

pub(crate) mod cardinality;
pub(crate) mod weighted;
pub(crate) mod wide;
