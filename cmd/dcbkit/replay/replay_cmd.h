/* dcbkit replay: cmd_replay.c runs scenarios; replay_print.c prints a run or a comparison;
 * replay_capture.c turns a capture's QP flow records into a workload; replay_plot.c draws. */
#ifndef DCB_REPLAY_CMD_H
#define DCB_REPLAY_CMD_H

#include "out.h"
#include "scenario.h"

/* One figure of a run, the same list for text, JSON and --compare. */
enum figure_kind { FIG_COUNT, FIG_PERCENT, FIG_BYTES, FIG_NS, FIG_RATIO, FIG_BPS };

struct figure {
    const char *key, *label;
    enum figure_kind kind;
    double value;
    bool known;
};

#define FIGURES_MAX 48
size_t replay_figures(const struct scenario *sc, const struct scenario_result *r,
                      struct figure *out);

void replay_print_run(struct dcb_out *o, const struct scenario *sc,
                      const struct scenario_result *r);
void replay_print_compare(struct dcb_out *o, const struct scenario *base,
                          const struct scenario_result *rb, const struct scenario *var,
                          const struct scenario_result *rv, const char *const *changes,
                          size_t nchanges);

/* --plot (replay_plot.c): collects the series and pause events of a run, then draws. */
struct replay_plot_data;
struct replay_plot_data *replay_plot_new(int64_t t0);
void replay_plot_series(struct replay_plot_data *d, const struct replay_series_point *p);
void replay_plot_event(struct replay_plot_data *d, const struct dcb_event *e);
int replay_plot_write(const char *path, struct replay_plot_data *d, const struct scenario *sc,
                      const struct scenario_result *r, struct dcb_err *err);
void replay_plot_free(struct replay_plot_data *d);

#endif
