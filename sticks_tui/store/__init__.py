"""What sticks-tui remembers: players' records, every finished game, and named brains (the hats).

One SQLite database file in the data directory (`--data-dir`, else `$STICKS_TUI_DATA_DIR`, else the
platform's user data directory). No UI import here: the app, the classic line mode and the command
line all use the same `Store`.
"""

from sticks_tui.store.brainfile import BRAIN_FORMAT, BRAIN_VERSION, MAX_BRAIN_FILE_BYTES
from sticks_tui.store.db import (
    DB_FILENAME,
    ENV_DATA_DIR,
    SCHEMA_VERSION,
    BrainInfo,
    GameRecord,
    InvalidName,
    PlayerRecord,
    RecordedGame,
    SeatLearning,
    Store,
    StoreError,
    TeacherOnly,
    name_key,
    resolve_data_dir,
    validate_name,
)

__all__ = [
    "BRAIN_FORMAT",
    "BRAIN_VERSION",
    "DB_FILENAME",
    "ENV_DATA_DIR",
    "MAX_BRAIN_FILE_BYTES",
    "SCHEMA_VERSION",
    "BrainInfo",
    "GameRecord",
    "InvalidName",
    "PlayerRecord",
    "RecordedGame",
    "SeatLearning",
    "Store",
    "StoreError",
    "TeacherOnly",
    "name_key",
    "resolve_data_dir",
    "validate_name",
]
