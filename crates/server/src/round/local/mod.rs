//! The local-game service: games against the engine and games of two
//! people on one device. Creating them (from the start, a FEN or a PGN),
//! moves, takebacks, resignation, draw offers, and the engine's moves,
//! hints and evaluations (`engine`).

mod engine;

use crate::budget::Requester;
use crate::error::AppError;
use crate::game_views::{import_pgn, new_game, GameViews};
use crate::identity::Me;
use crate::ids::new_id;
use crate::kind::Kind;
use crate::requests::{ColorChoice, LocalMode, NewGameRequest};
use crate::round::command::{Command, Step};
use crate::round::engine_player::EnginePlayer;
use crate::round::live::GameEvent;
use crate::round::live::{
    Change, Committed, EndingEdit, LiveGame, LiveGames, MovesEdit, SharedGame,
};
use crate::store::{Ending, GameMode, GameRecord, StoredGame, StoredMove};
use crate::views::{DrawAnswerCode, GameView};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tensorchess_engine::Level;
use tensorchess_rules::{Color, EndReason, Outcome, VariantKind};

/// The default level against the engine.
pub const DEFAULT_LEVEL: u8 = 3;

/// The service behind engine and same-device games.
pub struct LocalGames {
    live: Arc<LiveGames>,
    engine: Arc<EnginePlayer>,
    next_search: AtomicU64,
    /// The round the engine's moves go through.
    round: std::sync::Weak<crate::round::games::Games>,
}

fn game_over() -> AppError {
    AppError::Conflict("The game is over".into())
}

impl LocalGames {
    /// The service over `live`, with `engine` to play and advise, its
    /// moves going through `round`.
    pub fn new(
        live: Arc<LiveGames>,
        engine: Arc<EnginePlayer>,
        round: std::sync::Weak<crate::round::games::Games>,
    ) -> LocalGames {
        LocalGames {
            live,
            engine,
            next_search: AtomicU64::new(1),
            round,
        }
    }

    /// The engine player behind games, hints and evaluations.
    pub fn engine(&self) -> &Arc<EnginePlayer> {
        &self.engine
    }

    /// Resumes what runs for a game just loaded or changed: the engine's
    /// search when it is to move (after a person's move or a takeback, or
    /// when the server stopped while it thought).
    pub fn resume(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        self.start_engine(arc, lg);
    }

    /// Creates a game, stores it, and starts the engine if it moves first.
    pub async fn create(
        self: &Arc<Self>,
        req: NewGameRequest,
        who: &Requester,
    ) -> Result<GameView, AppError> {
        let owner = who.player.as_str();
        let mode = match req.mode.unwrap_or(LocalMode::Engine) {
            LocalMode::Engine => GameMode::Engine,
            LocalMode::Local => GameMode::Local,
        };
        let variant = req.variant;
        let (game, tags, imported_result) = match (&req.pgn, &req.fen) {
            (Some(_), Some(_)) => return Err(AppError::bad("Give a FEN or a PGN, not both")),
            (Some(pgn), None) => {
                let imported = import_pgn(pgn, variant)?;
                (imported.game, imported.tags, Some(imported.result))
            }
            (None, fen) => (
                new_game(variant.unwrap_or(VariantKind::Tensor), fen.as_deref())?,
                Vec::new(),
                None,
            ),
        };
        let (human_color, level) = match mode {
            GameMode::Engine => {
                let color = req.color.unwrap_or(ColorChoice::WHITE).draw();
                let n = req.level.unwrap_or(DEFAULT_LEVEL);
                let level = Level::new(n).ok_or_else(|| {
                    AppError::bad(format!(
                        "Level {n} does not exist: choose {} to {}",
                        Level::MIN,
                        Level::MAX
                    ))
                })?;
                (Some(color), Some(level))
            }
            GameMode::Local | GameMode::Online => (None, None),
        };
        let tag = |name: &str| {
            tags.iter()
                .find(|(k, v)| k == name && !v.is_empty() && v != "?")
                .map(|(_, v)| v.clone())
        };
        let engine_name = level.map(|l| format!("Engine (level {}: {})", l.number(), l.name()));
        let (white, black) = match (human_color, &engine_name) {
            (Some(Color::White), Some(e)) => ("You".to_string(), e.clone()),
            (Some(Color::Black), Some(e)) => (e.clone(), "You".to_string()),
            _ => (
                tag("White").unwrap_or_else(|| "White".into()),
                tag("Black").unwrap_or_else(|| "Black".into()),
            ),
        };
        let ending = game.outcome().map(Ending::Outcome).or_else(|| {
            imported_result.and_then(|r| match r.as_str() {
                "1-0" => Some(Ending::Imported {
                    winner: Some(Color::White),
                }),
                "0-1" => Some(Ending::Imported {
                    winner: Some(Color::Black),
                }),
                "1/2-1/2" => Some(Ending::Imported { winner: None }),
                _ => None,
            })
        });
        let now = self.live.now();
        let record = GameRecord {
            id: new_id(),
            variant: game.kind(),
            start_fen: game.start_fen(),
            mode,
            human_color,
            level: level.map(|l| l.number()),
            white,
            black,
            owner: Some(owner.to_string()),
            rated: false,
            ending,
            rev: 1,
            created_at: now,
            updated_at: now,
        };
        let mut lg = LiveGame::new(record, game, None);
        if lg.engine_to_move() {
            self.engine.admits_game(who)?;
        }
        lg.set_engine_client(who.client);
        let stored = StoredGame {
            record: lg.record().clone(),
            moves: lg
                .history()
                .iter()
                .map(|h| StoredMove {
                    ply: h.ply,
                    uci: h.uci.clone(),
                    san: h.san.clone(),
                })
                .collect(),
            online: None,
        };
        self.live.store().create_game(&stored).await?;
        let arc = self.live.insert(lg);
        let mut lg = arc.lock().await;
        self.start_engine(&arc, &mut lg);
        Ok(self.live.view(&lg))
    }

    /// The local half of [`Games::act`](crate::round::games::Games::act): a
    /// person's move, takeback or resignation, committed. The engine's
    /// search that follows and the announcement are the caller's.
    pub(crate) async fn apply(
        &self,
        lg: &mut LiveGame,
        me: &Me,
        command: &Command,
    ) -> Result<Step, AppError> {
        match command {
            Command::Move { mv, ply } => {
                lg.set_engine_client(me.requester().client);
                self.play(lg, mv, *ply).await
            }
            Command::Takeback => {
                lg.set_engine_client(me.requester().client);
                self.takeback(lg).await
            }
            Command::Resign => self.resign(lg).await,
            Command::AgreeDraw { rev } => self.agree_draw(lg, *rev).await,
            Command::Delete => {
                self.delete_locked(lg).await?;
                return Ok(Step::unchanged());
            }
            Command::Join { .. }
            | Command::OfferDraw
            | Command::AcceptDraw
            | Command::DeclineDraw
            | Command::Abort
            | Command::ClaimVictory
            | Command::Rematch
            | Command::DeclineRematch
            | Command::Berserk => Err(AppError::refused(
                Kind::NotOnline,
                "This game is not played online",
            )),
        }
        .map(Step::done)
    }

    /// The draw agreed at revision `rev` (the engine's answer, or the two
    /// people's on the device): refused if the game moved on meanwhile.
    async fn agree_draw(&self, lg: &mut LiveGame, rev: i64) -> Result<Committed, AppError> {
        if lg.is_over() {
            return Err(game_over());
        }
        if lg.rev() != rev {
            return Err(AppError::Conflict(
                "The game moved on before the offer was answered".into(),
            ));
        }
        let draw = Outcome::Draw {
            reason: EndReason::Agreement,
        };
        self.live
            .commit(lg, Change::end(GameEvent::Draw, Ending::Outcome(draw)))
            .await
    }

    /// Deletes the local game `lg` (locked by its owner's command): its
    /// search stops, it leaves memory and the store.
    async fn delete_locked(&self, lg: &mut LiveGame) -> Result<(), AppError> {
        lg.stop_search();
        let id = lg.id().to_string();
        self.live.remove(&id);
        if self.live.store().delete_game(&id).await? {
            Ok(())
        } else {
            Err(AppError::NotFound(format!("There is no game {id}")))
        }
    }

    /// Plays a person's move (`ply`: the moves on the board they saw).
    async fn play(
        &self,
        lg: &mut LiveGame,
        text: &str,
        ply: Option<usize>,
    ) -> Result<Committed, AppError> {
        if lg.is_over() {
            return Err(game_over());
        }
        if let Some(ply) = ply {
            if ply != lg.ply() {
                return Err(AppError::Conflict(format!(
                    "The game has moved on (move {} was expected, the game is at {}): reload it",
                    ply,
                    lg.ply()
                )));
            }
        }
        if lg.engine_to_move() {
            return Err(AppError::Conflict(
                "It is the engine's turn: wait for its move".into(),
            ));
        }
        let m = lg.game().parse_player_move(text)?;
        if lg.mode() == GameMode::Engine {
            let owner = lg.record().owner.clone().unwrap_or_default();
            self.engine
                .admits_game(&Requester::new(&owner, lg.engine_client()))?;
        }
        self.live.commit(lg, move_change(m)).await
    }

    /// Takes back the last move (against the engine: the person's last move
    /// and the engine's answer). A finished game stays finished.
    async fn takeback(&self, lg: &mut LiveGame) -> Result<Committed, AppError> {
        if lg.is_over() {
            return Err(game_over());
        }
        let count = match lg.human_color() {
            Some(human) if lg.mode() == GameMode::Engine && lg.turn() == human => 2,
            _ => 1,
        };
        if lg.ply() < count {
            return Err(AppError::Conflict(
                "There is no move of yours to take back".into(),
            ));
        }
        lg.stop_search();
        let change = Change {
            event: GameEvent::Takeback,
            moves: MovesEdit::TakeBack(count),
            ending: EndingEdit::ByRules,
            online: None,
            names: None,
        };
        self.live.commit(lg, change).await
    }

    /// The person resigns (two players on one device: the side to move
    /// resigns).
    async fn resign(&self, lg: &mut LiveGame) -> Result<Committed, AppError> {
        if lg.is_over() {
            return Err(game_over());
        }
        let loser = match (lg.mode(), lg.human_color()) {
            (GameMode::Engine, Some(c)) => c,
            _ => lg.turn(),
        };
        let outcome = Outcome::Decisive {
            winner: !loser,
            reason: EndReason::Resignation,
        };
        self.live
            .commit(lg, Change::end(GameEvent::Resign, Ending::Outcome(outcome)))
            .await
    }

    /// The answer to a draw offer in local game `arc`: the engine decides
    /// by its evaluation (searching without the game's lock); on one
    /// device, the players have already agreed. The draw itself is
    /// [`Command::AgreeDraw`] at the revision answered.
    pub(in crate::round) async fn draw_answer(
        &self,
        arc: &SharedGame,
        me: &Me,
    ) -> Result<DrawAnswer, AppError> {
        let (game, rev, engine_color) = {
            let lg = arc.lock().await;
            if lg.is_over() {
                return Err(game_over());
            }
            let engine_color = match lg.mode() {
                GameMode::Engine => lg.human_color().map(|c| !c),
                GameMode::Local => None,
                GameMode::Online => {
                    return Err(AppError::refused(
                        Kind::NotAllowed,
                        "In an online game, offer a draw with the offer_draw action",
                    ))
                }
            };
            (lg.game().clone(), lg.rev(), engine_color)
        };
        let Some(engine_color) = engine_color else {
            return Ok(DrawAnswer {
                code: DrawAnswerCode::Agreed,
                rev,
            });
        };
        let code = self.engine_answers_draw(game, engine_color, me).await?;
        Ok(DrawAnswer { code, rev })
    }
}

/// The answer to a local game's draw offer.
pub struct DrawAnswer {
    /// The answer (whether the draw is agreed follows from it).
    pub code: DrawAnswerCode,
    /// The game's revision the answer was given at.
    pub rev: i64,
}

/// A move, with the end the rules give it.
pub fn move_change(m: tensorchess_rules::Move) -> Change {
    Change {
        event: GameEvent::Move,
        moves: MovesEdit::Play(m),
        ending: EndingEdit::ByRules,
        online: None,
        names: None,
    }
}
