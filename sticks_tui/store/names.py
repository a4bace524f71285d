"""The one rule for telling names apart: a name's key is its NFKC form, case-folded; and the AIs' names.

"Straße" and "STRASSE", "Émile" and "émile", "Øre" and "øre", "ΣΊΣΥΦΟΣ" and "σίσυφος" are the same
name. The store keeps the name as typed for display and compares, looks up and keeps names unique
only by this key (a UNIQUE index on it), in every query.
"""

from __future__ import annotations

import unicodedata

from sticks_tui import vocabulary
from sticks_tui.store.errors import InvalidName


def name_key(name: str) -> str:
    """The key two names share exactly when they are the same name (NFKC, then casefold).

    A name that is not text (lone surrogates: bytes that were not valid UTF-8) has no key: InvalidName.
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidName(f"A name must be valid UTF-8 text; {name!r} is not.") from None
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded)  # casefolding can leave a non-NFKC string; close it


#: The names the app's AIs play under in the records, by opponent kind (`vocabulary`). No person may play
#: under a name whose key is one of these: the store refuses it, and so does the setup screen.
SECOND_AI_SUFFIX = vocabulary.SECOND_AI_SUFFIX
ai_names = vocabulary.every_ai_name


def ai_name_of(name: str) -> str | None:
    """The AI's name that `name` is by the name rule ("Ｐerfect AI" -> "Perfect AI"), or None."""
    key = name_key(name)
    return next((n for n in ai_names() if name_key(n) == key), None)
