"""Installing the package as a user does: from a checkout into a fresh virtualenv of their own
project, with an extra; and ``make demo`` installs the package without the development tools."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ramem_integrations

ROOT = Path(ramem_integrations.__file__).resolve().parents[1]


@pytest.mark.slow
def test_pip_install_from_a_checkout_into_a_fresh_venv(tmp_path: Path) -> None:
    """``pip install '/path/to/checkout[langgraph]'`` in a new venv (no system packages): the
    command runs and the extra's adapter imports. The checkout is copied first, since pip
    builds in the source tree and a test never writes into the working directory."""
    checkout = tmp_path / "ramem-integrations"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, checkout / name)
    shutil.copytree(
        ROOT / "ramem_integrations",
        checkout / "ramem_integrations",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    venv = tmp_path / "project-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-compile", f"{checkout}[langgraph]"],
        capture_output=True,
        text=True,
        env=env,
        timeout=1500,
        cwd=tmp_path,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    helped = subprocess.run(
        [str(venv / "bin" / "ramem"), "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert helped.returncode == 0 and "ramem" in helped.stdout
    code = (
        "import ramem_integrations, ramem_integrations.langgraph as g; "
        "print(ramem_integrations.__file__); print(g.RaMemStore.__name__)"
    )
    imported = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert imported.returncode == 0, imported.stderr
    where, store = imported.stdout.split()
    assert Path(where).is_relative_to(venv) and store == "RaMemStore"  # installed, not the source


def test_make_demo_installs_the_package_without_the_development_tools(tmp_path: Path) -> None:
    """``make demo`` on a fresh machine: what it would run (``make -n``) installs ``.``, not
    ``.[dev]`` (pytest, mypy, ruff and every framework), and ``make test`` still does."""
    if shutil.which("make") is None:
        pytest.skip("no make here")
    venv = str(tmp_path / "venv")  # absent: make plans the install from nothing

    def planned(target: str) -> list[str]:
        done = subprocess.run(
            ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"],
            capture_output=True,
            text=True,
            check=True,
        )
        return [line for line in done.stdout.splitlines() if "pip install" in line]

    demo = planned("demo")
    assert any(line.endswith("install --quiet -e .") for line in demo), demo
    assert not any("[dev]" in line or "[all]" in line for line in demo), demo
    assert any("'.[dev]'" in line for line in planned("test"))
