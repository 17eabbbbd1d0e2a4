/* Rule files: `[id]` blocks of `key = value` lines (rules/README.md), parsed and checked at load.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"
#include "grow.h"
#include "data_dir.h"
#include "rules_ast.h"
#include "units.h"

#define RULE_FILE_MAX (4u << 20)
#define VALUE_MAX 2048

const char *rule_severity_name(enum rule_severity s)
{
    return s == RULE_CRIT ? "crit" : s == RULE_WARN ? "warn" : "info";
}

const char *finding_cause_name(enum finding_cause c)
{
    return c == CAUSE_VICTIM ? "victim" : "root";
}

const char *rule_scope_name(enum rule_scope s)
{
    static const char *const names[] = { "fabric", "device", "port", "priority", "qp" };
    return names[s];
}

void rule_set_init(struct rule_set *rs)
{
    memset(rs, 0, sizeof(*rs));
}

static void template_free(struct rule_template *t)
{
    for (size_t i = 0; i < t->n; i++)
        expr_free(t->exprs[i]);
    free(t->exprs);
    free(t->text);
    memset(t, 0, sizeof(*t));
}

static void rule_free(struct rule *r)
{
    expr_free(r->when);
    expr_free(r->propose);
    template_free(&r->message);
    template_free(&r->knob);
    for (int i = 0; i < r->nalso; i++) {
        template_free(&r->also[i].knob);
        expr_free(r->also[i].propose);
    }
    free(r->reference);
    for (int i = 0; i < RULE_PROFILES_MAX; i++)
        free(r->unless_profile[i]);
}

void rule_set_free(struct rule_set *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        rule_free(&rs->rules[i]);
    free(rs->rules);
    rule_set_init(rs);
}

/* ---- the file format ------------------------------------------------------------------------- */

struct loader {
    const char *name;
    struct dcb_err *err;
    struct rule_set *rs;
    struct rule *cur; /* the rule being filled, NULL before the first [id] */
    bool seen[16];
};

static int fail(struct loader *ld, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct loader *ld, int line, int col, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return dcb_err_set(ld->err, DCB_E_INVAL, "%s:%d:%d: %s", ld->name, line, col, msg);
}

enum rule_key {
    K_SEVERITY,
    K_CONFIDENCE,
    K_SCOPE,
    K_WHEN,
    K_FOR,
    K_MESSAGE,
    K_KNOB,
    K_DIRECTION,
    K_PROPOSE,
    K_REFERENCE,
    K_UNLESS_PROFILE,
    K_PRIORITIES,
    K_ALSO,
    K_CAUSE,
    K_COUNT,
};

static const char *const key_names[K_COUNT] = {
    "severity",  "confidence", "scope",     "when",           "for",        "message", "knob",
    "direction", "propose",    "reference", "unless_profile", "priorities", "also",    "cause",
};

static int parse_expr_value(struct loader *ld, const char *value, int line, int col,
                            struct rule_expr **out, bool *uses_prio)
{
    struct parse_ctx pc = { .file = ld->name, .line = line, .col = col, .scope = ld->cur->scope };
    *out = expr_parse(value, &pc, ld->err);
    if (!*out)
        return DCB_E_INVAL;
    if (uses_prio)
        *uses_prio = *uses_prio || pc.uses_prio;
    return 0;
}

/* A template's placeholders: each {expr} is parsed now so that a typo fails at load. */
static int parse_template(struct loader *ld, struct rule_template *t, const char *value, int line,
                          int col)
{
    if (!(t->text = strdup(value)))
        return dcb_err_set(ld->err, DCB_E_NOMEM, "out of memory");
    for (const char *p = value; (p = strchr(p, '{')) != NULL;) {
        int at = col + (int)(p - value);
        /* {pfc.rx_pause{prio=3}} holds a label: find the brace that closes this one */
        int depth = 0;
        const char *close = p;
        for (; *close; close++) {
            depth += *close == '{' ? 1 : *close == '}' ? -1 : 0;
            if (!depth)
                break;
        }
        if (!*close)
            return fail(ld, line, at, "'{' without '}'");
        char expr[VALUE_MAX];
        snprintf(expr, sizeof(expr), "%.*s", (int)(close - p - 1), p + 1);
        struct rule_expr **grown = realloc(t->exprs, (t->n + 1) * sizeof(*grown));
        if (!grown)
            return dcb_err_set(ld->err, DCB_E_NOMEM, "out of memory");
        t->exprs = grown;
        bool uses = false;
        int rc = parse_expr_value(ld, expr, line, at + 1, &t->exprs[t->n], &uses);
        if (rc)
            return rc;
        t->n++;
        p = close + 1;
    }
    return 0;
}

/* The knob must name a config field once its $prio, $tc and {expr} parts are filled in. A knob
 * that opens with an {expr} names its field itself (if() picks among paths): it is checked as
 * far as it can be, a template that parses. */
static int check_knob_into(struct loader *ld, struct rule_template *t, const char *value, int line,
                           int col)
{
    char path[64];
    size_t o = 0;
    for (const char *p = value; *p && o + 2 < sizeof(path);) {
        if (!strncmp(p, "$prio", 5) || !strncmp(p, "$tc", 3)) {
            path[o++] = '0';
            p += p[1] == 'p' ? 5 : 3;
        } else if (*p == '{') {
            const char *close = strchr(p, '}');
            path[o++] = '0';
            p = close ? close + 1 : p + strlen(p);
        } else {
            path[o++] = *p++;
        }
    }
    path[o] = '\0';
    int index;
    if (value[0] != '{' && !qos_find_field(path, &index))
        return fail(ld, line, col, "knob '%s' is not a config path (dcbkit fabric paths)", value);
    return parse_template(ld, t, value, line, col);
}

static int check_knob(struct loader *ld, const char *value, int line, int col)
{
    return check_knob_into(ld, &ld->cur->knob, value, line, col);
}

/* also = PATH = EXPR: another change the advice needs (WRED max with WRED min). */
static int parse_also(struct loader *ld, const char *value, int line, int col)
{
    struct rule *r = ld->cur;
    if (r->nalso == RULE_ALSO_MAX)
        return fail(ld, line, col, "at most %d also lines", RULE_ALSO_MAX);
    const char *eq = strchr(value, '=');
    if (!eq || eq == value)
        return fail(ld, line, col, "also is 'PATH = EXPR'");
    char path[128];
    size_t len = (size_t)(eq - value);
    while (len && isspace((unsigned char)value[len - 1]))
        len--;
    snprintf(path, sizeof(path), "%.*s", (int)len, value);
    const char *expr = eq + 1 + strspn(eq + 1, " \t");
    int rc = check_knob_into(ld, &r->also[r->nalso].knob, path, line, col);
    if (rc == 0)
        rc = parse_expr_value(ld, expr, line, col + (int)(expr - value), &r->also[r->nalso].propose,
                              NULL);
    r->nalso++; /* freed with the rule either way */
    return rc;
}

/* A value's continuation lines as one line: "a\n     b" reads "a b". */
static void fold_lines(char *text)
{
    char *o = text;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            *o++ = ' ';
            while (p[1] == ' ' || p[1] == '\t')
                p++;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

static int set_key(struct loader *ld, enum rule_key k, const char *value, int line, int col)
{
    struct rule *r = ld->cur;
    struct dcb_err derr;
    switch (k) {
    case K_SEVERITY:
        if (!strcmp(value, "crit"))
            r->severity = RULE_CRIT;
        else if (!strcmp(value, "warn"))
            r->severity = RULE_WARN;
        else if (!strcmp(value, "info"))
            r->severity = RULE_INFO;
        else
            return fail(ld, line, col, "severity is crit, warn or info, not '%s'", value);
        return 0;
    case K_CONFIDENCE: {
        char *end;
        r->confidence = strtod(value, &end);
        if (*end || end == value || r->confidence < 0 || r->confidence > 1)
            return fail(ld, line, col, "confidence is a number from 0 to 1, not '%s'", value);
        return 0;
    }
    case K_SCOPE:
        for (int s = SCOPE_FABRIC; s <= SCOPE_QP; s++)
            if (!strcmp(value, rule_scope_name(s))) {
                if (r->when)
                    return fail(ld, line, col, "give scope before when");
                r->scope = s;
                return 0;
            }
        return fail(ld, line, col, "scope is fabric, device, port, priority or qp, not '%s'",
                    value);
    case K_WHEN: {
        bool uses = false;
        int rc = parse_expr_value(ld, value, line, col, &r->when, &uses);
        if (rc)
            return rc;
        if (r->when->type != T_BOOL)
            return fail(ld, line, col, "type error: 'when' must be a condition, '%s' is not",
                        r->when->text);
        if (uses && r->scope != SCOPE_PRIORITY && r->scope != SCOPE_FABRIC)
            return fail(ld, line, col,
                        "$prio, $tc and $lossless need scope = priority "
                        "(or fabric: once per lossless priority)");
        r->fabric_prios = uses && r->scope == SCOPE_FABRIC;
        return 0;
    }
    case K_FOR:
        if (dcb_parse_duration(value, &r->for_ns, &derr) < 0)
            return fail(ld, line, col, "for: %s", derr.msg);
        return 0;
    case K_MESSAGE: return parse_template(ld, &r->message, value, line, col);
    case K_KNOB: return check_knob(ld, value, line, col);
    case K_DIRECTION: {
        /* folded before it is measured: a long one is refused, never cut short */
        char folded[2 * sizeof(r->direction)];
        if (strlen(value) >= sizeof(folded))
            return fail(ld, line, col, "direction is longer than %zu characters",
                        sizeof(r->direction) - 1);
        snprintf(folded, sizeof(folded), "%s", value);
        fold_lines(folded);
        if (strlen(folded) >= sizeof(r->direction))
            return fail(ld, line, col, "direction is longer than %zu characters",
                        sizeof(r->direction) - 1);
        snprintf(r->direction, sizeof(r->direction), "%s", folded);
        return 0;
    }
    case K_ALSO: return parse_also(ld, value, line, col);
    case K_PROPOSE: return parse_expr_value(ld, value, line, col, &r->propose, NULL);
    case K_REFERENCE:
        if (!(r->reference = strdup(value)))
            return dcb_err_set(ld->err, DCB_E_NOMEM, "oom");
        fold_lines(r->reference);
        return 0;
    case K_UNLESS_PROFILE:
        for (int i = 0; i < RULE_PROFILES_MAX; i++)
            if (!r->unless_profile[i])
                return (r->unless_profile[i] = strdup(value))
                           ? 0
                           : dcb_err_set(ld->err, DCB_E_NOMEM, "oom");
        return fail(ld, line, col, "at most %d unless_profile lines", RULE_PROFILES_MAX);
    case K_PRIORITIES:
        if (strcmp(value, "lossless") && strcmp(value, "all"))
            return fail(ld, line, col, "priorities is lossless or all, not '%s'", value);
        r->all_prios = value[0] == 'a';
        return 0;
    case K_CAUSE:
        if (strcmp(value, "root") && strcmp(value, "pause-tree"))
            return fail(ld, line, col, "cause is root or pause-tree, not '%s'", value);
        r->cause_pause_tree = value[0] == 'p';
        return 0;
    default: return 0;
    }
}

static int finish_rule(struct loader *ld, int line)
{
    struct rule *r = ld->cur;
    if (!r)
        return 0;
    static const enum rule_key required[] = { K_SEVERITY, K_SCOPE, K_WHEN, K_MESSAGE };
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        if (!ld->seen[required[i]])
            return fail(ld, r->line, 1, "rule %s has no %s", r->id, key_names[required[i]]);
    if ((r->propose || r->nalso) && !r->knob.text)
        return fail(ld, line, 1, "rule %s proposes a value but names no knob", r->id);
    if (r->cause_pause_tree && r->scope != SCOPE_PRIORITY)
        return fail(ld, r->line, 1, "rule %s: cause = pause-tree needs scope = priority", r->id);
    ld->rs->n++;
    ld->cur = NULL;
    return 0;
}

static int start_rule(struct loader *ld, const char *line_text, int line)
{
    const char *close = strchr(line_text, ']');
    size_t len = close ? (size_t)(close - line_text - 1) : 0;
    if (!close || !len || len >= RULE_ID_MAX || close[1 + strspn(close + 1, " \t\r")])
        return fail(ld, line, 1,
                    "a rule starts with [id] on its own line (id up to %d "
                    "characters)",
                    RULE_ID_MAX - 1);
    for (size_t i = 1; i <= len; i++)
        if (!isalnum((unsigned char)line_text[i]) && line_text[i] != '-' && line_text[i] != '_')
            return fail(ld, line, (int)i + 1, "rule ids use letters, digits, '-' and '_'");
    for (size_t i = 0; i < ld->rs->n; i++)
        if (strlen(ld->rs->rules[i].id) == len && !strncmp(ld->rs->rules[i].id, line_text + 1, len))
            return fail(ld, line, 2, "rule id '%.*s' is already defined in %s:%d", (int)len,
                        line_text + 1, ld->rs->rules[i].file, ld->rs->rules[i].line);
    if (ld->rs->n == ld->rs->cap &&
        dcb_grow(&ld->rs->rules, &ld->rs->cap, sizeof(*ld->rs->rules), 32) < 0)
        return dcb_err_set(ld->err, DCB_E_NOMEM, "out of memory");
    struct rule *r = &ld->rs->rules[ld->rs->n];
    memset(r, 0, sizeof(*r));
    snprintf(r->id, sizeof(r->id), "%.*s", (int)len, line_text + 1);
    snprintf(r->file, sizeof(r->file), "%s", ld->name);
    r->line = line;
    r->confidence = 0.8;
    r->scope = SCOPE_PORT;
    memset(ld->seen, 0, sizeof(ld->seen));
    ld->cur = r;
    return 0;
}

/* One `key = value` line, with the continuation lines that follow it (indented). */
static int key_line(struct loader *ld, const char *text, int line, const char *value_start,
                    int value_col)
{
    const char *eq = strchr(text, '=');
    if (!eq)
        return fail(ld, line, 1, "expected 'key = value'");
    size_t klen = (size_t)(eq - text);
    while (klen && isspace((unsigned char)text[klen - 1]))
        klen--;
    for (int k = 0; k < K_COUNT; k++) {
        if (strlen(key_names[k]) != klen || strncmp(text, key_names[k], klen))
            continue;
        if (ld->seen[k] && k != K_UNLESS_PROFILE && k != K_ALSO)
            return fail(ld, line, 1, "%s given twice in rule %s", key_names[k], ld->cur->id);
        ld->seen[k] = true;
        return set_key(ld, (enum rule_key)k, value_start, line, value_col);
    }
    return fail(ld, line, 1,
                "unknown key '%.*s' (severity, confidence, scope, when, for, "
                "message, knob, direction, propose, also, reference, unless_profile, priorities, "
                "cause)",
                (int)klen, text);
}

/* Rolls the just-started rule back after an error so the set stays consistent. */
static void drop_current(struct loader *ld)
{
    if (ld->cur) {
        rule_free(ld->cur);
        ld->cur = NULL;
    }
}

int rule_set_load_text(struct rule_set *rs, const char *text, size_t len, const char *name,
                       struct dcb_err *err)
{
    struct loader ld = { .name = name, .err = err, .rs = rs };
    size_t loaded_before = rs->n;
    char *value = malloc(VALUE_MAX);
    if (!value)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    int rc = 0, line = 0;
    size_t pos = 0;
    while (pos < len && !rc) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        char raw[VALUE_MAX];
        size_t n = end - pos;
        if (n >= sizeof(raw)) {
            rc = fail(&ld, line, 1, "line longer than %d bytes", VALUE_MAX - 1);
            break;
        }
        memcpy(raw, text + pos, n);
        raw[n] = '\0';
        if (memchr(raw, '\0', n)) {
            rc = fail(&ld, line, 1, "a NUL byte in a rule file");
            break;
        }
        pos = end + 1;
        const char *t = raw + strspn(raw, " \t\r");
        if (!*t || *t == '#')
            continue;
        if (*t == '[') {
            if (t != raw) {
                rc = fail(&ld, line, 1, "[id] starts at the beginning of a line");
                break;
            }
            if (!(rc = finish_rule(&ld, line)))
                rc = start_rule(&ld, raw, line);
            continue;
        }
        if (!ld.cur) {
            rc = fail(&ld, line, 1, "a key outside a rule: start one with [id]");
            break;
        }
        if (t != raw) {
            rc = fail(&ld, line, 1, "an indented line with no key before it");
            break;
        }
        const char *eq = strchr(raw, '=');
        const char *v = eq ? eq + 1 + strspn(eq + 1, " \t") : raw;
        int value_col = (int)(v - raw) + 1;
        snprintf(value, VALUE_MAX, "%s", v);
        /* indented lines that follow continue the value; newlines keep line:col right */
        while (pos < len && (text[pos] == ' ' || text[pos] == '\t')) {
            size_t e2 = pos;
            while (e2 < len && text[e2] != '\n')
                e2++;
            size_t used = strlen(value);
            if (used + 1 + (e2 - pos) >= VALUE_MAX) {
                rc = fail(&ld, line, 1, "value longer than %d bytes", VALUE_MAX - 1);
                break;
            }
            value[used] = '\n';
            memcpy(value + used + 1, text + pos, e2 - pos);
            value[used + 1 + (e2 - pos)] = '\0';
            pos = e2 + 1;
            line++;
        }
        if (rc)
            break;
        size_t vl = strlen(value);
        while (vl && isspace((unsigned char)value[vl - 1]))
            value[--vl] = '\0';
        int first_line = line; /* the key's line: back over the continuations */
        for (const char *q = value; (q = strchr(q, '\n')) != NULL; q++)
            first_line--;
        rc = key_line(&ld, raw, first_line, value, value_col);
    }
    if (!rc)
        rc = finish_rule(&ld, line);
    if (rc) {
        drop_current(&ld);
        while (rs->n > loaded_before) /* all or nothing: no half-loaded file */
            rule_free(&rs->rules[--rs->n]);
    }
    free(value);
    return rc;
}

int rule_set_load_file(struct rule_set *rs, const char *path, struct dcb_err *err)
{
    char *buf;
    size_t n;
    if (dcb_read_text_file(path, RULE_FILE_MAX, &buf, &n, err) < 0)
        return -1;
    int rc = rule_set_load_text(rs, buf, n, path, err);
    free(buf);
    return rc;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int rules_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 6 && !strcmp(d->d_name + n - 6, ".rules");
}

int rule_set_load_dir(struct rule_set *rs, const char *dir, struct dcb_err *err)
{
    struct dirent **names;
    int n = scandir(dir, &names, rules_file, by_name);
    if (n < 0)
        return dcb_err_set(err, DCB_E_IO, "%s: cannot read the rules folder: %m", dir);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
        if (!rc)
            rc = rule_set_load_file(rs, path, err);
        free(names[i]);
    }
    free(names);
    if (!rc && n == 0)
        rc = dcb_err_set(err, DCB_E_NOTFOUND, "%s: no *.rules files", dir);
    return rc;
}

int rules_default_dir(char *buf, size_t len)
{
    return dcb_data_dir("DCBKIT_RULES", "rules", DCBKIT_SOURCE_RULES, buf, len);
}

int rule_set_load_catalog(struct rule_set *rs, const char *const *extra_dirs, int nextra,
                          struct dcb_err *err)
{
    char dir[4096];
    if (rules_default_dir(dir, sizeof(dir)) < 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no rule catalog found; set DCBKIT_RULES");
    int rc = rule_set_load_dir(rs, dir, err);
    for (int i = 0; i < nextra && rc == 0; i++)
        rc = rule_set_load_dir(rs, extra_dirs[i], err);
    return rc;
}
