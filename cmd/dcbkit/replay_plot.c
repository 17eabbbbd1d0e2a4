/* dcbkit replay --plot: placeholder until the shared chart code (lib/svg_chart) lands. */
#include "replay_cmd.h"

int replay_plot(const char *path, const struct scenario *sc, const struct scenario_result *r,
                struct dcb_err *err);
int replay_plot(const char *path, const struct scenario *sc, const struct scenario_result *r,
                struct dcb_err *err)
{
    (void)sc;
    (void)r;
    return dcb_err_set(err, DCB_E_UNSUPP, "%s: plotting is not built yet", path);
}
