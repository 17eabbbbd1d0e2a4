/* A metric's or a knob's value as people read it, with the unit its name implies:
 * "pfc.rx_pause_us[200ms]" = "6.785e+05" -> "678.5 ms"; "switch.buffer.3.headroom" = "41218"
 * -> "41.2 KB"; "nic.dcqcn.rai_mbps" = "40" -> "40 Mb/s". JSON keeps the raw values; this is for
 * the text, HTML, Markdown and TUI views. */
#ifndef DCB_VALUE_UNITS_H
#define DCB_VALUE_UNITS_H

#include <stddef.h>

#include "svg_chart.h"

/* The unit a metric or config path's name implies, and the factor from its values to that
 * unit's base (ns for times, bytes, b/s); SVG_UNIT_NONE with factor 1 when the name says none. */
enum svg_unit value_unit_of(const char *name, double *to_base);

/* value (a number as text) scaled with its unit; a value that is not a number, or a name with
 * no unit, is copied as it is (a whole number without an exponent). Returns buf. */
char *value_with_unit(const char *name, const char *value, char *buf, size_t len);

/* The value with its unit where that says more than the raw value ("41218" -> "41.2 KB"),
 * else "": what the views print in brackets after a proposal kept raw for copying. */
char *value_unit_note(const char *name, const char *value, char *buf, size_t len);

#endif
