/* dcbkit: one binary, subcommands. */
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
    optind = 0; /* reset getopt (GNU: 0 also resets its internal state) */
    opterr = 0;
    return cmd->run(&ctx, argc, argv);
}

int main(int argc, char **argv)
{
    dcb_log_init("dcbkit");
    struct cli_ctx ctx = { NULL, OUT_TEXT, 0 };

    /* Global options before the command name. */
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("dcbkit %s\n", DCBKIT_VERSION);
            return 0;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cli_print_overview(stdout);
            return 0;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            ctx.verbosity++;
            dcb_log_set_level(ctx.verbosity >= 2 ? DCB_LOG_DEBUG : DCB_LOG_INFO);
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            dcb_log_set_level(DCB_LOG_ERROR);
        } else if (strcmp(a, "-T") == 0 || strcmp(a, "--format") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error(NULL, "option '%s' needs a value", a);
            if (out_parse_format(argv[++i], &ctx.format) < 0)
                return cli_usage_error(NULL, "-T takes 'text' or 'json', not '%s'", argv[i]);
        } else {
            return cli_usage_error(NULL, "unknown option '%s'", a);
        }
    }
    if (i >= argc) {
        cli_print_overview(stderr);
        return EXIT_USAGE;
    }
    const struct cli_command *cmd = cli_find_command(argv[i]);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", argv[i]);
    return run_command(cmd, argc - i, argv + i, &ctx);
}
