/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX settings that libshmem chooses where the user has not.
 *
 * UCX over TCP copies every message of its software RMA (puts, gets' replies) into send buffers
 * of UCX_TCP_TX_SEG_SIZE bytes (8 KiB by default) and receives zero-copy messages of up to
 * UCX_TCP_RX_SEG_SIZE (64 KiB): a 256 KiB get is answered with 32 messages, each a system call
 * on both sides. With 128 KiB for both, large puts and gets move 3 to 6 times the data per second
 * between two test hosts here (bench/README.md, "Large data over TCP"); messages up to 8 KiB
 * travel as before. The buffers come from pools that grow on first use, 8 at a time. */
#include <stdlib.h>
#include <string.h>

#include "transport/ucx/ucx_config.h"

const ucx_config_default_t ucx_config_defaults[] = {
    /* ucp_config_modify passes a name it does not know to every transport's configuration
     * without the transport's prefix: TCP's own names are TX_SEG_SIZE and RX_SEG_SIZE (no other
     * transport of UCX has them). */
    {"UCX_TCP_TX_SEG_SIZE", "TX_SEG_SIZE", "128K"},
    {"UCX_TCP_RX_SEG_SIZE", "RX_SEG_SIZE", "128K"},
};
const int ucx_config_n_defaults =
    (int)(sizeof(ucx_config_defaults) / sizeof(ucx_config_defaults[0]));

/* Whether the comma-separated list names word. */
static int names(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

int ucx_config_tcp_allowed(const char *tls) {
    if (tls == NULL || *tls == '\0')
        return 1;
    if (*tls == '^')
        return !names(tls + 1, "tcp");
    return names(tls, "tcp") || names(tls, "all");
}

int ucx_config_apply_defaults(ucp_config_t *config, const ucx_config_default_t **failed_p) {
    if (!ucx_config_tcp_allowed(getenv("UCX_TLS")))
        return 0;
    int applied = 0;
    for (int i = 0; i < ucx_config_n_defaults; i++) {
        const ucx_config_default_t *d = &ucx_config_defaults[i];
        if (getenv(d->env) != NULL)
            continue;
        if (ucp_config_modify(config, d->key, d->value) != UCS_OK) {
            *failed_p = d;
            return -1;
        }
        applied++;
    }
    return applied;
}
