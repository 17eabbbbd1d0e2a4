/* The connection options `dcbkit gnmi` and `dcbkit collect --gnmi` share: TLS (verified by
 * default), --insecure and --plaintext spelled out, credentials from a 0600 file or the
 * environment only, the per-call deadline. */
#ifndef DCB_GNMI_CLI_H
#define DCB_GNMI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "gnmi_creds.h"
#include "grpc_call.h"

enum {
    GO_TLS_CA = 0x3000,
    GO_TLS_CERT,
    GO_TLS_KEY,
    GO_TLS_SERVER_NAME,
    GO_INSECURE,
    GO_PLAINTEXT,
    GO_CREDENTIALS,
    GO_TIMEOUT,
    GO_MAX_MSG,
};

#define GNMI_CLI_LONGOPTS                                                   \
    { "tls-ca", required_argument, NULL, GO_TLS_CA },                       \
        { "tls-cert", required_argument, NULL, GO_TLS_CERT },               \
        { "tls-key", required_argument, NULL, GO_TLS_KEY },                 \
        { "tls-server-name", required_argument, NULL, GO_TLS_SERVER_NAME }, \
        { "insecure", no_argument, NULL, GO_INSECURE },                     \
        { "plaintext", no_argument, NULL, GO_PLAINTEXT },                   \
        { "credentials", required_argument, NULL, GO_CREDENTIALS },         \
        { "timeout", required_argument, NULL, GO_TIMEOUT },                 \
    {                                                                       \
        "max-message", required_argument, NULL, GO_MAX_MSG                  \
    }

#define GNMI_CLI_OPTION_DOCS                                                                      \
    { "--tls-ca FILE", "CA certificates that sign the target's certificate (default: the "        \
                       "system's). TLS with verification is the default." },                      \
        { "--tls-cert FILE, --tls-key FILE", "Client certificate and key, for mutual TLS." },     \
        { "--tls-server-name NAME", "Verify the certificate against NAME instead of the host." }, \
        { "--insecure", "TLS without verifying the target's certificate (lab use only)." },       \
        { "--plaintext", "No TLS at all: gRPC over cleartext HTTP/2 (h2c), as SONiC's telemetry " \
                         "container allows with --insecure on its side." },                       \
        { "--credentials FILE",                                                                   \
          "Username and password for the target's gRPC metadata, from a file "                    \
          "of 'username: NAME' and 'password: SECRET' lines that only its owner may read (mode "  \
          "0600; anything looser is refused). Without it, DCBKIT_GNMI_USERNAME and "              \
          "DCBKIT_GNMI_PASSWORD are used when set. Never on the command line; never printed." },  \
        { "--timeout DURATION",                                                                   \
          "Deadline of each call and of each poll answer; a stream silent for "                   \
          "this long plus two sample intervals is reconnected (default 10s)." },                  \
    {                                                                                             \
        "--max-message SIZE", "Refuse gRPC messages larger than this (default 16MiB)."            \
    }

struct gnmi_cli {
    struct grpc_endpoint ep;
    struct gnmi_creds creds;
    const char *credentials_file;
    bool insecure, plaintext;
    int64_t timeout_ns;
};

void gnmi_cli_init(struct gnmi_cli *g);
/* In cli.h's convention: CLI_NEXT, CLI_NOT_OWN, or a usage exit status. */
int gnmi_cli_option(struct cli_ctx *ctx, struct gnmi_cli *g, int opt, const char *arg);
/* After parsing: checks combinations and loads credentials. 0, 64 (usage) or 1 (error printed). */
int gnmi_cli_finish(struct cli_ctx *ctx, struct gnmi_cli *g);
/* Fills ep for one address from the common settings. */
void gnmi_cli_endpoint(const struct gnmi_cli *g, const char *address, struct grpc_endpoint *ep);
void gnmi_cli_free(struct gnmi_cli *g);

#endif
