/* SPDX-License-Identifier: BSD-3-Clause */
/* Litmus: MP+putsig+add. */
int main(void) {
    return 0;
}
