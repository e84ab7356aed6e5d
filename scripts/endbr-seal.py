#!/usr/bin/env python3
"""Say which kernel functions keep their ENDBR64 after boot on an IBT kernel.

Usage: scripts/endbr-seal.py VMLINUX NAME...

VMLINUX is the ELF that scripts/image-vmlinux.py unpacks from a Debian
vmlinuz. Debian's image packages ship a stub System.map, so the addresses
come from the kernel's own kallsyms tables in .rodata (scripts/kallsyms.c):
the token table and index are found by shape, the markers and names are
walked back from them, and each address is decoded the way the kernel does
(6.x: kallsyms_relative_base - 1 - offset for the negative, relative
entries; 7.x --pc-relative: the entry's own address + its s32 value; the
one that puts _text at the start of .text is taken).

For each NAME it prints the address, the first four bytes in the file and
whether the address is listed in .ibt_endbr_seal. The bytes in the file are
the ones before boot: at boot apply_seal_endbr() (arch/x86/kernel/
alternative.c) poisons the ENDBR64 at every address listed in
.ibt_endbr_seal (functions whose address the kernel never takes). So:
  f3 0f 1e fa, not listed  -> ENDBR64 kept: an indirect call is allowed
  f3 0f 1e fa, listed      -> sealed at boot: an indirect call faults
  anything else            -> no ENDBR64 at all (static, never indirect)
A kernel without .ibt_endbr_seal (IBT off, e.g. Debian's 6.1) seals nothing.
Light: reads the file once, no decompression.
"""
import re
import struct
import sys


def sections(f):
    shoff = struct.unpack_from('<Q', f, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3a)
    out = []
    for i in range(shnum):
        name, _typ, _flags, addr, off, size = struct.unpack_from(
            '<IIQQQQ', f, shoff + i * shentsize)
        out.append([name, addr, off, size])
    stro = out[shstrndx][2]
    for s in out:
        s[0] = f[stro + s[0]:f.index(b'\0', stro + s[0])].decode()
    return out


def kallsyms(f, secs):
    ro = [s for s in secs if s[0] == '.rodata'][0]
    text = [s for s in secs if s[0] == '.text'][0][1]
    R = f[ro[2]:ro[2] + ro[3]]
    RA = ro[1]
    u32 = lambda o: struct.unpack_from('<I', R, o)[0]
    # kallsyms_token_index: 256 increasing u16 from 0, after the table
    found = None
    for m in re.finditer(rb'\x00\x00[\x02-\x40]\x00', R):
        p = m.start()
        if p % 2:
            continue
        idx = struct.unpack_from('<256H', R, p)
        if not all(2 <= idx[i + 1] - idx[i] <= 64 for i in range(255)):
            continue
        for pad in range(9):
            end = p - pad
            if R[end - 1] != 0:
                continue
            j = end - 2
            while R[j] != 0:
                j -= 1
            T = j + 1 - idx[255]
            if all(R[T + idx[i] - 1] == 0 for i in range(1, 256)):
                found = (p, T, idx)
                break
        if found:
            break
    if not found:
        sys.exit('endbr-seal: no kallsyms token index found')
    p, T, idx = found
    tokens = [R[T + idx[i]:R.index(b'\0', T + idx[i])] for i in range(256)]
    # kallsyms_markers end before the token table (zero padding between)
    q = T - 4
    while u32(q) == 0:
        q -= 4
    mk = []
    while True:
        v = u32(q)
        mk.append(v)
        if v == 0:
            break
        q -= 4
    mk.reverse()
    M, cnt = q, len(mk)
    # kallsyms_names: preceded by kallsyms_num_syms
    names = None
    for back in range(mk[-1], mk[-1] + 300000):
        S = M - back
        for gap in (4, 8):
            n = u32(S - gap)
            if not (cnt - 1) * 256 < n <= cnt * 256:
                continue
            o, ok, out = S, True, []
            for i in range(n):
                if i % 256 == 0 and o - S != mk[i // 256]:
                    ok = False
                    break
                L = R[o]
                if L & 0x80:
                    L = (L & 0x7f) | (R[o + 1] << 7)
                    o += 2
                else:
                    o += 1
                s = b''.join(tokens[b] for b in R[o:o + L])
                out.append((s[1:].decode(errors='replace'), chr(s[0])))
                o += L
            if ok and M - 8 <= o <= M:
                names = out
                break
        if names:
            break
    if not names:
        sys.exit('endbr-seal: kallsyms_names not found')
    n = len(names)
    offs = (p + 512 + 3) & ~3

    def addr_abs(i):
        relbase = struct.unpack_from('<Q', R, (offs + 4 * n + 7) & ~7)[0]
        v = struct.unpack_from('<i', R, offs + 4 * i)[0]
        return v if v >= 0 else relbase - 1 - v

    def addr_pcrel(i):
        v = struct.unpack_from('<i', R, offs + 4 * i)[0]
        return (RA + offs + 4 * i + v) & (2 ** 64 - 1)

    ti = [i for i, (nm, _t) in enumerate(names) if nm == '_text'][0]
    addr = addr_abs if addr_abs(ti) == text else addr_pcrel
    if addr(ti) != text:
        sys.exit('endbr-seal: kallsyms offsets not understood')
    return [(nm, t, addr(i)) for i, (nm, t) in enumerate(names)]


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        sys.exit(2)
    f = open(sys.argv[1], 'rb').read()
    secs = sections(f)
    sealed = set()
    seal = [s for s in secs if s[0] == '.ibt_endbr_seal']
    for s in seal:
        for k in range(s[3] // 4):
            v = struct.unpack_from('<i', f, s[2] + 4 * k)[0]
            sealed.add((s[1] + 4 * k + v) & (2 ** 64 - 1))
    print('# .ibt_endbr_seal: %s' % ('%d entries' % len(sealed) if seal
                                      else 'absent (no IBT sealing)'))
    want = set(sys.argv[2:])
    seen = set()
    for nm, t, a in kallsyms(f, secs):
        if nm not in want:
            continue
        seen.add(nm)
        sec = [s for s in secs if s[1] and s[1] <= a < s[1] + s[3]][0]
        b = f[sec[2] + a - sec[1]:sec[2] + a - sec[1] + 4]
        if b != b'\xf3\x0f\x1e\xfa':
            verdict = 'no ENDBR64'
        elif a in sealed:
            verdict = 'sealed at boot'
        else:
            verdict = 'ENDBR64 kept'
        print('%-30s %s %016x %s  %s' % (nm, t, a, b.hex(' '), verdict))
    for nm in sorted(want - seen):
        print('%-30s not in kallsyms (inlined or renamed)' % nm)


if __name__ == '__main__':
    main()
