/* SPDX-License-Identifier: BSD-3-Clause */
/* Global and static variables are symmetric: stores through shmem_ptr into a peer's copy are
 * seen there, in .data and in .bss, and addresses outside them are not symmetric. */
#include "pe_check.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long initialized_global = 42;
int zero_global[4096];
static double static_value = 1.5;
static char big_static[1 << 20];

int main(void) {
    int local_on_stack = 0;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;

    /* The data survived being moved into shared memory. */
    CHECK(initialized_global == 42 && static_value == 1.5);
    CHECK(shmem_addr_accessible(&initialized_global, right));
    CHECK(shmem_addr_accessible(&zero_global[4095], right));
    CHECK(shmem_addr_accessible(&big_static[sizeof(big_static) - 1], right));
    CHECK(!shmem_addr_accessible(&local_on_stack, right));
    CHECK(shmem_ptr(&local_on_stack, right) == NULL);
    CHECK(shmem_ptr(&initialized_global, me) == &initialized_global);

    sync_pes();
    /* Through the mapping where the neighbour shares this node, else with puts. */
    char *peer_big = shmem_ptr(big_static, right);
    char block[4096];
    memset(block, me + 1, sizeof(block));
    if (peer_big) {
        *(long *)shmem_ptr(&initialized_global, right) = 100 + me;
        ((int *)shmem_ptr(zero_global, right))[4095] = 200 + me;
        *(double *)shmem_ptr(&static_value, right) = me + 0.25;
        memcpy(peer_big + 4096 * me, block, sizeof(block));
    } else {
        shmem_long_p(&initialized_global, 100 + me, right);
        shmem_int_p(&zero_global[4095], 200 + me, right);
        shmem_double_p(&static_value, me + 0.25, right);
        shmem_putmem(big_static + 4096 * me, block, sizeof(block), right);
    }
    sync_pes();

    CHECK(initialized_global == 100 + left);
    CHECK(zero_global[4095] == 200 + left);
    CHECK(static_value == left + 0.25);
    CHECK(big_static[4096 * left] == left + 1 && big_static[4096 * left + 4095] == left + 1);
    CHECK(zero_global[0] == 0);

    /* And read back from the peer (through the same translation where it is mapped). */
    long *peer_global = shmem_ptr(&initialized_global, left);
    CHECK((peer_global ? *peer_global : shmem_long_g(&initialized_global, left)) ==
          100 + (left + n - 1) % n);
    sync_pes();

    /* A forked child is not a PE: its globals are its own, and its exit finalizes nothing. */
    long before = initialized_global;
    pid_t child = fork();
    if (child == 0) {
        initialized_global = -1;
        exit(initialized_global == -1 ? 0 : 1);
    }
    int status = -1;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(initialized_global == before);
    sync_pes();
    shmem_finalize();
    if (me == 0)
        printf("globals: ok on %d PEs\n", n);
    return 0;
}
