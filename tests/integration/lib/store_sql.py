"""SQL over a dcbkit store's samples, for tests: connect() returns a sqlite3 connection with a
TEMP table samples_all (series, ts, value) holding both tiers, the recent tier's chunks and the
main tier's blocks decoded here. This decoder is written from the formats in lib/sample_block.h
and lib/sample_chunk.h, apart from the C one, so a test reading through it also checks them.
Counters come back as Python ints (the raw reading, unsigned), gauges as floats."""
import sqlite3
import struct


class BlockError(ValueError):
    pass


def _varint(data, pos):
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise BlockError("varint runs past the block")
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            if shift == 63 and b > 1:
                raise BlockError("varint past 64 bits")
            return value & MASK, pos
        shift += 7


def _unzigzag(z):
    return (z >> 1) ^ -(z & 1)


MASK = (1 << 64) - 1


def _signed(v):
    """A 64-bit two's complement value as a Python int (C's arithmetic wraps; Python's not)."""
    v &= MASK
    return v - (1 << 64) if v >> 63 else v


def decode_block(t0, n, data):
    """[(ts, value)] of one block; raises BlockError on malformed bytes."""
    out = []
    pos = 0
    ts, step, prev = t0, 0, 0
    mask = (1 << 64) - 1
    for i in range(n):
        head, pos = _varint(data, pos)
        if head == 3:
            if pos + 8 > len(data):
                raise BlockError("escape runs past the block")
            new_ts = struct.unpack_from("<q", data, pos)[0]
            pos += 8
            kind, pos = _varint(data, pos)
            step = (new_ts - ts) & MASK
        else:
            kind = head & 3
            step = (step + _unzigzag(head >> 2)) & MASK
            if i > 0 and (step == 0 or step > (1 << 63) - 1 - ts):
                raise BlockError("time step past the end of time in block at %d" % t0)
            new_ts = _signed(ts + step)
        if kind > 2 or (i == 0 and new_ts != t0) or (i > 0 and new_ts <= ts):
            raise BlockError("bad kind or time in block at %d" % t0)
        ts = new_ts
        if kind == 0:
            z, pos = _varint(data, pos)
            prev = (prev + _unzigzag(z)) & mask
            out.append((ts, prev))
        elif kind == 1:
            z, pos = _varint(data, pos)
            prev = (prev + _unzigzag(z)) & mask
            signed = prev - (1 << 64) if prev >> 63 else prev
            out.append((ts, float(signed)))
        else:
            if pos + 8 > len(data):
                raise BlockError("gauge runs past the block")
            out.append((ts, struct.unpack_from("<d", data, pos)[0]))
            pos += 8
    if pos != len(data):
        raise BlockError("bytes left over in block at %d" % t0)
    return out


def decode_chunk(series0, data):
    """[(series, [(ts, value)])] of one recent-tier chunk; raises BlockError when malformed."""
    out = []
    pos = 0
    series, t0 = series0, 0
    while pos < len(data):
        dseries, pos = _varint(data, pos)
        n, pos = _varint(data, pos)
        zt0, pos = _varint(data, pos)
        blen, pos = _varint(data, pos)
        if (dseries == 0) != (not out) or n == 0 or pos + blen > len(data):
            raise BlockError("bad series head in chunk from %d" % series0)
        series = _signed(series + dseries)
        t0 = _signed(t0 + _unzigzag(zt0))
        out.append((series, decode_block(t0, n, data[pos:pos + blen])))
        pos += blen
    return out


def count_samples(con):
    """Samples in both tiers, without decoding a block."""
    return con.execute("SELECT (SELECT coalesce(sum(n), 0) FROM sample_blocks) + "
                       "(SELECT coalesce(sum(n), 0) FROM recent_chunks)").fetchone()[0]


def connect(path, readonly=True, t0=None, t1=None):
    """A connection to the store at path with TEMP samples_all filled from both tiers; with
    t0/t1, only the samples in [t0, t1) (the blocks that reach into it are decoded)."""
    uri = "file:%s?mode=ro" % path if readonly else "file:%s" % path
    con = sqlite3.connect(uri, uri=True)
    con.execute("CREATE TEMP TABLE samples_all (series INTEGER, ts INTEGER, value)")
    con.execute("BEGIN")
    lo = -(1 << 63) if t0 is None else t0
    hi = (1 << 63) - 1 if t1 is None else t1 - 1
    rows = []
    for series, b0, n, data in con.execute("SELECT series, t0, n, data FROM sample_blocks "
                                           "WHERE t1 >= ? AND t0 <= ?", (lo, hi)):
        for ts, value in decode_block(b0, n, bytes(data)):
            if isinstance(value, int) and value >> 63:
                value -= 1 << 64            # SQLite integers are signed
            if lo <= ts <= hi:
                rows.append((series, ts, value))
    for series0, data in con.execute("SELECT c.series0, c.data FROM recent_batches b JOIN "
                                     "recent_chunks c ON c.batch = b.id "
                                     "WHERE b.ts_max >= ? AND b.ts_min <= ?", (lo, hi)):
        for series, samples in decode_chunk(series0, bytes(data)):
            for ts, value in samples:
                if isinstance(value, int) and value >> 63:
                    value -= 1 << 64
                if lo <= ts <= hi:
                    rows.append((series, ts, value))
    con.executemany("INSERT INTO temp.samples_all VALUES (?, ?, ?)", rows)
    con.execute("COMMIT")
    return con
