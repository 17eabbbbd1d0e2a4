/* dcbkit fabric: check a fabric file, diff two, list the config paths. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fabric.h"
#include "fabric_json.h"
#include "qos_json.h"
#include "units.h"

struct iface_list {
    char (*names)[DCB_IFNAME_MAX];
    size_t n, cap;
};

static void collect_iface(const char *ifname, void *arg)
{
    struct iface_list *l = arg;
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], ifname))
            return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        void *p = realloc(l->names, cap * sizeof(*l->names));
        if (!p)
            return;
        l->names = p;
        l->cap = cap;
    }
    snprintf(l->names[l->n++], DCB_IFNAME_MAX, "%s", ifname);
}

static void print_config_fields(const char *path, const char *text, const char *help, void *arg)
{
    (void)help;
    if (text)
        out_term(stdout, "      %-32s %s\n", path, text);
    (void)arg;
}

static cJSON *iface_json(const struct fabric *f, const char *device, const char *ifname)
{
    struct qos_config eff;
    fabric_effective_config(f, device, ifname, &eff, NULL);
    const struct fabric_end *peer = NULL;
    fabric_find_link(f, device, ifname, &peer);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "device", device);
    cJSON_AddStringToObject(e, "ifname", ifname);
    if (peer) {
        char p[DCB_DEVICE_MAX + DCB_IFNAME_MAX + 2];
        snprintf(p, sizeof(p), "%s:%s", peer->device, peer->ifname);
        cJSON_AddStringToObject(e, "peer", p);
    } else {
        cJSON_AddNullToObject(e, "peer");
    }
    cJSON_AddItemToObject(e, "config", qos_to_json(&eff));
    return e;
}

static int check_json(const struct fabric *f)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema", 1);
    cJSON_AddItemToObject(doc, "fabric", fabric_to_json(f));
    cJSON *ifs = cJSON_AddArrayToObject(doc, "interfaces");
    for (size_t i = 0; i < f->ndevices; i++) {
        struct iface_list l = { 0 };
        fabric_each_iface(f, &f->devices[i], collect_iface, &l);
        for (size_t k = 0; k < l.n; k++)
            cJSON_AddItemToArray(ifs, iface_json(f, f->devices[i].name, l.names[k]));
        free(l.names);
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text)
        return cli_fail(1, "fabric check", "out of memory");
    puts(text);
    free(text);
    struct dcb_out o;
    out_init(&o, stdout, OUT_JSON);
    return cli_finish_output(&o, 0);
}

static void print_devices(const struct fabric *f, bool show_config)
{
    out_term(stdout, "\n%-20s %-7s %-6s %s\n", "DEVICE", "ROLE", "REACH", "INTERFACES");
    for (size_t i = 0; i < f->ndevices; i++) {
        const struct fabric_device *d = &f->devices[i];
        struct iface_list l = { 0 };
        fabric_each_iface(f, d, collect_iface, &l);
        out_term(stdout, "%-20s %-7s %-6s %zu", d->name, fabric_role_name(d->role),
                 fabric_reach_name(d->reach), l.n);
        if (d->reach == REACH_GNMI)
            out_term(stdout, "  (gnmi %s%s)", d->gnmi.target, d->gnmi.insecure ? ", insecure" : "");
        putchar('\n');
        for (size_t k = 0; show_config && k < l.n; k++) {
            struct qos_config eff;
            fabric_effective_config(f, d->name, l.names[k], &eff, NULL);
            out_term(stdout, "    %s\n", l.names[k]);
            qos_each_field(&eff, print_config_fields, NULL);
        }
        free(l.names);
    }
}

static void print_links(const struct fabric *f)
{
    out_term(stdout, "\n%-28s %-28s %-7s %s\n", "A", "B", "SPEED", "CABLE");
    for (size_t i = 0; i < f->nlinks; i++) {
        const struct fabric_link *l = &f->links[i];
        char a[DCB_DEVICE_MAX + DCB_IFNAME_MAX + 2], b[sizeof(a)], speed[DCB_UNIT_BUF] = "-",
                                                                   cable[DCB_UNIT_BUF] = "-";
        snprintf(a, sizeof(a), "%s:%s", l->a.device, l->a.ifname);
        snprintf(b, sizeof(b), "%s:%s", l->b.device, l->b.ifname);
        if (l->speed_bps)
            dcb_fmt_speed(l->speed_bps, speed, sizeof(speed));
        if (l->cable_set)
            dcb_fmt_length(l->cable_mm, cable, sizeof(cable));
        out_term(stdout, "%-28s %-28s %-7s %s\n", a, b, speed, cable);
    }
}

static int fabric_check(struct cli_ctx *ctx, const char *file, bool show_config)
{
    struct fabric f;
    struct dcb_err err;
    if (fabric_load_file(&f, file, &err) < 0)
        return cli_fail(1, "fabric check", "%s", err.msg);
    if (ctx->format == OUT_JSON) {
        int rc = check_json(&f);
        fabric_free(&f);
        return rc;
    }
    size_t hosts = 0, switches = 0;
    for (size_t i = 0; i < f.ndevices; i++)
        *(f.devices[i].role == FABRIC_HOST ? &hosts : &switches) += 1;
    out_term(stdout, "fabric %s: %zu devices (%zu hosts, %zu switches), %zu links: ok\n",
             f.name[0] ? f.name : file, f.ndevices, hosts, switches, f.nlinks);
    print_devices(&f, show_config);
    print_links(&f);
    fabric_free(&f);
    struct dcb_out o;
    out_init(&o, stdout, OUT_TEXT);
    return cli_finish_output(&o, 0);
}

struct diff_print {
    struct dcb_out *o;
    const char *device, *ifname;
    int count;
};

static void print_diff_row(const char *path, const char *a, const char *b, void *arg)
{
    struct diff_print *p = arg;
    p->count++;
    out_obj_open(p->o, NULL);
    out_str(p->o, "device", "%s", p->device);
    out_str(p->o, "ifname", ":%s", p->ifname);
    out_str(p->o, "path", "  %s", path);
    if (a)
        out_str(p->o, "a", ": %s", a);
    else
        out_null(p->o, "a", ": unknown");
    if (b)
        out_str(p->o, "b", " -> %s\n", b);
    else
        out_null(p->o, "b", " -> unknown\n");
    out_obj_close(p->o);
}

static int fabric_diff(struct cli_ctx *ctx, const char *fa, const char *fb)
{
    struct fabric a, b;
    struct dcb_err err;
    if (fabric_load_file(&a, fa, &err) < 0)
        return cli_fail(1, "fabric diff", "%s", err.msg);
    if (fabric_load_file(&b, fb, &err) < 0) {
        fabric_free(&a);
        return cli_fail(1, "fabric diff", "%s", err.msg);
    }
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    struct diff_print p = { &o, NULL, NULL, 0 };
    out_arr_open(&o, "only_in_a");
    for (size_t i = 0; i < a.ndevices; i++)
        if (!fabric_find_device(&b, a.devices[i].name)) {
            out_str(&o, NULL, "only in A: %s\n", a.devices[i].name);
            p.count++;
        }
    out_arr_close(&o);
    out_arr_open(&o, "only_in_b");
    for (size_t i = 0; i < b.ndevices; i++)
        if (!fabric_find_device(&a, b.devices[i].name)) {
            out_str(&o, NULL, "only in B: %s\n", b.devices[i].name);
            p.count++;
        }
    out_arr_close(&o);
    out_arr_open(&o, "differences");
    for (size_t i = 0; i < a.ndevices; i++) {
        const struct fabric_device *da = &a.devices[i];
        const struct fabric_device *db = fabric_find_device(&b, da->name);
        if (!db)
            continue;
        struct iface_list l = { 0 };
        fabric_each_iface(&a, da, collect_iface, &l);
        fabric_each_iface(&b, db, collect_iface, &l);
        for (size_t k = 0; k < l.n; k++) {
            struct qos_config ca, cb;
            fabric_effective_config(&a, da->name, l.names[k], &ca, NULL);
            fabric_effective_config(&b, db->name, l.names[k], &cb, NULL);
            p.device = da->name;
            p.ifname = l.names[k];
            qos_diff(&ca, &cb, print_diff_row, &p);
        }
        free(l.names);
    }
    out_arr_close(&o);
    out_u64(&o, "count", NULL, (uint64_t)p.count);
    if (p.count == 0)
        out_text(&o, "no differences\n");
    out_obj_close(&o);
    fabric_free(&a);
    fabric_free(&b);
    return cli_finish_output(&o, 0);
}

static void print_path(const char *path, const char *text, const char *help, void *arg)
{
    (void)text;
    struct dcb_out *o = arg;
    out_obj_open(o, NULL);
    out_str(o, "path", "%-38s", path);
    out_str(o, "help", " %s\n", help);
    out_obj_close(o);
}

static int fabric_paths(struct cli_ctx *ctx)
{
    struct qos_config empty;
    qos_config_init(&empty);
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_arr_open(&o, "paths");
    qos_each_field(&empty, print_path, &o);
    out_arr_close(&o);
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

static int fabric_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = { { "config", no_argument, NULL, 'c' } };
    if (argc < 2)
        return cli_usage_error(ctx, "needs an action: check, diff or paths");
    const char *action = argv[1];
    if (!strcmp(action, "-h") || !strcmp(action, "--help")) {
        cli_print_help(ctx->cmd, stdout);
        return 0;
    }
    argc--;
    argv++;
    bool show_config = false;
    struct cli_flag flag = { 'c', &show_config };
    struct cli_parser p = { longopts, 1, "c", cli_flag_option, &flag, NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    int nargs = argc - optind;
    if (!strcmp(action, "check")) {
        if (nargs != 1)
            return cli_usage_error(ctx, "check takes one FILE");
        return fabric_check(ctx, argv[optind], show_config);
    }
    if (!strcmp(action, "diff")) {
        if (nargs != 2)
            return cli_usage_error(ctx, "diff takes two files, A and B");
        return fabric_diff(ctx, argv[optind], argv[optind + 1]);
    }
    if (!strcmp(action, "paths")) {
        if (nargs != 0)
            return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
        return fabric_paths(ctx);
    }
    return cli_usage_error(ctx, "unknown action '%s' (check, diff, paths)", action);
}

static const struct cli_option_doc fabric_options[] = {
    { "-c, --config", "check: print each interface's effective QoS config (text output)." },
    { NULL, NULL },
};

static const struct cli_example fabric_examples[] = {
    { "dcbkit fabric check fixtures/fabrics/healthy.json",
      "Validate a fabric and list its devices and links." },
    { "dcbkit fabric check fabric.json -T json | jq '.interfaces[0].config'",
      "The effective config of an interface: defaults under device and interface overrides, "
      "with the link's speed and cable length." },
    { "dcbkit fabric diff intended.json observed.json",
      "Config differences per device and interface." },
    { "dcbkit fabric paths", "Every config path a fabric file or --set may name." },
    { NULL, NULL },
};

static const struct cli_exit fabric_exits[] =
    CLI_EXITS("check: the file is a valid fabric",
              "a file could not be read, or is not a valid fabric (the error names "
              "the JSON path)");

const struct cli_command cmd_fabric = {
    .name = "fabric",
    .summary = "check and compare fabric files; list the QoS config paths",
    .synopsis = "dcbkit fabric check FILE [--config] [-T json]\n"
                "dcbkit fabric diff A B [-T json]\n"
                "dcbkit fabric paths [-T json]",
    .description =
        "A fabric file lists devices (hosts and switches), how each is reached (local, or gNMI "
        "with TLS and a credential file), the links between them, and the intended QoS config: "
        "defaults, then per-device and per-interface overrides. A \"generate\" section expands "
        "a star or leaf-spine topology into devices and links. docs/fabric.md documents the "
        "format.\n\n"
        "check loads, validates and expands a file; an error names the JSON path, such as "
        "links[3].b: no device \"host9\". diff compares the effective config of every interface "
        "in two files. paths lists every QoS config path.",
    .options = fabric_options,
    .examples = fabric_examples,
    .json_doc =
        "check: {\"schema\":1, \"fabric\": the fabric file with generators expanded, "
        "\"interfaces\": [{\"device\", \"ifname\", \"peer\" (\"dev:if\" or null), \"config\" "
        "(effective)}]}. diff: {\"schema\":1, \"only_in_a\": [names], \"only_in_b\": [names], "
        "\"differences\": [{\"device\", \"ifname\", \"path\", \"a\", \"b\"}] (null = unknown), "
        "\"count\"}. paths: {\"schema\":1, \"paths\": [{\"path\", \"help\"}]}.",
    .run = fabric_run,
    .actions = "check diff paths",
    .exits = fabric_exits,
};
