"""`python -m opb ARGS`: runs the installed `opb` with the same arguments."""

import os
import subprocess
import sys

from opb import find_opb_bin


def main() -> None:
    opb = find_opb_bin()
    arguments = [opb, *sys.argv[1:]]
    if sys.platform == "win32":
        # Windows has no exec that keeps the process: wait, and pass the status on.
        sys.exit(subprocess.run(arguments).returncode)
    os.execv(opb, arguments)


if __name__ == "__main__":
    main()
