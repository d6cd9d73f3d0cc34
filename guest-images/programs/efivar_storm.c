/* Seed 000's host-side load from inside a guest: rewrite one non-volatile EFI variable
 * --writes times through efivarfs, each SetVariable() timed.
 *
 * Every SetVariable() makes the firmware program its NOR-flash variable store; on arm64 each
 * program or erase sequence takes the flash out of ROM-device mode and back, and each switch is
 * a KVM memslot change on the host (a synchronize_srcu_expedited()). A full store is reclaimed:
 * whole blocks erased and rewritten, but only at boot: at run time a write that does not fit
 * fails with ENOSPC (a 4 KiB variable fits about 60 times into the 256 KiB store).
 *
 * Prints BOOTBENCH-MARKER efivar-storm-start / -end around the writes (the host stores the time
 * between them as efivar_storm_seconds), the per-write histogram efivar_write_us and its
 * percentiles, and efivar_storm_writes / _bytes / _failed.
 *
 * The variable is created first, outside the timed phase, and its immutable flag cleared:
 * efivarfs marks every variable it does not know immutable, even one it just created.
 *
 * Build: gcc -static -O2 efivar_storm.c (bootbench does it: guest.programs). */
#define _GNU_SOURCE
#include "efivar_io.h"
#include "latency_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
static const uint32_t k_attributes = 0x7;
/* The firmware's limit for one variable is 8 KiB with its header and name. */
static const long k_max_bytes = 7000;

struct options {
	long writes;
	long bytes;
	long bucket_us;
	const char *path;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void marker(const char *name)
{
	printf("BOOTBENCH-MARKER %s\n", name);
	fflush(stdout);
}

/* Attributes then data whose first bytes count the writes: the firmware skips a write that
 * changes nothing. */
static void fill(unsigned char *buffer, long bytes, long index)
{
	memcpy(buffer, &k_attributes, sizeof k_attributes);
	memset(buffer + sizeof k_attributes, 'b', (size_t)bytes);
	snprintf((char *)buffer + sizeof k_attributes, 16, "%015ld", index);
}

static long number(const char *text, const char *option, long low, long high)
{
	char *end = NULL;
	const long value = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || value < low || value > high) {
		fprintf(stderr, "efivar_storm: %s expects an integer from %ld to %ld, got \"%s\"\n",
			option, low, high, text);
		exit(2);
	}
	return value;
}

static struct options parse(int argc, char **argv)
{
	struct options options = {48, 4096, 10000, NULL};
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : "";
		if (strcmp(arg, "--writes") == 0)
			options.writes = number(value, arg, 1, 1000000);
		else if (strcmp(arg, "--bytes") == 0)
			options.bytes = number(value, arg, 16, k_max_bytes);
		else if (strcmp(arg, "--bucket-us") == 0)
			options.bucket_us = number(value, arg, 1, 100000000);
		else if (strcmp(arg, "--variable") == 0)
			options.path = value;
		else {
			fprintf(stderr, "usage: efivar_storm --variable /sys/firmware/efi/efivars/"
					"NAME-GUID [--writes N] [--bytes B] [--bucket-us W]\n");
			exit(2);
		}
		++i;
	}
	if (options.path == NULL || *options.path == '\0') {
		fprintf(stderr, "efivar_storm: --variable is required\n");
		exit(2);
	}
	return options;
}

int main(int argc, char **argv)
{
	const struct options options = parse(argc, argv);
	const size_t size = sizeof k_attributes + (size_t)options.bytes;
	unsigned char *buffer = malloc(size);
	uint64_t *samples_us = calloc((size_t)options.writes, sizeof *samples_us);
	if (buffer == NULL || samples_us == NULL) {
		fprintf(stderr, "efivar_storm: out of memory\n");
		return 1;
	}
	fill(buffer, options.bytes, -1);
	int error = set_variable(options.path, buffer, size, 1);
	if (!error)
		error = clear_immutable(options.path);
	if (error) {
		printf("BOOTBENCH-ERROR creating %s failed: %s\n", options.path, strerror(error));
		return 1;
	}
	long failed = 0;
	int first_error = 0;
	marker("efivar-storm-start");
	for (long i = 0; i < options.writes; ++i) {
		fill(buffer, options.bytes, i);
		const uint64_t start = now_ns();
		error = set_variable(options.path, buffer, size, 0);
		samples_us[i] = (now_ns() - start) / 1000;
		if (error && !failed++)
			first_error = error;
	}
	marker("efivar-storm-end");
	if (unlink(options.path) != 0)
		printf("efivar_storm: removing %s: %s\n", options.path, strerror(errno));
	latency_sort(samples_us, (size_t)options.writes);
	latency_print_histogram(stdout, "efivar_write_us", samples_us, (size_t)options.writes,
				(uint64_t)options.bucket_us);
	latency_print_summary(stdout, "efivar_write_us", samples_us, (size_t)options.writes, "us");
	printf("BOOTBENCH-METRIC efivar_storm_writes %ld count\n", options.writes);
	printf("BOOTBENCH-METRIC efivar_storm_bytes %ld bytes\n", options.bytes);
	printf("BOOTBENCH-METRIC efivar_storm_failed %ld count\n", failed);
	if (failed) {
		printf("BOOTBENCH-ERROR %ld of %ld variable writes failed, the first with: %s\n", failed,
		       options.writes, strerror(first_error));
		return 1;
	}
	return 0;
}
