use super::*;
use crate::views::tournament::SheetMarkView;
use crate::views::ClockSpecView;
use crate::views::PlayerView;
use std::collections::BTreeMap;

fn player(id: &str) -> PlayerView {
    PlayerView {
        id: id.to_string(),
        name: id.to_uppercase(),
        account: None,
        title: None,
    }
}

fn line(rank: u32, id: &str, points: u32) -> StandingView {
    StandingView {
        rank,
        player: player(id),
        rating: 1500,
        points,
        points_line: points.to_string(),
        sheet: vec![SheetMarkView {
            points,
            fire: false,
            berserk: false,
            berserk_bonus: false,
        }],
        rounds: Vec::new(),
        playing: None,
        games: 1,
        on_fire: false,
        performance: Some(1500),
        withdrawn: false,
        paused: false,
        v: 0,
    }
}

fn game(id: &str, white: &str, black: &str) -> PairingView {
    PairingView {
        game: id.to_string(),
        round: None,
        white: player(white),
        black: player(black),
        result: crate::views::tournament::CountedResult::Open,
        no_show: None,
        white_berserked: false,
        black_berserked: false,
        v: 0,
    }
}

fn view(standings: Vec<StandingView>, pairings: Vec<PairingView>) -> TournamentView {
    TournamentView {
        summary: TournamentSummaryView {
            id: "t".into(),
            kind: crate::store::TournamentKind::Arena,
            name: "Arena".into(),
            variant: tensorchess_rules::VariantKind::Tensor,
            variant_title: tensorchess_rules::VariantKind::Tensor.into(),
            clock: ClockSpecView {
                base_seconds: 180,
                increment_seconds: 2,
            },
            days: None,
            rated: false,
            starts_at: 0,
            ends_at: Some(600_000),
            minutes: Some(10),
            rounds: None,
            max_players: 1000,
            players: standings.len(),
            state: crate::store::TournamentState::Running,
            created_by: "p".into(),
            scheduled: false,
            names: BTreeMap::new(),
        },
        standings_total: standings.len(),
        pairings_total: pairings.len(),
        standings,
        pairings,
        round: None,
        you: None,
        top_game: None,
    }
}

#[test]
fn a_line_that_did_not_change_is_told_by_its_key_version_and_new_rank() {
    let mut told = ToldLines::default();
    let first = view(
        vec![line(1, "a", 4), line(2, "b", 2), line(3, "c", 0)],
        vec![game("g1", "a", "b")],
    );
    let news = first.for_topic_after(&mut told);
    assert!(
        news.standings.iter().all(|s| matches!(s, Told::Whole(_))),
        "the first news tells every line whole"
    );
    let b_version = match &news.standings[1] {
        Told::Whole(s) => s.v,
        Told::Same(_) => unreachable!(),
    };
    assert_ne!(b_version, 0, "lines are stamped");

    // c scores and goes first: its line changes, a's and b's only their ranks.
    let second = view(
        vec![line(1, "c", 5), line(2, "a", 4), line(3, "b", 2)],
        vec![game("g1", "a", "b"), game("g2", "c", "d")],
    );
    let news = second.for_topic_after(&mut told);
    assert!(matches!(&news.standings[0], Told::Whole(s) if s.player.id == "c" && s.rank == 1));
    assert_eq!(
        news.standings[2],
        Told::Same(("b".to_string(), b_version, 3)),
        "b's line is named with its rank now"
    );
    assert!(matches!(&news.pairings[0], Told::Same((id, _)) if id == "g1"));
    assert!(matches!(&news.pairings[1], Told::Whole(p) if p.game == "g2"));
    let text = serde_json::to_string(&news).unwrap();
    assert!(text.contains(r#"["b","#), "{text}");

    // A snapshot tells every line whole, whatever was told before.
    let snapshot = view(vec![line(1, "c", 5)], vec![]).for_topic();
    assert!(matches!(&snapshot.standings[0], Told::Whole(_)));
}

#[test]
fn a_version_changes_with_the_line_but_not_with_its_rank() {
    let a = line(1, "a", 4);
    let mut moved = a.clone();
    moved.rank = 7;
    assert_eq!(a.version(), moved.version());
    let mut playing = a.clone();
    playing.playing = Some("g9".into());
    assert_ne!(a.version(), playing.version());
    let mut scored = a.clone();
    scored.sheet[0].fire = true;
    assert_ne!(a.version(), scored.version());
    let g = game("g1", "a", "b");
    let mut ended = g.clone();
    ended.result = crate::views::tournament::CountedResult::WhiteWins;
    assert_ne!(g.version(), ended.version());
}
