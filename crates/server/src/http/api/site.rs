//! The home page's view of the site (issue 41): players online and games
//! played (the presence every server shares), the featured game, the
//! tournaments running and starting soon, the puzzle of the day.

use super::ApiResult;
use crate::http::views::site::SiteView;
use crate::tournaments::views::summary;
use crate::AppState;
use axum::extract::State;
use axum::Json;

/// Tournaments of each kind listed on the home page.
const TOURNAMENTS_SHOWN: usize = 3;

/// `GET /api/site`.
pub async fn site(State(state): State<AppState>) -> ApiResult<SiteView> {
    let presence = state.games.live.presence();
    let players_online = presence.players_online();
    let playing = state.games.playing_now().await?;
    let lists = state.tournaments.list().await?;
    let few = |list: &[(_, usize)]| {
        list.iter()
            .take(TOURNAMENTS_SHOWN)
            .map(|(t, players)| summary(t, *players, state.tournaments.schedule()))
            .collect()
    };
    Ok(Json(SiteView {
        players_online,
        games_playing: playing.games,
        featured: playing.featured,
        tournaments_running: few(&lists.running),
        tournaments_upcoming: few(&lists.upcoming),
        // No shipped puzzles (a stripped build): none shown.
        puzzle: state.learning.puzzles.daily().ok(),
    }))
}
