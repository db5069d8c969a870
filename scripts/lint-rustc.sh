#!/usr/bin/env bash
# The compiler of the workspace's own crates in scripts/test.sh
# (RUSTC_WORKSPACE_WRAPPER): clippy's driver, which compiles them as rustc
# does and lints them as `cargo clippy` does, with every warning an error
# (`cargo clippy -- -D warnings`). The tests' build is then also the lint,
# and no separate check build is needed. Dependencies are compiled by rustc
# as ever (cargo wraps only the workspace's crates).
#
# With TENSORCHESS_DOC_DIR set, it is also `cargo doc --no-deps` with
# RUSTDOCFLAGS="-D warnings": each library, and each binary under src/
# whose name is not its package's library's, is documented into that folder
# by rustdoc right after it compiles, with the dependencies this build has
# just made. `cargo doc` would first check every dependency again (its own
# build, a third of the tests' build), only to read their metadata.
set -euo pipefail
driver=${CLIPPY_DRIVER:-$(command -v clippy-driver || true)}
if [ -z "$driver" ]; then
  echo "lint-rustc.sh: clippy-driver is missing: rustup component add clippy (or TENSORCHESS_LINT=0 scripts/test.sh)" >&2
  exit 1
fi
# What cargo doc would document: the arguments of this compile that say
# what the crate is and where its dependencies are, and none that say how
# to generate code; and what the crate is (its name and type, its root
# file, whether this is its unit tests' build). `$1` is rustc itself
# (cargo's wrapper protocol).
doc=()
crate_type="" crate_name="" src="" test=0 json=()
read_args() {
  shift
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --crate-name | --crate-type | --cfg | --check-cfg | -L | --extern | -D | -W | -A | -F)
        case "$1" in
          --crate-name) crate_name=$2 ;;
          --crate-type) crate_type=$2 ;;
        esac
        doc+=("$1" "$2")
        shift 2
        continue
        ;;
      -C)
        case "$2" in metadata=*) doc+=(-C "$2") ;; esac
        shift 2
        continue
        ;;
      --out-dir | -o | --emit | --cap-lints | --target | --sysroot | -l | --print | --explain | --codegen)
        shift 2
        continue
        ;;
      --test) test=1 ;;
      --error-format=json) doc+=("$1") json=(--json=diagnostic-rendered-ansi) ;;
      --edition=* | --error-format=* | --deny=* | --warn=* | --allow=* | --forbid=* | --cfg=* | --check-cfg=*) doc+=("$1") ;;
      -*) ;;
      *.rs) src=$1 doc+=("$1") ;;
    esac
    shift
  done
}
read_args "$@"
# A library or binary of the package's own (its root under src/, not an
# example, a bench or a build script). cargo passes a workspace member's
# files relative to the workspace's root.
in_src=0
if [ -n "$src" ]; then
  case "$src" in "$CARGO_MANIFEST_DIR"/src/* | "${CARGO_MANIFEST_DIR#"$PWD"/}"/src/*) in_src=1 ;; esac
fi

# TENSORCHESS_LINT_IN_TESTS=1 (scripts/test.sh's build of every target):
# a library or a binary under src/ is also compiled as its own unit tests
# (`--test`), which clippy lints with the same code and the tests besides;
# its plain compile is then left to rustc (its own lints still denied),
# not linted twice as `cargo clippy --all-targets` would (a sixth of the
# build). Examples, benchmarks and build scripts have no test build: always
# linted.
compiler=("$driver")
if [ "${TENSORCHESS_LINT_IN_TESTS:-0}" = 1 ] && [ "$test" = 0 ] && [ "$in_src" = 1 ]; then
  compiler=()
fi
if [ -z "${TENSORCHESS_DOC_DIR:-}" ]; then
  exec ${compiler[@]+"${compiler[@]}"} "$@" -D warnings
fi
${compiler[@]+"${compiler[@]}"} "$@" -D warnings

# Not a crate's compile (cargo asking the compiler what it is), or a test.
[ -n "$src" ] && [ "$test" = 0 ] || exit 0
case "$crate_type" in
  lib | rlib | cdylib | dylib | staticlib | proc-macro) ;;
  bin)
    # cargo doc documents a binary of the package's own (src/main.rs,
    # src/**/main.rs or src/bin/) unless the library has its name; never
    # a build script, an example or a bench.
    [ "$in_src" = 1 ] || exit 0
    if [ -f "$CARGO_MANIFEST_DIR/src/lib.rs" ] && [ "$crate_name" = "${CARGO_PKG_NAME//-/_}" ]; then exit 0; fi
    doc+=(--document-private-items -Arustdoc::private-intra-doc-links)
    ;;
  *) exit 0 ;;
esac
# The diagnostics as cargo reads them (json), without the artifact notices
# that are the compile's to give.
exec "${RUSTDOC:-rustdoc}" "${doc[@]}" ${json[@]+"${json[@]}"} -o "$TENSORCHESS_DOC_DIR" -D warnings --crate-version "$CARGO_PKG_VERSION"
