//! Fresh guests from a few addresses flood one account's challenges (issue
//! 38): all at once, untimed. Then the checks: an account the victim
//! follows, and a fresh stranger from another address, must still reach
//! the victim.

use std::net::SocketAddr;
use std::time::Instant;
use tensorchess_loadtest::http::http_from;
use tensorchess_loadtest::Error;

/// The options of `abuse inbox`.
#[derive(clap::Args, Debug)]
pub struct InboxArgs {
    /// Fresh guests challenging the victim (each once).
    #[arg(long, default_value_t = 60)]
    guests: usize,
    /// The addresses they share (guest i comes from address i mod this).
    #[arg(long, default_value_t = 2)]
    addresses: usize,
}

/// One request from `from` (`X-Forwarded-For`); the status, the identity
/// cookie it set, and the body.
async fn call(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<(u16, Option<String>, String), Error> {
    let (status, cookies, text) = http_from(addr, method, path, cookie, body, Some(from)).await?;
    let cookie = cookies.into_iter().find(|c| c.starts_with("tcid="));
    Ok((status, cookie, text))
}

/// Registers `name` from `from`; its session cookie.
async fn account(addr: SocketAddr, from: &str, name: &str) -> Result<String, Error> {
    let body = format!(r#"{{"username":"{name}","password":"a long password"}}"#);
    let (status, cookie, text) =
        call(addr, from, "POST", "/api/account/register", None, &body).await?;
    if status != 201 {
        return Err(format!("registering {name}: HTTP {status}: {text}").into());
    }
    cookie.ok_or_else(|| format!("registering {name}: no cookie").into())
}

/// The address of guest address `i` (apart from the accounts' addresses).
fn flood_address(i: usize) -> String {
    format!("10.66.{}.{}", (i >> 8) & 255, i & 255)
}

/// `abuse inbox`: fresh guests flood one account's challenges, then a
/// followed account and a stranger must still reach it; prints what
/// arrived.
pub async fn run(addr: SocketAddr, args: InboxArgs) -> Result<(), Error> {
    if args.addresses == 0 {
        return Err("--addresses must be at least 1".into());
    }
    let victim = account(addr, "10.200.0.1", "victim").await?;
    let friend = account(addr, "10.200.0.2", "friend").await?;
    let (status, _, text) = call(
        addr,
        "10.200.0.1",
        "POST",
        "/api/rel/follow/friend",
        Some(&victim),
        "{}",
    )
    .await?;
    // A server from before follows (measured side by side) has no such
    // route: the "friend" is then a stranger to it.
    if status == 404 {
        println!("the server has no follows: the account is a stranger to the victim");
    } else if status != 200 {
        return Err(format!("following: HTTP {status}: {text}").into());
    }

    // The flood, all at once.
    let start = Instant::now();
    let tries: Vec<_> = (0..args.guests)
        .map(|i| {
            let from = flood_address(i % args.addresses);
            tokio::spawn(async move {
                call(
                    addr,
                    &from,
                    "POST",
                    "/api/challenges",
                    None,
                    r#"{"to":"victim"}"#,
                )
                .await
            })
        })
        .collect();
    let (mut reached, mut capped, mut rate_limited, mut other) = (0, 0, 0, 0);
    for t in tries {
        let (status, _, text) = t.await.map_err(|e| e.to_string())??;
        match status {
            201 => reached += 1,
            429 if text.contains("too_many") => capped += 1,
            429 => rate_limited += 1,
            _ => {
                other += 1;
                eprintln!("a guest's challenge: HTTP {status}: {text}");
            }
        }
    }
    let flood_ms = start.elapsed().as_secs_f64() * 1000.0;
    let (_, _, list) = call(
        addr,
        "10.200.0.1",
        "GET",
        "/api/challenges",
        Some(&victim),
        "",
    )
    .await?;
    let waiting = serde_json::from_str::<serde_json::Value>(&list)?["in"]
        .as_array()
        .map_or(0, Vec::len);

    // The checks: a followed account (from its own address: a flooding
    // one has spent its rate of writes) and a stranger from elsewhere.
    let body = r#"{"to":"victim"}"#;
    let (by_friend, _, friend_text) = call(
        addr,
        "10.200.0.2",
        "POST",
        "/api/challenges",
        Some(&friend),
        body,
    )
    .await?;
    let (by_stranger, _, stranger_text) =
        call(addr, "10.250.0.1", "POST", "/api/challenges", None, body).await?;
    println!(
        "{} fresh guests from {} addresses challenged one account in {flood_ms:.0} ms: \
         {reached} reached it, {capped} refused by the caps (too_many), {rate_limited} \
         by the write rate, {other} otherwise; {waiting} waiting for it. \
         An account it follows: HTTP {by_friend}; a fresh guest from another \
         address: HTTP {by_stranger}",
        args.guests, args.addresses
    );
    // A stranger may wait only when strangers fill the inbox (enough
    // addresses to: the cap per address and receiver is small).
    let inbox_full = stranger_text.contains("too many challenges waiting");
    if by_friend != 201 || (by_stranger != 201 && !inbox_full) {
        return Err(format!(
            "a real player was refused: followed {by_friend} {friend_text}; stranger {by_stranger} {stranger_text}"
        )
        .into());
    }
    Ok(())
}
