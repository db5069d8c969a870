//! Embeds every file under `assets/` in the binary: writes the table
//! `server::http::assets::ASSETS` reads (path, type, bytes), so a new page module
//! needs no change to the Rust code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

include!("src/http/mime.rs");
include!("src/http/fnv.rs");

fn main() {
    let base = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("assets");
    println!("cargo:rerun-if-changed={}", base.display());
    let mut files = Vec::new();
    walk(&base, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    // The assets' version: FNV-1a over every embedded file's path and bytes.
    let mut version = FNV_START;
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let rel = file
            .strip_prefix(&base)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // Editor leftovers and hidden files are not part of the page, nor
        // are TypeScript files (types the page's JSDoc imports, read only
        // by tsc: js/generated/).
        if rel.split('/').any(|part| part.starts_with('.'))
            || rel.ends_with('~')
            || rel.ends_with(".ts")
        {
            continue;
        }
        version = fnv1a(version, rel.as_bytes());
        version = fnv1a(version, &std::fs::read(file).unwrap());
        writeln!(
            table,
            "    Asset {{ path: {rel:?}, mime: {:?}, body: include_bytes!({:?}) }},",
            mime_of(&rel).unwrap_or_else(|| panic!("assets: no content type known for {rel}")),
            file.display().to_string()
        )
        .unwrap();
    }
    table.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("assets.rs");
    std::fs::write(out, table).unwrap();
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("assets_version.rs");
    std::fs::write(out, format!("\"{:012x}\"", version >> 16)).unwrap();
}
