//! Trust between players (issue 38): who follows whom, per-account
//! preferences, the look-alike key of names, and the caps a write is
//! checked against in the same transaction as the write itself (so that
//! neither a race nor several servers over one database pass them).

use crate::{AccountRecord, StoreError};
use async_trait::async_trait;
use unicode_normalization::UnicodeNormalization;

/// An account a player follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowRecord {
    /// The player followed (an account's player id).
    pub followed: String,
    /// When they were followed (ms).
    pub at: i64,
}

/// What an account chose about the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// Challenges from guests (players without an account) arrive; when
    /// `false` they are refused.
    pub challenges_from_guests: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            challenges_from_guests: true,
        }
    }
}

/// The key under which names are compared for look-alikes: NFKC (full-width
/// letters become plain ones), lower case, then the confusables skeleton of
/// Unicode's UTS 39 (a Cyrillic `е` becomes a Latin `e`), lower case again.
/// Two names with one key pass for each other on a page.
pub fn name_key(name: &str) -> String {
    let folded: String = name.nfkc().collect::<String>().to_lowercase();
    unicode_security::skeleton(&folded)
        .collect::<String>()
        .to_lowercase()
}

/// Which cap refused a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// Open challenges from one player to the same other player.
    PerPair,
    /// Open challenges one player made.
    Made,
    /// Open challenges from one client address.
    FromAddress,
    /// Challenges from one stranger to one player in the window.
    PlayerToReceiver,
    /// Challenges from one address to one player in the window (strangers).
    AddressToReceiver,
    /// Open challenges from strangers one player holds.
    Received,
    /// Tournaments one player made in the window.
    TournamentsByPlayer,
    /// Tournaments made from one address in the window.
    TournamentsByAddress,
    /// Open reports of one reporter.
    ReportsByPlayer,
    /// Open reports from one address.
    ReportsByAddress,
    /// Open reports in all.
    ReportsInAll,
}

/// The caps a new challenge is checked against, in the transaction that
/// stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeCaps {
    /// Now (ms): open challenges are those not expired by then.
    pub now: i64,
    /// Open challenges from the challenger to the same player.
    pub per_pair: usize,
    /// Open challenges the challenger made.
    pub made: usize,
    /// Open challenges from the challenge's client address; `None` when
    /// the address is exempt (or unknown).
    pub from_address: Option<usize>,
    /// Set when the challenger is a stranger to the player challenged
    /// (not followed by them, never played): the challenge is stored as a
    /// stranger's, and these caps hold too.
    pub stranger: Option<StrangerCaps>,
}

/// The caps on a stranger's challenge, which guard the receiver's inbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrangerCaps {
    /// Challenges made since then (ms) count for the two caps below.
    pub since: i64,
    /// Challenges from the challenger to this player since `since`
    /// (open, declined, withdrawn or expired: a decline frees no slot).
    pub player_to_receiver: usize,
    /// The same from the challenge's client address; `None`: exempt.
    pub address_to_receiver: Option<usize>,
    /// Open challenges from strangers the player challenged holds.
    pub received: usize,
}

/// The counts a new challenge's caps compare, in [`challenge_counts_sql`]'s
/// order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChallengeCounts {
    /// Open from the challenger to the player challenged.
    pub per_pair: i64,
    /// Open made by the challenger.
    pub made: i64,
    /// Open from the client address.
    pub from_address: i64,
    /// From the challenger to the player challenged since the window.
    pub player_to_receiver: i64,
    /// From the client address to the player challenged since the window.
    pub address_to_receiver: i64,
    /// Open from strangers held by the player challenged.
    pub received: i64,
}

impl ChallengeCaps {
    /// The first cap the counts reach, if any.
    pub fn refusal(&self, n: &ChallengeCounts) -> Option<Cap> {
        let full = |count: i64, cap: usize| count >= cap as i64;
        if full(n.per_pair, self.per_pair) {
            return Some(Cap::PerPair);
        }
        if full(n.made, self.made) {
            return Some(Cap::Made);
        }
        if self
            .from_address
            .is_some_and(|cap| full(n.from_address, cap))
        {
            return Some(Cap::FromAddress);
        }
        let s = self.stranger.as_ref()?;
        if full(n.player_to_receiver, s.player_to_receiver) {
            return Some(Cap::PlayerToReceiver);
        }
        if s.address_to_receiver
            .is_some_and(|cap| full(n.address_to_receiver, cap))
        {
            return Some(Cap::AddressToReceiver);
        }
        if full(n.received, s.received) {
            return Some(Cap::Received);
        }
        None
    }
}

/// One query counting what [`ChallengeCaps`] compares: `1` the challenger,
/// `2` the player challenged, `3` the client address (NULL: none), `4` now,
/// `5` the window's start.
pub fn challenge_counts_sql(mark: fn(usize) -> String) -> String {
    let (from, to, client, now, since) = (mark(1), mark(2), mark(3), mark(4), mark(5));
    let open = format!("state = 'open' AND expires_at > {now}");
    // Only strangers' challenges count toward the caps on strangers (a
    // friend behind the same address takes no stranger's place).
    let recent = format!("stranger AND created_at >= {since} AND state <> 'accepted'");
    let count = |cond: String| format!("COALESCE(SUM(CASE WHEN {cond} THEN 1 ELSE 0 END), 0)");
    format!(
        "SELECT {}, {}, {}, {}, {}, {} FROM challenges \
         WHERE challenger = {from} OR challenged = {to} OR client = {client}",
        count(format!(
            "challenger = {from} AND challenged = {to} AND {open}"
        )),
        count(format!("challenger = {from} AND {open}")),
        count(format!("client = {client} AND {open}")),
        count(format!(
            "challenger = {from} AND challenged = {to} AND {recent}"
        )),
        count(format!(
            "client = {client} AND challenged = {to} AND {recent}"
        )),
        count(format!("challenged = {to} AND stranger AND {open}")),
    )
}

/// The caps on making a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentCaps {
    /// Tournaments made since then (ms) count.
    pub since: i64,
    /// Made by the player.
    pub per_player: usize,
    /// Made from the client address; `None`: exempt.
    pub per_address: Option<usize>,
}

impl TournamentCaps {
    /// The first cap the counts (by the player, from the address) reach.
    pub fn refusal(&self, by_player: i64, by_address: i64) -> Option<Cap> {
        if by_player >= self.per_player as i64 {
            return Some(Cap::TournamentsByPlayer);
        }
        if self.per_address.is_some_and(|cap| by_address >= cap as i64) {
            return Some(Cap::TournamentsByAddress);
        }
        None
    }
}

/// Counts the tournaments `1` made and those from address `2` (NULL:
/// none) since `3`.
pub fn tournament_counts_sql(mark: fn(usize) -> String) -> String {
    let (by, client, since) = (mark(1), mark(2), mark(3));
    format!(
        "SELECT COALESCE(SUM(CASE WHEN created_by = {by} THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN client = {client} THEN 1 ELSE 0 END), 0) \
         FROM tournaments WHERE (created_by = {by} OR client = {client}) AND created_at >= {since}"
    )
}

/// A report of a chat line to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    /// The line reported.
    pub message: i64,
    /// Who reports it (player id).
    pub reporter: String,
    /// The reporter's client address (its limit key); `None`: exempt.
    pub client: Option<String>,
    /// When (ms).
    pub at: i64,
}

/// The caps on open reports: the operator's queue is bounded, and no
/// reporter or address fills it alone. When it is full the newest report
/// is refused (those waiting are the operator's to read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportCaps {
    /// Open reports of one reporter.
    pub per_reporter: usize,
    /// Open reports from one address (when the report has one).
    pub per_address: usize,
    /// Open reports in all.
    pub in_all: usize,
}

/// What became of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Stored for the operator.
    Stored,
    /// This reporter had reported that line already (one report per
    /// reporter and line).
    Already,
    /// A cap refused it; nothing was stored.
    Refused(Cap),
}

impl ReportCaps {
    /// The first cap the open counts (of the reporter, of the address, in
    /// all) reach.
    pub fn refusal(&self, by_reporter: i64, by_address: i64, in_all: i64) -> Option<Cap> {
        if by_reporter >= self.per_reporter as i64 {
            Some(Cap::ReportsByPlayer)
        } else if by_address >= self.per_address as i64 {
            Some(Cap::ReportsByAddress)
        } else if in_all >= self.in_all as i64 {
            Some(Cap::ReportsInAll)
        } else {
            None
        }
    }
}

/// Counts the open reports of reporter `1`, from address `2` (NULL: none),
/// and in all.
pub fn report_counts_sql(mark: fn(usize) -> String) -> String {
    let (reporter, client) = (mark(1), mark(2));
    format!(
        "SELECT COALESCE(SUM(CASE WHEN reporter = {reporter} THEN 1 ELSE 0 END), 0), \
         COALESCE(SUM(CASE WHEN client = {client} THEN 1 ELSE 0 END), 0), COUNT(*) \
         FROM chat_reports WHERE closed_at IS NULL"
    )
}

/// Whether `a` and `b` sat at one online game that is running or ended
/// other than by an abort: `1` and `2` the two players.
pub fn have_played_sql(mark: fn(usize) -> String) -> String {
    let (a, b) = (mark(1), mark(2));
    format!(
        "SELECT 1 FROM online_games o JOIN games g ON g.id = o.game_id \
         WHERE ((o.white_player = {a} AND o.black_player = {b}) \
             OR (o.white_player = {b} AND o.black_player = {a})) \
           AND (g.end_reason IS NULL \
             OR (g.end_reason <> 'aborted' AND g.end_reason NOT LIKE '%did_not_move')) \
         LIMIT 1"
    )
}

/// Storage for follows, preferences, name keys and address mutes. Each
/// method is one atomic write or one read.
#[async_trait]
pub trait TrustRepo: Send + Sync + 'static {
    /// `follower` follows `followed` from `at` on; `false` when they did
    /// already.
    async fn follow(&self, follower: &str, followed: &str, at: i64) -> Result<bool, StoreError>;
    /// `follower` stops following `followed`; `false` when they did not.
    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError>;
    /// Whether `follower` follows `followed`.
    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError>;
    /// The players `follower` follows, most recent first, at most `limit`.
    async fn following(
        &self,
        follower: &str,
        limit: usize,
    ) -> Result<Vec<FollowRecord>, StoreError>;
    /// Whether players `a` and `b` sat at one online game that is running
    /// or ended other than by an abort.
    async fn have_played(&self, a: &str, b: &str) -> Result<bool, StoreError>;
    /// An account's preferences (the defaults when it set none).
    async fn preferences(&self, player: &str) -> Result<Preferences, StoreError>;
    /// Stores an account's preferences.
    async fn set_preferences(&self, player: &str, p: &Preferences) -> Result<(), StoreError>;
    /// The accounts (closed ones too) whose user name has the look-alike
    /// key `key` ([`name_key`]), at most a few.
    async fn accounts_with_key(&self, key: &str) -> Result<Vec<AccountRecord>, StoreError>;
    /// Mutes the chat of guests from client address `address` until
    /// `until` (ms), keeping a later mute already there.
    async fn mute_address(&self, address: &str, until: i64) -> Result<(), StoreError>;
    /// Until when guests' chat from `address` is muted, if it is.
    async fn address_muted_until(&self, address: &str) -> Result<Option<i64>, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_share_a_key() {
        assert_eq!(name_key("Guest 1a2b"), name_key("Gu\u{435}st 1a2b"));
        assert_eq!(name_key("Guest"), name_key("\u{ff27}uest"));
        assert_eq!(name_key("ADA"), name_key("ada"));
        assert_eq!(name_key("ada"), name_key("\u{430}d\u{430}"));
        assert_ne!(name_key("ada"), name_key("bob"));
    }

    #[test]
    fn the_first_full_cap_refuses() {
        let caps = ChallengeCaps {
            now: 0,
            per_pair: 3,
            made: 10,
            from_address: Some(30),
            stranger: Some(StrangerCaps {
                since: 0,
                player_to_receiver: 3,
                address_to_receiver: Some(3),
                received: 50,
            }),
        };
        let none = ChallengeCounts::default();
        assert_eq!(caps.refusal(&none), None);
        let n = ChallengeCounts {
            address_to_receiver: 3,
            ..none
        };
        assert_eq!(caps.refusal(&n), Some(Cap::AddressToReceiver));
        let trusted = ChallengeCaps {
            stranger: None,
            ..caps.clone()
        };
        assert_eq!(trusted.refusal(&n), None, "a friend's challenge arrives");
        let n = ChallengeCounts { made: 10, ..n };
        assert_eq!(trusted.refusal(&n), Some(Cap::Made));
    }
}
