/* Help and man pages from one description (struct cli_command): terminal text wrapped at 78
 * columns, or roff. The source options come from source_option_docs, written once. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "version.h"

void cli_print_wrapped(FILE *fp, const char *text, int indent, int width, int start)
{
    const char *p = text;
    while (*p) {
        const char *para_end = strstr(p, "\n\n");
        size_t para_len = para_end ? (size_t)(para_end - p) : strlen(p);
        int col = start;
        bool first = start > 0;
        start = 0;
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
                fprintf(fp, "%*s", indent, ""), col = indent;
            else if (first)
                first = false;
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

static const struct cli_option_doc common_docs[] = { CLI_COMMON_OPTION_DOCS, { NULL, NULL } };

/* The common option docs from d on that the command takes (-T only with JSON output). */
static const struct cli_option_doc *next_common(const struct cli_command *cmd,
                                                const struct cli_option_doc *d)
{
    for (; d->flags; d++)
        if (cmd->json_doc || strncmp(d->flags, "-T,", 3) != 0)
            return d;
    return NULL;
}

static void print_options(FILE *fp, const struct cli_command *cmd)
{
    fputs("\nOptions:\n", fp);
    for (const struct cli_option_doc *o = cmd->options; o && o->flags; o++) {
        fprintf(fp, "  %s\n", o->flags);
        cli_print_wrapped(fp, o->text, 6, 78, 0);
    }
    for (const struct cli_option_doc *o = next_common(cmd, common_docs); o;
         o = next_common(cmd, o + 1)) {
        fprintf(fp, "  %s\n", o->flags);
        cli_print_wrapped(fp, o->text, 6, 78, 0);
    }
}

static void print_items(FILE *fp, const char *title, const struct cli_option_doc *items)
{
    if (!items || !items[0].flags)
        return;
    fprintf(fp, "\n%s:\n", title);
    for (const struct cli_option_doc *o = items; o->flags; o++) {
        fprintf(fp, "  %s\n", o->flags);
        cli_print_wrapped(fp, o->text, 6, 78, 0);
    }
}

/* Whether the command documents the flag of a source option itself ("--pcap FILE" in serve's
 * own options, to say why it refuses it). */
static bool own_flag(const struct cli_command *cmd, const char *flags)
{
    size_t n = strcspn(flags, " ,=");
    for (const struct cli_option_doc *o = cmd->options; o && o->flags; o++)
        if (!strncmp(o->flags, flags, n) && strchr(" ,=", o->flags[n]))
            return true;
    return false;
}

/* The source option docs of the command's groups, in source_opts' order, but its own. */
static const struct source_option_doc *next_source_doc(const struct cli_command *cmd,
                                                       const struct source_option_doc *d)
{
    for (; d->flags; d++)
        if ((d->group & cmd->source_groups) && !own_flag(cmd, d->flags))
            return d;
    return NULL;
}

void cli_each_option(const struct cli_command *cmd, void (*fn)(void *arg, const char *flags),
                     void *arg)
{
    for (const struct cli_option_doc *o = cmd->options; o && o->flags; o++)
        fn(arg, o->flags);
    for (const struct cli_option_doc *o = next_common(cmd, common_docs); o;
         o = next_common(cmd, o + 1))
        fn(arg, o->flags);
    for (const struct source_option_doc *d = next_source_doc(cmd, source_option_docs); d;
         d = next_source_doc(cmd, d + 1))
        fn(arg, d->flags);
}

static void print_source_options(FILE *fp, const struct cli_command *cmd)
{
    const struct source_option_doc *d = next_source_doc(cmd, source_option_docs);
    if (d)
        fputs("\nSource options:\n", fp);
    for (; d; d = next_source_doc(cmd, d + 1)) {
        fprintf(fp, "  %s\n", d->flags);
        cli_print_wrapped(fp, d->text, 6, 78, 0);
    }
}

const struct cli_exit cli_exits_default[] = {
    CLI_EXIT_SUCCESS,
    CLI_EXIT_FAILED,
    CLI_EXIT_USAGE,
    CLI_EXIT_END,
};

const struct cli_exit *cli_exits(const struct cli_command *cmd)
{
    return cmd->exits ? cmd->exits : cli_exits_default;
}

bool cli_exits_alike(const struct cli_command *a, const struct cli_command *b)
{
    const struct cli_exit *x = cli_exits(a), *y = cli_exits(b);
    for (; x->label && y->label; x++, y++)
        if (x->code != y->code || strcmp(x->label, y->label) != 0)
            return false;
    return !x->label && !y->label;
}

void cli_exit_labels(const struct cli_command *cmd, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (const struct cli_exit *e = cli_exits(cmd); e->label && n < len; e++) {
        int w = snprintf(buf + n, len - n, "%s%d %s", n ? ", " : "", e->code, e->label);
        n += w > 0 ? (size_t)w : 0;
    }
}

/* "  0   healthy: no finding above info", wrapped under the label */
static void print_exits(FILE *fp, const struct cli_command *cmd)
{
    fputs("\nExit status:\n", fp);
    for (const struct cli_exit *e = cli_exits(cmd); e->label; e++) {
        char line[512];
        snprintf(line, sizeof(line), "%s%s%s", e->label, e->text ? ": " : "",
                 e->text ? e->text : "");
        fprintf(fp, "  %-4d", e->code);
        cli_print_wrapped(fp, line, 6, 78, 6);
    }
}

void cli_print_help(const struct cli_command *cmd, FILE *fp)
{
    if (!cmd)
        return;
    if (cli_is_binary(cmd))
        fprintf(fp, "%s - %s\n\nUsage:\n", cmd->name, cmd->summary);
    else
        fprintf(fp, "%s %s - %s\n\nUsage:\n", dcb_progname(), cmd->name, cmd->summary);
    print_lines_indented(fp, cmd->synopsis, "  ");
    fputc('\n', fp);
    cli_print_wrapped(fp, cmd->description, 2, 78, 0);
    print_options(fp, cmd);
    print_source_options(fp, cmd);
    for (const struct cli_section *s = cmd->sections; s && s->title; s++)
        print_items(fp, s->title, s->items);
    if (cmd->json_doc) {
        fputs("\nJSON output (-T json):\n", fp);
        cli_print_wrapped(fp, cmd->json_doc, 2, 78, 0);
    }
    print_exits(fp, cmd);
    if (cmd->examples && cmd->examples[0].command)
        fputs("\nExamples:\n", fp);
    for (const struct cli_example *e = cmd->examples; e && e->command; e++) {
        fprintf(fp, "  %s\n", e->command);
        cli_print_wrapped(fp, e->text, 6, 78, 0);
    }
}

/* A UTF-8 sequence of 2 or 3 bytes at s as roff's \[uXXXX]; how many bytes it took, 0 if none. */
static size_t roff_utf8(FILE *fp, const unsigned char *s, size_t n)
{
    unsigned cp;
    size_t len;
    if ((s[0] & 0xe0) == 0xc0 && n >= 2 && (s[1] & 0xc0) == 0x80) {
        cp = (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu);
        len = 2;
    } else if ((s[0] & 0xf0) == 0xe0 && n >= 3 && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80) {
        cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
        len = 3;
    } else {
        return 0;
    }
    fprintf(fp, "\\[u%04X]", cp);
    return len;
}

void cli_roff_text(FILE *fp, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t u = (unsigned char)s[i] >= 0x80 ? roff_utf8(fp, (const unsigned char *)s + i, n - i)
                                               : 0;
        if (u)
            i += u - 1;
        else if (s[i] == '\\')
            fputs("\\e", fp);
        else if (s[i] == '-')
            fputs("\\-", fp);
        else if ((s[i] == '.' || s[i] == '\'') && (i == 0 || s[i - 1] == '\n'))
            fputs("\\&", fp), fputc(s[i], fp);
        else
            fputc(s[i], fp);
    }
}

void cli_roff_paragraphs(FILE *fp, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *end = strstr(p, "\n\n");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        fputs(".PP\n", fp);
        cli_roff_text(fp, p, n);
        fputc('\n', fp);
        if (!end)
            break;
        p = end + 2;
    }
}

static void roff_item(FILE *fp, const char *flags, const char *text)
{
    fputs(".TP\n.B ", fp);
    cli_roff_text(fp, flags, strlen(flags));
    fputc('\n', fp);
    cli_roff_text(fp, text, strlen(text));
    fputc('\n', fp);
}

static void roff_heading(FILE *fp, bool page, const char *title)
{
    if (!page) {
        fprintf(fp, ".PP\n%s:\n", title);
        return;
    }
    fputs(".SH ", fp);
    for (const char *t = title; *t; t++)
        fputc(*t >= 'a' && *t <= 'z' ? *t - 'a' + 'A' : *t, fp);
    fputc('\n', fp);
}

/* The options, source options and sections: under headings of their own on a page of its own,
 * one list after the description inside dcbkit(1). */
static void man_lists(const struct cli_command *cmd, FILE *fp, bool page)
{
    if (page)
        roff_heading(fp, page, "Options");
    for (const struct cli_option_doc *o = cmd->options; o && o->flags; o++)
        roff_item(fp, o->flags, o->text);
    for (const struct cli_option_doc *o = next_common(cmd, common_docs); o;
         o = next_common(cmd, o + 1))
        roff_item(fp, o->flags, o->text);
    const struct source_option_doc *d = next_source_doc(cmd, source_option_docs);
    if (d)
        roff_heading(fp, page, "Source options");
    for (; d; d = next_source_doc(cmd, d + 1))
        roff_item(fp, d->flags, d->text);
    for (const struct cli_section *s = cmd->sections; s && s->title; s++) {
        roff_heading(fp, page, s->title);
        for (const struct cli_option_doc *o = s->items; o && o->flags; o++)
            roff_item(fp, o->flags, o->text);
    }
}

static void man_body(const struct cli_command *cmd, FILE *fp, bool page)
{
    fputs(page ? ".SH SYNOPSIS\n.nf\n" : ".nf\n", fp);
    cli_roff_text(fp, cmd->synopsis, strlen(cmd->synopsis));
    fputs("\n.fi\n", fp);
    if (page)
        fputs(".SH DESCRIPTION\n", fp);
    cli_roff_paragraphs(fp, cmd->description);
    man_lists(cmd, fp, page);
    if (cmd->json_doc) {
        if (page)
            fputs(".SH JSON OUTPUT\n", fp);
        else
            fputs(".PP\nJSON output:\n", fp);
        cli_roff_paragraphs(fp, cmd->json_doc);
    }
    roff_heading(fp, page, "Exit status");
    for (const struct cli_exit *e = cli_exits(cmd); e->label; e++) {
        char code[16], line[512];
        snprintf(code, sizeof(code), "%d", e->code);
        snprintf(line, sizeof(line), "%s%s%s", e->label, e->text ? ": " : "",
                 e->text ? e->text : "");
        roff_item(fp, code, line);
    }
    if (page && cmd->examples && cmd->examples[0].command)
        fputs(".SH EXAMPLES\n", fp);
    for (const struct cli_example *e = cmd->examples; e && e->command; e++) {
        fputs(".PP\n.RS\n.B ", fp);
        cli_roff_text(fp, e->command, strlen(e->command));
        fputs("\n.RE\n", fp);
        cli_roff_text(fp, e->text, strlen(e->text));
        fputc('\n', fp);
    }
}

void cli_man_body(const struct cli_command *cmd, FILE *fp)
{
    man_body(cmd, fp, false);
}

void cli_print_man_page(const struct cli_command *cmd, FILE *fp)
{
    char upper[64];
    size_t n = 0;
    for (; cmd->name[n] && n + 1 < sizeof(upper); n++)
        upper[n] = cmd->name[n] >= 'a' && cmd->name[n] <= 'z' ? cmd->name[n] - 'a' + 'A'
                                                              : cmd->name[n];
    upper[n] = '\0';
    fprintf(fp, ".TH %s 1 \"\" \"dcbkit %s\" \"User Commands\"\n.SH NAME\n", upper, DCBKIT_VERSION);
    cli_roff_text(fp, cmd->name, strlen(cmd->name));
    fputs(" \\- ", fp);
    cli_roff_text(fp, cmd->summary, strlen(cmd->summary));
    fputc('\n', fp);
    man_body(cmd, fp, true);
    fputs(".SH ENVIRONMENT\n.TP\n.B DCBKIT_LOG\nerror, warn (default), info or debug.\n"
          ".SH SEE ALSO\n.BR dcbkit (1)\n",
          fp);
}
