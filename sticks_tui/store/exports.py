"""Exports for class (issue 10): the hats table, the learning curve, the game list and one game's moves,
as CSV or JSON text a spreadsheet or a script can read.

Each export carries a marker so `safefile` recognises an earlier export of the same kind (and so
replaces it without --force, while refusing someone's notes):
- JSON: a top-level object {"format": "sticks-tui-export", "kind": "hats", "version": 1, ...}.
- CSV: its header row, which is fixed for each kind (`CSV_HEADERS`; the hats table has one
  balls_b and chance_b column per ball). A header row keeps the file clean for a spreadsheet.

The text functions take plain data (no database); `build_export` reads what they need from a Store.
Text cells that a spreadsheet would run as a formula (starting with = + - @) get a leading
apostrophe in CSV, the usual guard: a pupil's name is never executed.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sticks_tui.store.errors import StoreError

EXPORT_FORMAT = "sticks-tui-export"
EXPORT_VERSION = 1
KINDS: tuple[str, ...] = ("hats", "curve", "games", "game", "lab")
FORMATS: tuple[str, ...] = ("csv", "json")
#: The CSV header row of each kind; the hats table's depends on the most sticks a move (`hats_header`).
CSV_HEADERS: dict[str, tuple[str, ...]] = {
    "curve": ("games", "agreement", "win", "win_first", "win_second", "scope"),
    "games": ("id", "played_at", "game", "start", "opponent", "player1", "player2", "ai_seats", "moves",
              "first", "winner", "loser", "brain", "resigned"),
    "game": ("move", "player", "pile", "took", "left"),
    # a learning lab: one row per learner per checkpoint of its curve, with the learner's row of the table
    "lab": ("learner", "spec", "games", "agreement_median", "agreement_p10", "agreement_p90", "vs_perfect_median",
            "vs_perfect_p10", "vs_perfect_p90", "vs_perfect_first", "vs_perfect_second", "mastery_median",
            "mastery_p90", "mastery_never", "first_median", "second_median", "seeds", "cap", "final_agreement",
            "seconds", "learns_from", "held"),
}
#: Headers of earlier versions, still recognised as that kind (so an earlier export is replaced, not refused).
_OLD_CSV_HEADERS: dict[str, tuple[str, ...]] = {
    "curve": ("games", "agreement", "win", "win_first", "win_second"),  # before the scope column
    "lab": ("learner", "spec", "games", "agreement_median", "agreement_p10", "agreement_p90", "vs_perfect_median",
            "vs_perfect_p10", "vs_perfect_p90", "vs_perfect_first", "vs_perfect_second", "mastery_median",
            "mastery_p90", "mastery_never", "first_median", "second_median", "seeds", "cap", "final_agreement",
            "seconds"),  # before learns_from and held (issue 35)
}
WHAT = {"hats": "hats table", "curve": "learning curve", "games": "game list", "game": "game's moves",
        "lab": "learning lab"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_JSON_MARKER = re.compile(r'\s*\{\s*"format"\s*:\s*"' + EXPORT_FORMAT + r'"\s*,\s*"kind"\s*:\s*"(\w+)"')


@dataclass(frozen=True)
class ExportText:
    kind: str
    format: str
    text: str
    filename: str  # a suggested file name, e.g. "hats-default.csv"


def _check(kind: str, fmt: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"An export is one of {', '.join(KINDS)}, not {kind!r}.")
    if fmt not in FORMATS:
        raise ValueError(f"The export format is csv or json, not {fmt!r}.")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "" if not math.isfinite(value) else f"{value:.6g}"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _json(kind: str, body: dict) -> str:
    doc = {"format": EXPORT_FORMAT, "kind": kind, "version": EXPORT_VERSION, "exported_at": _now(), **body}
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _finite(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


# -- the hats table ---------------------------------------------------------------------------------------
def hats_rows(hats) -> list[dict]:
    """One dict per hat: counts and chances per ball, the AI's move (None on a tie at the top), the perfect
    move(s), whether the position is winning for the player facing it, and whether the AI is right there."""
    from sticks_tui.solve import hat_analysis

    analysis = hat_analysis(hats.rules, hats.counts)  # the game's own (sticks': `solve.sticks_hats.analyse`)
    if analysis is None:
        raise ValueError(f"{hats.rules.name} has no table of numbered hats: its table is one row per position.")
    rows = []
    for v in analysis.hats:
        top = max(v.counts)
        tied = sum(1 for c in v.counts if c == top) > 1
        rows.append({
            "hat": v.hat,
            "balls": list(v.counts),
            "chances": [round(p, 6) for p in v.probabilities],
            "ai_move": None if tied else v.best_move,
            "perfect_moves": list(v.optimal_moves),
            "winning": v.winning,
            "right": v.agrees,
        })
    return rows


def hats_header(max_take: int) -> list[str]:
    """hat, balls_1..balls_k, chance_1..chance_k, ai_move, perfect_move, winning, right."""
    balls = range(1, max_take + 1)
    return ["hat", *(f"balls_{b}" for b in balls), *(f"chance_{b}" for b in balls),
            "ai_move", "perfect_move", "winning", "right"]


#: The CSV header of the table of a brain of any other game than sticks: one row per (position, move).
POSITIONS_HEADER: tuple[str, ...] = ("position", "move", "count", "chance", "ai_move", "perfect", "value", "right")
VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def _numbered(hats) -> bool:
    """A brain of numbered hats with a ball per take (sticks'), whose table is `hats_rows`'."""
    from sticks_tui.engine import registry

    game = registry.find(hats.rules)
    return game is not None and game.chances_vs_perfect


def positions_export(brain: str, hats, fmt: str) -> str:
    """The table of a brain of any game (`learn.analysis.analyse_brain`): per position as the brain keeps it
    (folded), each move's count and chance, the AI's likeliest move (none on a tie), the perfect moves (those
    that keep the position's value), the value for the player to move (win, draw, loss) and whether it is right."""
    from sticks_tui.engine import registry
    from sticks_tui.learn.analysis import analyse_brain

    _check("hats", fmt)
    rules = hats.rules
    result = analyse_brain(hats)
    encode = rules.encode_move
    rows = [{"position": rules.encode_position(v.position), "moves": [encode(m) for m in v.moves],
             "counts": list(v.counts), "chances": [round(p, 6) for p in v.probabilities],
             "ai_move": None if v.tie or v.likeliest is None else encode(v.likeliest),
             "perfect_moves": [encode(m) for m in v.perfect], "value": VALUE_WORDS[v.value], "right": v.agrees}
            for v in result.positions]
    if fmt == "json":
        return _json("hats", {"brain": brain, "game": registry.name_of(rules), "seat": hats.seat,
                              "scope": result.scope, "positions": rows})

    def cell(value):
        return value if isinstance(value, int | str) else json.dumps(value, separators=(",", ":"))

    body = [[cell(r["position"]), cell(move), count, chance, move == r["ai_move"], move in r["perfect_moves"],
             r["value"], r["right"]]
            for r in rows for move, count, chance in zip(r["moves"], r["counts"], r["chances"], strict=True)]
    return _csv(POSITIONS_HEADER, body)


def hats_export(brain: str, hats, fmt: str) -> str:
    """The hats table of `hats`: a sticks brain's one row per hat (`hats_rows`), any other's one row per
    position and move (`positions_export`)."""
    if not _numbered(hats):
        return positions_export(brain, hats, fmt)
    _check("hats", fmt)
    rows = hats_rows(hats)
    k = hats.max_take
    if fmt == "json":
        rule = hats.rule
        return _json("hats", {
            "brain": brain, "size": hats.size, "max_take": k,
            "rule": {"start_balls": rule.start_balls, "win_reward": rule.win_reward,
                     "loss_penalty": rule.loss_penalty, "floor": rule.floor,
                     **({"draw_reward": rule.draw_reward} if rule.draw_reward else {})},
            "hats": rows})
    header = hats_header(k)

    def pad(values, blank=None):
        return list(values) + [blank] * (k - len(values))

    body = [[r["hat"], *pad(r["balls"]), *pad(r["chances"]), r["ai_move"],
             " ".join(map(str, r["perfect_moves"])), r["winning"], r["right"]] for r in rows]
    return _csv(header, body)


# -- the learning curve -----------------------------------------------------------------------------------
def curve_rows(points: Sequence[Sequence]) -> list[dict]:
    """Normalise curve points: (games, agreement, win) or (games, agreement, win_first, win_second).

    `win` is the chance of beating the perfect player averaged over the two seats; with four values it is
    the mean of the two, and with three the seats are unknown (None). NaN becomes None.
    """
    rows = []
    for point in points:
        if dataclasses.is_dataclass(point):
            point = (point.games, point.agreement, point.win_first, point.win_second)
        if len(point) == 3:
            games, agreement, win = point
            first = second = None
        elif len(point) == 4:
            games, agreement, first, second = point
            first, second = _finite(first), _finite(second)
            win = None if first is None or second is None else (first + second) / 2
        else:
            raise ValueError(f"A curve point has 3 or 4 values, not {len(point)}.")
        rows.append({"games": int(games), "agreement": _finite(agreement), "win": _finite(win),
                     "win_first": first, "win_second": second})
    return rows


def curve_export(brain: str, points: Sequence[Sequence], fmt: str, heap: int | None = None,
                 game: str | None = None) -> str:
    """The curve's points and what they were scored over: `heap` is the number kept with the run's curve (its
    game's `curve_size`: sticks' heap, the figures being over heaps 2..heap; None when not known, for a curve
    kept before it was stored, or a game that keeps none), said in the words of `game` (the brain's; None: the
    first game's, `registry.first_name`). In JSON `heap` and `scope` ("heaps 2-20"), in CSV a `scope` column on
    every row (blank when not known)."""
    from sticks_tui.engine import registry

    _check("curve", fmt)
    rows = curve_rows(points)
    scope = registry.entry(registry.first_name() if game is None else game).curve_scope_words(heap)
    if fmt == "json":
        return _json("curve", {"brain": brain, "heap": heap, "scope": scope, "points": rows})
    return _csv(CSV_HEADERS["curve"], ([*(r[c] for c in CSV_HEADERS["curve"][:-1]), scope] for r in rows))


# -- games ------------------------------------------------------------------------------------------------
def first_mover(game) -> int:
    """The seat (0 or 1) that moved first. Records keep the loser and the moves, and turns alternate:
    the rules say whether the last mover won or lost (in sticks the loser took the last stick, in
    Nim the winner took the last coin)."""
    from sticks_tui.store.records import replay

    return replay(game.game, game.start, game.moves, game.loser, first=getattr(game, "starter", None),
                  resigned=getattr(game, "resigned", False)).first


def _when(dt) -> str | None:
    return dt.isoformat() if dt is not None else None


def game_summary(game) -> dict:
    return {
        "id": game.id, "played_at": _when(game.played_at), "game": game.game, "start": game.start,
        "opponent": game.opponent, "player1": game.players[0], "player2": game.players[1],
        "ai_seats": [s + 1 for s in game.ai_seats], "moves": list(game.moves),
        "first": game.players[first_mover(game)], "winner": game.winner_name,  # None (empty in CSV): a draw
        "loser": game.loser_name, "brain": game.brain,
        "resigned": bool(getattr(game, "resigned", False)),  # the loser resigned (MENACE's empty box)
    }


def games_export(games: Sequence, fmt: str) -> str:
    _check("games", fmt)
    rows = [game_summary(g) for g in games]
    if fmt == "json":
        return _json("games", {"games": rows})
    return _csv(CSV_HEADERS["games"], ([*(r[c] for c in CSV_HEADERS["games"][:7]),
                                        " ".join(map(str, r["ai_seats"])), " ".join(map(str, r["moves"])),
                                        r["first"], r["winner"], r["loser"], r["brain"],
                                        "yes" if r["resigned"] else ""] for r in rows))


def game_moves(game) -> list[dict]:
    """Move by move: who moved, the pile (Nim, from 1; None in a one-pile game), how many they took,
    what is left (the position as its JSON value)."""
    from sticks_tui.engine import registry
    from sticks_tui.store.records import replay

    played = replay(game.game, game.start, game.moves, game.loser, first=getattr(game, "starter", None),
                    resigned=getattr(game, "resigned", False))
    kind, rules = registry.entry(game.game), played.rules
    moves = []
    for i, (seat, before, move) in enumerate(played.turns, start=1):
        pile, took = kind.export_move(rules, move)
        moves.append({"move": i, "player": game.players[seat], "pile": pile, "took": took,
                      "left": rules.encode_position(rules.apply(before, move))})
    return moves


def game_export(game, fmt: str) -> str:
    _check("game", fmt)
    moves = game_moves(game)
    if fmt == "json":
        return _json("game", {"game": game_summary(game), "moves": moves})
    return _csv(CSV_HEADERS["game"], ([m["move"], m["player"], m["pile"], m["took"],
                                       ",".join(map(str, m["left"])) if isinstance(m["left"], list) else m["left"]]
                                      for m in moves))


# -- a learning lab --------------------------------------------------------------------------------------
def lab_rows(doc: dict) -> list[list]:
    """The lab's table and curves as CSV rows (`CSV_HEADERS["lab"]`): for each learner, in the order raced,
    one row per checkpoint of its curve (median and 10th-90th percentile over seeds), each row carrying
    the learner's figures of the table (games to mastery both seats together, then the medians moving first
    and second; `never` counts the seeds not there within the cap; whether each game teaches it from one
    seat or both; `held`, the seeds still unbeatable at the end: empty for a lab kept before issue 35)."""
    rows = []
    for i, learner in enumerate(doc["learners"], start=1):
        both = learner["games_to_mastery"]
        by_seat = learner.get("games_to_mastery_by_seat", {})
        table = [both.get("median"), both.get("p90"), both.get("never"), by_seat.get("first", {}).get("median"),
                 by_seat.get("second", {}).get("median"), doc["seeds"], doc["cap"],
                 _finite(learner.get("final_agreement")), _finite(learner.get("seconds")),
                 learner.get("learns_from"), learner.get("held")]
        for point in learner["curve"]:
            agreement, vs = point["agreement"], point["vs_perfect"]
            rows.append([i, learner["spec"], point["games"], _finite(agreement["median"]), _finite(agreement["p10"]),
                         _finite(agreement["p90"]), _finite(vs["median"]), _finite(vs["p10"]), _finite(vs["p90"]),
                         _finite(point.get("vs_perfect_first")), _finite(point.get("vs_perfect_second")), *table])
    return rows


def lab_export(doc: dict, fmt: str, *, lab_id: int | None = None, finished_at: str | None = None) -> str:
    """A lab (`LabResult.as_json()`, as kept): JSON is the whole of it (settings, table figures, curves) with the
    lab's id and when it finished; CSV its table and curves, one row per learner per checkpoint."""
    _check("lab", fmt)
    if fmt == "json":
        return _json("lab", {"lab_id": lab_id, "finished_at": finished_at, **doc})
    return _csv(CSV_HEADERS["lab"], lab_rows(doc))


def find_lab(store, lab_id: int | None = None):
    """The kept lab with this id (None: the latest), or StoreError."""
    if lab_id is None:
        latest = store.list_labs(limit=1)
        if not latest:
            raise StoreError("No lab is kept yet: run one (`sticks-tui lab`, or the app's learning lab).")
        lab_id = latest[0].id
    kept = store.lab(lab_id)
    if kept is None:
        raise StoreError(f"There is no lab with id {lab_id}; `sticks-tui lab --list` lists them.")
    return kept


# -- recognising our own files ----------------------------------------------------------------------------
def export_kind(head: bytes) -> str | None:
    """Which of our exports these bytes (a file's start) are, or None when they are not one of ours."""
    text = head[:4096].decode("utf-8", errors="replace")  # the marker is at the start; a cut character is fine
    if text.lstrip().startswith("{"):
        # our JSON always opens with the marker, so a long file cut short for reading still shows it
        match = _JSON_MARKER.match(text)
        return match.group(1) if match and match.group(1) in KINDS else None
    first = text.split("\n", 1)[0].rstrip("\r")
    try:
        header = next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return None
    k = (len(header) - 5) // 2
    if (k >= 1 and header == hats_header(k)) or tuple(header) == POSITIONS_HEADER:
        return "hats"
    for kind, fixed in CSV_HEADERS.items():
        if tuple(header) == fixed or tuple(header) == _OLD_CSV_HEADERS.get(kind):
            return kind
    return None


def recogniser(kind: str):
    """For safefile: an existing file is ours to replace when it is an earlier export of this kind."""
    return lambda head: export_kind(head) == kind


def suggested_filename(kind: str, fmt: str, *, brain: str | None = None, game_id: int | None = None,
                       lab_id: int | None = None) -> str:
    _check(kind, fmt)
    stem = {"hats": f"hats-{brain}", "curve": f"curve-{brain}", "games": "games", "game": f"game-{game_id}",
            "lab": "lab" if lab_id is None else f"lab-{lab_id}"}[kind]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem)
    return f"{safe}.{fmt}"


def default_export_dir() -> Path:
    """Where the app proposes to write an export: the user's Documents folder if there is one, else home."""
    try:
        import platformdirs

        documents = Path(platformdirs.user_documents_dir())
        if documents.is_dir():
            return documents
    except Exception:  # no home directory known: fall back below
        pass
    return Path.home() if Path.home().is_dir() else Path.cwd()


def default_export_path(export: ExportText) -> Path:
    """The proposed path for an export (the user can see and change it before writing)."""
    return default_export_dir() / export.filename


def write_export(path: str | os.PathLike, text: str, kind: str, *, force: bool = False,
                 protected: Iterable[str | os.PathLike | None] = ()) -> Path:
    """Write an export through safefile: an earlier export of the same kind is replaced, anything else refused."""
    from sticks_tui.store.safefile import write_file

    if kind not in KINDS:
        raise ValueError(f"An export is one of {', '.join(KINDS)}, not {kind!r}.")
    return write_file(path, text, what=f"{WHAT[kind]} export", recognise=recogniser(kind), force=force,
                      protected=protected)


# -- from the store ---------------------------------------------------------------------------------------
def build_export(store, kind: str, fmt: str, *, brain: str = "default", game_id: int | None = None,
                 lab_id: int | None = None) -> ExportText:
    """Read what `kind` needs from `store` and make its text. StoreError when it is not there (a lab: the one
    with `lab_id`, else the latest)."""
    from sticks_tui.store.errors import validate_name

    _check(kind, fmt)
    if kind in ("hats", "curve"):
        brain = validate_name(brain)
    if kind == "hats":
        hats = store.load_brain(brain)
        info = store.brain_info(brain)
        if hats is None or info is None:
            raise StoreError(f"There is no brain called {brain!r}.")
        if hats.folds or hats.seat is not None:
            raise StoreError(f"The brain {info.name!r} is MENACE's matchboxes, not hats: `sticks-tui brain export "
                             f"{info.name!r} FILE` writes its boxes (and `sticks-tui noughts train --json` any "
                             "MENACE's). Nothing was written.")
        return ExportText(kind, fmt, hats_export(info.name, hats, fmt),
                          suggested_filename(kind, fmt, brain=info.name))
    if kind == "curve":
        info = store.brain_info(brain)
        if info is None:
            raise StoreError(f"There is no brain called {brain!r}.")
        points = store.last_training_curve(info.name)
        if not points:
            raise StoreError(f"The brain {info.name!r} has no learning curve yet: train it first.")
        return ExportText(kind, fmt, curve_export(info.name, points, fmt, store.last_training_heap(info.name),
                                                  info.game),
                          suggested_filename(kind, fmt, brain=info.name))
    if kind == "games":
        games = sorted(store.recent_games(limit=max(1, store.game_count())), key=lambda g: g.id)
        return ExportText(kind, fmt, games_export(games, fmt), suggested_filename(kind, fmt))
    if kind == "lab":
        kept = find_lab(store, lab_id)
        return ExportText(kind, fmt, lab_export(kept.doc, fmt, lab_id=kept.id, finished_at=kept.finished_at.isoformat()),
                          suggested_filename(kind, fmt, lab_id=kept.id))
    if game_id is None:
        raise ValueError("Say which game to export (its id, as in the game list).")
    game = find_game(store, game_id)
    return ExportText(kind, fmt, game_export(game, fmt), suggested_filename(kind, fmt, game_id=game.id))


def find_game(store, game_id: int):
    """The recorded game with this id, or StoreError."""
    getter = getattr(store, "game", None)  # a direct lookup, where the store offers one
    if callable(getter):
        try:
            found = getter(game_id)
        except TypeError:
            found = None
        if found is not None:
            return found
    for g in store.recent_games(limit=max(1, store.game_count())):
        if g.id == game_id:
            return g
    raise StoreError(f"There is no game with id {game_id}; `sticks-tui export games` lists them.")


__all__ = ["CSV_HEADERS", "EXPORT_FORMAT", "EXPORT_VERSION", "FORMATS", "KINDS", "ExportText", "build_export",
           "default_export_dir", "default_export_path",
           "curve_export", "curve_rows", "export_kind", "find_game", "find_lab", "lab_export", "lab_rows", "first_mover", "game_export", "game_moves",
           "game_summary", "games_export", "hats_export", "hats_header", "hats_rows", "recogniser",
           "suggested_filename", "write_export"]
