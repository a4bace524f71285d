"""`sticks-tui paper --brain NAME`: type in a game played with the machine of paper (issue 36).

Line by line, for a class at a projector or a pipe: the game as it stands, then at the machine's turn
"which box, which bead" ("17 red"; "resign" when its box is empty), at the other side's turn their
move as the game writes it. A refusal says why and changes nothing; the game is recorded when it ends,
with the machine's lesson applied to the brain through the store, and the boxes it changed are shown
(before → after). End of input ends (an unfinished game is not recorded).
"""

from __future__ import annotations

import argparse
import sys


def register(subparsers) -> None:
    from sticks_tui.engine import registry

    p = subparsers.add_parser(
        "paper", help="type in the games of a machine of paper: the brain on screen learns them too",
        description="Play the printed machine (`sticks-tui brain print`) by hand and type each move here: at the "
                    "machine's turn the box taken and the bead drawn ('17 red'), at the other side's turn its "
                    "move. The game is recorded and teaches the same brain, as a game on screen does.")
    p.add_argument("--brain", default=None, help="the machine's brain (default: the game's name)")
    p.add_argument("--game", choices=registry.names(), default=None,
                   help="the game (a brain of another game is refused; needed to name a brain by its game)")
    p.add_argument("--machine-second", action="store_true",
                   help="the machine moves second (a brain of both sides' boxes; a one-side brain plays its own)")
    p.add_argument("--name", default="Class", help="the other side's name in the records (default 'Class')")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    from sticks_tui.commands.common import open_store
    from sticks_tui.learn.machine import plural
    from sticks_tui.play.paper import PaperGame, PaperRefusal
    from sticks_tui.store import InvalidName, StoreError

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    name = args.brain or args.game
    if name is None:
        print("sticks-tui paper: give --brain NAME (or --game G for the brain named after the game)", file=sys.stderr)
        return 2
    store = open_store(args.data_dir, "paper")
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
                game = PaperGame(store, name, game=args.game, machine_seat=1 if args.machine_second else 0,
                                 players=(args.name, f"{name} on paper"))
            except (PaperRefusal, StoreError) as exc:
                print(f"sticks-tui paper: {exc}", file=sys.stderr)
                return 1
            box_word, bead_word = game.machine.words
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
                        if answer.lower() == "resign":
                            game.resign()
                            say("The machine resigns.")
                            continue
                        number, _, colour = answer.partition(" ")
                        try:
                            number = int(number)
                            if not colour.strip():
                                raise ValueError
                        except ValueError:
                            raise PaperRefusal(f"Type the {box_word}'s number, then the {bead_word}'s colour "
                                               f"(e.g. '{box.number} {box.colours[0].name}'), not {answer!r}.") from None
                        before = game.position
                        move = game.machine_move(number, colour)
                        say(f"The machine plays: {game.rules.move_text(before, move)}.")
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
                print(f"sticks-tui paper: the game was not recorded: {exc}", file=sys.stderr)
                return 1
            if changes:
                say(f"The brain {name!r} learned it: the {plural(box_word)} changed ({bead_word}s before→after):")
                for change in changes:
                    say(f"  {box_word} {change.box} {change.colour} ({change.move_words}): "
                        f"{change.before}→{change.after}")
            else:
                say(f"The machine drew no {bead_word}: nothing to learn.")
            say()
