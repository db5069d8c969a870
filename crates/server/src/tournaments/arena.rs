//! An arena's tick: results announced, the waiting players paired (those
//! in, not paused, not withdrawn, not playing a game of the arena), and,
//! once its time is up, no new pairing: it finishes when its last games
//! have ended (they count).

use super::views::{arena_end, Keyed};
use super::waves::WaveStat;
use super::Tournaments;
use crate::error::AppError;
use crate::store::TournamentNews;
use crate::store::TournamentRecord;
use std::collections::{HashMap, HashSet};
use tensorchess_tournament::arena::{pair_arena, rank_arena, ArenaCandidate};
use tensorchess_tournament::{games_by_player, PlayerKey};

impl Tournaments {
    /// Directs arena `t` at `now` (this instance holds its lease).
    pub(crate) async fn direct_arena(
        &self,
        t: &TournamentRecord,
        now: i64,
    ) -> Result<(), AppError> {
        let store = self.live.store();
        let began = std::time::Instant::now();
        let entries = store.tournament_entries(&t.id).await?;
        let games = store.tournament_games(&t.id).await?;
        let keyed = Keyed::new(&entries);
        let finished = keyed.finished(&games);
        let ended = games.iter().filter(|g| g.ending.is_some()).count();
        let results = self.note_results(t, ended);
        let playing: HashSet<&str> = games
            .iter()
            .filter(|g| g.ending.is_none())
            .flat_map(|g| [g.link.white.as_str(), g.link.black.as_str()])
            .collect();
        if now >= arena_end(t).unwrap_or(t.starts_at) {
            if playing.is_empty() {
                self.finish(t).await?;
            } else if results {
                self.announce(t, TournamentNews::Standings).await?;
            }
            return Ok(());
        }
        let players: Vec<(PlayerKey, i32)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (PlayerKey(i as u64), e.rating))
            .collect();
        let ranks: HashMap<PlayerKey, u32> = rank_arena(&players, &finished)
            .into_iter()
            .map(|s| (s.key, s.rank))
            .collect();
        let active: Vec<(PlayerKey, &crate::store::EntryRecord)> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.withdrawn && !e.paused)
            .map(|(i, e)| (PlayerKey(i as u64), e))
            .collect();
        let by_player = games_by_player(&finished);
        let waiting: Vec<ArenaCandidate> = active
            .iter()
            .filter(|(_, e)| !playing.contains(e.player.as_str()))
            .map(|&(key, e)| {
                let rank = ranks.get(&key).copied().unwrap_or(u32::MAX);
                let own = by_player.get(&key).map_or(&[][..], Vec::as_slice);
                ArenaCandidate::from_games(key, e.rating, rank, own)
            })
            .collect();
        if waiting.len() < 2 {
            if results {
                self.announce(t, TournamentNews::Standings).await?;
            }
            return Ok(());
        }
        let boards: Vec<(String, String)> = pair_arena(&waiting, active.len())
            .into_iter()
            .filter_map(|p| {
                Some((
                    keyed.entry(p.white)?.player.clone(),
                    keyed.entry(p.black)?.player.clone(),
                ))
            })
            .collect();
        let pair_us = began.elapsed().as_micros() as u64;
        let started = std::time::Instant::now();
        let made = self.start_boards(t, &boards, None).await?;
        self.waves.note(WaveStat {
            waiting: waiting.len(),
            boards: made.len(),
            pair_us,
            start_us: started.elapsed().as_micros() as u64,
        });
        // One piece of news a tick: the new standings with the new games.
        if results {
            self.announce(t, TournamentNews::Standings).await?;
        } else if !made.is_empty() {
            self.announce(t, TournamentNews::Paired).await?;
        }
        Ok(())
    }
}
