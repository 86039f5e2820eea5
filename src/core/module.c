/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of modules above core, run in order after core's own set-up. */
#include <stdlib.h>

#include "shmemi.h"

#define MAX_MODULES 32

static const shmemi_module_t *modules[MAX_MODULES];
static int n_modules;
static int n_started;

void shmemi_module_register(const shmemi_module_t *module) {
    if (n_modules == MAX_MODULES)
        shmemi_fatal("shmemi_module_register", "more than %d modules", MAX_MODULES);
    /* Insertion keeps the list sorted by order; equal orders keep registration order. */
    int i = n_modules++;
    while (i > 0 && modules[i - 1]->order > module->order) {
        modules[i] = modules[i - 1];
        i--;
    }
    modules[i] = module;
}

void shmemi_modules_init(void) {
    for (n_started = 0; n_started < n_modules; n_started++) {
        const shmemi_module_t *m = modules[n_started];
        shmemi_debug_log("initializing module %s", m->name);
        shmemi_status_t status = m->init ? m->init() : SHMEMI_OK;
        if (status != SHMEMI_OK)
            shmemi_fatal("shmem_init", "module %s failed to initialize (status %d)", m->name,
                         (int)status);
    }
}

void shmemi_modules_finalize(void) {
    while (n_started > 0) {
        const shmemi_module_t *m = modules[--n_started];
        shmemi_debug_log("finalizing module %s", m->name);
        if (m->finalize)
            m->finalize();
    }
}
