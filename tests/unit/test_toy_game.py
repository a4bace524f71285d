"""A new game needs its rules and one registry entry, nothing else (issue 17): a toy game registered
here alone is played, trained, recorded (teaching a stored brain), replayed and exported by the
code that plays sticks and Nim, with no other file changed."""

from __future__ import annotations

import json
import random

import pytest

from sticks_tui.engine import registry
from sticks_tui.engine.errors import IllegalMove
from sticks_tui.play.game import GameDriver
from sticks_tui.play.players import HatPlayer, PerfectPlayer, RandomPlayer
from sticks_tui.engine.protocol import WIN, whole_number
from sticks_tui.engine.state import new_state
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.store.exports import game_export, games_export
from sticks_tui.store.records import replay


class OnePile:
    """One pile of `size` beans; take 1 or 2 in turn; whoever takes the last bean wins."""

    name = "one-pile take-away"

    def __init__(self, size: int = 5) -> None:
        self.size = size

    def positions(self):
        return range(1, self.size + 1)

    def start_positions(self):
        return (self.size,)

    def legal_moves(self, position):
        return range(1, min(2, position) + 1)

    def apply(self, position, move):
        return position - move

    def is_terminal(self, position):
        return position == 0

    def outcome(self, position):
        return WIN

    def hat_rows(self):
        return (None, *range(1, self.size + 1))

    def position_text(self, position):
        return f"{position} beans"

    def move_text(self, position, move):
        return f"take {move}"

    def encode_position(self, position):
        return position

    def decode_position(self, value):
        if not whole_number(value) or not 0 <= value <= self.size:
            raise IllegalMove(f"A pile here holds 0 to {self.size} beans, not {value!r}.")
        return int(value)

    def encode_move(self, move):
        return move

    def decode_move(self, position, value):
        if not whole_number(value) or value not in self.legal_moves(position):
            raise IllegalMove(f"From {position} beans take 1 or 2 (no more than there are), not {value!r}.")
        return int(value)

    def __eq__(self, other):
        return isinstance(other, OnePile) and other.size == self.size

    def __hash__(self):
        return hash(("one-pile", self.size))


@pytest.fixture
def toy():
    entry = registry.register(registry.GameEntry(
        name="beans", title="one-pile take-away", choice="Beans (last bean wins)", brain_words="a beans brain",
        rules_class=OnePile, make_rules=lambda start=None, max_take=None, moves=(): OnePile(start or 5),
        layout=lambda rules: {"size": rules.size}, from_layout=lambda layout: OnePile(layout["size"])))
    yield entry
    registry.unregister("beans")


def test_a_game_added_through_the_registry_alone_plays_trains_records_replays_and_exports(toy, tmp_path):
    rules = OnePile(5)
    # play: the generic driver, players and solver
    for seed in range(10):
        game = GameDriver([RandomPlayer("r", random.Random(seed)), PerfectPlayer("p")], new_state(rules))
        game.play_to_end()
        assert game.state.winner == game.state.history[-1].player  # the last bean wins
    # train: the trainer over the protocol, scored against the generic solver
    result = train(TrainingConfig(game=rules, games=300, seed=7, engine="reference"), Hats(rules), Hats(rules))
    assert result.games_played == 300 and result.curve[-1].agreement == 1.0
    assert result.rules == rules
    # analyse: the one analysis, per position and per seat, against the generic solver
    from sticks_tui.learn.analysis import analyse_brain

    analysed = analyse_brain(result.brain)
    assert analysed.agreement == 1.0 and [v.position for v in analysed.positions] == list(result.brain.positions)
    assert (analysed.scope, analysed.game) == ("every position of the game", "a game of one-pile take-away")

    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain("beans-ai", game="beans")
        assert brain.rules == rules and store.brain_info("beans-ai").game == "beans"
        store.apply_training("beans-ai", brain.counts, result.brain.counts, games_trained=300)
        learner = store.load_brain("beans-ai")
        assert learner.counts.tolist() == result.brain.counts.tolist()  # a fresh brain plus the run
        # record a game that teaches the stored brain, as a screen does
        ai = HatPlayer("Beans AI", learner.copy(), random.Random(3), learn=False)
        game = GameDriver([RandomPlayer("Ann", random.Random(4)), ai], new_state(rules))
        state = game.play_to_end()
        drawn = [(t.before, t.move) for t in state.history if t.player == 1]
        gid = store.record_game(game="beans", start=5, opponent="learning", players=("Ann", "Beans AI"),
                                moves=[t.move for t in state.history], loser=state.loser, brain="beans-ai",
                                learning={1: ("beans-ai", drawn)})
        taught = learner.copy()
        taught.reinforce(drawn, state.loser != 1)
        assert store.load_brain("beans-ai") == taught == gid.brains[1]
        assert store.rebuild_brain("beans-ai") == taught  # the brain is the sum of its games
        # replay: the record, read back and replayed through the rules
        record = store.game(int(gid))
        assert (record.game, record.start, list(record.moves)) == ("beans", "5", [t.move for t in state.history])
        assert record.first == 0 and record.loser == state.loser
        played = replay(record.game, record.start, record.moves, record.loser)
        assert [(seat, before, move) for seat, before, move in played.turns] == \
            [(t.player, t.before, t.move) for t in state.history]
        lesson = record.learning[0]
        taught_by = tuple(d for d in drawn if len(rules.legal_moves(d[0])) > 1)  # a forced move teaches nothing
        assert (lesson.seat, lesson.drawn) == (1, taught_by)
        assert lesson.hats_before() == {h: learner.hat(h) for h, _ in taught_by}  # what the replay shows
        # export: the game and the game list
        doc = json.loads(game_export(record, "json"))
        assert [(m["player"], m["pile"], m["took"], m["left"]) for m in doc["moves"]] == \
            [(("Ann", "Beans AI")[t.player], None, t.move, t.after) for t in state.history]
        assert "beans" in games_export([record], "csv")
        # a record that breaks the toy's rules is refused with its words
        with pytest.raises(ValueError, match="take 1 or 2"):
            store.record_game(game="beans", start=5, opponent="friend", players=("Ann", "Bo"), moves=[3, 2],
                              loser=1)


def test_the_toy_brain_travels_in_a_brain_file_through_the_registry_alone(toy, tmp_path):
    """The brain file reader knows no game: the toy's layout ({"size": 5}) and hats read back as written,
    and a file whose hats do not fit its layout is refused with a reason (the registry's defaults)."""
    from sticks_tui.store.brainfile import BadBrainFile, decode, encode

    brain = Hats(OnePile(5))
    brain.counts[brain.row(4), 1] = 7
    text = encode("beans-ai", brain, 12, "now")
    doc = json.loads(text)
    assert (doc["game"], doc["size"]) == ("beans", 5)
    back = decode(text.encode())
    assert back.hats == brain and back.games_trained == 12 and back.game == "beans"
    doc["hats"] = doc["hats"][:-1]
    with pytest.raises(BadBrainFile, match=r'"hats" holds 5 hats but a brain of .* has 6'):
        decode(json.dumps(doc).encode())
    doc = json.loads(text)
    doc["hats"][2] = [1, 1, 1]
    with pytest.raises(BadBrainFile, match="the hat for 2 beans must hold 2 counts"):
        decode(json.dumps(doc).encode())


def test_where_explore_games_start_is_the_registrys_word(toy):
    """'explore' starts every position unless the game's entry says otherwise (sticks: not heap 1)."""
    from dataclasses import replace

    from sticks_tui.engine.rules import SticksRules
    from sticks_tui.learn.trainer import explore_starts, start_positions

    rules = OnePile(5)
    assert explore_starts(rules) == (1, 2, 3, 4, 5)
    assert explore_starts(SticksRules(6)) == (2, 3, 4, 5, 6) and explore_starts(SticksRules(2)) == (2,)
    registry.register(replace(toy, explore_from=lambda r: (r.size,)))
    assert start_positions(TrainingConfig(game=rules, protocol="explore")) == (5,)
    stories = []
    train(TrainingConfig(game=rules, games=20, seed=3, engine="reference", pace=1000), story=stories.append)
    assert {story.start for story in stories} == {5}


def test_a_run_learns_by_its_brains_rule_alone(toy):
    """The rule travels once: a config has none; a fresh brain learns by the default rule, a brain made
    with another learns by its own, and its fresh sparring partner by the same."""
    from sticks_tui.learn.hats import HatRule

    with pytest.raises(TypeError):
        TrainingConfig(game=OnePile(5), rule=HatRule(win_reward=3))
    assert train(TrainingConfig(game=OnePile(5), games=5, seed=1)).brain.rule == HatRule()
    rule = HatRule(win_reward=3, draw_reward=-1)
    result = train(TrainingConfig(game=OnePile(5), games=5, seed=1), Hats(OnePile(5), rule=rule))
    assert result.brain.rule == rule == result.opponent.rule


def test_a_brain_trains_on_a_game_only_with_a_hat_for_each_of_its_positions_laid_out_alike():
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.engine.rules import SticksRules

    assert Hats(30).cannot_train(SticksRules(20)) is None  # a bigger brain: a view of its first rows
    assert "cannot train on SticksRules(size=3, max_take=3)" in Hats(30, 4).cannot_train(SticksRules(3))
    assert Hats(10).cannot_train(SticksRules(20)) is not None
    assert Hats(NimRules((2, 2, 2))).cannot_train(NimRules((1, 1, 1))) is not None
    # the same hats and moves, but another game (the last bean wins, the last stick loses)
    assert Hats(OnePile(5)).cannot_train(SticksRules(5, 2)) is not None


def test_the_lab_and_the_learner_know_a_game_registered_later_by_its_entry_alone(toy):
    """The lab's games and sizes, and a brain's columns, are asked of the registry when needed (issue 31 item
    5): a game registered after `learn.lab` was imported is raced at its entry's sizes, in its entry's words."""
    from dataclasses import replace

    from sticks_tui.learn import lab

    registry.register(replace(toy, lab_rules=OnePile, lab_size=(6, 2, 9), lab_size_words="the pile of beans",
                              move_columns=lambda rules: 4))
    assert "beans" in lab.games() and "beans" in lab.sized()
    assert (lab.default_size("beans"), lab.size_range("beans"), lab.size_words("beans")) == \
        (6, (2, 9), "the pile of beans")
    assert lab.make_rules("beans") == OnePile(6) and lab.make_rules("beans", 9) == OnePile(9)
    assert lab.within_size("beans", 40) == 9 and lab.default_protocol("beans") == "explore"
    with pytest.raises(lab.LabError, match=r"^for beans the size is the pile of beans, from 2 to 9, not 10$"):
        lab.make_rules("beans", 10)
    # its brains keep the columns its entry says (sticks: one a take up to its max take), not a sticks attribute
    assert Hats(OnePile(7)).counts.shape == (8, 4)
    registry.unregister("beans")
    assert "beans" not in lab.games() and lab.size_range("beans") is None and lab.default_size("beans") is None


def test_the_command_line_knows_a_game_registered_replaced_or_removed_after_its_parser_was_built(toy, tmp_path):
    """`cli.main` builds its parser (every command's options, ~10 ms) once and uses it again while the registered
    games are the same entries; a game registered, replaced or removed since is in (or out of) the next command's
    choices and help."""
    from dataclasses import replace

    from cli_here import run_here
    from sticks_tui import cli

    registry.unregister("beans")
    assert cli.cached_parser() is cli.cached_parser()  # the same games: built once
    refused = run_here(tmp_path, ["train", "--game", "beans", "--games", "0"])
    assert refused.returncode == 2 and "invalid choice: 'beans'" in refused.stderr
    registry.register(toy)
    assert "beans (one-pile take-away)" in run_here(tmp_path, ["train", "--help"]).stdout
    registry.register(replace(toy, title="one-heap take-away"))
    assert "beans (one-heap take-away)" in run_here(tmp_path, ["train", "--help"]).stdout
    registry.unregister("beans")
    again = run_here(tmp_path, ["train", "--game", "beans", "--games", "0"])
    assert again.returncode == 2 and "invalid choice: 'beans'" in again.stderr
