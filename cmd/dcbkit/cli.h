/* The command-line frame shared by every dcbkit subcommand: the command table, the options all
 * commands accept (-T, -v, -q, -h), one-line usage errors (exit 64), and help rendered from one
 * description as terminal text (`dcbkit help CMD`) or as a man page (`dcbkit help --man`). */
#ifndef DCB_CLI_H
#define DCB_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "out.h"

#define EXIT_USAGE 64

struct cli_option_doc {
    const char *flags;
    const char *text;
};

struct cli_example {
    const char *command;
    const char *text;
};

struct cli_ctx;

struct cli_command {
    const char *name;
    const char *summary;                      /* one line, for `dcbkit help` */
    const char *synopsis;                     /* one usage form per line */
    const char *description;                  /* paragraphs separated by a blank line */
    const struct cli_option_doc *options;     /* ends with { NULL, NULL } */
    const struct cli_example *examples;       /* ends with { NULL, NULL } */
    const char *json_doc;                     /* what -T json prints; NULL if nothing */
    /* the source option groups it takes (collectors/source_opts.h): their help follows the
     * command's own options, except a flag the command documents itself */
    unsigned source_groups;
    int (*run)(struct cli_ctx *ctx, int argc, char **argv);
};

struct cli_ctx {
    const struct cli_command *cmd;
    enum out_format format;
    int verbosity;                            /* -v adds, -q subtracts */
};

/* Options every command takes; put CLI_COMMON_LONGOPTS last in a command's option array
 * (before the terminator) and start its short option string with CLI_COMMON_SHORTOPTS. */
#define CLI_COMMON_SHORTOPTS ":T:vqh"
#define CLI_COMMON_LONGOPTS \
    { "format", required_argument, NULL, 'T' }, { "verbose", no_argument, NULL, 'v' }, \
    { "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' }

#define CLI_COMMON_OPTION_DOCS \
    { "-T, --format text|json", "Output format: text (default) or json, described under JSON output." }, \
    { "-v, --verbose", "Say more on stderr (repeat for debug)." }, \
    { "-q, --quiet", "Only errors on stderr." }, \
    { "-h, --help", "This help." }

/* Handles a getopt result that the command did not: common options, unknown options and
 * missing arguments. Returns -1 to go on, or an exit status (0 after --help, 64 on a usage
 * error, with the one-line message already printed). */
int cli_common_option(struct cli_ctx *ctx, int opt, char **argv);

/* "dcbkit calc: <message> (see 'dcbkit help calc')" on stderr; returns 64. */
int cli_usage_error(const struct cli_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A whole decimal number in [min, max] for option flag; 0, or 64 after a one-line usage error
 * ("--count takes a whole number from 1 to 1000000, not 'x'"). */
int cli_parse_long(const struct cli_ctx *ctx, const char *flag, const char *text, long min,
                   long max, long *out);

/* The rules options of diagnose, report and serve: --rules DIR (repeatable: catalog folders
 * besides the built-in one) and --profile pfc-only. */
#define CLI_MAX_RULES_DIRS 8
struct cli_rules {
    const char *dirs[CLI_MAX_RULES_DIRS];
    int ndirs;
    const char *profile;          /* NULL: every rule */
};
/* Each takes the option's argument: 0, or 64 after a one-line usage error. */
int cli_rules_dir(const struct cli_ctx *ctx, struct cli_rules *r, const char *dir);
int cli_rules_profile(const struct cli_ctx *ctx, struct cli_rules *r, const char *name);

/* "dcbkit: <what>: <why>" on stderr; returns status. */
int cli_fail(int status, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void cli_print_help(const struct cli_command *cmd, FILE *fp);
void cli_print_overview(FILE *fp);
void cli_print_man(FILE *fp);

/* The command table (commands.c). */
extern const struct cli_command *const cli_commands[];
const struct cli_command *cli_find_command(const char *name);

/* Flushes stdout through out_finish and turns a write failure into "dcbkit: writing output: ...",
 * exit 1. Returns status unchanged otherwise. */
int cli_finish_output(struct dcb_out *o, int status);

#endif
