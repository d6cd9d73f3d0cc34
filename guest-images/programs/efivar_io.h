/* efivarfs writes shared by bootbench's guest programs (efivar_storm.c, efivar_fill.c): one
 * write() is one SetVariable() of the firmware, and efivarfs marks a variable it did not know
 * immutable, even one it just created. Header-only: guest programs are single C files. */
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One write() per SetVariable(). Returns 0 or the errno. */
static inline int set_variable(const char *path, const unsigned char *buffer, size_t size, int create)
{
	const int fd = open(path, O_WRONLY | (create ? O_CREAT : 0), 0644);
	if (fd < 0)
		return errno;
	const ssize_t written = write(fd, buffer, size);
	const int error = written == (ssize_t)size ? 0 : (written < 0 ? errno : EIO);
	close(fd);
	return error;
}

static inline int clear_immutable(const char *path)
{
	const int fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	int flags = 0;
	int error = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 ? 0 : errno;
	if (!error && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		error = ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0 ? 0 : errno;
	}
	close(fd);
	return error;
}
