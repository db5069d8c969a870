//! The shapes' JSON, as lichess's clients read it.

use super::*;
use crate::store::SeekColor;
use crate::views::challenge::Direction;
use crate::views::{ClockSpecView, Title};
use serde_json::json;
use tensorchess_rules::{Color, VariantKind};

fn challenge(state: ChallengeStatus, reason: Option<&str>) -> ChallengeView {
    let player = |name: &str, account: Option<&str>, title| RatedPlayerView {
        player: crate::views::PlayerView {
            id: format!("id{name}"),
            name: name.into(),
            account: account.map(Into::into),
            title,
        },
        rating: 1612,
        provisional: false,
    };
    ChallengeView {
        id: "c1".into(),
        direction: Direction::In,
        from: player("Ann", None, None),
        to: player("Robo", Some("RoboBot"), Some(Title::Bot)),
        variant: VariantKind::Chess,
        variant_title: VariantKind::Chess.into(),
        clock: Some(ClockSpecView {
            base_seconds: 180,
            increment_seconds: 2,
        }),
        days: None,
        rated: true,
        color: SeekColor::Random,
        final_color: SeekColor::White,
        state,
        game: None,
        reason: reason.map(Into::into),
        created_at: 1,
        expires_at: 2,
    }
}

fn news(event: ChallengeEvent, c: ChallengeView) -> serde_json::Value {
    let event = ServerEvent::Challenge {
        topic: "challenges".into(),
        event,
        challenge: Box::new(c),
    };
    match ChallengeNews::of(&event) {
        Some(ChallengeNews::Line(line)) => serde_json::to_value(line).unwrap(),
        other => panic!("not a line: {other:?}"),
    }
}

#[test]
fn a_challenge_is_lichess_s() {
    let line = news(
        ChallengeEvent::Created,
        challenge(ChallengeStatus::Open, None),
    );
    assert_eq!(
        line,
        json!({
            "type": "challenge",
            "challenge": {
                "id": "c1",
                "url": "/#/challenge/c1",
                "status": "created",
                "challenger": { "id": "guest-idAnn", "name": "Ann", "rating": 1612, "provisional": false },
                "destUser": { "id": "robobot", "name": "RoboBot", "rating": 1612, "provisional": false, "title": "BOT" },
                "variant": { "key": "standard", "name": "Standard", "short": "Std" },
                "rated": true,
                "speed": "blitz",
                "perf": { "icon": "", "name": "Blitz" },
                "timeControl": { "type": "clock", "limit": 180, "increment": 2, "show": "3+2" },
                "color": "random",
                "finalColor": "white",
                "direction": "in",
            }
        })
    );
    // Written in the order of its names, as the stream always wrote it.
    let text = serde_json::to_string(&line["challenge"]).unwrap();
    assert_eq!(
        serde_json::to_string(&LichessChallenge::from(&challenge(
            ChallengeStatus::Open,
            None
        )))
        .unwrap(),
        text
    );
}

#[test]
fn a_challenges_news_is_its_line_and_an_acceptance_its_game() {
    let declined = news(
        ChallengeEvent::Declined,
        challenge(ChallengeStatus::Declined, None),
    );
    assert_eq!(declined["type"], "challengeDeclined");
    assert_eq!(declined["challenge"]["status"], "declined");
    assert_eq!(declined["challenge"]["declineReason"], DEFAULT_DECLINE);
    let later = news(
        ChallengeEvent::Declined,
        challenge(ChallengeStatus::Declined, Some("later")),
    );
    assert_eq!(later["challenge"]["declineReason"], "later");
    let expired = news(
        ChallengeEvent::Expired,
        challenge(ChallengeStatus::Expired, None),
    );
    assert_eq!(expired["type"], "challengeCanceled");
    assert_eq!(expired["challenge"]["status"], "canceled");
    let mut accepted = challenge(ChallengeStatus::Accepted, None);
    accepted.game = Some("g1".into());
    let event = ServerEvent::Challenge {
        topic: "challenges".into(),
        event: ChallengeEvent::Accepted,
        challenge: Box::new(accepted),
    };
    assert_eq!(
        ChallengeNews::of(&event),
        Some(ChallengeNews::Started("g1".into()))
    );
    assert_eq!(
        ChallengeNews::of(&ServerEvent::GameStarted { game: "g1".into() }),
        None
    );
}

#[test]
fn time_controls_are_lichess_s() {
    let mut c = challenge(ChallengeStatus::Open, None);
    c.clock = None;
    c.days = Some(3);
    let v = serde_json::to_value(LichessChallenge::from(&c)).unwrap();
    assert_eq!(
        v["timeControl"],
        json!({ "type": "correspondence", "daysPerTurn": 3 })
    );
    assert_eq!(v["speed"], "correspondence");
    c.days = None;
    let v = serde_json::to_value(LichessChallenge::from(&c)).unwrap();
    assert_eq!(v["timeControl"], json!({ "type": "unlimited" }));
    c.clock = Some(ClockSpecView {
        base_seconds: 30,
        increment_seconds: 0,
    });
    let v = serde_json::to_value(LichessChallenge::from(&c)).unwrap();
    assert_eq!(v["timeControl"]["show"], "0.5+0");
}

#[test]
fn a_game_start_is_lichess_s() {
    let game = GameEventShape {
        compat: Compat {
            board: true,
            bot: true,
        },
        color: Color::Black,
        fen: "fen".into(),
        full_id: "g1".into(),
        game_id: "g1".into(),
        has_moved: true,
        id: "g1".into(),
        is_my_turn: false,
        last_move: "e2e4".into(),
        opponent: Opponent::of(
            BotPlayerView {
                id: "ann".into(),
                name: "Ann".into(),
                title: None,
                rating: Some(1500),
            },
            None,
        ),
        perf: lichess::PerfKey::Chess(crate::store::Speed::Blitz),
        rated: true,
        rating_diff: None,
        seconds_left: Some(179),
        source: GameSource::Friend,
        speed: crate::store::Speed::Blitz,
        status: lichess::status(lichess::GameStatus::Started),
        variant: lichess::variant(VariantKind::Chess),
        winner: None,
    };
    let line = EventLine::GameStart {
        game: Box::new(game),
    };
    assert_eq!(
        serde_json::to_value(&line).unwrap(),
        json!({
            "type": "gameStart",
            "game": {
                "id": "g1", "gameId": "g1", "fullId": "g1",
                "color": "black",
                "fen": "fen",
                "hasMoved": true,
                "isMyTurn": false,
                "lastMove": "e2e4",
                "opponent": { "id": "ann", "username": "Ann", "rating": 1500 },
                "perf": "blitz",
                "rated": true,
                "secondsLeft": 179,
                "source": "friend",
                "speed": "blitz",
                "status": { "id": 20, "name": "started" },
                "variant": { "key": "standard", "name": "Standard", "short": "Std" },
                "compat": { "bot": true, "board": true },
            }
        })
    );
}

#[test]
fn a_chat_line_is_lichess_s() {
    let line = crate::views::chat::ChatLineView {
        id: 1,
        room: ChatRoom::Players,
        name: "Ann".into(),
        account: None,
        seat: Some(Color::White),
        title: None,
        text: "gg".into(),
        at: 2,
    };
    assert_eq!(
        serde_json::to_value(ChatLine::from(&line)).unwrap(),
        json!({ "type": "chatLine", "room": "player", "username": "Ann", "text": "gg" })
    );
    assert_eq!(
        serde_json::to_value(OpponentGone::new(true, Some(3))).unwrap(),
        json!({ "type": "opponentGone", "gone": true, "claimWinInSeconds": 3 })
    );
}
