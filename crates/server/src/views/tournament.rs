//! What pages see of a tournament: its settings and state, its standings
//! and pairings, and a player's own line.

use crate::views::{ClockSpecView, PlayerView};
use serde::Serialize;
use std::collections::BTreeMap;

/// A tournament game's result as the tournament counts it (a first move
/// not made loses).
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub enum CountedResult {
    /// White won.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Going on, or counting for nobody (aborted before aborts were
    /// refused).
    #[serde(rename = "*")]
    Open,
}

/// A player's result in one game or round as the standings count it (as
/// the TRF writes it).
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub enum PointsMark {
    /// A win, or a bye worth a point.
    #[serde(rename = "1")]
    Win,
    /// A draw, or a bye worth half a point.
    #[serde(rename = "½")]
    Draw,
    /// A loss, or a round sat out for nothing.
    #[serde(rename = "0")]
    Loss,
    /// A forfeit won: the opponent did not make their first move.
    #[serde(rename = "+")]
    ForfeitWin,
    /// A forfeit lost: the player did not make their first move.
    #[serde(rename = "-")]
    ForfeitLoss,
    /// The game goes on.
    #[serde(rename = "*")]
    Playing,
}

impl PointsMark {
    /// The mark as written: `1`, `½`, `0`, `+`, `-` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PointsMark::Win => "1",
            PointsMark::Draw => "½",
            PointsMark::Loss => "0",
            PointsMark::ForfeitWin => "+",
            PointsMark::ForfeitLoss => "-",
            PointsMark::Playing => "*",
        }
    }
}

/// A tournament in a list.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TournamentSummaryView {
    /// Its id.
    pub id: String,
    /// `arena`, `swiss` or `round_robin`.
    pub kind: crate::store::TournamentKind,
    /// Its name.
    pub name: String,
    /// `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The game's title.
    #[ts(type = "string")]
    pub variant_title: super::words::VariantTitle,
    /// Every game's clock (zeros for correspondence).
    pub clock: ClockSpecView,
    /// Correspondence: days per move for every game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub days: Option<u32>,
    /// Rated or not.
    pub rated: bool,
    /// When it starts (ms).
    pub starts_at: i64,
    /// When an arena ends (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ends_at: Option<i64>,
    /// An arena's length in minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub minutes: Option<u32>,
    /// A Swiss's rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rounds: Option<u32>,
    /// Most players.
    pub max_players: u32,
    /// Players in it (not withdrawn).
    pub players: usize,
    /// `upcoming`, `running` or `finished`.
    pub state: crate::store::TournamentState,
    /// The player who made it (id); `@schedule` when the server's
    /// schedule made it.
    pub created_by: String,
    /// Made by the server's schedule (a recurring tournament).
    pub scheduled: bool,
    /// A scheduled tournament's name in other languages, by language code
    /// (`{"uk": "…"}`, from the schedule): a page in one of them shows it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
}

/// A game of an arena sheet: its points and marks.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub struct SheetMarkView {
    /// Points it earned.
    pub points: u32,
    /// Played on fire (points doubled).
    pub fire: bool,
    /// The player berserked (whatever the result).
    pub berserk: bool,
    /// The berserk earned its point: a berserked win of 14 plies or more
    /// (the mark the page shows).
    pub berserk_bonus: bool,
}

/// One round of a player's line in a Swiss's or a round robin's
/// crosstable: the game's opponent, colour and result, or a bye.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub struct RoundCellView {
    /// The round.
    pub round: u32,
    /// The game (none for a bye).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub game: Option<String>,
    /// The player's colour in it: `white` or `black` (none for a bye).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub color: Option<tensorchess_rules::Color>,
    /// The opponent's rank in the standings (none for a bye).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opponent: Option<u32>,
    /// The player's result as the standings count it: `1`, `½`, `0`,
    /// `+` and `-` (a forfeit: a first move not made), `*` while it goes
    /// on; a bye's points (`1`, `½`, `0`).
    pub result: PointsMark,
    /// A bye (no game): the pairing bye, or a round sat out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bye: bool,
}

/// A line of the standings.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct StandingView {
    /// 1 for the leader.
    pub rank: u32,
    /// The player.
    pub player: PlayerView,
    /// Their rating when they joined.
    pub rating: i32,
    /// Arena points; for a Swiss or round robin, half-points (a win is 2).
    pub points: u32,
    /// An arena's points game by game (`2 2 4 0`); the results of a Swiss
    /// or round robin round by round, byes with their points (`1 ½ 1 0`).
    pub points_line: String,
    /// An arena's sheet, game by game.
    pub sheet: Vec<SheetMarkView>,
    /// A Swiss's or a round robin's crosstable line, round by round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<RoundCellView>,
    /// The game they play now, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub playing: Option<String>,
    /// Games finished.
    pub games: u32,
    /// On fire (an arena: two wins in a row), for their next game: never
    /// once the tournament is over.
    pub on_fire: bool,
    /// Performance rating, once they have played.
    pub performance: Option<i32>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// Paused.
    pub paused: bool,
    /// The line's version ([`StandingView::version`]): a page holding the
    /// line at this version is told only its rank in the topic's news.
    pub v: u32,
}

/// A game of the tournament.
#[derive(Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PairingView {
    /// The game's id (`#/game/ID`).
    pub game: String,
    /// The round (Swiss, round robin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub round: Option<u32>,
    /// White.
    pub white: PlayerView,
    /// Black.
    pub black: PlayerView,
    /// `1-0`, `0-1`, `1/2-1/2` as the tournament counts it (a first move
    /// not made loses), or `*` while it goes on (or for a game aborted
    /// before aborts were refused, which counts for nobody).
    pub result: CountedResult,
    /// The side that did not make its first move in time (the game's
    /// loser), if that is how it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub no_show: Option<tensorchess_rules::Color>,
    /// White berserked.
    pub white_berserked: bool,
    /// Black berserked.
    pub black_berserked: bool,
    /// The game's version ([`PairingView::version`]; 0 where not told in
    /// a tournament's view).
    #[serde(default)]
    pub v: u32,
}

/// A game just paired, as the tournament's topic tells it to every page
/// (`tournament_pairings`): its id and its players' ids, so that a player
/// named goes to it; the others see it with the news that follows. Each
/// page of a large arena gets every wave's games: only what it needs.
#[derive(Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PairedGameView {
    /// The game's id (`#/game/ID`).
    pub game: String,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
}

/// The asker's entry.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct YouView {
    /// Withdrawn.
    pub withdrawn: bool,
    /// Paused.
    pub paused: bool,
    /// The asker's own line of the standings (also where the topic's
    /// events, which carry only the first lines, leave it out).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub standing: Option<StandingView>,
}

/// Standings lines in the events of a tournament's topic (every page
/// following it gets them; a page asks `GET` for the rest).
pub const TOPIC_STANDINGS: usize = 20;
/// Games in the events of a tournament's topic (the best ones first).
pub const TOPIC_PAIRINGS: usize = 20;

/// `GET /api/tournaments/{id}`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TournamentView {
    /// The settings.
    #[serde(flatten)]
    pub summary: TournamentSummaryView,
    /// The standings, leader first.
    pub standings: Vec<StandingView>,
    /// The games going on (an arena), or the current round's games, the
    /// better players' first.
    pub pairings: Vec<PairingView>,
    /// Lines in the whole standings (the topic's events carry the first
    /// [`TOPIC_STANDINGS`]).
    pub standings_total: usize,
    /// Games going on or in the round (the topic's events carry the first
    /// [`TOPIC_PAIRINGS`]).
    pub pairings_total: usize,
    /// The current round (Swiss, round robin), once one is paired.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub round: Option<u32>,
    /// The asker's entry, if they joined.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub you: Option<YouView>,
    /// The game to watch: of the games going on, the one whose better
    /// player ranks highest (then the other player); `null` when none goes on.
    pub top_game: Option<String>,
}

impl TournamentView {
    /// The asker's entry, with their line of the standings.
    pub fn set_you(&mut self, entry: Option<&crate::store::EntryRecord>) {
        self.you = entry.map(|e| YouView {
            withdrawn: e.withdrawn,
            paused: e.paused,
            standing: self
                .standings
                .iter()
                .find(|s| s.player.id == e.player)
                .cloned(),
        });
    }
}

/// `GET /api/games/{id}/tournament`: the tournament a game was paired in.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GameTournamentView {
    /// The tournament's id (`#/tournament/ID`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// A scheduled tournament's name in other languages (as in its summary).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
    /// `arena`, `swiss` or `round_robin` (berserk is an arena's).
    pub kind: crate::store::TournamentKind,
}

/// `GET /api/tournaments/{id}/round/{n}`: one round of a Swiss or a round
/// robin, its games and its byes.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct RoundView {
    /// The round.
    pub round: u32,
    /// Its games, the better players' first.
    pub pairings: Vec<PairingView>,
    /// Its byes.
    pub byes: Vec<ByeView>,
}

/// A bye of a round.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ByeView {
    /// Who had it.
    pub player: PlayerView,
    /// Its points: `1` (the pairing bye), `½` or `0` (a round sat out).
    pub result: PointsMark,
}

/// `GET /api/tournaments/{id}/players/{player}`: a player's games in the
/// tournament, in the order they were paired (an arena's line, clicked).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PlayerGamesView {
    /// The player.
    pub player: PlayerView,
    /// Their games.
    pub games: Vec<PlayerGameView>,
}

/// One of a player's games.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PlayerGameView {
    /// The game.
    pub game: String,
    /// The round (Swiss, round robin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub round: Option<u32>,
    /// The player's colour: `white` or `black`.
    pub color: tensorchess_rules::Color,
    /// The opponent.
    pub opponent: PlayerView,
    /// The player's result as the tournament counts it: `1`, `½`, `0`,
    /// `+` and `-` (a Swiss's forfeit), `*` while it goes on.
    pub result: PointsMark,
    /// An arena's points for it (its mark: [`SheetMarkView`]), once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sheet: Option<SheetMarkView>,
    /// The player berserked.
    pub berserked: bool,
    /// The side that did not make its first move in time, if that is how
    /// it ended (the player's own colour: they lost so).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub no_show: Option<tensorchess_rules::Color>,
}
