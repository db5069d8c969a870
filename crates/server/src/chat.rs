//! Chat: each online game has the players' room and the spectators'
//! room (players do not see the spectators' room while the game runs, as
//! on lichess), and each tournament one room for its players and
//! watchers, with the same limits and moderation. Messages are plain text
//! of at most 140 characters, stored with the game (or the tournament),
//! sent to the room's WebSocket topic `chat:{id}:{room}` (on every
//! server), and shown again after a reload. A player may mute
//! the other side in one game (remembered); anyone in a room may report a
//! message to the operator, who can mute a player's chat everywhere
//! (`tensorchess admin reports`, `admin mute`).

use crate::error::AppError;
use crate::identity::Me;
use crate::ids::{PlayerId, TournamentId};
use crate::kind::Kind;
use crate::ratelimit::{KeyedLimiter, RateLimit};
use crate::round::live::{LiveGame, LiveGames};
use crate::round::online::OnlineGames;
use crate::store::{
    Cap, ChatMessage, ChatRoom, NewChatMessage, NewReport, ReportCaps, Reported, CHAT_HISTORY,
};
use crate::views::ServerEvent;
use std::collections::HashMap;
use std::sync::Arc;
use tensorchess_rules::Color;

pub use crate::text::MAX_CHARS;
/// Messages a player may send back to back, then one every two seconds
/// (five in ten seconds).
pub const CHAT_RATE: RateLimit = RateLimit {
    burst: 5,
    per_second: 0.5,
};

pub use crate::views::chat::{ChatLineView, ChatView};

use crate::topic::HubTopic;

pub use crate::text::clean_text;

/// Open reports one reporter may have waiting for the operator.
pub const MAX_OPEN_REPORTS_PER_REPORTER: usize = 10;
/// Open reports from one client address (fresh guests behind it count
/// together).
pub const MAX_OPEN_REPORTS_PER_ADDRESS: usize = 20;
/// Open reports in all: the operator's queue. When it is full the newest
/// report is refused (`429`), and those waiting stay to be read.
pub const MAX_OPEN_REPORTS: usize = 500;
pub use crate::players::mutes::{muted, muted_refusal, ADDRESS_MUTE_MS};

/// The chat service.
pub struct Chat {
    live: Arc<LiveGames>,
    limiter: KeyedLimiter<PlayerId>,
}

/// What a player may do in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    read: bool,
    write: bool,
}

impl Chat {
    /// The chat of the games in `live`.
    pub fn new(live: Arc<LiveGames>) -> Chat {
        Chat {
            live,
            limiter: KeyedLimiter::new(CHAT_RATE),
        }
    }

    /// Who may read and write `room` of `lg`: the players' room is the
    /// players'; the spectators' room is everyone else's, the players'
    /// too once the game is over; only accounts write as spectators
    /// (guests chat only in games they play).
    fn access(
        lg: &LiveGame,
        me: &Me,
        has_account: bool,
        room: ChatRoom,
    ) -> Result<Access, AppError> {
        if lg.online().is_none() {
            return Err(AppError::refused(
                Kind::NotOnline,
                "Only online games have a chat",
            ));
        }
        let seated = OnlineGames::seat(lg, me).is_some();
        Ok(match room {
            // A game has no tournament's room.
            ChatRoom::Tournament => Access {
                read: false,
                write: false,
            },
            ChatRoom::Players => Access {
                read: seated,
                write: seated,
            },
            ChatRoom::Spectators => {
                let read = !seated || lg.is_over();
                Access {
                    read,
                    write: read && has_account,
                }
            }
        })
    }

    /// Whether `me` may follow `room` of `lg` (a WebSocket subscription).
    pub fn may_read(lg: &LiveGame, me: &Me, room: ChatRoom) -> bool {
        Self::access(lg, me, false, room).is_ok_and(|a| a.read)
    }

    /// The line a page shows for a stored message, its author's account
    /// (for a link to the profile) from `accounts`.
    fn line(
        &self,
        m: &ChatMessage,
        seat: Option<Color>,
        accounts: &HashMap<String, String>,
    ) -> ChatLineView {
        ChatLineView {
            id: m.id,
            room: m.message.room,
            name: m.message.name.clone(),
            account: accounts.get(&m.message.author).cloned(),
            seat,
            title: self.live.bot_marks().title(Some(&m.message.author)),
            text: m.message.text.clone(),
            at: m.message.at,
        }
    }

    /// The seat of a message's author in `lg`'s players' room.
    fn seat_of(lg: &LiveGame, m: &ChatMessage) -> Option<Color> {
        if m.message.room != ChatRoom::Players {
            return None;
        }
        let o = lg.online()?;
        [Color::White, Color::Black]
            .into_iter()
            .find(|c| o.player(*c) == Some(m.message.author.as_str()))
    }

    /// A room's newest messages, as `me` may see them.
    pub async fn history(
        &self,
        lg: &LiveGame,
        me: &Me,
        has_account: bool,
        room: ChatRoom,
    ) -> Result<ChatView, AppError> {
        let access = Self::access(lg, me, has_account, room)?;
        if !access.read {
            return Err(AppError::refused(
                Kind::NotYourRoom,
                "This room is not yours to read: the players' chat is theirs, and the spectators' is hidden from the players until the game ends",
            ));
        }
        let store = self.live.store();
        let muted = room == ChatRoom::Players && store.opponent_muted(&me.id, lg.id()).await?;
        let stored = store.chat(lg.id(), room, CHAT_HISTORY).await?;
        let hidden = self.muted_authors(&stored).await?;
        let accounts = self.accounts(&stored).await?;
        let lines = stored
            .iter()
            .filter(|m| !muted || m.message.author == me.id)
            .filter(|m| !hidden.contains(&m.message.author))
            .map(|m| self.line(m, Self::seat_of(lg, m), &accounts))
            .collect();
        Ok(ChatView {
            room,
            lines,
            muted,
            can_write: access.write,
        })
    }

    /// The accounts (usernames) of `lines`' authors who have one.
    async fn accounts(&self, lines: &[ChatMessage]) -> Result<HashMap<String, String>, AppError> {
        let mut authors: Vec<&str> = lines.iter().map(|m| m.message.author.as_str()).collect();
        authors.sort_unstable();
        authors.dedup();
        let mut accounts = HashMap::with_capacity(authors.len());
        for author in authors {
            if let Some(account) = self
                .live
                .store()
                .player(author)
                .await?
                .and_then(|p| p.account)
            {
                accounts.insert(author.to_string(), account);
            }
        }
        Ok(accounts)
    }

    /// The authors of `lines` the operator has muted now: their lines are
    /// hidden from every room's history while the mute lasts.
    async fn muted_authors(&self, lines: &[ChatMessage]) -> Result<Vec<String>, AppError> {
        let now = self.live.now();
        let mut authors: Vec<&str> = lines.iter().map(|m| m.message.author.as_str()).collect();
        authors.sort_unstable();
        authors.dedup();
        let mut muted = Vec::new();
        for author in authors {
            let until = self.live.store().chat_muted_until(author).await?;
            if until.is_some_and(|u| u > now) {
                muted.push(author.to_string());
            }
        }
        Ok(muted)
    }

    /// Posts `text` as `me` (named `name`) in `room` of `lg`, and sends it
    /// to the room's pages on every server.
    pub async fn post(
        &self,
        lg: &LiveGame,
        me: &Me,
        author: (String, bool),
        room: ChatRoom,
        text: &str,
    ) -> Result<ChatLineView, AppError> {
        let access = Self::access(lg, me, author.1, room)?;
        self.post_with(lg, me, author, room, text, access).await
    }

    /// [`Chat::post`] for a player's program (the Bot and Board APIs): as
    /// on lichess, a program may greet the spectators during its game,
    /// though its player never reads their room until the game ends.
    pub async fn post_from_program(
        &self,
        lg: &LiveGame,
        me: &Me,
        author: (String, bool),
        room: ChatRoom,
        text: &str,
    ) -> Result<ChatLineView, AppError> {
        let mut access = Self::access(lg, me, author.1, room)?;
        if room == ChatRoom::Spectators && author.1 && OnlineGames::seat(lg, me).is_some() {
            access.write = true;
        }
        self.post_with(lg, me, author, room, text, access).await
    }

    async fn post_with(
        &self,
        lg: &LiveGame,
        me: &Me,
        (name, has_account): (String, bool),
        room: ChatRoom,
        text: &str,
        access: Access,
    ) -> Result<ChatLineView, AppError> {
        if !access.write {
            let message = match room {
                ChatRoom::Players => "Only the players write in the players' chat",
                ChatRoom::Spectators if !access.read => {
                    "Players write in the spectators' chat only once the game is over"
                }
                ChatRoom::Spectators => {
                    "Log in to chat as a spectator (guests chat in the games they play)"
                }
                ChatRoom::Tournament => "A game has no tournament's room",
            };
            let kind = if access.read && room == ChatRoom::Spectators {
                Kind::AccountNeeded
            } else {
                Kind::NotYourRoom
            };
            return Err(AppError::refused(kind, message));
        }
        let stored = self
            .store_line(lg.id(), room, me, (name, has_account), text)
            .await?;
        let accounts = self.accounts(std::slice::from_ref(&stored)).await?;
        let line = self.line(&stored, Self::seat_of(lg, &stored), &accounts);
        self.announce(&HubTopic::chat(lg.id(), room), &line);
        Ok(line)
    }

    /// Stores a line of `me`'s in room `room` of game or tournament `key`,
    /// if its text is one and `me` may speak now (the operator's mute, the
    /// rate): the same limits in every room.
    async fn store_line(
        &self,
        key: &str,
        room: ChatRoom,
        me: &Me,
        (name, has_account): (String, bool),
        text: &str,
    ) -> Result<ChatMessage, AppError> {
        let text = clean_text(text)?;
        let now = self.live.now();
        let store = self.live.store();
        if muted(store, me, !has_account, now).await? {
            return Err(muted_refusal());
        }
        self.limiter
            .take(&me.id, now)
            .map_err(|retry_ms| AppError::TooManyRequests { retry_ms })?;
        Ok(store
            .add_chat(&NewChatMessage {
                game_id: key.to_string(),
                room,
                author: me.id.to_string(),
                name,
                text,
                at: now,
            })
            .await?)
    }

    /// Sends a line to the room's pages here and on the other servers.
    fn announce(&self, topic: &HubTopic, line: &ChatLineView) {
        let message = ServerEvent::Chat {
            topic: topic.to_string(),
            line: Box::new(line.clone()),
        };
        self.live
            .cluster()
            .publish_everywhere(self.live.hub(), topic, message);
    }

    /// Mutes (or unmutes) the other side's chat for `me` in `lg`.
    pub async fn mute_opponent(&self, lg: &LiveGame, me: &Me, muted: bool) -> Result<(), AppError> {
        if !Self::access(lg, me, false, ChatRoom::Players)?.write {
            return Err(AppError::refused(
                Kind::NotAPlayer,
                "Only a player mutes the other side's chat",
            ));
        }
        self.live
            .store()
            .set_opponent_muted(&me.id, lg.id(), muted)
            .await?;
        Ok(())
    }

    /// Reports message `id` of game `lg` for the operator, as one who may
    /// read it.
    pub async fn report(&self, id: i64, me: &Me, lg: &LiveGame) -> Result<(), AppError> {
        let store = self.live.store();
        let Some(m) = store
            .chat_message(id)
            .await?
            .filter(|m| m.message.game_id == lg.id() && m.message.room != ChatRoom::Tournament)
        else {
            return Err(AppError::NotFound(format!("There is no message {id}")));
        };
        if !Self::access(lg, me, false, m.message.room)?.read {
            return Err(AppError::NotFound(format!("There is no message {id}")));
        }
        self.file_report(id, me).await
    }

    /// Stores `me`'s report of message `id`, within the report caps.
    async fn file_report(&self, id: i64, me: &Me) -> Result<(), AppError> {
        let store = self.live.store();
        let report = NewReport {
            message: id,
            reporter: me.id.to_string(),
            client: (!me.client.exempt).then(|| me.client.key().to_string()),
            at: self.live.now(),
        };
        let caps = ReportCaps {
            per_reporter: MAX_OPEN_REPORTS_PER_REPORTER,
            per_address: MAX_OPEN_REPORTS_PER_ADDRESS,
            in_all: MAX_OPEN_REPORTS,
        };
        match store.report_chat(&report, &caps).await? {
            Reported::Stored | Reported::Already => Ok(()),
            Reported::Refused(cap) => {
                let why = match cap {
                    Cap::ReportsInAll => {
                        tracing::warn!("the report queue is full ({MAX_OPEN_REPORTS} open)");
                        "The operator has many reports to read: try again later"
                    }
                    _ => "You have many reports waiting for the operator: try again later",
                };
                Err(AppError::refused(Kind::TooMany, why))
            }
        }
    }

    /// A message's room, and the game (or tournament) it is in, for a
    /// report: only the store knows them.
    pub async fn room_of(&self, id: i64) -> Result<(String, ChatRoom), AppError> {
        match self.live.store().chat_message(id).await? {
            Some(m) => Ok((m.message.game_id, m.message.room)),
            None => Err(AppError::NotFound(format!("There is no message {id}"))),
        }
    }

    /// Who may read and write tournament `id`'s room: everyone reads it
    /// (its players and whoever watches); accounts write, and guests who
    /// joined it (as guests chat only in the games they play).
    async fn tournament_access(
        &self,
        id: &TournamentId,
        me: &Me,
        has_account: bool,
    ) -> Result<Access, AppError> {
        let store = self.live.store();
        if store.tournament(id).await?.is_none() {
            return Err(AppError::NotFound(format!("There is no tournament {id}")));
        }
        let write = has_account
            || store
                .tournament_entries(id)
                .await?
                .iter()
                .any(|e| e.player == me.id.as_str());
        Ok(Access { read: true, write })
    }

    /// Tournament `id`'s room: its newest lines (the operator's muted
    /// authors left out), and whether `me` may write.
    pub async fn tournament_history(
        &self,
        id: &TournamentId,
        me: &Me,
        has_account: bool,
    ) -> Result<ChatView, AppError> {
        let access = self.tournament_access(id, me, has_account).await?;
        let stored = self
            .live
            .store()
            .chat(id, ChatRoom::Tournament, CHAT_HISTORY)
            .await?;
        let hidden = self.muted_authors(&stored).await?;
        let accounts = self.accounts(&stored).await?;
        let lines = stored
            .iter()
            .filter(|m| !hidden.contains(&m.message.author))
            .map(|m| self.line(m, None, &accounts))
            .collect();
        Ok(ChatView {
            room: ChatRoom::Tournament,
            lines,
            muted: false,
            can_write: access.write,
        })
    }

    /// Posts `text` as `me` in tournament `id`'s room, with the limits of
    /// game chat, and sends it to the room's pages on every server.
    pub async fn post_in_tournament(
        &self,
        id: &TournamentId,
        me: &Me,
        author: (String, bool),
        text: &str,
    ) -> Result<ChatLineView, AppError> {
        if !self.tournament_access(id, me, author.1).await?.write {
            return Err(AppError::refused(
                Kind::AccountNeeded,
                "Log in to chat here (guests chat in the tournaments they joined)",
            ));
        }
        let room = ChatRoom::Tournament;
        let stored = self.store_line(id, room, me, author, text).await?;
        let accounts = self.accounts(std::slice::from_ref(&stored)).await?;
        let line = self.line(&stored, None, &accounts);
        self.announce(&HubTopic::chat(id, room), &line);
        Ok(line)
    }

    /// Reports message `id` of a tournament's room for the operator
    /// (anyone reads the room).
    pub async fn report_in_tournament(&self, id: i64, me: &Me) -> Result<(), AppError> {
        match self.room_of(id).await? {
            (_, ChatRoom::Tournament) => self.file_report(id, me).await,
            _ => Err(AppError::NotFound(format!("There is no message {id}"))),
        }
    }
}
