"""Reference outcomes in floating point, to read the engines' records (not a law library:
impactkit computes the laws exactly).

* newton_touching: Newton's law solved simultaneously as one LCP over every touching
  contact: gamma+ = gamma- + W lambda, W = N M^-1 N^T, with gamma+_i >= -e_i min(gamma-_i, 0)
  complementary to lambda_i >= 0 (approaching contacts bounce, receding ones may not
  penetrate);
* sequential: pairwise impacts, one contact at a time (the most approaching first, with
  Newton's law on that contact alone), until no contact approaches.
"""

import itertools

import numpy as np


def _matrices(system, v=None):
    N = np.array([c["normal"] for c in system.contacts], dtype=float)
    Minv = np.diag([1.0 / m for m in system.masses])
    e = np.array([c["e"] for c in system.contacts])
    v = np.array(system.velocity if v is None else v, dtype=float)
    return N, Minv, e, v


def newton_touching(system):
    N, Minv, e, v = _matrices(system)
    W = N @ Minv @ N.T
    g = N @ v
    q = g + e * np.minimum(g, 0.0)
    n = len(q)
    best = None
    for active in itertools.product([False, True], repeat=n):
        idx = [i for i in range(n) if active[i]]
        lam = np.zeros(n)
        if idx:
            sub = W[np.ix_(idx, idx)]
            try:
                lam[idx] = np.linalg.solve(sub, -q[idx])
            except np.linalg.LinAlgError:
                lam[idx] = np.linalg.lstsq(sub, -q[idx], rcond=None)[0]
        w = W @ lam + q
        if lam.min() >= -1e-12 and w.min() >= -1e-12:
            best = lam
            break
    if best is None:
        raise RuntimeError("no LCP solution found")
    return [float(x) for x in v + Minv @ N.T @ best], [float(x) for x in best]


def sequential(system, max_impacts=10000):
    N, Minv, e, v = _matrices(system)
    for _ in range(max_impacts):
        g = N @ v
        i = int(np.argmin(g))
        if g[i] >= -1e-15:
            break
        w = N[i] @ Minv @ N[i]
        lam = -(1.0 + e[i]) * g[i] / w
        v = v + Minv @ N[i] * lam
    return [float(x) for x in v]
