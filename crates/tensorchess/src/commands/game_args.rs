//! Arguments several commands share: the game, and the position to start from.

use super::error::CliError;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::Args;
use std::ffi::OsStr;
use tensorchess_rules::{Position, Variant, VariantKind};

/// Parses `--variant` straight into a [`VariantKind`], as the rules read
/// game names (any case, `standard` for chess), and lists the games in
/// `--help`. An unknown name is reported in the rules' words
/// (`unknown variant 'shogi' (expected tensor, chess or chessence)`), the
/// line other tools look for.
#[derive(Clone, Copy, Debug, Default)]
pub struct VariantParser;

impl TypedValueParser for VariantParser {
    type Value = VariantKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<VariantKind, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<VariantKind>()
            .map_err(|e| clap::Error::raw(ErrorKind::InvalidValue, format!("{e}\n")).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            VariantKind::ALL
                .into_iter()
                .map(|k| PossibleValue::new(k.name())),
        ))
    }
}

/// The game and the position to start from.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game.
    #[arg(long, default_value = "tensor", value_parser = VariantParser)]
    pub variant: VariantKind,
    /// Start from this FEN instead of the game's start position.
    #[arg(long)]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The position named by `--fen`, or the game's start.
    pub fn start_position<V: Variant>(&self) -> Result<Position<V>, CliError> {
        match &self.fen {
            Some(fen) => Position::from_fen(fen).map_err(|e| CliError(e.to_string())),
            None => Ok(Position::new()),
        }
    }
}
