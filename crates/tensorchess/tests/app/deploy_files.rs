//! The files docs/deployment.md ships besides the nginx configuration
//! (`deploy_nginx.rs`): the systemd unit, checked by `systemd-analyze
//! verify`, and the container recipe, whose image is built where a Docker
//! engine runs. Each says it was skipped where its tool is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_doc_names_every_file_it_ships() {
    let doc = read("docs/deployment.md");
    for file in std::fs::read_dir(repo().join("docs/deploy")).unwrap() {
        let name = file.unwrap().file_name().into_string().unwrap();
        assert!(
            doc.contains(&format!("docs/deploy/{name}")),
            "docs/deployment.md does not name docs/deploy/{name}"
        );
    }
}

/// `systemd-analyze verify` on an instance of the template unit, with the
/// binary this test built where the unit expects it: an unknown key, a bad
/// value or a missing program fails.
#[test]
#[ignore = "needs systemd-analyze (Debian's systemd package): scripts/test.sh installs it"]
fn the_systemd_unit_verifies() {
    let verify = Command::new("systemd-analyze").arg("--version").output();
    assert!(
        verify.is_ok_and(|o| o.status.success()),
        "this test needs systemd-analyze (Debian's systemd package)"
    );
    let unit = read("docs/deploy/tensorchess@.service");
    let installed = "/usr/local/bin/tensorchess";
    assert!(unit.contains(&format!("ExecStart={installed} serve")));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tensorchess@8081.service");
    std::fs::write(
        &path,
        unit.replace(installed, env!("CARGO_BIN_EXE_tensorchess")),
    )
    .unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let about_it: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("tensorchess@"))
        .collect();
    assert!(
        out.status.success() && about_it.is_empty(),
        "systemd-analyze verify: {}\n{stderr}",
        out.status
    );
}

/// The image is built where a Docker engine answers (none runs on the
/// project's machines or CI: there the test says so). Everywhere, the
/// compose file builds from the shipped Dockerfile and mounts the shipped
/// nginx file.
#[test]
fn the_container_recipe_builds_where_docker_runs() {
    let compose = read("docs/deploy/compose.yaml");
    assert!(compose.contains("dockerfile: docs/deploy/Dockerfile"));
    assert!(compose.contains("./tensorchess.nginx.conf:/etc/nginx/conf.d/default.conf:ro"));
    for port in ["8081", "8082"] {
        assert!(compose.contains(&format!("\"--port\", \"{port}\"")));
        assert!(read("docs/deploy/tensorchess.nginx.conf").contains(&format!("127.0.0.1:{port}")));
    }
    let dockerfile = read("docs/deploy/Dockerfile");
    assert!(dockerfile.contains("cargo build --release --locked -p tensorchess"));

    let engine = Command::new("docker")
        .args(["info", "--format", "{{.ServerVersion}}"])
        .output();
    if !engine.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: no Docker engine answers here (docker info): the image is not built");
        return;
    }
    let built = Command::new("docker")
        .args([
            "build",
            "-f",
            "docs/deploy/Dockerfile",
            "-t",
            "tensorchess:test",
            ".",
        ])
        .current_dir(repo())
        .status()
        .unwrap();
    assert!(built.success(), "docker build failed: {built}");
    let config = Command::new("docker")
        .args([
            "compose",
            "-f",
            "docs/deploy/compose.yaml",
            "config",
            "--quiet",
        ])
        .env("TENSORCHESS_DB_PASSWORD", "test")
        .current_dir(repo())
        .status()
        .unwrap();
    assert!(config.success(), "docker compose config failed: {config}");
}
