//! The PGN reader and writer: trees with comments, glyphs and nested
//! variations survive writing and reading back (property tests over
//! generated trees); the reader never panics on arbitrary text and says
//! where text is not PGN; every line of a tree plays under the rules.

use crate::common::config;
use proptest::prelude::*;
use tensorchess_rules::pgn::{
    PgnError, PgnLine, PgnNode, PgnTree, game_tags, parse_pgn, parse_pgn_tree, replay, replay_game,
    write_pgn,
};
use tensorchess_rules::{Chess, Color, Game, Position, Tensor, VariantKind};

/// A move token as a reader keeps it: a letter first (no move number), no
/// suffix glyph, nothing that ends a token.
fn san() -> impl Strategy<Value = String> {
    "[a-hNBRQKT][a-h1-8x=+#>@]{0,6}"
}

/// A comment as the reader leaves it: words separated by single spaces.
fn comment() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9%.,:\\[\\]{-]{1,8}", 1..5).prop_map(|w| w.join(" "))
}

fn node(variations: impl Strategy<Value = Vec<PgnLine>>) -> impl Strategy<Value = PgnNode> {
    (
        san(),
        prop::collection::vec(any::<u8>(), 0..3),
        prop::collection::vec(comment(), 0..2),
        variations,
    )
        .prop_map(|(san, nags, comments, variations)| PgnNode {
            san,
            nags,
            comments,
            variations,
        })
}

/// A line of at least one move, with variations nested a few deep.
fn line() -> impl Strategy<Value = PgnLine> {
    let leaf = (
        prop::collection::vec(comment(), 0..2),
        prop::collection::vec(node(Just(Vec::new())), 1..6),
    )
        .prop_map(|(comments, moves)| PgnLine { comments, moves });
    leaf.prop_recursive(3, 40, 4, |inner| {
        (
            prop::collection::vec(comment(), 0..2),
            prop::collection::vec(node(prop::collection::vec(inner, 0..3)), 1..6),
        )
            .prop_map(|(comments, moves)| PgnLine { comments, moves })
    })
}

fn tree() -> impl Strategy<Value = PgnTree> {
    (
        prop::collection::vec(("[A-Z][A-Za-z0-9_]{0,10}", "\\PC{0,20}"), 1..5),
        prop_oneof![line(), Just(PgnLine::default())],
        prop_oneof![Just("1-0"), Just("0-1"), Just("1/2-1/2"), Just("*")],
    )
        .prop_map(|(tags, line, result)| PgnTree {
            tags,
            line,
            result: result.to_string(),
        })
}

proptest! {
    #![proptest_config(config(256))]

    /// Whatever the tree, its text reads back as the same tree, from any
    /// first move number and side.
    #[test]
    fn trees_survive_writing_and_reading(tree in tree(), number in 1u32..200, white in any::<bool>()) {
        let first = if white { Color::White } else { Color::Black };
        let text = tree.to_pgn(number, first);
        let back = parse_pgn_tree(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.len(), 1, "{}", text);
        prop_assert_eq!(&back[0], &tree, "{}", text);
        prop_assert!(text.lines().skip_while(|l| l.starts_with('[')).all(|l| l.len() <= 79 || !l.contains(' ')), "{}", text);
    }

    /// Arbitrary text is read or refused, never a panic; what is read
    /// writes and reads back.
    #[test]
    fn the_reader_survives_arbitrary_text(text in "\\PC{0,200}") {
        read_anything(&text)?;
    }

    /// Text made of PGN's own characters reaches deeper into the reader.
    #[test]
    fn the_reader_survives_pgn_like_text(text in "[\\[\\]{}();$!?*\"\\\\. \\n0-9a-hNBRQKTx=+#-]{0,200}") {
        read_anything(&text)?;
    }
}

fn read_anything(text: &str) -> Result<(), TestCaseError> {
    let trees = parse_pgn_tree(text);
    let games = parse_pgn(text);
    prop_assert_eq!(trees.is_ok(), games.is_ok());
    if let Ok(trees) = trees {
        for tree in &trees {
            let _ = tree.line.play(&Position::<Tensor>::new());
            let _ = tree.line.play(&Position::<Chess>::new());
            // The writer's text reads again (comments may lose a `}` and
            // tags odd names, so the trees are not compared).
            let again = tree.to_pgn(1, Color::White);
            let _ = parse_pgn_tree(&again);
        }
    }
    if let Ok(games) = games {
        for g in &games {
            let _ = replay::<Tensor>(g);
        }
    }
    Ok(())
}

#[test]
fn syntax_errors_say_where() {
    let at = |text: &str| match parse_pgn_tree(text) {
        Err(PgnError::Syntax { line, column, .. }) => (line, column),
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(at("[Event \"x\"\n\n1. e4 *"), (1, 1)); // the unclosed tag's '['
    assert_eq!(at("1. e4 e5\n2. Nf3 {open"), (2, 8)); // the unclosed comment's '{'
    assert_eq!(at("1. e4 e5 ) *"), (1, 10));
    assert_eq!(at("( 1. e4 ) *"), (1, 1));
    assert_eq!(at("1. e4 (1... e5 (1... c5) *"), (1, 7)); // the '(' never closed
    assert_eq!(at("1. e4 $x *"), (1, 7));
    assert_eq!(at("1. ♘f3 $300"), (1, 8)); // columns count characters
    let e = parse_pgn("1. e4 )").unwrap_err().to_string();
    assert_eq!(e, "PGN syntax error at line 1, column 7: ')' without '('");
}

#[test]
fn every_line_plays_under_the_rules() {
    let text = "1. e4 e5 (1... d5 2. exd5 (2. Nh3) 2... Qxd5) 2. Nh3 *";
    let tree = &parse_pgn_tree(text).unwrap()[0];
    let start = tree.start::<Chess>().unwrap();
    let played = tree.line.play(&start).unwrap();
    let d5 = &played.moves[1].variations[0];
    assert_eq!(d5.moves.len(), 3);
    // A variation starts from the position before the move it replaces.
    assert_eq!(d5.moves[0].before, played.moves[1].before);
    let nh3 = &d5.moves[1].variations[0].moves[0];
    assert_eq!(nh3.before.move_string(nh3.mv), "g1h3");
    // A move the rules refuse, deep in a variation, names its move number.
    let bad = &parse_pgn_tree("1. e4 e5 (1... d5 2. Ke3) *").unwrap()[0];
    match bad.line.play(&Position::<Chess>::new()) {
        Err(PgnError::Move { number, token, .. }) => {
            assert_eq!((number.as_str(), token.as_str()), ("2.", "Ke3"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_game_writes_and_reads_back_with_its_tags() {
    let mut game = Game::<Chess>::new();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] {
        game.push_str(m).unwrap();
    }
    let tags = [
        ("White".to_string(), "Ann \"A\" \\".to_string()),
        ("Annotator".to_string(), "me".to_string()),
    ];
    let text = write_pgn(&game, &tags, None);
    assert_eq!(
        text,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
         [White \"Ann \\\"A\\\" \\\\\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"me\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n"
    );
    let read = &parse_pgn(&text).unwrap()[0];
    assert_eq!(read.tag("White"), Some("Ann \"A\" \\"));
    assert_eq!(replay::<Chess>(read).unwrap().moves(), game.moves());
}

#[test]
fn a_set_up_game_is_numbered_from_its_position() {
    let start =
        Position::<Chess>::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 41").expect("a legal FEN");
    let mut game = Game::from_position(start);
    for m in ["e8d7", "e2e4", "d7c6"] {
        game.push_str(m).unwrap();
    }
    let text = write_pgn(&game, &[], None);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 41\"]\n"));
    assert!(text.ends_with("\n41... Kd7 42. e4 Kc6 *\n"), "{text}");
    let read = &parse_pgn(&text).unwrap()[0];
    assert_eq!(replay::<Chess>(read).unwrap().moves(), game.moves());
}

#[test]
fn comments_lose_only_what_would_end_them() {
    let tree = PgnTree {
        tags: game_tags(&[], "*", Some(VariantKind::Tensor), None),
        line: PgnLine {
            comments: vec!["before } the first".into()],
            moves: vec![PgnNode {
                san: "e4".into(),
                comments: vec!["  spaced\n out  ".into(), "   ".into()],
                ..PgnNode::default()
            }],
        },
        result: "*".into(),
    };
    let text = tree.to_pgn(1, Color::White);
    assert!(
        text.ends_with("{ before the first } 1. e4 { spaced out } *\n"),
        "{text}"
    );
    let back = &parse_pgn_tree(&text).unwrap()[0];
    assert_eq!(back.line.comments, ["before the first"]);
    assert_eq!(back.line.moves[0].comments, ["spaced out"]);
}

#[test]
fn a_game_of_any_kind_replays_to_its_end_under_these_rules() {
    // The Variant tag names the game; without one, the fallback, else chess.
    let tensor = &parse_pgn("[Variant \"Tensor\"]\n\n1. e4 e5 *").unwrap()[0];
    let game = replay_game(tensor, Some(VariantKind::Chess)).unwrap();
    assert_eq!((game.kind(), game.ply()), (VariantKind::Tensor, 2));
    let bare = &parse_pgn("1. e4 e5 *").unwrap()[0];
    assert_eq!(replay_game(bare, None).unwrap().kind(), VariantKind::Chess);
    let tensor = replay_game(bare, Some(VariantKind::Tensor)).unwrap();
    assert_eq!(tensor.kind(), VariantKind::Tensor);
    // A threefold repetition ends a game at once: what was written after
    // it is not played (here, a move that would be legal).
    let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *";
    let pgn = &parse_pgn(shuffle).unwrap()[0];
    assert_eq!(replay_game(pgn, None).unwrap().ply(), 8);
    assert_eq!(replay::<Chess>(pgn).unwrap().moves().len(), 9);
    // An unknown game is an error, not a fallback.
    let odd = &parse_pgn("[Variant \"Atomic\"]\n\n1. e4 *").unwrap()[0];
    assert!(matches!(
        replay_game(odd, Some(VariantKind::Tensor)),
        Err(PgnError::Variant(_))
    ));
}
