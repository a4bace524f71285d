"""Helpers shared by the sub-commands: argument types that explain what is wrong."""

from __future__ import annotations

import argparse


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
