"""The one rule for telling names apart: a name's key is its NFKC form, case-folded.

"Straße" and "STRASSE", "Émile" and "émile", "Øre" and "øre", "ΣΊΣΥΦΟΣ" and "σίσυφος" are the same
name. The store keeps the name as typed for display and compares, looks up and keeps names unique
only by this key (a UNIQUE index on it), in every query.
"""

from __future__ import annotations

import unicodedata

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
