"""`sticks-tui play --paper`: type in the games played with a machine of paper (issue 36).

Line by line, for a class at a projector or a pipe: the game as it stands, then at the machine's turn
"which box, which bead" ("17 red"; "resign" when its box is empty), at the other side's turn their
move as the game writes it. A refusal says why and changes nothing; the game is recorded when it ends,
with the machine's lesson applied to the brain through the store, and the boxes it changed are shown
(before → after). End of input ends (an unfinished game is not recorded).
"""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace, game_name: str, stdin=None, stdout=None) -> int:
    """Paper games of `game_name`'s brain `args.brain` (default: the game's name) until end of input."""
    from sticks_tui.commands.common import open_store
    from sticks_tui.learn.machine import plural
    from sticks_tui.play.paper import PaperGame, PaperRefusal
    from sticks_tui.store import InvalidName, StoreError

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    name = args.brain or game_name
    store = open_store(args.data_dir, "play")
    if store is None:
        return 1

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    def ask(prompt: str) -> str | None:
        print(prompt, end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            say()
            return None
        return line.strip()

    with store:
        while True:
            try:
                game = PaperGame(store, name, game=game_name, machine_seat=0 if args.ai_first else 1,
                                 players=(args.name, f"{name} on paper"))
            except (PaperRefusal, StoreError) as exc:
                print(f"sticks-tui play: {exc}", file=sys.stderr)
                return 1
            box_word, bead_word = game.machine.words
            if game.new is not None:
                say(f"No brain is called {name!r} yet: this is a new one (as `brain print` printed it), kept with "
                    "its first game.")
            say(f"A paper game of {game.kind.title}: the machine is the brain {name!r} ({len(game.machine.boxes)} "
                f"{plural(box_word)} printed), playing {'first' if game.seat == 0 else 'second'}.")
            while not game.over:
                say(game.rules.position_text(game.position))
                if game.machine_to_move:
                    forced = game.machine_forced()
                    if forced is not None:
                        game.forced_move()
                        say(f"The machine has one move: {game.rules.move_text(game._before, forced)}.")
                        continue
                    box = game.box_now()
                    answer = ask(f"The machine's turn ({box_word} {box.number}): which {box_word} and {bead_word} "
                                 f"(e.g. '{box.number} {box.colours[0].name}')? ")
                    if answer is None:
                        if game.moves:
                            say("The unfinished game was not recorded.")
                        return 0
                    try:
                        before = game.position
                        move = game.typed_machine_move(answer)
                        say("The machine resigns." if move is None else
                            f"The machine plays: {game.rules.move_text(before, move)}.")
                    except PaperRefusal as exc:
                        say(f"Refused: {exc} Nothing was changed.")
                else:
                    answer = ask(f"{args.name}'s move: ")
                    if answer is None:
                        if game.moves:
                            say("The unfinished game was not recorded.")
                        return 0
                    try:
                        game.other_move(answer)
                    except PaperRefusal as exc:
                        say(f"Refused: {exc} Nothing was changed.")
            say(game.rules.position_text(game.position))
            loser = game.loser
            say("A draw." if loser is None else
                f"{'The machine' if loser != game.seat else args.name} wins.")
            try:
                _, changes = game.finish()
            except (StoreError, InvalidName, ValueError) as exc:
                print(f"sticks-tui play: the game was not recorded: {exc}", file=sys.stderr)
                return 1
            if changes:
                say(f"The brain {name!r} learned it: the {plural(box_word)} changed ({bead_word}s before→after):")
                for change in changes:
                    say(f"  {box_word} {change.box} {change.colour} ({change.move_words}): "
                        f"{change.before}→{change.after}")
            else:
                say(f"The machine drew no {bead_word}: nothing to learn.")
            say()
