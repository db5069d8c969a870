//! Playing a friend: seats held by secret tokens in cookies, server-kept
//! clocks, presence, and the pieces the games service builds online play from.
//!
//! - **Seats.** Creating an online game gives the creator a seat; the first
//!   other person to ask for the free seat gets it. Each seat is a random
//!   256-bit token (the operating system's CSPRNG) sent once, in an
//!   `HttpOnly; SameSite=Lax` cookie named after the game (`tcseat_ID`). The
//!   server keeps only its SHA-256, so neither the database nor any view
//!   holds a token, and spectators and the opponent never see one.
//! - **Clocks.** See [`OnlineState`]: the side to move's time runs from the
//!   start of its turn; a move first checks the flag, then adds the increment.
//!   The clocks start once both sides have made their first move.

use super::clock::Clock;
use super::hub::Hub;
use super::store::OnlineRecord;
use super::views::{ClockView, OnlineView, SeatView, ServerEvent};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use tensorchess_rules::Color;
use tokio::task::AbortHandle;

/// The cookie holding the seat of game `id`.
pub fn seat_cookie_name(id: &str) -> String {
    format!("{SEAT_COOKIE_PREFIX}{id}")
}

pub const SEAT_COOKIE_PREFIX: &str = "tcseat_";

/// How long a browser keeps a seat cookie (a year: long games are allowed).
pub const SEAT_COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The `Set-Cookie` value that gives the holder the seat in game `id`;
/// `secure` when the page was reached over HTTPS (then the cookie is never
/// sent in clear).
pub fn seat_cookie(id: &str, token: &str, secure: bool) -> HeaderValue {
    let value = format!(
        "{}={token}; Path=/; Max-Age={SEAT_COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax{}",
        seat_cookie_name(id),
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A new seat token: 256 random bits from the operating system, in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    if rand::rngs::OsRng.try_fill_bytes(&mut bytes).is_err() {
        // The thread-local generator is a CSPRNG seeded from the OS as well.
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    }
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the server stores of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `s` looks like a token (anything else is not even hashed).
fn plausible_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether the request came over HTTPS (through a proxy that says so).
pub fn via_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// The request's cookies (the `Cookie` headers), parsed leniently and bounded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cookies(Vec<(String, String)>);

/// Cookies looked at per request.
const MAX_COOKIES: usize = 200;

impl Cookies {
    pub fn from_headers(headers: &HeaderMap) -> Cookies {
        let mut out = Vec::new();
        for value in headers.get_all(header::COOKIE) {
            let Ok(text) = value.to_str() else { continue };
            for pair in text.split(';') {
                if out.len() >= MAX_COOKIES {
                    break;
                }
                if let Some((k, v)) = pair.trim().split_once('=') {
                    out.push((k.trim().to_string(), v.trim().trim_matches('"').to_string()));
                }
            }
        }
        Cookies(out)
    }

    /// A cookie line as a browser sends it (`a=1; b=2`): for clients and tests.
    pub fn parse(line: &str) -> Cookies {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(line) {
            h.insert(header::COOKIE, v);
        }
        Cookies::from_headers(&h)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The games whose seat cookie this request carries.
    pub fn seat_games(&self) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|(k, _)| k.strip_prefix(SEAT_COOKIE_PREFIX))
            .filter(|id| super::games::valid_id(id))
            .map(str::to_string)
            .collect()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Cookies {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Cookies::from_headers(&parts.headers))
    }
}

/// The seat a request holds in a game, and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatClaim {
    pub color: Color,
    pub token: String,
    /// Found through the cookie of the game this one is a rematch of: the
    /// answer should set this game's own cookie.
    pub inherited: bool,
}

pub fn color_name(c: Color) -> &'static str {
    c.name()
}

pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// An online game's state in memory: the stored record plus what only
/// lives while the server runs.
///
/// Clock arithmetic: `record.white_ms`/`black_ms` are the times left at the
/// start of the current turn; while a clock runs, the side to move has
/// `its time - (now - turn_origin)` left.
pub struct OnlineState {
    pub record: OnlineRecord,
    /// When the running clock started, on this server's clock; `None` while
    /// no clock runs. Equal to `record.turn_started_at` unless the turn began
    /// before a restart (then it is moved forward by the time the server was down).
    pub turn_origin: Option<i64>,
    /// When a clocked game is aborted because the side to move has not made
    /// its first move (server clock); `None` when that rule does not apply.
    /// Kept in memory only: after a restart the wait starts again.
    pub first_move_deadline: Option<i64>,
    /// Bumped every time the flag timer is re-armed; an older timer that
    /// wakes up finds a different number and does nothing.
    pub timer_gen: u64,
    pub timer: Option<AbortHandle>,
    /// The ply at which each side (white, black) last offered a draw: one
    /// offer per move, so that offers cannot be spammed.
    pub last_offer: [Option<usize>; 2],
    pub clock: Arc<dyn Clock>,
    pub presence: Arc<Presence>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl OnlineState {
    pub fn seat_hash(&self, c: Color) -> Option<&str> {
        match c {
            Color::White => self.record.white_seat.as_deref(),
            Color::Black => self.record.black_seat.as_deref(),
        }
    }

    pub fn set_seat(record: &mut OnlineRecord, c: Color, hash: String) {
        match c {
            Color::White => record.white_seat = Some(hash),
            Color::Black => record.black_seat = Some(hash),
        }
    }

    pub fn both_seated(&self) -> bool {
        self.record.white_seat.is_some() && self.record.black_seat.is_some()
    }

    pub fn free_seat(&self) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|c| self.seat_hash(*c).is_none())
    }

    /// The seat `cookies` hold in game `id`: its own cookie, or the cookie of
    /// the game it is a rematch of (the rematch keeps the players' tokens,
    /// colours swapped).
    pub fn seat_of(&self, id: &str, cookies: &Cookies) -> Option<SeatClaim> {
        let mut names = vec![(seat_cookie_name(id), false)];
        if let Some(prev) = &self.record.rematch_of {
            names.push((seat_cookie_name(prev), true));
        }
        for (name, inherited) in names {
            let Some(token) = cookies.get(&name).filter(|t| plausible_token(t)) else {
                continue;
            };
            let hash = token_hash(token);
            for c in [Color::White, Color::Black] {
                if self.seat_hash(c) == Some(hash.as_str()) {
                    return Some(SeatClaim {
                        color: c,
                        token: token.to_string(),
                        inherited,
                    });
                }
            }
        }
        None
    }

    /// Time stored for `c` at the start of the turn.
    pub fn stored_ms(record: &OnlineRecord, c: Color) -> i64 {
        match c {
            Color::White => record.white_ms,
            Color::Black => record.black_ms,
        }
    }

    pub fn set_ms(record: &mut OnlineRecord, c: Color, ms: i64) {
        match c {
            Color::White => record.white_ms = ms,
            Color::Black => record.black_ms = ms,
        }
    }

    /// Time `c` has left at `now` when `turn` is to move (may be negative:
    /// the flag has fallen); `None` without a clock.
    pub fn remaining(&self, c: Color, turn: Color, now: i64) -> Option<i64> {
        self.record.clock?;
        let stored = Self::stored_ms(&self.record, c);
        Some(match self.turn_origin {
            Some(origin) if c == turn => stored - (now - origin).max(0),
            _ => stored,
        })
    }

    /// The clocks stopped at `now` (the game ended): the side to move is
    /// charged its time so far.
    pub fn stopped_record(&self, turn: Color, now: i64) -> OnlineRecord {
        let mut record = self.record.clone();
        if let Some(left) = self.remaining(turn, turn, now) {
            Self::set_ms(&mut record, turn, left.max(0));
        }
        record.turn_started_at = None;
        record.draw_offer = None;
        record
    }

    pub fn view(&self, id: &str, turn: Color, plies: usize, ended: bool) -> OnlineView {
        let now = self.clock.now_ms();
        let connected = self.presence.connected(id);
        let clock = self.record.clock.map(|c| {
            let left = |color| self.remaining(color, turn, now).unwrap_or(0).max(0);
            ClockView {
                base_ms: c.base_ms,
                increment_ms: c.increment_ms,
                white_ms: left(Color::White),
                black_ms: left(Color::Black),
                running: (self.turn_origin.is_some() && !ended).then(|| turn.name()),
                first_move_ms: self
                    .first_move_deadline
                    .filter(|_| !ended)
                    .map(|d| (d - now).max(0)),
            }
        });
        OnlineView {
            white: SeatView {
                taken: self.record.white_seat.is_some(),
                connected: connected[0],
            },
            black: SeatView {
                taken: self.record.black_seat.is_some(),
                connected: connected[1],
            },
            clock,
            draw_offer: self.record.draw_offer.clone(),
            rematch_offer: self.record.rematch_offer.clone(),
            rematch_of: self.record.rematch_of.clone(),
            rematch_id: self.record.rematch_id.clone(),
            can_abort: !ended && (plies < 2 || !self.both_seated()),
        }
    }

    pub fn offered_at(&self, c: Color) -> Option<usize> {
        self.last_offer[idx(c)]
    }

    pub fn note_offer(&mut self, c: Color, ply: usize) {
        self.last_offer[idx(c)] = Some(ply);
    }

    pub fn cancel_timer(&mut self) {
        self.timer_gen += 1;
        if let Some(t) = self.timer.take() {
            t.abort();
        }
    }
}

/// How much of the time since `turn_started` counted on earlier runs of
/// the server: the parts of `runs` (other than the current one) after the
/// turn began. The downtime between runs is not counted.
pub fn time_in_runs(turn_started: i64, runs: &[super::store::RunRecord], current: i64) -> i64 {
    runs.iter()
        .filter(|r| r.id != current)
        .map(|r| (r.last_seen_ms - r.boot_ms.max(turn_started)).max(0))
        .sum()
}

/// Whether `c` still has pieces that could mate: anything but the king and
/// beasts, on the board or in hand. (A flag against a side without them is a draw.)
pub fn has_mating_material(fen: &str, c: Color) -> bool {
    let board = fen.split_whitespace().next().unwrap_or("");
    board.chars().any(|ch| {
        ch.is_ascii_alphabetic()
            && (ch.is_ascii_uppercase() == (c == Color::White))
            && !matches!(ch.to_ascii_lowercase(), 'k' | 't')
    })
}

/// Who is connected to which online game: each WebSocket subscription of a
/// seat holder counts while it lasts. Changes are announced on the game's topic.
pub struct Presence {
    hub: Arc<Hub>,
    counts: Mutex<HashMap<String, [u32; 2]>>,
}

impl Presence {
    pub fn new(hub: Arc<Hub>) -> Presence {
        Presence {
            hub,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// `[white, black]`: whether each player is connected.
    pub fn connected(&self, id: &str) -> [bool; 2] {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts
            .get(id)
            .map_or([false, false], |c| [c[0] > 0, c[1] > 0])
    }

    /// Counts a connection of `seat` until the guard is dropped.
    pub fn enter(self: &Arc<Self>, id: &str, seat: Color) -> PresenceGuard {
        let changed = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            let c = counts.entry(id.to_string()).or_insert([0, 0]);
            c[idx(seat)] += 1;
            c[idx(seat)] == 1
        };
        if changed {
            self.announce(id);
        }
        PresenceGuard {
            presence: self.clone(),
            id: id.to_string(),
            seat,
        }
    }

    fn leave(&self, id: &str, seat: Color) {
        let changed = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            let Some(c) = counts.get_mut(id) else {
                return;
            };
            c[idx(seat)] = c[idx(seat)].saturating_sub(1);
            let changed = c[idx(seat)] == 0;
            if *c == [0, 0] {
                counts.remove(id);
            }
            changed
        };
        if changed {
            self.announce(id);
        }
    }

    fn announce(&self, id: &str) {
        let [white, black] = self.connected(id);
        let topic = super::games::Games::topic(id);
        self.hub.publish(
            &topic,
            &ServerEvent::Presence {
                topic: topic.clone(),
                white,
                black,
            },
        );
    }

    /// Games with a connected player (for tests and statistics).
    pub fn games(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// A connected player; dropping it (unsubscribe, disconnect) counts them out.
pub struct PresenceGuard {
    presence: Arc<Presence>,
    id: String,
    seat: Color,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        self.presence.leave(&self.id, self.seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::store::RunRecord;

    #[test]
    fn tokens_are_long_random_and_only_their_hash_is_kept() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 64);
        assert!(plausible_token(&a));
        assert_ne!(a, b);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn cookies_are_parsed_leniently() {
        let c = Cookies::parse("a=1; tcseat_abc=\"xyz\" ;junk; tcseat_../x=2; b = 3");
        assert_eq!(c.get("a"), Some("1"));
        assert_eq!(c.get("tcseat_abc"), Some("xyz"));
        assert_eq!(c.get("b"), Some("3"));
        assert_eq!(c.seat_games(), vec!["abc"]);
        let v = seat_cookie("abc", "00ff", false);
        let v = v.to_str().unwrap();
        assert!(v.starts_with("tcseat_abc=00ff;"));
        assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax"));
        assert!(!v.contains("Secure"));
        assert!(seat_cookie("abc", "00ff", true)
            .to_str()
            .unwrap()
            .ends_with("; Secure"));
    }

    #[test]
    fn mating_material_ignores_kings_and_beasts() {
        let fen = "k9/10/10/10/10/10/10/TK6Tq w - - 0 1";
        assert!(!has_mating_material(fen, Color::White));
        assert!(has_mating_material(fen, Color::Black));
        assert!(has_mating_material(
            "km4/6/6/6/6/6/6/6/5K[M] w - - 0 1",
            Color::White
        ));
    }

    #[test]
    fn only_time_while_a_server_ran_counts() {
        let runs = [
            RunRecord {
                id: 1,
                boot_ms: 0,
                last_seen_ms: 10_000,
            },
            RunRecord {
                id: 2,
                boot_ms: 50_000,
                last_seen_ms: 53_000,
            },
            RunRecord {
                id: 3,
                boot_ms: 90_000,
                last_seen_ms: 90_000,
            },
        ];
        // The turn began at 4 s in run 1: 6 s there, 3 s in run 2, and the
        // current run (3) is not counted here.
        assert_eq!(time_in_runs(4_000, &runs, 3), 9_000);
        assert_eq!(time_in_runs(52_000, &runs, 3), 1_000);
    }
}
