/* SPDX-License-Identifier: BSD-3-Clause */
/* A character scanner with line and column tracking, shared by the litmus and cat parsers. */
#ifndef SHMEM_LITMUS_SCAN_H
#define SHMEM_LITMUS_SCAN_H

#include "litmus.h"

typedef struct scan {
    const char *file;
    const char *p;
    int line;
    int col;
    litmus_error_t *err;
} scan_t;

void scan_init(scan_t *s, const char *file, const char *text, litmus_error_t *err);
/* Skips blanks, newlines and (possibly nested) (* ... *) comments; also // and # comments when
 * line_comments is set. Returns -1 on an unterminated comment. */
int scan_skip(scan_t *s, int line_comments);
void scan_advance(scan_t *s, int n);
int scan_peek_ident(const scan_t *s, char *out, int cap);
/* Reads an identifier [A-Za-z_][A-Za-z0-9_./-]* into out; -1 with an error if there is none. */
int scan_ident(scan_t *s, char *out, int cap, const char *what);
/* Reads an optionally negative decimal or 0x integer; -1 with an error if there is none. */
int scan_int(scan_t *s, int64_t *out, const char *what);
/* Consumes `tok` if the input continues with it. */
int scan_accept(scan_t *s, const char *tok);
/* Consumes `tok` or reports "expected tok <context>". */
int scan_expect(scan_t *s, const char *tok, const char *context);
/* Reads a "..." string into out (no escapes). */
int scan_string(scan_t *s, char *out, int cap);
int scan_error(scan_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int scan_is_ident_start(char c);
int scan_is_ident_char(char c);

#endif
