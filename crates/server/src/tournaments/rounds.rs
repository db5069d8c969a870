//! A Swiss's and a round robin's tick: once every game of the current
//! round has ended, the next round is paired (the Dutch system, or the
//! Berger tables drawn at the start) and its byes recorded; after the last
//! round, the tournament finishes. A round robin's roster is the players of
//! its first round, so that its table never changes; a board of the
//! current round missing (a director stopped midway) is started again.

use super::views::{counts, side_of, Counts, Keyed};
use super::Tournaments;
use crate::error::AppError;
use crate::ids::TournamentId;
use crate::store::TournamentNews;
use crate::store::{ByeRecord, TournamentGame, TournamentKind, TournamentRecord};
use std::collections::{HashMap, HashSet};
use tensorchess_tournament::berger::{round_robin, Cycles, RoundRobinBoard};
use tensorchess_tournament::swiss::{
    pair_next_round, ByeKind, SwissBye, SwissGame, SwissPlayer, SwissResult, SwissRound,
    SwissTournament,
};
use tensorchess_tournament::trf::{export_trf, TrfHeader};
use tensorchess_tournament::{Outcome, PlayerKey, Side};

/// What a director's tick did to a Swiss or a round robin.
enum Step {
    /// The current round goes on (or the lease was lost).
    Waiting,
    /// A round was paired.
    Paired,
    /// It finished (its pages were told).
    Finished,
}

/// A bye's kind from its stored half-points.
fn bye_kind(half_points: u32) -> ByeKind {
    match half_points {
        0 => ByeKind::Zero,
        1 => ByeKind::Half,
        _ => ByeKind::Pairing,
    }
}

impl Tournaments {
    /// The byes of tournament `t` as (player, round, half-points), for
    /// the standings.
    pub(crate) async fn byes(
        &self,
        t: &TournamentRecord,
        keyed: &Keyed<'_>,
    ) -> Result<Vec<super::views::Bye>, AppError> {
        Ok(self
            .live
            .store()
            .tournament_byes(&t.id)
            .await?
            .iter()
            .filter_map(|b| Some((keyed.key(&b.player)?, b.round, b.half_points)))
            .collect())
    }

    async fn record_byes(
        &self,
        t: &TournamentRecord,
        round: u32,
        byes: &[(String, u32)],
    ) -> Result<(), AppError> {
        for (player, half_points) in byes {
            let bye = ByeRecord {
                tournament_id: t.id.clone(),
                round,
                player: player.clone(),
                half_points: *half_points,
            };
            self.live.store().add_tournament_bye(&bye).await?;
        }
        Ok(())
    }

    /// The Swiss with its players' names as shown: among equal ratings the
    /// name orders the pairing numbers (C.04.2), which are the TRF's start
    /// numbers, so pairing and report must read the same names.
    async fn named(
        &self,
        mut swiss: SwissTournament,
        keyed: &Keyed<'_>,
    ) -> Result<SwissTournament, AppError> {
        for p in &mut swiss.players {
            if let Some(e) = keyed.entry(p.key) {
                p.name = self.players.name_of(&e.player).await?;
            }
        }
        Ok(swiss)
    }

    /// A Swiss's FIDE tournament report (TRF-16) of its completed rounds.
    pub async fn trf(&self, id: &TournamentId) -> Result<String, AppError> {
        let t = self.record(id).await?;
        if t.kind != TournamentKind::Swiss {
            return Err(AppError::refused(
                crate::kind::Kind::NotAllowed,
                "Only a Swiss tournament has a TRF report",
            ));
        }
        let store = self.live.store();
        let entries = store.tournament_entries(&t.id).await?;
        let games = store.tournament_games(&t.id).await?;
        let byes = store.tournament_byes(&t.id).await?;
        let keyed = Keyed::new(&entries);
        // Rounds whose games have all ended.
        let mut done = 0;
        while games.iter().any(|g| g.link.round == Some(done + 1))
            && games
                .iter()
                .filter(|g| g.link.round == Some(done + 1))
                .all(|g| g.ending.is_some())
        {
            done += 1;
        }
        let swiss = self
            .named(swiss_of(&t, &keyed, &games, &byes, done), &keyed)
            .await?;
        let date = crate::round::live::date_string(t.starts_at).replace('.', "/");
        let header = TrfHeader {
            name: t.name.clone(),
            city: String::new(),
            start_date: date.clone(),
            end_date: date,
            tournament_type: "Individual: Swiss-System (Dutch)".into(),
        };
        export_trf(&swiss, &header, &HashMap::new()).map_err(|e| AppError::Conflict(e.to_string()))
    }

    /// Directs Swiss or round robin `t` (this instance holds its lease),
    /// and tells its pages one piece of news: the new standings with the
    /// new round in them, or the new round, or the end.
    pub(crate) async fn direct_rounds(&self, t: &TournamentRecord) -> Result<(), AppError> {
        let store = self.live.store();
        let entries = store.tournament_entries(&t.id).await?;
        let games = store.tournament_games(&t.id).await?;
        let byes = store.tournament_byes(&t.id).await?;
        let keyed = Keyed::new(&entries);
        let ended = games.iter().filter(|g| g.ending.is_some()).count();
        let results = self.note_results(t, ended);
        let step = self.next_round(t, &keyed, &games, &byes).await?;
        match step {
            // The end's news has the final standings.
            Step::Finished => {}
            _ if results => {
                self.announce(t, TournamentNews::Standings).await?;
            }
            Step::Paired => {
                self.announce(t, TournamentNews::Paired).await?;
            }
            Step::Waiting => {}
        }
        Ok(())
    }

    /// Pairs the next round of `t` once the current one is over, or
    /// finishes it after the last.
    async fn next_round(
        &self,
        t: &TournamentRecord,
        keyed: &Keyed<'_>,
        games: &[TournamentGame],
        byes: &[ByeRecord],
    ) -> Result<Step, AppError> {
        let round = games
            .iter()
            .filter_map(|g| g.link.round)
            .chain(byes.iter().map(|b| b.round))
            .max()
            .unwrap_or(0);
        if t.kind == TournamentKind::RoundRobin {
            return self.direct_round_robin(t, keyed, games, byes, round).await;
        }
        if games
            .iter()
            .any(|g| g.link.round == Some(round) && g.ending.is_none())
        {
            return Ok(Step::Waiting);
        }
        if round >= t.rounds.unwrap_or(0) {
            return self.finish(t).await.map(|()| Step::Finished);
        }
        let swiss = self
            .named(swiss_of(t, keyed, games, byes, round), keyed)
            .await?;
        let present = swiss
            .players
            .iter()
            .filter(|p| !p.withdrawn && !swiss.sitting_out.contains(&p.key))
            .count();
        if round == 0 && present < 2 {
            return self.finish(t).await.map(|()| Step::Finished);
        }
        let pairing = match pair_next_round(&swiss) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!("tournament {}: round {} not paired: {e}", t.id, round + 1);
                return self.finish(t).await.map(|()| Step::Finished);
            }
        };
        let next = pairing.round;
        let mut sat: Vec<(String, u32)> = swiss
            .sitting_out
            .iter()
            .filter_map(|&k| Some((keyed.entry(k)?.player.clone(), 0)))
            .collect();
        if let Some(e) = pairing.bye.and_then(|k| keyed.entry(k)) {
            sat.push((e.player.clone(), 2));
        }
        if !self.still_holds(t).await? {
            return Ok(Step::Waiting);
        }
        self.record_byes(t, next, &sat).await?;
        let boards: Vec<(String, String)> = pairing
            .boards
            .iter()
            .filter_map(|p| {
                Some((
                    keyed.entry(p.white)?.player.clone(),
                    keyed.entry(p.black)?.player.clone(),
                ))
            })
            .collect();
        self.start_boards(t, &boards, Some(next)).await?;
        Ok(Step::Paired)
    }

    async fn direct_round_robin(
        &self,
        t: &TournamentRecord,
        keyed: &Keyed<'_>,
        games: &[TournamentGame],
        byes: &[ByeRecord],
        round: u32,
    ) -> Result<Step, AppError> {
        // The roster: round 1's players, or, before it, those in now.
        let roster: Vec<PlayerKey> = if round == 0 {
            keyed
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| !e.withdrawn)
                .map(|(i, _)| PlayerKey(i as u64))
                .collect()
        } else {
            let first: HashSet<&str> = games
                .iter()
                .filter(|g| g.link.round == Some(1))
                .flat_map(|g| [g.link.white.as_str(), g.link.black.as_str()])
                .chain(
                    byes.iter()
                        .filter(|b| b.round == 1)
                        .map(|b| b.player.as_str()),
                )
                .collect();
            keyed
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| first.contains(e.player.as_str()))
                .map(|(i, _)| PlayerKey(i as u64))
                .collect()
        };
        if roster.len() < 2 {
            return self.finish(t).await.map(|()| Step::Finished);
        }
        let table = match round_robin(&roster, Cycles::Single) {
            Ok(table) => table,
            Err(e) => {
                tracing::warn!("tournament {}: no round robin: {e}", t.id);
                return self.finish(t).await.map(|()| Step::Finished);
            }
        };
        let running = games
            .iter()
            .any(|g| g.link.round == Some(round) && g.ending.is_none());
        let started: HashSet<(&str, &str)> = games
            .iter()
            .filter(|g| g.link.round == Some(round))
            .map(|g| (g.link.white.as_str(), g.link.black.as_str()))
            .collect();
        // A board of the current round missing (a director stopped
        // midway) is started first.
        let missing = round > 0
            && table.get(round as usize - 1).is_some_and(|boards| {
                boards.iter().any(|b| match *b {
                    RoundRobinBoard::Game { white, black } => {
                        let (w, b) = (keyed.entry(white), keyed.entry(black));
                        w.zip(b).is_some_and(|(w, b)| {
                            !w.withdrawn
                                && !b.withdrawn
                                && !started.contains(&(w.player.as_str(), b.player.as_str()))
                        })
                    }
                    RoundRobinBoard::Bye(_) => false,
                })
            });
        let next = if missing {
            round
        } else if running {
            return Ok(Step::Waiting);
        } else {
            round + 1
        };
        let Some(boards) = table.get(next as usize - 1) else {
            return self.finish(t).await.map(|()| Step::Finished);
        };
        let withdrawn = |k: PlayerKey| keyed.entry(k).is_none_or(|e| e.withdrawn);
        let id = |k: PlayerKey| keyed.entry(k).map(|e| e.player.clone());
        let mut play = Vec::new();
        let mut sat = Vec::new();
        for board in boards {
            match *board {
                RoundRobinBoard::Bye(k) => sat.extend(id(k).map(|p| (p, 0))),
                RoundRobinBoard::Game { white, black } => {
                    match (withdrawn(white), withdrawn(black)) {
                        (false, false) => {
                            if let (Some(w), Some(b)) = (id(white), id(black)) {
                                play.push((w, b));
                            }
                        }
                        // A withdrawn player's game is forfeited.
                        (true, false) => {
                            sat.extend(id(black).map(|p| (p, 2)));
                            sat.extend(id(white).map(|p| (p, 0)));
                        }
                        (false, true) => {
                            sat.extend(id(white).map(|p| (p, 2)));
                            sat.extend(id(black).map(|p| (p, 0)));
                        }
                        (true, true) => {
                            sat.extend(id(white).map(|p| (p, 0)));
                            sat.extend(id(black).map(|p| (p, 0)));
                        }
                    }
                }
            }
        }
        if !self.still_holds(t).await? {
            return Ok(Step::Waiting);
        }
        self.record_byes(t, next, &sat).await?;
        self.start_boards(t, &play, Some(next)).await?;
        Ok(Step::Paired)
    }
}

/// The Swiss as the pairing needs it, after `round` rounds.
pub(super) fn swiss_of(
    t: &TournamentRecord,
    keyed: &Keyed,
    games: &[TournamentGame],
    byes: &[ByeRecord],
    round: u32,
) -> SwissTournament {
    // When each round was paired: a later entrant starts after it.
    let paired_at = |r: u32| {
        games
            .iter()
            .filter(|g| g.link.round == Some(r))
            .map(|g| g.link.created_at)
            .min()
    };
    let players = keyed
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let before = (1..=round)
                .filter(|&r| paired_at(r).is_some_and(|at| at < e.joined_at))
                .count() as u32;
            SwissPlayer {
                key: PlayerKey(i as u64),
                name: e.player.clone(),
                rating: e.rating,
                joined_round: before + 1,
                withdrawn: e.withdrawn,
            }
        })
        .collect();
    let rounds = (1..=round)
        .map(|r| {
            let mut round = SwissRound {
                games: Vec::new(),
                byes: byes
                    .iter()
                    .filter(|b| b.round == r)
                    .filter_map(|b| {
                        Some(SwissBye {
                            player: keyed.key(&b.player)?,
                            kind: bye_kind(b.half_points),
                        })
                    })
                    .collect(),
            };
            for g in games.iter().filter(|g| g.link.round == Some(r)) {
                let (Some(white), Some(black)) =
                    (keyed.key(&g.link.white), keyed.key(&g.link.black))
                else {
                    continue;
                };
                // One rule with the standings (`views::Counts`).
                let result = match counts(g.ending) {
                    Some(Counts::Played(outcome)) => SwissResult::Played(outcome),
                    Some(Counts::NoShow { winner }) => SwissResult::Forfeit {
                        winner: side_of(winner),
                    },
                    // Counts for nobody: no game, nothing scored.
                    Some(Counts::Void) => {
                        for player in [white, black] {
                            round.byes.push(SwissBye {
                                player,
                                kind: ByeKind::Zero,
                            });
                        }
                        continue;
                    }
                    // Not reached: rounds are read once their games ended.
                    None => SwissResult::Played(Outcome::Draw),
                };
                round.games.push(SwissGame {
                    white,
                    black,
                    result,
                });
            }
            round
        })
        .collect();
    SwissTournament {
        players,
        rounds_planned: t.rounds.unwrap_or(0),
        initial_colour: Side::White,
        rounds,
        sitting_out: keyed
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.paused && !e.withdrawn)
            .map(|(i, _)| PlayerKey(i as u64))
            .collect(),
    }
}
