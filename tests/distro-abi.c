/* pidfd_fork, the interface upstream glibc does not have, as an
   application sees it: its flag values, and its own symbol version,
   DEBIAN_PIDFD_FORK_1, never an upstream GLIBC_ one.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app-check.h"
#include "pidfd-enosys.h"

int
main (void)
{
  check (PIDFDFORK_ASYNCSAFE == 2u, "PIDFDFORK_ASYNCSAFE is 1U << 1");
  check (PIDFDFORK_NOSIGCHLD == 4u, "PIDFDFORK_NOSIGCHLD is 1U << 2");

  /* The application is linked against the symbol of the distro node.  */
  pid_t (*fork_fn) (int *, int, unsigned int) = pidfd_fork;
  check (dlvsym (RTLD_DEFAULT, "pidfd_fork", "DEBIAN_PIDFD_FORK_1")
	 == (void *) fork_fn, "pidfd_fork@DEBIAN_PIDFD_FORK_1");
  check (dlvsym (RTLD_DEFAULT, "pidfd_fork", "GLIBC_2.39") == NULL,
	 "no pidfd_fork@GLIBC_2.39");

  int pidfd = -1;
  pid_t pid = fork_fn (&pidfd, -1, PIDFDFORK_NOSIGCHLD);
  if (pid == 0)
    _exit (7);
  if (pid < 0 && errno == ENOSYS)
    {
      check_pidfd_enosys ("pidfd_fork", 0);
      return app_status ();
    }
  siginfo_t info;
  check (pid > 0 && pidfd_getpid (pidfd) == pid
	 && waitid (P_PIDFD, pidfd, &info, WEXITED | __WALL) == 0
	 && info.si_pid == pid
	 && info.si_code == CLD_EXITED && info.si_status == 7
	 && close (pidfd) == 0,
	 "pidfd_fork creates a child; waitid (P_PIDFD, __WALL) reaps it");
  return app_status ();
}
