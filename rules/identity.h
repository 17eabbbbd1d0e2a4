/* The names one device goes by, joined. A device's data (samples, config) is kept under one
 * name; LLDP names it by its system name or chassis ID, a gNMI source by its target address, a
 * fabric file by its own name and the aliases it lists. "alias:*" config rows in the store hold
 * the joins ({"names": [...]} under the device that goes by them); this resolves a name to the
 * device it means, and finds the aliases two devices claim. */
#ifndef DCB_IDENTITY_H
#define DCB_IDENTITY_H

#include <stddef.h>

struct identity;

struct identity *identity_new(void);
void identity_free(struct identity *id);
/* A device with data of its own: its name is what the others resolve to. 0, or -1 out of
 * memory. */
int identity_add_device(struct identity *id, const char *device);
/* device also goes by alias. 0, or -1 out of memory. */
int identity_add_alias(struct identity *id, const char *device, const char *alias);
/* Once every device and alias is in. */
void identity_build(struct identity *id);
/* The device name means: name itself when it is a device; else the one device its claimants
 * lead to (through at most a few aliases of aliases); NULL when none, or when two devices
 * claim it. */
const char *identity_resolve(const struct identity *id, const char *name);
/* How many of the device's aliases another device claims too; *alias and *other name the first
 * such (alphabetically), else they are set to NULL. */
size_t identity_conflicts(const struct identity *id, const char *device, const char **alias,
                          const char **other);

#endif
