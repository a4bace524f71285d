"""What each figure of a brain is about, in words read from the game and its exact solution (issue 33 item 6).

Two kinds of figure, over two different things, and every screen says which:

- over the winning positions of the game trained (sticks' heaps 2-20, Nim's piles up to 7, 7, 7): how often
  the learner's *likeliest* move is a winning move (`CurvePoint.agreement`), and the chance that a token
  *drawn at random* is one (`CurvePoint.draw_wins`). A learner that "plays the winning move" as its
  likeliest may still draw a losing ball; the second figure says how often.
- in one game from the start (a game of 20 sticks): the exact chance to beat a perfect player, moving first
  and moving second. In a seat the game's own value loses (moving second at 20 sticks), the perfect player
  wins every game whatever the learner does: `cannot_win` says so, so a 0% there reads as the rule.

The game's words come from its registry entry (`GameEntry.game_words`, `scope_words`), the token's from
the brain's words (balls, beads), the seats' values from the solver.
"""

from __future__ import annotations

from sticks_tui.engine import registry
from sticks_tui.solve import solver_for

#: The legend's names of the curve's series (each read after its group's heading, below).
LIKELIEST = "its likeliest move wins"
SEATS = ("moving first", "moving second")


def percent(x: float) -> str:
    """A share as a whole percentage, never rounded to 100% or 0% when it is not exactly that: 1 is '100%',
    0.9996 '>99.9%', 0.996 '99.6%', 0.87 '87%', 0.004 '0.4%', 0.0004 '<0.1%'."""
    if x == 1 or x == 0 or 0.005 <= x < 0.995:
        return f"{x:.0%}"
    if 0.995 <= x < 0.9995:
        return f"{x:.1%}"
    if x >= 0.9995:
        return ">99.9%"
    return f"{x:.1%}" if x >= 0.0005 else "<0.1%"


def token_word(rules) -> str:
    """'ball' (hats) or 'bead' (MENACE's and HER's matchboxes), as the game's entry words its brains."""
    found = registry.find(rules)
    return found.token_words()[1] if found is not None else "ball"


def drawn_label(rules) -> str:
    """'a ball drawn wins': the chance that a token drawn at random is a winning move."""
    return f"a {token_word(rules)} drawn wins"


def scope_heading(rules) -> str:
    """The heading of the figures over winning positions: 'where it can win, over heaps 2-20:'."""
    return f"where it can win, over {registry.entry_of(rules).scope_words(rules)}:"


def game_words(rules) -> str:
    """The game the chances are over: 'a game of 20 sticks', 'a game of Nim from piles 7, 7, 7'."""
    return registry.entry_of(rules).game_words(rules)


def game_heading(rules) -> str:
    """The heading of the chances against a perfect player, each seat's read after it ('first 99%'): 'in a
    game of 20 sticks vs a perfect player, moving:'."""
    return f"in {game_words(rules)} vs a perfect player, moving:"


def start_value(rules) -> int:
    """What the player to move forces from the game's start with perfect play: +1 a win, 0 a draw, -1 a loss."""
    solver = solver_for(rules)
    start = rules.start_positions()[0]
    value = getattr(solver, "value", None)
    if value is not None:
        return int(value(start))
    return 1 if solver.is_winning(start) else -1


def cannot_win(rules, seat: int) -> str:
    """Why a learner in `seat` (0 moving first, 1 second) never beats a perfect player in the game from its
    start, in one sentence without a full stop ('' when that seat can win): 'moving second at 20 sticks the
    perfect player wins every game: 0% is the rule, not the learner'."""
    value = start_value(rules)
    if value == 0:  # either seat: the same sentence
        return f"{_at(rules)} perfect play is a draw: no one beats a perfect player, so 0% is the rule, not the learner"
    losing_seat = 1 if value > 0 else 0
    if seat != losing_seat:
        return ""
    return f"{SEATS[seat]} {_at(rules)} the perfect player wins every game: 0% is the rule, not the learner"


def cannot_win_short(rules, seat: int) -> str:
    """`cannot_win` in a few words, beside that seat's figure: 'a lost start: the rule, not the learner',
    'a draw at best: the rule, not the learner'; '' when the seat can win."""
    if not cannot_win(rules, seat):
        return ""
    return ("a draw at best" if start_value(rules) == 0 else "a lost start") + ": the rule, not the learner"


def _at(rules) -> str:
    """'at 20 sticks', 'in Nim from piles 7, 7, 7', 'in noughts and crosses'."""
    words = game_words(rules)
    rest = words.removeprefix("a game of ")
    if rest != words and rest[:1].isdigit():
        return f"at {rest}"
    return f"in {rest}"


def likeliest_sentence(rules, agreement: float, draw_wins: float, winning: int | None = None,
                       scope: str | None = None) -> str:
    """The two figures over winning positions in one sentence: 'Over heaps 2-20, its likeliest move is a
    winning move in 100% of the 15 positions where a win can be forced; a ball drawn at random is one 87% of
    the time.' `scope`: what they are over, when not the game's own words (one seat's positions)."""
    scope = scope or registry.entry_of(rules).scope_words(rules)
    count = f"the {winning:,} " if winning is not None else "the "
    drawn = (f"; a {token_word(rules)} drawn at random is one {percent(draw_wins)} of the time"
             if draw_wins == draw_wins else "")
    return (f"Over {scope}, its likeliest move is a winning move in {percent(agreement)} of {count}positions where a "
            f"win can be forced{drawn}.")


def chances_sentence(rules, first: float, second: float, digits: int = 1) -> str:
    """The chances against a perfect player in one game from the start, each seat's, and why a seat cannot
    win: 'In a game of 20 sticks it beats a perfect player 99.2% of the time moving first and 0.0% moving
    second (moving second at 20 sticks the perfect player wins every game: 0% is the rule, not the learner).'
    A seat whose chance is NaN (not played) is left out."""
    parts = [f"{chance:.{digits}%} {SEATS[seat]}" for seat, chance in enumerate((first, second))
             if chance == chance]
    if not parts:
        return ""
    why = [cannot_win(rules, seat) for seat, chance in enumerate((first, second)) if chance == chance]
    why = [w for w in dict.fromkeys(why) if w]
    note = f" ({'; '.join(why)})" if why else ""
    return f"In {game_words(rules)} it beats a perfect player {' and '.join(parts)}{note}."
