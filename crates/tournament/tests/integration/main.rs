//! The tournament crate's integration tests, one test program.

mod dutch_oracle;
mod swiss;
