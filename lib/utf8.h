/* UTF-8 validation shared by the writers that must never pass invalid bytes on (JSON, text,
 * XML/HTML). */
#ifndef DCB_UTF8_H
#define DCB_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Length (1..4) of the valid UTF-8 sequence at s, or 0 if it is not valid (overlong forms,
 * surrogates and code points above U+10FFFF are invalid). s must be NUL-terminated: a
 * truncated sequence stops at the NUL and is invalid. When cp is not NULL it receives the
 * code point. */
size_t dcb_utf8_seq_len(const unsigned char *s, uint32_t *cp);

#endif
