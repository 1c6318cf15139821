/* series.h: the last hour of one figure at a fixed size, for the sparklines
 * and charts (an instance's GPU utilisation, an endpoint's load).
 *
 * The hour is 120 buckets of 30 s on the wall clock.  A sample lands in the
 * bucket of its time; a bucket keeps the largest sample it was given (a
 * spike between two redraws is not lost), and a bucket no sample reached is
 * a gap, drawn as a gap (never as zero: a host that stopped answering is not
 * an idle host).  Time going backwards (a clock step) keeps the buckets and
 * files the sample in the newest one.
 *
 * struct series8 holds 0..254 (percent, degrees C) in one byte a bucket:
 * 124 bytes whatever the rate of samples, so 10,000 instances cost 1.2 MB a
 * figure.  struct seriesf holds floats (load, cost, counts) for the few
 * series where one byte is not enough.
 *
 * Pure, no locking: a series belongs to whoever holds the struct. */
#ifndef RENTOP_SERIES_H
#define RENTOP_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_BUCKETS 120 /* the last hour */
#define SERIES_BUCKET_S 30 /* seconds a bucket */
#define SERIES8_GAP 255    /* a struct series8 bucket with no sample */

struct series8 {
	uint8_t v[SERIES_BUCKETS]; /* ring: bucket number b lives at v[b % SERIES_BUCKETS] */
	uint32_t last;             /* bucket number of the newest sample; 0: none yet */
};

struct seriesf {
	float v[SERIES_BUCKETS];   /* NAN: no sample */
	uint32_t last;
};

/* Every bucket a gap. */
void series8_init(struct series8 *s);
void seriesf_init(struct seriesf *s);

/* File a sample taken at wall time now (epoch seconds).  series8 clamps to
 * 0..254 and rounds; NAN or a negative time is ignored. */
void series8_put(struct series8 *s, double now, double value);
void seriesf_put(struct seriesf *s, double now, double value);

/* The hour ending at now resampled into ncols columns, oldest first (each
 * column the largest sample of the buckets it covers; NAN where none of them
 * holds one).  With ncols > SERIES_BUCKETS a bucket spans several columns.
 * Returns ncols. */
size_t series8_values(const struct series8 *s, double now, double *out, size_t ncols);
size_t seriesf_values(const struct seriesf *s, double now, double *out, size_t ncols);

/* The sample of the bucket holding now (or the one before it, so a refresh
 * that lands just after a bucket boundary still has a latest figure): 1 and
 * *value set, or 0 when neither holds one. */
int series8_last(const struct series8 *s, double now, double *value);
int seriesf_last(const struct seriesf *s, double now, double *value);

#endif
