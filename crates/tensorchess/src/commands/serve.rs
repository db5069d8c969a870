//! `tensorchess serve`: the web app.

use crate::cli::CliError;
use clap::Args;

#[derive(Args, Debug, Clone, Default)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
}

pub fn run(_args: &ServeArgs) -> Result<(), CliError> {
    use tensorchess_rules::{Position, Tensor};
    println!(
        "Tensor Chess start position: {}",
        Position::<Tensor>::new().fen()
    );
    println!("The web app is not built yet; try `tensorchess --help`.");
    Ok(())
}
