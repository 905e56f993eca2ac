"""A tour of impactkit from Python: a cradle and a corner through every law, exactly, and
a physics engine's committed records checked against the laws.

Run from the repository's root, after `pip install ./python`:

    python examples/python/tour.py [figure.png]

With matplotlib installed and a file name given, it also draws the corner's outcomes.
"""

import sys
from fractions import Fraction

import impactkit
from impactkit import System


def show(title, system):
    report = system.laws()
    print(f"{title} (agreement decided in {report['agreement_decided_by']})")
    for row in report["laws"]:
        outcomes = " or ".join("(" + ", ".join(str(x) for x in o) + ")" for o in row["outcomes"])
        print(f"  {row['law']:<19} {outcomes or row['note']}")
    return report


def main(figure=None):
    # Newton's cradle, 3 equal balls, e = 1/2: the laws differ
    show("3-ball cradle, e = 1/2", System.cradle(3, restitution=Fraction(1, 2)))
    # the disk in a corner at alpha = pi/6, exactly in Q(sqrt 3)
    corner = System.corner("pi/6", [1, Fraction(1, 5)])
    report = show("corner, alpha = pi/6, v = (1, 1/5)", corner)
    # pybullet's committed cradle and corner runs, checked exactly
    run = impactkit.regress("examples/engines/records/pybullet.jsonl")
    print(f"pybullet: {len(run['records'])} records; nearest law of the first three:")
    for r in run["records"][:3]:
        print(f"  {r['id']}: {'='.join(r['nearest'])}")
    if figure:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no figure")
            return
        fig, ax = plt.subplots(figsize=(4, 4))
        for row in report["laws"]:
            for o in row["outcomes"]:
                ax.plot(float(o[0]), float(o[1]), "o", label=row["law"])
        ax.plot(1, 0.2, "k*", label="pre-impact")
        ax.set_xlabel("x velocity")
        ax.set_ylabel("y velocity")
        ax.legend(fontsize=7)
        fig.savefig(figure, dpi=120, bbox_inches="tight")
        print(f"figure: {figure}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
