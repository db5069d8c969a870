//! The tournament part of the store contract: stored as made, entries
//! capped, one running game per player and one board per round, berserk
//! marked once, results read from the games, one director's lease.

use super::*;
use crate::tournament::{
    EntryRecord, TournamentGameLink, TournamentKind, TournamentRecord, TournamentState,
};

pub(super) fn tournament(id: &str, by: &str, created_at: i64) -> TournamentRecord {
    TournamentRecord {
        id: id.into(),
        kind: TournamentKind::Arena,
        name: "Friday blitz".into(),
        variant: VariantKind::Tensor,
        clock: ClockSettings {
            base_ms: 180_000,
            increment_ms: 2_000,
        },
        rated: true,
        starts_at: 10_000,
        minutes: Some(30),
        rounds: None,
        max_players: 2,
        created_by: by.into(),
        state: TournamentState::Upcoming,
        created_at,
        schedule_key: None,
        days: None,
    }
}

fn entry(t: &str, player: &str, joined_at: i64) -> EntryRecord {
    EntryRecord {
        tournament_id: t.into(),
        player: player.into(),
        joined_at,
        withdrawn: false,
        paused: false,
        rating: 1500 + joined_at as i32,
    }
}

fn link(t: &str, game: &str, round: Option<u32>, white: &str, black: &str) -> TournamentGameLink {
    TournamentGameLink {
        tournament_id: t.into(),
        game_id: game.into(),
        round,
        white: white.into(),
        black: black.into(),
        white_berserked: false,
        black_berserked: false,
        created_at: 20_000,
    }
}

/// An online game without moves, as a director starts one.
fn online_game(id: &str) -> StoredGame {
    StoredGame {
        record: GameRecord {
            mode: GameMode::Online,
            owner: None,
            ..record(id)
        },
        moves: vec![],
        online: Some(OnlineRecord::default()),
    }
}

/// A tournament's records, entries, games and lease.
pub async fn tournaments_pair_each_player_once(store: &dyn GameStore) {
    let t1 = tournament("t1", "ann", 1_000);
    store.create_tournament(&t1).await.unwrap();
    let t2 = TournamentRecord {
        kind: TournamentKind::Swiss,
        minutes: None,
        rounds: Some(5),
        rated: false,
        state: TournamentState::Finished,
        // Correspondence: days per move, no clock.
        clock: ClockSettings {
            base_ms: 0,
            increment_ms: 0,
        },
        days: Some(3),
        ..tournament("t2", "bob", 2_000)
    };
    store.create_tournament(&t2).await.unwrap();
    assert_eq!(store.tournament("t1").await.unwrap(), Some(t1.clone()));
    assert_eq!(store.tournament("t2").await.unwrap(), Some(t2.clone()));
    assert_eq!(store.tournament("nope").await.unwrap(), None);
    let upcoming = store
        .tournaments_in(TournamentState::Upcoming, 10)
        .await
        .unwrap();
    assert_eq!(upcoming, vec![t1.clone()]);
    assert_eq!(
        store.tournaments_created_since("ann", 1_000).await.unwrap(),
        1
    );
    assert_eq!(
        store.tournaments_created_since("ann", 1_001).await.unwrap(),
        0
    );
    // States move only from the one named.
    assert!(!store
        .set_tournament_state("t1", TournamentState::Running, TournamentState::Finished)
        .await
        .unwrap());
    assert!(store
        .set_tournament_state("t1", TournamentState::Upcoming, TournamentState::Running)
        .await
        .unwrap());
    assert_eq!(
        store.tournament("t1").await.unwrap().unwrap().state,
        TournamentState::Running
    );

    // Two places: the third waits until someone withdraws.
    assert!(store
        .join_tournament(&entry("t1", "ann", 1), 2)
        .await
        .unwrap());
    assert!(store
        .join_tournament(&entry("t1", "bob", 2), 2)
        .await
        .unwrap());
    assert!(!store
        .join_tournament(&entry("t1", "cy", 3), 2)
        .await
        .unwrap());
    // Joining again is no new place.
    assert!(store
        .join_tournament(&entry("t1", "bob", 2), 2)
        .await
        .unwrap());
    assert!(store.set_entry("t1", "bob", true, false).await.unwrap());
    assert!(!store.set_entry("t1", "nobody", true, false).await.unwrap());
    assert!(store
        .join_tournament(&entry("t1", "cy", 3), 2)
        .await
        .unwrap());
    assert!(!store
        .join_tournament(&entry("t1", "bob", 4), 2)
        .await
        .unwrap());
    assert!(store.set_entry("t1", "cy", false, true).await.unwrap());
    let entries = store.tournament_entries("t1").await.unwrap();
    let flags: Vec<_> = entries
        .iter()
        .map(|e| (e.player.as_str(), e.withdrawn, e.paused, e.rating))
        .collect();
    assert_eq!(
        flags,
        [
            ("ann", false, false, 1501),
            ("bob", true, false, 1502),
            ("cy", false, true, 1503)
        ]
    );

    // One running game per player.
    let g = online_game;
    store
        .start_tournament_game(&link("t1", "tg1", None, "ann", "bob"), &g("tg1"))
        .await
        .unwrap();
    let twice = store
        .start_tournament_game(&link("t1", "tg2", None, "cy", "bob"), &g("tg2"))
        .await;
    assert!(matches!(twice, Err(StoreError::Conflict(_))), "{twice:?}");
    assert_eq!(store.load_game("tg2").await.unwrap(), None);
    // A berserk is marked on the link with the game's own write.
    let berserk = GameUpdate {
        berserk: Some(Color::Black),
        ..update(2)
    };
    store
        .commit("tg1", &MovesChange::Keep, &berserk)
        .await
        .unwrap();
    let marked = store.tournament_game("tg1").await.unwrap().unwrap();
    assert!(marked.link.black_berserked && !marked.link.white_berserked);
    store
        .commit("tg1", &MovesChange::Push(mv(0, "e2e4")), &update(3))
        .await
        .unwrap();
    let mut end = update(4);
    end.ending = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    store.commit("tg1", &MovesChange::Keep, &end).await.unwrap();
    // Over: its players may play again.
    store
        .start_tournament_game(&link("t1", "tg2", None, "cy", "bob"), &g("tg2"))
        .await
        .unwrap();
    let games = store.tournament_games("t1").await.unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].link.game_id, "tg1");
    assert_eq!(games[0].ending, end.ending);
    assert_eq!(games[0].plies, 1);
    assert!(games[0].link.black_berserked && !games[0].link.white_berserked);
    assert_eq!((games[1].ending, games[1].plies), (None, 0));
    let one = store.tournament_game("tg2").await.unwrap().unwrap();
    assert_eq!(one.link, link("t1", "tg2", None, "cy", "bob"));
    assert_eq!(store.tournament_game("nope").await.unwrap(), None);

    // One board per player and round.
    store
        .start_tournament_game(&link("t2", "r1a", Some(1), "ann", "bob"), &g("r1a"))
        .await
        .unwrap();
    let again = store
        .start_tournament_game(&link("t2", "r1b", Some(1), "bob", "cy"), &g("r1b"))
        .await;
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    assert_eq!(store.load_game("r1b").await.unwrap(), None);

    // Byes, once per player and round.
    let bye = |round, player: &str, half_points| crate::tournament::ByeRecord {
        tournament_id: "t2".into(),
        round,
        player: player.into(),
        half_points,
    };
    assert!(store.add_tournament_bye(&bye(1, "cy", 2)).await.unwrap());
    assert!(!store.add_tournament_bye(&bye(1, "cy", 0)).await.unwrap());
    assert!(store.add_tournament_bye(&bye(2, "ann", 0)).await.unwrap());
    assert_eq!(
        store.tournament_byes("t2").await.unwrap(),
        [bye(1, "cy", 2), bye(2, "ann", 0)]
    );
    assert!(store.tournament_byes("t1").await.unwrap().is_empty());

    // The director's lease: one holder until it expires.
    let takes = [
        ("t1", "a", 100, 200, true),
        ("t1", "b", 150, 250, false),
        ("t1", "a", 190, 300, true),
        ("t1", "b", 299, 400, false),
        ("t1", "b", 300, 400, true),
        ("t1", "a", 350, 450, false),
        ("t2", "a", 350, 450, true),
    ];
    for (t, holder, now, until, taken) in takes {
        let got = store
            .take_director_lease(t, holder, now, until)
            .await
            .unwrap();
        assert_eq!(got, taken, "{holder} takes {t} at {now}");
    }
}

/// A scheduled occurrence is made once, however many instances race to
/// make it; players' tournaments (no key) are never in the way.
pub async fn scheduled_tournaments_are_made_once(store: &dyn GameStore) {
    let by = crate::tournament::SCHEDULE_CREATOR;
    let occurrence = |id: &str| TournamentRecord {
        schedule_key: Some("hourly@3600000".into()),
        ..tournament(id, by, 1_000)
    };
    let (a, b) = (occurrence("s1"), occurrence("s2"));
    let (made_a, made_b) = tokio::join!(
        store.create_scheduled_tournament(&a),
        store.create_scheduled_tournament(&b)
    );
    let (made_a, made_b) = (made_a.unwrap(), made_b.unwrap());
    assert!(
        made_a != made_b,
        "one of the two is made: {made_a} {made_b}"
    );
    assert!(!store
        .create_scheduled_tournament(&occurrence("s3"))
        .await
        .unwrap());
    let upcoming = store
        .tournaments_in(TournamentState::Upcoming, 10)
        .await
        .unwrap();
    assert_eq!(upcoming, vec![if made_a { a } else { b }]);
    // The next occurrence has a key of its own; players' tournaments none.
    let next = TournamentRecord {
        schedule_key: Some("hourly@7200000".into()),
        ..tournament("s4", by, 1_000)
    };
    assert!(store.create_scheduled_tournament(&next).await.unwrap());
    store
        .create_tournament(&tournament("p1", "ann", 1_000))
        .await
        .unwrap();
    store
        .create_tournament(&tournament("p2", "ann", 1_000))
        .await
        .unwrap();
    assert_eq!(
        store
            .tournaments_in(TournamentState::Upcoming, 10)
            .await
            .unwrap()
            .len(),
        4
    );
    assert_eq!(store.tournaments_created_since(by, 0).await.unwrap(), 2);
    assert_eq!(store.tournaments_created_since("ann", 0).await.unwrap(), 2);
}

/// One running game per player and tournament, whichever colour (the
/// seats' unique index); a game's end frees its seats and, when a side
/// did not make its first move, pauses that side in an arena or a Swiss,
/// once (a later write to the ended game leaves a player who came back
/// alone); a round robin plays its table. The open entries of a player.
pub async fn tournament_seats_run_once_and_a_no_show_is_paused(store: &dyn GameStore) {
    let running = |id: &str, kind: TournamentKind| TournamentRecord {
        kind,
        minutes: (kind == TournamentKind::Arena).then_some(30),
        rounds: (kind == TournamentKind::Swiss).then_some(5),
        state: TournamentState::Running,
        max_players: 10,
        ..tournament(id, "ann", 1_000)
    };
    for (id, kind) in [
        ("a1", TournamentKind::Arena),
        ("a2", TournamentKind::Arena),
        ("s1", TournamentKind::Swiss),
        ("r1", TournamentKind::RoundRobin),
    ] {
        store.create_tournament(&running(id, kind)).await.unwrap();
        for (i, p) in ["ann", "bob", "cy"].iter().enumerate() {
            assert!(store
                .join_tournament(&entry(id, p, i as i64), 10)
                .await
                .unwrap());
        }
    }
    let g = |id: &str| StoredGame {
        online: Some(OnlineRecord {
            no_abort: true,
            ..OnlineRecord::default()
        }),
        ..online_game(id)
    };
    let start = |t: &'static str, game: &'static str, white: &'static str, black: &'static str| {
        let (link, game) = (link(t, game, None, white, black), g(game));
        async move { store.start_tournament_game(&link, &game).await }
    };
    start("a1", "g1", "ann", "bob").await.unwrap();
    // Ann plays already: not with the other colour either, nor twice
    // against the same player; in another tournament she may.
    for (white, black) in [("cy", "ann"), ("ann", "cy"), ("bob", "ann")] {
        let twice = start("a1", "g2", white, black).await;
        assert!(matches!(twice, Err(StoreError::Conflict(_))), "{twice:?}");
        assert_eq!(store.load_game("g2").await.unwrap(), None);
    }
    start("a2", "h1", "ann", "cy").await.unwrap();
    // The game's flag is stored.
    let stored = store.load_game("g1").await.unwrap().unwrap();
    assert!(stored.online.unwrap().no_abort);

    let paused = |t: &'static str| async move {
        let entries = store.tournament_entries(t).await.unwrap();
        entries
            .iter()
            .filter(|e| e.paused)
            .map(|e| e.player.clone())
            .collect::<Vec<_>>()
    };
    // White does not make a first move: the game ends, White is paused
    // in this arena only.
    let mut end = update(2);
    end.ending = Some(Ending::Aborted {
        no_show: Some(Color::White),
    });
    store.commit("g1", &MovesChange::Keep, &end).await.unwrap();
    assert_eq!(paused("a1").await, ["ann"]);
    assert!(paused("a2").await.is_empty());
    // Back (she joins again); a later write to the ended game (a rematch
    // offer) does not pause her again.
    assert!(store.set_entry("a1", "ann", false, false).await.unwrap());
    let mut later = update(3);
    later.ending = end.ending;
    store
        .commit("g1", &MovesChange::Keep, &later)
        .await
        .unwrap();
    assert!(paused("a1").await.is_empty());
    // Her seat is free: she is paired again.
    start("a1", "g2", "cy", "ann").await.unwrap();

    // A Swiss pauses its no-show (Black here); a round robin does not.
    start("s1", "s1g", "bob", "cy").await.unwrap();
    start("r1", "r1g", "bob", "cy").await.unwrap();
    let mut end = update(2);
    end.ending = Some(Ending::Aborted {
        no_show: Some(Color::Black),
    });
    store.commit("s1g", &MovesChange::Keep, &end).await.unwrap();
    store.commit("r1g", &MovesChange::Keep, &end).await.unwrap();
    assert_eq!(paused("s1").await, ["cy"]);
    assert!(paused("r1").await.is_empty());
    // Any other end frees the seats and pauses nobody.
    let mut resigned = update(2);
    resigned.ending = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    store
        .commit("h1", &MovesChange::Keep, &resigned)
        .await
        .unwrap();
    assert!(paused("a2").await.is_empty());
    start("a2", "h2", "cy", "ann").await.unwrap();

    // The tournaments Ann is in, not finished, not withdrawn from (a
    // pause counts).
    let ids = |v: Vec<TournamentRecord>| v.into_iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.entered_tournaments("ann").await.unwrap()),
        ["a1", "a2", "r1", "s1"]
    );
    assert!(store.set_entry("a2", "ann", true, false).await.unwrap());
    assert!(store.set_entry("s1", "ann", false, true).await.unwrap());
    assert!(store
        .set_tournament_state("r1", TournamentState::Running, TournamentState::Finished)
        .await
        .unwrap());
    assert_eq!(
        ids(store.entered_tournaments("ann").await.unwrap()),
        ["a1", "s1"]
    );
    assert!(store
        .entered_tournaments("nobody")
        .await
        .unwrap()
        .is_empty());
}

/// What an arena's director reads between ticks: the entries' revision
/// grows with every change of an entry (a join, a withdrawal, a pause, a
/// no-show's pause in its game's end) and with nothing else; the games
/// among those it knows, all or only those that ended.
pub async fn a_director_reads_only_what_changed(store: &dyn GameStore) {
    let t = TournamentRecord {
        state: TournamentState::Running,
        max_players: 10,
        ..tournament("d1", "ann", 1_000)
    };
    store.create_tournament(&t).await.unwrap();
    store
        .create_tournament(&TournamentRecord {
            max_players: 10,
            ..tournament("d2", "ann", 1_000)
        })
        .await
        .unwrap();
    assert_eq!(store.tournament_entries_rev("nope").await.unwrap(), None);
    let rev = || async { store.tournament_entries_rev("d1").await.unwrap().unwrap() };
    let mut last = rev().await;
    fn grew(last: &mut i64, now: i64, what: &str) {
        assert!(now > *last, "{what}: {now} after {last}");
        *last = now;
    }
    for (i, p) in ["ann", "bob", "cy", "dee"].iter().enumerate() {
        assert!(store
            .join_tournament(&entry("d1", p, i as i64), 10)
            .await
            .unwrap());
        grew(&mut last, rev().await, "a join");
    }
    assert!(store.set_entry("d1", "dee", true, false).await.unwrap());
    grew(&mut last, rev().await, "a withdrawal");
    // Another tournament's entries leave this one's revision alone.
    assert!(store
        .join_tournament(&entry("d2", "ann", 1), 10)
        .await
        .unwrap());
    assert_eq!(rev().await, last);

    let g = online_game;
    for (game, white, black) in [("dg1", "ann", "bob"), ("dg2", "cy", "dee")] {
        store
            .start_tournament_game(&link("d1", game, None, white, black), &g(game))
            .await
            .unwrap();
    }
    // Starting games changes no entry.
    assert_eq!(rev().await, last);
    let ids = |games: Vec<crate::tournament::TournamentGame>| {
        games
            .into_iter()
            .map(|g| g.link.game_id)
            .collect::<Vec<_>>()
    };
    let both = ["dg1".to_string(), "dg2".to_string(), "other".to_string()];
    let among = |ended_only| store.tournament_games_among("d1", &both, ended_only);
    assert_eq!(ids(among(false).await.unwrap()), ["dg1", "dg2"]);
    assert!(among(true).await.unwrap().is_empty(), "none ended yet");
    assert!(store
        .tournament_games_among("d2", &both, false)
        .await
        .unwrap()
        .is_empty());

    // A resignation: the game ended, no entry changed.
    let mut resigned = update(2);
    resigned.ending = Some(Ending::Outcome(Outcome::Decisive {
        winner: Color::White,
        reason: EndReason::Resignation,
    }));
    store
        .commit("dg1", &MovesChange::Keep, &resigned)
        .await
        .unwrap();
    let ended = among(true).await.unwrap();
    assert_eq!(ids(ended.clone()), ["dg1"]);
    assert_eq!(ended[0].ending, resigned.ending);
    assert_eq!(rev().await, last);
    // A no-show: its player's entry paused, in the game's end.
    let mut no_show = update(2);
    no_show.ending = Some(Ending::Aborted {
        no_show: Some(Color::White),
    });
    store
        .commit("dg2", &MovesChange::Keep, &no_show)
        .await
        .unwrap();
    assert_eq!(ids(among(true).await.unwrap()), ["dg1", "dg2"]);
    grew(&mut last, rev().await, "a no-show's pause");
}

/// A wave's games stored together: all of them in the usual case; a board
/// refused (a player still playing, or paired twice in the wave) leaves
/// nothing of itself and the others stored, in order.
pub async fn a_wave_is_stored_together_and_a_refused_board_alone(store: &dyn GameStore) {
    let t = TournamentRecord {
        state: TournamentState::Running,
        max_players: 10,
        ..tournament("w1", "ann", 1_000)
    };
    store.create_tournament(&t).await.unwrap();
    let g = online_game;
    let board =
        |game: &str, white: &str, black: &str| (link("w1", game, None, white, black), g(game));
    assert!(store.start_tournament_games(&[]).await.unwrap().is_empty());
    let first = [board("wa", "ann", "bob"), board("wb", "cy", "dee")];
    assert_eq!(
        store.start_tournament_games(&first).await.unwrap(),
        [Ok(()), Ok(())]
    );
    // Ann still plays; Eve is paired twice in this wave: her second board
    // is refused, the boards around them stored.
    let second = [
        board("wc", "eve", "fay"),
        board("wd", "gus", "ann"),
        board("we", "hal", "eve"),
        board("wf", "ian", "jo"),
    ];
    let answers = store.start_tournament_games(&second).await.unwrap();
    let refused: Vec<bool> = answers.iter().map(Result::is_err).collect();
    assert_eq!(refused, [false, true, true, false], "{answers:?}");
    for (game, stored) in [
        ("wa", true),
        ("wb", true),
        ("wc", true),
        ("wd", false),
        ("we", false),
        ("wf", true),
    ] {
        assert_eq!(
            store.load_game(game).await.unwrap().is_some(),
            stored,
            "{game}"
        );
    }
    let linked: Vec<String> = store
        .tournament_games("w1")
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.link.game_id)
        .collect();
    assert_eq!(linked, ["wa", "wb", "wc", "wf"]);
    // Gus's refused board held no seat: he may be paired at once.
    assert_eq!(
        store
            .start_tournament_games(&[board("wg", "gus", "kim")])
            .await
            .unwrap(),
        [Ok(())]
    );
}
