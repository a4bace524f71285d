"""Noughts and crosses rules (issue 18): boards, turns, outcomes, words and encoding; every refusal
is a NoughtsError with a readable message."""

from __future__ import annotations

from itertools import product

import pytest

from sticks_tui.engine.noughts import (BadBoard, NoughtsError, NoughtsRules, NoughtsState, board_problem,
                                       parse_board, reachable_boards)
from sticks_tui.engine.rules import IllegalMove

RULES = NoughtsRules()


def test_reachable_boards_are_the_known_5478_and_4520_go_on():
    assert len(reachable_boards()) == 5478
    assert len(RULES.positions()) == 4520
    assert RULES.start_positions() == (".........",)


def test_a_board_is_valid_exactly_when_a_game_reaches_it():
    reachable = reachable_boards()
    for cells in product("XO.", repeat=9):
        board = "".join(cells)
        assert (board_problem(board) is None) == (board in reachable), board


@pytest.mark.parametrize("text, words", [
    ("XXXOO", "9 characters"),
    ("XXXOO....." , "9 characters"),
    ("XX0OO....", "'0'"),
    ("OO.......", "O has more marks than X"),
    ("XXX......", "X has 3 more marks than O"),
    ("XXXOOO...", "Both X and O have three in a row"),
    ("XXXXOOO.O", "O moved after it"),
    ("OOOXX.XX.", "X moved after it"),
])
def test_malformed_boards_are_refused_with_the_reason(text, words):
    with pytest.raises(BadBoard, match=words.replace("(", r"\(")) as info:
        parse_board(text)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, IllegalMove) and isinstance(info.value, ValueError)


def test_rows_may_be_separated_and_marks_lower_case():
    assert parse_board("x.o/.x./..o") == "X.O.X...O"


def test_moves_take_turns_and_a_taken_square_is_refused():
    state = NoughtsState().play(5).play(1)
    assert state.board == "O...X...."
    assert state.to_move == "X"
    with pytest.raises(NoughtsError, match=r"Square 5 \(centre\) is taken by X"):
        state.play(5)
    with pytest.raises(NoughtsError, match="It is X's turn, not O's"):
        state.play(9, "O")
    with pytest.raises(NoughtsError, match="from 1 to 9"):
        state.play(10)
    with pytest.raises(NoughtsError, match="from 1 to 9"):
        state.play(True)
    assert state.play(9, "X").history == (5, 1, 9)


def test_a_finished_game_takes_no_move_and_has_an_outcome():
    won = NoughtsState("XX.OO....").play(3)
    assert won.is_over and won.winner == "X" and won.legal_moves == ()
    with pytest.raises(NoughtsError, match="The game is over"):
        won.play(6)
    assert RULES.outcome(won.board) == 1
    assert RULES.outcome("XOXXOOOXX") == 0
    with pytest.raises(NoughtsError, match="not over"):
        RULES.outcome("X........")


def test_protocol_moves_apply_and_terminal():
    assert RULES.legal_moves("XO.......") == (3, 4, 5, 6, 7, 8, 9)
    assert RULES.apply("XO.......", 5) == "XO..X...."
    assert RULES.is_terminal("XXXOO....") and not RULES.is_terminal("XX.OO....")
    assert RULES.legal_moves("XXXOO....") == ()


def test_words_for_a_person():
    assert RULES.position_text("XX.OO.X..") == "X X . / O O . / X . . (O to move)"
    assert RULES.position_text("XXXOO....") == "X X X / O O . / . . . (X has three in a row)"
    assert RULES.position_text("XOXXOOOXX") == "X O X / X O O / O X X (a draw)"
    assert RULES.move_text("XX.OO....", 3) == "X in square 3 (top right)"
    assert RULES.move_text("X........", 5) == "O in square 5 (centre)"


def test_encoding_round_trips_and_refuses_what_is_not_a_position():
    for board in RULES.positions()[:200]:
        assert RULES.decode_position(RULES.encode_position(board)) == board
        for move in RULES.legal_moves(board):
            assert RULES.decode_move(board, RULES.encode_move(move)) == move
    for value in (None, 7, ["X"], "XXXXXXXXX"):
        with pytest.raises(ValueError):
            RULES.decode_position(value)
    with pytest.raises(ValueError, match="taken"):
        RULES.decode_move("X........", 1)
    with pytest.raises(ValueError, match="from 1 to 9"):
        RULES.decode_move("X........", "2")


def test_the_game_follows_the_protocol_structure():
    """The conformance test's structural checks (test_conformance.py lists games that have
    `last_mover_wins`; noughts has draws, so it joins there once the protocol has `outcome`)."""
    positions = RULES.positions()
    assert len(set(positions)) == len(positions)
    assert all(not RULES.is_terminal(p) and RULES.legal_moves(p) for p in positions)
    assert set(RULES.start_positions()) <= set(positions)
    # a learner keeps a container for every board with a choice; with one square left the move is forced
    assert set(RULES.hat_rows()) == {p for p in positions if len(RULES.legal_moves(p)) >= 2}
    known = set(positions)
    for p in positions:
        for m in RULES.legal_moves(p):
            after = RULES.apply(p, m)
            assert (after in known) is not RULES.is_terminal(after), (p, m, after)
            if RULES.is_terminal(after):
                assert RULES.outcome(after) in (0, 1)
