//! What `--db` names: an SQLite file, or a PostgreSQL server that several
//! instances share. A PostgreSQL URL must point at this machine (a loopback
//! address, `localhost`, or a Unix socket), as the servers under load must:
//! the tool talks to nothing else, and it connects without TLS.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use tensorchess_store::redact;
use tokio_postgres::config::Host;

/// The database the servers keep their games in.
#[derive(Clone, PartialEq, Eq)]
pub enum DbTarget {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL server's URL (on this machine).
    Postgres(String),
}

impl FromStr for DbTarget {
    type Err = String;

    fn from_str(s: &str) -> Result<DbTarget, String> {
        let lower = s.to_ascii_lowercase();
        if !(lower.starts_with("postgres://") || lower.starts_with("postgresql://")) {
            if s.is_empty() {
                return Err("--db needs a file path or a postgres:// URL".into());
            }
            return Ok(DbTarget::Sqlite(PathBuf::from(s)));
        }
        // The driver reads the scheme in lower case only.
        let (scheme, rest) = s.split_once("://").unwrap_or((s, ""));
        let url = format!("{}://{rest}", scheme.to_ascii_lowercase());
        let config = tokio_postgres::Config::from_str(&url)
            .map_err(|e| format!("{}: not a PostgreSQL URL: {e}", redact(&url)))?;
        check_loopback(&config).map_err(|e| format!("{}: {e}", redact(&url)))?;
        Ok(DbTarget::Postgres(url))
    }
}

/// Every host the URL names is on this machine.
fn check_loopback(config: &tokio_postgres::Config) -> Result<(), String> {
    if config.get_hosts().is_empty() && config.get_hostaddrs().is_empty() {
        return Err("the URL names no host".into());
    }
    for host in config.get_hosts() {
        match host {
            // A Unix socket is on this machine by nature.
            Host::Unix(_) => {}
            Host::Tcp(name) => {
                let bare = name.trim_start_matches('[').trim_end_matches(']');
                let ok = bare.eq_ignore_ascii_case("localhost")
                    || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
                if !ok {
                    return Err(format!(
                        "{name} is not a loopback host: this tool only uses a database on this \
                         machine (127.0.0.1, ::1, localhost or a Unix socket)"
                    ));
                }
            }
        }
    }
    for ip in config.get_hostaddrs() {
        if !ip.is_loopback() {
            return Err(format!("hostaddr {ip} is not a loopback address"));
        }
    }
    Ok(())
}

impl DbTarget {
    /// What to give the server's `--db`.
    pub fn arg(&self) -> std::ffi::OsString {
        match self {
            DbTarget::Sqlite(p) => p.clone().into_os_string(),
            DbTarget::Postgres(u) => u.into(),
        }
    }

    /// An SQLite file at `path`.
    pub fn sqlite(path: &Path) -> DbTarget {
        DbTarget::Sqlite(path.to_path_buf())
    }
}

impl std::fmt::Display for DbTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbTarget::Sqlite(p) => write!(f, "SQLite {}", p.display()),
            DbTarget::Postgres(u) => write!(f, "PostgreSQL {}", redact(u)),
        }
    }
}

// What clap shows: never the password.
impl std::fmt::Debug for DbTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DbTarget({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pg(s: &str) -> Result<DbTarget, String> {
        s.parse()
    }

    #[test]
    fn a_url_names_postgres_and_anything_else_a_file() {
        assert_eq!(
            pg("games.sqlite3").unwrap(),
            DbTarget::Sqlite("games.sqlite3".into())
        );
        assert_eq!(
            pg("/tmp/x/postgres.sqlite3").unwrap(),
            DbTarget::Sqlite("/tmp/x/postgres.sqlite3".into())
        );
        for url in [
            "postgres://postgres@127.0.0.1:5432/postgres",
            "postgresql://u@localhost/db",
            "PostgreSQL://u@[::1]:5433/db",
            "postgres://u@/db?host=/tmp/pgsock",
            "postgres://u@127.0.0.2:5432/db?sslmode=disable",
        ] {
            assert!(
                matches!(pg(url), Ok(DbTarget::Postgres(_))),
                "{url}: {:?}",
                pg(url)
            );
        }
        assert_eq!(
            pg("PostgreSQL://u@[::1]:5433/db").unwrap(),
            DbTarget::Postgres("postgresql://u@[::1]:5433/db".into())
        );
        assert!(pg("").is_err());
    }

    #[test]
    fn only_databases_on_this_machine() {
        for url in [
            "postgres://u@db.example.com/db",
            "postgres://u@10.0.0.5:5432/db",
            "postgres://u@127.0.0.1,192.168.1.2/db",
            "postgres://u@localhost/db?hostaddr=10.1.1.1",
            "postgres:///db",
        ] {
            assert!(pg(url).is_err(), "{url} was taken");
        }
        let e = pg("postgres://u:secret@10.0.0.5/db").unwrap_err();
        assert!(e.contains("not a loopback") && !e.contains("secret"), "{e}");
    }

    #[test]
    fn passwords_are_not_shown() {
        let db = pg("postgres://ann:secret@127.0.0.1:5432/db").unwrap();
        assert_eq!(
            db.to_string(),
            "PostgreSQL postgres://ann@127.0.0.1:5432/db"
        );
        assert!(!format!("{db:?}").contains("secret"));
        assert_eq!(redact("postgres://127.0.0.1/db"), "postgres://127.0.0.1/db");
    }
}
