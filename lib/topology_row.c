#include "topology_row.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

char *topology_row_json(const char *role, const char *peer_device, const char *peer_ifname,
                        const char *peer_role, const char *via)
{
    cJSON *j = cJSON_CreateObject();
    bool ok = j && (!role || cJSON_AddStringToObject(j, "role", role));
    if (ok && peer_device) {
        cJSON *q = cJSON_AddObjectToObject(j, "peer");
        ok = q && cJSON_AddStringToObject(q, "device", peer_device) &&
             cJSON_AddStringToObject(q, "ifname", peer_ifname ? peer_ifname : "") &&
             (!peer_role || cJSON_AddStringToObject(q, "role", peer_role));
    }
    ok = ok && (!via || cJSON_AddStringToObject(j, "via", via));
    char *text = ok ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return text;
}

char *alias_row_json(const char *const *names, size_t n)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *list = j ? cJSON_AddArrayToObject(j, "names") : NULL;
    bool ok = list != NULL;
    for (size_t i = 0; ok && i < n; i++)
        if (names[i] && names[i][0])
            ok = cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
    char *text = ok && cJSON_GetArraySize(list) ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return text;
}

void lldp_neighbor_rows(int64_t time_ns, const char *device, const char *ifname, const char *peer,
                        const char *peer_port, const char *chassis,
                        void (*put)(void *arg, const struct store_config_row *row), void *arg)
{
    char *where = topology_row_json(NULL, peer, peer_port ? peer_port : "", NULL, "lldp");
    struct store_config_row row = { time_ns, device, ifname, "topology:lldp", where };
    if (where)
        put(arg, &row);
    free(where);
    char *aliases = chassis && chassis[0] && strcmp(chassis, peer) ? alias_row_json(&chassis, 1)
                                                                   : NULL;
    struct store_config_row alias = { time_ns, peer, "", "alias:lldp", aliases };
    if (aliases)
        put(arg, &alias);
    free(aliases);
}
