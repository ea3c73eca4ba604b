# SPDX-License-Identifier: MIT
"""Runs one test module of tests/python as one CTest test: exit 0 when its tests pass, 1 when one
fails, 77 (CTest's SKIP_RETURN_CODE) when every test was skipped, so a missing reference data set
or library feature shows as skipped, not passed. Usage: python3 run.py test_NAME"""

import os
import sys
import unittest


def main():
    if len(sys.argv) != 2:
        print("usage: run.py test_NAME", file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    suite = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    if result.testsRun > 0 and len(result.skipped) == result.testsRun:
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
