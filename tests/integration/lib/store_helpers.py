"""Shared by the store integration tests: paths, the dcbkit binary, sample streams."""
import json
import os
import sqlite3
import sys

import store_sql

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def skip(msg):
    print("skip: " + msg)
    sys.exit(77)


def write_stream(path, seconds, series, t_offset=0, start_value=0):
    """Time-major samples: every series at t, then every series at t+1; value = t."""
    with open(path, "w") as f:
        for t in range(t_offset, t_offset + seconds):
            for s in range(series):
                f.write(json.dumps({"ts": t * 1000000000, "device": "h%d" % (s // 100),
                                    "ifname": "eth%d" % (s % 100), "metric": "pfc.rx_pause",
                                    "prio": 3, "queue": -1, "value": start_value + t}) + "\n")


def db_check(path):
    """integrity_check of the database, through SQLite itself."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        n = store_sql.count_samples(con)
    finally:
        con.close()
    return ok, n
