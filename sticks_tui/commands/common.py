"""Helpers shared by the sub-commands: argument types that explain what is wrong, and the store."""

from __future__ import annotations

import argparse
import sys


def int_in_range(low: int, high: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", "").replace(",", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low:,} and {high:,}, not {value:,}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def open_store(data_dir, command: str):
    """The store for a command, its notices printed; None (after saying why on stderr) when it cannot
    be used. A command never falls back to memory: what it writes must be kept, or it fails."""
    from sticks_tui.store import Store, StoreError

    try:
        store = Store.open(data_dir)
    except StoreError as exc:
        print(f"sticks-tui {command}: {exc}", file=sys.stderr)
        return None
    for notice in store.notices:
        print(f"sticks-tui: {notice}", file=sys.stderr)
    return store
