/* The SQLite schema and its forward migrations. migrations[i] takes a database from
 * user_version i to i + 1; a new version appends one entry, never edits an old one. */
#include "store_schema.h"

#include <stddef.h>

static const char *const migrations[] = {
    /* 0 -> 1 */
    "PRAGMA application_id = 1145258571;" /* 'DCBK' */
    "CREATE TABLE series ("
    "  id INTEGER PRIMARY KEY,"
    "  device TEXT NOT NULL, ifname TEXT NOT NULL, metric TEXT NOT NULL,"
    "  prio INTEGER NOT NULL, queue INTEGER NOT NULL,"
    "  UNIQUE (device, ifname, metric, prio, queue));"
    /* Clustered by (series, ts): a range of one series is one contiguous B-tree walk. Batches
     * are sorted the same way before insertion. Counters are stored as integers (the raw
     * reading, two's complement above 2^63), gauges as reals. */
    "CREATE TABLE samples ("
    "  series INTEGER NOT NULL, ts INTEGER NOT NULL, value,"
    "  PRIMARY KEY (series, ts)) WITHOUT ROWID;"
    /* The newest sample of each series, kept with every commit: the live view's one query. */
    "CREATE TABLE latest ("
    "  series INTEGER PRIMARY KEY, ts INTEGER NOT NULL, value);"
    "CREATE TABLE events ("
    "  id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, kind TEXT NOT NULL,"
    "  device TEXT NOT NULL, ifname TEXT NOT NULL, prio INTEGER NOT NULL,"
    "  details TEXT NOT NULL);"
    "CREATE INDEX events_ts ON events (ts);"
    "CREATE TABLE config_snapshots ("
    "  id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, device TEXT NOT NULL,"
    "  ifname TEXT NOT NULL, source TEXT NOT NULL, config TEXT NOT NULL);"
    "CREATE INDEX config_snapshots_device ON config_snapshots (device, ifname, ts);"
    "CREATE TABLE runs ("
    "  id INTEGER PRIMARY KEY, started_ns INTEGER NOT NULL, ended_ns INTEGER,"
    "  command TEXT NOT NULL, source TEXT NOT NULL, version TEXT NOT NULL, host TEXT);"
    "CREATE TABLE findings ("
    "  id INTEGER PRIMARY KEY, run INTEGER REFERENCES runs (id), ts INTEGER NOT NULL,"
    "  rule TEXT NOT NULL, severity TEXT NOT NULL, device TEXT NOT NULL, ifname TEXT NOT NULL,"
    "  prio INTEGER NOT NULL, finding TEXT NOT NULL);"
    "CREATE INDEX findings_run ON findings (run);",
    /* 1 -> 2: the recent tier. With samples keyed (series, ts), a commit of one sample per
     * series dirtied one leaf page per series: at 96,000 series, ~96,000 pages (393 MB of WAL)
     * a commit in the steady state. Flushes append here instead, at the right edge (batch ids
     * only grow; inside a batch rows go in (series, ts) order), so a commit writes pages in
     * proportion to its rows; a merge moves the tier into samples in one sorted pass now and
     * then. A series' recent rows are in time order by (batch, ts): only samples newer than
     * everything stored for their series come here. recent_batches lists the batches so a
     * reader of one series seeks (batch, series) once per batch instead of scanning. */
    "CREATE TABLE recent_batches ("
    "  id INTEGER PRIMARY KEY, ts_min INTEGER NOT NULL, ts_max INTEGER NOT NULL,"
    "  rows INTEGER NOT NULL);"
    "CREATE TABLE samples_recent ("
    "  batch INTEGER NOT NULL, series INTEGER NOT NULL, ts INTEGER NOT NULL, value,"
    "  PRIMARY KEY (batch, series, ts)) WITHOUT ROWID;"
    /* both tiers, for hand-written SQL (the sqlite3 shell, scripts) */
    "CREATE VIEW samples_all (series, ts, value) AS"
    "  SELECT series, ts, value FROM samples"
    "  UNION ALL SELECT series, ts, value FROM samples_recent;",
    /* 2 -> 3: the main tier in packed blocks (lib/sample_block.h has the bytes). A merge of
     * one sample per row cost about a microsecond a sample on top of the flush's, so a 96,000
     * series collector spent ~0.1 core on merges alone; a block is one row for up to 128
     * samples of a series, times t0..t1, that overlaps no other block of the series.
     * store_sqlite.c then moves the rows of samples and samples_recent into blocks and chunks
     * and drops both tables (store_block_tier_convert_rows, store_recent_tier_convert_rows): the
     * bytes are made in C. samples_all goes with them: SQL by hand reads `dcbkit store export`. */
    "CREATE TABLE sample_blocks ("
    "  series INTEGER NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL,"
    "  n INTEGER NOT NULL, data BLOB NOT NULL,"
    "  PRIMARY KEY (series, t0)) WITHOUT ROWID;"
    /* The recent tier in chunks (lib/sample_chunk.h): a flush of 96,000 series is a few
     * hundred rows, not 96,000, and a merge reads them back as fast. series0..series1: the
     * series in the chunk, each once; n: its samples. */
    "CREATE TABLE recent_chunks ("
    "  batch INTEGER NOT NULL, series0 INTEGER NOT NULL, series1 INTEGER NOT NULL,"
    "  n INTEGER NOT NULL, data BLOB NOT NULL,"
    "  PRIMARY KEY (batch, series0)) WITHOUT ROWID;"
    "DROP VIEW samples_all;",
    /* 3 -> 4: a counter's width (32 for mlx5 Q-counters), so that every reader tells a wrap
     * from a reset; 64 for what was stored before, as readers took it then. A read-only open
     * reads a schema 3 store as it is (STORE_SCHEMA_READABLE), every width 64. */
    "ALTER TABLE series ADD COLUMN bits INTEGER NOT NULL DEFAULT 64;",
};

const char *store_schema_migration(int from_version)
{
    if (from_version < 0 || (size_t)from_version >= sizeof(migrations) / sizeof(migrations[0]))
        return NULL;
    return migrations[from_version];
}

int store_schema_latest(void)
{
    return (int)(sizeof(migrations) / sizeof(migrations[0]));
}
