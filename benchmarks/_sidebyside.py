"""Timing two implementations of one operation side by side: alternating
runs, so that both see the same machine load, and the best time of each."""
import time


def case(label, numpy_fn, kumo_fn, repeat, width=46):
    """Prints and returns kumo's best time over NumPy's (below 1: kumo is faster)."""
    numpy_fn()  # warm-up: kernel compilation, caches, page faults
    kumo_fn()
    tn = tk = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        numpy_fn()
        tn = min(tn, time.perf_counter() - t0)
        t0 = time.perf_counter()
        kumo_fn()
        tk = min(tk, time.perf_counter() - t0)
    print("%-*s numpy %9.3f ms   kumo %9.3f ms   kumo/numpy %5.2f" % (width, label, tn * 1e3, tk * 1e3, tk / tn),
          flush=True)
    return tk / tn
