//! Challenges: one player invites a named other to a game (a time
//! control, days per move for correspondence, or none; rated or not; a
//! colour). The invited player accepts (the game is made in the same
//! write) or declines; the challenger may cancel; an open challenge
//! expires.

use crate::columns::parse_variant;
use crate::rows::{Row, Value};
use crate::{ClockSettings, SeekColor, StoreError};
use tensorchess_rules::VariantKind;

/// Where a challenge stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeState {
    /// Waiting for an answer.
    Open,
    /// Accepted: game `game` was made.
    Accepted {
        /// The game's id.
        game: String,
    },
    /// Declined, maybe with a reason.
    Declined {
        /// The reason the invited player gave.
        reason: Option<String>,
    },
    /// Withdrawn by the challenger.
    Canceled,
    /// Nobody answered in time (or the challenger left, for a real-time one).
    Expired,
}

impl ChallengeState {
    /// Its stored word.
    pub fn as_str(&self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted { .. } => "accepted",
            ChallengeState::Declined { .. } => "declined",
            ChallengeState::Canceled => "canceled",
            ChallengeState::Expired => "expired",
        }
    }
}

/// A stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    /// Its id.
    pub id: String,
    /// Who challenges (player id).
    pub challenger: String,
    /// Who is challenged (player id of an account).
    pub challenged: String,
    /// The game.
    pub variant: VariantKind,
    /// A real-time clock, if any.
    pub clock: Option<ClockSettings>,
    /// Days per move (correspondence), if any.
    pub days: Option<u32>,
    /// Whether the game is rated.
    pub rated: bool,
    /// The challenger's colour.
    pub color: SeekColor,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it expires unless answered (ms).
    pub expires_at: i64,
    /// Where it stands.
    pub state: ChallengeState,
    /// The key of the client address it came from (open challenges are
    /// capped per address).
    pub client: Option<String>,
}

/// The columns of a challenge, in [`challenge_values`]' order.
pub const CHALLENGE_COLUMNS: &str = "id, challenger, challenged, variant, clock_base_ms, \
     clock_inc_ms, days, rated, color, created_at, expires_at, state, game_id, reason, client";

/// A challenge's values, in [`CHALLENGE_COLUMNS`]' order.
pub fn challenge_values(c: &ChallengeRecord) -> Vec<Value> {
    let (game, reason) = match &c.state {
        ChallengeState::Accepted { game } => (Some(game.clone()), None),
        ChallengeState::Declined { reason } => (None, reason.clone()),
        _ => (None, None),
    };
    vec![
        Value::Text(Some(c.id.clone())),
        Value::Text(Some(c.challenger.clone())),
        Value::Text(Some(c.challenged.clone())),
        Value::Text(Some(c.variant.name().to_string())),
        Value::Int(c.clock.map(|k| k.base_ms)),
        Value::Int(c.clock.map(|k| k.increment_ms)),
        Value::Int(c.days.map(i64::from)),
        Value::Bool(c.rated),
        Value::Text(Some(c.color.as_str().to_string())),
        Value::Int(Some(c.created_at)),
        Value::Int(Some(c.expires_at)),
        Value::Text(Some(c.state.as_str().to_string())),
        Value::Text(game),
        Value::Text(reason),
        Value::Text(c.client.clone()),
    ]
}

/// A challenge from a row whose columns start at `at`.
pub fn read_challenge(row: &impl Row, at: usize) -> Result<ChallengeRecord, StoreError> {
    let id = row.text_nn(at)?;
    let variant = parse_variant(&id, &row.text_nn(at + 3)?)?;
    let base = row.int(at + 4)?;
    let increment = row.int(at + 5)?;
    let color = SeekColor::from_stored(&row.text_nn(at + 8)?);
    let state = match row.text_nn(at + 11)?.as_str() {
        "open" => ChallengeState::Open,
        "accepted" => ChallengeState::Accepted {
            game: row.text(at + 12)?.unwrap_or_default(),
        },
        "declined" => ChallengeState::Declined {
            reason: row.text(at + 13)?,
        },
        "canceled" => ChallengeState::Canceled,
        _ => ChallengeState::Expired,
    };
    Ok(ChallengeRecord {
        challenger: row.text_nn(at + 1)?,
        challenged: row.text_nn(at + 2)?,
        variant,
        clock: base.map(|base_ms| ClockSettings {
            base_ms,
            increment_ms: increment.unwrap_or(0),
        }),
        days: row
            .int(at + 6)?
            .map(|d| d.clamp(0, i64::from(u32::MAX)) as u32),
        rated: row.boolean(at + 7)?,
        color,
        created_at: row.int_nn(at + 9)?,
        expires_at: row.int_nn(at + 10)?,
        state,
        client: row.text(at + 14)?,
        id,
    })
}
