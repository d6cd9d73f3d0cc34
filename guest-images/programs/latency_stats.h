/* Latency samples -> the bootbench guest protocol: nearest-rank percentiles as
 * "BOOTBENCH-METRIC <name>_p50 <value> <unit>" lines and a fixed-width histogram as
 * "BOOTBENCH-HIST <name> <lo> <hi> <count>" lines, the same names and rank rule the host uses for
 * its own histogram extractors (console/metric_extractor.cpp), so both kinds compare directly.
 *
 * Header-only so that a guest program stays one compiler command (guest.programs); plain C that
 * also compiles as C++, so the unit tests (tests/unit/latency_stats_test.cpp) include it as is. */
#ifndef BOOTBENCH_LATENCY_STATS_H
#define BOOTBENCH_LATENCY_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline int latency_compare(const void *left, const void *right)
{
	const uint64_t a = *(const uint64_t *)left;
	const uint64_t b = *(const uint64_t *)right;
	return a < b ? -1 : a > b;
}

static inline void latency_sort(uint64_t *values, size_t count)
{
	qsort(values, count, sizeof values[0], latency_compare);
}

/* Nearest rank: the smallest sample with at least permille/1000 of all samples at or below it.
 * Integer arithmetic, so p90 of 10 samples is exactly the 9th. `sorted` ascending, count > 0. */
static inline uint64_t latency_percentile(const uint64_t *sorted, size_t count, unsigned permille)
{
	size_t rank = (size_t)(((uint64_t)count * permille + 999) / 1000);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	return sorted[rank - 1];
}

/* <name>_n, _p50, _p90, _p99 and _max. */
static inline void latency_print_summary(FILE *out, const char *name,
					 const uint64_t *sorted, size_t count, const char *unit)
{
	fprintf(out, "BOOTBENCH-METRIC %s_n %zu count\n", name, count);
	if (count == 0)
		return;
	fprintf(out, "BOOTBENCH-METRIC %s_p50 %llu %s\n", name,
		(unsigned long long)latency_percentile(sorted, count, 500), unit);
	fprintf(out, "BOOTBENCH-METRIC %s_p90 %llu %s\n", name,
		(unsigned long long)latency_percentile(sorted, count, 900), unit);
	fprintf(out, "BOOTBENCH-METRIC %s_p99 %llu %s\n", name,
		(unsigned long long)latency_percentile(sorted, count, 990), unit);
	fprintf(out, "BOOTBENCH-METRIC %s_max %llu %s\n", name,
		(unsigned long long)sorted[count - 1], unit);
}

/* One line per non-empty bucket [k*width, (k+1)*width), ascending. Empty buckets are left out:
 * the store treats a missing bucket as zero, and a 1 s outlier must not cost 100 lines. */
static inline void latency_print_histogram(FILE *out, const char *name,
					   const uint64_t *sorted, size_t count, uint64_t width)
{
	size_t i = 0;
	while (i < count) {
		const uint64_t bucket = sorted[i] / width;
		size_t in_bucket = 0;
		while (i < count && sorted[i] / width == bucket) {
			++in_bucket;
			++i;
		}
		fprintf(out, "BOOTBENCH-HIST %s %llu %llu %zu\n", name,
			(unsigned long long)(bucket * width),
			(unsigned long long)((bucket + 1) * width), in_bucket);
	}
}

#endif
