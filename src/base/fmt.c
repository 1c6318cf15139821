/* fmt.c: figures as text (fmt.h). */
#include "base/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

char *fmt_money(char *buf, size_t n, double d)
{
	if (!isfinite(d)) {
		snprintf(buf, n, "-");
		return buf;
	}
	const char *sign = d < 0 ? "-" : "";
	double a = fabs(d);
	long long cents = llround(a * 100.0);
	long long whole = cents / 100;
	int frac = (int)(cents % 100);
	char digits[32], grouped[48];
	snprintf(digits, sizeof digits, "%lld", whole);
	size_t len = strlen(digits), g = 0;
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			grouped[g++] = ',';
		grouped[g++] = digits[i];
	}
	grouped[g] = '\0';
	snprintf(buf, n, "%s$%s.%02d", sign, grouped, frac);
	return buf;
}

char *fmt_rate(char *buf, size_t n, double r)
{
	if (!isfinite(r))
		snprintf(buf, n, "-");
	else if (fabs(r) < 10)
		snprintf(buf, n, "$%.3f/h", r);
	else
		snprintf(buf, n, "$%.2f/h", r);
	return buf;
}

char *fmt_duration(char *buf, size_t n, double secs)
{
	if (!isfinite(secs) || secs < 0) {
		snprintf(buf, n, "-");
		return buf;
	}
	long long s = (long long)secs;
	if (s < 60)
		snprintf(buf, n, "%llds", s);
	else if (s < 3600)
		snprintf(buf, n, "%lldm", s / 60);
	else if (s < 86400)
		snprintf(buf, n, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
	else if (s < 86400LL * 100)
		snprintf(buf, n, "%lldd%02lldh", s / 86400, (s % 86400) / 3600);
	else
		snprintf(buf, n, "%lldd", s / 86400);
	return buf;
}

char *fmt_mb(char *buf, size_t n, double mb)
{
	/* The service's MB are binary: an RTX 4090's 24564 MB is its 24 GB. */
	if (!isfinite(mb) || mb < 0)
		snprintf(buf, n, "-");
	else if (mb >= 1024.0 * 1024.0)
		snprintf(buf, n, "%.1fTB", mb / (1024.0 * 1024.0));
	else if (mb >= 1024.0)
		snprintf(buf, n, "%.0fGB", mb / 1024.0);
	else
		snprintf(buf, n, "%.0fMB", mb);
	return buf;
}

char *fmt_age(char *buf, size_t n, double now, double then)
{
	if (!(then > 0) || !isfinite(then))
		return fmt_duration(buf, n, -1);
	return fmt_duration(buf, n, now > then ? now - then : 0);
}

char *fmt_when(char *buf, size_t n, double when, double now)
{
	time_t t = (time_t)when, t0 = (time_t)now;
	struct tm tm, tm0;
	localtime_r(&t, &tm);
	localtime_r(&t0, &tm0);
	int today = tm.tm_year == tm0.tm_year && tm.tm_yday == tm0.tm_yday;
	if (!n)
		return buf;
	if (!strftime(buf, n, today ? "%H:%M:%S" : "%Y-%m-%d %H:%M", &tm))
		buf[0] = '\0';
	return buf;
}
