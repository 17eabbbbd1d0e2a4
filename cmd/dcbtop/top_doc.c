/* dcbtop's documentation, written once: `dcbtop --help` prints it as text, `dcbtop --man` as the
 * dcbtop(1) page that make install puts next to dcbkit(1). */
#include <stdio.h>
#include <string.h>

#include "top_doc.h"

struct doc_item {
    const char *flags;
    const char *text;
};

static const char synopsis[] =
    "dcbtop [--local] [--ifname PATTERN] [-d SECS] [-p PRIO] [--sort COL] [-f TEXT]\n"
    "dcbtop --store DB [--at TIME] [--window D]\n"
    "dcbtop -b [-n N] [-d SECS] [-T text|json] [SOURCE]";

static const char description[] =
    "dcbtop is top for lossless (RoCEv2) fabrics: one row per interface with its traffic in "
    "bits per second, PFC pauses per second received and sent on the lossless priorities, the "
    "share of time the link partner kept it paused, ECN marks, CNPs sent and handled, RoCE "
    "packets out of sequence and drops per second, with a sparkline of the last 60 values of "
    "the sort column. Rows with active findings of the rules engine are coloured by severity "
    "(marked ! for critical and * for warnings on terminals without colour).\n\n"
    "A rate needs two readings: until the second one a rate shows \xe2\x80\xa6 (... without "
    "UTF-8), never 0; a metric the source does not provide at all shows -. Rates come from "
    "consecutive counter readings with the same wrap and reset handling as dcbkit collect, so "
    "both print the same rates on the same host.\n\n"
    "Sources: --local (the default) reads this host's interfaces as dcbkit collect does "
    "(ethtool statistics, netdev and RDMA counters, DCB config, DCQCN knobs, LLDP neighbours "
    "with CAP_NET_RAW); when none of them has PFC counters, the status line says so. --store "
    "follows a dcbkit store (a collector writing it shows up live), or stands at --at TIME; "
    "[ and ] move ten refresh intervals back and forth in time. The replay (--replay, --demo) "
    "and switch (--gnmi, --fabric) sources are not part of this build yet.\n\n"
    "Views (Tab cycles): the interfaces; per-priority detail of the selected interface (bytes, "
    "pauses, pause time, marks, drops); its QoS config (trust, DSCP to priority, PFC, ETS, "
    "WRED and buffers, DCQCN) next to what the link partner advertises in DCBX, mismatches "
    "highlighted; the findings of the rules engine (run every 5 seconds over the data in "
    "memory) with their evidence and the knob to turn. Strings from the network (LLDP system "
    "names, interface names, gNMI keys) are shown with control bytes and escape sequences as "
    "\\xNN: they never reach the terminal.\n\n"
    "Batch mode (-b) prints a frame every interval, like top -b, flushing each one: text, or "
    "with -T json one JSON object per line (docs/dcbtop.md): {\"time\" (ns), \"source\", "
    "\"status\", \"prio\", \"interfaces\": [{\"device\", \"ifname\", \"speed_bps\", "
    "\"severity\", \"prios_shown\", \"rx_bps\", \"tx_bps\", \"pfc_rx_per_s\", \"pfc_tx_per_s\", "
    "\"paused_pct\", \"ecn_marks_per_s\", \"cnp_sent_per_s\", \"cnp_handled_per_s\", "
    "\"out_of_sequence_per_s\", \"drops_per_s\", \"per_prio\": [...]}], \"findings\": "
    "[{\"rule\", \"severity\", \"device\", \"ifname\", \"prio\", \"summary\", \"evidence\", "
    "\"knob\", \"proposed\"}]}; every rate not known yet is null.";

static const struct doc_item options[] = {
    { "-b, --batch", "Batch mode: print frames to stdout instead of drawing the screen." },
    { "-n, --iterations N", "Batch mode: stop after N frames (default: until interrupted)." },
    { "-d, --delay SECS", "Refresh interval in seconds (1, 0.5) or a duration (500ms); "
      "default 1." },
    { "-T, --format text|json", "Batch mode output: text (default) or one JSON object per frame." },
    { "-p, --prio PRIO", "The priorities the PFC, pause, ECN and drop columns cover: 0-7, or "
      "lossless (default: the interface's PFC-enabled set, every priority when unknown)." },
    { "--sort COL", "Sort column: name, or a JSON key (rx_bps, pfc_rx_per_s, paused_pct, ...); "
      "default pfc_rx_per_s." },
    { "-f, --filter TEXT", "Only interfaces whose device or name contains TEXT." },
    { "--local", "This host (the default)." },
    { "--ifname PATTERN", "--local: the interfaces to show, a shell pattern (default: all but lo)." },
    { "--sysfs-root DIR, --proc-root DIR", "--local: read a saved sysfs tree (and DIR/net/dev) "
      "instead of /sys and /proc, as dcbkit collect does." },
    { "--maps DIR", "--local: counter maps (default: $DCBKIT_MAPS or the installed maps)." },
    { "--device NAME", "--local: the device name rows carry (default: the host name)." },
    { "--store DB", "History from a dcbkit store, following its newest data." },
    { "--at TIME", "--store: stand at TIME: Unix seconds, YYYY-MM-DDTHH:MM:SSZ, or -DURATION "
      "before the store's newest data." },
    { "--window D", "--store: how much history before the shown time is loaded (default 60 "
      "intervals, at least 1m)." },
    { "--rules DIR", "The rule catalog the findings come from (default: $DCBKIT_RULES or the "
      "installed catalog)." },
    { "--demo, --replay SCENARIO, --replay-speed X, --gnmi HOST:PORT, --fabric FILE",
      "Sources that are not part of this build yet: dcbtop says so and exits 1." },
    { "--man", "Print this page as a man page." },
    { "-V, --version", "The version." },
    { "-h, --help", "This help." },
};

static const struct doc_item keys[] = {
    { "Up, Down, PgUp, PgDn, Home, End", "Move the selection." },
    { "Enter", "Expand the selected interface into one row per priority (again: fold)." },
    { "< > F6", "Previous / next sort column." },
    { "/", "Filter interfaces by name (Enter applies, Esc clears)." },
    { "p", "Choose the priority: 0-7, or l for the lossless set." },
    { "l", "The lossless set." },
    { "d", "Change the refresh interval (seconds)." },
    { "Space", "Pause / resume the updates." },
    { "Tab, Shift-Tab", "Cycle the views: interfaces, priorities, QoS config, findings." },
    { "f", "The findings view." },
    { "[ ]", "--store: ten intervals back / forward in time." },
    { "h ? F1", "This help." },
    { "q", "Quit." },
};

static const struct doc_item examples[] = {
    { "dcbtop", "This host, refreshed every second." },
    { "dcbtop --ifname 'ens*' -p 3", "The ens ports, priority 3 only." },
    { "dcbtop --store fabric.db --at -1h", "The fabric as it was an hour before the store's end." },
    { "dcbtop -b -n 10 -d 1 -T json | jq .interfaces[0].pfc_rx_per_s",
      "Ten frames for a script." },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *top_doc_key(size_t k, const char **text)
{
    if (k >= N(keys))
        return NULL;
    *text = keys[k].text;
    return keys[k].flags;
}

static void wrap(FILE *fp, const char *text, int indent, int width)
{
    int col = indent;
    fprintf(fp, "%*s", indent, "");
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fprintf(fp, "\n%*s", indent, "");
            col = indent;
            p++;
            continue;
        }
        size_t w = strcspn(p, " \n");
        if (col > indent && col + (int)w > width) {
            fprintf(fp, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(fp, "%.*s", (int)w, p);
        col += (int)w;
        p += w;
        if (*p == ' ') {
            fputc(' ', fp);
            col++;
            p++;
        }
    }
    fputc('\n', fp);
}

static void items(FILE *fp, const struct doc_item *it, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        fprintf(fp, "  %s\n", it[k].flags);
        wrap(fp, it[k].text, 6, 90);
    }
}

void top_print_help(FILE *fp)
{
    fprintf(fp, "dcbtop - top for lossless fabrics\n\nUsage:\n");
    wrap(fp, synopsis, 2, 200);
    fprintf(fp, "\n");
    wrap(fp, description, 0, 90);
    fprintf(fp, "\nOptions:\n");
    items(fp, options, N(options));
    fprintf(fp, "\nKeys:\n");
    items(fp, keys, N(keys));
    fprintf(fp, "\nExamples:\n");
    items(fp, examples, N(examples));
}

/* roff text: a backslash doubled, a leading dot or quote escaped, hyphens as \- . */
static void roff(FILE *fp, const char *s)
{
    bool bol = true;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", fp);
        bol = *s == '\n';
        if (*s == '\\')
            fputs("\\e", fp);
        else if (*s == '-')
            fputs("\\-", fp);
        else if (*s == '\n')
            fputs("\n.PP\n", fp);
        else
            fputc(*s, fp);
    }
}

static void man_items(FILE *fp, const struct doc_item *it, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        fputs(".TP\n.B ", fp);
        roff(fp, it[k].flags);
        fputc('\n', fp);
        roff(fp, it[k].text);
        fputc('\n', fp);
    }
}

void top_print_man(FILE *fp)
{
    fprintf(fp, ".TH DCBTOP 1 \"\" \"dcbkit %s\" \"dcbkit manual\"\n", DCBKIT_VERSION);
    fputs(".SH NAME\ndcbtop \\- top for lossless (RoCEv2) fabrics\n.SH SYNOPSIS\n.nf\n", fp);
    roff(fp, synopsis);
    fputs("\n.fi\n.SH DESCRIPTION\n", fp);
    char para[sizeof(description)];
    snprintf(para, sizeof(para), "%s", description);
    for (char *p = strstr(para, "\n\n"); p; p = strstr(p, "\n\n"))
        memmove(p, p + 1, strlen(p));    /* one \n per paragraph: roff() starts a .PP */
    roff(fp, para);
    fputs("\n.SH OPTIONS\n", fp);
    man_items(fp, options, N(options));
    fputs(".SH KEYS\n", fp);
    man_items(fp, keys, N(keys));
    fputs(".SH EXAMPLES\n", fp);
    man_items(fp, examples, N(examples));
    fputs(".SH EXIT STATUS\n0 on q or after -n frames; 1 when the source cannot be read; 64 on a "
          "usage error.\n.SH SEE ALSO\n.BR dcbkit (1)\n", fp);
}
