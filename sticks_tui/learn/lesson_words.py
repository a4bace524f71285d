"""What one game taught a learner, in one sentence read from the brain's own rule and the changes.

Used wherever a lesson is told (the game screen's log, the training story, the replay), so a loss
is explained the same way everywhere, and truthfully: a ball a loss could not take (the last of
its number, kept by the floor) is said to stay, never said to be thrown away. The heatmap marks
the same three outcomes: ↑ added, ↓ thrown away, = kept as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from sticks_tui.engine.events import HatChange
from sticks_tui.learn.hats import HatRule

MARK_KEPT = "="  # the heatmap's mark for a ball the lesson left as it was


def _list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _change(c: HatChange) -> str:
    return f"hat {c.hat} ball {c.ball}: {c.before}→{c.after}"


def _ball(c: HatChange) -> str:
    return f"hat {c.hat} ball {c.ball}"


def floor_words(rule: HatRule) -> str:
    """Why a loss may leave a ball: 'a hat always keeps at least one ball of each number'."""
    return ("a hat always keeps at least one ball of each number" if rule.floor == "each"
            else "a hat always keeps at least one ball")


def _last_words(rule: HatRule, several: bool) -> str:
    if rule.floor == "each":
        return "the last of their number" if several else "the last of its number"
    return "the last balls in their hats" if several else "the last ball in its hat"


def lesson_sentence(name: str, won: bool, changes: Sequence[HatChange], rule: HatRule, *,
                    detail: bool = True) -> str:
    """One sentence: what the game did to `name`'s hats, by `rule`.

    `detail` lists every ball ("hat 7 ball 2: 1→2"); without it the sentence stays short (for a
    training run telling a game a second), naming only the hats whose balls stayed.
    """
    changes = tuple(changes)
    if not changes:
        return f"{name} {'won' if won else 'lost'} without drawing a ball: its hats stay as they were."
    if won:
        if rule.win_reward == 0:
            return f"{name} won, but a win adds no ball: its hats stay as they were."
        more = "one more" if rule.win_reward == 1 else f"{rule.win_reward} more"
        listed = f" ({', '.join(_change(c) for c in changes)})" if detail else ""
        return f"{name} won: each ball it drew goes back with {more} of its number{listed}."
    if rule.loss_penalty == 0:
        return f"{name} lost, but a loss takes no ball away: its hats stay as they were."
    thrown = [c for c in changes if c.after < c.before]
    kept = [c for c in changes if c.after >= c.before]
    what = ("each ball it drew is thrown away" if rule.loss_penalty == 1
            else f"up to {rule.loss_penalty} balls of each number it drew are thrown away")
    floor = floor_words(rule)
    if not kept:
        listed = f" ({', '.join(_change(c) for c in thrown)})" if detail else ""
        return f"{name} lost: {what}{listed}."
    several = len(kept) > 1
    if detail or len(kept) <= 5:
        named = _list([_ball(c) for c in kept]) if detail else \
            ("hat " if not several else "hats ") + _list([str(c.hat) for c in kept])
    else:
        named = f"{len(kept)} of them"
    if not thrown:
        each = "each ball it drew was" if several else "the ball it drew was"
        return (f"{name} lost, but {each} {_last_words(rule, False)}, and {floor}: nothing is thrown away, "
                f"and {named} {'stay as they were' if several else 'stays as it was'} ({MARK_KEPT}).")
    listed = f" ({', '.join(_change(c) for c in thrown)})" if detail else ""
    return (f"{name} lost: {what}{listed}, except {named}: {'they were' if several else 'it was'} "
            f"{_last_words(rule, several)}, and {floor}, so {'they stay' if several else 'it stays'} "
            f"({MARK_KEPT}).")


def losses_note(rule: HatRule) -> str:
    """Whether a loss shows on the hats from the first game, and why, in one sentence ('' when a loss never
    takes a ball)."""
    if rule.loss_penalty == 0:
        return ""
    start = rule.start_balls
    if rule.floor == "each" and start == 1:
        return ("With 1 ball of each number to start, a loss before the AI's first win finds only last balls, "
                "which stay (=); MENACE-like hats start with 3.")
    after = max(start - rule.loss_penalty, 1 if rule.floor == "each" else 0)
    return (f"With {start} {'ball' if start == 1 else 'balls'} of each number to start, a loss visibly takes "
            f"balls away ({start}→{after}) from the first game on.")
