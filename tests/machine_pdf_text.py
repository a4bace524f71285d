"""What a printed machine's PDF says, read back with pypdf (issue 36): its labels box by box, its cover, and
what they must say, straight from the brain. Shared by the command line's and the app's print tests."""

from __future__ import annotations

import re

from pypdf import PdfReader

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.machine import Machine

LABEL = re.compile(r"(?:Box|Hat) (\d+)")
BEAD = re.compile(r"([a-z]+(?: [a-z]+)?(?: \d+)?): (\d+)")


def printed_boxes(path, label_pages: int | None = None) -> tuple[dict[int, dict[str, int]], str]:
    """{box number: {colour: beads}} as the PDF's labels say, and the cover's text; of its first `label_pages`
    pages of labels only, if given (pypdf reads a page of 15 labels in about 0.05 CPU s)."""
    reader = PdfReader(str(path))
    boxes: dict[int, dict[str, int]] = {}
    for page in reader.pages[1:None if label_pages is None else 1 + label_pages]:
        text = page.extract_text().split("Key:")[0]
        parts = LABEL.split(text)
        for number, body in zip(parts[1::2], parts[2::2], strict=True):
            assert int(number) not in boxes
            boxes[int(number)] = {colour: int(n) for colour, n in BEAD.findall(body)}
    return boxes, reader.pages[0].extract_text()


#: A text-showing operator's literal string, `(text) Tj`, in a page's content stream (escapes: \( \) \\ \ddd \n ...).
SHOWN = re.compile(rb"\(((?:[^()\\]|\\.)*)\)\s*Tj")
ESCAPE = re.compile(rb"\\([0-7]{1,3}|.)", re.S)
ESCAPED = {b"\n": b"", b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _unescaped(literal: bytes) -> str:
    def one(match: re.Match) -> bytes:
        code = match.group(1)
        return bytes([int(code, 8) & 0xFF]) if code[:1].isdigit() else ESCAPED.get(code, code)

    return ESCAPE.sub(one, literal).decode("latin-1")  # the core font's text: Latin-1 (WinAnsi)


def drawn_boxes(path, label_pages: int | None = None) -> tuple[dict[int, dict[str, int]], str]:
    """What `printed_boxes` reads (the same labels, the cover read by pypdf), but each page of labels read as the
    PDF draws it: the strings its text operators show, in the order they are drawn (each label's box number,
    then its beads; the key last), not laid out again by pypdf's extract_text, which reads a page of labels
    in about 0.04 CPU s: a MENACE's 21 pages, 0.9 s, against 0.03 s here."""
    reader = PdfReader(str(path))
    boxes: dict[int, dict[str, int]] = {}
    for page in reader.pages[1:None if label_pages is None else 1 + label_pages]:
        shown = [_unescaped(m.group(1)) for m in SHOWN.finditer(page.get_contents().get_data())]
        text = "\n".join(shown).split("Key:")[0]
        parts = LABEL.split(text)
        for number, body in zip(parts[1::2], parts[2::2], strict=True):
            assert int(number) not in boxes
            boxes[int(number)] = {colour: int(n) for colour, n in BEAD.findall(body)}
    return boxes, reader.pages[0].extract_text()


def expected(brain: Hats, as_is: bool) -> dict[int, dict[str, int]]:
    """What the labels must say, straight from the brain: by the machine's numbering, each move's
    colour and the brain's count (its counts now, or its rule's start counts)."""
    machine = Machine(brain)
    counts = brain.counts if as_is else brain.start
    out = {}
    for box in machine.boxes:
        row = brain.row(box.position)
        out[box.number] = {machine.colour_of[m].name: int(counts[row, brain.column(box.position, m)])
                           for m in brain.moves_of(box.position)}
    return out
