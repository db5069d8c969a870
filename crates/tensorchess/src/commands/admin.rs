//! `tensorchess admin`: the operator's tools, on the database a server
//! uses (`--db`, SQLite or PostgreSQL), while it runs or not. Bans, closed
//! accounts and ended sessions are logged, and every running server acts
//! on them within a second (at once over PostgreSQL, which tells them).

use super::error::CliError;
use crate::server::players::valid_username;
use crate::server::store::{BanRecord, Database, GameStore};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// `tensorchess admin`: the database and the action.
#[derive(Args, Debug, Clone)]
pub struct AdminArgs {
    /// The database the server uses: an SQLite file or a PostgreSQL URL.
    #[arg(long, global = true, default_value = "tensorchess.sqlite3")]
    pub db: Database,
    /// What to do.
    #[command(subcommand)]
    pub action: AdminAction,
}

/// The operator's actions.
#[derive(Subcommand, Debug, Clone)]
pub enum AdminAction {
    /// Ban a player (a user name, or a player id for a guest): their
    /// sessions end at once, their seeks go, and they may only look.
    Ban {
        /// USERNAME or PLAYER id.
        target: String,
        /// Shown to the player.
        #[arg(long, default_value = "breaking the rules of this server")]
        reason: String,
    },
    /// Lift a ban.
    Unban {
        /// USERNAME or PLAYER id.
        target: String,
    },
    /// The bans, newest first.
    ListBans,
    /// Give an account another user name (its display name follows if it
    /// was the old user name).
    Rename {
        /// The account's user name now.
        username: String,
        /// The user name it takes.
        new_name: String,
    },
    /// Close an account: nobody logs in to it again; its sessions end.
    Close {
        /// The account's user name.
        username: String,
    },
    /// The open reports of chat messages (oldest first): the report's
    /// number, when, the reporter (name and player id), the game, the
    /// room, the author and the message; one report per reporter and
    /// message. `--close N` closes report N once dealt with.
    Reports {
        /// Close this report.
        #[arg(long, value_name = "N")]
        close: Option<i64>,
    },
    /// Mute a player's chat in every game: their messages (and a
    /// challenge decline's own words) are refused, their earlier lines are
    /// hidden from every room's history while the mute lasts, and logging
    /// out (or a fresh browser at their address) does not lift it.
    Mute {
        /// USERNAME or PLAYER id.
        target: String,
        /// For this many hours (until lifted when not given).
        #[arg(long)]
        hours: Option<u32>,
    },
    /// Lift a chat mute.
    Unmute {
        /// USERNAME or PLAYER id.
        target: String,
    },
    /// Give every local game stored before players existed (they belong
    /// to nobody) to a player.
    Adopt {
        /// USERNAME or PLAYER id of the new owner.
        #[arg(long = "to", value_name = "PLAYER")]
        to: String,
    },
    /// Rebuild the opening explorer's counts from the stored games (every
    /// finished online game counted again, from nothing; evaluations are
    /// kept). Games that end meanwhile are counted once either way.
    ExplorerRebuild,
}

impl Default for AdminArgs {
    fn default() -> Self {
        AdminArgs {
            db: Database::Sqlite(PathBuf::from("tensorchess.sqlite3")),
            action: AdminAction::ListBans,
        }
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Whether `s` has the shape of a player id (20 lower-case hex digits).
fn looks_like_player_id(s: &str) -> bool {
    s.len() == 20
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The player a USERNAME or PLAYER id names.
async fn player_of(store: &Arc<dyn GameStore>, target: &str) -> Result<String, CliError> {
    if valid_username(target) {
        if let Some(account) = store.account(target).await.map_err(db)? {
            return Ok(account.player_id);
        }
    }
    if looks_like_player_id(target) {
        return Ok(target.to_string());
    }
    Err(CliError::new(format!(
        "no account is called {target}, and it is not a player id (20 hex digits)"
    )))
}

fn db(e: impl std::fmt::Display) -> CliError {
    CliError::new(format!("database: {e}"))
}

/// Runs `tensorchess admin`.
pub fn run(args: &AdminArgs) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let store = args
            .db
            .open()
            .await
            .map_err(|e| CliError::new(format!("cannot open the database {}: {e}", args.db)))?;
        for line in act(&store, &args.action).await? {
            println!("{line}");
        }
        Ok(())
    })
}

/// Does one action; returns the lines that report it.
pub async fn act(
    store: &Arc<dyn GameStore>,
    action: &AdminAction,
) -> Result<Vec<String>, CliError> {
    Ok(match action {
        AdminAction::Ban { target, reason } => {
            let player = player_of(store, target).await?;
            let reason = reason.trim();
            if reason.is_empty() || reason.chars().count() > 200 {
                return Err(CliError::new("a reason has 1 to 200 characters"));
            }
            store
                .ban(&BanRecord {
                    player_id: player.clone(),
                    reason: reason.to_string(),
                    banned_at: now_ms(),
                })
                .await
                .map_err(db)?;
            vec![format!("banned {target} (player {player}): {reason}")]
        }
        AdminAction::Unban { target } => {
            let player = player_of(store, target).await?;
            if store.unban(&player).await.map_err(db)? {
                vec![format!("unbanned {target} (player {player})")]
            } else {
                return Err(CliError::new(format!("{target} is not banned")));
            }
        }
        AdminAction::ListBans => {
            let bans = store.bans().await.map_err(db)?;
            if bans.is_empty() {
                vec!["no bans".to_string()]
            } else {
                let mut lines = Vec::with_capacity(bans.len());
                for b in bans {
                    let name = match store.player(&b.player_id).await.map_err(db)? {
                        Some(p) => p.account.unwrap_or(p.name),
                        None => "(guest)".to_string(),
                    };
                    lines.push(format!(
                        "{}\t{}\t{}\t{}",
                        b.player_id, name, b.banned_at, b.reason
                    ));
                }
                lines
            }
        }
        AdminAction::Rename { username, new_name } => {
            if !valid_username(new_name) {
                return Err(CliError::new(
                    "a user name has 3 to 20 letters, digits, '-' or '_', and starts with a letter or digit",
                ));
            }
            match store.rename_account(username, new_name).await {
                Ok(Some(player)) => vec![format!(
                    "renamed {username} to {new_name} (player {player})"
                )],
                Ok(None) => return Err(CliError::new(format!("no account is called {username}"))),
                Err(crate::server::store::StoreError::Conflict(_)) => {
                    return Err(CliError::new(format!("the name {new_name} is taken")))
                }
                Err(e) => return Err(db(e)),
            }
        }
        AdminAction::Close { username } => match store.close_account(username, now_ms()).await {
            Ok(Some(player)) => vec![format!("closed {username} (player {player})")],
            Ok(None) => return Err(CliError::new(format!("no account is called {username}"))),
            Err(e) => return Err(db(e)),
        },
        AdminAction::Reports { close: Some(id) } => {
            if store.close_report(*id, now_ms()).await.map_err(db)? {
                vec![format!("closed report {id}")]
            } else {
                return Err(CliError::new(format!("no open report is numbered {id}")));
            }
        }
        AdminAction::Reports { close: None } => {
            let reports = store.open_reports().await.map_err(db)?;
            if reports.is_empty() {
                return Ok(vec!["no open reports".to_string()]);
            }
            let mut lines = Vec::with_capacity(reports.len());
            for r in reports {
                let reporter = match store.player(&r.reporter).await.map_err(db)? {
                    Some(p) => p.account.unwrap_or(p.name),
                    None => "(guest)".to_string(),
                };
                let m = &r.message.message;
                // Tabs and line ends inside a message would break the columns.
                let text: String = m
                    .text
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                // A tournament's room is stored under the tournament's id.
                let place = match m.room.as_str() {
                    "tournament" => "tournament",
                    _ => "game",
                };
                lines.push(format!(
                    "{}\t{}\t{} ({})\t{place} {}\t{}\t{} ({})\t{}",
                    r.id,
                    r.at,
                    reporter,
                    r.reporter,
                    m.game_id,
                    m.room.as_str(),
                    m.name,
                    m.author,
                    text
                ));
            }
            lines
        }
        AdminAction::Mute { target, hours } => {
            let player = player_of(store, target).await?;
            let until = match hours {
                Some(h) => now_ms().saturating_add(i64::from(*h) * 3_600_000),
                None => i64::MAX,
            };
            store
                .set_chat_mute(&player, Some(until))
                .await
                .map_err(db)?;
            let how_long = match hours {
                Some(h) => format!("for {h} hours"),
                None => "until unmuted".to_string(),
            };
            vec![format!("muted {target} (player {player}) {how_long}")]
        }
        AdminAction::Unmute { target } => {
            let player = player_of(store, target).await?;
            store.set_chat_mute(&player, None).await.map_err(db)?;
            vec![format!("unmuted {target} (player {player})")]
        }
        AdminAction::ExplorerRebuild => {
            let done = crate::server::explorer::rebuild(store.as_ref())
                .await
                .map_err(db)?;
            vec![format!(
                "the explorer counts {} games ({} finished online games read)",
                done.counted, done.read
            )]
        }
        AdminAction::Adopt { to } => {
            let player = player_of(store, to).await?;
            let ids = store.adopt_unowned(&player).await.map_err(db)?;
            let mut lines = vec![format!(
                "{} games now belong to {to} (player {player})",
                ids.len()
            )];
            lines.extend(ids);
            lines
        }
    })
}
