"""Learning: the hats, the rule that changes them, the trainer and its compiled kernel, the analysis."""

from sticks_tui.learn.hats import HatRule, Hats

__all__ = ["HatRule", "Hats"]
