//! The trust part of the store contract (issue 38): follows, preferences,
//! who has played whom, look-alike keys of user names, address mutes, and
//! caps counted in the write they guard, also when writes race.

use super::*;
use crate::challenge::{ChallengeRecord, ChallengeState};
use crate::trust::{
    name_key, Cap, ChallengeCaps, NewReport, Preferences, ReportCaps, Reported, StrangerCaps,
    TournamentCaps,
};
use futures_util::future::join_all;

fn challenge(id: &str, from: &str, to: &str, client: &str, at: i64) -> ChallengeRecord {
    ChallengeRecord {
        id: id.into(),
        challenger: from.into(),
        challenged: to.into(),
        variant: VariantKind::Tensor,
        clock: None,
        days: None,
        rated: false,
        color: SeekColor::Random,
        created_at: at,
        expires_at: at + 1_000_000,
        state: ChallengeState::Open,
        client: Some(client.into()),
    }
}

fn caps(now: i64, stranger: bool) -> ChallengeCaps {
    ChallengeCaps {
        now,
        per_pair: 3,
        made: 10,
        from_address: Some(30),
        stranger: stranger.then_some(StrangerCaps {
            since: now - 1_000_000,
            player_to_receiver: 3,
            address_to_receiver: Some(3),
            received: 5,
        }),
    }
}

fn account(username: &str, player: &str) -> AccountRecord {
    AccountRecord {
        username: username.into(),
        password_hash: "x".into(),
        player_id: player.into(),
        created_at: 1,
        closed_at: None,
    }
}

fn player(id: &str) -> PlayerRecord {
    PlayerRecord {
        id: id.into(),
        name: id.into(),
        created_at: 1,
        account: None,
    }
}

/// Follows, preferences, games played, look-alike keys and address mutes.
pub async fn follows_preferences_and_names(store: &dyn GameStore) {
    assert!(store.follow("ann", "bob", 10).await.unwrap());
    assert!(!store.follow("ann", "bob", 11).await.unwrap(), "once");
    assert!(store.follow("ann", "cat", 12).await.unwrap());
    assert!(store.is_following("ann", "bob").await.unwrap());
    assert!(!store.is_following("bob", "ann").await.unwrap(), "one way");
    let list = store.following("ann", 10).await.unwrap();
    let names: Vec<_> = list.iter().map(|f| (f.followed.as_str(), f.at)).collect();
    assert_eq!(names, [("cat", 12), ("bob", 10)], "newest first");
    assert_eq!(store.following("ann", 1).await.unwrap().len(), 1);
    assert!(store.unfollow("ann", "bob").await.unwrap());
    assert!(!store.unfollow("ann", "bob").await.unwrap());
    assert!(!store.is_following("ann", "bob").await.unwrap());

    assert_eq!(
        store.preferences("ann").await.unwrap(),
        Preferences::default()
    );
    assert!(Preferences::default().challenges_from_guests);
    let closed = Preferences {
        challenges_from_guests: false,
    };
    store.set_preferences("ann", &closed).await.unwrap();
    assert_eq!(store.preferences("ann").await.unwrap(), closed);
    store
        .set_preferences("ann", &Preferences::default())
        .await
        .unwrap();
    assert_eq!(
        store.preferences("ann").await.unwrap(),
        Preferences::default()
    );

    // Played: a running game or one that ended, not an aborted one.
    let mut g = online_game("p1");
    let online = g.online.as_mut().unwrap();
    online.players = ByColor::new(Some("ann".into()), Some("bob".into()));
    store.create_game(&g).await.unwrap();
    assert!(store.have_played("ann", "bob").await.unwrap());
    assert!(store.have_played("bob", "ann").await.unwrap());
    assert!(!store.have_played("ann", "cat").await.unwrap());
    let mut g = online_game("p2");
    g.online.as_mut().unwrap().players = ByColor::new(Some("cat".into()), Some("dan".into()));
    store.create_game(&g).await.unwrap();
    let aborted = GameUpdate {
        ending: Some(Ending::Aborted { no_show: None }),
        ..update(2)
    };
    store
        .commit("p2", &MovesChange::Keep, &aborted)
        .await
        .unwrap();
    assert!(!store.have_played("cat", "dan").await.unwrap(), "aborted");

    // User names by look-alike key, kept through a rename.
    store.save_player(&player("pa")).await.unwrap();
    store.create_account(&account("Ada", "pa")).await.unwrap();
    let found = store
        .accounts_with_key(&name_key("\u{430}d\u{430}"))
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].player_id, "pa");
    assert!(store
        .accounts_with_key(&name_key("eve"))
        .await
        .unwrap()
        .is_empty());
    store.rename_account("Ada", "Eve").await.unwrap();
    assert!(store
        .accounts_with_key(&name_key("ada"))
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store.accounts_with_key(&name_key("EVE")).await.unwrap()[0].username,
        "Eve"
    );

    assert_eq!(store.address_muted_until("10.1.1.1").await.unwrap(), None);
    store.mute_address("10.1.1.1", 9_000).await.unwrap();
    store.mute_address("10.1.1.1", 5_000).await.unwrap();
    assert_eq!(
        store.address_muted_until("10.1.1.1").await.unwrap(),
        Some(9_000),
        "the later mute stays"
    );
}

/// Each challenge cap refuses at its count, in the write; a friend's
/// challenge passes the receiver's caps; a decline frees no stranger's slot.
pub async fn challenge_caps_are_counted_in_the_write(store: &dyn GameStore) {
    let now = 5_000;
    let make = |id: &str, from: &str, to: &str, client: &str| challenge(id, from, to, client, now);
    // Three from one address to one player, whoever sends them.
    for (i, from) in ["g1", "g2", "g3"].iter().enumerate() {
        let c = make(&format!("a{i}"), from, "vic", "10.0.0.1");
        assert_eq!(
            store
                .create_challenge_capped(&c, &caps(now, true))
                .await
                .unwrap(),
            None
        );
    }
    let c = make("a3", "g4", "vic", "10.0.0.1");
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, true))
            .await
            .unwrap(),
        Some(Cap::AddressToReceiver)
    );
    assert!(store.challenge("a3").await.unwrap().is_none(), "not stored");
    // Declining one frees no slot for that address in the window.
    assert!(store
        .close_challenge("a0", &ChallengeState::Declined { reason: None })
        .await
        .unwrap());
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, true))
            .await
            .unwrap(),
        Some(Cap::AddressToReceiver)
    );
    // Another address may; a friend's challenge is not a stranger's.
    let other = make("b0", "g5", "vic", "10.0.0.2");
    assert_eq!(
        store
            .create_challenge_capped(&other, &caps(now, true))
            .await
            .unwrap(),
        None
    );
    let friend = make("f0", "pal", "vic", "10.0.0.1");
    assert_eq!(
        store
            .create_challenge_capped(&friend, &caps(now, false))
            .await
            .unwrap(),
        None
    );
    // Past the window the address may again.
    let later = challenge("a4", "g4", "vic", "10.0.0.1", now + 2_000_000);
    assert_eq!(
        store
            .create_challenge_capped(&later, &caps(now + 2_000_000, true))
            .await
            .unwrap(),
        None
    );
    // Five strangers' open challenges fill the inbox (a0 was declined:
    // a1, a2, b0, a4 and one more); a friend's still arrive.
    let c = make("c0", "g6", "vic", "10.0.0.3");
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, true))
            .await
            .unwrap(),
        None
    );
    let c = make("c1", "g7", "vic", "10.0.0.4");
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, true))
            .await
            .unwrap(),
        Some(Cap::Received)
    );
    let friend = make("f1", "pal2", "vic", "10.0.0.4");
    assert_eq!(
        store
            .create_challenge_capped(&friend, &caps(now, false))
            .await
            .unwrap(),
        None
    );
    // The sender's own caps hold for friends too: three to one player.
    for i in 2..4 {
        let c = make(&format!("f{i}"), "pal", "vic", "10.0.0.9");
        assert_eq!(
            store
                .create_challenge_capped(&c, &caps(now, false))
                .await
                .unwrap(),
            None
        );
    }
    let c = make("f4", "pal", "vic", "10.0.0.9");
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, false))
            .await
            .unwrap(),
        Some(Cap::PerPair)
    );
    // A friend's challenges take no stranger's place at that address.
    for i in 0..3 {
        let c = make(&format!("n{i}"), &format!("pal{i}"), "star", "10.0.2.1");
        assert_eq!(
            store
                .create_challenge_capped(&c, &caps(now, false))
                .await
                .unwrap(),
            None
        );
    }
    let c = make("n3", "g9", "star", "10.0.2.1");
    assert_eq!(
        store
            .create_challenge_capped(&c, &caps(now, true))
            .await
            .unwrap(),
        None
    );
    // Made by one player, and from one address (none: exempt).
    let few = ChallengeCaps {
        made: 2,
        from_address: Some(2),
        ..caps(now, false)
    };
    for i in 0..2 {
        let c = make(&format!("m{i}"), "busy", &format!("to{i}"), "10.0.1.1");
        assert_eq!(store.create_challenge_capped(&c, &few).await.unwrap(), None);
    }
    let c = make("m2", "busy", "to2", "10.0.1.2");
    assert_eq!(
        store.create_challenge_capped(&c, &few).await.unwrap(),
        Some(Cap::Made)
    );
    let c = make("m3", "calm", "to3", "10.0.1.1");
    assert_eq!(
        store.create_challenge_capped(&c, &few).await.unwrap(),
        Some(Cap::FromAddress)
    );
    let exempt = ChallengeCaps {
        from_address: None,
        ..few
    };
    let c = ChallengeRecord {
        client: None,
        ..make("m4", "calm", "to3", "10.0.1.1")
    };
    assert_eq!(
        store.create_challenge_capped(&c, &exempt).await.unwrap(),
        None
    );
}

/// Tournaments a player, or an address, made in the window.
pub async fn tournament_caps_count_the_player_and_the_address(store: &dyn GameStore) {
    let caps = TournamentCaps {
        since: 1_000,
        per_player: 2,
        per_address: Some(3),
    };
    let t = |id: &str, by: &str| TournamentRecord {
        created_by: by.into(),
        ..super::tournament::tournament(id, by, 2_000)
    };
    let caps = &caps;
    let made = |id: &'static str, by: &'static str, client: &'static str| {
        let t = t(id, by);
        async move {
            store
                .create_tournament_capped(&t, Some(client), caps)
                .await
                .unwrap()
        }
    };
    assert_eq!(made("t1", "ann", "10.0.0.1").await, None);
    assert_eq!(made("t2", "ann", "10.0.0.1").await, None);
    assert_eq!(
        made("t3", "ann", "10.0.0.2").await,
        Some(Cap::TournamentsByPlayer)
    );
    assert_eq!(made("t4", "bob", "10.0.0.1").await, None);
    assert_eq!(
        made("t5", "cat", "10.0.0.1").await,
        Some(Cap::TournamentsByAddress),
        "fresh players from one address"
    );
    assert!(store.tournament("t5").await.unwrap().is_none());
    assert!(store.tournament("t4").await.unwrap().is_some());
    let none = store
        .create_tournament_capped(&t("t6", "cat"), None, caps)
        .await
        .unwrap();
    assert_eq!(none, None, "an exempt address counts nothing");
}

/// One report per reporter and line; open reports bounded per reporter,
/// per address and in all, the newest refused.
pub async fn reports_are_bounded(store: &dyn GameStore) {
    let mut lines = Vec::new();
    for i in 0..6 {
        let m = store
            .add_chat(&NewChatMessage {
                game_id: "rg".into(),
                room: ChatRoom::Spectators,
                author: "rude".into(),
                name: "Rude".into(),
                text: format!("line {i}"),
                at: i,
            })
            .await
            .unwrap();
        lines.push(m.id);
    }
    let caps = ReportCaps {
        per_reporter: 2,
        per_address: 3,
        in_all: 4,
    };
    let report = |message: i64, reporter: &str, client: &str| NewReport {
        message,
        reporter: reporter.into(),
        client: Some(client.into()),
        at: 10,
    };
    let caps = &caps;
    let r = |n: NewReport| async move { store.report_chat(&n, caps).await.unwrap() };
    assert_eq!(
        r(report(lines[0], "ann", "10.0.0.1")).await,
        Reported::Stored
    );
    assert_eq!(
        r(report(lines[0], "ann", "10.0.0.1")).await,
        Reported::Already
    );
    assert_eq!(
        r(report(lines[1], "ann", "10.0.0.1")).await,
        Reported::Stored
    );
    assert_eq!(
        r(report(lines[2], "ann", "10.0.0.1")).await,
        Reported::Refused(Cap::ReportsByPlayer)
    );
    assert_eq!(
        r(report(lines[2], "bob", "10.0.0.1")).await,
        Reported::Stored
    );
    assert_eq!(
        r(report(lines[3], "cat", "10.0.0.1")).await,
        Reported::Refused(Cap::ReportsByAddress)
    );
    assert_eq!(
        r(report(lines[3], "cat", "10.0.0.2")).await,
        Reported::Stored
    );
    assert_eq!(
        r(report(lines[4], "dan", "10.0.0.3")).await,
        Reported::Refused(Cap::ReportsInAll)
    );
    let open = store.open_reports().await.unwrap();
    assert_eq!(open.len(), 4, "the first four are kept");
    assert!(store.close_report(open[0].id, 20).await.unwrap());
    assert_eq!(
        r(report(lines[4], "dan", "10.0.0.3")).await,
        Reported::Stored
    );
}

/// Writes racing for the last places of a cap: never more than the cap.
pub async fn racing_writes_never_pass_a_cap(store: &dyn GameStore) {
    let now = 5_000;
    let few = ChallengeCaps {
        made: 4,
        ..caps(now, false)
    };
    let tries: Vec<_> = (0..12)
        .map(|i| {
            challenge(
                &format!("r{i}"),
                "racer",
                &format!("to{i}"),
                "10.9.0.1",
                now,
            )
        })
        .collect();
    let outcomes = join_all(tries.iter().map(|c| store.create_challenge_capped(c, &few))).await;
    let stored = outcomes
        .into_iter()
        .filter(|o| o.as_ref().unwrap().is_none())
        .count();
    assert_eq!(stored, 4, "made by one player");
    let open = store.open_challenges_of("racer", now).await.unwrap();
    assert_eq!(open.len(), 4);

    // Strangers from one address racing into one inbox.
    let tries: Vec<_> = (0..12)
        .map(|i| {
            challenge(
                &format!("s{i}"),
                &format!("guest{i}"),
                "star",
                "10.9.0.2",
                now,
            )
        })
        .collect();
    let inbox = caps(now, true);
    join_all(
        tries
            .iter()
            .map(|c| store.create_challenge_capped(c, &inbox)),
    )
    .await;
    assert_eq!(
        store.open_challenges_of("star", now).await.unwrap().len(),
        3,
        "three from one address"
    );

    let caps = TournamentCaps {
        since: 0,
        per_player: 100,
        per_address: Some(5),
    };
    let tries: Vec<_> = (0..12)
        .map(|i| TournamentRecord {
            created_by: format!("fresh{i}"),
            ..super::tournament::tournament(&format!("rt{i}"), "x", 2_000)
        })
        .collect();
    let made = join_all(
        tries
            .iter()
            .map(|t| store.create_tournament_capped(t, Some("10.9.0.3"), &caps)),
    )
    .await
    .into_iter()
    .filter(|o| o.as_ref().unwrap().is_none())
    .count();
    assert_eq!(made, 5, "five from one address");
}
