/* The command-line toolkit of both binaries (dcbkit's subcommands and dcbtop): the options all
 * commands accept (-T, -v, -q, -h), the source options (collectors/source_opts.h), one-line
 * usage errors (exit 64), and help rendered from one description as terminal text
 * (`dcbkit help CMD`, `dcbtop --help`) or as a man page (`dcbkit help --man`, `dcbtop --man`).
 * dcbkit's command table (commands.c) is dcbkit's own.
 *
 * One return convention for option helpers: CLI_NEXT (-1) when the option was handled and
 * parsing goes on, otherwise the exit status the command returns at once (0 after --help, 64
 * after a one-line usage error):
 *
 *     int rc = cli_opt_long(ctx, "--count", optarg, 1, 1000, &count);
 *     if (rc != CLI_NEXT)
 *         return rc;
 *
 * cli_parse (the one option loop every command uses), a command's own option function
 * (which also answers CLI_NOT_OWN for an option that is not its own), cli_common_option,
 * cli_source_option and the cli_opt_* helpers all follow it. */
#ifndef DCB_CLI_H
#define DCB_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "out.h"
#include "source_opts.h"

#define EXIT_USAGE 64
#define CLI_NEXT (-1)

struct cli_option_doc {
    const char *flags;
    const char *text;
};

struct cli_example {
    const char *command;
    const char *text;
};

/* A titled list for help and man pages besides the options (dcbtop's keys). */
struct cli_section {
    const char *title;                  /* "Keys"; the man page prints it in capitals */
    const struct cli_option_doc *items; /* ends with { NULL, NULL } */
};

/* One row of a command's exit-status table: help, the man pages and `dcbkit help`'s summary
 * are all made from it, and tests/integration/exit_status.py runs the codes it documents. */
struct cli_exit {
    int code;
    const char *label; /* a few words: "warnings"; the summary's */
    const char *text;  /* when; NULL when the label says it */
};
#define CLI_EXIT_SUCCESS_WHEN(when) \
    {                               \
        0, "success", when          \
    }
#define CLI_EXIT_FAILED_WHEN(when) \
    {                              \
        1, "runtime error", when   \
    }
#define CLI_EXIT_SUCCESS CLI_EXIT_SUCCESS_WHEN(NULL)
#define CLI_EXIT_FAILED                                                                   \
    CLI_EXIT_FAILED_WHEN("a file, store, device or socket could not be read, written or " \
                         "opened; the output could not be written")
#define CLI_EXIT_USAGE                                 \
    {                                                  \
        EXIT_USAGE, "usage error",                     \
            "a wrong option or argument, said in one " \
            "line on stderr"                           \
    }
#define CLI_EXIT_END   \
    {                  \
        -1, NULL, NULL \
    }
/* The whole table of a command that exits 0, 1 or 64, in its own words for when 0 and 1
 * happen (NULL: the label says it). */
#define CLI_EXITS(success_when, failed_when)                                                    \
    {                                                                                           \
        CLI_EXIT_SUCCESS_WHEN(success_when), CLI_EXIT_FAILED_WHEN(failed_when), CLI_EXIT_USAGE, \
            CLI_EXIT_END                                                                        \
    }
/* 0 success, 1 runtime error, 64 usage error: a command whose exits are NULL. */
extern const struct cli_exit cli_exits_default[];
/* The monitoring convention of diagnose and report, before their own 3 and 64. */
#define CLI_EXIT_HEALTHY                      \
    {                                         \
        0, "healthy", "no finding above info" \
    }
#define CLI_EXIT_WARNINGS_WHEN(when) \
    {                                \
        1, "warnings", when          \
    }
#define CLI_EXIT_WARNINGS CLI_EXIT_WARNINGS_WHEN("the worst finding is a warn")
#define CLI_EXIT_CRITICAL                          \
    {                                              \
        2, "critical", "at least one crit finding" \
    }
/* The whole table of diagnose and report: the convention, then `undecided` (3) and 64. */
#define CLI_EXITS_VERDICT(warnings, undecided, undecided_when)                              \
    {                                                                                       \
        CLI_EXIT_HEALTHY, warnings, CLI_EXIT_CRITICAL,                                      \
            { undecided, "could not decide", undecided_when }, CLI_EXIT_USAGE, CLI_EXIT_END \
    }

struct cli_ctx;

/* A binary that is one command (dcbtop) names its command after itself: its usage errors say
 * "dcbtop: ... (see 'dcbtop --help')" and its man page is a page of its own. */
struct cli_command {
    const char *name;
    const char *summary;                  /* one line, for `dcbkit help` */
    const char *synopsis;                 /* one usage form per line */
    const char *description;              /* paragraphs separated by a blank line */
    const struct cli_option_doc *options; /* its own; ends with { NULL, NULL } */
    const struct cli_example *examples;   /* ends with { NULL, NULL } */
    const char *json_doc;                 /* what -T json prints; NULL: -T json refused */
    /* the source option groups it takes (collectors/source_opts.h): help and man list their
     * options from source_option_docs after the command's own, except a flag the command
     * documents itself */
    unsigned source_groups;
    int (*run)(struct cli_ctx *ctx, int argc, char **argv);
    const struct cli_section *sections; /* ends with { NULL, NULL }; NULL: none */
    const struct cli_exit *exits;       /* ends with CLI_EXIT_END; NULL: the default */
    const char *actions;                /* its first words ("pause headroom thresholds"),
                                         * space-separated, for completion; NULL: none */
};

/* Every option the help lists for cmd, in its order (its own, the common ones it takes, its
 * source groups' but those it documents itself): fn gets each flags string ("-T, --format
 * text|json", "--store DB"). */
void cli_each_option(const struct cli_command *cmd, void (*fn)(void *arg, const char *flags),
                     void *arg);

/* The command's exit-status table (cli_exits_default when it gives none). */
const struct cli_exit *cli_exits(const struct cli_command *cmd);
/* Whether two commands' tables have the same codes and labels (`dcbkit help` groups them). */
bool cli_exits_alike(const struct cli_command *a, const struct cli_command *b);
/* "0 healthy, 1 warnings, 64 usage error": the codes and labels in one line, into buf. */
void cli_exit_labels(const struct cli_command *cmd, char *buf, size_t len);
/* text wrapped at width, every line indented by indent, the first one starting at column start
 * (0: indented like the others; more: the caller already printed that much of it). */
void cli_print_wrapped(FILE *fp, const char *text, int indent, int width, int start);

struct cli_ctx {
    const struct cli_command *cmd;
    enum out_format format;
    bool format_given; /* -T (or a command's --format) was on the line */
    int verbosity;     /* -v adds, -q subtracts */
};

/* Options every command takes; put CLI_COMMON_LONGOPTS last in a command's option array
 * (before the terminator) and start its short option string with CLI_COMMON_SHORTOPTS. */
#define CLI_COMMON_SHORTOPTS ":T:vqh"
#define CLI_COMMON_LONGOPTS                                                            \
    { "format", required_argument, NULL, 'T' }, { "verbose", no_argument, NULL, 'v' }, \
        { "quiet", no_argument, NULL, 'q' },                                           \
    {                                                                                  \
        "help", no_argument, NULL, 'h'                                                 \
    }

/* Help and man pages list these after a command's own options; -T only for a command with
 * JSON output (json_doc), the others refuse it. */
#define CLI_COMMON_OPTION_DOCS                                                 \
    { "-T, --format text|json",                                                \
      "Output format: text (default) or json, described under JSON output." }, \
        { "-v, --verbose", "Say more on stderr (repeat for debug)." },         \
        { "-q, --quiet", "Only errors on stderr." },                           \
    {                                                                          \
        "-h, --help", "This help."                                             \
    }

/* Handles a getopt result that the command did not: common options, unknown options and
 * missing arguments. Returns CLI_NEXT to go on, or an exit status (0 after --help, 64 on a usage
 * error, with the one-line message already printed). */
int cli_common_option(struct cli_ctx *ctx, int opt, char **argv);

/* -T json for a command without JSON output (no json_doc) is a usage error: CLI_NEXT or 64. */
int cli_check_format(const struct cli_ctx *ctx);

/* A getopt result the command did not handle: a source option into so (source_opts_take),
 * else cli_common_option. CLI_NEXT or an exit status. */
int cli_source_option(struct cli_ctx *ctx, struct source_opts *so, int opt, char **argv);
/* The source options as checked after parsing (source_opts_check): CLI_NEXT or 64. */
int cli_source_check(const struct cli_ctx *ctx, const struct source_opts *so);
/* Once a command's sources, store and sockets are open: as root with this host among its
 * sources, become nobody keeping CAP_DAC_READ_SEARCH (the mlx5 debugfs knobs) and, unless
 * --no-lldp, CAP_NET_RAW (the LLDP listener reopens after an interface returns; lib/privs.h).
 * A drop the kernel refuses is said once and the command goes on. */
void cli_drop_privileges(const struct cli_ctx *ctx, const struct source_opts *so);

/* A command's own option: CLI_NEXT when it took it, CLI_NOT_OWN when opt is none of its own,
 * otherwise the exit status. */
#define CLI_NOT_OWN (-2)
typedef int (*cli_own_option_fn)(struct cli_ctx *ctx, void *args, int opt, const char *arg);

/* What a command's command line is made of. */
struct cli_parser {
    const struct option *own; /* its own getopt entries (no terminator, no common
                               * ones); they win over a source option of the same name */
    size_t nown;
    const char *shortopts; /* its own short letters, after the common ones; or NULL */
    cli_own_option_fn own_option;
    void *args;              /* handed to own_option */
    struct source_opts *src; /* the source options it takes (src->groups); or NULL */
};

/* For a command whose only own option is a switch: own_option = cli_flag_option, args = a
 * struct cli_flag naming the option and the bool it sets. */
struct cli_flag {
    int opt;
    bool *set;
};
int cli_flag_option(struct cli_ctx *ctx, void *args, int opt, const char *arg);

/* The one option loop: each getopt result goes to the command's own options, then to the
 * source options, then to the common ones; the source options are checked at the end. CLI_NEXT
 * with optind at the first operand, or the exit status (0 after --help). */
int cli_parse(struct cli_ctx *ctx, const struct cli_parser *p, int argc, char **argv);

/* "dcbkit calc: <message> (see 'dcbkit help calc')" on stderr; returns 64. */
int cli_usage_error(const struct cli_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The rules options of diagnose, report and serve: --rules DIR (repeatable: catalog folders
 * besides the built-in one) and --profile pfc-only. */
#define CLI_MAX_RULES_DIRS 8
struct cli_rules {
    const char *dirs[CLI_MAX_RULES_DIRS];
    int ndirs;
    const char *profile; /* NULL: every rule */
};
/* Option helpers, in the one convention: CLI_NEXT, or 64 after a one-line usage error. A whole
 * decimal number in [min, max] ("--count takes a whole number from 1 to 1000000, not 'x'"),
 * a --rules folder, the --profile name. */
int cli_opt_long(const struct cli_ctx *ctx, const char *flag, const char *text, long min, long max,
                 long *out);
int cli_opt_rules_dir(const struct cli_ctx *ctx, struct cli_rules *r, const char *dir);
int cli_opt_rules_profile(const struct cli_ctx *ctx, struct cli_rules *r, const char *name);
/* The documentation of --rules DIR and --profile NAME, for a command's option list. */
#define CLI_RULES_OPTION_DOCS                                                                \
    { "--rules DIR", "Also load the *.rules files of DIR besides the built-in catalog "      \
                     "($DCBKIT_RULES or the installed one); repeatable." },                  \
    {                                                                                        \
        "--profile pfc-only", "For sites that run PFC without DCQCN on purpose: rules that " \
                              "expect DCQCN are skipped."                                    \
    }

/* "dcbkit: <what>: <why>" on stderr, each part said once (dcb_cmd_error); returns status. */
int cli_fail(int status, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A command's help (cmd not NULL). */
void cli_print_help(const struct cli_command *cmd, FILE *fp);
/* dcbkit's overview and dcbkit(1), from its command table (cmd/dcbkit/commands.c). */
void cli_print_overview(FILE *fp);
void cli_print_man(FILE *fp);
/* The man page of a binary that is one command (dcbtop(1)). */
void cli_print_man_page(const struct cli_command *cmd, FILE *fp);
/* One command's synopsis, description, options (its own, then its source groups'), sections,
 * JSON output and examples in roff, under whatever heading the caller printed. */
void cli_man_body(const struct cli_command *cmd, FILE *fp);
/* roff: text escaped (backslashes, hyphens, a leading dot or quote); paragraphs split at blank
 * lines, each after a .PP. */
void cli_roff_text(FILE *fp, const char *s, size_t n);
void cli_roff_paragraphs(FILE *fp, const char *text);
/* Whether cmd is the whole binary (dcbtop), not a subcommand. */
bool cli_is_binary(const struct cli_command *cmd);

/* The command table (commands.c). */
extern const struct cli_command *const cli_commands[];
const struct cli_command *cli_find_command(const char *name);

/* Flushes stdout through out_finish and turns a write failure into "dcbkit: writing output: ...",
 * exit 1. Returns status unchanged otherwise. */
int cli_finish_output(struct dcb_out *o, int status);

#endif
