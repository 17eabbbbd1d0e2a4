#include "sysfs_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool sysfs_read_line(int dirfd, const char *path, char *out, size_t len)
{
    int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, out, len - 1);
    close(fd);
    if (n <= 0)
        return false;
    out[n] = '\0';
    out[strcspn(out, "\n")] = '\0';
    return out[0] != '\0';
}

bool sysfs_parse_u64(const char *bytes, size_t len, uint64_t *value)
{
    /* by hand: this runs for every counter of every sample */
    if (len && bytes[len - 1] == '\n')
        len--;
    if (!len || len > 20)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned char)bytes[i] - '0';
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *value = x;
    return true;
}

bool sysfs_read_u64(int dirfd, const char *path, uint64_t *value)
{
    char buf[64];
    if (!sysfs_read_line(dirfd, path, buf, sizeof(buf)))
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(buf, &end, 10);
    if (errno || end == buf || *end || buf[0] == '-')
        return false;
    *value = x;
    return true;
}
