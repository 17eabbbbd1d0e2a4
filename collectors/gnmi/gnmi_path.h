/* gNMI paths as text, in the form gnmic and the gNMI path conventions use:
 *   /interfaces/interface[name=Ethernet0]/state/counters     elements and keys
 *   openconfig:/interfaces/...                                an origin before ":/"
 * Keys may hold '/', and "\]" / "\\" escape inside a key value. The target (SONiC's
 * COUNTERS_DB, CONFIG_DB) is not part of the text; it travels separately. */
#ifndef DCB_GNMI_PATH_H
#define DCB_GNMI_PATH_H

#include <stddef.h>

#include "err.h"
#include "gnmi.pb-c.h"

#define GNMI_PATH_MAX 1024

/* Parses text into a newly allocated Path (free with gnmi_path_free). */
int gnmi_path_parse(const char *text, const char *target, Gnmi__Path **out, struct dcb_err *err);
void gnmi_path_free(Gnmi__Path *p);
/* Appends the elements of p (and the deprecated string elements) to buf as "/a/b[k=v]".
 * Returns the new length, or -1 when it does not fit (buf then ends at the last whole elem). */
int gnmi_path_append(char *buf, size_t cap, size_t len, const Gnmi__Path *p);
/* Appends one element name and its keys. */
int gnmi_path_append_elem(char *buf, size_t cap, size_t len, const char *name,
                          Gnmi__PathKey *const *keys, size_t nkeys);

#endif
