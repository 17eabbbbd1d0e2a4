/* Text made safe for XML and HTML, both as element content and inside a quoted attribute value.
 *
 * Every string that may come from the network (LLDP system names, gNMI keys, interface
 * descriptions) goes through here before it reaches an SVG or HTML document: & < > " ' become
 * entities; control bytes (C0, DEL), which XML forbids and a terminal would obey, become the
 * visible text \xNN; C1 controls, the non-characters U+FFFE/U+FFFF and invalid UTF-8 become
 * U+FFFD. The output is therefore well-formed UTF-8 whatever the input. */
#ifndef DCB_XML_ESCAPE_H
#define DCB_XML_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Writes s (NULL is the empty string) escaped. With max_chars > 0 at most that many
 * characters are written, the last one "…" when s was longer. Returns the number of
 * characters (not bytes) shown. */
size_t xml_escape(FILE *fp, const char *s, size_t max_chars);

/* Characters s shows as after xml_escape(fp, s, 0): the width-estimating count for layout. */
size_t xml_text_chars(const char *s);

#endif
