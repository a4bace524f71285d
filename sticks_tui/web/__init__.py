"""`sticks-tui serve`: the app in a browser, one app process per tab, one shared database.

Everything here needs the optional extra `pip install 'sticks-tui[web]'` (textual-serve, aiohttp,
jinja2); the rest of sticks-tui never imports this package.
"""

from __future__ import annotations

#: The one line `serve` prints when the extra is missing.
INSTALL_HINT = ("sticks-tui serve: the browser server needs the 'web' extra; "
                "install it with: pip install 'sticks-tui[web]'")
