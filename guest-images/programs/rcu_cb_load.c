/* Seed 002's busy system, recreated: a background load of RCU callbacks.
 *
 * The seed's default latency (mass at 50-60 ms) is what waking 64 synchronize_rcu() callers
 * through RCU callbacks costs on a small device whose callback invocation runs late: other
 * callbacks are queued ahead of the waiters' wakeme_after_rcu(). This program makes such
 * callbacks the way a busy system does: each thread creates, closes and unlinks files in a
 * directory of its own, and every freed inode and dentry is released by call_rcu()
 * (destroy_inode() -> i_callback, d_free() -> __d_free), about two callbacks per file.
 *
 *   rcu_cb_load --threads N --seconds S [--dir D]
 *   BOOTBENCH-METRIC rcu_cb_load_files_per_s <rate> 1/s     files created and unlinked
 *
 * It stops after --seconds or at SIGTERM, whichever comes first, and prints the rate either way.
 * Build: gcc -static -O2 -pthread rcu_cb_load.c (bootbench does it: guest.programs). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static const char *base_dir = "/tmp/rcu_cb_load";
static double seconds = 5;

struct churner {
	pthread_t thread;
	int index;
	uint64_t files;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stop(int signal_number)
{
	(void)signal_number;
	stopping = 1;
}

static void *churn(void *argument)
{
	struct churner *churner = argument;
	char dir[128];
	char path[160];
	snprintf(dir, sizeof dir, "%s/%d", base_dir, churner->index);
	if (mkdir(dir, 0755) && access(dir, W_OK)) {
		perror("rcu_cb_load: mkdir");
		exit(1);
	}
	const double deadline = now_s() + seconds;
	while (!stopping) {
		/* The clock is read every 64 files: often enough to stop on time. */
		if ((churner->files & 63) == 0 && now_s() >= deadline)
			break;
		snprintf(path, sizeof path, "%s/f%llu", dir, (unsigned long long)(churner->files & 1023));
		const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd) || unlink(path)) {
			perror("rcu_cb_load: create/unlink");
			exit(1);
		}
		++churner->files;
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: rcu_cb_load --threads N --seconds S [--dir D]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long threads = 1;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--threads"))
			threads = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--dir"))
			base_dir = argv[i + 1];
		else
			usage();
	}
	if (argc % 2 == 0 || threads < 1 || threads > 64 || !(seconds > 0))
		usage();
	signal(SIGTERM, stop);
	if (mkdir(base_dir, 0755) && access(base_dir, W_OK)) {
		perror("rcu_cb_load: mkdir");
		return 1;
	}
	struct churner churners[64];
	const double start = now_s();
	for (long i = 0; i < threads; ++i) {
		churners[i] = (struct churner){.index = (int)i};
		if (pthread_create(&churners[i].thread, NULL, churn, &churners[i])) {
			fprintf(stderr, "rcu_cb_load: cannot start thread %ld\n", i);
			return 1;
		}
	}
	uint64_t files = 0;
	for (long i = 0; i < threads; ++i) {
		pthread_join(churners[i].thread, NULL);
		files += churners[i].files;
	}
	printf("BOOTBENCH-METRIC rcu_cb_load_files_per_s %.1f 1/s\n",
	       (double)files / (now_s() - start));
	return 0;
}
