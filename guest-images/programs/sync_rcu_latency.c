/* Seed 002's benchmark: N threads calling synchronize_rcu() back to back, each call timed.
 *
 * User space reaches synchronize_rcu() through membarrier(MEMBARRIER_CMD_GLOBAL), which is
 * exactly that call when more than one CPU is online (and the kernel has no nohz_full CPUs).
 * Runs for --seconds or until every thread made --count calls, then prints, in microseconds:
 *
 *   BOOTBENCH-HIST sync_rcu_us <lo> <hi> <count>       one line per non-empty --bucket-us bucket
 *   BOOTBENCH-METRIC sync_rcu_us_{n,p50,p90,p99,max}   nearest-rank, over all calls of all threads
 *   BOOTBENCH-METRIC sync_rcu_calls_per_s, sync_rcu_cpus
 *
 * Build: gcc -static -O2 -pthread sync_rcu_latency.c (bootbench does it: guest.programs). */
#define _GNU_SOURCE
#include "latency_stats.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct options {
	long threads;
	double seconds;
	long count; /* calls per thread; 0: run for `seconds` */
	long bucket_us;
	const char *name;
};

struct worker {
	pthread_t thread;
	uint64_t *samples_us;
	size_t count;
	size_t capacity;
	int error; /* errno of a failed call, 0 when all succeeded */
};

static struct options options = {64, 5.0, 0, 10000, "sync_rcu_us"};
static pthread_barrier_t start_line;
static uint64_t deadline_ns;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int membarrier(int command)
{
	return (int)syscall(__NR_membarrier, command, 0, 0);
}

static void record(struct worker *worker, uint64_t sample_us)
{
	if (worker->count == worker->capacity) {
		worker->capacity = worker->capacity ? worker->capacity * 2 : 1024;
		worker->samples_us = realloc(worker->samples_us,
					     worker->capacity * sizeof worker->samples_us[0]);
		if (!worker->samples_us) {
			fprintf(stderr, "sync_rcu_latency: out of memory\n");
			exit(1);
		}
	}
	worker->samples_us[worker->count++] = sample_us;
}

static void *run_worker(void *argument)
{
	struct worker *worker = argument;
	pthread_barrier_wait(&start_line);
	for (;;) {
		const uint64_t start = now_ns();
		if (options.count ? worker->count >= (size_t)options.count : start >= deadline_ns)
			break;
		if (membarrier(MEMBARRIER_CMD_GLOBAL) != 0) {
			worker->error = errno;
			break;
		}
		record(worker, (now_ns() - start) / 1000);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: sync_rcu_latency [--threads N] [--seconds S] [--count C] "
			"[--bucket-us B] [--name METRIC]\n");
	exit(2);
}

static long positive(const char *text)
{
	char *end = NULL;
	const long value = strtol(text, &end, 10);
	if (!*text || *end || value <= 0)
		usage();
	return value;
}

static void parse(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (!value)
			usage();
		if (!strcmp(argv[i], "--threads"))
			options.threads = positive(value);
		else if (!strcmp(argv[i], "--seconds"))
			options.seconds = (double)positive(value);
		else if (!strcmp(argv[i], "--count"))
			options.count = positive(value);
		else if (!strcmp(argv[i], "--bucket-us"))
			options.bucket_us = positive(value);
		else if (!strcmp(argv[i], "--name"))
			options.name = value;
		else
			usage();
		++i;
	}
}

int main(int argc, char **argv)
{
	parse(argc, argv);
	const int supported = membarrier(MEMBARRIER_CMD_QUERY);
	if (supported < 0 || !(supported & MEMBARRIER_CMD_GLOBAL)) {
		printf("BOOTBENCH-ERROR membarrier(MEMBARRIER_CMD_GLOBAL) unavailable: %s "
		       "(needs CONFIG_MEMBARRIER and no nohz_full CPUs)\n",
		       supported < 0 ? strerror(errno) : "not in MEMBARRIER_CMD_QUERY");
		return 1;
	}
	const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 2)
		printf("sync_rcu_latency: warning: one CPU online, membarrier does not wait for a "
		       "grace period\n");

	struct worker *workers = calloc((size_t)options.threads, sizeof *workers);
	if (!workers || pthread_barrier_init(&start_line, NULL, (unsigned)options.threads + 1))
		return 1;
	for (long i = 0; i < options.threads; ++i) {
		if (pthread_create(&workers[i].thread, NULL, run_worker, &workers[i])) {
			fprintf(stderr, "sync_rcu_latency: cannot start thread %ld\n", i);
			return 1;
		}
	}
	/* The clock starts when every thread is ready, so thread creation is not measured. */
	const uint64_t started = now_ns();
	deadline_ns = started + (uint64_t)(options.seconds * 1e9);
	pthread_barrier_wait(&start_line);

	size_t total = 0;
	for (long i = 0; i < options.threads; ++i) {
		pthread_join(workers[i].thread, NULL);
		total += workers[i].count;
	}
	const double elapsed_s = (double)(now_ns() - started) / 1e9;
	uint64_t *all = malloc((total ? total : 1) * sizeof *all);
	if (!all)
		return 1;
	size_t at = 0;
	int error = 0;
	for (long i = 0; i < options.threads; ++i) {
		memcpy(all + at, workers[i].samples_us, workers[i].count * sizeof *all);
		at += workers[i].count;
		if (workers[i].error)
			error = workers[i].error;
	}
	if (error) {
		printf("BOOTBENCH-ERROR membarrier(MEMBARRIER_CMD_GLOBAL) failed: %s\n",
		       strerror(error));
		return 1;
	}
	latency_sort(all, total);
	latency_print_histogram(stdout, options.name, all, total, (uint64_t)options.bucket_us);
	latency_print_summary(stdout, options.name, all, total, "us");
	printf("BOOTBENCH-METRIC sync_rcu_calls_per_s %.1f 1/s\n", (double)total / elapsed_s);
	printf("BOOTBENCH-METRIC sync_rcu_threads %ld count\n", options.threads);
	printf("BOOTBENCH-METRIC sync_rcu_cpus %ld count\n", cpus);
	return 0;
}
