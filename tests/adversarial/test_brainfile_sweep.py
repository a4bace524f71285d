"""Sweep (a): whatever bytes a brain file holds, reading it gives a valid brain or a StoreError.

Never any other exception, never a hang, never a message that echoes the input at length; and a
brain that is accepted really is one (every hat playable, counts within the rule, exact round trip).
"""

from __future__ import annotations

import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sticks_tui.engine.nim import MAX_NIM_PILE, NimRules
from sticks_tui.engine.rules import MAX_HATS, MAX_TAKE_LIMIT
from sticks_tui.learn.hats import FLOOR_RULES, MAX_COUNT, HatRule, Hats
from sticks_tui.store import StoreError
from sticks_tui.store import brainfile

# -- strategies --------------------------------------------------------------------------------
huge_ints = st.one_of(st.integers(), st.integers(min_value=-(10**4000), max_value=10**4000),
                      st.sampled_from([MAX_COUNT, MAX_COUNT + 1, 2**63, -(2**63) - 1, 10**4299]))
texts = st.one_of(st.text(max_size=30), st.text(max_size=3000), st.sampled_from(
    ["", " ", "default", "each", "nonempty", brainfile.BRAIN_FORMAT, "Zoë", "\u202e", "a\x00b", "\ud800", "💥" * 50]))
leaves = st.one_of(st.none(), st.booleans(), huge_ints, st.floats(allow_nan=False), texts)
json_values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                          st.dictionaries(texts, inner, max_size=6)),
                           max_leaves=40)


@st.composite
def good_docs(draw):
    """A valid brain file: a sticks brain (version 1; "game" given or, as before it existed, not)
    or a Nim brain (version 2, laid out by its box)."""
    floor = draw(st.sampled_from(FLOOR_RULES))
    low = 1 if floor == "each" else 0
    nim = draw(st.booleans())
    if nim:
        box = draw(st.tuples(*[st.integers(0, 3)] * 3).filter(any))
        lengths = [sum(p) for p in NimRules(box).positions()]
        rows, layout = [], {"version": 2, "game": "nim", "box": list(box)}
    else:
        size = draw(st.integers(1, 40))
        max_take = draw(st.integers(1, MAX_TAKE_LIMIT))
        lengths = [min(max_take, n) for n in range(1, size + 1)]
        rows, layout = [[]], {"version": 1, "size": size, "max_take": max_take}
        if draw(st.booleans()):
            layout["game"] = "sticks"
    for legal in lengths:
        row = draw(st.lists(st.integers(low, 50), min_size=legal, max_size=legal))
        if sum(row) == 0:
            row[0] = 1
        rows.append(row)
    return {"format": brainfile.BRAIN_FORMAT, **layout, "name": draw(st.sampled_from(["default", "Zoë", None])),
            "rule": {"start_balls": draw(st.integers(1, 5)), "win_reward": draw(st.integers(0, 5)),
                     "loss_penalty": draw(st.integers(0, 5)), "floor": floor},
            "games_trained": draw(st.integers(0, 10**6)), "hats": rows}


@st.composite
def damaged_docs(draw):
    """A good document with one to four things changed: a field replaced, removed or added, a count poked."""
    doc = draw(good_docs())
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["replace", "remove", "add", "count", "rule", "row", "zero"]))
        if how == "replace":
            doc[draw(st.sampled_from(sorted(doc)))] = draw(json_values)
        elif how == "remove" and doc:
            doc.pop(draw(st.sampled_from(sorted(doc))))
        elif how == "add":
            doc[draw(texts)] = draw(json_values)
        elif how == "rule" and isinstance(doc.get("rule"), dict):
            doc["rule"][draw(st.sampled_from(["start_balls", "win_reward", "loss_penalty", "floor", "x"]))] = \
                draw(st.one_of(json_values, huge_ints))
        elif isinstance(doc.get("hats"), list) and len(doc["hats"]) > 1:
            n = draw(st.integers(0, len(doc["hats"]) - 1))
            if how == "zero" and isinstance(doc["hats"][n], list):
                doc["hats"][n] = [0] * len(doc["hats"][n])  # an empty hat
            elif how == "row" or not isinstance(doc["hats"][n], list) or not doc["hats"][n]:
                doc["hats"][n] = draw(json_values)
            else:
                ball = draw(st.integers(0, len(doc["hats"][n]) - 1))
                doc["hats"][n][ball] = draw(st.one_of(huge_ints, json_values))
    return doc


def dumps(doc) -> bytes:
    try:
        return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except ValueError:  # out-of-range floats are written as Infinity/NaN by json.dumps; keep them, they are input
        return json.dumps(doc).encode()


# -- the property ------------------------------------------------------------------------------
def check(data: bytes) -> brainfile.BrainFile | None:
    """decode(data): a valid brain or a StoreError with a short one-line message; nothing else."""
    try:
        loaded = brainfile.decode(data, "sweep.json")
    except StoreError as exc:
        message = str(exc)
        assert message.startswith("Cannot import sweep.json: ") and message.endswith("Nothing was changed.")
        assert "\n" not in message and len(message) < 400, message
        return None
    hats = loaded.hats
    assert isinstance(hats, Hats)
    if loaded.game == "sticks":
        assert 1 <= hats.size <= MAX_HATS
        assert 1 <= hats.max_take <= MAX_TAKE_LIMIT
        assert hats.rule.floor == "none" or brainfile.empty_container(hats) is None  # every hat can move
    elif loaded.game == "nim":
        assert all(0 <= b <= MAX_NIM_PILE for b in hats.rules.box) and any(hats.rules.box)
    for position in hats.positions:
        row = hats.hat(position)
        # every hat can move, unless its rule lets one run out (the floor 'none': it resigns or is refilled)
        assert all(0 <= c <= MAX_COUNT for c in row) and (sum(row) >= 1 or hats.rule.floor == "none")
        if hats.rule.floor == "each":
            assert min(row) >= 1
        assert not hats.counts[hats.row(position), hats.legal(position):].any()  # no ball for an illegal move
    assert isinstance(loaded.games_trained, int) and 0 <= loaded.games_trained <= brainfile.MAX_GAMES_TRAINED
    again = brainfile.decode(brainfile.encode(loaded.name or "x", hats, loaded.games_trained, "now").encode())
    assert again.hats == hats and again.games_trained == loaded.games_trained
    return loaded


@given(st.binary(max_size=4000))
def test_any_bytes(data):
    check(data)


@given(json_values)
def test_any_json_shape(value):
    check(dumps(value))


@given(good_docs())
def test_every_good_document_is_accepted_exactly(doc):
    loaded = check(dumps(doc))
    assert loaded is not None
    assert loaded.hats.as_lists() == doc["hats"] and loaded.games_trained == doc["games_trained"]
    assert loaded.hats.rule == HatRule(**doc["rule"])


@given(good_docs(), st.data())
def test_a_good_document_with_one_hat_emptied_is_refused(doc, data):
    assume(doc["rule"]["floor"] != "none")  # under the floor 'none' a hat may be empty (MENACE's empty box)
    n = data.draw(st.integers(0 if doc.get("game") == "nim" else 1, len(doc["hats"]) - 1))
    doc["hats"][n] = [0] * len(doc["hats"][n])
    assert check(dumps(doc)) is None


@given(damaged_docs())
def test_damaged_documents(doc):
    check(dumps(doc))


@given(st.integers(1, 200_000), st.sampled_from([(b"[", b"]"), (b'{"a":', b"}"), (b'{"hats":[', b"]}")]))
def test_deeply_nested_json(depth, brackets):
    opening, closing = brackets
    check(opening * depth + b"1" + closing * depth)
    check(opening * depth)


@given(good_docs(), st.integers(0, 2000), st.binary(min_size=1, max_size=20))
def test_cut_or_spliced_files(doc, at, junk):
    data = dumps(doc)
    at = min(at, len(data))
    check(data[:at])
    check(data[:at] + junk + data[at:])


@settings(max_examples=max(10, settings().max_examples // 4))
@given(st.binary(max_size=3000))
def test_read_brain_file_on_real_files(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("sweep") / "brain.json"
    path.write_bytes(data)
    try:
        loaded = brainfile.read_brain_file(path)
    except StoreError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
    else:
        assert loaded == brainfile.decode(data, str(path))

