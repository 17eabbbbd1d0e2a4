/* Where dcbkit finds the data it installs (counter maps, the rule catalog). */
#ifndef DCB_DATA_DIR_H
#define DCB_DATA_DIR_H

#include <stddef.h>

/* $env_var when set, else <folder of the running binary>/../share/dcbkit/<name> when it exists,
 * else source_dir (the source tree's copy, built in; NULL for none). 0, or -1 when none. */
/* The source tree's copies, which the Makefile builds in; a build without it has none. */
#ifndef DCBKIT_SOURCE_MAPS
#define DCBKIT_SOURCE_MAPS NULL
#endif
#ifndef DCBKIT_SOURCE_RULES
#define DCBKIT_SOURCE_RULES NULL
#endif
#ifndef DCBKIT_SOURCE_DOCS
#define DCBKIT_SOURCE_DOCS NULL
#endif

int dcb_data_dir(const char *env_var, const char *name, const char *source_dir, char *buf,
                 size_t len);

#endif
