#!/usr/bin/env python3
"""Converts matplotlib's sample DEM (jacksboro_fault_dem.npz) to the 16-bit PNG beside it.

Usage: python3 convert_npz.py path/to/jacksboro_fault_dem.npz
(the .npz is in the `matplotlib` wheel from PyPI: matplotlib/mpl-data/sample_data/).
Standard library only. Each pixel stores the elevation in whole metres (v = h), and the PNG
embeds Ridgeline's height-range text chunk "0 65535" so `h = 0 + v / 65535 * 65535 = v`.
"""
import array, ast, struct, sys, zipfile, zlib

npz = zipfile.ZipFile(sys.argv[1])


def load(name):
    b = npz.read(name)
    header_len = struct.unpack("<H", b[8:10])[0]
    header = ast.literal_eval(b[10 : 10 + header_len].decode())
    return header, b[10 + header_len :]


header, data = load("elevation.npy")
assert header["descr"] == "<i2" and not header["fortran_order"], header
rows, cols = header["shape"]
elevation = array.array("h")
elevation.frombytes(data)
raw = b"".join(
    b"\x00" + b"".join(struct.pack(">H", elevation[r * cols + c]) for c in range(cols))
    for r in range(rows)
)


def chunk(kind, payload):
    crc = zlib.crc32(kind + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


png = (
    b"\x89PNG\r\n\x1a\n"
    + chunk(b"IHDR", struct.pack(">IIBBBBB", cols, rows, 16, 0, 0, 0, 0))
    + chunk(b"tEXt", b"Ridgeline height range\x000 65535")
    + chunk(b"IDAT", zlib.compress(raw, 9))
    + chunk(b"IEND", b"")
)
open("jacksboro_fault_dem.png", "wb").write(png)
print(f"{cols} x {rows} samples, {min(elevation)}..{max(elevation)} m")
