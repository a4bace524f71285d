"""Sub-commands of `sticks-tui`. Each module offers `register(subparsers)`; cli.py lists them."""
