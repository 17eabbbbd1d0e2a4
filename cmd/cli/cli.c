#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "privs.h"
#include "version.h"

bool cli_is_binary(const struct cli_command *cmd)
{
    return cmd && strcmp(cmd->name, dcb_progname()) == 0;
}

int cli_usage_error(const struct cli_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const struct cli_command *cmd = ctx ? ctx->cmd : NULL;
    if (cmd && !cli_is_binary(cmd))
        fprintf(stderr, "%s %s: ", dcb_progname(), cmd->name);
    else
        fprintf(stderr, "%s: ", dcb_progname());
    out_vterm(stderr, fmt, ap);
    va_end(ap);
    if (cli_is_binary(cmd))
        fprintf(stderr, " (see '%s --help')\n", dcb_progname());
    else if (cmd)
        fprintf(stderr, " (see '%s help %s')\n", dcb_progname(), cmd->name);
    else
        fprintf(stderr, " (see '%s help')\n", dcb_progname());
    return EXIT_USAGE;
}

int cli_opt_long(const struct cli_ctx *ctx, const char *flag, const char *text, long min, long max,
                 long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return cli_usage_error(ctx, "%s takes a whole number from %ld to %ld, not '%s'", flag, min,
                               max, text);
    *out = v;
    return CLI_NEXT;
}

int cli_opt_rules_dir(const struct cli_ctx *ctx, struct cli_rules *r, const char *dir)
{
    if (r->ndirs == CLI_MAX_RULES_DIRS)
        return cli_usage_error(ctx, "at most %d --rules folders", CLI_MAX_RULES_DIRS);
    r->dirs[r->ndirs++] = dir;
    return CLI_NEXT;
}

int cli_opt_rules_profile(const struct cli_ctx *ctx, struct cli_rules *r, const char *name)
{
    if (strcmp(name, "pfc-only") != 0)
        return cli_usage_error(ctx, "--profile: the profile is pfc-only, not '%s'", name);
    r->profile = name;
    return CLI_NEXT;
}

int cli_fail(int status, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dcb_cmd_verror(what, fmt, ap);
    va_end(ap);
    return status;
}

int cli_check_format(const struct cli_ctx *ctx)
{
    if (ctx->format == OUT_JSON && ctx->cmd && !ctx->cmd->json_doc)
        return cli_usage_error(ctx, "-T json: %s has no JSON output", ctx->cmd->name);
    return CLI_NEXT;
}

int cli_common_option(struct cli_ctx *ctx, int opt, char **argv)
{
    switch (opt) {
    case 'T':
        if (out_parse_format(optarg, &ctx->format) < 0)
            return cli_usage_error(ctx, "-T takes 'text' or 'json', not '%s'", optarg);
        ctx->format_given = true;
        return cli_check_format(ctx);
    case 'v':
        ctx->verbosity++;
        dcb_log_set_level(ctx->verbosity >= 2 ? DCB_LOG_DEBUG : DCB_LOG_INFO);
        return CLI_NEXT;
    case 'q':
        ctx->verbosity = -1;
        dcb_log_set_level(DCB_LOG_ERROR);
        return CLI_NEXT;
    case 'h': cli_print_help(ctx->cmd, stdout); return 0;
    case ':': return cli_usage_error(ctx, "option '%s' needs a value", argv[optind - 1]);
    case '?':
        if (optopt)
            return cli_usage_error(ctx, "unknown option '-%c'", optopt);
        return cli_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
    default: return cli_usage_error(ctx, "unhandled option '%c'", opt);
    }
}

int cli_finish_output(struct dcb_out *o, int status)
{
    if (out_finish(o) < 0)
        return cli_fail(1, "writing output", "%s", strerror(errno));
    return status;
}

int cli_source_option(struct cli_ctx *ctx, struct source_opts *so, int opt, char **argv)
{
    char why[300];
    int taken = opt == ':' || opt == '?' ? 0 : source_opts_take(so, opt, optarg, why, sizeof(why));
    if (taken > 0)
        return CLI_NEXT;
    if (taken < 0)
        return cli_usage_error(ctx, "%s", why);
    return cli_common_option(ctx, opt, argv);
}

#define CLI_LONGOPTS_MAX 160

/* own, then the source options of groups that own does not define, then the common ones. */
static int parser_longopts(const struct cli_parser *p, struct option *out, size_t cap)
{
    static const struct option common[] = { CLI_COMMON_LONGOPTS };
    struct option src[SO_END - SO_LOCAL + 1];
    size_t ns = 0, n = 0;
    if (p->src && source_opts_longopts(p->src->groups, src, &ns, sizeof(src) / sizeof(*src)) < 0)
        return -1;
    if (p->nown + ns + sizeof(common) / sizeof(*common) + 1 > cap)
        return -1;
    if (p->nown) /* a command without options of its own: own is NULL */
        memcpy(out, p->own, p->nown * sizeof(*p->own));
    n = p->nown;
    for (size_t i = 0; i < ns; i++) {
        bool own = false;
        for (size_t j = 0; j < p->nown && !own; j++)
            own = !strcmp(p->own[j].name, src[i].name);
        if (!own)
            out[n++] = src[i];
    }
    memcpy(out + n, common, sizeof(common));
    n += sizeof(common) / sizeof(*common);
    out[n] = (struct option){ NULL, 0, NULL, 0 };
    return (int)n;
}

int cli_flag_option(struct cli_ctx *ctx, void *args, int opt, const char *arg)
{
    (void)ctx;
    (void)arg;
    const struct cli_flag *f = args;
    if (opt != f->opt)
        return CLI_NOT_OWN;
    *f->set = true;
    return CLI_NEXT;
}

int cli_parse(struct cli_ctx *ctx, const struct cli_parser *p, int argc, char **argv)
{
    struct option longopts[CLI_LONGOPTS_MAX];
    if (parser_longopts(p, longopts, CLI_LONGOPTS_MAX) < 0)
        return cli_fail(1, ctx->cmd ? ctx->cmd->name : "options", "too many options");
    char shortopts[64];
    snprintf(shortopts, sizeof(shortopts), "%s%s", CLI_COMMON_SHORTOPTS,
             p->shortopts ? p->shortopts : "");
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int rc = p->own_option ? p->own_option(ctx, p->args, c, optarg) : CLI_NOT_OWN;
        if (rc == CLI_NOT_OWN)
            rc = p->src ? cli_source_option(ctx, p->src, c, argv) : cli_common_option(ctx, c, argv);
        if (rc != CLI_NEXT)
            return rc;
    }
    return p->src ? cli_source_check(ctx, p->src) : CLI_NEXT;
}

int cli_source_check(const struct cli_ctx *ctx, const struct source_opts *so)
{
    char why[300];
    if (source_opts_check(so, why, sizeof(why)) < 0)
        return cli_usage_error(ctx, "%s", why);
    return CLI_NEXT;
}

void cli_drop_privileges(const struct cli_ctx *ctx, const struct source_opts *so)
{
    if (!(so->named & SOURCE_G_LOCAL))
        return;
    unsigned keep = PRIVS_READ_ANY | (so->local.no_lldp ? 0 : PRIVS_NET_RAW);
    struct dcb_err err;
    if (privs_drop(keep, &err) < 0)
        dcb_log(DCB_LOG_WARN, "%s; running on with the privileges it has", err.msg);
    else if (ctx && ctx->verbosity > 0)
        dcb_log(DCB_LOG_INFO, "running as %s", privs_describe(keep));
}
