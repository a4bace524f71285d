"""Hexapawn (issue 32 item 6): Martin Gardner's game (Scientific American, March 1962), as the rules say it.

A 3x3 board, three pawns a side, White on the near row moves first; a pawn steps one square forward into
an empty square or takes diagonally forward; a side wins by reaching the far row, by taking every enemy
pawn, or when the side to move has no legal move.

What "boxes" counts here: the positions a learner playing one side meets with that side to move, i.e.
every position a game from the start reaches, not yet over, with the learner to move, FORCED MOVES
INCLUDED (a box with a single move), each counted once up to the left-right mirror when folded. Black
(the second player, as Gardner's HER) needs 19 such boxes (37 unfolded), White 18 (33); of them Black
has 17 (33) and White 14 (26) where there is a choice of move. Gardner gave HER 24 boxes: his count is not
derived here.
"""

from __future__ import annotations

import io
import json
import sys
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.cli import main
from sticks_tui.engine import registry
from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.hexapawn import START, HexapawnRules, reachable_positions
from sticks_tui.engine.protocol import WIN
from sticks_tui.engine.state import new_state
from sticks_tui.solve import solver_for
from sticks_tui.store import Store

RULES = HexapawnRules()
SOLVER = solver_for(RULES)
WHITE, BLACK = 0, 1


def pawns(position: str, side: str) -> int:
    return position[:9].count(side)


def canonical(position: str) -> str:
    """A position's class up to the board's symmetries the rules offer: its smallest image."""
    return min(sym.position(position) for sym in RULES.symmetries())


def faced(seat: int, fold: bool, choice_only: bool = False) -> int:
    """The boxes a learner in `seat` needs: live positions with it to move (folded or not)."""
    positions = [p for p in RULES.positions() if RULES.mover(p) == seat
                 and (len(RULES.legal_moves(p)) > 1 or not choice_only)]
    return len({canonical(p) for p in positions} if fold else set(positions))


# -- the rules as Gardner gives them -------------------------------------------------------------------

def test_the_start_three_pawns_a_side_white_on_the_near_row_to_move():
    assert RULES.start_positions() == (START,) == ("BBB...WWW:W",)
    assert RULES.position_text(START) == "B B B / . . . / W W W (White to move)"
    assert RULES.legal_moves(START) == ("a1-a2", "b1-b2", "c1-c2")  # one square straight forward
    assert RULES.mover(START) == WHITE and RULES.move_number(START) == 1


def test_a_pawn_takes_diagonally_forward_and_never_straight():
    position = "BBBW...WW:B"  # White has played a1-a2: a black pawn on b3 may take it, the one on a3 may not step
    assert RULES.legal_moves(position) == ("b3-b2", "b3xa2", "c3-c2")  # by square, a step before a take
    assert RULES.apply(position, "b3xa2") == "B.BB...WW:W"
    with pytest.raises(IllegalMove, match="cannot go to a2"):
        RULES.decode_move(position, "a3-a2")  # blocked straight ahead
    assert RULES.decode_move(position, "B3-A2") == "b3xa2"  # a take typed as a step is read as the take


@pytest.mark.parametrize(("position", "winner_words"), [
    ("WBB.B....:B", "White has won: a pawn on the far row"),
    ("..B.W.W..:W", None),  # not over: White to move
    ("...B.....:W", "Black has won: every White pawn taken"),
    ("B.BW.....:B", None),  # a3 is blocked, c3 steps
    (".B..W....:B", "White has won: Black cannot move"),  # Black's pawn is blocked and takes nothing
])
def test_a_side_wins_by_the_far_row_by_taking_every_pawn_or_when_the_other_cannot_move(position, winner_words):
    rules = RULES
    if winner_words is None:
        assert not rules.is_terminal(position) and rules.legal_moves(position)
        return
    assert rules.is_terminal(position) and rules.outcome(position) == WIN  # the side that moved last won
    assert rules.position_text(position).endswith(f"({winner_words})")


def test_black_wins_with_perfect_play():
    solver = solver_for(RULES)
    assert not solver.is_winning(START)  # White, to move, cannot force a win
    for move in RULES.legal_moves(START):  # every White opening has a Black answer that wins
        assert solver.is_winning(RULES.apply(START, move))


@lru_cache(maxsize=None)
def brute_force_wins(position: str) -> bool:
    """The side to move can force a win: some move ends the game (a win for its mover) or leaves a position
    the other side cannot force a win from. Independent of the solver's code."""
    return any(RULES.is_terminal(after) or not brute_force_wins(after)
               for after in (RULES.apply(position, m) for m in RULES.legal_moves(position)))


def test_the_solver_agrees_with_a_brute_force_search_at_every_position():
    solver = solver_for(RULES)
    assert all(solver.is_winning(p) == brute_force_wins(p) for p in RULES.positions())


# -- the boxes a learner needs: positions it faces to move, folded by the mirror ------------------------

def test_black_needs_19_boxes_folded_by_the_mirror_and_37_without():
    assert (faced(BLACK, fold=True), faced(BLACK, fold=False)) == (19, 37)


def test_white_would_need_18_boxes_folded_and_33_without():
    assert (faced(WHITE, fold=True), faced(WHITE, fold=False)) == (18, 33)


def test_forced_moves_are_counted_among_the_boxes():
    """Leaving out the positions with one legal move: 17 (33) for Black, 14 (26) for White."""
    assert (faced(BLACK, fold=True, choice_only=True), faced(BLACK, fold=False, choice_only=True)) == (17, 33)
    assert (faced(WHITE, fold=True, choice_only=True), faced(WHITE, fold=False, choice_only=True)) == (14, 26)


def test_the_positions_are_every_live_position_a_game_reaches_each_reached_after_one_number_of_moves():
    assert len(RULES.positions()) == 37 + 33 == len(RULES.hat_rows())
    assert len(reachable_positions()) == 135  # the finished ones too
    assert {RULES.move_number(p) for p in RULES.positions() if RULES.mover(p) == BLACK} == {1, 2, 3}  # HER's moves
    seen: dict[str, set[int]] = {}

    def walk(position, moves):
        seen.setdefault(position, set()).add(moves)
        for m in RULES.legal_moves(position):
            if not RULES.is_terminal(after := RULES.apply(position, m)):
                walk(after, moves + 1)

    walk(START, 0)
    assert all(len(plies) == 1 for plies in seen.values())  # so `move_number` is the position's own
    assert all(RULES.move_number(p) == min(seen[p]) // 2 + 1 for p in RULES.positions())


# -- properties of every game -------------------------------------------------------------------------

def play_out(choices: list[int]) -> list[tuple[str, str]]:
    """A game from the start, each move picked by the next choice (mod the number of moves): its (position,
    move) pairs."""
    position, played = START, []
    for choice in choices:
        if RULES.is_terminal(position):
            break
        moves = RULES.legal_moves(position)
        move = moves[choice % len(moves)]
        played.append((position, move))
        position = RULES.apply(position, move)
    return played


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=7, max_size=7))
def test_every_game_ends_within_seven_moves_and_the_last_mover_wins(choices):
    played = play_out(choices)
    last_position, last_move = played[-1]
    end = RULES.apply(last_position, last_move)
    assert len(played) <= 7 and RULES.is_terminal(end) and RULES.outcome(end) == WIN
    state = new_state(RULES)
    for _, move in played:
        state = state.play(move)
    assert state.is_over and state.winner == state.history[-1].player


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=7, max_size=7))
def test_pawns_never_increase_and_each_move_advances_one_pawn_one_row(choices):
    for position, move in play_out(choices):
        after = RULES.apply(position, move)
        side, enemy = position[10], "B" if position[10] == "W" else "W"
        assert pawns(after, side) == pawns(position, side)
        assert pawns(position, enemy) - pawns(after, enemy) == (1 if "x" in move else 0)
        rows = [i // 3 for i, (a, b) in enumerate(zip(position, after, strict=False)) if a != b and i < 9]
        assert len(rows) == 2 and abs(rows[0] - rows[1]) == 1  # one square forward, straight or diagonal
        assert after[10] == enemy  # the turn passes


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=7, max_size=7))
def test_the_mirror_maps_every_game_onto_a_game(choices):
    mirror = RULES.symmetries()[1]
    for position, move in play_out(choices):
        image = mirror.position(position)
        assert mirror.move(move) in RULES.legal_moves(image)
        assert RULES.apply(image, mirror.move(move)) == mirror.position(RULES.apply(position, move))
        assert SOLVER.is_winning(image) == SOLVER.is_winning(position)


def test_the_identity_is_the_first_symmetry():
    identity = RULES.symmetries()[0]
    assert all(identity.position(p) == p for p in RULES.positions())
    assert RULES.symmetries()[1].position("B.B.W..WW:B") == "B.B.W.WW.:B"


# -- positions and moves as text ----------------------------------------------------------------------

def test_positions_and_moves_round_trip_through_their_json():
    for p in RULES.positions():
        assert RULES.decode_position(json.loads(json.dumps(RULES.encode_position(p)))) == p
        for m in RULES.legal_moves(p):
            assert RULES.decode_move(p, json.loads(json.dumps(RULES.encode_move(m)))) == m
    assert RULES.decode_position("bbb/.../WWW : white") == START


@pytest.mark.parametrize(("value", "message"), [
    ("BBB...WWW", "ends with ':W' or ':B'"),
    ("BBB..WWW:W", "9 squares"),
    ("BBBX..WWW:W", "only W, B and '.'"),
    ("BBB.B.WWW:W", "Black has 4 pawns"),
    ("BBB...WWW:B", "No game of Hexapawn from the start reaches"),  # Black cannot move first
    (3, "is text such as"),
])
def test_a_position_no_game_reaches_is_refused_saying_why(value, message):
    with pytest.raises(IllegalMove, match=message):
        RULES.decode_position(value)


@pytest.mark.parametrize(("value", "message"), [
    ("a2-a3", "There is no White pawn on a2"),
    ("a1-a3", "cannot go to a3"),
    ("d1-d2", "names two squares"),
    (12, "is text such as"),
])
def test_a_move_the_rules_refuse_says_why(value, message):
    with pytest.raises(IllegalMove, match=message):
        RULES.decode_move(START, value)


# -- the game in the registry, the trainer and the command line ----------------------------------------

def test_hexapawn_registers_itself_and_trains_from_the_command_line(capsys):
    game = registry.entry("hexapawn")
    assert registry.entry_of(RULES) is game and game.rules_from() == RULES
    assert main(["train", "--game", "hexapawn", "--games", "3000", "--seed", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # HER plays Black, as in Gardner's article: Black's boxes only, folded by the mirror, 19 of them, each with its
    # position and counts, trained against a second learner playing White
    assert (doc["game"], doc["games"], doc["seat"], doc["positions"], doc["protocol"]) == (
        "hexapawn", 3000, "Black", 19, "classic")
    boxes = {b["position"]: b for b in doc["boxes"]}
    assert len(boxes) == 19 and set(boxes) < set(RULES.positions()) and all(p.endswith(":B") for p in boxes)
    assert all(len(b["counts"]) == len(b["moves"]) >= 1 for b in boxes.values())
    assert sum(map(sum, (b["counts"] for b in boxes.values()))) > sum(map(len, (b["moves"] for b in boxes.values())))
    # White's 18 when asked (any case); the start is White's and has two moves up to the mirror
    assert main(["train", "--game", "hexapawn", "--games", "300", "--seed", "1", "--json", "--seat", "white"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["seat"], doc["positions"]) == ("White", 18)
    start = {b["position"]: b for b in doc["boxes"]}[START]
    assert start["moves"] == ["a1-a2", "b1-b2"] and len(start["counts"]) == 2  # c1-c2 is a1-a2 in the mirror
    assert start["text"] == RULES.position_text(START)


def test_solve_says_white_loses_from_the_start_and_how_black_answers(capsys):
    assert main(["solve", "--game", "hexapawn", START, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"position": START, "over": False, "winning": False, "moves": []}
    assert main(["solve", "--game", "hexapawn", "bbb/w../.ww:b"]) == 0
    assert capsys.readouterr().out == ("B B B / W . . / . W W (Black to move)\n"
                                       "Yes: the player to move can force a win.\nWinning move: Black b3 takes a2.\n")


# -- the line mode (`sticks-tui play --game hexapawn`): HER plays Black, as in Gardner's article --------------

def play(capsys, monkeypatch, data, stdin: str, *argv) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    return code, out, err


HER_WINS_SEED = "5"


def test_hexapawn_against_her_is_played_recorded_and_teaches_her_brain(capsys, monkeypatch, tmp_path):
    # White (the person) opens b1-b2 (typed as the game writes it), then takes whatever is offered first
    code, out, err = play(capsys, monkeypatch, tmp_path, "b1-b2\n1\n1\n1\nn\n", "play", "--game", "hexapawn",
                          "--opponent", "learning", "--seed", HER_WINS_SEED)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == ["Welcome to Hexapawn!", "", "B B B / . . . / W W W (White to move)",
                         " 1: White a1 to a2    2: White b1 to b2    3: White c1 to c2"]
    assert lines[4] == "Player 1: Which move do you take (1-3)? b1-b2"
    assert lines[6] == "B B B / . W . / W . W (Black to move)" and lines[7].startswith("HER plays Black ")
    assert "HER's boxes drawn from this game (beads per move, after its lesson):" in lines
    assert lines[-1] == "Play again (y/n)? n"
    with Store.open(tmp_path) as store:
        (game,) = store.recent_games()
        assert (game.game, game.start, game.moves[0], game.players) == ("hexapawn", START, "b1-b2", ("Player 1", "HER"))
        # the seed gives a game HER wins: a lost game can leave her 1-ball boxes as they were (each keeps a ball of
        # every move), so "it learned" below is a promise of a won game
        assert game.loser == 0 and "HER wins." in lines
        brain = store.load_brain("HER")
        assert store.brain_record("HER") == (1, 0)
        assert store.rebuild_brain("HER") == brain != brain.__class__(brain.rules)  # it learned, as stored


def test_a_move_neither_numbered_nor_legal_is_asked_again(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "9\na1-a3\n1\n", "play", "--game", "hexapawn", "--opponent",
                        "perfect")
    assert code == 0
    assert out.count("Please enter a number between 1 and 3.") == 2
    assert "Hexapawn Perfect AI plays Black b3 takes a2." in out  # the perfect answer to a1-a2


def test_the_line_mode_plays_the_apps_her_black_brain_as_black_and_teaches_it(capsys, monkeypatch, tmp_path):
    """The app's HER is Black's 19 boxes (a brain of one side): the line mode plays her as Black, saying so when
    --ai-first asks for White, and the game's lesson goes to that brain as stored."""
    assert main(["--data-dir", str(tmp_path), "train", "--game", "hexapawn", "--brain", "HER", "--games", "0"]) == 0
    capsys.readouterr()
    code, out, err = play(capsys, monkeypatch, tmp_path, "b1-b2\n1\n1\n1\nn\n", "play", "--game", "hexapawn",
                          "--opponent", "learning", "--brain", "HER", "--ai-first", "--seed", HER_WINS_SEED)
    assert code == 0
    assert err == "sticks-tui: the brain 'HER' keeps Black's boxes only: it plays Black, moving second.\n"
    assert "Player 1: Which move do you take (1-3)? b1-b2" in out and "HER plays Black " in out
    with Store.open(tmp_path) as store:
        brain = store.load_brain("HER")
        assert (brain.seat, len(brain.positions), store.brain_record("HER")) == (1, 19, (1, 0))
        assert brain != brain.fresh()  # she won, and learned it
