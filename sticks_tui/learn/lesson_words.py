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


def _more(rule: HatRule) -> str:
    """What a win adds to each number drawn: 'one more', '3 more'."""
    return "one more" if rule.win_reward == 1 else f"{rule.win_reward} more"


def floor_words(rule: HatRule) -> str:
    """Why a loss may leave a ball: 'a hat always keeps at least one ball of each number'."""
    return ("a hat always keeps at least one ball of each number" if rule.floor == "each"
            else "a hat always keeps at least one ball")


def _last_words(rule: HatRule, several: bool) -> str:
    if rule.floor == "each":
        return "the last of their number" if several else "the last of its number"
    return "the last balls in their hats" if several else "the last ball in its hat"


def lesson_sentence(name: str, won: bool | None, changes: Sequence[HatChange], rule: HatRule, *,
                    detail: bool = True) -> str:
    """One sentence: what the game did to `name`'s hats, by `rule`. `won` None: the game was a draw
    (for games that can draw; the draw reward is the rule's).

    `detail` lists every ball ("hat 7 ball 2: 1→2"); without it the sentence stays short (for a
    training run telling a game a second), naming only the hats whose balls stayed.
    """
    changes = tuple(changes)
    result = "drew" if won is None else "won" if won else "lost"
    if not changes:
        return f"{name} {result} without drawing a ball: its hats stay as they were."
    gain = rule.draw_reward if won is None else rule.win_reward if won else -rule.loss_penalty
    if gain >= 0:
        if gain == 0:
            return f"{name} {result}, but a {'draw' if won is None else 'win' if won else 'loss'} " \
                   f"{'adds no ball' if won is not False else 'takes no ball away'}: its hats stay as they were."
        listed = f" ({', '.join(_change(c) for c in changes)})" if detail else ""
        more = "one more" if gain == 1 else f"{gain} more"
        return f"{name} {result}: each ball it drew goes back with {more} of its number{listed}."
    thrown = [c for c in changes if c.after < c.before]
    kept = [c for c in changes if c.after >= c.before]
    what = ("each ball it drew is thrown away" if gain == -1
            else f"up to {-gain} balls of each number it drew are thrown away")
    floor = floor_words(rule)
    if not kept:
        listed = f" ({', '.join(_change(c) for c in thrown)})" if detail else ""
        return f"{name} {result}: {what}{listed}."
    several = len(kept) > 1
    if detail or len(kept) <= 5:
        named = _list([_ball(c) for c in kept]) if detail else \
            ("hat " if not several else "hats ") + _list([str(c.hat) for c in kept])
    else:
        named = f"{len(kept)} of them"
    if not thrown:
        each = "each ball it drew was" if several else "the ball it drew was"
        return (f"{name} {result}, but {each} {_last_words(rule, False)}, and {floor}: nothing is thrown away, "
                f"and {named} {'stay as they were' if several else 'stays as it was'} ({MARK_KEPT}).")
    listed = f" ({', '.join(_change(c) for c in thrown)})" if detail else ""
    return (f"{name} {result}: {what}{listed}, except {named}: {'they were' if several else 'it was'} "
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


# -- the rule itself in words: every screen that says what a win or a loss does reads it from here --------
def balls_word(n: int) -> str:
    """'1 ball', '3 balls'."""
    return f"{n} ball" if n == 1 else f"{n} balls"


def win_words(rule: HatRule) -> str:
    """What a win gives each number drawn, after "its hats get": 'one more ball of each number it drew',
    '3 more balls of each number it drew'; '' when a win adds nothing."""
    if rule.win_reward == 0:
        return ""
    return f"{_more(rule)} {'ball' if rule.win_reward == 1 else 'balls'} of each number it drew"


def won_sentence(name: str, rule: HatRule) -> str:
    """'AI 1's hats get 3 more balls of each number it drew' (no full stop), or that they stay as they were."""
    win = win_words(rule)
    return f"{name}'s hats get {win}" if win else f"{name}'s hats stay as they were (a win adds no ball)"


def rule_sentence(rule: HatRule, *, fresh: bool = True) -> str:
    """The whole hat rule in one or two sentences (what `learn.hats.reinforced_count` does with it)."""
    start = f"Each hat starts with {balls_word(rule.start_balls)} of each number. " if fresh else ""
    win = (f"A win adds {balls_word(rule.win_reward)} of each number drawn" if rule.win_reward
           else "A win adds no ball")
    loss = f"a loss takes {rule.loss_penalty} away" if rule.loss_penalty else "a loss takes none away"
    draw = ("" if rule.draw_reward == 0 else f"a draw adds {balls_word(rule.draw_reward)}, " if rule.draw_reward > 0
            else f"a draw takes {-rule.draw_reward} away, ")  # games that can draw; sticks and Nim never do
    floor = ("a hat never has fewer than 1 ball of each number." if rule.floor == "each"
             else "a hat may run out of a number, but never out of every number.")
    return f"{start}{win}, {draw}{loss}; {floor}"


def how_hats_learn(rule: HatRule, numbers: str) -> str:
    """The help's story of the hats, by `rule`; `numbers` are the balls' numbers in words ('1, 2, 3')."""
    start = "one ball" if rule.start_balls == 1 else balls_word(rule.start_balls)
    if rule.win_reward == 0:
        win = "If the AI wins, every ball beside a hat goes back in and nothing is added."
    else:
        win = (f"If the AI wins, every ball beside a hat goes back in with {_more(rule)} of the same number: "
               "those moves become more likely.")
    if rule.loss_penalty == 0:
        loss = "If it loses, every ball goes back in as it was: nothing is thrown away."
    else:
        what = ("those balls are thrown away" if rule.loss_penalty == 1
                else f"up to {rule.loss_penalty} balls of each of those numbers are thrown away")
        why = "no move is ever forgotten for good" if rule.floor == "each" else "it always has a move"
        loss = f"If it loses, {what}, but {floor_words(rule)} (the floor), so {why}."
    return (f"The learning AI has one hat for every number of sticks that can be on the board. Each hat "
            f"starts with {start} of each number {numbers}.\n"
            f"On its turn the AI draws a ball at random from the hat for the sticks on the board, and "
            f"takes that many sticks. A ball with more copies in the hat is more likely to come out. "
            f"It sets the ball beside the hat until the game ends.\n"
            f"{win} {loss}\n"
            f"After many games the winning moves fill the hats.")
