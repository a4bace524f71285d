"""The classic console game, line by line as in the seeds' transcripts (seed 002, with seed 000's option 3).

    Welcome to the Game of Sticks!
    How many sticks are there on the table initially (10-100)? 10
    Options:
     Play against a friend (1)
     Play against the computer (2)
     Play against the trained computer (3)
    Which option do you take (1-3)? 2

    There are 10 sticks on the board.
    Player 1: How many sticks do you take (1-3)? 3

    There are 7 sticks on the board.
    AI selects 2.
    ...
    AI loses.
     1 | {1: 1}
     2 | {1: 1, 2: 1}
    ...
    Play again (y/n)? n

Decisions where the seeds are silent (kept in one place so the README and tests can cite them):
- The take prompt always reads "(1-3)", as every seed transcript does even with 1 or 2 sticks
  left; a number larger than the sticks left is refused with "Please enter a number between 1 and
  2" (the error names the range that is really open), and with one stick left "Please enter 1."
  (issue 10; the seeds are silent). The take error has no full stop, the heap error has one: both
  exactly as seed 002 prints them.
- A stored brain with an empty hat (no balls left: it could not move from that heap) is refused
  with a message on stderr; the game goes on with a fresh AI that is not kept, and the stored
  brain is left as it is.
- The menu is skipped when the mode is given up front (`mode=` / `--mode`): seed 002's Night-1
  transcripts (friend games) have no menu, and this reproduces them exactly.
- "Play again (y/n)? " follows every game, friend games too; a new game keeps the heap and opponent.
- The person always moves first (Player 1), as in every transcript.
- After each game against an AI its hats are printed in seed 003's table, hats 1 to the heap.
- Records: the people are "Player 1" and "Player 2" unless named (`--name`, `--name2`); the AIs
  are "Learning AI" and "Trained AI". Every finished game is recorded; an abandoned one is not.
- Option 2 plays brain "default" (or `brain=`): loaded at the start, saved after every game.
  Option 3 trains a fresh brain (100,000 AI-vs-AI games at the chosen heap, the trainer's default
  protocol) and saves it as brain "trained", replacing the previous one (seed 000 trains afresh
  each time); it then learns from the games played and is saved after each.
- When input is not a terminal (a pipe or a file), each answer is echoed after its prompt, so
  the output reads like the seeds' transcripts; a terminal echoes by itself.
- End of input at any prompt ends the program with status 0; Ctrl-C with status 130. Both print a
  newline so the shell prompt starts on a fresh line, and neither prints a traceback.
- Store trouble (notices, a failed save) goes to stderr, so stdout stays the transcript.
"""

from __future__ import annotations

import random
import sys
from typing import TextIO

from sticks_tui import vocabulary
from sticks_tui.play.game import GameDriver
from sticks_tui.play.players import HatPlayer, HumanPlayer
from sticks_tui.engine.rules import MAX_HEAP, MIN_HEAP, new_game, sticks_word
from sticks_tui.engine.state import GameState
from sticks_tui.learn.hats import Hats
from sticks_tui.store.brains import fit_hats

MAX_TAKE = 3
MODES = ("friend", "computer", "trained")
DEFAULT_BRAIN = vocabulary.DEFAULT_BRAIN
TRAINED_BRAIN = "trained"
TRAINING_GAMES = vocabulary.TRAINED_AI_GAMES
OPPONENT_KINDS = {"friend": "friend", "computer": "learning", "trained": "trained"}
AI_NAMES = {mode: vocabulary.ai_names("sticks")[OPPONENT_KINDS[mode]] for mode in ("computer", "trained")}

WELCOME = "Welcome to the Game of Sticks!"
HEAP_PROMPT = f"How many sticks are there on the table initially ({MIN_HEAP}-{MAX_HEAP})? "
HEAP_ERROR = f"Please enter a number between {MIN_HEAP} and {MAX_HEAP}."
MENU = ("Options:\n"
        " Play against a friend (1)\n"
        " Play against the computer (2)\n"
        " Play against the trained computer (3)")
MENU_PROMPT = "Which option do you take (1-3)? "
MENU_ERROR = "Please enter a number between 1 and 3."
TAKE_PROMPT = "{name}: How many sticks do you take (1-%d)? " % MAX_TAKE
TAKE_ERROR = "Please enter a number between 1 and {top}"
TAKE_ERROR_ONE = "Please enter 1."
AGAIN_PROMPT = "Play again (y/n)? "
AGAIN_ERROR = "Please answer y or n."
TRAINING = "Training AI, please wait..."


def take_error(top: int) -> str:
    """The error for a refused take: seed 002's words, or "Please enter 1." when only 1 is allowed."""
    return TAKE_ERROR_ONE if top == 1 else TAKE_ERROR.format(top=top)


class EndOfInput(Exception):
    """The input ran out (Ctrl-D, or the end of a pipe)."""


def board_line(heap: int) -> str:
    verb = "is" if heap == 1 else "are"
    return f"There {verb} {heap} {sticks_word(heap)} on the board."


def hats_table(hats: Hats, heap: int) -> str:
    """Seed 003's table for hats 1..heap (a bigger brain's other hats are not shown)."""
    size = min(heap, hats.size)
    return Hats(size, hats.max_take, hats.rule, hats.counts[: size + 1]).table()


class LineConsole:
    """A game played line by line over a pair of text streams (stdin, stdout; store trouble on stderr):
    the asking and telling every line mode shares (this module's classic game, `sticks_tui.lines`)."""

    def __init__(self, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 echo: bool | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        if echo is None:
            try:
                echo = not self.stdin.isatty()
            except (AttributeError, ValueError):
                echo = True
        self.echo = echo

    # -- input and output ----------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def warn(self, text: str) -> None:
        self.stdout.flush()
        self.stderr.write(text + "\n")
        self.stderr.flush()

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EndOfInput
        answer = line.rstrip("\r\n")
        if self.echo:
            self.stdout.write(answer + "\n")
        return answer.strip()

    def ask_number(self, prompt: str, low: int, high: int, error: str) -> int:
        while True:
            answer = self.ask(prompt)
            try:
                value = int(answer)
            except ValueError:
                value = None
            if value is not None and low <= value <= high:
                return value
            self.say(error)

    def ask_yes_no(self, prompt: str) -> bool:
        while True:
            answer = self.ask(prompt).lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say(AGAIN_ERROR)

    def try_store(self, action):
        """`action()`, or None after saying on stderr why the store refused it."""
        from sticks_tui.store import StoreError

        try:
            return action()
        except StoreError as exc:
            self.warn(f"sticks-tui: {exc}")
            return None


class ClassicGame(LineConsole):
    """The console game over any pair of text streams; `run()` returns the exit status."""

    def __init__(self, store=None, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 stderr: TextIO | None = None, rng: random.Random | None = None, mode: str | None = None,
                 names: tuple[str, str] = ("Player 1", "Player 2"), brain: str = DEFAULT_BRAIN,
                 training_games: int = TRAINING_GAMES, show_hats: bool = True, echo: bool | None = None) -> None:
        if mode is not None and mode not in MODES:
            raise ValueError(f"The mode is one of {', '.join(MODES)}, not {mode!r}.")
        super().__init__(stdin=stdin, stdout=stdout, stderr=stderr, echo=echo)
        self.store = store
        self.rng = rng if rng is not None else random.Random()
        self.mode = mode
        self.names = names
        self.brain_name = brain
        self.training_games = training_games
        self.show_hats = show_hats
        self.hats: Hats | None = None
        self.save_as: str | None = None  # the brain to save the AI's hats to after each game

    # -- the program ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the person stops; 0, or 130 after Ctrl-C.

        A failed write is not caught here: it goes up to the caller (cli.main reports it once).
        """
        try:
            for notice in getattr(self.store, "notices", []):
                self.warn(f"sticks-tui: {notice}")
            self.say(WELCOME)
            heap = self.ask_number(HEAP_PROMPT, MIN_HEAP, MAX_HEAP, HEAP_ERROR)
            mode = self.mode
            if mode is None:
                self.say(MENU)
                mode = MODES[self.ask_number(MENU_PROMPT, 1, 3, MENU_ERROR) - 1]
            self.prepare_ai(mode, heap)
            while True:
                self.play_one(mode, heap)
                if not self.ask_yes_no(AGAIN_PROMPT):
                    status = 0
                    break
        except EndOfInput:
            self.say()
            status = 0
        except KeyboardInterrupt:
            self.say()
            status = 130
        self.stdout.flush()
        return status

    def prepare_ai(self, mode: str, heap: int) -> None:
        if mode == "friend":
            return
        if mode == "trained":
            from sticks_tui.learn.trainer import TrainingConfig, train

            self.say(TRAINING)
            self.stdout.flush()
            result = train(TrainingConfig(sticks=heap, games=self.training_games, seed=self.rng.getrandbits(63)))
            self.hats = result.brain
            self.save_as = TRAINED_BRAIN
            if self.store is not None:
                self.try_store(lambda: (self.store.save_brain(TRAINED_BRAIN, self.hats, result.games_played,
                                                              replace=True),
                                        self.store.save_training_curve(TRAINED_BRAIN, result.curve)))
            return
        self.save_as = self.brain_name
        if self.store is not None:
            self.hats = self.try_store(
                lambda: self.store.load_or_create_brain(self.brain_name, heap, MAX_TAKE))
        if self.hats is not None:
            from sticks_tui.store import StoreError
            from sticks_tui.store.brainfile import require_playable

            try:  # a brain with an empty hat cannot move from that heap: refuse it, never overwrite it
                require_playable(self.hats, self.brain_name, getattr(self.store, "location", None))
            except StoreError as exc:
                self.warn(f"sticks-tui: {exc} This game's AI starts fresh and is not kept.")
                self.hats = None
        if self.hats is None:  # no store, or it failed: a fresh AI that is not kept
            self.hats = Hats(heap, MAX_TAKE)
            self.save_as = None

    def play_one(self, mode: str, heap: int) -> GameState:
        human = HumanPlayer(self.names[0])
        if mode == "friend":
            other = HumanPlayer(self.names[1])
        else:
            # With a store, the hats learn through the store (the game's lesson is applied to the
            # brain as stored, then adopted), so copies sharing a brain lose nothing.
            learns_here = self.store is None or self.save_as is None
            other = HatPlayer(AI_NAMES[mode], self.hats, self.rng, learn=learns_here)
        game = GameDriver([human, other], new_game(heap, 0, MAX_TAKE))
        drawn: list[tuple[int, int]] = []
        try:
            while not game.is_over:
                self.say()
                self.say(board_line(game.state.position))
                if game.waiting_for_human:
                    top = game.state.legal_moves[-1]
                    take = self.ask_number(TAKE_PROMPT.format(name=game.current.name), 1, top,
                                           take_error(top))
                    game.play(take)
                else:
                    game.step()
                    last = game.state.history[-1]
                    drawn.append((last.before, last.move))
                    self.say(f"AI selects {last.move}.")
        except BaseException:
            game.abandon()  # a half game teaches the AI nothing and is not recorded
            raise
        state = game.state
        loser = state.loser
        if mode == "friend":
            self.say(f"{game.players[loser].name}, you lose.")
        else:
            self.say("AI loses." if loser == 1 else "You lose.")
        self.keep(mode, heap, state, (human.name, other.name), drawn)
        if mode != "friend" and self.show_hats:
            self.say(hats_table(self.hats, heap))
        return state

    def keep(self, mode: str, heap: int, state: GameState, players: tuple[str, str],
             drawn: list[tuple[int, int]] | None = None) -> None:
        """Record the game; the AI's lesson goes to its brain as stored, in the same transaction.

        The brain is then what the store holds (what every copy sharing it taught it). If the
        store fails, the AI learns in memory so the game still teaches it this session.
        """
        if self.store is None:
            return
        brain = None if mode == "friend" else (self.save_as or None)
        learning = {1: (self.save_as, drawn or [])} if brain is not None else None
        recorded = self.try_store(lambda: self.store.record_game(
            game="sticks", start=str(heap), opponent=OPPONENT_KINDS[mode], players=players,
            moves=[m.move for m in state.history], loser=state.loser, brain=brain,
            ai_seats=() if mode == "friend" else (1,), learning=learning, max_take=MAX_TAKE))
        if learning is None:
            return
        if recorded is not None and 1 in recorded.brains:
            self.hats = fit_hats(recorded.brains[1], heap)
        else:  # not kept: the AI still learns from this game, in memory
            self.hats.reinforce(drawn or [], state.loser != 1)
