#include "gnmi_cli.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

void gnmi_cli_init(struct gnmi_cli *g)
{
    memset(g, 0, sizeof(*g));
    g->timeout_ns = 10000000000LL;
    g->ep.tls = true;
}

int gnmi_cli_option(struct cli_ctx *ctx, struct gnmi_cli *g, int opt, const char *arg)
{
    struct dcb_err err;
    switch (opt) {
    case GO_TLS_CA: g->ep.ca_file = arg; return CLI_NEXT;
    case GO_TLS_CERT: g->ep.cert_file = arg; return CLI_NEXT;
    case GO_TLS_KEY: g->ep.key_file = arg; return CLI_NEXT;
    case GO_TLS_SERVER_NAME: g->ep.server_name = arg; return CLI_NEXT;
    case GO_INSECURE: g->insecure = true; return CLI_NEXT;
    case GO_PLAINTEXT: g->plaintext = true; return CLI_NEXT;
    case GO_CREDENTIALS: g->credentials_file = arg; return CLI_NEXT;
    case GO_TIMEOUT:
        if (dcb_parse_duration(arg, &g->timeout_ns, &err) < 0 || g->timeout_ns < 1000000)
            return cli_usage_error(ctx, "--timeout: %s",
                                   g->timeout_ns < 1000000 ? "at least 1ms" : err.msg);
        return CLI_NEXT;
    case GO_MAX_MSG: {
        uint64_t bytes;
        if (dcb_parse_bytes(arg, &bytes, &err) < 0 || bytes < 1024 || bytes > (1u << 30))
            return cli_usage_error(ctx, "--max-message: a size from 1KiB to 1GiB, not '%s'", arg);
        g->ep.max_message = (size_t)bytes;
        return CLI_NEXT;
    }
    default: return CLI_NOT_OWN;
    }
}

int gnmi_cli_finish(struct cli_ctx *ctx, struct gnmi_cli *g)
{
    if (g->plaintext && (g->insecure || g->ep.ca_file || g->ep.cert_file))
        return cli_usage_error(ctx, "--plaintext turns TLS off; it cannot go with --insecure or "
                                    "--tls-* options");
    if (!g->ep.cert_file != !g->ep.key_file)
        return cli_usage_error(ctx, "--tls-cert and --tls-key go together");
    g->ep.tls = !g->plaintext;
    g->ep.insecure = g->insecure;
    if (g->credentials_file) {
        struct dcb_err err;
        if (gnmi_creds_from_file(&g->creds, g->credentials_file, &err) < 0)
            return cli_fail(1, "gnmi", "%s", err.msg);
    } else {
        gnmi_creds_from_env(&g->creds);
    }
    g->ep.username = g->creds.username[0] ? g->creds.username : NULL;
    g->ep.password = g->creds.username[0] ? g->creds.password : NULL;
    return 0;
}

void gnmi_cli_endpoint(const struct gnmi_cli *g, const char *address, struct grpc_endpoint *ep)
{
    *ep = g->ep;
    ep->address = address;
}

void gnmi_cli_free(struct gnmi_cli *g)
{
    gnmi_creds_wipe(&g->creds);
}
