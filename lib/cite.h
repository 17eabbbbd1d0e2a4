/* Citations. A rule's reference, and a counter map's, names its documents in words and ends
 * with anchors into the list dcbkit ships, docs/rules-references.md:
 * "IEEE 802.1Q-2022 clause 36 (PFC) [docs/rules-references.md#qbb #nvidia-roce]". These split
 * such a text into plain parts and anchors, find the shipped list, and read one entry of it. */
#ifndef DCB_CITE_H
#define DCB_CITE_H

#include <stddef.h>

#define CITE_DOC "docs/rules-references.md"
#define CITE_ID_MAX 64

/* One part of a reference: plain text (id NULL), or one anchor, whose text is as written
 * ("docs/rules-references.md#qbb" or "#qbb") and whose id is the anchor's name ("qbb"). */
typedef void (*cite_part_fn)(void *ctx, const char *text, size_t len, const char *id,
                             size_t id_len);

/* Calls fn for each part of ref, in order; the texts of the parts concatenate to ref. */
void cite_walk(const char *ref, cite_part_fn fn, void *ctx);

/* The number of anchors in ref; the first max ids (NUL-terminated, cut at CITE_ID_MAX - 1)
 * into ids. */
size_t cite_anchors(const char *ref, char ids[][CITE_ID_MAX], size_t max);

/* Where the shipped list is: $DCBKIT_DOCS/rules-references.md, else
 * <binary>/../share/dcbkit/docs/rules-references.md, else the source tree's copy. 0, or -1 when
 * none exists. */
int cite_doc_path(char *buf, size_t len);

/* One entry of the list: the heading after "### id: " and the first <https://...> link. */
struct cite_entry {
    char title[160];
    char url[320];
};

/* Finds the entry whose anchor is id in the list's text doc. 0, or -1 when there is none. */
int cite_entry_find(const char *doc, const char *id, struct cite_entry *e);

#endif
