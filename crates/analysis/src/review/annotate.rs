//! A review as annotated PGN: `[%eval]` comments, NAGs on judged moves,
//! the better move as a variation after mistakes and blunders, and the
//! accuracies as tags.

use super::{Judgement, Review};
use tensorchess_rules::VariantKind;

/// Tags written first, in this order (the seven-tag roster).
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "-"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Movetext laid out in lines of at most 79 characters.
struct Movetext {
    out: String,
    line: String,
}

impl Movetext {
    fn push(&mut self, token: &str) {
        if !self.line.is_empty() && self.line.len() + 1 + token.len() > 79 {
            self.out.push_str(&self.line);
            self.out.push('\n');
            self.line.clear();
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(token);
    }

    /// A comment, split into words so that long ones wrap too.
    fn comment(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.len() {
            0 => {}
            1 => self.push(&format!("{{ {} }}", words[0])),
            n => {
                self.push(&format!("{{ {}", words[0]));
                for w in &words[1..n - 1] {
                    self.push(w);
                }
                self.push(&format!("{} }}", words[n - 1]));
            }
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The move number token before a move: `12.` for White, `12...` for Black.
fn number(move_number: u32, white: bool) -> String {
    if white {
        format!("{move_number}.")
    } else {
        format!("{move_number}...")
    }
}

impl Review {
    /// The reviewed game as PGN. `tags` are the game's own (from the PGN it
    /// was read from, say); `Result` is set to `result`, the `Variant` and
    /// `SetUp`/`FEN` tags come from the review, and `WhiteAccuracy` /
    /// `BlackAccuracy` (one decimal) are added.
    pub fn to_pgn(&self, tags: &[(String, String)], result: &str) -> String {
        let mut out = String::new();
        let get = |name: &str| {
            tags.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        for (name, default) in ROSTER {
            let value = if name == "Result" {
                result
            } else {
                get(name).unwrap_or(default)
            };
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        let kind: Option<VariantKind> = self.variant.parse().ok();
        if let Some(v) = kind.and_then(VariantKind::pgn_name) {
            out.push_str(&format!("[Variant \"{v}\"]\n"));
        }
        if kind.is_none_or(|k| k.start_fen() != self.start_fen) {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{}\"]\n", escape(&self.start_fen)));
        }
        let own = ["Variant", "SetUp", "FEN", "WhiteAccuracy", "BlackAccuracy"];
        for (k, v) in tags {
            let reserved = ROSTER.iter().any(|(r, _)| r.eq_ignore_ascii_case(k))
                || own.iter().any(|r| r.eq_ignore_ascii_case(k));
            if !reserved {
                out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
            }
        }
        for (name, side) in [
            ("WhiteAccuracy", &self.white),
            ("BlackAccuracy", &self.black),
        ] {
            if let Some(a) = side.accuracy {
                out.push_str(&format!("[{name} \"{a:.1}\"]\n"));
            }
        }
        out.push('\n');
        let mut text = Movetext {
            out,
            line: String::new(),
        };
        let mut move_number = self.first_move_number.max(1);
        let mut white = self.white_first;
        // Black's move needs its number after a comment or a variation.
        let mut need_number = true;
        for p in &self.plies {
            if white || need_number {
                text.push(&number(move_number, white));
            }
            text.push(&p.san);
            if let Some(j) = p.judgement {
                text.push(&format!("${}", j.nag()));
            }
            let mut comment = String::new();
            if let Some(e) = p.eval {
                comment.push_str(&format!("[%eval {}]", e.pgn()));
            }
            if let (Some(j), Some(b)) = (p.judgement, &p.better) {
                comment.push_str(&format!(" {}. {} was best.", j.name(), b.san));
            }
            text.comment(&comment);
            need_number = !comment.is_empty();
            let variation = p
                .better
                .as_ref()
                .filter(|_| matches!(p.judgement, Some(Judgement::Mistake | Judgement::Blunder)));
            if let Some(b) = variation {
                let (mut n, mut w) = (move_number, white);
                let mut tokens = Vec::new();
                for (k, s) in b.line_san.iter().enumerate() {
                    if w || k == 0 {
                        tokens.push(number(n, w));
                    }
                    tokens.push(s.clone());
                    if !w {
                        n += 1;
                    }
                    w = !w;
                }
                if let Some(first) = tokens.first_mut() {
                    *first = format!("({first}");
                }
                if let Some(last) = tokens.last_mut() {
                    last.push(')');
                }
                for t in &tokens {
                    text.push(t);
                }
                need_number = true;
            }
            if !white {
                move_number += 1;
            }
            white = !white;
        }
        text.push(result);
        let Movetext { mut out, line } = text;
        out.push_str(&line);
        out.push('\n');
        out
    }
}
