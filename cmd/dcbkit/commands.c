#include "cli.h"

extern const struct cli_command cmd_analyze;
extern const struct cli_command cmd_calc;
extern const struct cli_command cmd_collect;
extern const struct cli_command cmd_decode;
extern const struct cli_command cmd_diagnose;
extern const struct cli_command cmd_fabric;
extern const struct cli_command cmd_help;
extern const struct cli_command cmd_metrics;
extern const struct cli_command cmd_replay;
extern const struct cli_command cmd_report;
extern const struct cli_command cmd_store;

/* `dcbkit help` lists them in this order. */
const struct cli_command *const cli_commands[] = {
    &cmd_analyze,
    &cmd_calc,
    &cmd_collect,
    &cmd_decode,
    &cmd_diagnose,
    &cmd_fabric,
    &cmd_metrics,
    &cmd_replay,
    &cmd_report,
    &cmd_store,
    &cmd_help,
    NULL,
};
