/* Reading the one-value files sysfs and debugfs expose. */
#ifndef DCB_SYSFS_FILE_H
#define DCB_SYSFS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The first line of dirfd/path (AT_FDCWD for a plain path), newline dropped; false if the
 * file is missing, unreadable or empty. */
bool sysfs_read_line(int dirfd, const char *path, char *out, size_t len);
/* A file holding one unsigned decimal number. */
bool sysfs_read_u64(int dirfd, const char *path, uint64_t *value);
/* The same number from bytes already read (len of them): one decimal, an optional newline. */
bool sysfs_parse_u64(const char *buf, size_t len, uint64_t *value);

#endif
