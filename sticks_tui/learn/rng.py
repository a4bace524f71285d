"""A small, seedable random generator shared bit for bit by the pure-Python learner and the kernel.

xorshift64* (Vigna) seeded through splitmix64. Both the readable learner and the compiled kernel
draw balls with exactly this arithmetic, so a test can hold them to the *same* hats, not just to
similar statistics. A draw below `n` is `(next >> 11) % n`: the bias is below n / 2**53.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
MULTIPLIER = 0x2545F4914F6CDD1D


def splitmix64(seed: int) -> int:
    z = (seed + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z = z ^ (z >> 31)
    return z or 0x9E3779B97F4A7C15  # xorshift must never hold 0


class XorShift64Star:
    """`randrange(n)` and `random()` like `random.Random`, reproducible across Python and the kernel."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = splitmix64(seed & MASK64)

    def next_u64(self) -> int:
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.state = x
        return (x * MULTIPLIER) & MASK64

    def randrange(self, n: int) -> int:
        """A whole number in [0, n)."""
        if n <= 0:
            raise ValueError("randrange needs n >= 1")
        return (self.next_u64() >> 11) % n

    def choice(self, seq):
        return seq[self.randrange(len(seq))]

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)
