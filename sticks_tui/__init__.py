"""sticks-tui: the Game of Sticks against an AI that learns from experience."""

import os

__version__ = "0.1.0"

# numpy's OpenBLAS starts a pool of worker threads when numpy is imported (one a core, less one), and
# they spin waiting for work before they sleep: about 40 ms of CPU in every sticks-tui process on two
# cores, more with more cores. sticks-tui does no linear algebra (small count arrays, numba kernels), so
# one thread is all it needs. Set here, before anything of ours imports numpy; the user's own setting wins,
# and the processes we start (the lab's workers, `serve`'s tabs) inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
