/* dcbkit's command table, and what is made from it: the overview, dcbkit(1). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "version.h"

extern const struct cli_command cmd_analyze;
extern const struct cli_command cmd_calc;
extern const struct cli_command cmd_collect;
extern const struct cli_command cmd_completion;
extern const struct cli_command cmd_decode;
extern const struct cli_command cmd_diagnose;
extern const struct cli_command cmd_fabric;
extern const struct cli_command cmd_gnmi;
extern const struct cli_command cmd_help;
extern const struct cli_command cmd_metrics;
extern const struct cli_command cmd_replay;
extern const struct cli_command cmd_report;
extern const struct cli_command cmd_serve;
extern const struct cli_command cmd_store;

/* `dcbkit help` lists them in this order. */
const struct cli_command *const cli_commands[] = {
    &cmd_analyze, &cmd_calc,  &cmd_collect,    &cmd_decode, &cmd_diagnose,
    &cmd_fabric,  &cmd_gnmi,  &cmd_metrics,    &cmd_replay, &cmd_report,
    &cmd_serve,   &cmd_store, &cmd_completion, &cmd_help,   NULL,
};

const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

/* The commands whose exit tables are alike, as one line each: "diagnose, report: 0 healthy,
 * 1 warnings, ..."; roff puts each under a .TP. */
static void print_exit_groups(FILE *fp, bool roff)
{
    for (size_t i = 0; cli_commands[i]; i++) {
        size_t j = 0;
        while (j < i && !cli_exits_alike(cli_commands[j], cli_commands[i]))
            j++;
        if (j < i)
            continue; /* listed with an earlier one */
        char names[256], codes[512];
        size_t n = 0;
        names[0] = '\0';
        for (j = i; cli_commands[j]; j++)
            if (cli_exits_alike(cli_commands[j], cli_commands[i]) && n < sizeof(names))
                n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
                                      cli_commands[j]->name);
        cli_exit_labels(cli_commands[i], codes, sizeof(codes));
        if (roff) {
            fputs(".TP\n", fp);
            cli_roff_text(fp, names, strlen(names));
            fputc('\n', fp);
            cli_roff_text(fp, codes, strlen(codes));
            fputc('\n', fp);
        } else {
            fprintf(fp, "  %s:\n", names);
            cli_print_wrapped(fp, codes, 6, 78, 0);
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
        out_term(fp, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    size_t textonly = 0, m = 0;
    for (size_t i = 0; cli_commands[i]; i++)
        textonly += !cli_commands[i]->json_doc;
    fputs("\nEvery command", fp);
    for (size_t i = 0; cli_commands[i]; i++)
        if (!cli_commands[i]->json_doc)
            fprintf(fp, "%s%s",
                    m++ == 0        ? " but "
                    : m == textonly ? " and "
                                    : ", ",
                    cli_commands[i]->name);
    fprintf(fp,
            " takes -T json for machine-readable output.\n"
            "Run '%s help <command>' for its options and examples.\n\n"
            "Exit status (each command's help says when):\n",
            dcb_progname());
    print_exit_groups(fp, false);
}

/* dcbkit(1): every command, one section each. */
void cli_print_man(FILE *fp)
{
    fprintf(fp, ".TH DCBKIT 1 \"\" \"dcbkit %s\" \"User Commands\"\n", DCBKIT_VERSION);
    fputs(".SH NAME\n"
          "dcbkit \\- diagnose lossless-Ethernet (RoCEv2) fabrics: PFC, ECN, DCQCN, DCBX\n",
          fp);
    fputs(".SH SYNOPSIS\n.B dcbkit\n[\\-\\-version] \\fIcommand\\fR [\\fIoptions\\fR]\n", fp);
    fputs(".SH DESCRIPTION\n", fp);
    cli_roff_paragraphs(fp, "dcbkit tells the operators of lossless-Ethernet AI fabrics why their "
                            "fabric pauses, marks, drops or crawls, and which knob fixes it. Every "
                            "command prints text by default and the same data as JSON with -T "
                            "json.");
    fputs(".SH COMMANDS\n", fp);
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        out_term(fp, ".SS %s \\- ", c->name);
        cli_roff_text(fp, c->summary, strlen(c->summary));
        fputc('\n', fp);
        cli_man_body(c, fp);
    }
    fputs(".SH EXIT STATUS\nEach command's own, as listed under it above:\n", fp);
    print_exit_groups(fp, true);
    fputs(".SH ENVIRONMENT\n.TP\n.B DCBKIT_LOG\nerror, warn (default), info or debug.\n"
          ".SH SEE ALSO\n.BR dcbtop (1)\n",
          fp);
}
