/* Several sources as one: `--local --fabric F`, `--gnmi A --gnmi B --fabric F`, a replay beside
 * a store. Every member writes into the set's sink; the set's data time is the newest member's,
 * its status the first member's remark, and it ends when every member has ended. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

struct source_set {
    struct dcb_source members[SOURCE_SET_MAX];
    bool ended[SOURCE_SET_MAX];
    size_t n;
};

static int set_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    struct source_set *s = src->ctx;
    bool all_ended = true;
    int64_t newest = 0;
    src->status[0] = '\0';
    src->behind_ns = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct dcb_source *m = &s->members[i];
        m->interval_ns = src->interval_ns;
        int64_t t = now_ns;
        if (!s->ended[i]) {
            int rc = dcb_source_tick(m, now_ns, &t, err);
            if (rc < 0)
                return rc;
            s->ended[i] = rc == DCB_SOURCE_END;
            if (t > newest)
                newest = t;
        }
        /* a source of config only (the fabric's intent) says nothing about when the data ends */
        all_ended &= s->ended[i];
        if (m->behind_ns > src->behind_ns)
            src->behind_ns = m->behind_ns;
        if (m->status[0] && !src->status[0])
            snprintf(src->status, sizeof(src->status), "%s", m->status);
    }
    *data_ns = newest ? newest : now_ns;
    return all_ended ? DCB_SOURCE_END : 0;
}

static int set_seek(struct dcb_source *src, int steps, struct dcb_err *err)
{
    struct source_set *s = src->ctx;
    for (size_t i = 0; i < s->n; i++)
        if (s->members[i].ops->seek)
            return s->members[i].ops->seek(&s->members[i], steps, err);
    return 0;
}

static void set_close(struct dcb_source *src)
{
    struct source_set *s = src->ctx;
    for (size_t i = s->n; i-- > 0;)
        dcb_source_close(&s->members[i]);
    free(s);
    src->ctx = NULL;
}

static const struct dcb_source_ops set_ops = { set_tick, set_seek, set_close };
static const struct dcb_source_ops set_ops_live = { set_tick, NULL, set_close };

int dcb_source_set_open(struct dcb_source *src, struct dcb_err *err)
{
    struct source_set *s = calloc(1, sizeof(*s));
    if (!s)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    src->ops = &set_ops_live;
    src->ctx = s;
    src->kind = SOURCE_SET;
    src->finite = true;
    src->name[0] = '\0';
    return 0;
}

struct dcb_source *dcb_source_set_next(struct dcb_source *set)
{
    struct source_set *s = set->ctx;
    if (s->n == SOURCE_SET_MAX)
        return NULL;
    struct dcb_source *m = &s->members[s->n];
    memset(m, 0, sizeof(*m));
    m->sink = set->sink;
    m->interval_ns = set->interval_ns;
    return m;
}

void dcb_source_set_commit(struct dcb_source *set)
{
    struct source_set *s = set->ctx;
    struct dcb_source *m = &s->members[s->n++];
    size_t len = strlen(set->name);
    snprintf(set->name + len, sizeof(set->name) - len, "%s%s", len ? " + " : "", m->name);
    set->finite &= m->finite;
    if (m->data_speed > 0)
        set->data_speed = m->data_speed;
    if (m->origin_ns)
        set->origin_ns = m->origin_ns;
    if (m->ops->seek)
        set->ops = &set_ops;
    if (m->direct && !set->direct)
        set->direct = m->direct;
}

struct dcb_source *dcb_source_find(struct dcb_source *src, enum dcb_source_kind kind)
{
    if (src->kind == kind)
        return src;
    if (src->kind != SOURCE_SET || !src->ctx)
        return NULL;
    struct source_set *s = src->ctx;
    for (size_t i = 0; i < s->n; i++)
        if (s->members[i].kind == kind)
            return &s->members[i];
    return NULL;
}
