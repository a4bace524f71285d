"""The one error of the rules layer."""


class IllegalMove(ValueError):
    """A move (or a position) the rules do not allow; its message says why in plain words."""
