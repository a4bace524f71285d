"""Where sticks-tui keeps its files, and how it keeps a bad file aside: the one place for both.

- The data directory (records and brains, `sticks-tui.db`): `--data-dir`, else $STICKS_TUI_DATA_DIR,
  else the platform's user data directory (platformdirs).
- The config directory (`settings.toml`): `--config-dir`, else $STICKS_TUI_CONFIG_DIR, else the
  platform's user config directory.
- `keep_aside`: a damaged database or a bad settings file is renamed beside itself with a label and a
  timestamp, never over another file and never deleted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

APP_NAME = "sticks-tui"
ENV_DATA_DIR = "STICKS_TUI_DATA_DIR"
ENV_CONFIG_DIR = "STICKS_TUI_CONFIG_DIR"


def _chosen(directory: str | os.PathLike | None, env: str, platform_dir: str) -> Path:
    """The directory given (the command-line option), else the environment's, else the platform's."""
    if directory is not None and str(directory) != "":
        return Path(directory).expanduser()
    value = os.environ.get(env)
    if value:
        return Path(value).expanduser()
    import platformdirs

    return Path(getattr(platformdirs, platform_dir)(APP_NAME, appauthor=False))


def resolve_data_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The data directory: the argument (`--data-dir`), else $STICKS_TUI_DATA_DIR, else the user data dir."""
    return _chosen(data_dir, ENV_DATA_DIR, "user_data_dir")


def config_dir(directory: str | os.PathLike | None = None) -> Path:
    """The config directory: the argument (`--config-dir`), else $STICKS_TUI_CONFIG_DIR, else the user config dir."""
    return _chosen(directory, ENV_CONFIG_DIR, "user_config_dir")


def keep_aside(path: Path, label: str, companions: Iterable[str] = ()) -> Path:
    """Rename `path` to `<name>.<label>-<timestamp>` beside it (`-2`, `-3`, ... when that name is taken,
    even by a dangling link), and each existing companion `<name><suffix>` (a database's -wal and -shm)
    to the new name plus the same suffix; return the new path. Nothing is deleted or written over."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while os.path.lexists(target) or any(os.path.lexists(target.with_name(target.name + s)) for s in companions):
        n += 1
        target = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    os.rename(path, target)
    for suffix in companions:
        side = path.with_name(path.name + suffix)
        if os.path.lexists(side):
            os.rename(side, target.with_name(target.name + suffix))
    return target
