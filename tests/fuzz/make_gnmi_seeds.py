#!/usr/bin/python3
"""Seeds for fuzz_gnmi_decode: real SubscribeResponse / GetResponse bytes, encoded by hand with
tests/integration/lib/gnmi_wire.py (first byte: 0 subscribe, 1 get)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration", "lib"))
import gnmi_wire as W  # noqa: E402

out = os.path.join(HERE, "corpus", "fuzz_gnmi_decode")
os.makedirs(out, exist_ok=True)
sonic = W.encode_notification(1700000000000000000, W.encode_path([("COUNTERS", {})], target="COUNTERS_DB"), [
    W.encode_update(W.encode_path([("Ethernet0", {}), ("Queues", {})]),
                    W.encode_typed({"Ethernet0:3": {"SAI_QUEUE_STAT_PACKETS": "1234"}}, "json_ietf"))])
oc = W.encode_notification(5, None, [
    W.encode_update(W.encode_path([("interfaces", {}), ("interface", {"name": "Ethernet0"}), ("in-octets", {})],
                                  origin="openconfig"), W.encode_typed(12345)),
    W.encode_update(W.encode_path([("x", {})]), W.encode_typed(2.5)),
    W.encode_update(W.encode_path([("y", {})]), W.encode_typed(True)),
    W.encode_update(W.encode_path([("z", {})]), W.encode_typed(
        {"openconfig-qos:queue": [{"name": "3", "state": {"ecn-marked-pkts": "7"}}]}, "json"))])
leaflist = W.encode_notification(1, None, [W.encode_update(
    W.encode_path([("l", {})]), W.f_msg(8, W.f_msg(1, W.encode_typed(1)) + W.f_msg(1, W.encode_typed("a"))))])
decimal = W.encode_notification(1, None, [W.encode_update(
    W.encode_path([("d", {})]), W.f_msg(7, W.f_varint(1, 12345) + W.f_varint(2, 2)))])
seeds = {
    "sonic-json-ietf": b"\x00" + W.subscribe_response_update(sonic),
    "oc-scalars": b"\x00" + W.subscribe_response_update(oc),
    "sync": b"\x00" + W.subscribe_response_sync(),
    "leaflist": b"\x00" + W.subscribe_response_update(leaflist),
    "decimal": b"\x00" + W.subscribe_response_update(decimal),
    "get": b"\x01" + W.get_response([sonic, oc]),
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
