"""Three-pile Nim (seed 004): piles of nickels, dimes and quarters; a move takes one or more coins
from one pile; whoever takes the last coin WINS (the opposite of sticks).

Only the rules live here: `nim_moves` (the one place Nim's moves are written) and `NimRules`, Nim
in the game protocol (`engine.protocol`); a game in play is the generic `engine.state.GameState`.
A move is a tuple `(pile, coins)` with pile 0 = nickels, 1 = dimes, 2 = quarters.
"""

from __future__ import annotations

from itertools import product

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import WIN, whole_number
from sticks_tui.engine.registry import GameEntry, GameOption, register
from sticks_tui.engine.state import GameState

PILE_NAMES: tuple[str, str, str] = ("nickels", "dimes", "quarters")
PILE_SINGULAR: tuple[str, str, str] = ("nickel", "dime", "quarter")
#: The largest pile a game may start with: the solver's table covers 0..100 (seed 004).
MAX_PILE = 100
#: The largest pile of a Nim brain's box a brain file may hold (as `sticks-tui nim train --piles` allows).
MAX_NIM_PILE = 10
#: The piles the learning AI for Nim knows, up to 7 coins each (its brain: one hat a position up to these).
LEARNER_BOX = (7, 7, 7)


def brain_name(box=LEARNER_BOX) -> str:
    """The stored brain of the learning AI for Nim on piles up to `box`: one brain per box size."""
    return "nim-" + "x".join(str(int(b)) for b in box)

Piles = tuple[int, int, int]


def nim_moves(piles) -> tuple[tuple[int, int], ...]:
    """Every (pile, coins) the player to move may play from `piles`, by pile then by coins."""
    return tuple((pile, coins) for pile in range(len(piles)) for coins in range(1, piles[pile] + 1))


def nim_after(piles, move: tuple[int, int]) -> Piles:
    """The piles once `move` is played (no checks beyond the arithmetic)."""
    pile, coins = move
    p = list(piles)
    p[pile] -= coins
    return p[0], p[1], p[2]


def coins_word(pile: int, coins: int) -> str:
    return f"{coins} {PILE_SINGULAR[pile] if coins == 1 else PILE_NAMES[pile]}"


def piles_text(piles) -> str:
    return ", ".join(coins_word(i, n) for i, n in enumerate(piles))


def new_nim_game(piles, first: int = 0) -> GameState:
    """A fresh game; each pile 0..100 coins, at least one coin in all; `first` (0 or 1) moves first."""
    state = GameState(NimRules((MAX_PILE, MAX_PILE, MAX_PILE)), piles, first)
    if state.is_over:
        raise IllegalMove("A game needs at least one coin.")
    return state


class NimRules:
    """Three-pile Nim in the game protocol (`engine.protocol.GameRules`) on piles up to `box`
    (default 7, 7, 7): positions are pile tuples, moves (pile, coins); the last coin wins."""

    name = "three-pile Nim"
    last_mover_wins = True  # derived from `outcome`: whoever takes the last coin wins

    def __init__(self, box=(7, 7, 7)) -> None:
        try:
            box = tuple(int(b) for b in box)
        except (TypeError, ValueError):
            raise IllegalMove(f"Nim's box is three pile sizes, not {box!r}.") from None
        if len(box) != 3 or any(b < 0 or b > MAX_PILE for b in box) or sum(box) == 0:
            raise IllegalMove(f"Nim's box is three pile sizes of 0 to {MAX_PILE}, not all 0: {box!r}.")
        self.box: Piles = box  # type: ignore[assignment]
        self._positions: tuple[Piles, ...] | None = None

    def positions(self) -> tuple[Piles, ...]:
        if self._positions is None:
            n1, n2, n3 = self.box
            self._positions = tuple((n, d, q) for n in range(n1 + 1) for d in range(n2 + 1)
                                    for q in range(n3 + 1) if n + d + q > 0)
        return self._positions

    def start_positions(self) -> tuple[Piles]:
        return (self.box,)

    def legal_moves(self, position) -> tuple[tuple[int, int], ...]:
        return nim_moves(position)

    def apply(self, position, move) -> Piles:
        return nim_after(position, move)

    def is_terminal(self, position) -> bool:
        return sum(position) == 0

    def outcome(self, position) -> int:
        return WIN  # whoever takes the last coin wins

    def hat_rows(self) -> tuple[Piles, ...]:
        return self.positions()

    def position_text(self, position) -> str:
        return piles_text(position)

    def picture(self, position):
        """The three piles (`engine.pictures`)."""
        from sticks_tui.engine.pictures import Piles

        return Piles(tuple(int(p) for p in position))

    def move_text(self, position, move) -> str:
        return f"take {coins_word(*move)}"

    def encode_position(self, position) -> list[int]:
        return [int(p) for p in position]

    def decode_position(self, value) -> Piles:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise IllegalMove(f"Nim needs three piles (nickels, dimes, quarters), not {value!r}.")
        piles = tuple(value)
        if len(piles) != 3:
            raise IllegalMove(f"Nim here has three piles (nickels, dimes, quarters), not {len(piles)}.")
        for name, count, top in zip(PILE_NAMES, piles, self.box, strict=True):
            if not whole_number(count):
                raise IllegalMove(f"The {name} pile must be a whole number of coins, not {count!r}.")
            if count < 0:
                raise IllegalMove(f"The {name} pile cannot hold {count} coins.")
            if count > top:
                raise IllegalMove(f"The {name} pile may hold at most {top} coins, not {count}.")
        return int(piles[0]), int(piles[1]), int(piles[2])

    def encode_move(self, move) -> list[int]:
        return [int(move[0]), int(move[1])]

    def decode_move(self, position, value) -> tuple[int, int]:
        """The (pile, coins) `value` takes from `position`, if the rules allow it."""
        try:
            pile, coins = value
        except (TypeError, ValueError):
            raise IllegalMove(f"A Nim move is a pile and a number of coins, not {value!r}.") from None
        if not whole_number(pile) or not 0 <= pile <= 2:
            raise IllegalMove(f"Choose pile 0 (nickels), 1 (dimes) or 2 (quarters), not {pile!r}.")
        if not whole_number(coins):
            raise IllegalMove(f"A move takes a whole number of coins, not {coins!r}.")
        if sum(position) == 0:
            raise IllegalMove("The game is over: there are no coins left to take.")
        have = position[pile]
        if have == 0:
            raise IllegalMove(f"The {PILE_NAMES[pile]} pile is empty: take coins from another pile.")
        if coins < 1:
            raise IllegalMove(f"Take at least one coin (between 1 and {have} {PILE_NAMES[pile]}).")
        if coins > have:
            raise IllegalMove(f"Cannot take {coins_word(pile, coins)}: only {coins_word(pile, have)} left.")
        return int(pile), int(coins)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NimRules) and self.box == other.box

    def __hash__(self) -> int:
        return hash(("nim", self.box))

    def __repr__(self) -> str:
        return f"NimRules(box={self.box})"


# -- the game's registry entry (`engine.registry`): how the layers above find it by name --------------

def _nim_start(value) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in (value.split(",") if isinstance(value, str) else value))
    except (TypeError, ValueError):
        raise ValueError(f"A game of Nim starts from piles like '3,4,5', not {value!r}.") from None


def _nim_move(value) -> tuple[int, int]:
    """A record's 'pile:coins' (piles from 1), or (pile, coins) likewise, as a move (piles from 0)."""
    try:
        pile, coins = (value.split(":") if isinstance(value, str) else value)
        return int(pile) - 1, int(coins)
    except (TypeError, ValueError):
        raise ValueError(f"A Nim move is 'pile:coins' (e.g. '2:3'), not {value!r}.") from None


def _nim_file_conflict(doc: dict, named: bool, shown) -> str | None:
    if "box" not in doc:
        laid = " it is laid out as a sticks brain (\"size\" and \"max_take\")," if "size" in doc else ""
        return (f"it says \"game\": \"nim\", but{laid} it has no \"box\" (the largest piles of the Nim brain), "
                "so its hats cannot be read as a Nim brain.")
    extra = [key for key in ("size", "max_take") if key in doc]
    if extra:
        return (f"it says \"game\": \"nim\" but also has {shown(extra[0])}, which only a sticks brain has; a Nim "
                "brain file is laid out by \"box\" alone.")
    return None


def _nim_file_rules(doc: dict, shown) -> NimRules:
    box = doc.get("box")
    if (not isinstance(box, list | tuple) or len(box) != 3
            or not all(whole_number(b) and 0 <= b <= MAX_NIM_PILE for b in box) or sum(box) == 0):
        raise ValueError(f"\"box\" must be the three largest piles of the Nim brain, each a whole number from 0 "
                         f"to {MAX_NIM_PILE} and not all 0, not {shown(box)}.")
    return NimRules(tuple(box))


def _old_nim_export_layout(doc: dict) -> dict | None:
    """The layout of a Nim brain written by the export of before (version 1, no "game": `size` counted
    Nim's hats, `max_take` its widest hat, and hat 0 is the hat for (0, 0, 1), never empty) when exactly
    one box fits its hats; else None. A sticks file never matches: its hat 0 is empty."""
    rows, size = doc.get("hats"), doc.get("size")
    if (not isinstance(rows, list) or not whole_number(size) or len(rows) != size or not rows
            or not isinstance(rows[0], list) or not rows[0] or "box" in doc):
        return None
    lengths = [len(row) if isinstance(row, list) else -1 for row in rows]
    fits = []
    for n, d, q in product(range(MAX_NIM_PILE + 1), repeat=3):
        if (n + 1) * (d + 1) * (q + 1) - 1 == size and [sum(p) for p in NimRules((n, d, q)).positions()] == lengths:
            fits.append([n, d, q])
    return {"box": fits[0]} if len(fits) == 1 else None


def parse_box(text) -> Piles:
    """`--piles 3,4,5`: the largest piles a Nim learner knows (each 0 to MAX_NIM_PILE, not all 0)."""
    words = f"--piles is three whole numbers from 0 to {MAX_NIM_PILE} separated by commas (e.g. 7,7,7)"
    try:
        piles = tuple(int(p.strip().replace("_", "")) for p in str(text).split(","))
    except ValueError:
        raise ValueError(f"{words}, not {text!r}") from None
    if len(piles) != 3 or not all(0 <= p <= MAX_NIM_PILE for p in piles):
        raise ValueError(f"{words}, not {text!r}")
    if sum(piles) == 0:
        raise ValueError("--piles must hold at least one coin in all")
    return piles  # type: ignore[return-value]


register(GameEntry(
    name="nim", title="three-pile Nim", choice="Three-pile Nim (last coin wins)", brain_words="a Nim brain", rules_class=NimRules,
    make_rules=lambda start=None, max_take=None, moves=(): NimRules((MAX_PILE, MAX_PILE, MAX_PILE)),
    layout=lambda rules: {"box": list(rules.box)},
    from_layout=lambda layout: NimRules(tuple(layout["box"])),
    opponents={
        "friend": "a friend (same keyboard)",
        "random": "the random AI",
        "perfect": "the perfect AI (the table)",
        "learning": "the learning AI (piles up to 7)",
    },
    default_opponent="perfect", watchable=True,
    scope=lambda rules: "piles up to " + ", ".join(map(str, rules.box)),
    game=lambda rules: "a game of Nim from piles " + ", ".join(map(str, rules.start_positions()[0])), position_word="piles",
    listing_note="A Nim brain has one hat per position of its piles and a ball for each move (Take).",
    ai_names={"random": "Nim Random AI", "perfect": "Nim Perfect AI", "learning": "Nim Learning AI"},
    brain_rules_of=lambda size, max_take, box: NimRules(box or LEARNER_BOX),
    unusable_because=lambda stored, wanted: (None if stored.box == wanted.box else
                                             f"knows piles up to {stored.box}, not {wanted.box}"),
    columns_of=lambda rules, shape: (shape[0], shape[1], ",".join(map(str, rules.box))),
    stored_rules_of=lambda size, max_take, shape: NimRules(tuple(int(b) for b in (shape or "").split(","))),
    write_start=lambda piles: ",".join(map(str, piles)), read_start=_nim_start,
    write_move=lambda move: f"{move[0] + 1}:{move[1]}", read_move=_nim_move,
    unfinished=lambda start, moves: f"The moves {moves} do not empty the piles {start!r}.",
    pile_and_took=lambda move: (move[0] + 1, move[1]),
    illegal=lambda move, exc: f"The Nim move {move!r} takes coins that are not there ({exc})",
    file_layout_conflict=_nim_file_conflict, file_rules=_nim_file_rules, old_file_layout=_old_nim_export_layout,
    file_rows_words=lambda rules, rows: (f"\"hats\" holds {rows} hats but the box {list(rules.box)} has "
                                         f"{len(rules.positions())} positions, one hat each."),
    file_hat_label=lambda piles: f"the hat for the piles {piles}",
    options=(GameOption("piles", "--piles", parse_box, (7, 7, 7),
                        f"the largest piles the AI learns, A,B,C (each 0 to {MAX_NIM_PILE}; default 7,7,7)",
                        "A,B,C"),),
    # a position asked about (`solve`) is read within the whole table, 0-100 coins a pile
    rules_of=lambda values, start: NimRules(values["piles"] if start is None else (MAX_PILE,) * 3),
    training_games=500_000,
    ai_brains=(brain_name(LEARNER_BOX),), ai_brain_options=lambda side: {"box": LEARNER_BOX},
    v1_settings={"nim_piles": "start"},  # a version-1 settings file kept the setup's piles in a field of its own
    lab_rules=lambda size: NimRules((size, size, size)), lab_size=(7, 1, 7),
    lab_size_words="the largest pile (piles up to N, N, N)",
))
