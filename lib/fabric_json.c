/* A loaded fabric back to JSON, generators expanded: a file fabric_load_json accepts again. */
#include <stdio.h>

#include "fabric_json.h"
#include "qos_json.h"

static cJSON *reach_json(const struct fabric_device *d)
{
    if (d->reach != REACH_GNMI)
        return cJSON_CreateString(fabric_reach_name(d->reach));
    cJSON *r = cJSON_CreateObject();
    cJSON *g = cJSON_AddObjectToObject(r, "gnmi");
    cJSON_AddStringToObject(g, "target", d->gnmi.target);
    if (d->gnmi.insecure)
        cJSON_AddBoolToObject(g, "insecure", true);
    if (d->gnmi.tls_ca[0] || d->gnmi.tls_cert[0] || d->gnmi.tls_key[0]) {
        cJSON *t = cJSON_AddObjectToObject(g, "tls");
        if (d->gnmi.tls_ca[0])
            cJSON_AddStringToObject(t, "ca", d->gnmi.tls_ca);
        if (d->gnmi.tls_cert[0])
            cJSON_AddStringToObject(t, "cert", d->gnmi.tls_cert);
        if (d->gnmi.tls_key[0])
            cJSON_AddStringToObject(t, "key", d->gnmi.tls_key);
    }
    if (d->gnmi.credentials[0])
        cJSON_AddStringToObject(g, "credentials", d->gnmi.credentials);
    if (d->gnmi.map[0])
        cJSON_AddStringToObject(g, "map", d->gnmi.map);
    return r;
}

cJSON *fabric_to_json(const struct fabric *f)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    if (f->name[0])
        cJSON_AddStringToObject(root, "name", f->name);
    cJSON_AddItemToObject(root, "defaults", qos_to_json(&f->defaults));
    cJSON_AddItemToObject(root, "host_defaults", qos_to_json(&f->role_defaults[FABRIC_HOST]));
    cJSON_AddItemToObject(root, "switch_defaults", qos_to_json(&f->role_defaults[FABRIC_SWITCH]));
    cJSON *devices = cJSON_AddArrayToObject(root, "devices");
    for (size_t i = 0; i < f->ndevices; i++) {
        const struct fabric_device *d = &f->devices[i];
        cJSON *dj = cJSON_CreateObject();
        cJSON_AddStringToObject(dj, "name", d->name);
        if (d->naliases) {
            cJSON *aliases = cJSON_AddArrayToObject(dj, "aliases");
            for (size_t k = 0; k < d->naliases; k++)
                cJSON_AddItemToArray(aliases, cJSON_CreateString(d->aliases[k]));
        }
        cJSON_AddStringToObject(dj, "role", fabric_role_name(d->role));
        cJSON_AddItemToObject(dj, "reach", reach_json(d));
        cJSON_AddItemToObject(dj, "config", qos_to_json(&d->config));
        if (d->nifaces) {
            cJSON *ifs = cJSON_AddObjectToObject(dj, "interfaces");
            for (size_t k = 0; k < d->nifaces; k++)
                cJSON_AddItemToObject(ifs, d->ifaces[k].name, qos_to_json(&d->ifaces[k].config));
        }
        cJSON_AddItemToArray(devices, dj);
    }
    cJSON *links = cJSON_AddArrayToObject(root, "links");
    for (size_t i = 0; i < f->nlinks; i++) {
        const struct fabric_link *l = &f->links[i];
        cJSON *lj = cJSON_CreateObject();
        char end[DCB_DEVICE_MAX + DCB_IFNAME_MAX + 2];
        snprintf(end, sizeof(end), "%s:%s", l->a.device, l->a.ifname);
        cJSON_AddStringToObject(lj, "a", end);
        snprintf(end, sizeof(end), "%s:%s", l->b.device, l->b.ifname);
        cJSON_AddStringToObject(lj, "b", end);
        if (l->speed_bps)
            cJSON_AddNumberToObject(lj, "speed", (double)l->speed_bps);
        if (l->cable_set)
            cJSON_AddNumberToObject(lj, "cable_m", (double)l->cable_mm / 1000.0);
        cJSON_AddItemToArray(links, lj);
    }
    return root;
}
