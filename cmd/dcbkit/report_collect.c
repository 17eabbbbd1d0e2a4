/* dcbkit report --collect: sample every device of the fabric into the store now, for the given
 * time, before the report reads its window. Each device by how the fabric file reaches it:
 *   local  this host, through `dcbkit collect` (the host collectors) run as a child;
 *   gnmi   every such device at once, in this process, through the gNMI source
 *          (report_collect_gnmi.c) while the local collectors run;
 *   none   nothing to collect; the device is judged on what the store already holds. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

struct child {
    pid_t pid;
    size_t device;
    FILE *err;           /* its stderr, for the reason when it fails */
};

int report_collect_fail(struct report_collect_result **failed, size_t *n, const char *device,
                        const char *why)
{
    struct report_collect_result *g = realloc(*failed, (*n + 1) * sizeof(*g));
    if (!g)
        return -1;
    *failed = g;
    snprintf(g[*n].device, sizeof(g[*n].device), "%s", device);
    snprintf(g[*n].why, sizeof(g[*n].why), "%s", why);
    (*n)++;
    return 0;
}

static pid_t spawn_local(const struct fabric_device *d, const char *store_path,
                         int64_t duration_ns, int64_t interval_ns, FILE *err)
{
    char duration[32], interval[32];
    snprintf(duration, sizeof(duration), "%" PRId64 "ms", duration_ns / 1000000);
    snprintf(interval, sizeof(interval), "%" PRId64 "ms", interval_ns / 1000000);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        dup2(fd, STDIN_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    fd = open("/dev/null", O_WRONLY);
    if (fd >= 0)
        dup2(fd, STDOUT_FILENO);
    execl("/proc/self/exe", "dcbkit", "collect", "--store", store_path, "--duration", duration,
          "--interval", interval, "--device", d->name, (char *)NULL);
    fprintf(stderr, "cannot run dcbkit collect: %s\n", strerror(errno));
    _exit(127);
}

/* The last non-empty line the child wrote on stderr, without the "dcbkit: " prefix. */
static void child_reason(FILE *err, int status, char *why, size_t len)
{
    char line[512], last[512] = "";
    rewind(err);
    while (fgets(line, sizeof(line), err)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(last, sizeof(last), "%s", line);
    }
    const char *text = strncmp(last, "dcbkit: ", 8) == 0 ? last + 8 : last;
    if (text[0])
        snprintf(why, len, "%s%.200s", strncmp(text, "collect", 7) ? "collect: " : "", text);
    else if (WIFSIGNALED(status))
        snprintf(why, len, "collect was killed by signal %d", WTERMSIG(status));
    else
        snprintf(why, len, "collect exited with status %d", WEXITSTATUS(status));
}

int report_collect(const struct fabric *fab, const char *store_path, int64_t duration_ns,
                   int64_t interval_ns, struct report_collect_result **failed, size_t *nfailed,
                   struct dcb_err *err)
{
    *failed = NULL;
    *nfailed = 0;
    struct child *kids = calloc(fab->ndevices ? fab->ndevices : 1, sizeof(*kids));
    if (!kids)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    size_t nkids = 0;
    int rc = 0;
    for (size_t i = 0; i < fab->ndevices && rc == 0; i++) {
        const struct fabric_device *d = &fab->devices[i];
        if (d->reach == REACH_LOCAL) {
            FILE *e = tmpfile();
            pid_t pid = e ? spawn_local(d, store_path, duration_ns, interval_ns, e) : -1;
            if (pid < 0) {
                if (e)
                    fclose(e);
                rc = report_collect_fail(failed, nfailed, d->name, strerror(errno));
            } else {
                kids[nkids++] = (struct child){ pid, i, e };
            }
        }
    }
    /* the gNMI devices in this process while the local collectors run */
    if (rc == 0 && report_collect_gnmi(fab, store_path, duration_ns, interval_ns, failed,
                                       nfailed, err) < 0)
        rc = -2;
    for (size_t k = 0; k < nkids; k++) {
        int status = 0;
        while (waitpid(kids[k].pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            char why[256];
            child_reason(kids[k].err, status, why, sizeof(why));
            if (rc == 0)
                rc = report_collect_fail(failed, nfailed, fab->devices[kids[k].device].name, why);
        }
        fclose(kids[k].err);
    }
    free(kids);
    if (rc == -2)
        return -1;
    return rc < 0 ? dcb_err_set(err, DCB_E_NOMEM, "out of memory") : 0;
}
