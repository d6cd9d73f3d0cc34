/* Leaves the firmware's variable store full, for seed 000's boot-time setup: the store an
 * earlier boot left behind, which the firmware must reclaim at the next boot.
 *
 * Creates --live distinct non-volatile variables of 4 KiB (they stay: a reclaim copies every
 * live byte, so they set its cost), then rewrites one scratch variable until the firmware
 * answers ENOSPC. Every rewrite leaves a deleted copy behind; at run time the firmware never
 * reclaims, so the store ends with less free space than one more 4 KiB variable needs. edk2
 * counts deleted copies as used space, so at the next boot's ReadyToBoot (ReclaimForOS) the
 * remaining space is below its threshold and the whole store is rewritten through the
 * fault-tolerant-write protocol: thousands of NOR-flash program sequences, each a ROM-device
 * mode switch of qemu's pflash, before the kernel starts.
 *
 * Prints `BOOTBENCH-VARSTORE full live=K rewrites=M` when the store is full, or a
 * BOOTBENCH-ERROR line and exits 1 when a write fails otherwise or the store never fills.
 *
 * Build: gcc -static -O2 efivar_fill.c (bootbench does it: artifacts/varstore_template.cpp). */
#define _GNU_SOURCE
#include "efivar_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
static const uint32_t k_attributes = 0x7;
static const size_t k_data_bytes = 4096;
/* A 256 KiB store holds about 60 such variables: far fewer rewrites than this fill it. */
static const long k_max_rewrites = 1000;
static const long k_max_live = 40;
static const char k_guid[] = "5b0c6c62-1f5e-4c4a-9d6e-3f0b7a5e2d11";

/* Attributes, then data whose first bytes number the write: the firmware skips a write that
 * changes nothing. */
static void fill(unsigned char *buffer, long index)
{
	memcpy(buffer, &k_attributes, sizeof k_attributes);
	memset(buffer + sizeof k_attributes, 'f', k_data_bytes);
	snprintf((char *)buffer + sizeof k_attributes, 16, "%015ld", index);
}

static int create_variable(const char *path, unsigned char *buffer, long index)
{
	fill(buffer, index);
	const int error = set_variable(path, buffer, sizeof k_attributes + k_data_bytes, 1);
	return error ? error : clear_immutable(path);
}

static long parse_live(int argc, char **argv)
{
	char *end = NULL;
	const long live = argc == 3 && strcmp(argv[1], "--live") == 0 ? strtol(argv[2], &end, 10) : -1;
	if (end == NULL || *argv[2] == '\0' || *end != '\0' || live < 0 || live > k_max_live) {
		fprintf(stderr, "usage: efivar_fill --live K   (K distinct 4 KiB variables, 0..%ld)\n",
			k_max_live);
		exit(2);
	}
	return live;
}

int main(int argc, char **argv)
{
	const long live = parse_live(argc, argv);
	unsigned char buffer[sizeof k_attributes + k_data_bytes];
	char path[256];
	for (long i = 0; i < live; ++i) {
		snprintf(path, sizeof path, "/sys/firmware/efi/efivars/BootbenchLive%02ld-%s", i, k_guid);
		const int error = create_variable(path, buffer, i);
		if (error) {
			printf("BOOTBENCH-ERROR efivar_fill: creating live variable %ld of %ld: %s\n", i + 1,
			       live, strerror(error));
			return 1;
		}
	}
	snprintf(path, sizeof path, "/sys/firmware/efi/efivars/BootbenchScratch-%s", k_guid);
	int error = create_variable(path, buffer, 0);
	long rewrites = 0;
	while (!error && rewrites < k_max_rewrites) {
		fill(buffer, ++rewrites);
		error = set_variable(path, buffer, sizeof buffer, 0);
	}
	if (error != ENOSPC) {
		printf("BOOTBENCH-ERROR efivar_fill: the store did not fill (after %ld rewrites: %s)\n",
		       rewrites, error ? strerror(error) : "no error");
		return 1;
	}
	printf("BOOTBENCH-VARSTORE full live=%ld rewrites=%ld\n", live, rewrites - 1);
	return 0;
}
