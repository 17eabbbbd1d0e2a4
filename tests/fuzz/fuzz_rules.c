/* libFuzzer: rule files (what users write for --rules) through the loader, and whatever loads
 * through the evaluator over a small fabric with config on both ends of a link, so the parser,
 * the checker and three-valued evaluation all meet hostile input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evidence_fabric.h"
#include "rules.h"

static const char fabric_text[] =
    "{\"generate\":{\"type\":\"star\",\"hosts\":2,\"speed\":\"100G\",\"cable_m\":3},"
    "\"defaults\":{\"trust\":\"dscp\",\"pfc\":{\"enabled\":8},\"cnp\":{\"dscp\":48},"
    "\"dscp2prio\":{\"26\":3,\"48\":6},\"prio2tc\":[0,1,2,3,4,5,6,7]},"
    "\"switch_defaults\":{\"mtu\":9216,\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"100KB\","
    "\"headroom\":\"200KB\"}}}}}";

static void on_finding(void *arg, const struct finding *f)
{
    if (!f->rule || f->summary[FINDING_TEXT_MAX - 1] != '\0')
        abort();
    (*(unsigned *)arg)++;
}

static void on_undecided(void *arg, const struct rule_undecided *u)
{
    (void)arg;
    if (!u->rule)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err;
    if (rule_set_load_text(&rs, (const char *)data, size, "fuzz.rules", &err) != 0) {
        if (rs.n != 0 || strncmp(err.msg, "fuzz.rules:", 11) != 0)
            abort(); /* refused whole, and says where */
        rule_set_free(&rs);
        return 0;
    }
    static struct fabric f;
    static bool loaded;
    if (!loaded) {
        fabric_init(&f);
        if (fabric_load_text(&f, fabric_text, strlen(fabric_text), "fuzz", &err) != 0)
            abort();
        loaded = true;
    }
    struct evidence ev;
    if (evidence_fabric_open(&ev, &f, &err) != 0)
        abort();
    unsigned fired = 0;
    struct rule_run_options opt = { .profile = "pfc-only",
                                    .now_ns = 1000000000LL,
                                    .on_finding = on_finding,
                                    .on_undecided = on_undecided,
                                    .arg = &fired };
    if (rule_set_run(&rs, &ev, &opt, NULL, &err) != 0)
        abort();
    evidence_fabric_close(&ev);
    rule_set_free(&rs);
    return 0;
}
