//! Who a request comes from, as the limits see it. Directly, that is the
//! connection's address. Behind a reverse proxy every connection comes from
//! the proxy, so the proxy's forwarding headers are read, but only when the
//! connection comes from a proxy the operator named (`--trusted-proxy`):
//! anyone else could write any `X-Forwarded-For` they like. The client is
//! then the last hop that is not a trusted proxy.
//!
//! Loopback is trusted for nothing unless the operator says so
//! (`--trusted-local`, for a load test on one machine): behind a proxy on
//! the same machine, every visitor would otherwise be "loopback".

use ipnet::IpNet;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

/// A request's forwarding headers, as the HTTP edge read them (a value
/// that is not text is `None`).
#[derive(Clone, Debug, Default)]
pub struct Forwarding<'a> {
    /// Every `X-Forwarded-For` value, in the order they came.
    pub forwarded_for: Vec<Option<&'a str>>,
    /// `X-Real-IP`, believed only when there is no `X-Forwarded-For`.
    pub real_ip: Option<&'a str>,
}

/// Proxies whose forwarding headers are believed, and whether loopback
/// clients are exempt from the per-address limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proxies {
    trusted: Vec<IpNet>,
    /// Clients on loopback (this machine) are not held to per-address
    /// limits: for load tests, never behind a proxy on the same machine.
    pub trusted_local: bool,
}

/// A `--trusted-proxy` value that is neither an address nor a network.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not an address or a network (e.g. 127.0.0.1, 10.0.0.0/8, ::1)")]
pub struct BadProxy(String);

/// A trusted proxy: an address (`127.0.0.1`) or a network (`10.0.0.0/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProxyNet(IpNet);

impl FromStr for ProxyNet {
    type Err = BadProxy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Ok(net) = s.parse::<IpNet>() {
            return Ok(ProxyNet(net.trunc()));
        }
        s.parse::<IpAddr>()
            .map(|ip| ProxyNet(IpNet::from(canonical(ip))))
            .map_err(|_| BadProxy(s.to_string()))
    }
}

impl std::fmt::Display for ProxyNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Proxies {
    /// Trusts these proxies (and loopback clients, if `trusted_local`).
    pub fn new(trusted: impl IntoIterator<Item = ProxyNet>, trusted_local: bool) -> Proxies {
        Proxies {
            trusted: trusted.into_iter().map(|p| p.0).collect(),
            trusted_local,
        }
    }

    /// Whether `ip` is a proxy whose headers are believed.
    pub fn is_trusted(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.trusted.iter().any(|net| net.contains(&ip))
    }

    /// Whether `ip` is exempt from per-address limits.
    pub fn is_exempt(&self, ip: IpAddr) -> bool {
        self.trusted_local && canonical(ip).is_loopback()
    }

    /// The client a request from `peer` with these forwarding headers
    /// comes from.
    pub fn client_of(&self, peer: IpAddr, headers: &Forwarding<'_>) -> IpAddr {
        let peer = canonical(peer);
        if !self.is_trusted(peer) {
            return peer;
        }
        // Hops, nearest last: every X-Forwarded-For header in order, then
        // the peer itself. The client is the nearest hop not trusted.
        let mut hops: Vec<IpAddr> = Vec::new();
        let mut malformed = false;
        for value in &headers.forwarded_for {
            let Some(text) = value else {
                malformed = true;
                continue;
            };
            for part in text.split(',') {
                match parse_hop(part) {
                    Some(ip) => hops.push(ip),
                    None => malformed = true,
                }
            }
        }
        if hops.is_empty() && !malformed {
            if let Some(ip) = headers.real_ip.and_then(parse_hop) {
                hops.push(ip);
            }
        }
        let mut client = peer;
        for hop in hops.into_iter().rev() {
            client = hop;
            if !self.is_trusted(hop) {
                break;
            }
        }
        // A header that could not be read entirely stops at the first
        // untrusted hop read, which is what a lying client would forge;
        // it is still the nearest address the trusted chain vouches for.
        client
    }
}

/// One hop of `X-Forwarded-For`: an address, maybe with a port or in
/// brackets (`[2001:db8::1]:443`).
fn parse_hop(part: &str) -> Option<IpAddr> {
    let part = part.trim();
    if let Ok(ip) = part.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Ok(sa) = part.parse::<SocketAddr>() {
        return Some(canonical(sa.ip()));
    }
    let inner = part.strip_prefix('[')?.split(']').next()?;
    inner.parse::<IpAddr>().ok().map(canonical)
}

/// An address as the limits see it: an IPv4-mapped IPv6 address
/// (`::ffff:127.0.0.1`) is the IPv4 address it maps.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(v6),
        },
        v4 => v4,
    }
}

/// The key of per-address limits: an IPv4 address, or the /64 network of
/// an IPv6 address (one subscriber usually holds a whole /64).
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

/// Where a request comes from (in the request's extensions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address (behind a trusted proxy, the forwarded one).
    pub ip: IpAddr,
    /// Not held to per-address limits (`--trusted-local` on loopback).
    pub exempt: bool,
}

impl Client {
    /// The key of per-address limits.
    pub fn key(&self) -> IpAddr {
        limit_key(self.ip)
    }

    /// The client of a request that came through the router without a
    /// connection (tests calling the router directly): exempt, as a
    /// trusted local caller.
    pub fn unknown() -> Client {
        Client {
            ip: IpAddr::from([127, 0, 0, 1]),
            exempt: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers<'a>(pairs: &[(&str, &'a str)]) -> Forwarding<'a> {
        let mut h = Forwarding::default();
        for &(k, v) in pairs {
            match k {
                "x-forwarded-for" => h.forwarded_for.push(Some(v)),
                "x-real-ip" => h.real_ip = Some(v),
                _ => unreachable!("not a forwarding header: {k}"),
            }
        }
        h
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let none = Proxies::default();
        let h = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(none.client_of(ip("127.0.0.1"), &h), ip("127.0.0.1"));
        assert_eq!(none.client_of(ip("203.0.113.9"), &h), ip("203.0.113.9"));

        let nginx = Proxies::new(["127.0.0.1".parse().unwrap()], false);
        assert_eq!(nginx.client_of(ip("127.0.0.1"), &h), ip("198.51.100.7"));
        // Not from the proxy: its header is the client's own invention.
        assert_eq!(nginx.client_of(ip("203.0.113.9"), &h), ip("203.0.113.9"));
        // A client that forges a first hop: the proxy appends the real one.
        let forged = headers(&[("x-forwarded-for", "10.9.9.9, 198.51.100.7")]);
        assert_eq!(
            nginx.client_of(ip("127.0.0.1"), &forged),
            ip("198.51.100.7")
        );
        // No header: the proxy itself, or X-Real-IP.
        assert_eq!(
            nginx.client_of(ip("127.0.0.1"), &Forwarding::default()),
            ip("127.0.0.1")
        );
        let real = headers(&[("x-real-ip", "198.51.100.8")]);
        assert_eq!(nginx.client_of(ip("127.0.0.1"), &real), ip("198.51.100.8"));
    }

    #[test]
    fn the_client_is_the_last_untrusted_hop() {
        let chain = Proxies::new(
            ["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()],
            false,
        );
        let h = headers(&[
            ("x-forwarded-for", "192.0.2.1, 198.51.100.7"),
            ("x-forwarded-for", "10.1.2.3"),
        ]);
        assert_eq!(chain.client_of(ip("::1"), &h), ip("198.51.100.7"));
        let ports = headers(&[("x-forwarded-for", "[2001:db8::5]:443, 10.0.0.2:80")]);
        assert_eq!(chain.client_of(ip("10.0.0.1"), &ports), ip("2001:db8::5"));
        // Every hop trusted: the farthest one.
        let inside = headers(&[("x-forwarded-for", "10.0.0.7")]);
        assert_eq!(chain.client_of(ip("10.0.0.1"), &inside), ip("10.0.0.7"));
    }

    #[test]
    fn mapped_addresses_are_ipv4_and_ipv6_keys_on_the_64() {
        assert_eq!(canonical(ip("::ffff:127.0.0.1")), ip("127.0.0.1"));
        assert!(
            Proxies::new(["127.0.0.1".parse().unwrap()], false).is_trusted(ip("::ffff:127.0.0.1"))
        );
        assert_eq!(limit_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(limit_key(ip("2001:db8:1:2:ffff::9")), ip("2001:db8:1:2::"));
        assert_ne!(
            limit_key(ip("2001:db8:1:3::1")),
            limit_key(ip("2001:db8:1:2::1"))
        );
        assert_eq!(limit_key(ip("203.0.113.4")), ip("203.0.113.4"));
        assert_eq!(limit_key(ip("::ffff:203.0.113.4")), ip("203.0.113.4"));
    }

    #[test]
    fn loopback_is_exempt_only_when_trusted_local() {
        assert!(!Proxies::default().is_exempt(ip("127.0.0.1")));
        let local = Proxies::new([], true);
        assert!(local.is_exempt(ip("127.0.0.1")) && local.is_exempt(ip("::ffff:127.0.0.1")));
        assert!(!local.is_exempt(ip("203.0.113.4")));
        assert!("300.1.1.1".parse::<ProxyNet>().is_err());
        assert!("10.0.0.0/33".parse::<ProxyNet>().is_err());
        assert_eq!(
            "10.1.2.3/8".parse::<ProxyNet>().unwrap().to_string(),
            "10.0.0.0/8"
        );
    }
}
