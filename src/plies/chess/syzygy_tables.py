"""Loading Syzygy WDL tables (``.rtbw``) for the compiled prober (:mod:`syzygy_kernel`).

``load_wdl(path)`` reads every WDL table of the ``SyzygyPath`` directories (at most
``max_pieces`` pieces) into memory: one ``uint8`` array, an ``int64`` index describing the
tables followed by the files (layout in :mod:`plies.chess.syzygy_kernel`). ``empty_tables()``
is the array with no table, of the same type (the search kernels are compiled once for both).

What the loader reads of each file (the Syzygy WDL format): the magic, a flag byte (bit 0 both
sides to move stored, bit 1 pawns: one sub-table per leading-pawn file a-d), for each side to
move (and file) the pieces in the table's order with the order of the index's factors, then
for each sub-table the decompression header (block size, index bits, block counts, the range
of Huffman code lengths, the first symbol of each length, the symbol pairs), then the index
tables, the block size tables and the 64-byte aligned compressed blocks.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

from plies.chess import syzygy_kernel as K
from plies.errors import InvalidOption

WDL_MAGIC = bytes([0x71, 0xE8, 0x23, 0x5D])
PIECE_LETTERS = "PNBRQK"  # type t + 1 (pawn 1 .. king 6)
NAME = re.compile(r"^K[QRBNP]*vK[QRBNP]*$")
DEFAULT_MAX_PIECES = 5  # 5-man WDL tables are 378 MiB in memory; 6-man would be 68 GiB


class SyzygyTables(NamedTuple):
    """The array the kernels read, and what it holds."""

    blob: np.ndarray  # uint8: the index (int64: header, keys, records, symbol data), the files
    names: tuple[str, ...]
    max_pieces: int

    @property
    def index(self) -> np.ndarray:
        """The int64 view of the whole array (the index is its start)."""
        return self.blob.view(np.int64)


def empty_tables() -> SyzygyTables:
    """No tables: the kernels see ``tbi[H_MAXPC] == 0`` and never probe."""
    return SyzygyTables(np.zeros(8 * K.HEADER, dtype=np.uint8), (), 0)


def _counts_of_name(name: str) -> list[list[int]]:
    counts = [[0] * 7, [0] * 7]
    for c, part in enumerate(name.split("v")):
        for ch in part:
            counts[c][PIECE_LETTERS.index(ch) + 1] += 1
    return counts


def _counts_of_pieces(pieces: list[int]) -> list[list[int]]:
    counts = [[0] * 7, [0] * 7]
    for p in pieces:
        counts[p >> 3][p & 7] += 1
    return counts


class _Reader:
    """One WDL file being turned into its record (byte offsets relative to the file)."""

    def __init__(self, raw: bytes, name: str, where: str) -> None:
        self.raw = raw
        self.name = name
        self.where = where

    def fail(self, why: str):
        raise InvalidOption(f"Syzygy table {self.where}: {why}")

    def u8(self, p: int) -> int:
        if p >= len(self.raw):
            self.fail("truncated file")
        return self.raw[p]

    def u16(self, p: int) -> int:
        return self.u8(p) | self.u8(p + 1) << 8

    def u32(self, p: int) -> int:
        return self.u16(p) | self.u16(p + 2) << 16


def _norm_and_factors(
    pieces: list[int], order: int, order2: int, lead: int, other: int, enc: int, file: int
) -> tuple[list[int], list[int], int]:
    """The group lengths (``norm``), the index factor of each group and the table size."""
    n = len(pieces)
    norm = [0] * n
    if lead == 0:
        norm[0] = 3 if enc == 0 else 2
    else:
        norm[0] = lead
        if other:
            norm[lead] = other
    i = norm[0] + (other if lead else 0)
    while i < n:
        j = i
        while j < n and pieces[j] == pieces[i]:
            norm[i] += 1
            j += 1
        i += norm[i]
    factor = [0] * n
    size = 1
    if lead == 0:
        i = norm[0]
        free = 64 - norm[0]
        k = 0
        while i < n or k == order:
            if k == order:
                factor[0] = size
                size *= K.ENC0_COUNT if enc == 0 else K.KK_COUNT
            else:
                factor[i] = size
                size *= int(K.BINOM[free, norm[i]])
                free -= norm[i]
                i += norm[i]
            k += 1
    else:
        i = norm[0] + (norm[norm[0]] if order2 < 15 else 0)
        free = 64 - i
        k = 0
        while i < n or k == order or k == order2:
            if k == order:
                factor[0] = size
                size *= int(K.PAWN_FACTOR[norm[0] - 1, file])
            elif k == order2:
                factor[norm[0]] = size
                size *= int(K.BINOM[48 - norm[0], norm[norm[0]]])
            else:
                factor[i] = size
                size *= int(K.BINOM[free, norm[i]])
                free -= norm[i]
                i += norm[i]
            k += 1
    return norm, factor, size


def _pairs(rd: _Reader, p: int, size: int, sub: dict, pool: list[int]) -> int:
    """Read a sub-table's decompression header at ``p`` into ``sub`` (symbol lengths and
    Huffman bases appended to ``pool``, their offsets relative to the pool); returns the
    offset after it. ``sub['sizes']`` gets the byte sizes of its three parts."""
    flags = rd.u8(p)
    if flags & 0x80:  # a single value
        sub.update(idxbits=0, blocksize=0, min_len=rd.u8(p + 1), sizes=(0, 0, 0))
        sub.update(symidx=0, sympat=0, symlen=0, base=0)
        return p + 2
    blocksize = rd.u8(p + 1)
    idxbits = rd.u8(p + 2)
    if idxbits == 0 or idxbits > 40 or blocksize > 30:
        rd.fail("bad block parameters")
    real_blocks = rd.u32(p + 4)
    blocks = real_blocks + rd.u8(p + 3)
    max_len = rd.u8(p + 8)
    min_len = rd.u8(p + 9)
    if not 0 < min_len <= max_len <= 62:
        rd.fail("bad Huffman code lengths")
    h = max_len - min_len + 1
    nsyms = rd.u16(p + 10 + 2 * h)
    sympat = p + 12 + 2 * h
    # symbol lengths (values each symbol expands to, minus one) through the pair tree
    symlen = [-1] * nsyms
    for s0 in range(nsyms):
        stack = [s0]
        while stack:
            s = stack[-1]
            if symlen[s] >= 0:
                stack.pop()
                continue
            w = sympat + 3 * s
            right = rd.u8(w + 2) << 4 | rd.u8(w + 1) >> 4
            if right == 0xFFF:
                symlen[s] = 0
                stack.pop()
                continue
            left = (rd.u8(w + 1) & 0xF) << 8 | rd.u8(w)
            if left >= nsyms or right >= nsyms or len(stack) > nsyms:
                rd.fail("bad symbol tree")
            todo = [x for x in (left, right) if symlen[x] < 0]
            if todo:
                stack.extend(todo)
            else:
                symlen[s] = symlen[left] + symlen[right] + 1
                stack.pop()
    # canonical Huffman: the smallest code of each length, left-aligned in 64 bits
    base = [0] * h
    for i in range(h - 2, -1, -1):
        step = rd.u16(p + 10 + 2 * i) - rd.u16(p + 12 + 2 * i)
        base[i] = (base[i + 1] + step) // 2
    flipped = []
    for i in range(h):
        v = base[i] << (64 - (min_len + i))
        if not 0 <= v < 1 << 64:
            rd.fail("bad Huffman table")
        v ^= 1 << 63
        flipped.append(v - (1 << 64) if v >= 1 << 63 else v)
    sub.update(idxbits=idxbits, blocksize=blocksize, min_len=min_len)
    sub.update(symidx=p + 10 - 2 * min_len, sympat=sympat)
    sub["symlen"] = len(pool)
    pool.extend(symlen)
    sub["base"] = len(pool)
    pool.extend(flipped)
    indices = (size + (1 << idxbits) - 1) >> idxbits
    sub["sizes"] = (6 * indices, 2 * blocks, (1 << blocksize) * real_blocks)
    return p + 12 + 2 * h + 3 * nsyms + (nsyms & 1)


def _parse(raw: bytes, name: str, where: str, pool: list[int]) -> dict:
    """The record of one WDL file (offsets relative to the file, pool offsets relative to
    the pool)."""
    rd = _Reader(raw, name, where)
    if len(raw) < 64 or raw[:4] != WDL_MAGIC:
        rd.fail("not a Syzygy WDL file (bad magic)")
    if len(raw) % 64 != 16:
        rd.fail("bad file size")
    counts = _counts_of_name(name)
    n = sum(sum(c) for c in counts)
    if n > K.MAX_TB_PIECES:
        rd.fail(f"{n} pieces (at most {K.MAX_TB_PIECES})")
    flags = raw[4]
    split = flags & 1
    pawns = counts[0][1] + counts[1][1]
    if bool(flags & 2) != (pawns > 0):
        rd.fail("pawn flag does not match the name")
    # leading pawns: the colour with fewer pawns (but some); on equal counts the second
    a, b = counts[0][1], counts[1][1]
    if b > 0 and (a == 0 or b <= a):
        lead, other = b, a
    else:
        lead, other = a, b
    rec: dict = {"num": n, "lead": lead, "other": other, "subs": {}}
    p = 5
    if lead == 0:
        unique = sum(1 for c in counts for t in range(1, 7) if c[t] == 1)
        enc = 0 if unique >= 3 else 2
        if unique < 2:
            rd.fail("unsupported material")
        rec["enc"] = enc
        heads = [(p, 0)]
        p += n + 1
    else:
        rec["enc"] = 0
        step = n + (2 if other else 1)
        heads = [(p + step * f, f) for f in range(4)]
        p += 4 * step
    p += p & 1
    subs = {}
    for hp, f in heads:
        extra = 2 if (lead and other) else 1
        for side in range(2):
            shift = 4 * side
            order = (rd.u8(hp) >> shift) & 15
            order2 = (rd.u8(hp + 1) >> shift) & 15 if (lead and other) else 15
            pieces = [(rd.u8(hp + extra + i) >> shift) & 15 for i in range(n)]
            if sorted(pieces) != sorted(_pieces_of(counts)) and sorted(pieces) != sorted(
                _pieces_of(counts, swap=True)
            ):
                rd.fail("piece list does not match the name")
            norm, factor, size = _norm_and_factors(
                pieces, order, order2, lead, other, rec["enc"], f
            )
            subs[(f, side)] = {"pieces": pieces, "norm": norm, "factor": factor, "size": size}
    first = subs[(0, 0)]["pieces"]
    rec["key"] = K.material_key(_counts_of_pieces(first))
    rec["leadpc"] = first[0] if lead else 0
    files = 4 if lead else 1
    sides = 2 if split else 1
    order = [(f, s) for f in range(files) for s in range(sides)]
    for f, s in order:
        sub = subs[(f, s)]
        p = _pairs(rd, p, sub["size"], sub, pool)
        sub["ok"] = 1
    for part, name_ in enumerate(("index", "sizes_at", "data")):
        for f, s in order:
            sub = subs[(f, s)]
            if part == 2:
                p = (p + 63) & ~63
            sub[name_] = p
            p += sub["sizes"][part]
    if p > len(raw):
        rd.fail("truncated file")
    rec["subs"] = subs
    return rec


def _pieces_of(counts: list[list[int]], swap: bool = False) -> list[int]:
    out = []
    for c in range(2):
        for t in range(1, 7):
            out += [t | ((c ^ swap) << 3)] * counts[c][t]
    return out


def table_dirs(path: str) -> list[str]:
    """The directories of a ``SyzygyPath`` value (``;`` or the OS path separator)."""
    return [d for part in path.split(";") for d in part.split(os.pathsep) if d.strip()]


def load_wdl(path: str, max_pieces: int = DEFAULT_MAX_PIECES) -> SyzygyTables:
    """Every ``.rtbw`` table of at most ``max_pieces`` pieces in the directories of ``path``
    (later directories do not replace a table already read)."""
    files: dict[str, Path] = {}
    for d in table_dirs(path):
        if not os.path.isdir(d):
            raise InvalidOption(f"SyzygyPath: no directory {d!r}")
        for entry in sorted(Path(d).iterdir()):
            if entry.suffix != ".rtbw" or not NAME.match(entry.stem):
                continue
            if len(entry.stem) - 1 <= max_pieces and entry.stem not in files:
                files[entry.stem] = entry
    pool: list[int] = []
    records = []
    chunks = []
    offset = 0
    for name, file in files.items():
        raw = file.read_bytes()
        rec = _parse(raw, name, str(file), pool)
        rec["name"] = name
        rec["at"] = offset
        records.append(rec)
        chunks.append(np.frombuffer(raw, dtype=np.uint8))
        offset += len(raw)
    if not records:
        return empty_tables()
    keys: dict[int, int] = {}
    for t, rec in enumerate(records):
        for key in (rec["key"], K.mirror_key(rec["key"])):
            if key in keys and keys[key] != t:
                raise InvalidOption(f"Syzygy tables: {rec['name']} repeats a material")
            keys[key] = t
        rec["sym"] = 1 if rec["key"] == K.mirror_key(rec["key"]) else 0
    nkeys = len(keys)
    recs_at = K.HEADER + 2 * nkeys
    pool_at = recs_at + K.REC * len(records)
    index = np.zeros(pool_at + len(pool), dtype=np.int64)
    files_at = 8 * index.shape[0]  # the files follow the index in the one array
    index[K.H_NTAB] = len(records)
    index[K.H_MAXPC] = max(rec["num"] for rec in records)
    index[K.H_NKEYS] = nkeys
    index[K.H_KEYS] = K.HEADER
    index[K.H_RECS] = recs_at
    for i, key in enumerate(sorted(keys)):
        index[K.HEADER + 2 * i] = key
        index[K.HEADER + 2 * i + 1] = keys[key]
    for t, rec in enumerate(records):
        r = recs_at + t * K.REC
        index[r + K.R_NUM] = rec["num"]
        index[r + K.R_LEAD] = rec["lead"]
        index[r + K.R_OTHER] = rec["other"]
        index[r + K.R_ENC] = rec["enc"]
        index[r + K.R_SYM] = rec["sym"]
        index[r + K.R_KEY] = rec["key"]
        index[r + K.R_LEADPC] = rec["leadpc"]
        at = files_at + rec["at"]
        for (f, s), sub in rec["subs"].items():
            if not sub.get("ok"):
                continue
            u = r + K.R_SUB + (2 * f + s) * K.SUB
            index[u + K.U_OK] = 1
            n = rec["num"]
            index[u + K.U_PIECES : u + K.U_PIECES + n] = sub["pieces"]
            index[u + K.U_NORM : u + K.U_NORM + n] = sub["norm"]
            index[u + K.U_FACTOR : u + K.U_FACTOR + n] = sub["factor"]
            index[u + K.U_IDXBITS] = sub["idxbits"]
            index[u + K.U_BLOCKSIZE] = sub["blocksize"]
            index[u + K.U_MINLEN] = sub["min_len"]
            index[u + K.U_INDEX] = at + sub["index"]
            index[u + K.U_SIZES] = at + sub["sizes_at"]
            index[u + K.U_DATA] = at + sub["data"]
            index[u + K.U_SYMIDX] = at + sub["symidx"]
            index[u + K.U_SYMPAT] = at + sub["sympat"]
            index[u + K.U_SYMLEN] = pool_at + sub["symlen"]
            index[u + K.U_BASE] = pool_at + sub["base"]
    index[pool_at:] = np.array(pool, dtype=np.int64) if pool else 0
    pad = np.zeros(8 + (-offset) % 8, dtype=np.uint8)  # a whole number of int64 values
    blob = np.concatenate([index.view(np.uint8)] + chunks + [pad])
    names = tuple(rec["name"] for rec in records)
    return SyzygyTables(blob, names, int(index[K.H_MAXPC]))
