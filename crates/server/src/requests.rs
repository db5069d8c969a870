//! Request types: what pages send to the API and the WebSocket.

use crate::store::SeekColor;
use crate::views::ActionName;
use serde::{Deserialize, Deserializer};
use tensorchess_rules::{Color, VariantKind};

/// A colour asked for: `white`, `black`, or `random` (drawn when the game
/// is made). Anything else is refused with the words a player reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ColorChoice(pub SeekColor);

impl<'de> Deserialize<'de> for ColorChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        match word.as_str() {
            "white" => Ok(ColorChoice(SeekColor::White)),
            "black" => Ok(ColorChoice(SeekColor::Black)),
            "random" => Ok(ColorChoice(SeekColor::Random)),
            other => Err(serde::de::Error::custom(format!(
                "Unknown colour '{}': expected white, black or random",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

impl ColorChoice {
    /// White.
    pub const WHITE: ColorChoice = ColorChoice(SeekColor::White);
    /// Random.
    pub const RANDOM: ColorChoice = ColorChoice(SeekColor::Random);

    /// The colour itself, a random one drawn now.
    pub fn draw(self) -> Color {
        draw_color(self.0)
    }
}

/// Reads a game's name as the rules crate does (`tensor`, `chess` or
/// `chessence`, any case; `standard` is chess).
fn variant_name<'de, D: Deserializer<'de>>(d: D) -> Result<VariantKind, D::Error> {
    let word = String::deserialize(d)?;
    word.parse::<VariantKind>().map_err(|e| {
        let text = e.to_string();
        let mut chars = text.chars();
        let capital = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default();
        serde::de::Error::custom(capital)
    })
}

/// [`variant_name`] of a field that may be absent or `null`.
pub(crate) fn optional_variant<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<VariantKind>, D::Error> {
    #[derive(Deserialize)]
    struct Name(#[serde(deserialize_with = "variant_name")] VariantKind);
    Ok(Option::<Name>::deserialize(d)?.map(|n| n.0))
}

/// A yes-or-no of a query string as lichess's clients write it: `true` or
/// `false` in any case (Python's `True` reaches us as written), `1` or `0`.
pub(crate) fn optional_flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let Some(word) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    match word.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Ok(Some(true)),
        "false" | "0" | "no" => Ok(Some(false)),
        _ => Err(serde::de::Error::custom(format!(
            "'{}' is not a yes or no: expected true or false",
            word.chars().take(20).collect::<String>()
        ))),
    }
}

/// What kind of local game `POST /api/games` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalMode {
    /// Against the engine.
    Engine,
    /// Two people on one device.
    Local,
}

impl<'de> Deserialize<'de> for LocalMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        match word.as_str() {
            "engine" => Ok(LocalMode::Engine),
            "local" => Ok(LocalMode::Local),
            "online" => Err(serde::de::Error::custom(
                "Online games are created with POST /api/online",
            )),
            other => Err(serde::de::Error::custom(format!(
                "Unknown mode '{}': expected engine or local",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

/// `POST /api/games`: a new game, from the start, a FEN or a PGN.
#[derive(Deserialize, Debug, Default, Clone)]
pub struct NewGameRequest {
    /// `tensor` (default), `chess` or `chessence`. A PGN's `Variant` tag wins.
    #[serde(default, deserialize_with = "optional_variant")]
    pub variant: Option<VariantKind>,
    /// `engine` (default) or `local` (two players on one device).
    pub mode: Option<LocalMode>,
    /// The person's colour against the engine: `white` (default), `black` or `random`.
    pub color: Option<ColorChoice>,
    /// The engine's level, 1..=6 (default 3).
    pub level: Option<u8>,
    /// Start from this position.
    pub fen: Option<String>,
    /// Import this game (its moves are played; the game goes on from its end).
    pub pgn: Option<String>,
}

/// `POST /api/account/register` and `/login`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct AccountRequest {
    /// The account's user name (letters, digits, `_` and `-`).
    pub username: String,
    /// The password, as typed.
    pub password: String,
}

/// `POST /api/account/password`: the old password and the new one.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    /// The password now, as typed.
    pub old: String,
    /// The password to use from now on.
    pub new: String,
}

/// `GET /api/player/autocomplete?term=`: the start of a user name.
#[derive(Deserialize, Debug, Clone)]
pub struct SearchQuery {
    /// What the name starts with.
    #[serde(default)]
    pub term: String,
}

/// `PATCH /api/me`: a new display name.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct RenameRequest {
    /// The name to show over the board and in the lobby.
    pub name: String,
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize, Debug, Clone)]
pub struct MoveRequest {
    /// A move string (RULES 4.2) or SAN.
    #[serde(rename = "move")]
    pub mv: String,
    /// The number of moves the page saw on the board; a different number means
    /// the page is stale and the move is refused.
    pub ply: Option<usize>,
}

/// `POST /api/position`: the legal moves of any position, optionally after a move.
#[derive(Deserialize, Debug, Clone)]
pub struct PositionRequest {
    /// `tensor`, `chess` or `chessence`.
    #[serde(deserialize_with = "variant_name")]
    pub variant: VariantKind,
    /// The game's start position when absent.
    pub fen: Option<String>,
    /// Moves played from `fen` first (so that repetitions count).
    #[serde(default)]
    pub moves: Vec<String>,
    /// A move (a move string or SAN) to play and show, with its path.
    #[serde(rename = "move")]
    pub mv: Option<String>,
}

/// `POST /api/explain`: is this move legal here, and if not, why?
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ExplainRequest {
    /// `tensor`, `chess` or `chessence`.
    #[serde(deserialize_with = "variant_name")]
    pub variant: VariantKind,
    /// The game's start position when absent.
    pub fen: Option<String>,
    /// The move to judge: a move string (RULES 4.2) or SAN.
    #[serde(rename = "move")]
    pub mv: String,
}

/// `GET /api/games/{id}/eval?ply=N`.
#[derive(Deserialize, Debug, Clone, Default)]
pub struct EvalQuery {
    /// Evaluate the position after this many moves (default: now).
    pub ply: Option<usize>,
}

/// `POST /api/online`: a game against a friend, who joins through a link.
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct NewOnlineRequest {
    /// `tensor` (default), `chess` or `chessence`.
    #[serde(default, deserialize_with = "optional_variant")]
    pub variant: Option<VariantKind>,
    /// The creator's colour: `white` (default), `black` or `random`.
    pub color: Option<ColorChoice>,
    /// The time control; absent or `null`: no clock.
    pub clock: Option<ClockRequest>,
}

/// `POST /api/seeks`: an open invitation to play, in the lobby.
#[derive(Deserialize, Debug, Clone, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// `tensor`, `chess` or `chessence`.
    #[serde(deserialize_with = "variant_name")]
    pub variant: VariantKind,
    /// The time control; `null`: no clock.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub clock: Option<ClockRequest>,
    /// Changes both players' ratings (both need an account).
    #[serde(default)]
    pub rated: bool,
    /// The creator's colour: `white`, `black` or `random` (default).
    #[serde(default)]
    #[ts(optional = nullable)]
    pub color: Option<ColorChoice>,
}

/// `POST /api/seeks/{id}/accept`: an empty JSON object.
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {}

/// `GET /api/games?limit=N&cursor=C`.
#[derive(Deserialize, Debug, Clone, Default)]
pub struct GamesQuery {
    /// At most 100 (default 50).
    pub limit: Option<usize>,
    /// The `next` of the page before.
    pub cursor: Option<String>,
}

/// `POST /api/games/{id}/join`: an empty JSON object. (A JSON body cannot
/// be sent by another site's form, so no page elsewhere can make a visitor
/// take a seat.)
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {}

/// A time control: minutes are not enough for tests and bullet, so seconds.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Time for the whole game, in seconds (1 to 10800).
    pub base_seconds: u32,
    /// Time added after each move, in seconds (0 to 180).
    #[serde(default)]
    pub increment_seconds: u32,
}

/// What a player of an online game does (`POST /api/games/{id}/act`, or a
/// WebSocket message with `game` and an optional `req` number besides).
#[derive(Deserialize, Debug, Clone, PartialEq, Eq, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OnlineAction {
    /// A move, with the number of moves the player saw on the board: any
    /// other number means the player's page is stale, and the move is refused.
    Move {
        /// A move string (RULES 4.2) or SAN.
        #[serde(rename = "move")]
        mv: String,
        /// Moves on the player's board before this one.
        ply: usize,
    },
    /// Gives the game up.
    Resign,
    /// Offers a draw (once per move), or accepts the opponent's offer.
    OfferDraw,
    /// Accepts the opponent's draw offer.
    AcceptDraw,
    /// Declines the opponent's draw offer.
    DeclineDraw,
    /// Ends the game without a result, before both sides have moved.
    Abort,
    /// Wins a game the opponent has left (gone for
    /// [`CLAIM_WIN_AFTER_MS`](crate::round::online::CLAIM_WIN_AFTER_MS)).
    ClaimVictory,
    /// Offers a rematch (colours swapped), or accepts the opponent's offer.
    Rematch,
    /// Declines the opponent's rematch offer.
    DeclineRematch,
    /// Berserks (an arena game): half one's time, no increment.
    Berserk,
}

impl OnlineAction {
    /// The action's `type`, as requests write it (and acknowledgements
    /// name it).
    pub fn name(&self) -> ActionName {
        match self {
            OnlineAction::Move { .. } => ActionName::Move,
            OnlineAction::Resign => ActionName::Resign,
            OnlineAction::OfferDraw => ActionName::OfferDraw,
            OnlineAction::AcceptDraw => ActionName::AcceptDraw,
            OnlineAction::DeclineDraw => ActionName::DeclineDraw,
            OnlineAction::Abort => ActionName::Abort,
            OnlineAction::ClaimVictory => ActionName::ClaimVictory,
            OnlineAction::Rematch => ActionName::Rematch,
            OnlineAction::DeclineRematch => ActionName::DeclineRematch,
            OnlineAction::Berserk => ActionName::Berserk,
        }
    }
}

/// Messages a WebSocket client sends.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Receive a topic's events, starting with a snapshot (`game:ID`).
    Subscribe {
        /// `game:ID`, or `lobby`.
        topic: String,
    },
    /// Stop receiving a topic's events.
    Unsubscribe {
        /// A topic subscribed to before.
        topic: String,
    },
    /// Asks for a `pong` (keeps the connection alive through proxies).
    Ping,
    /// An online action on a game, by the seat this connection's cookies
    /// hold: [`OnlineAction::Move`]. In every action, `game` is the game's
    /// id and `req` the client's own number for the request, sent back in
    /// the `ack` or `refused` answer.
    Move {
        /// The game's id.
        game: String,
        /// A move string (RULES 4.2) or SAN.
        #[serde(rename = "move")]
        mv: String,
        /// Moves on the player's board before this one.
        ply: usize,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::Resign`].
    Resign {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::OfferDraw`].
    OfferDraw {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::AcceptDraw`].
    AcceptDraw {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::DeclineDraw`].
    DeclineDraw {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::Abort`].
    Abort {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::Rematch`].
    Rematch {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// [`OnlineAction::DeclineRematch`].
    DeclineRematch {
        /// The game's id.
        game: String,
        /// The client's number for the request.
        req: Option<u64>,
    },
    /// Analyse the position after `moves` from `fen` (docs/analysis.md);
    /// replaces this connection's analysis.
    Analyse {
        /// The client's number for the analysis, in every `analysis` answer.
        id: u64,
        /// `tensor`, `chess` or `chessence`.
        variant: String,
        /// The game's start position when absent.
        fen: Option<String>,
        /// Moves played from `fen` first (move strings or SAN).
        #[serde(default)]
        moves: Vec<String>,
        /// Lines to find, 1 to 5 (default 1).
        multipv: Option<usize>,
    },
    /// Stop analysis `id` (if it is this connection's).
    AnalyseStop {
        /// The number the analysis was started with.
        id: u64,
    },
}

impl ClientMessage {
    /// The online action a message asks for: the game, the request number
    /// and the action.
    pub fn action(self) -> Result<(String, Option<u64>, OnlineAction), ClientMessage> {
        Ok(match self {
            ClientMessage::Move { game, mv, ply, req } => {
                (game, req, OnlineAction::Move { mv, ply })
            }
            ClientMessage::Resign { game, req } => (game, req, OnlineAction::Resign),
            ClientMessage::OfferDraw { game, req } => (game, req, OnlineAction::OfferDraw),
            ClientMessage::AcceptDraw { game, req } => (game, req, OnlineAction::AcceptDraw),
            ClientMessage::DeclineDraw { game, req } => (game, req, OnlineAction::DeclineDraw),
            ClientMessage::Abort { game, req } => (game, req, OnlineAction::Abort),
            ClientMessage::Rematch { game, req } => (game, req, OnlineAction::Rematch),
            ClientMessage::DeclineRematch { game, req } => {
                (game, req, OnlineAction::DeclineRematch)
            }
            other => return Err(other),
        })
    }
}

/// The colour `wanted` gives its maker (random: drawn now).
pub fn draw_color(wanted: SeekColor) -> Color {
    match wanted {
        SeekColor::White => Color::White,
        SeekColor::Black => Color::Black,
        SeekColor::Random => {
            if rand::Rng::random_bool(&mut rand::rng(), 0.5) {
                Color::White
            } else {
                Color::Black
            }
        }
    }
}
