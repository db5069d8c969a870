//! One game for a program: `gameFull` first, then `gameState` on every
//! change, `chatLine`s, `opponentGone` (lichess's Bot and Board API game
//! stream); and the game as the event stream's `gameStart` and
//! `gameFinish` show it.

use super::lichess::{self, GameStatus, PerfKey};
use super::lines::{self, LineStream, Lines};
use super::shapes::{
    ChatLine, Compat, GameClock, GameEventShape, GameFull, GamePerf, GameSource, Opponent,
    OpponentGone, VariantShape,
};
use super::{BotPlayerView, Bots, KEEP_ALIVE_MS};
use crate::error::AppError;
use crate::identity::Me;
use crate::ids::GameId;
use crate::kind::Kind;
use crate::round::games::Games;
use crate::round::live::LiveGame;
use crate::round::online::OnlineGames;
use crate::store::{ChatRoom, ClockSettings, Ending, GameMode};
use crate::topic::HubTopic;
use crate::views::ServerEvent;
use serde::Serialize;
use std::sync::Arc;
use tensorchess_rules::{Color, EndReason, Outcome};
use tokio::sync::broadcast::error::RecvError;

/// What a clockless game's clocks say (lichess's correspondence value).
const NO_CLOCK_MS: i64 = 2_147_483_647;

/// A `gameState` line.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename = "gameState")]
pub struct GameStateLine {
    /// The moves from the start, move strings (RULES 4.2) separated by spaces.
    pub moves: String,
    /// White's time left (ms).
    pub wtime: i64,
    /// Black's time left (ms).
    pub btime: i64,
    /// White's increment (ms).
    pub winc: i64,
    /// Black's increment (ms).
    pub binc: i64,
    /// White offers a draw.
    pub wdraw: bool,
    /// Black offers a draw.
    pub bdraw: bool,
    /// `started`, `mate`, `resign`, `outoftime`, `stalemate`, `draw`,
    /// `aborted`, `variantEnd` (Chessence: no legal move), `timeout` (left).
    pub status: GameStatus,
    /// `white` or `black`, once one won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Color>,
}

impl GameStateLine {
    /// What a program acts on (the clocks aside).
    fn key(&self) -> (&str, GameStatus, bool, bool) {
        (&self.moves, self.status, self.wdraw, self.bdraw)
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.status != GameStatus::Started
    }
}

/// The status word (lichess's) and the winner of an ending.
pub(super) fn status_of(ending: Option<Ending>) -> (GameStatus, Option<Color>) {
    match ending {
        None => (GameStatus::Started, None),
        Some(Ending::Aborted { .. }) => (GameStatus::Aborted, None),
        Some(Ending::Imported { winner }) => (GameStatus::UnknownFinish, winner),
        Some(Ending::Outcome(Outcome::Decisive { winner, reason })) => (
            match reason {
                EndReason::Checkmate => GameStatus::Mate,
                EndReason::Resignation => GameStatus::Resign,
                EndReason::Timeout => GameStatus::OutOfTime,
                EndReason::Abandoned => GameStatus::Timeout,
                _ => GameStatus::VariantEnd,
            },
            Some(winner),
        ),
        Some(Ending::Outcome(Outcome::Draw { reason })) => (
            match reason {
                EndReason::Stalemate => GameStatus::Stalemate,
                _ => GameStatus::Draw,
            },
            None,
        ),
    }
}

/// The game's state now (`now` on the server's clock).
pub fn game_state(lg: &LiveGame, now: i64) -> GameStateLine {
    let moves = lg
        .history()
        .iter()
        .map(|m| m.uci.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let turn = lg.turn();
    let online = lg.online();
    let time = |c: Color| {
        online
            .and_then(|o| o.remaining(c, turn, now))
            .map_or(NO_CLOCK_MS, |ms| ms.max(0))
    };
    let inc = online
        .and_then(|o| o.record().clock)
        .map_or(0, |c| c.increment_ms);
    let offer = online.and_then(|o| o.record().draw_offer);
    let (status, winner) = status_of(lg.ending());
    GameStateLine {
        moves,
        wtime: time(Color::White),
        btime: time(Color::Black),
        winc: inc,
        binc: inc,
        wdraw: offer == Some(Color::White),
        bdraw: offer == Some(Color::Black),
        status,
        winner,
    }
}

/// What a game's lines need, read under its lock.
struct Seats {
    id: String,
    variant: tensorchess_rules::VariantKind,
    clock: Option<ClockSettings>,
    rated: bool,
    created_at: i64,
    initial_fen: String,
    fen: String,
    players: [Option<String>; 2],
    ratings: [Option<i32>; 2],
    rating_diffs: [Option<i32>; 2],
    state: GameStateLine,
    last_move: Option<String>,
}

impl Seats {
    fn of(lg: &LiveGame, now: i64) -> Seats {
        let record = lg.online().map(|o| o.record().clone());
        let player = |c: Color| record.as_ref().and_then(|r| r.players[c].clone());
        let rating = |c: Color| record.as_ref().and_then(|r| r.ratings[c]);
        let diff = |c: Color| record.as_ref().and_then(|r| r.rating_diffs[c]);
        let start = &lg.record().start_fen;
        Seats {
            id: lg.id().to_string(),
            variant: lg.record().variant,
            clock: record.as_ref().and_then(|r| r.clock),
            rated: lg.record().rated,
            created_at: lg.record().created_at,
            initial_fen: if start == "start"
                || start.is_empty()
                || start == lg.record().variant.start_fen()
            {
                "startpos".to_string()
            } else {
                start.clone()
            },
            fen: lg.game().fen(),
            players: [player(Color::White), player(Color::Black)],
            ratings: [rating(Color::White), rating(Color::Black)],
            rating_diffs: [diff(Color::White), diff(Color::Black)],
            state: game_state(lg, now),
            last_move: lg.history().last().map(|m| m.uci.clone()),
        }
    }

    async fn player(&self, bots: &Bots, c: Color) -> Result<BotPlayerView, AppError> {
        let i = c.index();
        Ok(match &self.players[i] {
            Some(p) => bots.player_view(p, self.ratings[i]).await?,
            None => BotPlayerView {
                id: String::new(),
                name: "?".into(),
                title: None,
                rating: None,
            },
        })
    }

    fn variant(&self) -> VariantShape {
        lichess::variant(self.variant)
    }
}

/// The `gameFull` line of a game.
async fn full(bots: &Bots, s: &Seats) -> Result<GameFull, AppError> {
    Ok(GameFull {
        black: s.player(bots, Color::Black).await?,
        clock: s.clock.map(|c| GameClock {
            increment: c.increment_ms,
            initial: c.base_ms,
        }),
        created_at: s.created_at,
        id: s.id.clone(),
        initial_fen: s.initial_fen.clone(),
        perf: GamePerf {
            name: PerfKey::of(s.variant, s.clock).name(),
        },
        rated: s.rated,
        speed: lichess::speed(s.clock),
        state: s.state.clone(),
        variant: s.variant(),
        white: s.player(bots, Color::White).await?,
    })
}

/// The `gameFull` line of game `id` as `me` sees it.
pub async fn game_full(
    games: &Games,
    bots: &Bots,
    me: &Me,
    id: &GameId,
) -> Result<GameFull, AppError> {
    let (_, lg) = games.lock_for(id, me).await?;
    let seats = Seats::of(&lg, games.live.now());
    drop(lg);
    full(bots, &seats).await
}

/// A game as `gameStart` and `gameFinish` show it to the player `me`
/// (`None` when they hold no seat in it).
pub async fn game_event(
    games: &Games,
    bots: &Bots,
    me: &Me,
    id: &GameId,
) -> Result<Option<GameEventShape>, AppError> {
    let (_, lg) = games.lock_for(id, me).await?;
    let Some(color) = OnlineGames::seat(&lg, me) else {
        return Ok(None);
    };
    let turn = lg.turn();
    let seats = Seats::of(&lg, games.live.now());
    drop(lg);
    let them = seats.player(bots, !color).await?;
    let left = match color {
        Color::White => seats.state.wtime,
        Color::Black => seats.state.btime,
    };
    let over = seats.state.over();
    Ok(Some(GameEventShape {
        compat: Compat {
            board: true,
            bot: true,
        },
        color,
        fen: seats.fen.clone(),
        full_id: seats.id.clone(),
        game_id: seats.id.clone(),
        has_moved: !seats.state.moves.is_empty(),
        id: seats.id.clone(),
        is_my_turn: turn == color && !over,
        last_move: seats.last_move.clone().unwrap_or_default(),
        opponent: Opponent::of(them, seats.rating_diffs[(!color).index()]),
        perf: PerfKey::of(seats.variant, seats.clock),
        rated: seats.rated,
        rating_diff: seats.rating_diffs[color.index()].filter(|_| over),
        seconds_left: seats.clock.map(|_| left / 1000),
        source: GameSource::Friend,
        speed: lichess::speed(seats.clock),
        status: lichess::status(seats.state.status),
        variant: seats.variant(),
        winner: seats.state.winner.filter(|_| over),
    }))
}

/// The `opponentGone` line for an opponent gone since `since`, and when
/// the win may be claimed: with a real-time clock (`timed`), lichess's
/// `claimWinInSeconds` counts down to it; without one, a game is not won
/// by leaving it.
fn gone_line(since: i64, timed: bool, now: i64) -> (OpponentGone, Option<i64>) {
    if !timed {
        return (OpponentGone::new(true, None), None);
    }
    let at = since + crate::round::online::CLAIM_WIN_AFTER_MS;
    let seconds = ((at - now).max(0) + 999) / 1000;
    (OpponentGone::new(true, Some(seconds)), Some(at))
}

/// `GET /api/bot/game/stream/{id}` (and the Board API's): the game's lines
/// until it ends, for one of its players.
pub async fn game_stream(
    games: Arc<Games>,
    bots: Arc<Bots>,
    me: Me,
    id: GameId,
) -> Result<LineStream, AppError> {
    let live = games.live.clone();
    let (_, lg) = games.lock_for(&id, &me).await?;
    if lg.mode() != GameMode::Online {
        return Err(AppError::refused(
            Kind::NotOnline,
            "Only online games are streamed to programs",
        ));
    }
    let Some(seat) = OnlineGames::seat(&lg, &me) else {
        return Err(AppError::refused(
            Kind::NotAPlayer,
            "Only the game's players stream it here",
        ));
    };
    // Subscribed under the lock: every change after the first line comes.
    let hub = live.hub();
    let mut game_rx = hub.subscribe(&HubTopic::game(&id));
    // The players' room only: a player never reads the spectators' room
    // while the game goes on, and the stream ends with the game.
    let mut players_rx = hub.subscribe(&HubTopic::chat(&id, ChatRoom::Players));
    let seats = Seats::of(&lg, live.now());
    drop(lg);
    let first = full(&bots, &seats).await?;
    let (lines, stream) = lines::channel(live.config().ws_write_timeout);
    let here = live.presence().enter(&id, seat);
    let timed = seats.clock.is_some();
    tokio::spawn(async move {
        let _here = here;
        if !lines.send(&first).await || seats.state.over() {
            return;
        }
        let mut last = seats.state;
        let clock = live.config().clock.clone();
        let mut stopping = live.stopping();
        let mut alive_at = clock.now_ms() + KEEP_ALIVE_MS;
        let mut gone = false;
        // When the win may be claimed, while the opponent is gone.
        let mut claim_at: Option<i64> = None;
        let mut here_now = live.presence().connected(&id)[(!seat).index()];
        // Gone before this stream opened (seen leaving): said at once.
        if let Some(since) = live.presence().gone_since(&id, !seat) {
            gone = true;
            let (line, at) = gone_line(since, timed, clock.now_ms());
            claim_at = at;
            if !lines.send(&line).await {
                return;
            }
        }
        loop {
            let refresh = tokio::select! {
                m = game_rx.recv() => match m {
                    Ok(published) => {
                        match published.event() {
                            // A move (made here or on another instance) or any other change.
                            ServerEvent::Game { .. } | ServerEvent::Move { .. } => true,
                            &ServerEvent::Presence { white, black, .. } => {
                                // Said when the opponent leaves, and when one
                                // who left comes back (not before they came).
                                let them = match seat {
                                    Color::White => black,
                                    Color::Black => white,
                                };
                                if them != here_now {
                                    here_now = them;
                                    if !them || gone {
                                        gone = !them;
                                        let line = if gone {
                                            let now = clock.now_ms();
                                            let since = live.presence().gone_since(&id, !seat).unwrap_or(now);
                                            let (line, at) = gone_line(since, timed, now);
                                            claim_at = at;
                                            line
                                        } else {
                                            claim_at = None;
                                            OpponentGone::new(false, None)
                                        };
                                        if !lines.send(&line).await {
                                            return;
                                        }
                                    }
                                }
                                false
                            }
                            _ => false,
                        }
                    }
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                },
                m = players_rx.recv() => {
                    if !send_chat(&lines, m).await { return; }
                    false
                }
                _ = clock.sleep_until(alive_at) => {
                    alive_at = clock.now_ms() + KEEP_ALIVE_MS;
                    if !lines.keep_alive().await { return; }
                    false
                }
                // The opponent has been gone long enough: the win may be
                // claimed now (lichess says it with a count of 0).
                _ = async {
                    match claim_at {
                        Some(at) => clock.sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                } => {
                    claim_at = None;
                    let line = OpponentGone::new(true, Some(0));
                    if !lines.send(&line).await { return; }
                    false
                }
                _ = async { let _ = stopping.wait_for(|s| *s).await; } => return,
                _ = lines.closed() => return,
            };
            if !refresh {
                continue;
            }
            let Ok((_, lg)) = games.lock_for(&id, &me).await else {
                return;
            };
            let now = game_state(&lg, live.now());
            drop(lg);
            if now.key() != last.key() {
                if !lines.send(&now).await || now.over() {
                    return;
                }
                last = now;
            }
        }
    });
    Ok(stream)
}

async fn send_chat(lines: &Lines, m: Result<crate::hub::Published, RecvError>) -> bool {
    let published = match m {
        Ok(published) => published,
        Err(RecvError::Lagged(_)) => return true,
        Err(RecvError::Closed) => return false,
    };
    match published.event() {
        ServerEvent::Chat { line, .. } => lines.send(&ChatLine::from(&**line)).await,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claim_counts_down_with_a_clock_only() {
        let (line, at) = gone_line(1_000, true, 1_000);
        assert_eq!(line.claim_win_in_seconds, Some(30));
        assert_eq!(at, Some(31_000));
        let (line, _) = gone_line(1_000, true, 30_500);
        assert_eq!(line.claim_win_in_seconds, Some(1));
        let (line, _) = gone_line(1_000, true, 90_000);
        assert_eq!(line.claim_win_in_seconds, Some(0));
        let (line, at) = gone_line(1_000, false, 1_000);
        assert_eq!(
            serde_json::to_value(line).unwrap(),
            serde_json::json!({"type": "opponentGone", "gone": true})
        );
        assert_eq!(at, None);
    }
}
