#ifndef DCB_STORE_SCHEMA_H
#define DCB_STORE_SCHEMA_H

#define STORE_APPLICATION_ID 1145258571   /* 'DCBK' in PRAGMA application_id */

/* SQL that takes the schema from from_version to from_version + 1, or NULL past the end. */
const char *store_schema_migration(int from_version);
int store_schema_latest(void);

#endif
