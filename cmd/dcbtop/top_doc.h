/* dcbtop --help and dcbtop --man, from one text (top_doc.c). */
#ifndef DCBTOP_DOC_H
#define DCBTOP_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void top_print_help(FILE *fp);
void top_print_man(FILE *fp);
/* The k-th key of the help screen and what it does; NULL past the last. */
const char *top_doc_key(size_t k, const char **text);

#endif
