"""The players and the game driver: a floor above the rules and the solvers (a perfect player asks a
solver), below the store and the UI. Pure Python: no UI here."""
