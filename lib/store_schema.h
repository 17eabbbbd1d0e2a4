#ifndef DCB_STORE_SCHEMA_H
#define DCB_STORE_SCHEMA_H

#define STORE_APPLICATION_ID 1145258571 /* 'DCBK' in PRAGMA application_id */
/* The oldest schema a read-only open reads without upgrading it (what came after only added a
 * column with a default); older ones are opened once for writing first. */
#define STORE_SCHEMA_READABLE 3
/* The first schema with series.bits, the counters' widths. */
#define STORE_SCHEMA_WIDTHS 4

/* SQL that takes the schema from from_version to from_version + 1, or NULL past the end. */
const char *store_schema_migration(int from_version);
int store_schema_latest(void);

#endif
