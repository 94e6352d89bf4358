"""Agent Tools dependency installer: fills a tool's virtual environment with pip, inside the install sandbox.

The SDK starts it with the venv being built as the interpreter (docs/sandbox.md#dependency-installation):

  <temp venv>/bin/python -B agent_tools_pip.py FINAL_VENV PIP_ROOT BUILDS install -r requirements.txt ...

- A sandbox with an index to reach gets the proxy bridge of agent_tools_proxy_bridge.py: its network
  namespace holds only `lo`, and HTTP(S)_PROXY names the bridge.
- pip is the host interpreter's own copy, imported from PIP_ROOT alone (as pip's `--python` runner
  does), so nothing else of the host's site-packages counts as installed in the venv.
- BUILDS "refuse": a package pip would build from source (an sdist from an index or a find-links
  folder, a local folder, a VCS or direct URL, an editable) stops the install before its build
  backend runs, with an `agent-tools: source-build-refused` line naming it.
- On failure, what pip keeps at debug level (sdists it skipped, pages it could not fetch, such as
  a proxy refusal) is printed as `agent-tools:` lines, so the SDK's error can say what went wrong.
- Console scripts name this interpreter in their shebang; once pip succeeds they are pointed at
  FINAL_VENV, where the host renames the finished venv.
"""
import logging
import os
import re
import sys

PROXY_BRIDGE_PORT = 3128  # SANDBOX_PROXY_PORT in sandbox/tool-sandbox.ts
NOTE = "agent-tools:"


class PipLogNotes(logging.Handler):
    """Keeps the debug records of pip's index code that explain a "no matching distribution"."""

    PATTERNS = (
        ("source-only", re.compile(r"^Skipping link: No sources permitted for (\S+): (\S+)")),
        ("fetch-failed", re.compile(r"^Could not fetch URL (\S+): (.*) - skipping$", re.S)),
    )

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.notes = []

    def emit(self, record):
        message = record.getMessage()
        for kind, pattern in self.PATTERNS:
            match = pattern.match(message)
            note = match and f"{kind} {' '.join(part.replace(chr(10), ' ') for part in match.groups())}"
            if note and note not in self.notes:
                self.notes.append(note)


def start_proxy_bridge():
    socket_path = os.environ.get("AGENT_TOOLS_PROXY_SOCKET")
    if socket_path:
        from agent_tools_proxy_bridge import start_bridge

        start_bridge(socket_path, os.environ.get("AGENT_TOOLS_PROXY_TOKEN", ""), PROXY_BRIDGE_PORT)


def import_pip_from(root):
    from importlib.machinery import PathFinder

    class PipFinder:
        @classmethod
        def find_spec(cls, fullname, path=None, target=None):
            return PathFinder.find_spec(fullname, [root], target) if fullname == "pip" else None

    sys.meta_path.insert(0, PipFinder())


def refuse_source_builds(refused):
    """Every source build of pip goes through SourceDistribution; without it, nothing can be refused."""
    try:
        from pip._internal.distributions.sdist import SourceDistribution
        from pip._internal.exceptions import InstallationError
    except ImportError as error:
        raise SystemExit(
            f"{NOTE} unsupported-pip this pip cannot refuse source builds ({error}); use another pip, or allowSourceBuilds: true"
        )

    def refuse(self, *args, **kwargs):
        req = self.req
        refused.append(f"source-build-refused {req.link} {req.name or '-'}")
        raise InstallationError(f"{NOTE} {req.name or req.link} would be built from source ({req.link}), and source builds are off")

    SourceDistribution.prepare_distribution_metadata = refuse


def repoint_scripts(final):
    """Console scripts name this venv's python in their shebang: point them at FINAL_VENV."""
    bin_dir = os.path.join(sys.prefix, "bin")
    old = f"#!{sys.prefix}/".encode()
    for name in os.listdir(bin_dir):
        path = os.path.join(bin_dir, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue  # the python symlinks
        with open(path, "rb") as file:
            text = file.read()
        if text.startswith(old):
            with open(path, "wb") as file:
                file.write(f"#!{final}/".encode() + text[len(old) :])


def main():
    final, pip_root, builds, *pip_args = sys.argv[1:]
    start_proxy_bridge()
    import_pip_from(pip_root)
    refused = []
    if builds == "refuse":
        refuse_source_builds(refused)
    notes = PipLogNotes()
    for name in ("pip._internal.index.package_finder", "pip._internal.index.collector"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(notes)
    from pip._internal.cli.main import main as pip_main

    status = pip_main(pip_args)
    if status != 0:
        for note in [*refused, *notes.notes]:
            print(f"{NOTE} {note}", file=sys.stderr)
        return status
    repoint_scripts(final)
    return 0


if __name__ == "__main__":
    sys.exit(main())
