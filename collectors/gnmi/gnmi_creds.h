/* gNMI credentials, never from the command line: a file that only its owner can read or
 * write (mode 0600 or stricter, checked on the open descriptor), or the environment
 * (DCBKIT_GNMI_USERNAME, DCBKIT_GNMI_PASSWORD). The file holds lines
 *     username: admin
 *     password: s3cret
 * ("=" works as well as ":"; blank lines and lines starting with '#' are skipped).
 * Errors never quote the file's contents. */
#ifndef DCB_GNMI_CREDS_H
#define DCB_GNMI_CREDS_H

#include <stddef.h>

#include "err.h"

#define GNMI_CRED_MAX 256

struct gnmi_creds {
    char username[GNMI_CRED_MAX];
    char password[GNMI_CRED_MAX];
};

int gnmi_creds_from_file(struct gnmi_creds *c, const char *path, struct dcb_err *err);
/* 1 when the environment named a username, 0 when it did not. */
int gnmi_creds_from_env(struct gnmi_creds *c);
/* Overwrites the secrets. */
void gnmi_creds_wipe(struct gnmi_creds *c);

#endif
