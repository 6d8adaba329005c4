"""Shared by the Python tests: the mmsim program of the same build and the C++ example, to compare
the module with (each test that needs one is skipped, with the reason, when it is not given)."""
import json
import os
import subprocess

import pytest


def _program(variable, what):
    path = os.environ.get(variable)
    if not path:
        pytest.skip("%s is not set (ctest sets it to %s)" % (variable, what))
    return path


@pytest.fixture
def cli():
    """cli(args...) -> (status, stdout, stderr) of the mmsim program of this build."""
    path = _program("MMSIM", "the mmsim program")

    def call(*args):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True, check=False)
        return p.returncode, p.stdout, p.stderr
    return call


@pytest.fixture
def cli_json(cli):
    """cli_json(args...) -> the one JSON object `mmsim args... --json` prints."""
    def call(*args):
        status, out, err = cli(*args, "--json")
        assert status == 0, err
        return json.loads(out)
    return call


@pytest.fixture
def cli_error(cli):
    """cli_error(args...) -> the one line mmsim prints for bad input, without its "mmsim: "."""
    def call(*args):
        status, out, err = cli(*args)
        assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
        assert err.startswith("mmsim: ")
        return err[len("mmsim: "):].rstrip("\n")
    return call


@pytest.fixture
def custom_kernel():
    """custom_kernel(args...) -> the report examples/custom_kernel prints with --json."""
    path = _program("MMSIM_CUSTOM_KERNEL", "examples/custom_kernel built in the tree")

    def call(*args):
        p = subprocess.run([path, *map(str, args), "--json"], capture_output=True, text=True, check=True)
        return json.loads(p.stdout)
    return call
