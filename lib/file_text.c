/* Whole small text files and positions in them. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"

int dcb_read_text_file(const char *path, size_t max, char **out, size_t *len,
                       struct dcb_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return dcb_err_set(err, errno == EACCES ? DCB_E_PERM : DCB_E_NOTFOUND, "%s: %s", path,
                           strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return dcb_err_set(err, DCB_E_INVAL, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        return dcb_err_set(err, DCB_E_RANGE, "%s: larger than %zu MiB", path, max >> 20);
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    if (!buf) {
        close(fd);
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", path);
    }
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = errno;
            free(buf);
            close(fd);
            return dcb_err_set(err, DCB_E_IO, "%s: %s", path, n < 0 ? strerror(e) : "file shrank");
        }
        got += (size_t)n;
    }
    close(fd);
    buf[size] = '\0';
    *out = buf;
    *len = size;
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
