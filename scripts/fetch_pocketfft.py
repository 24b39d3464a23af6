"""Extracts pocketfft's C++ header and its licence from a pythran wheel.

pocketfft (BSD-3-Clause) is Kumo's host FFT library: one header,
pocketfft_hdronly.hpp. Debian 12 does not package it and NumPy's and
SciPy's source distributions cannot be downloaded without building them, but
the pure-Python pythran wheel on PyPI ships the header (as
pythran/pythonic/numpy/fft/pocketfft.hpp). The licence is the header's
leading comment; it is written beside the header, with the wheel's own
licence.

usage: python fetch_pocketfft.py WHEEL DEST_DIR
(CMakeLists.txt runs it when the header is missing.)
"""
import os
import sys
import zipfile

MEMBER = "pythran/pythonic/numpy/fft/pocketfft.hpp"


def main(wheel, dest):
    with zipfile.ZipFile(wheel) as z:
        header = z.read(MEMBER).decode("utf-8")
        wheel_licence = next((z.read(n).decode("utf-8") for n in z.namelist()
                              if n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")), "")
    if "POCKETFFT_HDRONLY_H" not in header or not header.startswith("/*"):
        sys.exit(f"{wheel}: {MEMBER} is not pocketfft's header")
    licence = header[2:header.index("*/")].strip("\n")
    if "Redistribution and use in source and binary forms" not in licence:
        sys.exit(f"{wheel}: no BSD licence at the top of {MEMBER}")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "LICENSE.pocketfft"), "w") as f:
        f.write(licence + "\n")
    if wheel_licence:
        with open(os.path.join(dest, "LICENSE.pythran"), "w") as f:
            f.write(wheel_licence)
    # The header last: its presence is what CMakeLists.txt checks.
    tmp = os.path.join(dest, "pocketfft_hdronly.hpp.tmp")
    with open(tmp, "w") as f:
        f.write(header)
    os.replace(tmp, os.path.join(dest, "pocketfft_hdronly.hpp"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
