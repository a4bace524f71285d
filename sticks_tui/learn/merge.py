"""Merging a training run into a brain that went on learning meanwhile.

A training run starts from a copy of the brain (`start`) and ends with `trained`. Meanwhile the
brain as stored (`current`) may have learned from games (other copies of the program, people
playing). The run's net change, trained - start, is added onto `current`; then every hat is held
within the floor of its rule (`HatRule.lowest`, the hat rule's own floor: "each" keeps one ball of
every legal number; "nonempty" only keeps a hat from ending empty; "none", MENACE's, lets a container
run out) and under `MAX_COUNT`.
"""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.hats import MAX_COUNT, HatRule


def merge_net_change(current: np.ndarray, start: np.ndarray, trained: np.ndarray, rule: HatRule,
                     legal: np.ndarray) -> np.ndarray:
    """`current` + (`trained` - `start`), within the floor of `rule` and the cap; a new array.

    `legal` marks the cells that are balls: the brain's own `Hats.legal_mask` (its game's layout; no
    game's is assumed). Brains of different sizes are lined up by hat: a hat `current` lacks starts from
    `start`'s counts. The floor is the rule's own (`HatRule.lowest`, from `reinforced_count`), read
    with each number's other balls in the merged hat; a hat the merge would empty, where the rule lets
    numbers run out, keeps what it holds now.
    """
    start = np.asarray(start, dtype=np.int64)
    trained = np.asarray(trained, dtype=np.int64)
    current = np.asarray(current, dtype=np.int64)
    if start.shape != trained.shape:
        raise ValueError(f"A training run starts and ends with the same hats, not {start.shape} and {trained.shape}.")
    if current.shape[1:] != trained.shape[1:]:
        raise ValueError(f"Hats of {current.shape[1]} balls cannot take a change to hats of {trained.shape[1]}.")
    rows = max(current.shape[0], trained.shape[0])
    base = np.zeros((rows, current.shape[1]), dtype=np.int64)
    base[: start.shape[0]] = start
    base[: current.shape[0]] = current
    delta = np.zeros_like(base)
    delta[: trained.shape[0]] = trained - start
    legal = np.asarray(legal, dtype=bool)
    if legal.shape != base.shape:
        raise ValueError(f"The legal balls {legal.shape} do not fit hats of shape {base.shape}.")
    merged = np.where(legal, np.clip(base + delta, 0, MAX_COUNT), 0)
    if rule.floor == "none":  # no floor: a copy that emptied a container leaves it empty, as its game would
        return merged
    if rule.lowest(1) == 0:  # numbers may run out: a hat the merge would empty keeps what it holds now
        empty = (merged.sum(axis=1) == 0) & legal.any(axis=1)
        merged[empty] = np.where(legal[empty], np.maximum(base[empty], 0), 0)
    others = merged.sum(axis=1, keepdims=True) - merged
    return np.where(legal, np.maximum(merged, rule.lowest(others)), 0)
