"""The module under test: skipped, with the reason, when it is not built or not on PYTHONPATH, unless
ctest (which runs these tests only where it is built) says it must be there."""
import os

import pytest


def import_mmsim():
    try:
        import mmsim
    except ImportError as e:
        if os.environ.get("MMSIM_EXPECT_MODULE"):
            raise
        pytest.skip("the Python module mmsim is not built or not on PYTHONPATH (configure with "
                    "-DMMSIM_PYTHON=ON and set PYTHONPATH=<build>/python): %s" % e, allow_module_level=True)
    return mmsim
