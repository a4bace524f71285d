"""sticks-tui: the Game of Sticks against an AI that learns from experience."""

__version__ = "0.1.0"
