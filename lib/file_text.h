/* Small text files users write (fabric files, scenarios): read whole with a size cap, and
 * parse errors placed as LINE:COL. */
#ifndef DCB_FILE_TEXT_H
#define DCB_FILE_TEXT_H

#include <stddef.h>

#include "err.h"

/* Reads a regular file of at most max bytes into a NUL-terminated buffer the caller frees.
 * Errors: "PATH: No such file or directory", "PATH: not a regular file", "PATH: larger than N
 * MiB", read errors. */
int dcb_read_text_file(const char *path, size_t max, char **out, size_t *len,
                       struct dcb_err *err);
/* Line and column (from 1) of byte offset off in text. */
void dcb_text_position(const char *text, size_t off, int *line, int *col);

#endif
