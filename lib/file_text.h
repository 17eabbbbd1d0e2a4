/* Small text files users write (fabric files, scenarios, rules, counter maps, dumps): read whole
 * with a size cap, written whole or not at all, and parse errors placed as LINE:COL. */
#ifndef DCB_FILE_TEXT_H
#define DCB_FILE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

/* Reads a file of at most max bytes (a whole number of MiB) into a NUL-terminated buffer the
 * caller frees: a regular file, or a pipe (`<(ethtool -S eth0)`) read to its end.
 * Errors: "PATH: No such file or directory", "PATH: not a regular file" (a directory),
 * "PATH: larger than N MiB", read errors. */
int dcb_read_text_file(const char *path, size_t max, char **out, size_t *len, struct dcb_err *err);
/* Writes path whole or not at all: write fills a temporary file beside it (PATH.tmp.PID),
 * which then replaces path by a rename. On any failure path is left as it was and the
 * temporary file is removed. write returns 0, or -1 with errno set. */
int dcb_write_file_atomic(const char *path, int (*write)(FILE *fp, void *arg), void *arg,
                          struct dcb_err *err);
/* Line and column (from 1) of byte offset off in text. */
void dcb_text_position(const char *text, size_t off, int *line, int *col);

#endif
