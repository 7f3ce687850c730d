/* The cgroup spawn interfaces as an application sees them: the values,
   the layout of posix_spawnattr_t and the symbol versions must be those
   of upstream glibc 2.39, so that binaries move between the two.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>

static int failures;

static void
check (int ok, const char *what)
{
  printf ("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

int
main (void)
{
  check (POSIX_SPAWN_SETCGROUP == 0x100, "POSIX_SPAWN_SETCGROUP is 0x100");
  /* Upstream's layout, the same for x86_64 and i686: the size 2.36 had,
     and the cgroup in the first int of 2.36's padding.  */
  check (sizeof (posix_spawnattr_t) == 336, "sizeof (posix_spawnattr_t)");
  check (offsetof (posix_spawnattr_t, __cgroup) == 272,
	 "offset of the cgroup in posix_spawnattr_t");

  static const char *const names[] =
    { "posix_spawnattr_getcgroup_np", "posix_spawnattr_setcgroup_np" };
  for (int i = 0; i < 2; i++)
    check (dlvsym (RTLD_DEFAULT, names[i], "GLIBC_2.39") != NULL, names[i]);

  posix_spawnattr_t attr;
  int fd = -1;
  check (posix_spawnattr_init (&attr) == 0
	 && posix_spawnattr_getcgroup_np (&attr, &fd) == 0 && fd == 0
	 && posix_spawnattr_setcgroup_np (&attr, 7) == 0
	 && posix_spawnattr_getcgroup_np (&attr, &fd) == 0 && fd == 7
	 && posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETCGROUP) == 0,
	 "set, get and the flag");
  posix_spawnattr_destroy (&attr);
  return failures != 0;
}
