/* The interfaces shared with upstream glibc, as an application sees
   them: the values, the layout of posix_spawnattr_t and the symbol
   versions must be those of upstream glibc 2.39, so that binaries move
   between the two.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app-check.h"
#include "pidfd-enosys.h"

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
    { "posix_spawnattr_getcgroup_np", "posix_spawnattr_setcgroup_np",
      "pidfd_spawn", "pidfd_spawnp", "pidfd_getpid" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
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

  /* Declared by <spawn.h> with the upstream prototype.  */
  int (*spawn) (int *restrict, const char *restrict,
		const posix_spawn_file_actions_t *restrict,
		const posix_spawnattr_t *restrict,
		char *const[restrict], char *const[restrict]) = pidfd_spawnp;
  char *argv[] = { (char *) "true", NULL };
  int pidfd = -1;
  siginfo_t info;
  pid_t pid = -1;
  int ret = spawn (&pidfd, "true", NULL, NULL, argv, NULL);
  if (ret == ENOSYS)
    {
      check_pidfd_enosys ("pidfd_spawnp", SIGCHLD);
      return app_status ();
    }
  check (ret == 0
	 && (pid = pidfd_getpid (pidfd)) > 0
	 && waitid (P_PIDFD, pidfd, &info, WEXITED) == 0
	 && info.si_pid == pid
	 && info.si_code == CLD_EXITED && info.si_status == 0
	 && close (pidfd) == 0,
	 "pidfd_spawnp runs true; pidfd_getpid gives its PID");
  return app_status ();
}
