"""Labs kept in the database (issue 20): each finished learning lab, so it can be listed, shown again and
exported.

A lab is kept as its document, the JSON `learn.lab.LabResult.as_json` makes (game, size, protocol, seeds,
first seed, cap, seconds, and for each learner its settings, games to mastery per seat, final agreement,
seconds and its curve: median and 10th-90th percentile over seeds at every checkpoint), beside a few
columns for the listing. The store takes the document as plain data: it never runs a lab, and a lab
cancelled is never given to it. Every save is one `BEGIN IMMEDIATE` transaction (`Store._write`), so two
processes keeping labs at once wait for each other (busy_timeout) and each gets an id of its own.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime

from sticks_tui.store.connection import now, parse_time
from sticks_tui.store.errors import StoreError

#: What a kept lab's document must hold (the rest is kept as it is).
REQUIRED = {"game": str, "size": int, "protocol": str, "seeds": int, "first_seed": int, "cap": int,
            "seconds": (int, float), "learners": list}
LEARNER_REQUIRED = {"name": str, "spec": str, "settings": dict, "games_to_mastery": dict, "curve": list}


@dataclass(frozen=True)
class KeptLab:
    """A lab in the database: its id, when it finished, what it raced, and (from `Store.lab`) its document."""

    id: int
    finished_at: datetime
    game: str
    size: int
    protocol: str
    learners: tuple[str, ...]  # each learner as it is typed ("hats:reward=3")
    seeds: int
    first_seed: int
    cap: int
    seconds: float
    doc: dict | None = None  # LabResult.as_json(); None in a listing

    @property
    def title(self) -> str:
        """One line for a list: 'lab 3, 2026-11-26 14:05: sticks 100, hats q mc, 20 seeds, cap 1,000,000'."""
        when = self.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
        return (f"lab {self.id}, {when}: {self.game} {self.size}, {' '.join(self.learners)}, "
                f"{self.seeds} seed{'s' if self.seeds != 1 else ''}, cap {self.cap:,}")


def check_lab_doc(doc) -> dict:
    """The document of a finished lab, checked enough that it lists, shows and exports; StoreError if not."""
    if not isinstance(doc, dict):
        raise StoreError("A lab to keep is a JSON object (LabResult.as_json()). Nothing was kept.")
    for key, kind in REQUIRED.items():
        value = doc.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StoreError(f"A lab to keep needs {key!r}; it has {value!r}. Nothing was kept.")
    if not doc["learners"]:
        raise StoreError("A lab to keep has at least one learner. Nothing was kept.")
    for learner in doc["learners"]:
        for key, kind in LEARNER_REQUIRED.items():
            if not isinstance(learner, dict) or not isinstance(learner.get(key), kind):
                raise StoreError(f"Each learner of a lab to keep needs {key!r}. Nothing was kept.")
    if not math.isfinite(float(doc["seconds"])):
        raise StoreError("A lab to keep took a finite number of seconds. Nothing was kept.")
    return doc


def _row_lab(row, with_doc: bool) -> KeptLab:
    (lab_id, finished, game, size, protocol, learners, seeds, first, cap, seconds, *rest) = row
    doc = json.loads(rest[0]) if with_doc else None
    return KeptLab(lab_id, parse_time(finished), game, size, protocol, tuple(json.loads(learners)), seeds, first,
                   cap, seconds, doc)


_COLUMNS = "id, finished_at, game, size, protocol, learners, seeds, first_seed, cap, seconds"


class LabsMixin:
    """`Store`'s labs: keep a finished one, list them (newest first), read one back."""

    def save_lab(self, doc: dict) -> KeptLab:
        """Keep a finished lab (its `LabResult.as_json()`); returns it with its id and when it was kept."""
        doc = check_lab_doc(doc)
        try:
            text = json.dumps(doc, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"A lab to keep is plain JSON ({exc}). Nothing was kept.") from None
        learners = json.dumps([learner["spec"] for learner in doc["learners"]])
        finished = now()
        with self._write("keep the lab") as conn:
            cursor = conn.execute(
                "INSERT INTO labs (finished_at, game, size, protocol, learners, seeds, first_seed, cap, seconds, "
                "result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (finished, doc["game"], doc["size"], doc["protocol"], learners, doc["seeds"], doc["first_seed"],
                 doc["cap"], float(doc["seconds"]), text))
            lab_id = cursor.lastrowid
        return KeptLab(lab_id, parse_time(finished), doc["game"], doc["size"], doc["protocol"],
                       tuple(json.loads(learners)), doc["seeds"], doc["first_seed"], doc["cap"],
                       float(doc["seconds"]), doc)

    def list_labs(self, limit: int | None = None) -> list[KeptLab]:
        """The kept labs, newest first (without their documents)."""
        with self._read("list the labs") as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM labs ORDER BY id DESC LIMIT ?",
                                (-1 if limit is None else limit,)).fetchall()
        return [_row_lab(r, False) for r in rows]

    def lab(self, lab_id: int) -> KeptLab | None:
        """The kept lab with this id, with its document; None when there is none."""
        with self._read("read the lab") as conn:
            row = conn.execute(f"SELECT {_COLUMNS}, result FROM labs WHERE id = ?", (lab_id,)).fetchone()
        return None if row is None else _row_lab(row, True)

    def lab_count(self) -> int:
        with self._read("count the labs") as conn:
            return conn.execute("SELECT COUNT(*) FROM labs").fetchone()[0]


__all__ = ["KeptLab", "LabsMixin", "check_lab_doc"]
