/* The names devices go by (rules/identity.c): resolution through aliases of aliases, and the
 * aliases two devices claim. */
#include "unit.h"

#include <stdbool.h>
#include <string.h>

#include "identity.h"

static struct identity *fabric_of_names(bool with_conflict)
{
    struct identity *id = identity_new();
    assert_non_null(id);
    assert_int_equal(identity_add_device(id, "leaf1"), 0);
    assert_int_equal(identity_add_device(id, "host1"), 0);
    assert_int_equal(identity_add_device(id, "leaf2"), 0);
    assert_int_equal(identity_add_device(id, "leaf1"), 0); /* twice: one device */
    /* the fabric file: leaf1 is leaf1.lab in LLDP and 10.0.0.1:8080 over gNMI */
    assert_int_equal(identity_add_alias(id, "leaf1", "leaf1.lab"), 0);
    assert_int_equal(identity_add_alias(id, "leaf1", "10.0.0.1:8080"), 0);
    /* a host heard leaf1.lab over LLDP with its chassis ID */
    assert_int_equal(identity_add_alias(id, "leaf1.lab", "aa:bb:cc:00:00:01"), 0);
    assert_int_equal(identity_add_alias(id, "leaf2", "leaf2"), 0); /* itself: nothing */
    if (with_conflict)
        assert_int_equal(identity_add_alias(id, "leaf2", "leaf1.lab"), 0);
    identity_build(id);
    return id;
}

static void resolves_through_aliases(void **state)
{
    (void)state;
    struct identity *id = fabric_of_names(false);
    assert_string_equal(identity_resolve(id, "leaf1"), "leaf1");
    assert_string_equal(identity_resolve(id, "leaf1.lab"), "leaf1");
    assert_string_equal(identity_resolve(id, "10.0.0.1:8080"), "leaf1");
    assert_string_equal(identity_resolve(id, "aa:bb:cc:00:00:01"), "leaf1");
    assert_null(identity_resolve(id, "spine9"));
    const char *alias, *other;
    assert_int_equal(identity_conflicts(id, "leaf1", &alias, &other), 0);
    assert_null(alias);
    identity_free(id);
}

static void two_claims_are_a_conflict(void **state)
{
    (void)state;
    struct identity *id = fabric_of_names(true);
    assert_null(identity_resolve(id, "leaf1.lab")); /* whose? */
    assert_null(identity_resolve(id, "aa:bb:cc:00:00:01"));
    assert_string_equal(identity_resolve(id, "10.0.0.1:8080"), "leaf1");
    const char *alias, *other;
    assert_int_equal(identity_conflicts(id, "leaf1", &alias, &other), 1);
    assert_string_equal(alias, "leaf1.lab");
    assert_string_equal(other, "leaf2");
    assert_int_equal(identity_conflicts(id, "leaf2", &alias, &other), 1);
    assert_string_equal(other, "leaf1");
    assert_int_equal(identity_conflicts(id, "host1", &alias, &other), 0);
    identity_free(id);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resolves_through_aliases),
        cmocka_unit_test(two_claims_are_a_conflict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
