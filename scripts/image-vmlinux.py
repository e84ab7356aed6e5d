#!/usr/bin/env python3
"""Unpack the vmlinux ELF inside an x86 bzImage (a Debian vmlinuz).

Usage: scripts/image-vmlinux.py IMAGE OUT

The x86 boot protocol header (version 2.08 and later) says where the
compressed kernel is: the protected-mode part starts after the setup
sectors ((setup_sects + 1) * 512 bytes), and payload_offset (at 0x248) and
payload_length (at 0x24c) locate the payload inside it. The payload's first
bytes name its compression; Debian's decompressor for it (gzip, xz, zstd,
lz4, bzip2, lzop) unpacks it. The kernel appends the unpacked size to some
payloads, which a decompressor may report as trailing data: the output
counts when it is an ELF file. Exit status 1 with a message otherwise.
"""
import struct
import subprocess
import sys

# leading bytes of the payload -> the command that unpacks it to stdout
DECOMPRESSORS = [
    (b"\x1f\x8b", ["gzip", "-dc"]),
    (b"\xfd7zXZ\x00", ["xz", "-dc"]),
    (b"\x5d\x00\x00", ["xz", "--format=lzma", "-dc"]),
    (b"\x28\xb5\x2f\xfd", ["zstd", "-dcq"]),
    (b"\x02\x21\x4c\x18", ["lz4", "-dcq"]),
    (b"BZh", ["bzip2", "-dc"]),
    (b"\x89LZO", ["lzop", "-dc"]),
]


def die(msg):
    sys.stderr.write(f"image-vmlinux: {msg}\n")
    sys.exit(1)


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) == 2 else 2)
    img, out = sys.argv[1], sys.argv[2]
    data = open(img, "rb").read()
    if len(data) < 0x250 or data[0x202:0x206] != b"HdrS":
        die(f"{img}: not an x86 bzImage (no 'HdrS' boot header)")
    version = struct.unpack_from("<H", data, 0x206)[0]
    if version < 0x208:
        die(f"{img}: boot protocol {version >> 8}.{version & 0xff} has no payload fields")
    setup_sects = data[0x1F1] or 4
    start = (setup_sects + 1) * 512
    off, length = struct.unpack_from("<II", data, 0x248)
    payload = data[start + off:start + off + length]
    if len(payload) != length or not length:
        die(f"{img}: payload {off}+{length} outside the image")
    for magic, cmd in DECOMPRESSORS:
        if payload.startswith(magic):
            break
    else:
        die(f"{img}: unknown compression (payload begins {payload[:6].hex()})")
    try:
        p = subprocess.run(cmd, input=payload, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=False)
    except FileNotFoundError:
        die(f"{cmd[0]} is not installed (Debian package {cmd[0]})")
    if not p.stdout.startswith(b"\x7fELF"):
        die(f"{' '.join(cmd)} gave no ELF file: {p.stderr.decode(errors='replace').strip()}")
    with open(out, "wb") as f:
        f.write(p.stdout)


if __name__ == "__main__":
    main()
