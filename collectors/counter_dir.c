/* Counter directories read with kept file descriptors; see counter_dir.h. */
#include "counter_dir.h"
#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs_file.h"

#define FD_RESERVE 256 /* descriptors left for everything else */

static long fds_kept, fds_budget = -1;

/* Raises the soft descriptor limit to the hard one, once, and sets the budget under it. */
static bool may_keep_fd(void)
{
    if (fds_budget < 0) {
        struct rlimit rl;
        fds_budget = 0;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
            if (rl.rlim_cur < rl.rlim_max) {
                struct rlimit raised = { rl.rlim_max, rl.rlim_max };
                if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
                    rl = raised;
            }
            rlim_t cap = rl.rlim_cur == RLIM_INFINITY ? 65536 : rl.rlim_cur;
            fds_budget = cap > FD_RESERVE ? (long)(cap - FD_RESERVE) : 0;
        }
    }
    return fds_kept < fds_budget;
}

void counter_dir_init(struct counter_dir *cd)
{
    memset(cd, 0, sizeof(*cd));
    cd->dirfd = -1;
}

static void drop_files(struct counter_dir *cd)
{
    for (size_t i = 0; i < cd->n; i++)
        if (cd->files[i].fd >= 0) {
            close(cd->files[i].fd);
            fds_kept--;
        }
    cd->n = 0;
    if (cd->dirfd >= 0)
        close(cd->dirfd);
    cd->dirfd = -1;
}

void counter_dir_close(struct counter_dir *cd)
{
    drop_files(cd);
    free(cd->files);
    counter_dir_init(cd);
}

static bool skipped(const char *name, const char *const *skip)
{
    if (name[0] == '.')
        return true;
    for (; skip && *skip; skip++)
        if (!strcmp(*skip, name))
            return true;
    return false;
}

static int list(struct counter_dir *cd, const char *path, const char *const *skip,
                counter_dir_important_fn important, void *arg)
{
    drop_files(cd);
    snprintf(cd->path, sizeof(cd->path), "%s", path);
    cd->relist = false;
    cd->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cd->dirfd < 0)
        return -errno;
    struct stat st;
    if (fstat(cd->dirfd, &st) == 0) {
        cd->dev = st.st_dev;
        cd->ino = st.st_ino;
    }
    DIR *d = opendir(path);
    if (!d)
        return -errno;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (skipped(e->d_name, skip) || strlen(e->d_name) >= sizeof(cd->files[0].name))
            continue;
        if (cd->n == cd->cap && dcb_grow(&cd->files, &cd->cap, sizeof(*cd->files), 32) < 0)
            break;
        struct counter_file *f = &cd->files[cd->n++];
        snprintf(f->name, sizeof(f->name), "%s", e->d_name);
        f->important = !important || important(f->name, arg);
        f->fd = may_keep_fd() ? openat(cd->dirfd, f->name, O_RDONLY | O_CLOEXEC) : -1;
        if (f->fd >= 0)
            fds_kept++;
    }
    closedir(d);
    return 0;
}

/* 1 with *value, 0 when the file holds no number, -1 when it cannot be read. */
static int read_file(struct counter_dir *cd, const struct counter_file *f, uint64_t *value)
{
    char buf[64];
    ssize_t n;
    if (f->fd >= 0) {
        n = pread(f->fd, buf, sizeof(buf) - 1, 0);
    } else {
        int fd = openat(cd->dirfd, f->name, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
    }
    if (n < 0)
        return -1;
    return n > 0 && sysfs_parse_u64(buf, (size_t)n, value) ? 1 : 0;
}

int counter_dir_read(struct counter_dir *cd, const char *path, const char *const *skip,
                     counter_dir_fn fn, void *arg)
{
    return counter_dir_read_some(cd, path, skip, true, NULL, fn, arg);
}

int counter_dir_read_some(struct counter_dir *cd, const char *path, const char *const *skip,
                          bool all, counter_dir_important_fn important, counter_dir_fn fn,
                          void *arg)
{
    /* one stat per directory and sample: an interface deleted and made again (or a fixture
     * tree swapped in) is a new directory, whose files the kept descriptors do not see */
    struct stat st;
    bool moved = cd->dirfd >= 0 &&
                 (stat(path, &st) != 0 || st.st_dev != cd->dev || st.st_ino != cd->ino);
    if (cd->dirfd < 0 || cd->relist || moved || strcmp(cd->path, path) != 0) {
        int rc = list(cd, path, skip, important, arg);
        if (rc < 0)
            return rc;
        all = true; /* a fresh listing: every counter once */
    }
    for (size_t i = 0; i < cd->n; i++) {
        if (!all && !cd->files[i].important)
            continue;
        uint64_t v;
        int rc = read_file(cd, &cd->files[i], &v);
        if (rc > 0)
            fn(cd->files[i].name, v, arg);
        else if (rc < 0)
            cd->relist = true; /* gone (ENODEV, ENOENT): list again next time */
    }
    return 0;
}
