//! One game in memory: its stored record, the game itself (positions and
//! moves), the history pages show, and what only lives while the server
//! runs (the engine's search, an online game's clocks and timer).
//!
//! Its fields are private: the services read it through methods and change
//! it only by committing a [`Change`](super::Change) through
//! [`LiveGames::commit`](super::LiveGames::commit).

use super::commit::Staged;
use super::online::OnlineState;
use crate::error::AppError;
use crate::game_views::{
    color_title, end_view, imported_end_view, replay_game, GameViews, VariantGame,
};
use crate::store::{Ending, GameMode, GameRecord, OnlineRecord, StoredGame};
use crate::views::{EndView, GameView, History};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tensorchess_engine::Level;
use tensorchess_rules::pgn::PgnResult;
use tensorchess_rules::Color;

/// At most this many new moves of a game read again are played on the
/// game in memory; more, or a different history, replay the stored game.
const MAX_MOVES_PLAYED_ON: usize = 8;

/// A game in memory.
pub struct LiveGame {
    record: GameRecord,
    game: VariantGame,
    history: History,
    /// The engine's search for its move: an id and its stop flag.
    search: Option<(u64, Arc<AtomicBool>)>,
    /// The client address whose request the engine's next move answers
    /// (the engine budget's turns go by address).
    engine_client: Option<std::net::IpAddr>,
    /// Seats, clocks and offers of an online game.
    online: Option<OnlineState>,
}

impl LiveGame {
    /// A game just created (its moves already played in `game`).
    pub fn new(record: GameRecord, game: VariantGame, online: Option<OnlineRecord>) -> LiveGame {
        LiveGame {
            history: History::new(game.history()),
            record,
            game,
            search: None,
            engine_client: None,
            online: online.map(OnlineState::new),
        }
    }

    /// A stored game, its moves replayed.
    pub fn revive(stored: StoredGame) -> Result<LiveGame, AppError> {
        let moves: Vec<String> = stored.moves.into_iter().map(|m| m.uci).collect();
        let game = replay_game(stored.record.variant, &stored.record.start_fen, &moves)?;
        Ok(LiveGame::new(stored.record, game, stored.online))
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.record.id
    }

    /// The stored record (names, mode, owner, ending, revision).
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The game itself: positions and moves.
    pub fn game(&self) -> &VariantGame {
        &self.game
    }

    /// The moves as pages show them.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Against the engine, on one device, or online.
    pub fn mode(&self) -> GameMode {
        self.record.mode
    }

    /// The revision: bumped by every committed change.
    pub fn rev(&self) -> i64 {
        self.record.rev
    }

    /// How the game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.record.ending
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.record.ending.is_some()
    }

    /// Moves played.
    pub fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.turn()
    }

    /// An online game's seats, clocks and offers (`None` for local games).
    pub fn online(&self) -> Option<&OnlineState> {
        self.online.as_ref()
    }

    /// The online state, to change what lives only in memory (the timer, the
    /// clock's origin after a restart, draw-offer counts).
    pub fn online_mut(&mut self) -> Option<&mut OnlineState> {
        self.online.as_mut()
    }

    /// The person's colour against the engine.
    pub fn human_color(&self) -> Option<Color> {
        self.record.human_color
    }

    /// The engine's level in a game against it.
    pub fn level(&self) -> Option<Level> {
        self.record.level.and_then(Level::new)
    }

    /// The engine is to move and the game goes on.
    pub fn engine_to_move(&self) -> bool {
        self.record.mode == GameMode::Engine
            && !self.is_over()
            && self.human_color() != Some(self.game.turn())
    }

    /// The id of the engine search running for this game.
    pub fn search_id(&self) -> Option<u64> {
        self.search.as_ref().map(|s| s.0)
    }

    /// Whether an engine search runs for this game.
    pub fn is_thinking(&self) -> bool {
        self.search.is_some()
    }

    pub(crate) fn start_search(&mut self, id: u64, stop: Arc<AtomicBool>) {
        self.stop_search();
        self.search = Some((id, stop));
    }

    /// The client address the engine's next move answers.
    pub fn engine_client(&self) -> Option<std::net::IpAddr> {
        self.engine_client
    }

    /// Notes the client address of the owner's request (the engine's next
    /// search waits its turn as that address's).
    pub fn set_engine_client(&mut self, client: Option<std::net::IpAddr>) {
        self.engine_client = client;
    }

    /// The search has ended (its move is being committed, or it failed).
    pub(crate) fn search_done(&mut self) {
        self.search = None;
    }

    /// Stops the engine's search for this game, if one runs.
    pub fn stop_search(&mut self) {
        if let Some((_, stop)) = self.search.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Makes a staged change the game's state (it has been stored).
    pub(super) fn apply(&mut self, staged: Staged) {
        let Staged {
            game,
            history_edit,
            update,
            online,
            ..
        } = staged;
        if let Some(game) = game {
            self.game = game;
        }
        match history_edit {
            HistoryEdit::Keep => {}
            HistoryEdit::Push(entry) => self.history.make_mut().push(*entry),
            HistoryEdit::Truncate(keep) => self.history.make_mut().truncate(keep),
        }
        if update.ending.is_some() {
            self.stop_search();
        }
        if let Some([white, black]) = update.names {
            self.record.white = white;
            self.record.black = black;
        }
        self.record.rev = update.rev;
        self.record.ending = update.ending;
        self.record.updated_at = update.updated_at;
        if let (Some(o), Some(edit)) = (self.online.as_mut(), online) {
            o.record = edit.record;
            o.turn_origin = edit.turn_origin;
            o.first_move_deadline = edit.first_move_deadline;
            if update.ending.is_some() {
                o.cancel_timer();
            }
        }
    }

    /// Takes the stored game's state (newer: another server changed it),
    /// keeping what lives only here (the engine's search, unless the game
    /// ended; the timer's generation, its timer stopped for the caller to
    /// re-arm). `stored` holds the moves from ply `moves_from` on (all of
    /// them when 0). Returns the first ply whose move differs from before,
    /// and whether a move was made or a seat taken; `None` when the moves
    /// read do not continue those held (a takeback below `moves_from`):
    /// then the whole game must be read.
    pub(super) fn refresh(
        &mut self,
        stored: StoredGame,
        moves_from: usize,
        turn_origin: Option<i64>,
    ) -> Result<Option<(usize, bool)>, AppError> {
        // Usually another server added a move or two: those are played on
        // the game in memory instead of replaying the whole game.
        let have = self.history.len();
        let held = have.saturating_sub(moves_from);
        let tail = &stored.moves;
        let extends = moves_from <= have
            && tail.len() >= held
            && tail.len() - held <= MAX_MOVES_PLAYED_ON
            && self.history[moves_from..]
                .iter()
                .zip(tail)
                .all(|(h, m)| h.uci == m.uci);
        if !extends && moves_from > 0 {
            return Ok(None);
        }
        let ply = self.ply();
        let seated = |o: Option<&OnlineState>| o.map(OnlineState::both_seated);
        let was_seated = seated(self.online.as_ref());
        let (online, from) = if extends {
            let new = &tail[held..];
            if new.is_empty() {
                // A seat taken, a clock or an offer: no move to play.
            } else if let [one] = new {
                // The usual case, one move: checked before anything
                // changes, so it is played on the game in memory as it is.
                let mv = self.game.parse_player_move(&one.uci)?;
                let entry = self.game.push_entry(mv);
                self.history.make_mut().push(entry);
            } else {
                // Several: played on a copy, so that one refused leaves
                // the game as it was.
                let mut game = self.game.clone();
                let mut added = Vec::with_capacity(new.len());
                for m in new {
                    let mv = game.parse_player_move(&m.uci)?;
                    added.push(game.push_entry(mv));
                }
                self.game = game;
                self.history.make_mut().extend(added);
            }
            self.record = stored.record;
            (stored.online.map(OnlineState::new), have)
        } else {
            let fresh = LiveGame::revive(stored)?;
            let from = self
                .history
                .iter()
                .zip(fresh.history.iter())
                .take_while(|(a, b)| a.uci == b.uci)
                .count();
            let LiveGame {
                record,
                game,
                history,
                online,
                ..
            } = fresh;
            self.record = record;
            self.game = game;
            self.history = history;
            (online, from)
        };
        let moved = self.ply() != ply || from < have || was_seated != seated(online.as_ref());
        let over = self.is_over();
        if over {
            self.stop_search();
        }
        match (self.online.as_mut(), online) {
            (Some(o), Some(f)) => {
                o.cancel_timer();
                o.record = f.record;
                if moved || over {
                    o.first_move_deadline = None;
                }
            }
            (None, Some(f)) => self.online = Some(f),
            _ => {}
        }
        if let Some(o) = self.online.as_mut() {
            o.turn_origin = if over { None } else { turn_origin };
        }
        Ok(Some((from, moved)))
    }

    /// Whether the game is a tournament's (it cannot be aborted).
    fn in_tournament(&self) -> bool {
        self.online().is_some_and(|o| o.record().no_abort)
    }

    /// The banner of the game's end. A tournament's game whose side did
    /// not make its first move in time is lost by that side, as the
    /// tournament counts it (`docs/tournaments.md`, "Aborts and
    /// no-shows"): `no_start`, lichess's name for it, with its winner.
    pub fn end_view(&self) -> Option<EndView> {
        Some(match self.record.ending? {
            Ending::Outcome(o) => end_view(self.game.kind(), o),
            Ending::Imported { winner } => imported_end_view(winner),
            Ending::Aborted { no_show: Some(c) } if self.in_tournament() => EndView {
                result: PgnResult::from_winner(Some(!c)).as_str().into(),
                reason: "no_start".into(),
                winner: Some(!c),
                no_show: Some(c),
                title: format!("{} did not make a first move in time", color_title(c)),
                text: format!(
                    "{} wins: in a tournament, a first move not made in time loses",
                    color_title(!c)
                ),
            },
            Ending::Aborted { no_show } => EndView {
                result: "*".into(),
                reason: "aborted".into(),
                winner: None,
                no_show,
                title: "Game aborted".into(),
                text: match no_show {
                    None => "before both sides had moved: no result".into(),
                    Some(c) => format!(
                        "{} did not make a first move in time: no result",
                        color_title(c)
                    ),
                },
            },
        })
    }

    /// The state a page shows at `now` (the server's clock); `connected`
    /// says which players of an online game have it open.
    pub fn view(&self, now: i64, connected: [bool; 2]) -> GameView {
        let level = self.level();
        GameView {
            id: self.record.id.clone(),
            variant: self.game.kind(),
            variant_title: self.game.kind().into(),
            mode: self.record.mode,
            human_color: self.record.human_color,
            level: level.map(|l| l.number()),
            level_name: level.map(|l| l.name()),
            white: self.record.white.clone(),
            black: self.record.black.clone(),
            rev: self.record.rev,
            start_fen: self.record.start_fen.clone(),
            position: self.game.position_view(self.is_over()),
            moves: self.history.clone(),
            end: self.end_view(),
            engine_thinking: self.search.is_some(),
            created_at: self.record.created_at,
            updated_at: self.record.updated_at,
            online: self.online.as_ref().map(|o| {
                let mut view = o.view(
                    self.game.turn(),
                    self.game.ply(),
                    self.is_over(),
                    now,
                    connected,
                );
                view.rated = self.record.rated;
                view
            }),
            you: None,
            moves_from: 0,
            moves_before: None,
        }
    }

    /// The game as PGN, with the players' names and the date.
    pub fn pgn(&self) -> String {
        self.pgn_tagged("tensorchess game", None)
    }

    /// The game as PGN for an event: its name, and its round (`-` when
    /// it has none: an arena's game).
    pub fn pgn_tagged(&self, event: &str, round: Option<String>) -> String {
        let date = date_string(self.record.created_at);
        let mut tags = vec![
            ("Event".to_string(), event.to_string()),
            ("Site".to_string(), "tensorchess".to_string()),
            ("Date".to_string(), date),
        ];
        if let Some(round) = round {
            tags.push(("Round".to_string(), round));
        }
        tags.push(("White".to_string(), self.record.white.clone()));
        tags.push(("Black".to_string(), self.record.black.clone()));
        match self.record.ending {
            // An imported game keeps the result it came with.
            Some(Ending::Imported { winner }) => self
                .game
                .pgn_with_result(&tags, PgnResult::from_winner(winner)),
            // A tournament's game lost by a first move not made.
            Some(Ending::Aborted { no_show: Some(c) }) if self.in_tournament() => self
                .game
                .pgn_with_result(&tags, PgnResult::from_winner(Some(!c))),
            ending => self.game.pgn(&tags, ending.and_then(Ending::outcome)),
        }
    }
}

/// What a change does to the history pages see.
pub(super) enum HistoryEdit {
    Keep,
    Push(Box<crate::views::HistoryEntry>),
    Truncate(usize),
}

/// `YYYY.MM.DD` for PGN, from milliseconds since the epoch (UTC);
/// PGN's unknown date (`????.??.??`) outside the years 1 to 9999.
pub fn date_string(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) {
        Ok(t) if t.year() >= 1 => {
            format!("{:04}.{:02}.{:02}", t.year(), u8::from(t.month()), t.day())
        }
        _ => "????.??.??".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date_string(0), "1970.01.01");
        assert_eq!(date_string(1_700_000_000_000), "2023.11.14");
        assert_eq!(date_string(951_782_400_000), "2000.02.29");
        assert_eq!(date_string(-1), "1969.12.31");
        assert_eq!(date_string(i64::MAX), "????.??.??");
    }
}
