#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""klp-relocs.py: turn a module's calls to ".klp.sym.vmlinux.NAME,POS"
symbols into livepatch relocations, as the unmerged klp-convert would.

The C source names the kernel function through an asm label in the
livepatch format (module/testmods/sw_klp_probe.c), weak so that modpost
lets an unexported symbol pass. This script rewrites the linked .ko,
before it is signed:
  - every relocation against such a symbol leaves its .rela.SEC section
    for a new section .klp.rela.vmlinux.SEC, flags SHF_ALLOC |
    SHF_INFO_LINK | SHF_RELA_LIVEPATCH (as 7.x's objtool klp post-link
    makes them), sh_info = SEC;
  - the symbol's section index becomes SHN_LIVEPATCH.
The module loader then resolves them through kallsyms at load
(apply_relocations() -> klp_apply_section_relocs()), as direct calls,
for a module with MODULE_INFO(livepatch, "Y") (taint K) on a kernel with
CONFIG_LIVEPATCH; without it the load fails.

The new section headers and names go at the end of the file (the old
ones stay behind, unused): only x86-64 ELF64 little-endian objects.

Usage: scripts/klp-relocs.py MODULE.ko [--check]
  --check  change nothing: exit 0 if MODULE.ko has livepatch relocations
           and no relocation left against a .klp.sym symbol, 1 if not
"""
import re
import struct
import sys

SHT_SYMTAB, SHT_RELA = 2, 4
SHF_ALLOC, SHF_INFO_LINK = 0x2, 0x40
SHF_RELA_LIVEPATCH = 0x00100000
SHN_UNDEF, SHN_LIVEPATCH = 0, 0xff20
EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
SHDR = struct.Struct("<IIQQQQIIQQ")
SYM = struct.Struct("<IBBHQQ")
RELA = struct.Struct("<QQq")
KLP_SYM = re.compile(r"^\.klp\.sym\.vmlinux\.[^.,]+,[0-9]+$")


def die(msg):
    print(f"klp-relocs: {msg}", file=sys.stderr)
    sys.exit(1)


def cstr(buf, off):
    return buf[off:buf.index(b"\0", off)].decode()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv[1:]
    if "-h" in sys.argv[1:] or "--help" in sys.argv[1:]:
        print(__doc__.strip())
        return 0
    if len(args) != 1:
        die("usage: scripts/klp-relocs.py MODULE.ko [--check]")
    path = args[0]
    data = bytearray(open(path, "rb").read())
    eh = list(EHDR.unpack_from(data, 0))
    ident, machine = eh[0], eh[2]
    if ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1 or machine != 62:
        die(f"{path}: not an x86-64 ELF64 little-endian object")
    shoff, shentsize, shnum, shstrndx = eh[6], eh[11], eh[12], eh[13]
    sh = [list(SHDR.unpack_from(data, shoff + i * shentsize)) for i in range(shnum)]
    shstr = bytes(data[sh[shstrndx][4]:sh[shstrndx][4] + sh[shstrndx][5]])
    names = [cstr(shstr, s[0]) for s in sh]

    symtabs = [i for i, s in enumerate(sh) if s[1] == SHT_SYMTAB]
    if len(symtabs) != 1:
        die(f"{path}: {len(symtabs)} symbol tables, want 1")
    st = symtabs[0]
    strtab = sh[st][6]
    strs = bytes(data[sh[strtab][4]:sh[strtab][4] + sh[strtab][5]])
    nsym = sh[st][5] // SYM.size
    klp = set()
    for i in range(nsym):
        off = sh[st][4] + i * SYM.size
        name_off, info, other, shndx, value, size = SYM.unpack_from(data, off)
        name = cstr(strs, name_off)
        if not name.startswith(".klp.sym."):
            continue
        if not KLP_SYM.match(name):
            die(f"{path}: symbol {name}: not .klp.sym.vmlinux.NAME,POS")
        if shndx not in (SHN_UNDEF, SHN_LIVEPATCH):
            die(f"{path}: symbol {name} is defined in the module")
        klp.add(i)
        if not check and shndx == SHN_UNDEF:
            SYM.pack_into(data, off, name_off, info, other, SHN_LIVEPATCH, value, size)

    moved = {}
    for i, s in enumerate(sh):
        if s[1] != SHT_RELA or s[2] & SHF_RELA_LIVEPATCH or s[6] != st:
            continue
        keep, out = [], []
        for j in range(s[5] // RELA.size):
            r = RELA.unpack_from(data, s[4] + j * RELA.size)
            (out if (r[1] >> 32) in klp else keep).append(r)
        if out:
            moved[i] = (keep, out)
    has_klp = any(s[2] & SHF_RELA_LIVEPATCH for s in sh)
    if check:
        if moved:
            print(f"klp-relocs: {path}: relocations against .klp.sym symbols "
                  f"left in {', '.join(names[i] for i in moved)}")
            return 1
        if not has_klp:
            print(f"klp-relocs: {path}: no livepatch relocation section")
            return 1
        return 0
    if not moved:
        die(f"{path}: no relocation against a .klp.sym.vmlinux symbol"
            + (" (converted already)" if has_klp else ""))

    # the relocations that stay are rewritten in place, shorter
    for i, (keep, out) in moved.items():
        for j, r in enumerate(keep):
            RELA.pack_into(data, sh[i][4] + j * RELA.size, *r)
        sh[i][5] = len(keep) * RELA.size
    # new names, sections and headers go at the end of the file
    shstr = bytearray(shstr)
    new = []
    for i, (keep, out) in moved.items():
        target = names[sh[i][7]]
        name_off = len(shstr)
        shstr += f".klp.rela.vmlinux.{target}".encode() + b"\0"
        while len(data) % 8:
            data += b"\0"
        off = len(data)
        for r in out:
            data += RELA.pack(*r)
        new.append([name_off, SHT_RELA,
                    SHF_ALLOC | SHF_INFO_LINK | SHF_RELA_LIVEPATCH, 0, off,
                    len(out) * RELA.size, st, sh[i][7], 8, RELA.size])
        print(f"klp-relocs: {path}: {len(out)} relocation(s) of {target} "
              f"to .klp.rela.vmlinux.{target}")
    sh[shstrndx][4] = len(data)
    sh[shstrndx][5] = len(shstr)
    data += shstr
    while len(data) % 8:
        data += b"\0"
    sh += new
    eh[6] = len(data)
    eh[12] = len(sh)
    for s in sh:
        data += SHDR.pack(*s)
    EHDR.pack_into(data, 0, *eh)
    open(path, "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
