/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target of the environment parsers of src/core/env.c: shmemi_env_parse_size,
 * shmemi_env_bool and shmemi_env_get, against a reading of the text written here. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/env.h"
#include "fuzz_targets.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_env: " __VA_ARGS__);                                                 \
        fprintf(stderr, "\n");                                                                     \
        abort();                                                                                   \
    } while (0)

/* Digits, then at most one of K M G T (either case) as the last character; the value must fit
 * in size_t after the shift. Returns 1 and the value, or 0. */
static int reference_size(const char *text, size_t *value_p) {
    size_t len = strlen(text), digits = 0;
    while (digits < len && text[digits] >= '0' && text[digits] <= '9')
        digits++;
    if (digits == 0 || len - digits > 1)
        return 0;
    unsigned shift = 0;
    if (len - digits == 1) {
        const char *units = "kKmMgGtT", *u = strchr(units, text[digits]);
        if (u == NULL)
            return 0;
        shift = 10 * (unsigned)(1 + (u - units) / 2);
    }
    unsigned __int128 value = 0;
    for (size_t i = 0; i < digits; i++) {
        value = value * 10 + (unsigned)(text[i] - '0');
        if (value > (unsigned __int128)SIZE_MAX)
            return 0;
    }
    value <<= shift;
    if (value > (unsigned __int128)SIZE_MAX)
        return 0;
    *value_p = (size_t)value;
    return 1;
}

static int reference_bool(const char *text) {
    static const char *const yes[] = {"1", "y", "yes", "on", "true"};
    static const char *const no[] = {"", "0", "n", "no", "off", "false"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (strcasecmp(text, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (strcasecmp(text, no[i]) == 0)
            return 0;
    return -1;
}

void fuzz_env(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';

    size_t got = 12345, want = 0;
    shmemi_status_t rc = shmemi_env_parse_size(text, &got);
    int valid = reference_size(text, &want);
    if ((rc == SHMEMI_OK) != valid)
        FAIL("parse_size('%s') returned %d, the text is %s", text, (int)rc,
             valid ? "a size" : "not a size");
    if (valid && got != want)
        FAIL("parse_size('%s') = %zu, not %zu", text, got, want);
    if (!valid && got != 12345)
        FAIL("parse_size('%s') failed but wrote %zu", text, got);

    /* setenv keeps "" as set-but-empty, which the parsers treat as unset. */
    setenv("SHMEM_DEBUG", text, 1);
    int b = shmemi_env_bool("SHMEM_DEBUG");
    int want_b = text[0] ? reference_bool(text) : 0;
    if (b != want_b)
        FAIL("env_bool('%s') = %d, not %d", text, b, want_b);

    setenv("SHMEM_SYMMETRIC_SIZE", text, 1);
    const char *value = shmemi_env_get("SHMEM_SYMMETRIC_SIZE");
    if (value == NULL || strcmp(value, text[0] ? text : "1G") != 0)
        FAIL("env_get(SHMEM_SYMMETRIC_SIZE) with '%s' = '%s'", text, value ? value : "(null)");
    free(text);
}
