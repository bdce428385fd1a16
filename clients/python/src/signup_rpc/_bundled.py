"""The signup-rpc binary a wheel of this package carries (`Scripts/build-wheel`), and the
`signup-rpc` command such a wheel installs. A source install carries none."""
import os
import sys
from typing import Optional


def bundled_binary() -> Optional[str]:
    """The path of the binary inside this package, or None when it carries none."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "signup-rpc")
    return path if os.access(path, os.X_OK) else None


def main() -> None:
    """`signup-rpc` on the PATH of a wheel's environment: runs the bundled binary with the
    same arguments, standard streams and signals (exec, not a child)."""
    binary = bundled_binary()
    if binary is None:
        sys.exit("signup-rpc: this install carries no binary (build one with Scripts/release, or install the wheel)")
    os.execv(binary, [binary] + sys.argv[1:])

