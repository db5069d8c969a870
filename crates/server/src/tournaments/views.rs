//! What pages see of a tournament: its settings, the standings computed
//! from its stored games (arena points with their fire and berserk marks,
//! or points of a Swiss and a round robin), and the current pairings.

use super::schedule::Schedule;
use super::Tournaments;
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::GameId;
use crate::store::{
    Ending, EntryRecord, TournamentGame, TournamentKind, TournamentRecord, TournamentState,
};
use crate::views::ClockSpecView;
use std::collections::HashMap;
use tensorchess_rules::Color;
use tensorchess_tournament::arena::{rank_arena, score_player, ScoredGame};
use tensorchess_tournament::standings::{standings, PlayedGame, RatedPlayer};
use tensorchess_tournament::{
    games_by_player, FinishedGame, Outcome, PlayerKey, PlayerResult, Side,
};

pub use crate::views::tournament::{TOPIC_PAIRINGS, TOPIC_STANDINGS};
pub use crate::views::PlayerView;

/// How long a player's name is kept for the standings, in ms (a new
/// name shows after this at the latest).
pub const NAME_FRESH_MS: i64 = 10_000;
/// Names kept at most (all are forgotten past it).
const NAMES_KEPT: usize = 50_000;

pub use crate::views::tournament::{
    ByeView, CountedResult, GameTournamentView, PairedGameView, PairingView, PlayerGameView,
    PlayerGamesView, PointsMark, RoundCellView, RoundView, SheetMarkView, StandingView,
    TournamentSummaryView, TournamentView, YouView,
};

/// A tournament's settings with `players` in it; a scheduled one's names
/// in other languages as `schedule` gives them.
pub fn summary(t: &TournamentRecord, players: usize, schedule: &Schedule) -> TournamentSummaryView {
    TournamentSummaryView {
        id: t.id.clone(),
        kind: t.kind,
        name: t.name.clone(),
        variant: t.variant,
        variant_title: t.variant.into(),
        clock: ClockSpecView::from(t.clock),
        days: t.days,
        rated: t.rated,
        starts_at: t.starts_at,
        ends_at: arena_end(t),
        minutes: t.minutes,
        rounds: t.rounds,
        max_players: t.max_players,
        players,
        state: t.state,
        created_by: t.created_by.clone(),
        scheduled: t.schedule_key.is_some(),
        names: schedule.names_for(t),
    }
}

/// When an arena ends.
pub fn arena_end(t: &TournamentRecord) -> Option<i64> {
    t.minutes
        .map(|m| t.starts_at.saturating_add(i64::from(m) * 60_000))
}

/// How a tournament counts a game's stored ending: one rule for the
/// standings, the TRF and the pairing (`docs/tournaments.md`, "Aborts and
/// no-shows").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// Played to a result (or resigned before a move).
    Played(Outcome),
    /// A side did not make its first move in time: it loses, `winner`
    /// wins. An arena scores it as a game; a Swiss or a round robin as a
    /// forfeit (a point, not a game played: no colour, they may meet again).
    NoShow {
        /// The side that was there.
        winner: Color,
    },
    /// Aborted by a player (games from before tournament games refused
    /// aborts): it counts for nobody, as if not paired.
    Void,
}

/// How a tournament counts `ending`; `None` while the game goes on.
pub fn counts(ending: Option<Ending>) -> Option<Counts> {
    let winner = match ending? {
        Ending::Outcome(o) => o.winner(),
        Ending::Imported { winner } => winner,
        Ending::Aborted { no_show: Some(c) } => return Some(Counts::NoShow { winner: !c }),
        Ending::Aborted { no_show: None } => return Some(Counts::Void),
    };
    Some(Counts::Played(match winner {
        Some(Color::White) => Outcome::WhiteWins,
        Some(Color::Black) => Outcome::BlackWins,
        None => Outcome::Draw,
    }))
}

/// An arena's outcome of a stored ending: `None` for a game going on or
/// void; a first move not made is lost (lichess: its opponent wins).
pub fn outcome_of(ending: Option<Ending>) -> Option<Outcome> {
    match counts(ending)? {
        Counts::Played(o) => Some(o),
        Counts::NoShow {
            winner: Color::White,
        } => Some(Outcome::WhiteWins),
        Counts::NoShow {
            winner: Color::Black,
        } => Some(Outcome::BlackWins),
        Counts::Void => None,
    }
}

/// A game's result as a tournament's pages show it: `1-0`, `0-1`,
/// `1/2-1/2` as it counts (a first move not made loses), `*` while it goes
/// on or for a game that counts for nobody; and the side that did not
/// move, if that is how it ended.
pub fn counted_result(ending: Option<Ending>) -> (CountedResult, Option<Color>) {
    match counts(ending) {
        None | Some(Counts::Void) => (CountedResult::Open, None),
        Some(Counts::Played(Outcome::WhiteWins)) => (CountedResult::WhiteWins, None),
        Some(Counts::Played(Outcome::BlackWins)) => (CountedResult::BlackWins, None),
        Some(Counts::Played(Outcome::Draw)) => (CountedResult::Draw, None),
        Some(Counts::NoShow { winner }) => (
            match winner {
                Color::White => CountedResult::WhiteWins,
                Color::Black => CountedResult::BlackWins,
            },
            Some(!winner),
        ),
    }
}

/// `side`'s result in a game of a Swiss or a round robin as the
/// standings count it: `1`, `½`, `0`, a forfeit's `+` and `-`, `*` while
/// it goes on; `None` for a game that counts for nobody.
pub fn round_result(counts: Option<Counts>, side: Color) -> Option<PointsMark> {
    Some(match counts {
        None => PointsMark::Playing,
        Some(Counts::Played(o)) => match o.for_side(side_of(side)) {
            PlayerResult::Win => PointsMark::Win,
            PlayerResult::Draw => PointsMark::Draw,
            PlayerResult::Loss => PointsMark::Loss,
        },
        Some(Counts::NoShow { winner }) if winner == side => PointsMark::ForfeitWin,
        Some(Counts::NoShow { .. }) => PointsMark::ForfeitLoss,
        Some(Counts::Void) => return None,
    })
}

/// A bye's points as a result: `1`, `½` or `0`.
pub fn bye_result(half_points: u32) -> PointsMark {
    match half_points {
        0 => PointsMark::Loss,
        1 => PointsMark::Draw,
        _ => PointsMark::Win,
    }
}

/// An ended game of a Swiss or a round robin as its rule counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// White.
    pub white: PlayerKey,
    /// Black.
    pub black: PlayerKey,
    /// What it counts for.
    pub counts: Counts,
}

impl RoundResult {
    /// `key`'s side, if they played in it.
    pub fn side_of(&self, key: PlayerKey) -> Option<Color> {
        if self.white == key {
            Some(Color::White)
        } else if self.black == key {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A tournament's players as keys: an entry's place in the join order.
pub struct Keyed<'a> {
    /// The entries, in join order.
    pub entries: &'a [EntryRecord],
    index: HashMap<&'a str, PlayerKey>,
}

impl<'a> Keyed<'a> {
    /// Keys for `entries`.
    pub fn new(entries: &'a [EntryRecord]) -> Keyed<'a> {
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.player.as_str(), PlayerKey(i as u64)))
            .collect();
        Keyed { entries, index }
    }

    /// The key of player `id`.
    pub fn key(&self, id: &str) -> Option<PlayerKey> {
        self.index.get(id).copied()
    }

    /// The entry of `key`.
    pub fn entry(&self, key: PlayerKey) -> Option<&'a EntryRecord> {
        self.entries.get(key.0 as usize)
    }

    /// The ended games of a Swiss or a round robin, in the order they
    /// were paired.
    pub fn round_results(&self, games: &[TournamentGame]) -> Vec<RoundResult> {
        games
            .iter()
            .filter_map(|g| {
                Some(RoundResult {
                    white: self.key(&g.link.white)?,
                    black: self.key(&g.link.black)?,
                    counts: counts(g.ending)?,
                })
            })
            .collect()
    }

    /// The finished games that count in an arena, in the order they were
    /// paired.
    pub fn finished(&self, games: &[TournamentGame]) -> Vec<FinishedGame> {
        games
            .iter()
            .filter_map(|g| {
                Some(FinishedGame {
                    white: self.key(&g.link.white)?,
                    black: self.key(&g.link.black)?,
                    outcome: outcome_of(g.ending)?,
                    plies: g.plies,
                    white_berserked: g.link.white_berserked,
                    black_berserked: g.link.black_berserked,
                })
            })
            .collect()
    }
}

/// The standings line of an arena player without their name yet.
struct Line {
    key: PlayerKey,
    rank: u32,
    points: u32,
    points_line: String,
    sheet: Vec<SheetMarkView>,
    rounds: Vec<RoundCellView>,
    games: u32,
    on_fire: bool,
    performance: Option<i32>,
}

/// A game's mark on an arena sheet.
pub fn sheet_mark(g: &ScoredGame) -> SheetMarkView {
    SheetMarkView {
        points: g.points,
        fire: g.fire,
        berserk: g.berserk,
        berserk_bonus: g.berserk_bonus,
    }
}

/// An arena's lines; `over`: nobody is on fire any more.
fn arena_lines(keyed: &Keyed, finished: &[FinishedGame], over: bool) -> Vec<Line> {
    let players: Vec<(PlayerKey, i32)> = keyed
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (PlayerKey(i as u64), e.rating))
        .collect();
    let by_player = games_by_player(finished);
    rank_arena(&players, finished)
        .into_iter()
        .map(|s| {
            let own = by_player.get(&s.key).map_or(&[][..], Vec::as_slice);
            let sheet = score_player(own, s.key);
            Line {
                key: s.key,
                rank: s.rank,
                points: s.points,
                points_line: sheet.points_line(),
                sheet: sheet.games.iter().map(sheet_mark).collect(),
                rounds: Vec::new(),
                games: s.games,
                on_fire: s.on_fire && !over,
                performance: s.performance,
            }
        })
        .collect()
}

/// A bye of a Swiss or a round robin: the player, the round, its
/// half-points.
pub type Bye = (PlayerKey, u32, u32);

/// The lines of a Swiss or a round robin: the standings, each with its
/// crosstable line (every round's game or bye) and its results round by
/// round, byes included.
fn round_lines(keyed: &Keyed, games: &[TournamentGame], byes: &[Bye]) -> Vec<Line> {
    let results = keyed.round_results(games);
    let players: Vec<RatedPlayer> = keyed
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| RatedPlayer {
            key: PlayerKey(i as u64),
            rating: e.rating,
        })
        .collect();
    let played: Vec<PlayedGame> = results
        .iter()
        .filter_map(|g| match g.counts {
            Counts::Played(outcome) => Some(PlayedGame {
                white: g.white,
                black: g.black,
                outcome,
            }),
            _ => None,
        })
        .collect();
    // Points without a game: byes, and a forfeit's point (a no-show).
    let forfeits = results.iter().filter_map(|g| match g.counts {
        Counts::NoShow {
            winner: Color::White,
        } => Some((g.white, 2)),
        Counts::NoShow {
            winner: Color::Black,
        } => Some((g.black, 2)),
        _ => None,
    });
    let extra: Vec<_> = byes
        .iter()
        .map(|&(k, _, half)| (k, half))
        .chain(forfeits)
        .map(|(k, half)| (k, tensorchess_tournament::standings::HalfPoints(half)))
        .collect();
    let table = standings(&players, &played, &extra);
    let ranks: HashMap<PlayerKey, u32> = table.iter().map(|s| (s.key, s.position)).collect();
    // Each player's games and byes, looked up once.
    let mut own: HashMap<PlayerKey, Vec<RoundCellView>> = HashMap::new();
    for g in games {
        let (Some(white), Some(black)) = (keyed.key(&g.link.white), keyed.key(&g.link.black))
        else {
            continue;
        };
        for (key, side, other) in [(white, Color::White, black), (black, Color::Black, white)] {
            let Some(result) = round_result(counts(g.ending), side) else {
                continue;
            };
            own.entry(key).or_default().push(RoundCellView {
                round: g.link.round.unwrap_or(0),
                game: Some(g.link.game_id.clone()),
                color: Some(side),
                opponent: ranks.get(&other).copied(),
                result,
                bye: false,
            });
        }
    }
    for &(key, round, half) in byes {
        own.entry(key).or_default().push(RoundCellView {
            round,
            game: None,
            color: None,
            opponent: None,
            result: bye_result(half),
            bye: true,
        });
    }
    table
        .into_iter()
        .map(|s| {
            // The crosstable line, in round order. A game that counts for
            // nobody (aborted before aborts were refused) is left out, as
            // if not paired.
            let mut rounds = own.remove(&s.key).unwrap_or_default();
            rounds.sort_by_key(|c| c.round);
            // As the TRF writes them: 1 ½ 0 played, + - forfeited; byes
            // with their points.
            let line: Vec<&str> = rounds
                .iter()
                .map(|c| c.result)
                .filter(|r| *r != PointsMark::Playing)
                .map(PointsMark::as_str)
                .collect();
            Line {
                key: s.key,
                rank: s.position,
                points: s.points.0,
                points_line: line.join(" "),
                sheet: Vec::new(),
                rounds,
                games: s.wins + s.draws + s.losses,
                on_fire: false,
                performance: s.performance,
            }
        })
        .collect()
}

/// The tournament crate's side of a colour.
pub fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// Of the games going on, the one whose better player ranks highest (ties:
/// the better other player, then the earlier pairing).
pub fn top_game(standings: &[StandingView], pairings: &[PairingView]) -> Option<String> {
    let ranks = rank_map(standings);
    pairings
        .iter()
        .filter(|p| p.result == CountedResult::Open)
        .min_by_key(|p| board_key(&ranks, p))
        .map(|p| p.game.clone())
}

/// Each player's rank, by id.
fn rank_map(standings: &[StandingView]) -> HashMap<&str, u32> {
    standings
        .iter()
        .map(|s| (s.player.id.as_str(), s.rank))
        .collect()
}

/// A game's place among the games: its better player's rank, then the
/// other's.
fn board_key(ranks: &HashMap<&str, u32>, p: &PairingView) -> (u32, u32) {
    let rank = |id: &str| ranks.get(id).copied().unwrap_or(u32::MAX);
    let (w, b) = (rank(&p.white.id), rank(&p.black.id));
    (w.min(b), w.max(b))
}

/// Orders the games the better players' first (as [`top_game`] ranks them).
pub fn order_pairings(standings: &[StandingView], pairings: &mut [PairingView]) {
    let ranks = rank_map(standings);
    pairings.sort_by_cached_key(|p| board_key(&ranks, p));
}

impl Tournaments {
    /// The tournament game `game_id` was paired in, if any.
    pub async fn of_game(&self, game_id: &GameId) -> Result<Option<GameTournamentView>, AppError> {
        let Some(g) = self.live.store().tournament_game(game_id).await? else {
            return Ok(None);
        };
        let t = self.record(&g.link.tournament_id).await?;
        let names = self.schedule().names_for(&t);
        Ok(Some(GameTournamentView {
            id: t.id,
            name: t.name,
            names,
            kind: t.kind,
        }))
    }

    /// A player as the standings and pairings name them (with their
    /// account, for a link to their profile). Names are kept for
    /// [`NAME_FRESH_MS`]: a view of a large tournament names every
    /// player, and is made for every change of its standings.
    pub(crate) async fn player(&self, id: &str) -> Result<PlayerView, AppError> {
        let marks = self.live.bot_marks();
        let bot = match marks.known(id) {
            Some(bot) => bot,
            None => {
                let bot = self.live.store().is_bot(id).await?;
                marks.set(id, bot);
                bot
            }
        };
        let now = self.live.now();
        let kept = self
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .filter(|(_, at)| now.saturating_sub(*at) < NAME_FRESH_MS)
            .map(|(named, _)| named.clone());
        let (name, account) = match kept {
            Some(named) => named,
            None => {
                let record = self.players.record(id).await?;
                let named = (record.name, record.account);
                let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
                if names.len() >= NAMES_KEPT {
                    names.clear();
                }
                names.insert(id.to_string(), (named.clone(), now));
                named
            }
        };
        Ok(PlayerView {
            id: id.to_string(),
            name,
            account,
            title: crate::views::Title::of_bot(bot),
        })
    }

    /// A game of the tournament as pages see it.
    pub(crate) async fn pairing_view(&self, g: &TournamentGame) -> Result<PairingView, AppError> {
        Ok(PairingView {
            game: g.link.game_id.clone(),
            round: g.link.round,
            white: self.player(&g.link.white).await?,
            black: self.player(&g.link.black).await?,
            result: counted_result(g.ending).0,
            no_show: counted_result(g.ending).1,
            white_berserked: g.link.white_berserked,
            black_berserked: g.link.black_berserked,
            v: 0,
        })
    }

    /// The tournament with its standings and pairings (`me`: the asker, if any).
    pub(crate) async fn view(
        &self,
        t: &TournamentRecord,
        me: Option<&Me>,
    ) -> Result<TournamentView, AppError> {
        // An arena directed here is made from what its director keeps.
        let (entries, games) = match self.arena_kept(t).await? {
            Some(arena) => (arena.entries, arena.games),
            None => {
                let store = self.live.store();
                (
                    std::sync::Arc::new(store.tournament_entries(&t.id).await?),
                    std::sync::Arc::new(store.tournament_games(&t.id).await?),
                )
            }
        };
        let keyed = Keyed::new(&entries);
        let over = t.state == TournamentState::Finished;
        let lines = match t.kind {
            TournamentKind::Arena => arena_lines(&keyed, &keyed.finished(&games), over),
            _ => {
                let byes = self.byes(t, &keyed).await?;
                round_lines(&keyed, &games, &byes)
            }
        };
        // Who plays now, and where.
        let playing: HashMap<&str, &str> = games
            .iter()
            .filter(|g| g.ending.is_none())
            .flat_map(|g| {
                let id = g.link.game_id.as_str();
                [(g.link.white.as_str(), id), (g.link.black.as_str(), id)]
            })
            .collect();
        let mut standings = Vec::with_capacity(lines.len());
        for l in lines {
            let Some(e) = keyed.entry(l.key) else {
                continue;
            };
            standings.push(StandingView {
                rank: l.rank,
                player: self.player(&e.player).await?,
                rating: e.rating,
                points: l.points,
                points_line: l.points_line,
                sheet: l.sheet,
                rounds: l.rounds,
                playing: playing.get(e.player.as_str()).map(|g| g.to_string()),
                games: l.games,
                on_fire: l.on_fire,
                performance: l.performance,
                withdrawn: e.withdrawn,
                paused: e.paused,
                v: 0,
            });
        }
        let round = games.iter().filter_map(|g| g.link.round).max();
        let current: Vec<&TournamentGame> = match t.kind {
            TournamentKind::Arena => games.iter().filter(|g| g.ending.is_none()).collect(),
            _ => games.iter().filter(|g| g.link.round == round).collect(),
        };
        let mut pairings = Vec::with_capacity(current.len());
        for g in current {
            pairings.push(self.pairing_view(g).await?);
        }
        let players = entries.iter().filter(|e| !e.withdrawn).count();
        let summary = summary(t, players, self.schedule());
        order_pairings(&standings, &mut pairings);
        let top_game = top_game(&standings, &pairings);
        let mut view = TournamentView {
            summary,
            standings_total: standings.len(),
            pairings_total: pairings.len(),
            standings,
            pairings,
            round: round.filter(|_| t.state != TournamentState::Upcoming),
            you: None,
            top_game,
        };
        view.set_you(me.and_then(|me| entries.iter().find(|e| e.player == me.id)));
        view.stamp();
        Ok(view)
    }
}

#[cfg(test)]
mod tests;
