//! One account's programs against the limits (issue 38, item 6).
//!
//! - `abuse tokens`: one account makes several tokens and sends requests
//!   with all of them at once from one address; the tool counts what the
//!   server answered (and tries the site's own routes with them, which a
//!   token may not reach).
//! - `abuse streams`: one account opens event streams (`/api/stream/event`)
//!   from one address until refused, holding each open; the tool counts
//!   those let in and the server's memory before and after.

use super::stranger;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tensorchess_loadtest::http::{http_from, http_with, request};
use tensorchess_loadtest::server::memory_kb;
use tensorchess_loadtest::Error;

/// The options of `abuse tokens`.
#[derive(clap::Args, Debug)]
pub struct TokenArgs {
    /// Tokens of the one account, all used at once.
    #[arg(long, default_value_t = 8)]
    tokens: usize,
    /// Requests in flight per token.
    #[arg(long, default_value_t = 4)]
    per_token: usize,
    /// How long the flood runs, in seconds.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
}

/// The options of `abuse streams`.
#[derive(clap::Args, Debug)]
pub struct StreamArgs {
    /// Event streams the account tries to hold open at once.
    #[arg(long, default_value_t = 1000)]
    streams: usize,
}

/// An account named `name` (from `from`): its cookie, and `n` tokens with
/// `scopes` (a JSON list).
async fn account_with_tokens(
    addr: SocketAddr,
    name: &str,
    from: &str,
    n: usize,
    scopes: &str,
) -> Result<(String, Vec<String>), Error> {
    let body = format!(r#"{{"username":"{name}","password":"a long password"}}"#);
    let (status, cookies, text) = http_from(
        addr,
        "POST",
        "/api/account/register",
        None,
        &body,
        Some(from),
    )
    .await?;
    if status != 201 {
        return Err(format!("registering {name}: {status} {text}").into());
    }
    let cookie = cookies
        .into_iter()
        .find(|c| c.starts_with("tcid="))
        .ok_or("no session cookie")?;
    let mut tokens = Vec::new();
    for i in 0..n {
        let body = format!(r#"{{"description":"program {i}","scopes":{scopes}}}"#);
        let (status, _, text) = http_from(
            addr,
            "POST",
            "/api/account/tokens",
            Some(&cookie),
            &body,
            Some(from),
        )
        .await?;
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        match (status, v["token"].as_str()) {
            (201, Some(t)) => tokens.push(t.to_string()),
            _ => return Err(format!("a token: {status} {text}").into()),
        }
    }
    Ok((cookie, tokens))
}

/// Counts of answers by status.
#[derive(Default, Debug)]
struct Answers {
    ok: u64,
    refused_429: u64,
    other: u64,
}

/// `abuse tokens`: one account's tokens all at once from one address;
/// prints what the server answered.
pub async fn run_tokens(addr: SocketAddr, args: TokenArgs) -> Result<(), Error> {
    let from = stranger(1);
    let (_, tokens) = account_with_tokens(
        addr,
        "flooder",
        &from,
        args.tokens,
        r#"["challenge:write","board:play"]"#,
    )
    .await?;
    // The site's own routes, which a cookie session uses: a token is refused.
    let mut site_routes = Answers::default();
    for t in &tokens {
        let auth = format!("Bearer {t}");
        let headers = [("Authorization", auth.as_str()), ("X-Forwarded-For", &from)];
        let (status, _, _) = http_with(
            addr,
            "POST",
            "/api/online",
            &headers,
            r#"{"variant":"chess"}"#,
        )
        .await?;
        match status {
            201 => site_routes.ok += 1,
            429 => site_routes.refused_429 += 1,
            _ => site_routes.other += 1,
        }
    }
    // A program's own route, as fast as the server answers: declining a
    // challenge that is not there costs the server a lookup, and counts.
    let until = Instant::now() + Duration::from_secs(args.seconds);
    let began = Instant::now();
    let mut tasks = Vec::new();
    for t in &tokens {
        for _ in 0..args.per_token {
            let (auth, from) = (format!("Bearer {t}"), from.clone());
            tasks.push(tokio::spawn(async move {
                let mut a = Answers::default();
                while Instant::now() < until {
                    let headers = [("Authorization", auth.as_str()), ("X-Forwarded-For", &from)];
                    let Ok((status, _, _)) = http_with(
                        addr,
                        "POST",
                        "/api/challenge/nochallenge/decline",
                        &headers,
                        "{}",
                    )
                    .await
                    else {
                        a.other += 1;
                        continue;
                    };
                    match status {
                        429 => a.refused_429 += 1,
                        404 => a.ok += 1,
                        _ => a.other += 1,
                    }
                }
                a
            }));
        }
    }
    let mut all = Answers::default();
    for t in tasks {
        let a = t.await?;
        all.ok += a.ok;
        all.refused_429 += a.refused_429;
        all.other += a.other;
    }
    let secs = began.elapsed().as_secs_f64();
    println!(
        "tokens: {} of one account from one address; the site's routes (POST /api/online) with them: {} made, {} refused 429, {} refused otherwise",
        tokens.len(),
        site_routes.ok,
        site_routes.refused_429,
        site_routes.other
    );
    println!(
        "programs' requests over {secs:.1} s: {} answered ({:.1}/s), {} refused 429, {} other",
        all.ok,
        all.ok as f64 / secs,
        all.refused_429,
        all.other
    );
    Ok(())
}

/// Opens an event stream and reads its answer's head: its status, and the
/// answer (its connection held open while it is kept, its body unread).
async fn open_stream(
    addr: SocketAddr,
    token: &str,
    from: &str,
) -> Result<(u16, reqwest::Response), Error> {
    let auth = format!("Bearer {token}");
    let headers = [("Authorization", auth.as_str()), ("X-Forwarded-For", from)];
    let send = request(addr, "GET", "/api/stream/event", &headers, "")?.send();
    let answer = tokio::time::timeout(Duration::from_secs(10), send).await??;
    Ok((answer.status().as_u16(), answer))
}

/// `abuse streams`: one account opens event streams until refused;
/// prints how many it holds and the server's memory with them.
pub async fn run_streams(
    addr: SocketAddr,
    pid: Option<u32>,
    args: StreamArgs,
) -> Result<(), Error> {
    let from = stranger(2);
    let (_, tokens) = account_with_tokens(addr, "streamer", &from, 1, r#"["board:play"]"#).await?;
    let before = pid.and_then(memory_kb);
    let mut open = Vec::new();
    let mut answers = Answers::default();
    for _ in 0..args.streams {
        match open_stream(addr, &tokens[0], &from).await {
            Ok((200, s)) => {
                answers.ok += 1;
                open.push(s);
            }
            Ok((429, _)) => answers.refused_429 += 1,
            _ => answers.other += 1,
        }
    }
    let after = pid.and_then(memory_kb);
    println!(
        "event streams of one account from one address: {} tried, {} open, {} refused 429, {} other",
        args.streams, answers.ok, answers.refused_429, answers.other
    );
    if let (Some((b, _)), Some((a, _))) = (before, after) {
        println!(
            "server memory: {b} kB before, {a} kB with them open (+{} kB)",
            a.saturating_sub(b)
        );
    }
    Ok(())
}
