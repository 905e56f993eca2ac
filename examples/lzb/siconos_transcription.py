"""A line-by-line Python transcription of Siconos's LZB kernel (OSNSMultipleImpact.cpp,
ComputeImpact and the functions it calls), in plain floats with math.pow as std::pow.

Siconos itself does not install from PyPI or Debian (no wheel, no package), so this is
not Siconos: it is an independent reading of its code, written apart from impactkit's
Rust (src/law/lzb.rs), to cross-check that reading. It writes fixture.json, which
tests/it/lzb.rs compares with impactkit's f64 delta-P scheme.

    python3 examples/lzb/siconos_transcription.py   # rewrites examples/lzb/fixture.json
"""
import json
import math
import os

EPS = 0.0  # _Tol_Vel, _Tol_Ener, _ZeroVel_EndIm, _ZeroEner_EndIm and _tolImpact


def gram(masses, normals):
    """W = H M^-1 H^T for a diagonal M, H the rows grad(phi_i)."""
    return [[sum(a[k] * b[k] / masses[k] for k in range(len(masses))) for b in normals]
            for a in normals]


def compute_impact(W, v0, K, mu, e, dP, law="BiStiffness", nmax=10**7):
    n = len(v0)
    vel = list(v0)
    ener = [0.0] * n
    workc = [0.0] * n
    tolP = [0.0] * n
    state = [0] * n
    steps = 0
    if min(vel) >= -EPS:
        return vel, tolP, 0
    while True:
        # Check_stateContact
        for i in range(n):
            if abs(ener[i]) <= EPS:
                state[i] = 0 if not (vel[i] < -EPS) else 1
            else:
                state[i] = 2
        # IsMulImpactTerminate
        if all(not (ener[i] > EPS or vel[i] < -EPS) for i in range(n)):
            break
        # SelectPrimaContact (getMax / getMin: the first extremum)
        emax = max(ener)
        if abs(emax) <= EPS:
            p = min(range(n), key=lambda i: (vel[i], i))
            by_energy = False
        else:
            p = max(range(n), key=lambda i: (ener[i], -i))
            by_energy = True
        vp, ep = vel[p], ener[p]
        mup, kp = mu[p], K[p]
        lam = [0.0] * n
        for i in range(n):
            m, k = mu[i], K[i]
            rmu = math.pow(m + 1.0, m / (m + 1.0)) / math.pow(mup + 1.0, mup / (mup + 1.0))
            rk = math.pow(k, 1.0 / (1.0 + m)) / math.pow(kp, 1.0 / (1.0 + mup))
            if not by_energy:
                if state[i] != 0:
                    rv = math.pow(abs(vel[i]), m / (m + 1.0)) / math.pow(abs(vp), mup / (1.0 + mup))
                    lam[i] = math.pow(rmu * rk * rv, 1.0 + m) * math.pow(dP, (m - mup) / (1.0 + mup))
            elif state[i] == 1:
                re = math.pow(abs(vel[i] * dP), m / (m + 1.0)) / math.pow(ep, mup / (mup + 1.0))
                lam[i] = math.pow(rmu * rk * re, 1.0 + m)
            elif state[i] == 2:
                re = math.pow(ener[i], m / (m + 1.0)) / math.pow(ep, mup / (mup + 1.0))
                lam[i] = rmu * rk * re
        dPi = [l * dP for l in lam]
        tolP = [a + b for a, b in zip(tolP, dPi)]
        old = list(vel)
        vel = [vel[i] + sum(W[i][j] * dPi[j] for j in range(n)) for i in range(n)]
        for i in range(n):
            half = 0.5 * (old[i] + vel[i])
            if law == "BiStiffness":
                if half <= 0.0:
                    ener[i] = ener[i] - half * dPi[i]
                elif abs(e[i]) > EPS:
                    ener[i] = ener[i] - (1.0 / math.pow(e[i], 2)) * half * dPi[i]
                    if ener[i] < 0.0:
                        ener[i] = 0.0
                else:
                    ener[i] = 0.0
            else:
                if old[i] < 0.0 and vel[i] >= 0.0:
                    workc[i] = ener[i]
                ener[i] = ener[i] - half * dPi[i]
                if state[i] == 2 and vel[i] > 0.0 and ener[i] <= (1.0 - math.pow(e[i], 2)) * workc[i]:
                    ener[i] = 0.0
        steps += 1
        if steps > nmax:
            raise RuntimeError("too many steps")
    return vel, tolP, steps


def chain(n):
    return [[(-1.0 if k == i else 1.0 if k == i + 1 else 0.0) for k in range(n)] for i in range(n - 1)]


CASES = [
    # name, masses, v0, K, eta, e, dP, compliance
    ("cradle3-hertz", [1, 1, 1], [1, 0, 0], [1, 1], [1.5, 1.5], [1, 1], 5e-4, "BiStiffness"),
    ("chain5-hertz", [1, 1, 1, 1, 1], [1, 0, 0, 0, 0], [1] * 4, [1.5] * 4, [1] * 4, 2e-4, "BiStiffness"),
    ("column3-bistiffness", [1, 0.5, 0.25], [1, 0, 0], [1, 2], [1.5, 1.5], [0.9, 0.8], 2e-4, "BiStiffness"),
    ("cradle3-monostiffness", [1, 1, 1], [1, 0, 0], [1, 1], [1.5, 1.5], [0.8, 0.8], 5e-4, "MonoStiffness"),
    ("cradle3-mixed", [1, 2, 1], [1, 0, -0.5], [1, 3], [1.0, 1.5], [1, 0.9], 5e-4, "BiStiffness"),
]


def main():
    out = []
    for name, m, v, K, eta, e, dP, law in CASES:
        m = [float(x) for x in m]
        v = [float(x) for x in v]
        H = chain(len(m))
        W = gram(m, H)
        g0 = [sum(h[k] * v[k] for k in range(len(v))) for h in H]
        gp, P, steps = compute_impact(W, g0, K, eta, e, dP, law)
        vplus = [v[k] + sum(H[i][k] * P[i] for i in range(len(H))) / m[k] for k in range(len(v))]
        out.append({"name": name, "masses": m, "velocity": v, "stiffness": K, "exponent": eta,
                    "energetic": e, "delta_p": dP, "compliance": law, "steps": steps,
                    "gamma_plus": gp, "impulse": P, "velocity_plus": vplus})
        print(name, steps, [round(x, 6) for x in vplus])
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
