"""opb, the OpenPlaybook checker: the wheel installs the `opb` executable
beside Python's own scripts; `find_opb_bin` says where it is."""

import os
import sys
import sysconfig

__all__ = ["find_opb_bin"]


def find_opb_bin() -> str:
    """The path of the `opb` executable this package installed.

    pip puts it in the scripts directory of the installation scheme it used:
    the environment's, the user's (`pip install --user`), or `bin` beside
    the package for `pip install --target`.
    """
    executable = "opb" + (sysconfig.get_config_var("EXE") or "")
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    directories = [
        sysconfig.get_path("scripts"),
        sysconfig.get_path("scripts", scheme=sysconfig.get_preferred_scheme("user")),
        os.path.join(package_root, "bin"),
    ]
    for directory in directories:
        path = os.path.join(directory, executable)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        f"{executable} is not installed beside this Python package (looked in {', '.join(directories)}); "
        f"reinstall it with `{sys.executable} -m pip install --force-reinstall opb`"
    )
