/* What is wrong with a protobuf message, in words: protobuf-c's unpack only says NULL.
 *
 * The message is walked with its descriptor through the bounded reader, the way protobuf-c
 * reads it: keys, varints, fixed fields, lengths, packed values, and the wire type each known
 * field must have; known message fields are walked in turn. The first fault is named with the
 * field's place, number and byte offset: "update.update.val (field 3) at byte 37: 200 bytes
 * announced, 30 left". Nesting deeper than PB_MAX_DEPTH messages is a fault too: protobuf-c
 * recurses once per level with no bound, and gNMI's TypedValue holds a ScalarArray of
 * TypedValues, so a few hundred kilobytes of nesting would exhaust the stack. */
#ifndef DCB_PB_CHECK_H
#define DCB_PB_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#define PB_MAX_DEPTH 32

/* True when nothing is wrong (why is ""); else false with the fault in why. */
bool pb_check(const ProtobufCMessageDescriptor *d, const uint8_t *msg, size_t len, char *why,
              size_t cap);

#endif
