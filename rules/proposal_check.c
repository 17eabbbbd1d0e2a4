#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "proposal_check.h"
#include "qos_fields.h"

/* +1 for words that raise a value, -1 for words that lower it, 0 otherwise */
static int direction_sign(const char *direction)
{
    static const char *const up[] = { "raise", "increase", "enlarge", "lengthen" };
    static const char *const down[] = { "lower", "reduce", "decrease", "shorten", "cut" };
    for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++)
        if (!strncasecmp(direction, up[i], strlen(up[i])))
            return 1;
    for (size_t i = 0; i < sizeof(down) / sizeof(down[0]); i++)
        if (!strncasecmp(direction, down[i], strlen(down[i])))
            return -1;
    return 0;
}

enum proposal_verdict proposal_check(const struct qos_config *cfg, const char *knob,
                                     const char *proposed, const char *direction)
{
    if (!cfg || !knob[0] || !proposed[0])
        return PROPOSAL_OK;
    int index = 0;
    const struct qos_field *f = qos_find_field(knob, &index);
    if (!f || f->type == QF_APP)
        return PROPOSAL_OK;
    const struct qos_val *cur = qos_field_value(cfg, f, index);
    if (!cur || !cur->set)
        return PROPOSAL_OK;
    struct qos_config want_cfg;
    qos_config_init(&want_cfg);
    if (qos_set(&want_cfg, knob, proposed, NULL) != 0)
        return PROPOSAL_OK; /* not a value of this knob: judged elsewhere */
    const struct qos_val *want = qos_field_value(&want_cfg, f, index);
    if (!want || !want->set)
        return PROPOSAL_OK;
    if (want->v == cur->v)
        return PROPOSAL_IS_CURRENT;
    int sign = direction_sign(direction);
    bool numeric = f->type != QF_MASK && f->type != QF_ENUM && f->type != QF_BOOL;
    if (numeric && sign && (want->v > cur->v ? 1 : -1) != sign)
        return PROPOSAL_AGAINST_WORDS;
    return PROPOSAL_OK;
}

void proposal_withdrawn_note(enum proposal_verdict v, const struct qos_config *cfg,
                             const char *knob, const char *proposed, char *buf, size_t len)
{
    char cur[QOS_TEXT_MAX] = "?";
    if (cfg)
        qos_get(cfg, knob, cur, sizeof(cur), NULL);
    if (v == PROPOSAL_IS_CURRENT)
        snprintf(buf, len, "%s is already %s: the cause lies elsewhere", knob, cur);
    else if (v == PROPOSAL_AGAINST_WORDS)
        snprintf(buf, len, "%s = %s would turn %s (%s now) against the advice", knob, proposed,
                 knob, cur);
    else
        buf[0] = '\0';
}
