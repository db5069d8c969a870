//! The server's modules go one way (issue 39; DEVELOPERS.md's layers):
//! read from the source, as import-linter or ArchUnit read theirs. Every
//! top-level module of `src/` has a layer; a module may use those of its
//! own layer or below, never above; the domain services (layer 4) never
//! use each other; and no two modules use each other round a circle.
//!
//! A use is a path `crate::m` anywhere in a module's files, or `super::m`
//! in its top file, outside comments and the test module at a file's end.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module and its layer (0 at the bottom).
const LAYERS: &[(&str, u8)] = &[
    // 0: basics, no service.
    ("ids", 0),
    ("kind", 0),
    ("catalogues", 0),
    ("error", 0),
    ("clock", 0),
    ("metrics", 0),
    ("ratelimit", 0),
    ("budget", 0),
    ("client", 0),
    ("slots", 0),
    ("identity", 0),
    ("rating", 0),
    ("text", 0),
    ("store", 0),
    // 1: the vocabulary (events, requests, topics, the hub), the settings
    // and the instances' outbox.
    ("config", 1),
    ("views", 1),
    ("game_views", 1),
    ("requests", 1),
    ("topic", 1),
    ("hub", 1),
    ("outbox", 1),
    // 2: the round, the one writer of games, and who is connected to them.
    ("round", 2),
    ("presence", 2),
    // 3: players and their tokens.
    ("players", 3),
    ("tokens", 3),
    // 4: domain services, which never use each other.
    ("lobby", 4),
    ("challenges", 4),
    ("chat", 4),
    ("tournaments", 4),
    ("learning", 4),
    ("bot", 4),
    ("follows", 4),
    ("explorer", 4),
    // 5: the instances' bus dispatcher and the background work.
    ("cluster", 5),
    ("background", 5),
    // 6: the HTTP edge.
    ("http", 6),
];

/// The layer of the domain services, which may not use one another.
const SERVICES: u8 = 4;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without its comments and without the test module at its end.
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers that follow `prefix` in `code`.
fn after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(i, _)| {
            // A whole path segment: not `xcrate::` nor `self::super::`.
            *i == 0 || !code[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
        })
        .map(|(i, _)| {
            let rest = &code[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// Top-level module → the top-level modules it uses (with a file naming
/// each use).
fn uses() -> BTreeMap<String, BTreeMap<String, String>> {
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    let modules: BTreeSet<String> = LAYERS.iter().map(|(m, _)| m.to_string()).collect();
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for path in all {
        let rel = path.strip_prefix(&root).expect("under src");
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let top = parts[0].trim_end_matches(".rs").to_string();
        if top == "lib" {
            continue;
        }
        let text = code(&std::fs::read_to_string(&path).expect("a source file"));
        // `super::` names a top-level module only from a module's top file.
        let top_file = parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod.rs");
        let mut named = after(&text, "crate::");
        if top_file {
            named.extend(after(&text, "super::"));
        }
        for m in named {
            if m != top && modules.contains(m) {
                graph
                    .entry(top.clone())
                    .or_default()
                    .entry(m.to_string())
                    .or_insert_with(|| rel.display().to_string());
            }
        }
    }
    graph
}

#[test]
fn every_top_level_module_has_a_layer() {
    let layered: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(src()).expect("the source folder") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if name != "lib" && !layered.contains(name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "modules without a layer (add them to LAYERS and to DEVELOPERS.md): {missing:?}"
    );
}

#[test]
fn modules_use_only_their_layer_and_those_below() {
    let layer: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, used) in uses() {
        let Some(&l) = layer.get(from.as_str()) else {
            continue;
        };
        for (to, file) in used {
            let t = layer[to.as_str()];
            if t > l {
                wrong.push(format!(
                    "{from} (layer {l}) uses {to} (layer {t}) in {file}"
                ));
            } else if t == SERVICES && l == SERVICES {
                wrong.push(format!("the services {from} and {to} meet in {file}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that point the wrong way:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_modules_use_each_other_round_a_circle() {
    let graph = uses();
    // Depth-first search for a back edge, naming the circle found.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut circle = path[i..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|m| m.keys()) {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        let circle = visit(node, &graph, &mut Vec::new(), &mut done);
        assert!(
            circle.is_none(),
            "modules in a circle: {}",
            circle.unwrap_or_default().join(" → ")
        );
    }
}

/// The reader finds what it should: a use above, a service meeting
/// another, a comment and a test module ignored.
#[test]
fn the_reader_reads_paths_and_skips_comments_and_tests() {
    let text = "use crate::http::x; // crate::round\nfn f() { crate::lobby::g(); }\n#[cfg(test)]\nmod tests { use crate::chat; }\n";
    let code = code(text);
    assert_eq!(after(&code, "crate::"), ["http", "lobby"]);
    assert_eq!(after("xcrate::a self::super::b super::c", "super::"), ["c"]);
}
