/* Whole small text files and positions in them. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"

/* Reads fd to its end into a buffer of at least cap bytes, growing it; more than max is an
 * error. */
static int read_to_end(int fd, const char *path, size_t cap, size_t max, char **out, size_t *len,
                       struct dcb_err *err)
{
    char *buf = NULL;
    size_t got = 0;
    for (;;) {
        if (got == cap || !buf) {
            cap = buf ? cap * 2 : cap;
            if (cap > max + 1)
                cap = max + 1;
            char *grown = got <= max ? realloc(buf, cap + 1) : NULL;
            if (!grown) {
                free(buf);
                if (got > max)
                    return dcb_err_set(err, DCB_E_RANGE, "%s: larger than %zu MiB", path,
                                       max >> 20);
                return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", path);
            }
            buf = grown;
        }
        ssize_t n = read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return dcb_err_set(err, DCB_E_IO, "%s: %s", path, strerror(e));
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    if (got > max) {
        free(buf);
        return dcb_err_set(err, DCB_E_RANGE, "%s: larger than %zu MiB", path, max >> 20);
    }
    buf[got] = '\0';
    *out = buf;
    *len = got;
    return 0;
}

int dcb_read_text_file(const char *path, size_t max, char **out, size_t *len, struct dcb_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return dcb_err_set(err, errno == EACCES ? DCB_E_PERM : DCB_E_NOTFOUND, "%s: %s", path,
                           strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return dcb_err_set(err, DCB_E_INVAL, "%s: not a regular file", path);
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
        close(fd);
        return dcb_err_set(err, DCB_E_RANGE, "%s: larger than %zu MiB", path, max >> 20);
    }
    /* a regular file in one read (and one more to see its end); a pipe in growing steps */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
    int rc = read_to_end(fd, path, cap, max, out, len, err);
    close(fd);
    return rc;
}

int dcb_write_file_atomic(const char *path, int (*write)(FILE *fp, void *arg), void *arg,
                          struct dcb_err *err)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
        return dcb_err_set(err, DCB_E_RANGE, "%s: path too long", path);
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        return dcb_err_set(err, DCB_E_IO, "%s: %s", tmp, strerror(errno));
    errno = 0;
    int rc = write(fp, arg);
    int saved = errno;
    if (fclose(fp) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        unlink(tmp);
        return dcb_err_set(err, DCB_E_IO, "%s: %s", path, strerror(saved ? saved : EIO));
    }
    return 0;
}

void dcb_text_position(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}
