"""The Textual app. Nothing in the core imports from here."""
