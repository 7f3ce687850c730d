/* Show which libc this program runs on and which interfaces of the
   pidfd series that libc provides.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <stdio.h>

static const char *const interfaces[] =
  {
    "posix_spawnattr_setcgroup_np",
    "posix_spawnattr_getcgroup_np",
    "pidfd_spawn",
    "pidfd_spawnp",
    "pidfd_getpid",
    "pidfd_fork",
  };

int
main (void)
{
  Dl_info info;
  if (dladdr ((void *) gnu_get_libc_version, &info) == 0)
    info.dli_fname = "(unknown)";
  printf ("libc %s (%s), loaded from %s\n", gnu_get_libc_version (),
	  gnu_get_libc_release (), info.dli_fname);

  for (size_t i = 0; i < sizeof interfaces / sizeof interfaces[0]; i++)
    printf ("  %-30s %s\n", interfaces[i],
	    dlsym (RTLD_DEFAULT, interfaces[i]) != NULL ? "yes" : "no");
  return 0;
}
