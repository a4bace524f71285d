"""How fast each lab learner trains: compiled (`learn.kernel`) and readable (`learn.lab_players`),
beside the app's own trainer kernel, on sticks at heap 100 in self-play (or --game, at its lab's protocol).

    python benchmarks/bench_lab_speed.py [--game sticks] [--size 100] [--games 300000] [--readable-games 3000]
                                         [--rounds 3] [--smoke]

Every figure is games per second of training alone, in processor time (`time.process_time`: the
training runs in this one thread, so a busy machine that shares out the cores does not stretch it as
it stretches wall time), median over rounds; within a round every engine runs once, one after another.
The lab's loops track mastery (the unbeatable check, after a game that changed a favourite move) after
every game and score the curve at its checkpoints, the trainer's kernel does neither (`curve=False`); the
trainer as the app and `sticks-tui train` run it scores its own learning curve (`curve=True`), and the lab's
hats are also given against that. Where each run's time goes is printed too: the processor time inside the game loop
(the lab's mastery tracking is in it) and outside it (the curve's scoring, the calls, the lab's setup). --smoke runs tiny sizes: it proves the script works; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sticks", help="any registered game (its lab's protocol)")
    parser.add_argument("--size", type=int, default=None,
                        help="the game's size (default: heap 100 for sticks, the lab's own for another game)")
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--readable-games", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.readable_games, args.rounds = 2_000, 100, 1
        args.size = 20 if args.game == "sticks" else args.size

    from sticks_tui.learn.lab import lab_game, lab_kernel, parse_learner, run_learner
    from sticks_tui.learn.lab_players import train_readable
    from sticks_tui.learn.trainer import TrainingConfig, train

    from sticks_tui.learn.lab import default_size, sized

    if args.size is None and args.game == "sticks":
        args.size = 100
    g = lab_game(args.game, args.size)
    args.size = args.size or default_size(args.game)
    lab_kernel()

    def trainer_run(games: int, seed: int, curve: bool = False) -> None:
        train(TrainingConfig(game=g.rules, games=games, seed=seed, protocol=g.protocol, curve=curve))

    trainer_run(10, 1)  # compiled before timing
    trainer_run(10, 1, curve=True)
    # Where each run's time goes: the processor time inside the one game loop (`kernel.play_games`, timed around
    # each call, nothing else changed) and the rest (the curve's scoring, the calls themselves, the lab's setup)
    from sticks_tui.learn import kernel

    loop = kernel.play_games
    inside = [0.0]

    def timed_loop(*arguments):
        t = time.process_time()
        try:
            return loop(*arguments)
        finally:
            inside[0] += time.process_time() - t

    kernel.play_games = timed_loop  # put back below: the trainer and the lab call the loop through the module
    try:
        split: dict[str, list[tuple[float, float]]] = {"trainer": [], "trainer+curve": [], "hats": []}

        def timed(name: str, seconds: float) -> None:
            if name in split:
                split[name].append((inside[0], seconds - inside[0]))
        learners = ("hats", "hats:table=one", "q", "qseat", "mc")
        rates: dict[str, list[float]] = {k: [] for k in ("trainer", "trainer+curve", *learners,
                                                         *(f"{x} readable" for x in learners))}
        for r in range(args.rounds):
            inside[0] = 0.0
            t = time.process_time()
            trainer_run(args.games, r)
            rates["trainer"].append(args.games / (time.process_time() - t))
            timed("trainer", time.process_time() - t)
            inside[0] = 0.0
            t = time.process_time()
            trainer_run(args.games, r, curve=True)
            rates["trainer+curve"].append(args.games / (time.process_time() - t))
            timed("trainer+curve", time.process_time() - t)
            for text in learners:
                spec = parse_learner(text)
                inside[0] = 0.0
                t = time.process_time()
                run_learner(spec, g, r, args.games)
                rates[text].append(args.games / (time.process_time() - t))
                timed(text, time.process_time() - t)
                t = time.process_time()
                train_readable_fast(train_readable, spec, g, r, args.readable_games)
                rates[f"{text} readable"].append(args.readable_games / (time.process_time() - t))
    finally:  # a smoke run shares its process with other tests (tests/unit/test_benchmarks_smoke.py): the real
        kernel.play_games = loop  # loop again, its numba dispatcher (its cache, its signatures) for whoever comes next
    median = {k: statistics.median(v) for k, v in rates.items()}
    size = f" {args.size}" if args.game in sized() else ""
    print(f"# {args.game}{size} ({g.protocol}), self-play; games per processor second, median of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"trainer kernel (the app's):       {median['trainer']:>12,.0f} games/s")
    for text in learners:
        print(f"lab kernel {text:<14}        {median[text]:>12,.0f} games/s "
              f"({median[text] / median['trainer']:.2f}x the trainer's speed)")
    print(f"trainer with its curve (as train() runs it): {median['trainer+curve']:>12,.0f} games/s")
    for text in ("hats", "hats:table=one"):
        print(f"lab kernel {text} against the trainer with its curve: "
              f"{median[text] / median['trainer+curve']:.2f}x")
    for name, said in (("trainer", "trainer"), ("trainer+curve", "trainer with its curve"), ("hats", "lab kernel hats")):
        loop_s = statistics.median(x[0] for x in split[name])
        rest_s = statistics.median(x[1] for x in split[name])
        print(f"where the time goes, {said}: {loop_s * 1e3:,.1f} ms in the game loop, {rest_s * 1e3:,.1f} ms outside it "
              f"(median of {args.rounds} rounds, processor time)")
    for text in learners:
        print(f"readable {text:<14}          {median[text + ' readable']:>12,.0f} games/s "
              f"(the lab kernel is {median[text] / median[text + ' readable']:,.0f}x faster)")
    return 0


def train_readable_fast(train_readable, spec, g, seed, games):
    """The readable players' training, without their game-by-game mastery check (a full look at every
    row after every game, which the kernel does not need): only the games themselves are timed."""
    from sticks_tui.learn import lab_players

    saved = lab_players.is_unbeatable
    lab_players.is_unbeatable = lambda *a: False
    try:
        return train_readable(spec, g, seed, games)
    finally:
        lab_players.is_unbeatable = saved


if __name__ == "__main__":
    sys.exit(main())
