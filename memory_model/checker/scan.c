/* SPDX-License-Identifier: BSD-3-Clause */
#include "scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int litmus_fail(litmus_error_t *err, const char *file, int line, int col, const char *fmt, ...) {
    va_list ap;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

char *litmus_read_file(const char *path, litmus_error_t *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        litmus_fail(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
        if (len + 1 == cap) {
            char *bigger = cap > (1u << 24) ? NULL : realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        litmus_fail(err, path, 0, 0, "cannot read the file (unreadable or larger than 16 MiB)");
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        litmus_fail(err, path, 0, 0, "the file contains a NUL byte");
        return NULL;
    }
    return buf;
}

void scan_init(scan_t *s, const char *file, const char *text, litmus_error_t *err) {
    s->file = file;
    s->p = text;
    s->line = 1;
    s->col = 1;
    s->err = err;
}

void scan_advance(scan_t *s, int n) {
    for (int i = 0; i < n && *s->p; i++, s->p++) {
        if (*s->p == '\n') {
            s->line++;
            s->col = 1;
        } else {
            s->col++;
        }
    }
}

int scan_error(scan_t *s, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return litmus_fail(s->err, s->file, s->line, s->col, "%s", msg);
}

int scan_skip(scan_t *s, int line_comments) {
    for (;;) {
        char c = *s->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            scan_advance(s, 1);
        } else if (c == '(' && s->p[1] == '*') {
            int line = s->line, col = s->col, depth = 0;
            do {
                if (*s->p == '\0')
                    return litmus_fail(s->err, s->file, line, col, "unterminated comment");
                if (s->p[0] == '(' && s->p[1] == '*') {
                    depth++;
                    scan_advance(s, 2);
                } else if (s->p[0] == '*' && s->p[1] == ')') {
                    depth--;
                    scan_advance(s, 2);
                } else {
                    scan_advance(s, 1);
                }
            } while (depth > 0);
        } else if (line_comments && (c == '#' || (c == '/' && s->p[1] == '/'))) {
            while (*s->p && *s->p != '\n')
                scan_advance(s, 1);
        } else {
            return 0;
        }
    }
}

int scan_is_ident_start(char c) {
    return isalpha((unsigned char)c) || c == '_';
}

int scan_is_ident_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' || c == '/';
}

int scan_peek_ident(const scan_t *s, char *out, int cap) {
    const char *p = s->p;
    int n = 0;
    if (!scan_is_ident_start(*p))
        return -1;
    while (scan_is_ident_char(p[n]))
        n++;
    if (n >= cap)
        return -1;
    memcpy(out, p, (size_t)n);
    out[n] = '\0';
    return n;
}

int scan_ident(scan_t *s, char *out, int cap, const char *what) {
    int n = scan_peek_ident(s, out, cap);
    if (n < 0) {
        if (scan_is_ident_start(*s->p))
            return scan_error(s, "%s is longer than %d characters", what, cap - 1);
        return scan_error(s, "expected %s", what);
    }
    scan_advance(s, n);
    return 0;
}

int scan_int(scan_t *s, int64_t *out, const char *what) {
    const char *p = s->p;
    int neg = 0, n = 0;
    if (*p == '-') {
        neg = 1;
        n++;
    }
    int base = 10;
    if (p[n] == '0' && (p[n + 1] == 'x' || p[n + 1] == 'X') && isxdigit((unsigned char)p[n + 2])) {
        base = 16;
        n += 2;
    }
    if (!isxdigit((unsigned char)p[n]) || (base == 10 && !isdigit((unsigned char)p[n])))
        return scan_error(s, "expected %s", what);
    uint64_t v = 0;
    while (base == 16 ? isxdigit((unsigned char)p[n]) : isdigit((unsigned char)p[n])) {
        unsigned d = isdigit((unsigned char)p[n])
                         ? (unsigned)(p[n] - '0')
                         : (unsigned)(tolower((unsigned char)p[n]) - 'a' + 10);
        if (v > (UINT64_C(1) << 62) / (uint64_t)base)
            return scan_error(s, "%s is out of range", what);
        v = v * (uint64_t)base + d;
        n++;
    }
    if (scan_is_ident_char(p[n]) && p[n] != '-' && p[n] != '.' && p[n] != '/')
        return scan_error(s, "expected %s", what);
    *out = neg ? -(int64_t)v : (int64_t)v;
    scan_advance(s, n);
    return 0;
}

int scan_accept(scan_t *s, const char *tok) {
    size_t n = strlen(tok);
    if (strncmp(s->p, tok, n) != 0)
        return 0;
    if (scan_is_ident_start(tok[0]) && scan_is_ident_char(s->p[n]))
        return 0;
    scan_advance(s, (int)n);
    return 1;
}

int scan_expect(scan_t *s, const char *tok, const char *context) {
    if (scan_accept(s, tok))
        return 0;
    return scan_error(s, "expected '%s' %s", tok, context);
}

int scan_string(scan_t *s, char *out, int cap) {
    int line = s->line, col = s->col;
    if (*s->p != '"')
        return scan_error(s, "expected a quoted string");
    scan_advance(s, 1);
    int n = 0;
    while (*s->p && *s->p != '"') {
        if (n + 1 < cap)
            out[n++] = *s->p;
        scan_advance(s, 1);
    }
    if (!*s->p)
        return litmus_fail(s->err, s->file, line, col, "unterminated string");
    scan_advance(s, 1);
    out[n] = '\0';
    return 0;
}
