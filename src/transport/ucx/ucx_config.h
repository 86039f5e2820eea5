/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX settings that libshmem chooses where the user has not (ucx_config.c). Private to
 * src/transport/ucx; needs nothing of the library, so that a unit test links it alone. */
#ifndef SHMEMI_TRANSPORT_UCX_CONFIG_H
#define SHMEMI_TRANSPORT_UCX_CONFIG_H

#include <ucp/api/ucp.h>

/* One setting: the environment variable a user sets, the name ucp_config_modify takes, and the
 * value libshmem gives it. */
typedef struct {
    const char *env;
    const char *key;
    const char *value;
} ucx_config_default_t;

extern const ucx_config_default_t ucx_config_defaults[];
extern const int ucx_config_n_defaults;

/* Whether UCX may open its TCP transport under the transport list tls (UCX_TLS; NULL when
 * unset): unset, "all", a list naming tcp, or an exclusion ("^...") that does not name it. */
int ucx_config_tcp_allowed(const char *tls);

/* Applies to config (from ucp_config_read) every default whose variable is not in the
 * environment, where the TCP transport may be used (the settings are TCP's: UCX warns about
 * settings that no transport takes). Returns how many it applied, or -1 when UCX refused one
 * (*failed_p names it). */
int ucx_config_apply_defaults(ucp_config_t *config, const ucx_config_default_t **failed_p);

#endif
