/* dcbkit: one binary, subcommands. The options before the command name are the common ones
 * (cli_common_option), so `dcbkit -q CMD` means what `dcbkit CMD -q` means. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "version.h"

static int run_command(const struct cli_command *cmd, int argc, char **argv,
                       const struct cli_ctx *base)
{
    struct cli_ctx ctx = *base;
    ctx.cmd = cmd;
    int rc = cli_check_format(&ctx); /* a -T json before the command name */
    if (rc != CLI_NEXT)
        return rc;
    optind = 0; /* reset getopt (GNU: 0 also resets its internal state) */
    opterr = 0;
    return cmd->run(&ctx, argc, argv);
}

/* The options before the command name: CLI_NEXT with *first at the command name, or an exit
 * status. */
static int global_options(struct cli_ctx *ctx, int argc, char **argv, int *first)
{
    static const struct option longopts[] = {
        { "version", no_argument, NULL, 'V' },
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    int c;
    optind = 0;
    opterr = 0;
    /* "+": stop at the first word that is not an option, the command name */
    while ((c = getopt_long(argc, argv, "+" CLI_COMMON_SHORTOPTS "V", longopts, NULL)) != -1) {
        if (c == 'V') {
            out_term(stdout, "dcbkit %s\n", DCBKIT_VERSION);
            return 0;
        }
        if (c == 'h') {
            cli_print_overview(stdout);
            return 0;
        }
        int rc = cli_common_option(ctx, c, argv);
        if (rc != CLI_NEXT)
            return rc;
    }
    *first = optind;
    return CLI_NEXT;
}

int main(int argc, char **argv)
{
    dcb_log_init("dcbkit");
    struct cli_ctx ctx = { .cmd = NULL, .format = OUT_TEXT };
    int i = 1;
    int rc = global_options(&ctx, argc, argv, &i);
    if (rc != CLI_NEXT)
        return rc;
    if (i >= argc) {
        cli_print_overview(stderr);
        return EXIT_USAGE;
    }
    const struct cli_command *cmd = cli_find_command(argv[i]);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", argv[i]);
    return run_command(cmd, argc - i, argv + i, &ctx);
}
