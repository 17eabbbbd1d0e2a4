"""A port whose netdev counters are only in a /proc/net/dev table: fixtures/proc's ens3, renamed
dcbt0 (a name no host has, so the real /proc/net/dev cannot stand in for the fixture's), added to
a sysfs tree with only its speed file. Its counters at t0: rx_bytes 8e9, tx_bytes 5e9."""
import os
import shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PROC = os.path.join(ROOT, "fixtures", "proc")
PORT = "dcbt0"
RX_BYTES = 8 * 10**9


def add_proc_port(sysfs_root, proc_root):
    """dcbt0 into the sysfs tree at sysfs_root (class/net/dcbt0/speed) and a net/dev table at
    proc_root (created) that has it."""
    shutil.copytree(os.path.join(PROC, "sys", "class", "net", "ens3"),
                    os.path.join(sysfs_root, "class", "net", PORT))
    os.makedirs(os.path.join(proc_root, "net"))
    with open(os.path.join(PROC, "t0", "net", "dev")) as f:
        table = f.read()
    if "  ens3:" not in table:
        raise RuntimeError("fixtures/proc/t0/net/dev has no ens3 line")
    with open(os.path.join(proc_root, "net", "dev"), "w") as f:
        f.write(table.replace("  ens3:", " " + PORT + ":"))
