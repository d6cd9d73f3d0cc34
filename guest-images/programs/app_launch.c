/* Seed 003's app start-up table, as a synthetic workload that stresses the same lock.
 *
 * An Android app start is a fork from the zygote, an exec-like setup and a burst of threads that
 * map, fault in and unmap memory at once: mmap_lock (an rwsem) sees readers (first faults in new
 * anonymous mappings, madvise, mincore) and writers (mmap, mprotect, munmap) from several CPUs.
 * Reader optimistic spinning (rwsem.opt_rspin) changes how those readers wait for the writers.
 *
 * Each "launch" here forks and execs this program again as the app (--child PROFILE); the app
 * starts its profile's threads. Each thread first loads its share of the profile's shared
 * objects the way ld.so does (below), reads /proc/self/maps once (as runtimes and unwinders do
 * at start-up: the whole read holds mmap_lock for reading), then repeatedly maps, faults,
 * advises, protects and unmaps its profile's mapping size; the launch ends when the app has
 * exited. The time from fork to reaping the child is the launch time:
 *
 *   BOOTBENCH-METRIC launch.<profile> <ms> ms     one value per profile (median of --repeat)
 *
 * With --trace-markers it writes "bootbench-launch <profile> begin" and "... end" around every
 * reported launch to the ftrace marker file, so that a trace taken meanwhile (the workload's
 * mmap_lock wait measurement) can be cut into launches.
 *
 * With --calibrate every launch is bracketed by calibrations, and each profile also reports
 *
 *   BOOTBENCH-METRIC launch_relative.<profile> <ratio> ratio   median of launch / calibration
 *   BOOTBENCH-METRIC calibration_ms <ms> ms                      median calibration of the boot
 *
 * Why: under TCG on a shared host the guest's speed drifts from boot to boot and within a boot
 * (one pilot boot ran every profile, and its own boot, ~1.8x slower than another), and that
 * drift, not the lock, set the spread of the launch times. A calibration runs one
 * single-threaded app per online CPU, each in its own process: the same kind of work on every
 * vCPU, but no mmap_lock is ever shared, so no reader ever waits on a writer and reader spinning
 * cannot change it. Dividing a launch by the mean of the calibrations just before and just after
 * it cancels the drift and keeps what contention does. The workload can check the premise: the
 * calibration must not differ between the arms of a comparison.
 *
 * Loading a shared object (emulated, there is no dynamic linker in the guest): the launcher
 * writes --libs files once (text 96 KiB + data 32 KiB each) into the page cache; an app maps one
 * read+exec over the whole file (mmap_lock for writing), maps the data segment writable and
 * private over its tail (MAP_FIXED: writing), write-protects the first page of it as RELRO
 * (mprotect: writing), reads every text page (file-backed faults served from the page cache)
 * and writes every data page (copy-on-write faults), and keeps the mapping, as apps keep their
 * libraries. Each profile loads as many objects as its threads × 4 (an app with more threads
 * is a bigger app), spread over its threads.
 *
 * Profiles are named after the seed's 15 applications; their sizes grow with the seed's times so
 * that the order roughly matches, not the absolute values. --scale multiplies the rounds (short
 * smoke runs). Build: gcc -static -O2 -pthread app_launch.c (bootbench does it: guest.programs). */
#define _GNU_SOURCE
#include "latency_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct profile {
	const char *name;
	int threads;
	int rounds;   /* map/fault/unmap cycles per thread */
	int map_kib;  /* size of each mapping */
};

/* The seed's apps, in its order (base times 110 ms ... 629 ms on an Exynos). Sized for TCG: one
 * pass over all 15 takes ~15 s in an 8-vCPU arm64 guest on a 2-core host. */
static const struct profile profiles[] = {
	{"helloworld", 2, 4, 64},
	{"amazon_seller", 6, 5, 128},
	{"whatsapp", 5, 5, 128},
	{"simple_pdf_reader", 6, 6, 160},
	{"faceapp", 5, 5, 128},
	{"timestamp_camera_free", 6, 6, 160},
	{"kindle", 8, 6, 192},
	{"coinbase", 4, 5, 112},
	{"firefox", 8, 5, 160},
	{"candy_crush_soda", 8, 6, 192},
	{"hill_climb_racing", 4, 5, 128},
	{"call_recorder", 6, 6, 144},
	{"color_fill_3d", 3, 4, 96},
	{"etoro", 8, 6, 176},
	{"groupme", 4, 5, 128},
};
enum { profile_count = sizeof profiles / sizeof profiles[0] };

/* One thread, so its mmap_lock is never contended; run once per online CPU, in parallel. */
static const struct profile calibration = {"calibration", 1, 5, 128};

struct app {
	const struct profile *profile;
	int rounds;
	long page_size;
	int libs_per_thread;
	int next_thread; /* each thread's index, handed out by app_thread under the lock */
	pthread_mutex_t lock;
};

enum { lib_text_kib = 96, lib_data_kib = 32, libs_per_app_thread = 4, lib_files = 256 };
static const char lib_dir[] = "/tmp/app_launch_libs";

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void touch(char *memory, size_t bytes, long page_size, char value)
{
	for (size_t offset = 0; offset < bytes; offset += (size_t)page_size)
		memory[offset] = value;
}

static void lib_path(char *path, size_t size, int index)
{
	snprintf(path, size, "%s/lib%03d.so", lib_dir, index);
}

/* The launcher's part: the shared objects' files, written once, read from the page cache by
 * every launch after that. */
static int write_lib_files(void)
{
	if (mkdir(lib_dir, 0755) && errno != EEXIST)
		return -1;
	static char content[(lib_text_kib + lib_data_kib) * 1024];
	for (size_t i = 0; i < sizeof content; ++i)
		content[i] = (char)(i * 131);
	for (int index = 0; index < lib_files; ++index) {
		char path[64];
		lib_path(path, sizeof path, index);
		const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, content, sizeof content) != (ssize_t)sizeof content)
			return -1;
		close(fd);
	}
	return 0;
}

/* ld.so's sequence for one object: map it all read+exec, map the data segment writable over
 * its tail, write-protect the RELRO page, fault in the text (reads) and the data (writes). */
static void load_lib(int index, long page_size)
{
	char path[64];
	lib_path(path, sizeof path, index);
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	const size_t text = lib_text_kib * 1024;
	const size_t data = lib_data_kib * 1024;
	char *base = fd < 0 ? MAP_FAILED
			    : mmap(NULL, text + data, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED ||
	    mmap(base + text, data, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
		 (off_t)text) == MAP_FAILED) {
		perror("app_launch: loading a shared object");
		exit(1);
	}
	close(fd);
	mprotect(base + text, (size_t)page_size, PROT_READ);
	volatile char sum = 0;
	for (size_t offset = 0; offset < text; offset += (size_t)page_size)
		sum += base[offset];
	touch(base + text + page_size, data - (size_t)page_size, page_size, sum);
}

/* /proc/self/maps, read to the end: the kernel holds mmap_lock for reading while it walks. */
static void read_own_maps(void)
{
	const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	char buffer[4096];
	while (fd >= 0 && read(fd, buffer, sizeof buffer) > 0)
		;
	if (fd >= 0)
		close(fd);
}

/* One app thread: its shared objects, the maps read, then rounds in which every step takes
 * mmap_lock, for reading or for writing. */
static void *app_thread(void *argument)
{
	struct app *app = argument;
	pthread_mutex_lock(&app->lock);
	const int thread = app->next_thread++;
	pthread_mutex_unlock(&app->lock);
	for (int i = 0; i < app->libs_per_thread; ++i)
		load_lib((thread * app->libs_per_thread + i) % lib_files, app->page_size);
	read_own_maps();
	const size_t bytes = (size_t)app->profile->map_kib * 1024;
	const size_t half = bytes / 2 / (size_t)app->page_size * (size_t)app->page_size;
	unsigned char residency[4096];
	for (int round = 0; round < app->rounds; ++round) {
		/* write: a new VMA */
		char *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				    -1, 0);
		if (memory == MAP_FAILED) {
			perror("app_launch: mmap");
			exit(1);
		}
		/* read: the first fault of a new anonymous VMA sets up its anon_vma under
		 * mmap_lock; later ones mostly take the per-VMA lock */
		touch(memory, bytes, app->page_size, (char)round);
		/* read */
		if (bytes / (size_t)app->page_size <= sizeof residency)
			mincore(memory, bytes, residency);
		/* read: drop half, then fault it back */
		madvise(memory, half, MADV_DONTNEED);
		touch(memory, half, app->page_size, (char)(round + 1));
		/* write: splits the VMA */
		mprotect(memory, half, PROT_READ);
		/* write */
		munmap(memory, bytes);
	}
	return NULL;
}

static const struct profile *find_profile(const char *name)
{
	for (int i = 0; i < profile_count; ++i)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static int run_app(const struct profile *profile, double scale)
{
	struct app app = {profile, (int)(profile->rounds * scale + 0.5), sysconf(_SC_PAGESIZE),
			  libs_per_app_thread, 0, PTHREAD_MUTEX_INITIALIZER};
	if (app.rounds < 1)
		app.rounds = 1;
	pthread_t threads[64];
	const int count = profile->threads < 64 ? profile->threads : 64;
	for (int i = 0; i < count; ++i)
		if (pthread_create(&threads[i], NULL, app_thread, &app)) {
			fprintf(stderr, "app_launch: cannot start thread %d\n", i);
			return 1;
		}
	for (int i = 0; i < count; ++i)
		pthread_join(threads[i], NULL);
	return 0;
}

/* The ftrace marker file when --trace-markers asked for it, else -1. */
static int trace_marker = -1;
/* --calibrate */
static int calibrating;

static void mark_launch(const struct profile *profile, const char *edge)
{
	if (trace_marker < 0)
		return;
	char line[96];
	const int length = snprintf(line, sizeof line, "bootbench-launch %s %s\n", profile->name, edge);
	if (write(trace_marker, line, (size_t)length) != length)
		fprintf(stderr, "app_launch: cannot write the trace marker\n");
}

/* fork + exec of ourselves as the app; its pid, < 0 on failure. */
static pid_t start_app(const char *self, const struct profile *profile, const char *scale)
{
	const pid_t pid = fork();
	if (pid == 0) {
		execl(self, "app_launch", "--child", profile->name, "--scale", scale, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int reap_app(pid_t pid)
{
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			       WEXITSTATUS(status) == 0
		       ? 0
		       : -1;
}

/* Milliseconds from fork until the app has exited, < 0 on failure. */
static double launch(const char *self, const struct profile *profile, const char *scale)
{
	const double start = now_ms();
	if (reap_app(start_app(self, profile, scale)))
		return -1;
	return now_ms() - start;
}

/* Milliseconds until one calibration app per online CPU, started together, have all exited;
 * < 0 on failure. */
static double calibrate(const char *self, const char *scale)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1 || cpus > 64)
		cpus = cpus < 1 ? 1 : 64;
	pid_t pids[64];
	const double start = now_ms();
	for (long i = 0; i < cpus; ++i)
		pids[i] = start_app(self, &calibration, scale);
	int failed = 0;
	for (long i = 0; i < cpus; ++i)
		failed |= reap_app(pids[i]);
	return failed ? -1 : now_ms() - start;
}

/* Every calibration of the boot; the latest one precedes the next launch. */
struct calibrations {
	uint64_t us[profile_count * 100 + 1];
	size_t count;
	double latest_ms;
};

static int calibration_step(const char *self, const char *scale, struct calibrations *done)
{
	const double ms = calibrate(self, scale);
	if (ms <= 0 || done->count >= sizeof done->us / sizeof done->us[0]) {
		printf("BOOTBENCH-ERROR app_launch: a calibration failed\n");
		return -1;
	}
	done->us[done->count++] = (uint64_t)(ms * 1000);
	done->latest_ms = ms;
	return 0;
}

/* "BOOTBENCH-METRIC <name>[.<item>] <median / scale> <unit>"; sorts `values`. */
static void print_median(const char *name, const char *item, uint64_t *values, size_t count,
			 double scale, const char *unit)
{
	latency_sort(values, count);
	const uint64_t median = latency_percentile(values, count, 500);
	printf("BOOTBENCH-METRIC %s%s%s %.6f %s\n", name, *item ? "." : "", item,
	       (double)median / scale, unit);
	fflush(stdout);
}

/* One profile's launches: launch.<profile>, and with calibrations, each launch divided by the
 * mean of the calibrations around it, launch_relative.<profile>. */
static int measure_profile(const char *self, const struct profile *profile, const char *scale,
			   int repeat, struct calibrations *calibrations)
{
	uint64_t times_us[100];
	uint64_t relative_ppm[100];
	for (int r = 0; r < repeat; ++r) {
		const double before_ms = calibrations ? calibrations->latest_ms : 0;
		mark_launch(profile, "begin");
		const double ms = launch(self, profile, scale);
		mark_launch(profile, "end");
		if (ms < 0) {
			printf("BOOTBENCH-ERROR app_launch: launch of %s failed\n", profile->name);
			return -1;
		}
		times_us[r] = (uint64_t)(ms * 1000);
		if (!calibrations)
			continue;
		if (calibration_step(self, scale, calibrations))
			return -1;
		relative_ppm[r] = (uint64_t)(ms / ((before_ms + calibrations->latest_ms) / 2) * 1e6);
	}
	print_median("launch", profile->name, times_us, (size_t)repeat, 1e3, "ms");
	if (calibrations)
		print_median("launch_relative", profile->name, relative_ppm, (size_t)repeat, 1e6,
			     "ratio");
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: app_launch [--scale F] [--repeat N] [--only PROFILE] [--trace-markers] "
			"[--calibrate] [--list]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *scale = "1";
	const char *child = NULL;
	const char *only = NULL;
	int repeat = 1;
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--list")) {
			for (int p = 0; p < profile_count; ++p)
				printf("%s threads=%d rounds=%d map_kib=%d\n", profiles[p].name,
				       profiles[p].threads, profiles[p].rounds, profiles[p].map_kib);
			return 0;
		}
		if (!strcmp(argv[i], "--trace-markers")) {
			trace_marker = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);
			if (trace_marker < 0) {
				printf("BOOTBENCH-ERROR app_launch: --trace-markers: cannot open "
				       "/sys/kernel/tracing/trace_marker (tracefs mounted?)\n");
				return 1;
			}
			continue;
		}
		if (!strcmp(argv[i], "--calibrate")) {
			calibrating = 1;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--scale"))
			scale = argv[++i];
		else if (!strcmp(argv[i], "--repeat"))
			repeat = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only"))
			only = argv[++i];
		else if (!strcmp(argv[i], "--child"))
			child = argv[++i];
		else
			usage();
	}
	const double scale_factor = strtod(scale, NULL);
	if (scale_factor <= 0 || repeat < 1 || repeat > 100)
		usage();
	if (child) {
		const struct profile *profile =
			strcmp(child, calibration.name) ? find_profile(child) : &calibration;
		return profile ? run_app(profile, scale_factor) : 2;
	}
	if (only && !find_profile(only)) {
		fprintf(stderr, "app_launch: no profile %s (see --list)\n", only);
		return 2;
	}

	if (write_lib_files()) {
		printf("BOOTBENCH-ERROR app_launch: cannot write the shared objects' files in %s\n",
		       lib_dir);
		return 1;
	}
	/* /proc/self/exe, not argv[0]: the workload may call us through a relative path. */
	const char *self = "/proc/self/exe";
	/* Warm-up, not reported: the first exec pulls the binary into the page cache. */
	if (launch(self, &profiles[0], "0.1") < 0) {
		printf("BOOTBENCH-ERROR app_launch: the warm-up launch failed\n");
		return 1;
	}
	struct calibrations calibrations = {.count = 0};
	if (calibrating && calibration_step(self, scale, &calibrations))
		return 1;
	for (int p = 0; p < profile_count; ++p) {
		if (only && strcmp(only, profiles[p].name))
			continue;
		if (measure_profile(self, &profiles[p], scale, repeat,
				    calibrating ? &calibrations : NULL))
			return 1;
	}
	if (calibrating)
		print_median("calibration_ms", "", calibrations.us, calibrations.count, 1e3, "ms");
	return 0;
}
