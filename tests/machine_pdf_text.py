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
