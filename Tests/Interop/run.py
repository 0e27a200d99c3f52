"""Runs the interop flows: python Tests/Interop/run.py --contracts-bin PATH [--app NAME ...] [--only TEXT]."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import flows_auth_storage  # noqa: E402,F401 — registers flows
import flows_realtime  # noqa: E402,F401 — registers flows
import flows_naarscars  # noqa: E402,F401 — registers flows
import flows_teleportme  # noqa: E402,F401 — registers flows
from harness import run_all  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--contracts-bin", required=True, help="the built `contracts` executable")
    parser.add_argument("--app", action="append", help="app(s) to run (default: teleportme, naarscars, civicforge, aura)")
    parser.add_argument("--only", help="run only flows whose name contains this text")
    args = parser.parse_args()
    return run_all(args.contracts_bin, args.app or ["teleportme", "naarscars", "civicforge", "aura"], args.only)


if __name__ == "__main__":
    sys.exit(main())
