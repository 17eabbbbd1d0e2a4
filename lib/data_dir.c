/* The installed data folders; see data_dir.h. */
#include "data_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dcb_data_dir(const char *env_var, const char *name, const char *source_dir, char *buf,
                 size_t len)
{
    const char *env = getenv(env_var);
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return 0;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        struct stat st;
        if (slash) {
            *slash = '\0';
            snprintf(buf, len, "%s/../share/dcbkit/%s", exe, name);
            if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
                return 0;
        }
    }
    if (!source_dir)
        return -1;
    snprintf(buf, len, "%s", source_dir);
    return 0;
}
