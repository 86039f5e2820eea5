/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem-litmus: the memory model's command-line tool. Each subcommand lives in its own file; `run`
 * (the litmus harness, memory_model/harness/) is linked in when it is built. */
#include <stdio.h>
#include <string.h>

#include "check.h"

int litmus_run_main(int argc, char **argv) __attribute__((weak));

static void usage(FILE *out) {
    fputs("usage: shmem-litmus COMMAND ...\n"
          "  check TEST.litmus...   evaluate the memory model on litmus tests (herd7 format)\n",
          out);
    if (litmus_run_main)
        fputs("  run TEST.litmus...     run litmus tests on the library\n", out);
    fputs("Run 'shmem-litmus COMMAND --help' for the options of a command.\n", out);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "check") == 0)
        return check_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "run") == 0 && litmus_run_main)
        return litmus_run_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "shmem-litmus: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
