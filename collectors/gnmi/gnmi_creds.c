#include "gnmi_creds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void gnmi_creds_wipe(struct gnmi_creds *c)
{
    volatile char *p = (volatile char *)c;
    for (size_t i = 0; i < sizeof(*c); i++)
        p[i] = 0;
}

static void trim(char **s, char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

int gnmi_creds_from_file(struct gnmi_creds *c, const char *path, struct dcb_err *err)
{
    memset(c, 0, sizeof(*c));
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return dcb_err_set(err, DCB_E_IO, "credentials %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return dcb_err_set(err, DCB_E_INVAL, "credentials %s: not a regular file", path);
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        close(fd);
        return dcb_err_set(err, DCB_E_PERM,
                           "credentials %s: mode %04o lets others read it; chmod 600 it", path,
                           (unsigned)(st.st_mode & 07777));
    }
    char buf[4096];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof(buf) - 1 && (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
        got += (size_t)n;
    close(fd);
    buf[got] = '\0';
    int rc = 0;
    char *line = buf;
    int lineno = 0;
    while (line && *line && rc == 0) {
        lineno++;
        char *nl = strchr(line, '\n');
        char *end = nl ? nl : line + strlen(line);
        char *s = line;
        trim(&s, &end);
        if (s < end && *s != '#') {
            char *sep = s;
            while (sep < end && *sep != ':' && *sep != '=')
                sep++;
            if (sep == end) {
                rc = dcb_err_set(err, DCB_E_INVAL,
                                 "credentials %s: line %d: expected "
                                 "'username: NAME' or 'password: SECRET'",
                                 path, lineno);
                break;
            }
            char *k = s, *ke = sep, *v = sep + 1, *ve = end;
            trim(&k, &ke);
            trim(&v, &ve);
            size_t vlen = (size_t)(ve - v);
            char *dst = NULL;
            if ((size_t)(ke - k) == 8 && !strncmp(k, "username", 8))
                dst = c->username;
            else if ((size_t)(ke - k) == 8 && !strncmp(k, "password", 8))
                dst = c->password;
            if (!dst)
                rc = dcb_err_set(err, DCB_E_INVAL,
                                 "credentials %s: line %d: unknown key "
                                 "(username or password)",
                                 path, lineno);
            else if (vlen >= GNMI_CRED_MAX)
                rc = dcb_err_set(err, DCB_E_INVAL, "credentials %s: line %d: value too long", path,
                                 lineno);
            else {
                memcpy(dst, v, vlen);
                dst[vlen] = '\0';
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    memset(buf, 0, sizeof(buf));
    if (rc == 0 && !c->username[0])
        rc = dcb_err_set(err, DCB_E_INVAL, "credentials %s: no username line", path);
    if (rc < 0)
        gnmi_creds_wipe(c);
    return rc;
}

int gnmi_creds_from_env(struct gnmi_creds *c)
{
    memset(c, 0, sizeof(*c));
    const char *u = getenv("DCBKIT_GNMI_USERNAME");
    const char *p = getenv("DCBKIT_GNMI_PASSWORD");
    if (!u || !*u)
        return 0;
    snprintf(c->username, sizeof(c->username), "%s", u);
    snprintf(c->password, sizeof(c->password), "%s", p ? p : "");
    return 1;
}
