/* fmt.h: money, rates, sizes, durations and times as the dashboard and
 * --dump show them.  Pure, any thread. */
#ifndef RENTOP_FMT_H
#define RENTOP_FMT_H

#include <stddef.h>

/* Formatting into caller buffers; each returns buf. */
char *fmt_money(char *buf, size_t n, double dollars);       /* "$1,234.56", "-$0.05" */
char *fmt_rate(char *buf, size_t n, double dollars_per_h);  /* "$0.412/h" */
char *fmt_duration(char *buf, size_t n, double seconds);    /* "45s" "12m" "3h05m" "2d04h" "-" */
char *fmt_mb(char *buf, size_t n, double mb);               /* "24GB" "512MB" "1.5TB" */
char *fmt_age(char *buf, size_t n, double now, double then);/* duration since, "-" if then<=0 */
/* A local wall time: "14:03:07" on now's day, "2026-11-21 14:03" on another. */
char *fmt_when(char *buf, size_t n, double when, double now);

#endif
