//! Before the clocks start: every game created and joined over HTTP, and
//! both of its players' WebSockets open and subscribed, so that all games
//! start playing at once. With several instances White's requests and
//! socket go to one instance and Black's to the next (or, `--together`,
//! the same one: [`seat_instances`]).

use std::sync::Arc;
use std::time::Instant;

use crate::args::seat_instances;
use crate::http::{open_socket, setup_game, Seats, Ws};
use crate::instances::Route;
use crate::play::Side;
use crate::{join_by, Error};

/// Creates and joins `games` games, `setup_concurrency` requests at a time.
pub(crate) async fn create_games(
    route: &Route,
    games: usize,
    together: bool,
    variants: &[&'static str],
    clock: &str,
    setup_concurrency: usize,
    deadline: Instant,
) -> Result<Vec<Seats>, Error> {
    let sem = Arc::new(tokio::sync::Semaphore::new(setup_concurrency.max(1)));
    let mut tasks = Vec::new();
    for i in 0..games {
        let (w, b) = seat_instances(i, route.len(), together);
        let (create, join) = (route.addrs[w], route.addrs[b]);
        let (sem, clock) = (sem.clone(), clock.to_string());
        let variant = variants[i % variants.len()];
        tasks.push(tokio::spawn(async move {
            let _permit = sem.acquire_owned().await?;
            setup_game(create, join, variant, &clock).await
        }));
    }
    join_by(deadline, tasks, "timed out setting up the games").await
}

/// Opens both players' sockets of every game, each on its instance.
pub(crate) async fn open_sockets(
    route: &Route,
    seats: &[Seats],
    together: bool,
    setup_concurrency: usize,
    deadline: Instant,
) -> Result<Vec<(Ws, Side)>, Error> {
    let sem = Arc::new(tokio::sync::Semaphore::new(setup_concurrency.max(1)));
    let mut tasks = Vec::new();
    for (i, s) in seats.iter().enumerate() {
        let (w, b) = seat_instances(i, route.len(), together);
        for (cookie, me, instance) in [(&s.white, "white", w), (&s.black, "black", b)] {
            let side = Side {
                game: s.id.clone(),
                me,
                cookie: cookie.clone(),
                instance,
            };
            let (addr, sem) = (route.addrs[instance], sem.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = sem.acquire_owned().await?;
                let ws = open_socket(addr, &side.cookie, &side.game).await?;
                Ok::<_, Error>((ws, side))
            }));
        }
    }
    join_by(deadline, tasks, "timed out connecting the players").await
}
