"""The type stub (tensorchess/__init__.pyi) matches the module: mypy's
stubtest compares every name, signature and class of the stub with the
installed extension."""

import subprocess
import sys


def test_the_stub_matches_the_module(tmp_path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tensorchess", "--mypy-config-file", "/dev/null"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


def test_the_package_says_it_is_typed() -> None:
    import importlib.resources

    assert importlib.resources.files("tensorchess").joinpath("py.typed").is_file()
    assert importlib.resources.files("tensorchess").joinpath("__init__.pyi").is_file()
