# SPDX-License-Identifier: MIT
"""The ctypes mirrors (python/cairn/_types.py) have the size and field offsets the C compiler gives
the structs of include/cairn (printed by layout.c): a header change they miss fails here."""

import ctypes
import os
import subprocess
import unittest

import helpers  # noqa: F401  (puts the package on the path)
from cairn import _types


def c_layout():
    exe = os.environ.get("CAIRN_LAYOUT_EXE")
    if not exe:
        raise unittest.SkipTest("CAIRN_LAYOUT_EXE is not set (CTest sets it to the built layout program)")
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    sizes, offsets = {}, {}
    for line in out.splitlines():
        name, value = line.split()
        if "." in name:
            struct, field = name.split(".", 1)
            offsets.setdefault(struct, {})[field] = int(value)
        else:
            sizes[name] = int(value)
    return sizes, offsets


class LayoutTest(unittest.TestCase):
    def test_every_mirror_matches_c(self):
        sizes, offsets = c_layout()
        self.assertEqual(set(sizes), set(_types.MIRRORED), "structs printed by layout.c vs mirrored")
        for name, mirror in _types.MIRRORED.items():
            with self.subTest(struct=name):
                self.assertEqual(ctypes.sizeof(mirror), sizes[name], f"sizeof({name})")
                fields = [f[0] for f in mirror._fields_]
                self.assertEqual(fields, sorted(offsets[name], key=offsets[name].get),
                                 f"{name}: fields in declaration order")
                for field in fields:
                    self.assertEqual(getattr(mirror, field).offset, offsets[name][field], f"{name}.{field}")


if __name__ == "__main__":
    unittest.main()
