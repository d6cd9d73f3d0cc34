/* Seed 002's benchmark: N threads calling synchronize_rcu() back to back, each call timed.
 * --pause-ms P makes each thread sleep P ms after each call instead (sporadic callers: a CPU's
 * lazy RCU callbacks can then pile up between two of its calls; issue 29, seed002-wake-step.md).
 *
 * User space reaches synchronize_rcu() through membarrier(MEMBARRIER_CMD_GLOBAL), which is
 * exactly that call when more than one CPU is online (and the kernel has no nohz_full CPUs).
 * Runs for --seconds or until every thread made --count calls, then prints, in microseconds:
 *
 *   BOOTBENCH-HIST sync_rcu_us <lo> <hi> <count>       one line per non-empty --bucket-us bucket
 *   BOOTBENCH-METRIC sync_rcu_us_{n,p50,p90,p99,max}   nearest-rank, over all calls of all threads
 *   BOOTBENCH-METRIC sync_rcu_calls_per_s, sync_rcu_cpus
 *
 * --calls-file PATH also writes every call as "<start ns> <end ns>" (CLOCK_MONOTONIC, the clock
 * of ftrace's "mono" trace clock), sorted by start: the workload joins them with the grace
 * periods it traced to split each call's latency into its parts (sync-rcu-latency.sh).
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
	const char *calls_file; /* NULL: do not write the calls */
	long pause_ms;		/* sleep after each call; 0: back to back, as the seed ran */
};

struct call {
	uint64_t start_ns;
	uint64_t end_ns;
};

struct worker {
	pthread_t thread;
	uint64_t *samples_us;
	struct call *calls;
	size_t count;
	size_t capacity;
	int error; /* errno of a failed call, 0 when all succeeded */
};

static struct options options = {64, 5.0, 0, 10000, "sync_rcu_us", NULL, 0};
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

static void record(struct worker *worker, uint64_t start_ns, uint64_t end_ns)
{
	if (worker->count == worker->capacity) {
		worker->capacity = worker->capacity ? worker->capacity * 2 : 1024;
		worker->samples_us = realloc(worker->samples_us,
					     worker->capacity * sizeof worker->samples_us[0]);
		worker->calls = realloc(worker->calls, worker->capacity * sizeof worker->calls[0]);
		if (!worker->samples_us || !worker->calls) {
			fprintf(stderr, "sync_rcu_latency: out of memory\n");
			exit(1);
		}
	}
	worker->calls[worker->count] = (struct call){start_ns, end_ns};
	worker->samples_us[worker->count++] = (end_ns - start_ns) / 1000;
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
		record(worker, start, now_ns());
		if (options.pause_ms) {
			const struct timespec pause = {options.pause_ms / 1000,
						       (options.pause_ms % 1000) * 1000000L};
			nanosleep(&pause, NULL);
		}
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: sync_rcu_latency [--threads N] [--seconds S] [--count C] "
			"[--bucket-us B] [--name METRIC] [--calls-file PATH] [--pause-ms P]\n");
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
		else if (!strcmp(argv[i], "--calls-file"))
			options.calls_file = value;
		else if (!strcmp(argv[i], "--pause-ms"))
			options.pause_ms = positive(value);
		else
			usage();
		++i;
	}
}

static int by_start(const void *a, const void *b)
{
	const struct call *x = a, *y = b;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* Every call of every thread, sorted by start. */
static int write_calls(const struct worker *workers, size_t total)
{
	struct call *calls = malloc((total ? total : 1) * sizeof *calls);
	FILE *file = fopen(options.calls_file, "w");
	if (!calls || !file)
		return -1;
	size_t at = 0;
	for (long i = 0; i < options.threads; ++i) {
		memcpy(calls + at, workers[i].calls, workers[i].count * sizeof *calls);
		at += workers[i].count;
	}
	qsort(calls, total, sizeof *calls, by_start);
	for (size_t i = 0; i < total; ++i)
		fprintf(file, "%llu %llu\n", (unsigned long long)calls[i].start_ns,
			(unsigned long long)calls[i].end_ns);
	free(calls);
	return fclose(file);
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
	if (options.calls_file && write_calls(workers, total)) {
		printf("BOOTBENCH-ERROR sync_rcu_latency: cannot write %s: %s\n", options.calls_file,
		       strerror(errno));
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
