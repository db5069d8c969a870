//! `GET /api/games` and `GET /api/correspondence`: lists of games.

use crate::round::games::{CorrespondenceGame, GamePage};
use crate::store::{GameMode, GameRecord, GameSummary};
use serde::Serialize;
use tensorchess_rules::{Color, VariantGame};

/// A line of the saved-games list.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GameSummaryView {
    /// The game's id, as in its URL.
    pub id: String,
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The game's name for people.
    #[ts(type = "string")]
    pub variant_title: crate::views::words::VariantTitle,
    /// `engine`, `local` or `online`.
    pub mode: crate::store::GameMode,
    /// The person's colour against the engine.
    pub human_color: Option<Color>,
    /// The engine's level, 1..=6 (engine games only).
    pub level: Option<u8>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's account (its username, for a link to the profile); `null`
    /// for a guest, and off line.
    pub white_account: Option<String>,
    /// Black's account.
    pub black_account: Option<String>,
    /// `BOT` when White's player is a bot account.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub white_title: Option<crate::views::Title>,
    /// `BOT` when Black's player is a bot account.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub black_title: Option<crate::views::Title>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on (and for an
    /// aborted game).
    pub result: String,
    /// How the game ended, as stored (`checkmate`, `resignation`,
    /// `aborted`, ...); `null` while it goes on.
    pub end_reason: Option<String>,
    /// The game is over.
    pub finished: bool,
    /// Half-moves (plies) played.
    pub move_count: usize,
    /// Moves, as players count them (a move of each side is one).
    pub moves: usize,
    /// When the game was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it last changed, in milliseconds since the Unix epoch (the
    /// list's order).
    pub updated_at: i64,
    /// The side to move while the game goes on (`white`, `black`); `null`
    /// once it is over.
    pub to_move: Option<tensorchess_rules::Color>,
    /// The asker's side (their own list: against the engine, or a seat of
    /// an online game); `null` in another player's list and on one device.
    pub you: Option<tensorchess_rules::Color>,
    /// The game waits for the asker's move.
    pub your_turn: bool,
    /// A correspondence game's days a move (`null`: not correspondence).
    pub days: Option<u32>,
}

/// The side to move of a game going on after `plies`: its start's side,
/// turned at every ply. `None` once it is over (or for a start this
/// program cannot read, which the game page reports).
fn to_move(r: &GameRecord, plies: usize) -> Option<Color> {
    if r.ending.is_some() {
        return None;
    }
    let start = VariantGame::from_fen(r.variant, &r.start_fen).ok()?.turn();
    Some(if plies.is_multiple_of(2) {
        start
    } else {
        !start
    })
}

impl GameSummaryView {
    /// A line of `player`'s own list: their side and whether it is their turn.
    pub fn for_player(s: GameSummary, player: &str) -> GameSummaryView {
        let you = match s.record.mode {
            GameMode::Engine => s.record.human_color,
            GameMode::Online => s
                .players
                .iter()
                .find(|(_, id)| id.as_deref() == Some(player))
                .map(|(c, _)| c),
            GameMode::Local => None,
        };
        let mut view = GameSummaryView::from(s);
        view.you = you;
        view.your_turn = you.is_some() && view.to_move == view.you;
        view
    }
}

/// `GET /api/games`: a page of the asker's games, newest first.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GameListView {
    /// At most `limit` games, the most recently changed first.
    pub games: Vec<GameSummaryView>,
    /// Pass as `cursor` for the next page; `null` on the last one.
    pub next: Option<String>,
}

impl From<GameSummary> for GameSummaryView {
    fn from(s: GameSummary) -> GameSummaryView {
        let r = s.record;
        let (result, end_reason) = crate::store::columns::ending_columns(r.ending);
        let to_move = to_move(&r, s.move_count);
        GameSummaryView {
            finished: r.ending.is_some(),
            id: r.id,
            variant: r.variant,
            variant_title: r.variant.into(),
            mode: r.mode,
            human_color: r.human_color,
            level: r.level,
            white: r.white,
            black: r.black,
            white_account: s.accounts.white,
            black_account: s.accounts.black,
            white_title: crate::views::Title::of_bot(s.bots.white),
            black_title: crate::views::Title::of_bot(s.bots.black),
            result: result.to_string(),
            end_reason,
            move_count: s.move_count,
            moves: s.move_count.div_ceil(2),
            created_at: r.created_at,
            updated_at: r.updated_at,
            to_move,
            you: None,
            your_turn: false,
            days: s.days,
        }
    }
}

impl GameListView {
    /// `player`'s own page of games.
    pub fn of_player(page: GamePage, player: &str) -> GameListView {
        GameListView {
            games: page
                .games
                .into_iter()
                .map(|g| GameSummaryView::for_player(g, player))
                .collect(),
            next: page.next,
        }
    }
}

/// `GET /api/correspondence`: the asker's correspondence games in progress.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct CorrespondenceView {
    /// How many wait for the asker's move.
    pub your_turn: usize,
    /// The games, those waiting for the asker first (least time left first).
    pub games: Vec<CorrespondenceGameView>,
}

/// One correspondence game in [`CorrespondenceView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct CorrespondenceGameView {
    /// The game's id.
    pub id: String,
    /// `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The asker's colour.
    pub color: tensorchess_rules::Color,
    /// The opponent's name.
    pub opponent: String,
    /// The asker is to move.
    pub your_turn: bool,
    /// Days per move.
    pub days: u32,
    /// The side to move's time left for this move (ms).
    pub ms_left: i64,
    /// Plies played.
    pub ply: usize,
}

impl From<Vec<CorrespondenceGame>> for CorrespondenceView {
    fn from(list: Vec<CorrespondenceGame>) -> CorrespondenceView {
        let games: Vec<CorrespondenceGameView> = list
            .into_iter()
            .map(|g| CorrespondenceGameView {
                id: g.id,
                variant: g.variant,
                color: g.color,
                opponent: g.opponent,
                your_turn: g.your_turn,
                days: g.days,
                ms_left: g.ms_left,
                ply: g.ply,
            })
            .collect();
        CorrespondenceView {
            your_turn: games.iter().filter(|g| g.your_turn).count(),
            games,
        }
    }
}
