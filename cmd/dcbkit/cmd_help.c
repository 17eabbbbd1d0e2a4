#include <stdio.h>
#include <string.h>

#include "cli.h"

static int help_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option own[] = { { "man", no_argument, NULL, 'm' } };
    bool man = false;
    struct cli_flag flag = { 'm', &man };
    struct cli_parser p = { own, 1, "m", cli_flag_option, &flag, NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    if (man) {
        cli_print_man(stdout);
        return 0;
    }
    if (optind >= argc) {
        cli_print_overview(stdout);
        return 0;
    }
    if (argc - optind > 1)
        return cli_usage_error(ctx, "takes one command name, got %d words", argc - optind);
    const struct cli_command *cmd = cli_find_command(argv[optind]);
    if (!cmd)
        return cli_usage_error(ctx, "unknown command '%s'", argv[optind]);
    cli_print_help(cmd, stdout);
    return 0;
}

static const struct cli_option_doc help_options[] = {
    { "--man", "Print the manual page for all commands, in roff (man -l - reads it)." },
    { NULL, NULL },
};

static const struct cli_example help_examples[] = {
    { "dcbkit help calc", "How to convert PFC quanta to time at a link speed." },
    { "dcbkit help --man | man -l -", "Read the whole manual." },
    { NULL, NULL },
};

static const struct cli_exit help_exits[] = {
    CLI_EXIT_SUCCESS,
    CLI_EXIT_USAGE,
    CLI_EXIT_END,
};

const struct cli_command cmd_help = {
    .name = "help",
    .summary = "show the commands, or one command's options and examples",
    .synopsis = "dcbkit help [COMMAND]\ndcbkit help --man",
    .description = "Without a command, lists the commands. With one, prints its usage, options, "
                   "JSON output and examples. --man prints the manual page.",
    .options = help_options,
    .examples = help_examples,
    .run = help_run,
    .exits = help_exits,
};
