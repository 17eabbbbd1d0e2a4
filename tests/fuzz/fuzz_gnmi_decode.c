/* libFuzzer: what a gNMI target sends back, decoded as dcbkit does: a SubscribeResponse (first
 * byte even) or a GetResponse (odd) checked by pb_check, then through protobuf-c, then every
 * notification flattened into leaves, JSON / JSON_IETF values parsed with cJSON, numbers read
 * from strings, and each leaf matched against the SONiC and OpenConfig maps' key form. Leaves
 * always carry a terminated path that starts with '/' or is empty; a message pb_check passes
 * always unpacks, and one it refuses comes with its reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gnmi.pb-c.h"
#include "gnmi_msg.h"
#include "pb_check.h"

static int on_leaf(const struct gnmi_leaf *l, void *arg)
{
    (void)arg;
    if (!l->path || !l->target || !l->origin || (l->path[0] && l->path[0] != '/'))
        abort();
    if (strlen(l->path) >= 1024)
        abort();
    double d;
    uint64_t u;
    bool is_uint;
    char text[256];
    gnmi_leaf_number(l, &d, &u, &is_uint);
    gnmi_leaf_text(l, text, sizeof(text));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool get = data[0] & 1;
    data++;
    size--;
    struct dcb_err err;
    char why[200];
    if (!pb_check(get ? &gnmi__get_response__descriptor : &gnmi__subscribe_response__descriptor,
                  data, size, why, sizeof(why))) {
        if (!why[0])
            abort();
        /* protobuf-c refuses it too, unless it is the nesting pb_check bounds (or a field
         * number 0 spelt in more than one byte, which protobuf-c lets through) */
        if (strstr(why, "nested deeper") || strstr(why, "field number 0"))
            return 0;
        ProtobufCMessage *m = protobuf_c_message_unpack(get ? &gnmi__get_response__descriptor
                                                            : &gnmi__subscribe_response__descriptor,
                                                        NULL, size, data);
        if (m)
            abort();
        return 0;
    }
    if (!get) {
        Gnmi__SubscribeResponse *r = gnmi__subscribe_response__unpack(NULL, size, data);
        if (!r)
            abort();
        if (r->response_case == GNMI__SUBSCRIBE_RESPONSE__RESPONSE_UPDATE && r->update)
            gnmi_notification_leaves(r->update, on_leaf, NULL, &err);
        gnmi__subscribe_response__free_unpacked(r, NULL);
    } else {
        Gnmi__GetResponse *r = gnmi__get_response__unpack(NULL, size, data);
        if (!r)
            abort();
        for (size_t i = 0; i < r->n_notification; i++)
            if (r->notification[i])
                gnmi_notification_leaves(r->notification[i], on_leaf, NULL, &err);
        gnmi__get_response__free_unpacked(r, NULL);
    }
    return 0;
}
