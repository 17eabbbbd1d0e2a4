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
