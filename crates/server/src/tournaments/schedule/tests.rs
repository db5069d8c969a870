//! Schedule files: the defaults, a custom file read as written, and the
//! refusals naming the entry at fault.

use super::recurrence::{Recurrence, Weekday, DAY_MS, HOUR_MS, MINUTE_MS};
use super::*;
use crate::store::TournamentKind;
use serde_json::{json, Value};

fn with(entries: Vec<Value>) -> String {
    json!({ "tournaments": entries }).to_string()
}

fn arena() -> Value {
    json!({
        "kind": "arena", "name": "Hourly Bullet",
        "clock": { "base_seconds": 60, "increment_seconds": 0 },
        "minutes": 30, "every": "hourly"
    })
}

fn refusal(entry: Value) -> String {
    let text = with(vec![arena(), entry]);
    match Schedule::parse(&text) {
        Err(e @ ScheduleError::Entry { number: 2, .. }) => e.to_string(),
        other => panic!("entry 2 should be refused: {other:?}"),
    }
}

fn changed(field: &str, v: Value) -> Value {
    let mut e = arena();
    e["key"] = json!("other");
    if v.is_null() {
        e.as_object_mut().unwrap().remove(field);
    } else {
        e[field] = v;
    }
    e
}

#[test]
fn the_defaults_are_an_hourly_arena_and_a_daily_swiss() {
    let s = Schedule::defaults();
    assert_eq!(s, Schedule::parse(DEFAULTS).unwrap());
    assert_eq!(s.entries.len(), 2);
    let (arena, swiss) = (&s.entries[0], &s.entries[1]);
    assert_eq!(arena.settings.kind, TournamentKind::Arena);
    assert_eq!(arena.variant, VariantKind::Tensor);
    assert_eq!(
        (
            arena.settings.clock.base_ms,
            arena.settings.clock.increment_ms
        ),
        (180_000, 2_000)
    );
    assert_eq!(arena.settings.minutes, Some(57));
    assert!(arena.rated);
    assert_eq!(arena.recurrence, Recurrence::Hourly { minute: 0 });
    assert_eq!(swiss.settings.kind, TournamentKind::Swiss);
    assert_eq!(swiss.variant, VariantKind::Tensor);
    assert_eq!(
        (
            swiss.settings.clock.base_ms,
            swiss.settings.clock.increment_ms
        ),
        (300_000, 3_000)
    );
    assert_eq!(swiss.settings.rounds, Some(7));
    assert!(matches!(swiss.recurrence, Recurrence::Daily { .. }));
    assert!(Schedule::none().is_empty());
    assert!(Schedule::parse(r#"{"tournaments": []}"#)
        .unwrap()
        .is_empty());
}

#[test]
fn an_entry_is_read_as_written() {
    let text = with(vec![json!({
        "key": "sat", "kind": "round_robin", "name": "Saturday Chess",
        "variant": "chess", "clock": { "base_seconds": 600, "increment_seconds": 5 },
        "rated": false, "max_players": 12,
        "every": "weekly", "weekday": "saturday", "hour": 15, "minute": 30,
        "announce_minutes": 2880
    })]);
    let s = Schedule::parse(&text).unwrap();
    let e = &s.entries[0];
    assert_eq!(e.key, "sat");
    assert_eq!(e.settings.kind, TournamentKind::RoundRobin);
    assert_eq!(e.variant, VariantKind::Chess);
    assert!(!e.rated);
    assert_eq!(e.settings.max_players, 12);
    assert_eq!(
        e.recurrence,
        Recurrence::Weekly {
            weekday: Weekday::Saturday,
            hour: 15,
            minute: 30
        }
    );
    assert_eq!(e.announce_ms, 2 * DAY_MS);
    // Not said: rated, 100 players, the key is the name, announced a
    // period ahead (at most a day).
    let s = Schedule::parse(&with(vec![arena()])).unwrap();
    let e = &s.entries[0];
    assert!(e.rated);
    assert_eq!(e.settings.max_players, 100);
    assert_eq!(e.key, "Hourly Bullet");
    assert_eq!(e.announce_ms, HOUR_MS);
    let mut e = changed("every", Value::Null);
    e["every_minutes"] = json!(90);
    e["minute"] = json!(15);
    let every = Schedule::parse(&with(vec![e])).unwrap();
    assert_eq!(
        every.entries[0].recurrence,
        Recurrence::Minutes {
            every: 90,
            offset: 15
        }
    );
    assert_eq!(every.entries[0].announce_ms, 90 * MINUTE_MS);
}

#[test]
fn an_occurrence_is_made_by_the_schedule_with_its_key() {
    let s = Schedule::defaults();
    let hourly = &s.entries[0];
    let now = 10 * DAY_MS + 30 * MINUTE_MS;
    let due: Vec<i64> = hourly.due(now).collect();
    assert_eq!(due, vec![10 * DAY_MS + HOUR_MS]);
    let t = hourly.occurrence("abc".into(), due[0], now);
    assert_eq!(
        t.schedule_key.as_deref(),
        Some("hourly-tensor-blitz@867600000")
    );
    assert_eq!(t.created_by, SCHEDULE_CREATOR);
    assert_eq!(t.state, TournamentState::Upcoming);
    assert_eq!((t.starts_at, t.created_at), (due[0], now));
    // The daily Swiss (18:00, announced 12 hours ahead) is not due at 00:30.
    assert_eq!(s.entries[1].due(now).count(), 0);
    assert_eq!(
        s.entries[1].due(now + 6 * HOUR_MS).collect::<Vec<_>>(),
        vec![10 * DAY_MS + 18 * HOUR_MS]
    );
}

#[test]
fn a_scheduled_tournament_is_named_in_other_languages_by_its_entry() {
    let s = Schedule::defaults();
    let hourly = s.entries[0].occurrence("abc".into(), 3_600_000, 0);
    let names = s.names_for(&hourly);
    assert_eq!(
        names.get("uk").map(String::as_str),
        Some("Щогодинний бліц Тензор")
    );
    assert_eq!(
        s.names_for(&s.entries[1].occurrence("def".into(), DAY_MS, 0))
            .get("uk")
            .map(String::as_str),
        Some("Щоденна швейцарка Тензор")
    );
    // A player's tournament, and an occurrence of an entry the schedule no
    // longer has, have none.
    let mut player_made = hourly.clone();
    player_made.schedule_key = None;
    assert!(s.names_for(&player_made).is_empty());
    assert!(Schedule::none().names_for(&hourly).is_empty());
    // Read as written, trimmed.
    let mut e = arena();
    e["names"] = json!({ "uk": " Щогодинна куля " });
    let read = Schedule::parse(&with(vec![e])).unwrap();
    assert_eq!(read.entries[0].names["uk"], "Щогодинна куля");
    assert!(Schedule::parse(&with(vec![arena()])).unwrap().entries[0]
        .names
        .is_empty());
}

#[test]
fn a_file_that_is_not_a_schedule_is_refused() {
    for text in ["", "[]", "{\"tournaments\": 3}", "{\"tourneys\": []}"] {
        assert!(
            matches!(Schedule::parse(text), Err(ScheduleError::NotSchedule(_))),
            "{text:?}"
        );
    }
    let e = Schedule::read(Path::new("/nonexistent/schedule.json")).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/schedule.json"), "{e}");
}

#[test]
fn a_bad_entry_is_refused_by_its_number_and_name() {
    let e = refusal(changed("kind", json!("blitz")));
    assert!(e.starts_with("tournament 2 (\"Hourly Bullet\"): "), "{e}");
    assert!(e.contains("arena"), "{e}");
    let cases = [
        (changed("name", json!("x")), "name"),
        (changed("minutes", json!(500)), "An arena lasts"),
        (changed("minutes", Value::Null), "An arena lasts"),
        (changed("clock", json!({ "base_seconds": 0 })), "clock"),
        (changed("max_players", json!(1)), "players"),
        (changed("every", json!("monthly")), "monthly"),
        (changed("every", Value::Null), "every"),
        (changed("every_minutes", json!(30)), "not both"),
        (changed("hour", json!(3)), "hour"),
        (changed("minute", json!(60)), "minute"),
        (changed("weekday", json!("monday")), "weekday"),
        (changed("announce_minutes", json!(0)), "announce_minutes"),
        (changed("announce_minutes", json!(60 * 49)), "more than 48"),
        (changed("key", json!("a@b")), "key"),
        (changed("colour", json!("red")), "colour"),
        (changed("variant", json!("checkers")), "checkers"),
        (changed("names", json!({ "UK": "Бліц" })), "language codes"),
        (changed("names", json!({ "uk": "б" })), "names.uk"),
        (changed("names", json!(["Бліц"])), "expected a map"),
    ];
    for (entry, said) in cases {
        let e = refusal(entry.clone());
        assert!(e.contains(said), "{entry}: {e}");
    }
    let weekly = |v: Value| {
        let mut e = changed("every", json!("weekly"));
        e["weekday"] = v;
        e
    };
    assert!(refusal(weekly(json!("caturday"))).contains("caturday"));
    let mut no_day = changed("every", json!("weekly"));
    no_day.as_object_mut().unwrap().remove("weekday");
    assert!(refusal(no_day).contains("weekday"));
    let mut short = changed("every", Value::Null);
    short["every_minutes"] = json!(5);
    assert!(refusal(short).contains("every_minutes"));
    // Two entries with one key.
    let mut same = arena();
    same["name"] = json!("Another Bullet");
    same["key"] = json!("Hourly Bullet");
    let e = refusal(same);
    assert!(e.contains("key"), "{e}");
}
