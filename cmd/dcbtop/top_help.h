/* dcbtop's documentation (top_help.c): the command description cmd/cli renders for --help and
 * --man, and the keys of the help screen. */
#ifndef DCBTOP_HELP_H
#define DCBTOP_HELP_H

#include <stddef.h>

#include "cli.h"

extern const struct cli_command top_command;
/* The k-th key of the help screen and what it does; NULL past the last. */
const char *top_doc_key(size_t k, const char **text);

#endif
