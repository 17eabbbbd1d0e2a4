#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "source_opts.h"
#include "version.h"

int cli_usage_error(const struct cli_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ctx && ctx->cmd)
        fprintf(stderr, "%s %s: ", dcb_progname(), ctx->cmd->name);
    else
        fprintf(stderr, "%s: ", dcb_progname());
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (ctx && ctx->cmd)
        fprintf(stderr, " (see '%s help %s')\n", dcb_progname(), ctx->cmd->name);
    else
        fprintf(stderr, " (see '%s help')\n", dcb_progname());
    return EXIT_USAGE;
}

int cli_parse_long(const struct cli_ctx *ctx, const char *flag, const char *text, long min,
                   long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return cli_usage_error(ctx, "%s takes a whole number from %ld to %ld, not '%s'", flag, min,
                               max, text);
    *out = v;
    return 0;
}

int cli_rules_dir(const struct cli_ctx *ctx, struct cli_rules *r, const char *dir)
{
    if (r->ndirs == CLI_MAX_RULES_DIRS)
        return cli_usage_error(ctx, "at most %d --rules folders", CLI_MAX_RULES_DIRS);
    r->dirs[r->ndirs++] = dir;
    return 0;
}

int cli_rules_profile(const struct cli_ctx *ctx, struct cli_rules *r, const char *name)
{
    if (strcmp(name, "pfc-only") != 0)
        return cli_usage_error(ctx, "--profile: the profile is pfc-only, not '%s'", name);
    r->profile = name;
    return 0;
}

int cli_fail(int status, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: %s: ", dcb_progname(), what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

int cli_common_option(struct cli_ctx *ctx, int opt, char **argv)
{
    switch (opt) {
    case 'T':
        if (out_parse_format(optarg, &ctx->format) < 0)
            return cli_usage_error(ctx, "-T takes 'text' or 'json', not '%s'", optarg);
        return -1;
    case 'v':
        ctx->verbosity++;
        dcb_log_set_level(ctx->verbosity >= 2 ? DCB_LOG_DEBUG : DCB_LOG_INFO);
        return -1;
    case 'q':
        ctx->verbosity = -1;
        dcb_log_set_level(DCB_LOG_ERROR);
        return -1;
    case 'h':
        cli_print_help(ctx->cmd, stdout);
        return 0;
    case ':':
        return cli_usage_error(ctx, "option '%s' needs a value", argv[optind - 1]);
    case '?':
        if (optopt)
            return cli_usage_error(ctx, "unknown option '-%c'", optopt);
        return cli_usage_error(ctx, "unknown option '%s'", argv[optind - 1]);
    default:
        return cli_usage_error(ctx, "unhandled option '%c'", opt);
    }
}

int cli_finish_output(struct dcb_out *o, int status)
{
    if (out_finish(o) < 0)
        return cli_fail(1, "writing output", "%s", strerror(errno));
    return status;
}

const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

/* Prints text wrapped at width, each line indented by indent spaces. */
static void print_wrapped(FILE *fp, const char *text, int indent, int width)
{
    const char *p = text;
    while (*p) {
        const char *para_end = strstr(p, "\n\n");
        size_t para_len = para_end ? (size_t)(para_end - p) : strlen(p);
        int col = 0;
        size_t i = 0;
        while (i < para_len) {
            while (i < para_len && (p[i] == ' ' || p[i] == '\n'))
                i++;
            size_t w = i;
            while (w < para_len && p[w] != ' ' && p[w] != '\n')
                w++;
            if (w == i)
                break;
            int wlen = (int)(w - i);
            if (col > 0 && col + 1 + wlen > width) {
                fputc('\n', fp);
                col = 0;
            }
            if (col == 0)
                fprintf(fp, "%*s", indent, "");
            else
                fputc(' ', fp), col++;
            fwrite(p + i, 1, (size_t)wlen, fp);
            col += wlen;
            i = w;
        }
        fputc('\n', fp);
        if (!para_end)
            break;
        fputc('\n', fp);
        p = para_end + 2;
    }
}

static void print_lines_indented(FILE *fp, const char *lines, const char *prefix)
{
    const char *p = lines;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(fp, "%s%.*s\n", prefix, (int)n, p);
        if (!nl)
            break;
        p = nl + 1;
    }
}

/* Whether the command documents the flag of a source option itself ("--store DB" and
 * "--store DB" name the same flag). */
static bool own_flag(const struct cli_command *cmd, const char *flags)
{
    size_t n = strcspn(flags, " ,=");
    for (const struct cli_option_doc *o = cmd->options; o && o->flags; o++)
        if (!strncmp(o->flags, flags, n) && strchr(" ,=", o->flags[n]))
            return true;
    return false;
}

/* The source options of the command's groups, in the order source_opts documents them. */
static void each_source_doc(const struct cli_command *cmd,
                            void (*fn)(FILE *fp, const char *flags, const char *text), FILE *fp)
{
    for (const struct source_option_doc *d = source_option_docs; d->flags; d++)
        if ((d->group & cmd->source_groups) && !own_flag(cmd, d->flags))
            fn(fp, d->flags, d->text);
}

static void help_option(FILE *fp, const char *flags, const char *text)
{
    fprintf(fp, "  %s\n", flags);
    print_wrapped(fp, text, 6, 78);
}

static void roff_option(FILE *fp, const char *flags, const char *text);

void cli_print_help(const struct cli_command *cmd, FILE *fp)
{
    if (!cmd) {
        cli_print_overview(fp);
        return;
    }
    fprintf(fp, "%s %s - %s\n\nUsage:\n", dcb_progname(), cmd->name, cmd->summary);
    print_lines_indented(fp, cmd->synopsis, "  ");
    fputc('\n', fp);
    print_wrapped(fp, cmd->description, 2, 78);
    if (cmd->options && cmd->options[0].flags) {
        fputs("\nOptions:\n", fp);
        for (const struct cli_option_doc *o = cmd->options; o->flags; o++)
            help_option(fp, o->flags, o->text);
        each_source_doc(cmd, help_option, fp);
    }
    if (cmd->json_doc) {
        fputs("\nJSON output (-T json):\n", fp);
        print_wrapped(fp, cmd->json_doc, 2, 78);
    }
    if (cmd->examples && cmd->examples[0].command) {
        fputs("\nExamples:\n", fp);
        for (const struct cli_example *e = cmd->examples; e->command; e++) {
            fprintf(fp, "  %s\n", e->command);
            print_wrapped(fp, e->text, 6, 78);
        }
    }
}

void cli_print_overview(FILE *fp)
{
    fprintf(fp,
            "%s %s - why a lossless (RoCEv2) fabric pauses, marks, drops or crawls, and which\n"
            "knob fixes it.\n\nUsage: %s [--version] <command> [options] [args]\n\nCommands:\n",
            dcb_progname(), DCBKIT_VERSION, dcb_progname());
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(fp, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(fp,
            "\nEvery command takes -T json for machine-readable output.\n"
            "Run '%s help <command>' for its options and examples.\n"
            "Exit status: 0 success, 1 runtime error, 64 usage error.\n",
            dcb_progname());
}

/* roff needs backslashes doubled and leading dots/quotes escaped. */
static void roff_text(FILE *fp, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", fp);
        else if (s[i] == '-')
            fputs("\\-", fp);
        else if ((s[i] == '.' || s[i] == '\'') && (i == 0 || s[i - 1] == '\n'))
            fputs("\\&", fp), fputc(s[i], fp);
        else
            fputc(s[i], fp);
    }
}

static void roff_paragraphs(FILE *fp, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *end = strstr(p, "\n\n");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        fputs(".PP\n", fp);
        roff_text(fp, p, n);
        fputc('\n', fp);
        if (!end)
            break;
        p = end + 2;
    }
}

static void roff_option(FILE *fp, const char *flags, const char *text)
{
    fputs(".TP\n.B ", fp);
    roff_text(fp, flags, strlen(flags));
    fputc('\n', fp);
    roff_text(fp, text, strlen(text));
    fputc('\n', fp);
}

void cli_print_man(FILE *fp)
{
    fprintf(fp, ".TH DCBKIT 1 \"\" \"dcbkit %s\" \"User Commands\"\n", DCBKIT_VERSION);
    fputs(".SH NAME\ndcbkit \\- diagnose lossless-Ethernet (RoCEv2) fabrics: PFC, ECN, DCQCN, DCBX\n",
          fp);
    fputs(".SH SYNOPSIS\n.B dcbkit\n[\\-\\-version] \\fIcommand\\fR [\\fIoptions\\fR]\n", fp);
    fputs(".SH DESCRIPTION\n", fp);
    roff_paragraphs(fp, "dcbkit tells the operators of lossless-Ethernet AI fabrics why their fabric "
                        "pauses, marks, drops or crawls, and which knob fixes it. Every command "
                        "prints text by default and the same data as JSON with -T json.");
    fputs(".SH COMMANDS\n", fp);
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        fprintf(fp, ".SS %s \\- ", c->name);
        roff_text(fp, c->summary, strlen(c->summary));
        fputs("\n.nf\n", fp);
        roff_text(fp, c->synopsis, strlen(c->synopsis));
        fputs("\n.fi\n", fp);
        roff_paragraphs(fp, c->description);
        for (const struct cli_option_doc *o = c->options; o && o->flags; o++)
            roff_option(fp, o->flags, o->text);
        each_source_doc(c, roff_option, fp);
        if (c->json_doc) {
            fputs(".PP\nJSON output:\n", fp);
            roff_paragraphs(fp, c->json_doc);
        }
        for (const struct cli_example *e = c->examples; e && e->command; e++) {
            fputs(".PP\n.RS\n.B ", fp);
            roff_text(fp, e->command, strlen(e->command));
            fputs("\n.RE\n", fp);
            roff_text(fp, e->text, strlen(e->text));
            fputc('\n', fp);
        }
    }
    fputs(".SH EXIT STATUS\n0 success, 1 runtime error, 64 usage error.\n"
          ".SH ENVIRONMENT\n.TP\n.B DCBKIT_LOG\nerror, warn (default), info or debug.\n",
          fp);
}
