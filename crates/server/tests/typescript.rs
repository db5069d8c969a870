//! The page's types for the WebSocket's events, generated from the Rust
//! types (ts-rs) into `assets/js/generated/events.ts`, which the page's
//! JSDoc imports and `tsc --noEmit` checks the page against
//! (`tests/browser/tsconfig.json`). The file is committed; this test fails
//! when it is not what the Rust types make now.
//!
//! To write it again: `TENSORCHESS_WRITE_TS=1 cargo nextest run -p
//! tensorchess-server --test typescript` (or `cargo test`).

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use tensorchess_server::bot::ExportedGameView;
use tensorchess_server::challenges::ChallengeRequest;
use tensorchess_server::explorer::ExplorerView;
use tensorchess_server::http::views::games::{CorrespondenceView, GameListView};
use tensorchess_server::http::views::lessons::LessonsView;
use tensorchess_server::http::views::pgn_tree::TreeImportView;
use tensorchess_server::http::views::players::{BotsView, FoundPlayerView, MeView, ProfileView};
use tensorchess_server::http::views::puzzles::{PuzzleResultView, PuzzleView, ThemesView};
use tensorchess_server::http::views::reviews::ReviewStatusView;
use tensorchess_server::http::views::site::SiteView;
use tensorchess_server::http::views::tokens::{NewTokenView, TokensView};
use tensorchess_server::http::views::tournaments::TournamentsView;
use tensorchess_server::learning::lessons::CheckView;
use tensorchess_server::requests::{OnlineAction, SeekRequest};
use tensorchess_server::tournaments::CreateTournamentRequest;
use tensorchess_server::views::tournament::{
    GameTournamentView, PlayerGamesView, RoundView, TournamentSummaryView, TournamentView,
};
use tensorchess_server::views::ServerEvent;
use tensorchess_server::views::{
    AnalysisView, DrawAnswerView, ExplainView, GamePlayersView, InfoView, PlayedView,
};
use ts_rs::{Config, TypeVisitor, TS};

/// Every declared type a type uses, each once, by name.
struct Declarations {
    cfg: Config,
    seen: HashSet<TypeId>,
    decls: BTreeMap<String, String>,
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and wrappers (`Vec`, `Option`, `Box`) are not declared.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let docs = T::docs().map(|d| format!("{d}\n")).unwrap_or_default();
        self.decls.insert(
            T::ident(&self.cfg),
            format!("{docs}export {}", T::decl(&self.cfg)),
        );
        T::visit_dependencies(self);
    }
}

/// The file's text: `ServerEvent` and every type it carries, by name.
fn generated() -> String {
    let mut d = Declarations {
        // JSON numbers, whatever their width in Rust.
        cfg: Config::new().with_large_int("number"),
        seen: HashSet::new(),
        decls: BTreeMap::new(),
    };
    d.visit::<ServerEvent>();
    // What a tournament's news is read into (the page's view, as `GET`
    // gives it: tournaments/news.js).
    d.visit::<TournamentView>();
    // Who holds a game's seats (`GET /api/games/{id}/players`).
    d.visit::<GamePlayersView>();
    // The other tournament answers the pages read (`GET /api/tournaments`,
    // `.../rounds/{n}`, `.../players/{player}`, `/api/games/{id}/tournament`),
    // and what the server offers (`GET /api/info`).
    d.visit::<TournamentSummaryView>();
    d.visit::<RoundView>();
    d.visit::<PlayerGamesView>();
    d.visit::<GameTournamentView>();
    d.visit::<InfoView>();
    // The HTTP answers the pages read: the player and their games
    // (`/api/me`, `/api/players/{name}`, `/api/games`, `/api/correspondence`,
    // the header's search), the bots, the tokens, the home page's news
    // (`/api/site`), the tournament lists, and the board's helpers (draw,
    // hint, explain, `/api/position`).
    d.visit::<MeView>();
    d.visit::<ProfileView>();
    d.visit::<GameListView>();
    d.visit::<CorrespondenceView>();
    d.visit::<FoundPlayerView>();
    d.visit::<BotsView>();
    d.visit::<TokensView>();
    d.visit::<NewTokenView>();
    d.visit::<SiteView>();
    d.visit::<TournamentsView>();
    d.visit::<DrawAnswerView>();
    d.visit::<AnalysisView>();
    d.visit::<ExplainView>();
    d.visit::<PlayedView>();
    // The puzzles (`/api/puzzles/...`).
    d.visit::<PuzzleView>();
    d.visit::<PuzzleResultView>();
    d.visit::<ThemesView>();
    // The analysis board: an imported PGN's tree and the opening explorer.
    d.visit::<TreeImportView>();
    d.visit::<ExplorerView>();
    d.visit::<ReviewStatusView>();
    d.visit::<LessonsView>();
    d.visit::<CheckView>();
    d.visit::<ExportedGameView>();
    // What the pages send: a seek, a challenge, a new tournament.
    d.visit::<SeekRequest>();
    d.visit::<OnlineAction>();
    d.visit::<ChallengeRequest>();
    d.visit::<CreateTournamentRequest>();
    let mut out = String::from(
        "// Generated from the server's Rust types by ts-rs \
         (crates/server/tests/typescript.rs): do not edit.\n\
         // Written again with TENSORCHESS_WRITE_TS=1 cargo test -p tensorchess-server --test typescript\n",
    );
    for decl in d.decls.values() {
        out.push('\n');
        for line in decl.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_pages_event_types_are_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/js/generated/events.ts");
    let now = generated();
    if std::env::var_os("TENSORCHESS_WRITE_TS").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == now,
        "{} is not what the Rust types make now: write it again with \
         TENSORCHESS_WRITE_TS=1 cargo test -p tensorchess-server --test typescript, \
         then run tsc (tests/browser: npx tsc -p tsconfig.json)",
        path.display()
    );
}
