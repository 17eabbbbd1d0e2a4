#include "unit.h"

#include <stdio.h>

#include "fabric.h"

static void append_name(const char *ifname, void *arg)
{
    strcat(arg, ifname);
    strcat(arg, " ");
}

static void star_generator(void **state)
{
    (void)state;
    struct fabric f;
    fabric_init(&f);
    struct fabric_gen g = { .type = GEN_STAR, .hosts = 3, .host_speed_bps = 100000000000ULL };
    assert_int_equal(fabric_generate(&f, &g, NULL), 0);
    assert_int_equal(f.ndevices, 4);
    assert_int_equal(f.nlinks, 3);
    assert_string_equal(f.devices[0].name, "switch1");
    assert_int_equal(f.devices[0].role, FABRIC_SWITCH);
    const struct fabric_end *peer;
    const struct fabric_link *l = fabric_find_link(&f, "host3", "eth0", &peer);
    assert_non_null(l);
    assert_string_equal(peer->device, "switch1");
    assert_string_equal(peer->ifname, "Ethernet2");
    assert_true(l->speed_bps == 100000000000ULL);
    fabric_free(&f);
}

static void leaf_spine_generator(void **state)
{
    (void)state;
    struct fabric f;
    fabric_init(&f);
    struct fabric_gen g = { .type = GEN_LEAF_SPINE,
                            .leaves = 4,
                            .spines = 2,
                            .hosts_per_leaf = 8,
                            .host_speed_bps = 200000000000ULL,
                            .uplink_speed_bps = 400000000000ULL,
                            .uplink_cable_mm = 30000,
                            .uplink_cable_set = true };
    assert_int_equal(fabric_generate(&f, &g, NULL), 0);
    assert_int_equal(f.ndevices, 2 + 4 + 32);
    assert_int_equal(f.nlinks, 32 + 8);
    const struct fabric_end *peer;
    /* leaf3's first uplink (after its 8 host ports) goes to spine1's third port */
    const struct fabric_link *l = fabric_find_link(&f, "leaf3", "Ethernet8", &peer);
    assert_non_null(l);
    assert_string_equal(peer->device, "spine1");
    assert_string_equal(peer->ifname, "Ethernet2");
    assert_true(l->speed_bps == 400000000000ULL && l->cable_mm == 30000);
    l = fabric_find_link(&f, "host17", "eth0", &peer);
    assert_string_equal(peer->device, "leaf3");
    assert_string_equal(peer->ifname, "Ethernet0");
    assert_false(l->cable_set);
    /* a second generation cannot reuse the names */
    struct dcb_err err;
    assert_int_not_equal(fabric_generate(&f, &g, &err), 0);
    assert_string_equal(err.msg, "generate: device \"spine1\" already exists");
    fabric_free(&f);
}

/* A k = 4 fat-tree: 4 pods of 2 leaves and 2 spines, 4 super-spines in 2 planes, 2 hosts a leaf. */
static void fat_tree_generator(void **state)
{
    (void)state;
    struct fabric f;
    fabric_init(&f);
    struct fabric_gen g = { .type = GEN_FAT_TREE,
                            .pods = 4,
                            .leaves = 2,
                            .spines = 2,
                            .super_spines = 4,
                            .hosts_per_leaf = 2,
                            .host_speed_bps = 100000000000ULL,
                            .uplink_speed_bps = 400000000000ULL,
                            .uplink_cable_mm = 50000,
                            .uplink_cable_set = true };
    assert_int_equal(fabric_generate(&f, &g, NULL), 0);
    assert_int_equal(f.ndevices, 4 + 8 + 8 + 16);
    assert_int_equal(f.nlinks, 16 + 16 + 16);
    int hosts = 0, switches = 0;
    for (size_t d = 0; d < f.ndevices; d++)
        f.devices[d].role == FABRIC_HOST ? hosts++ : switches++;
    assert_int_equal(hosts, 16);
    assert_int_equal(switches, 20);
    const struct fabric_end *peer;
    /* host6 is the second host of leaf3, the first leaf of pod 2 */
    const struct fabric_link *l = fabric_find_link(&f, "host6", "eth0", &peer);
    assert_non_null(l);
    assert_string_equal(peer->device, "leaf3");
    assert_string_equal(peer->ifname, "Ethernet1");
    assert_true(l->speed_bps == 100000000000ULL && !l->cable_set);
    /* leaf3's uplinks (after its 2 host ports) go to pod 2's spines, spine3 and spine4 */
    l = fabric_find_link(&f, "leaf3", "Ethernet2", &peer);
    assert_string_equal(peer->device, "spine3");
    assert_string_equal(peer->ifname, "Ethernet0");
    l = fabric_find_link(&f, "leaf4", "Ethernet3", &peer);
    assert_string_equal(peer->device, "spine4");
    assert_string_equal(peer->ifname, "Ethernet1");
    assert_true(l->speed_bps == 400000000000ULL && l->cable_mm == 50000);
    /* spine4 is pod 2's second spine: plane 2, super3 and super4, on their pod-2 port */
    l = fabric_find_link(&f, "spine4", "Ethernet2", &peer);
    assert_string_equal(peer->device, "super3");
    assert_string_equal(peer->ifname, "Ethernet1");
    l = fabric_find_link(&f, "spine4", "Ethernet3", &peer);
    assert_string_equal(peer->device, "super4");
    assert_string_equal(peer->ifname, "Ethernet1");
    /* a super-spine reaches every pod once, through that pod's spine of its plane */
    l = fabric_find_link(&f, "super1", "Ethernet3", &peer);
    assert_string_equal(peer->device, "spine7");
    assert_null(fabric_find_link(&f, "super1", "Ethernet4", &peer));
    struct dcb_err err;
    struct fabric_gen bad = g;
    bad.super_spines = 3;
    assert_int_not_equal(fabric_generate(&f, &bad, &err), 0);
    assert_string_equal(err.msg,
                        "generate: super_spines (3) must be a multiple of spines_per_pod (2)");
    fabric_free(&f);
}

static void fat_tree_from_json(void **state)
{
    (void)state;
    static const char text[] =
        "{\"generate\": {\"type\": \"fat-tree\", \"pods\": 2, \"leaves_per_pod\": 2,"
        " \"spines_per_pod\": 2, \"super_spines\": 2, \"hosts_per_leaf\": 3, \"speed\": \"25G\"}}";
    struct fabric f;
    struct dcb_err err;
    fabric_init(&f);
    assert_int_equal(fabric_load_text(&f, text, sizeof(text) - 1, "t", &err), 0);
    assert_int_equal(f.ndevices, 2 + 4 + 4 + 12);
    const struct fabric_end *peer;
    const struct fabric_link *l = fabric_find_link(&f, "spine3", "Ethernet2", &peer);
    assert_non_null(l);
    assert_string_equal(peer->device, "super1");
    assert_true(l->speed_bps == 25000000000ULL); /* uplinks default to the host speed */
    fabric_free(&f);
    static const char uneven[] =
        "{\"generate\": {\"type\": \"fat-tree\", \"pods\": 2, \"leaves_per_pod\": 2,"
        " \"spines_per_pod\": 2, \"super_spines\": 3, \"hosts_per_leaf\": 1}}";
    fabric_init(&f);
    assert_int_not_equal(fabric_load_text(&f, uneven, sizeof(uneven) - 1, "t", &err), 0);
    assert_string_equal(err.msg,
                        "t: generate.super_spines: 3 is not a multiple of spines_per_pod 2");
    fabric_free(&f);
    static const char huge[] =
        "{\"generate\": {\"type\": \"fat-tree\", \"pods\": 64, \"leaves_per_pod\": 32,"
        " \"spines_per_pod\": 2, \"super_spines\": 2, \"hosts_per_leaf\": 16}}";
    fabric_init(&f);
    assert_int_not_equal(fabric_load_text(&f, huge, sizeof(huge) - 1, "t", &err), 0);
    assert_string_equal(err.msg,
                        "t: generate: 64 pods x 32 leaves x 16 hosts is more than 16384 hosts");
    fabric_free(&f);
}

/* defaults <- role defaults <- device <- interface <- link */
static void effective_config_order(void **state)
{
    (void)state;
    static const char text[] =
        "{\"defaults\": {\"mtu\": 1500, \"pfc\": {\"enabled\": 8}, \"speed_bps\": \"10G\"},"
        " \"switch_defaults\": {\"mtu\": 9216},"
        " \"devices\": [{\"name\": \"sw\", \"role\": \"switch\", \"config\": {\"pfc\": "
        "{\"enabled\": 24}},"
        "   \"interfaces\": {\"Ethernet1\": {\"pfc\": {\"enabled\": 16}}}},"
        "  {\"name\": \"h\", \"role\": \"host\"}],"
        " \"links\": [{\"a\": \"sw:Ethernet1\", \"b\": \"h:eth0\", \"speed\": \"400G\", "
        "\"cable_m\": 7}]}";
    struct fabric f;
    struct dcb_err err;
    assert_int_equal(fabric_load_text(&f, text, sizeof(text) - 1, "t", &err), 0);
    struct qos_config c;
    char v[32];
    assert_int_equal(fabric_effective_config(&f, "sw", "Ethernet1", &c, &err), 0);
    qos_get(&c, "mtu", v, sizeof(v), NULL);
    assert_string_equal(v, "9216");
    qos_get(&c, "pfc.enabled", v, sizeof(v), NULL);
    assert_string_equal(v, "0x10");
    qos_get(&c, "speed_bps", v, sizeof(v), NULL);
    assert_string_equal(v, "400G");
    qos_get(&c, "cable_m", v, sizeof(v), NULL);
    assert_string_equal(v, "7m");
    assert_int_equal(fabric_effective_config(&f, "sw", "Ethernet9", &c, &err), 0);
    qos_get(&c, "pfc.enabled", v, sizeof(v), NULL);
    assert_string_equal(v, "0x18");
    qos_get(&c, "speed_bps", v, sizeof(v), NULL);
    assert_string_equal(v, "10G");
    assert_int_equal(fabric_effective_config(&f, "h", "eth0", &c, &err), 0);
    qos_get(&c, "mtu", v, sizeof(v), NULL);
    assert_string_equal(v, "1500");
    assert_int_equal(qos_get(&c, "cable_m", v, sizeof(v), NULL), 0);
    assert_int_not_equal(fabric_effective_config(&f, "nope", "eth0", &c, &err), 0);
    assert_string_equal(err.msg, "no device \"nope\"");
    fabric_free(&f);
}

static void generated_devices_take_overrides(void **state)
{
    (void)state;
    static const char text[] =
        "{\"generate\": {\"type\": \"star\", \"hosts\": 2},"
        " \"devices\": [{\"name\": \"host2\", \"reach\": \"local\", \"config\": {\"mtu\": 4200}}]}";
    struct fabric f;
    struct dcb_err err;
    assert_int_equal(fabric_load_text(&f, text, sizeof(text) - 1, "t", &err), 0);
    assert_int_equal(f.ndevices, 3);
    const struct fabric_device *d = fabric_find_device(&f, "host2");
    assert_int_equal(d->reach, REACH_LOCAL);
    assert_true(d->config.mtu.set && d->config.mtu.v == 4200);
    fabric_free(&f);
    static const char wrong_role[] = "{\"generate\": {\"type\": \"star\", \"hosts\": 2},"
                                     " \"devices\": [{\"name\": \"host2\", \"role\": \"switch\"}]}";
    assert_int_not_equal(fabric_load_text(&f, wrong_role, sizeof(wrong_role) - 1, "t", &err), 0);
    assert_string_equal(err.msg, "t: devices[0].role: \"host2\" is generated as a host");
    static const char empty[] = "{}";
    assert_int_not_equal(fabric_load_text(&f, empty, 2, "t", &err), 0);
    assert_string_equal(err.msg,
                        "t: devices: the fabric has no devices (list some or \"generate\" them)");
}

/* The indexed loader (issue 32, item 8) refuses what the scans refused, with the same messages,
 * and finds what they found. */
static void refuses_duplicates_and_unknown_devices(void **state)
{
    (void)state;
    struct fabric f;
    struct dcb_err err;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "{\"devices\": [{\"name\": \"a\", \"role\": \"host\"}, {\"name\": \"b\", \"role\": "
          "\"host\"},"
          " {\"name\": \"a\", \"role\": \"host\"}]}",
          "t: devices[2].name: duplicate device \"a\"" },
        { "{\"generate\": {\"type\": \"star\", \"hosts\": 3}, \"devices\": [{\"name\": \"host2\"},"
          " {\"name\": \"host1\"}, {\"name\": \"host2\"}]}",
          "t: devices[2].name: duplicate device \"host2\" (also devices[0])" },
        { "{\"devices\": [{\"name\": \"a\", \"role\": \"host\"}, {\"name\": \"s\", \"role\": "
          "\"switch\"}],"
          " \"links\": [{\"a\": \"s:e0\", \"b\": \"a:eth0\"}, {\"a\": \"s:e1\", \"b\": "
          "\"ghost:eth0\"}]}",
          "t: links[1].b: no device \"ghost\"" },
        { "{\"devices\": [{\"name\": \"a\", \"role\": \"host\"}, {\"name\": \"s\", \"role\": "
          "\"switch\"}],"
          " \"links\": [{\"a\": \"s:e0\", \"b\": \"a:eth0\"}, {\"a\": \"s:e1\", \"b\": \"s:e2\"},"
          " {\"a\": \"s:e3\", \"b\": \"s:e2\"}]}",
          "t: links[2].b: s:e2 is already in links[1]" },
        { "{\"generate\": {\"type\": \"star\", \"hosts\": 3}, \"links\": [{\"a\": \"host3:eth1\","
          " \"b\": \"host2:eth0\"}]}",
          "t: links[0].b: host2:eth0 is already in links[1]" },
        { "{\"devices\": [{\"name\": \"s\", \"role\": \"switch\"}], \"links\": [{\"a\": \"s:e1\", "
          "\"b\": \"s:e1\"}]}",
          "t: links[0]: s:e1 is linked to itself" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_not_equal(fabric_load_text(&f, bad[i].text, strlen(bad[i].text), "t", &err), 0);
        assert_string_equal(err.msg, bad[i].msg);
    }
    static const char good[] =
        "{\"devices\": [{\"name\": \"a\", \"role\": \"host\", \"interfaces\": {\"eth9\": {}}},"
        " {\"name\": \"s\", \"role\": \"switch\"}],"
        " \"links\": [{\"a\": \"s:e1\", \"b\": \"a:eth0\"}, {\"a\": \"s:e0\", \"b\": \"s:e2\"},"
        " {\"a\": \"a:eth1\", \"b\": \"s:e3\"}]}";
    assert_int_equal(fabric_load_text(&f, good, sizeof(good) - 1, "t", &err), 0);
    const struct fabric_end *peer = NULL;
    assert_ptr_equal(fabric_find_link(&f, "s", "e2", &peer), &f.links[1]);
    assert_string_equal(peer->ifname, "e0");
    assert_ptr_equal(fabric_find_link(&f, "a", "eth1", &peer), &f.links[2]);
    assert_string_equal(peer->device, "s");
    assert_null(fabric_find_link(&f, "a", "eth9", NULL));
    assert_null(fabric_find_link(&f, "e1", "s", NULL));
    assert_ptr_equal(fabric_find_device(&f, "s"), &f.devices[1]);
    assert_null(fabric_find_device(&f, "S"));
    char seen[128] = "";
    fabric_each_iface(&f, &f.devices[1], append_name, seen);
    assert_string_equal(seen, "e1 e0 e2 e3 "); /* in link order, both ends of one */
    seen[0] = '\0';
    fabric_each_iface(&f, &f.devices[0], append_name, seen);
    assert_string_equal(seen, "eth0 eth1 eth9 "); /* then those in no link */
    fabric_free(&f);
}

/* Link speeds 1M to 1.6T and cables up to 100 km, wherever the file gives them: the bounds
 * load, one step outside each is refused naming the path and the range. */
static void speed_and_cable_ranges(void **state)
{
    (void)state;
    static const struct {
        const char *where, *value, *msg;
    } cases[] = {
        { "generate.speed", "\"1M\"", NULL },
        { "generate.speed", "1000000", NULL },
        { "generate.speed", "\"1.6T\"", NULL },
        { "generate.speed", "999999", "t: generate.speed: 999999 is out of range (1M to 1.6T)" },
        { "generate.speed", "\"1bps\"", "t: generate.speed: 1bps is out of range (1M to 1.6T)" },
        { "generate.speed", "0", "t: generate.speed: 0 is out of range (1M to 1.6T)" },
        { "generate.speed", "1600000000001",
          "t: generate.speed: 1600000000001 is out of range (1M to 1.6T)" },
        { "generate.uplink_speed", "\"3.2T\"",
          "t: generate.uplink_speed: 3.2T is out of range (1M to 1.6T)" },
        { "links", "\"999K\"", "t: links[0].speed: 999K is out of range (1M to 1.6T)" },
        { "defaults", "\"999999bps\"",
          "t: defaults.speed_bps: 999999bps is out of range "
          "(1000000 to 1600000000000)" },
        { "defaults", "\"1.6T\"", NULL },
        { "generate.cable_m", "0", NULL },
        { "generate.cable_m", "100000", NULL },
        { "generate.cable_m", "\"100km\"", NULL },
        { "generate.cable_m", "100000.001",
          "t: generate.cable_m: 100000.001 m is out of range (0 to 100km)" },
        { "generate.uplink_cable_m", "\"100001m\"",
          "t: generate.uplink_cable_m: 100001m is out of range (0 to 100km)" },
        { "links.cable_m", "\"1000km\"",
          "t: links[0].cable_m: 1000km is out of range (0 to 100km)" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[512];
        const char *w = cases[i].where;
        if (!strncmp(w, "generate.", 9))
            snprintf(text, sizeof(text),
                     "{\"generate\": {\"type\": \"leaf-spine\", \"leaves\": 1,"
                     " \"spines\": 1, \"hosts_per_leaf\": 1, \"%s\": %s}}",
                     w + 9, cases[i].value);
        else if (!strcmp(w, "defaults"))
            snprintf(text, sizeof(text),
                     "{\"generate\": {\"type\": \"star\", \"hosts\": 1},"
                     " \"defaults\": {\"speed_bps\": %s}}",
                     cases[i].value);
        else
            snprintf(text, sizeof(text),
                     "{\"devices\": [{\"name\": \"a\", \"role\": \"host\"},"
                     " {\"name\": \"s\", \"role\": \"switch\"}], \"links\": [{\"a\": \"s:e0\","
                     " \"b\": \"a:eth0\", \"%s\": %s}]}",
                     strcmp(w, "links") ? "cable_m" : "speed", cases[i].value);
        struct fabric f;
        struct dcb_err err;
        int rc = fabric_load_text(&f, text, strlen(text), "t", &err);
        if (!cases[i].msg) {
            if (rc < 0)
                print_error("%s = %s: %s\n", w, cases[i].value, err.msg);
            assert_int_equal(rc, 0);
            fabric_free(&f);
        } else {
            assert_int_not_equal(rc, 0);
            assert_string_equal(err.msg, cases[i].msg);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(star_generator),
        cmocka_unit_test(leaf_spine_generator),
        cmocka_unit_test(fat_tree_generator),
        cmocka_unit_test(fat_tree_from_json),
        cmocka_unit_test(effective_config_order),
        cmocka_unit_test(generated_devices_take_overrides),
        cmocka_unit_test(refuses_duplicates_and_unknown_devices),
        cmocka_unit_test(speed_and_cable_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
