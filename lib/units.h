/* Parsing and printing of the units fabric engineers type: link speeds (400G), byte sizes
 * (150KB, 9KiB), durations (5us, 200ms, 24h) and cable lengths (100m).
 *
 * Decimal prefixes are powers of 1000 (K, M, G, T); binary prefixes are explicit (KiB, MiB,
 * GiB). Fractions are allowed ("2.5G", "1.5KB") and are rounded to the nearest base unit.
 * Whitespace between number and unit is accepted, so every printed value parses back. */
#ifndef DCB_UNITS_H
#define DCB_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include "clock.h"
#include "err.h"

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_SEC 1000000000LL

/* "400G", "400Gbps", "100g", "2.5G", "25000000000" -> bits per second. */
int dcb_parse_speed(const char *text, uint64_t *bps, struct dcb_err *err);
/* "150KB", "150K", "9KiB", "2MB", "9216", "9216B" -> bytes. */
int dcb_parse_bytes(const char *text, uint64_t *bytes, struct dcb_err *err);
/* "5us", "5µs", "200ms", "1.5s", "10m" (minutes), "24h", "7d", "100ns" -> nanoseconds.
 * A bare number is refused (except 0): "5" could mean anything. */
int dcb_parse_duration(const char *text, int64_t *ns, struct dcb_err *err);
/* "100m", "2.5m", "50cm", "1km", "3" (metres) -> millimetres. */
int dcb_parse_length(const char *text, uint64_t *mm, struct dcb_err *err);

/* Printers return buf. They use the largest unit that keeps the number >= 1 and at most three
 * decimals, trailing zeros trimmed: "400G", "2.5G", "150KB", "83.885 µs", "100m". */
#define DCB_UNIT_BUF 32
char *dcb_fmt_speed(uint64_t bps, char *buf, size_t len);
/* A rate with its unit, as figures print it: "8.192Gb/s", "500b/s", "0b/s" (dcb_fmt_speed's
 * "bps" below 1K is a link speed's spelling, which "b/s" after it would double). */
char *dcb_fmt_rate(uint64_t bps, char *buf, size_t len);
char *dcb_fmt_bytes(uint64_t bytes, char *buf, size_t len);
char *dcb_fmt_duration_ns(double ns, char *buf, size_t len);
char *dcb_fmt_length(uint64_t mm, char *buf, size_t len);

#endif
