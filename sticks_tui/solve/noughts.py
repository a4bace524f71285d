"""Noughts and crosses solved exactly: minimax over every reachable board (5,478 of them).

`value(board)` is the result the player to move can force, +1 win, 0 draw, -1 loss, against any
defence; `best_squares(board)` are the squares (1-9) that force it. Finished boards have a value
too (-1 when the last move made three in a row: the player to move has lost; 0 for a full board)
and no best squares. The tests hold this to a brute-force search without memory.
"""

from __future__ import annotations

from sticks_tui.engine.noughts import (SQUARE_NAMES, NoughtsError, NoughtsRules, board_rows, empty_squares,
                                       has_line, is_over, parse_board, place, reachable_boards, to_move)

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


class NoughtsSolution:
    """The minimax value and the best squares of every reachable board."""

    def __init__(self) -> None:
        self.rules = NoughtsRules()
        self._value: dict[str, int] = {}
        self._best: dict[str, tuple[int, ...]] = {}
        # fullest boards first, so every board's children are known when it is reached
        for board in sorted(reachable_boards(), key=lambda b: b.count(".")):
            if is_over(board):
                self._value[board] = -1 if has_line(board, "X") or has_line(board, "O") else 0
                self._best[board] = ()
                continue
            scores = {sq: -self._value[place(board, sq)] for sq in empty_squares(board)}
            top = max(scores.values())
            self._value[board] = top
            self._best[board] = tuple(sq for sq, v in scores.items() if v == top)

    def _known(self, board) -> str:
        if board in self._value:
            return board
        return parse_board(board)  # raises BadBoard with the reason

    def value(self, board) -> int:
        """+1, 0 or -1: what the player to move forces from `board`."""
        return self._value[self._known(board)]

    def best_squares(self, board) -> tuple[int, ...]:
        """The squares (1-9, in order) that force `value(board)`; empty at a finished board."""
        return self._best[self._known(board)]

    # -- what every solver of the protocol answers -------------------------------------------------

    def winning_moves(self, position) -> tuple[int, ...]:
        return self.best_squares(position) if self.value(position) == 1 else ()

    def is_winning(self, position) -> bool:
        return self.value(position) == 1

    def perfect_move(self, position) -> int:
        best = self.best_squares(position)
        if not best:
            raise NoughtsError("The game is over: there is no move to make.")
        return best[0]

    def answer(self, board) -> tuple[dict, str]:
        """What `sticks-tui solve --game noughts` says: {"board", "to_move", "over", "value": "win"|"draw"|
        "loss", "best": [squares]}, and in words: the board, then the value for the player to move with best
        play on both sides and the best squares."""
        board = self._known(board)
        value = VALUE_WORDS[self.value(board)]
        best = list(self.best_squares(board))
        mover = to_move(board)
        over = is_over(board)
        doc = {"board": board, "to_move": mover, "over": over, "value": value, "best": best}
        lines = [" ".join(row) for row in board_rows(board)]
        if over:
            winner = "X" if has_line(board, "X") else "O" if has_line(board, "O") else None
            lines.append(f"The game is over: {winner} has three in a row." if winner else "The game is over: a draw.")
            return doc, "\n".join(lines)
        outcome = {"win": f"{mover} wins", "draw": "a draw", "loss": f"{mover} loses"}[value]
        lines.append(f"{mover} to move: {outcome} with best play on both sides.")
        lines.append("Best: " + ", ".join(f"square {s} ({SQUARE_NAMES[s - 1]})" for s in best) + ".")
        return doc, "\n".join(lines)


_SOLUTION: NoughtsSolution | None = None


def solve_noughts() -> NoughtsSolution:
    """The one solution (built once, in about a tenth of a second)."""
    global _SOLUTION
    if _SOLUTION is None:
        _SOLUTION = NoughtsSolution()
    return _SOLUTION
