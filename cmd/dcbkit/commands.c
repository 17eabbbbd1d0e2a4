/* dcbkit's command table, and what is made from it: the overview, dcbkit(1). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "version.h"

extern const struct cli_command cmd_analyze;
extern const struct cli_command cmd_calc;
extern const struct cli_command cmd_collect;
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
    &cmd_analyze,
    &cmd_calc,
    &cmd_collect,
    &cmd_decode,
    &cmd_diagnose,
    &cmd_fabric,
    &cmd_gnmi,
    &cmd_metrics,
    &cmd_replay,
    &cmd_report,
    &cmd_serve,
    &cmd_store,
    &cmd_help,
    NULL,
};

const struct cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

void cli_print_overview(FILE *fp)
{
    fprintf(fp,
            "%s %s - why a lossless (RoCEv2) fabric pauses, marks, drops or crawls, and which\n"
            "knob fixes it.\n\nUsage: %s [--version] <command> [options] [args]\n\nCommands:\n",
            dcb_progname(), DCBKIT_VERSION, dcb_progname());
    for (size_t i = 0; cli_commands[i]; i++)
        out_term(fp, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(fp,
            "\nEvery command takes -T json for machine-readable output.\n"
            "Run '%s help <command>' for its options and examples.\n"
            "Exit status: 0 success, 1 runtime error, 64 usage error.\n",
            dcb_progname());
}

/* dcbkit(1): every command, one section each. */
void cli_print_man(FILE *fp)
{
    fprintf(fp, ".TH DCBKIT 1 \"\" \"dcbkit %s\" \"User Commands\"\n", DCBKIT_VERSION);
    fputs(".SH NAME\n"
          "dcbkit \\- diagnose lossless-Ethernet (RoCEv2) fabrics: PFC, ECN, DCQCN, DCBX\n", fp);
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
    fputs(".SH EXIT STATUS\n0 success, 1 runtime error, 64 usage error.\n"
          ".SH ENVIRONMENT\n.TP\n.B DCBKIT_LOG\nerror, warn (default), info or debug.\n"
          ".SH SEE ALSO\n.BR dcbtop (1)\n",
          fp);
}
