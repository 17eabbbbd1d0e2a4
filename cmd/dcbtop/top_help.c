/* dcbtop's documentation, written once as a cli_command: `dcbtop --help` prints it as text and
 * `dcbtop --man` as the dcbtop(1) page (cmd/cli renders both, as for dcbkit); the source options
 * come from source_option_docs. The keys are dcbtop's own and the help screen shows them. */
#include <stdio.h>

#include "cli.h"
#include "top_help.h"

static const char synopsis[] =
    "dcbtop [--local] [--ifname PATTERN] [-d SECS] [-p PRIO] [--sort COL] [-f TEXT]\n"
    "dcbtop --store DB [--at TIME] [--window D]\n"
    "dcbtop --demo | --replay SCENARIO [--replay-speed X]\n"
    "dcbtop --gnmi HOST:PORT [--map NAME] [--plaintext | --tls-ca FILE]\n"
    "dcbtop --gnmi all --fabric FILE\n"
    "dcbtop --pcap FILE [--pcap-speed X] | --prometheus URL\n"
    "dcbtop -b [-n N] [-d SECS] [-T text|json] [--view interfaces|qos] [SOURCE]";

static const char description[] =
    "dcbtop is top for lossless (RoCEv2) fabrics: one row per interface with its traffic in "
    "bits per second, PFC pauses per second received and sent on the lossless priorities, the "
    "share of time the link partner kept it paused, ECN marks, CNPs sent and handled, RoCE "
    "packets out of sequence and drops per second, with a sparkline of the last 60 values of "
    "the sort column. Rows with active findings of the rules engine are coloured by severity "
    "(marked ! for crit and * for warn on terminals without colour).\n\n"
    "A rate needs two readings: until the second one a rate shows \xe2\x80\xa6 (... without "
    "UTF-8), never 0; a metric the source does not provide at all shows -. Rates are taken over "
    "the refresh interval (in the data's time: a replay's or a capture's, times its speed), "
    "with the same wrap and reset handling as dcbkit collect, so both print the same rates on "
    "the same host; a store sampled more sparsely gives them over its own spacing.\n\n"
    "Sources (one at a time; the source options are those of every dcbkit command): --local "
    "(the default) reads this host's interfaces as dcbkit collect does; when none of them has "
    "PFC counters, the status line says so and offers --demo. --store follows a dcbkit store "
    "(a collector writing it shows up live), or stands at --at TIME; [ and ] move ten refresh "
    "intervals back and forth in time. --replay and --demo run the embedded simulator "
    "(rules/replay) in a child process paced to the wall clock, its fabric file's intended "
    "config standing for each port's and its link partner's; its rates are those of dcbkit "
    "replay --stream for the same simulated seconds, and when this machine is too busy for its "
    "pace the header says BEHIND and no frame repeats. --gnmi reads switches with "
    "dcbkit's gNMI client, also in a child process; --gnmi all --fabric FILE reads every "
    "device of the fabric whose reach is gNMI. --fabric FILE alone opens no connection: it "
    "shows the fabric's intended config, with no counters. --pcap plays a capture at its own "
    "timestamps (--pcap-speed X times faster), --prometheus reads back what dcbkit serve "
    "exported.\n\n"
    "Views (Tab cycles): the interfaces; per-priority detail of the selected interface (bytes, "
    "pauses, pause time, marks, drops); its QoS config (trust, DSCP to priority, PFC, ETS, "
    "WRED and buffers, DCQCN) next to what the link partner advertises in DCBX, mismatches "
    "highlighted; the findings of the rules engine (run every 5 seconds over the data in "
    "memory) with their evidence and the knob to turn. Strings from the network (LLDP system "
    "names, interface names, gNMI keys) are shown with control bytes and escape sequences as "
    "\\xNN: they never reach the terminal.\n\n"
    "Batch mode (-b) prints a frame every interval, like top -b, flushing each one: the "
    "interfaces (or with --view qos each interface's QoS config against its link partner's), "
    "as text or with -T json as one JSON object per line.";

static const char json_doc[] =
    "One object per frame and line (docs/dcbtop.md): {\"time\" (ns), \"source\", \"status\", "
    "\"behind_s\" (how far a source paced to the wall clock trails it, or null), "
    "\"simulated_s\" (a replay's frame in simulated time, or null), \"prio\", \"interfaces\": "
    "[{\"device\", \"ifname\", \"speed_bps\", \"severity\", "
    "\"prios_shown\", \"rx_bps\", \"tx_bps\", \"pfc_rx_per_s\", \"pfc_tx_per_s\", "
    "\"paused_pct\", \"ecn_marks_per_s\", \"cnp_sent_per_s\", \"cnp_handled_per_s\", "
    "\"out_of_sequence_per_s\", \"drops_per_s\", \"per_prio\": [...]}], \"findings\": "
    "[{\"rule\", \"severity\", \"device\", \"ifname\", \"prio\", \"summary\", \"evidence\", "
    "\"knob\", \"proposed\"}]}; every rate not known yet is null. With --view qos: {\"time\", "
    "\"source\", \"status\", \"view\": \"qos\", \"interfaces\": [{\"device\", \"ifname\", "
    "\"config_source\", \"partner\": {\"name\", \"port\", \"via\"} or null, \"fields\": "
    "[{\"field\", \"label\", \"here\", \"partner\", \"mismatch\"}]}]}, null where a value is "
    "unknown.";

static const struct cli_option_doc options[] = {
    { "-b, --batch", "Batch mode: print frames to stdout instead of drawing the screen." },
    { "-n, --iterations N", "Batch mode: stop after N frames (default: until interrupted)." },
    { "-d, --delay SECS", "Refresh interval in seconds (1, 0.5) or a duration (500ms); "
                          "default 1." },
    { "--view interfaces|qos", "Batch mode: the interfaces (default) or each interface's QoS "
                               "config next to its link partner's." },
    { "-p, --prio PRIO",
      "The priorities the PFC, pause, ECN and drop columns cover: 0-7, or "
      "lossless (default: the interface's PFC-enabled set, every priority when unknown)." },
    { "--sort COL", "Sort column: name, or a JSON key (rx_bps, pfc_rx_per_s, paused_pct, ...); "
                    "default pfc_rx_per_s." },
    { "-f, --filter TEXT", "Only interfaces whose device or name contains TEXT." },
    CLI_RULES_OPTION_DOCS,
    { "--auto", "This host when one of its interfaces has PFC counters, otherwise the demo "
                "(what make run uses)." },
    { "--man", "Print this page as a man page." },
    { "-V, --version", "The version." },
    { NULL, NULL },
};

static const struct cli_option_doc keys[] = {
    { "Up, Down, PgUp, PgDn, Home, End", "Move the selection (in the findings view: scroll)." },
    { "Enter", "Expand the selected interface into one row per priority (again: fold); in the "
               "findings view, list each place of the cause at the top of the screen." },
    { "< > F6", "Previous / next sort column." },
    { "/", "Filter interfaces by name (Enter applies, Esc clears)." },
    { "p", "Choose the priority: 0-7, or l for the lossless set." },
    { "l", "The lossless set." },
    { "d", "Change the refresh interval: seconds from 0.01 to 3600 (0.5, 2) or a duration "
           "(500ms); Enter applies, Esc or an empty line keeps it." },
    { "Space", "Pause / resume the updates." },
    { "Tab, Shift-Tab", "Cycle the views: interfaces, priorities, QoS config, findings." },
    { "f", "The findings view." },
    { "[ ]", "--store: ten intervals back / forward in time." },
    { "h ? F1", "This help (any key returns)." },
    { "q F10", "Quit." },
    { NULL, NULL },
};

static const struct cli_section sections[] = {
    { "Keys", keys },
    { NULL, NULL },
};

static const struct cli_example examples[] = {
    { "dcbtop", "This host, refreshed every second." },
    { "dcbtop --ifname 'ens*' -p 3", "The ens ports, priority 3 only." },
    { "dcbtop --store fabric.db --at -1h", "The fabric as it was an hour before the store's end." },
    { "dcbtop --demo", "The built-in incast and slow-receiver scenario." },
    { "dcbtop --gnmi all --fabric fabric.json", "Every switch of the fabric reached over gNMI." },
    { "dcbtop -b -n 10 -d 1 -T json | jq .interfaces[0].pfc_rx_per_s", "Ten frames for a script." },
    { "dcbtop -b -n 1 --view qos --fabric fabric.json", "The fabric's intended QoS config, "
                                                        "port by port." },
    { NULL, NULL },
};

static const struct cli_exit exits[] =
    CLI_EXITS("q pressed, or -b ran its -n frames",
              "the source could not be read, or the terminal not set up");

const struct cli_command top_command = {
    .name = "dcbtop",
    .summary = "top for lossless (RoCEv2) fabrics",
    .synopsis = synopsis,
    .description = description,
    .options = options,
    .examples = examples,
    .json_doc = json_doc,
    .source_groups = SOURCE_G_ALL,
    .sections = sections,
    .exits = exits,
};

const char *top_doc_key(size_t k, const char **text)
{
    if (k >= sizeof(keys) / sizeof(keys[0]) - 1)
        return NULL;
    *text = keys[k].text;
    return keys[k].flags;
}
