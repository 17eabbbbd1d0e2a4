#include "privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

static int kept(unsigned keep, cap_value_t *caps)
{
    int n = 0;
    if (keep & PRIVS_NET_RAW)
        caps[n++] = CAP_NET_RAW;
    if (keep & PRIVS_NET_ADMIN)
        caps[n++] = CAP_NET_ADMIN;
    if (keep & PRIVS_READ_ANY)
        caps[n++] = CAP_DAC_READ_SEARCH;
    return n;
}

int privs_drop(unsigned keep, struct dcb_err *err)
{
    if (geteuid() != 0)
        return 0;
    const struct passwd *pw = getpwnam("nobody");
    if (!pw)
        return dcb_err_set(err, DCB_E_NOTFOUND, "dropping root: no user 'nobody'");
    cap_value_t caps[3];
    int n = kept(keep, caps);
    cap_t now = cap_get_proc(); /* keep only what is held: a container may lack some */
    int held = 0;
    for (int i = 0; now && i < n; i++) {
        cap_flag_value_t v = CAP_CLEAR;
        if (cap_get_flag(now, caps[i], CAP_PERMITTED, &v) == 0 && v == CAP_SET)
            caps[held++] = caps[i];
    }
    cap_free(now);
    n = held;
    if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 || setgroups(0, NULL) < 0 ||
        setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
        setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0)
        return dcb_err_set(err, DCB_E_PERM, "dropping root: %s", strerror(errno));
    cap_t c = cap_init(); /* empty: then only what is kept, and only if it was held */
    int rc = c ? 0 : -1;
    if (rc == 0 && n)
        rc = cap_set_flag(c, CAP_PERMITTED, n, caps, CAP_SET) |
             cap_set_flag(c, CAP_EFFECTIVE, n, caps, CAP_SET);
    if (rc == 0)
        rc = cap_set_proc(c);
    cap_free(c);
    if (rc < 0)
        return dcb_err_set(err, DCB_E_PERM, "dropping capabilities: %s", strerror(errno));
    prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (setuid(0) == 0) /* must be impossible now */
        return dcb_err_set(err, DCB_E_PERM, "dropping root: root could be regained");
    return 0;
}

const char *privs_describe(unsigned keep)
{
    switch (keep) {
    case 0: return "nobody, no capabilities";
    case PRIVS_NET_RAW: return "nobody with CAP_NET_RAW";
    case PRIVS_NET_RAW | PRIVS_NET_ADMIN: return "nobody with CAP_NET_RAW and CAP_NET_ADMIN";
    case PRIVS_NET_RAW | PRIVS_READ_ANY: return "nobody with CAP_NET_RAW and CAP_DAC_READ_SEARCH";
    default: return "nobody with CAP_NET_RAW, CAP_NET_ADMIN and CAP_DAC_READ_SEARCH";
    }
}
