/* A sysfs directory of one-number counter files (class/net/IF/statistics, an RDMA port's
 * hw_counters) read once per sample. The listing is kept and every file stays open, read again
 * with pread at offset 0 (sysfs regenerates the text then), so a sample costs one system call
 * per counter instead of open, read and close plus a directory walk. When a file fails (the
 * device went away, a counter appeared) the directory is listed again on the next read. Open
 * files are capped below RLIMIT_NOFILE; past the cap, files are opened per read.
 *
 * The files a classifier calls important (the counters that map to a canonical metric) can be
 * read alone: the raw, unmapped ones are then read on every Nth sample only, which is how a
 * 300-file RDMA port fits the sampling budget (host.h, raw_every). */
#ifndef DCB_COUNTER_DIR_H
#define DCB_COUNTER_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct counter_file {
    char name[64];
    int fd; /* -1: opened per read */
    bool important;
};

struct counter_dir {
    char path[1400];
    int dirfd;                   /* -1 until listed */
    unsigned long long dev, ino; /* the directory listed: another one at path is relisted */
    struct counter_file *files;
    size_t n, cap;
    bool relist;
};

typedef void (*counter_dir_fn)(const char *name, uint64_t value, void *arg);
/* Called once per file when the directory is listed. */
typedef bool (*counter_dir_important_fn)(const char *name, void *arg);

void counter_dir_init(struct counter_dir *cd);
/* Reads every counter of path (skip: names to leave out, NULL-terminated, or NULL); lists it
 * first when path changed or a file failed last time. 0, or -errno when the directory cannot be
 * opened (the caller tells a missing directory from a forbidden one). */
int counter_dir_read(struct counter_dir *cd, const char *path, const char *const *skip,
                     counter_dir_fn fn, void *arg);
/* The same, reading only the important files unless all is true. */
int counter_dir_read_some(struct counter_dir *cd, const char *path, const char *const *skip,
                          bool all, counter_dir_important_fn important, counter_dir_fn fn,
                          void *arg);
void counter_dir_close(struct counter_dir *cd);

#endif
