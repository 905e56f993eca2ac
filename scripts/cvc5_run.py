#!/usr/bin/env python3
"""`cvc5 FILE` through the `cvc5` wheel from PyPI (it ships cvc5's library and its SMT-LIB
parser, not the binary): every command of FILE is parsed by cvc5's own front end and run
on one solver, and what it prints is printed, as the binary does.

usage: cvc5_run.py [--OPTION=VALUE ...] FILE    exit 3 when the cvc5 module is missing

Each `--OPTION=VALUE` is a cvc5 option set on the solver before the file is read, and set
again after every `(reset)` (which puts options back to their defaults), as the binary's
command-line options are kept (e.g. `--tlimit-per=2000 --nl-cov=false`).
"""
import sys


def main():
    try:
        import cvc5
    except ImportError:
        print("cvc5_run.py: the cvc5 module is not installed (pip install cvc5)", file=sys.stderr)
        return 3
    args = sys.argv[1:]
    options = [a[2:].split("=", 1) for a in args if a.startswith("--") and "=" in a]
    files = [a for a in args if not a.startswith("--")]
    if len(files) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    for k, v in options:
        solver.setOption(k, v)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, files[0])
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(solver, sm)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
        # `(reset)` puts every option back to its default (the time limit too); the
        # binary's command-line options are kept, so these are set again
        if cmd.getCommandName() == "reset":
            for k, v in options:
                solver.setOption(k, v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
