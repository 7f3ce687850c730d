// The headers of the series declare their functions with C linkage, so
// that a C++ program links against them: <sys/pidfd.h> of 2.36 had no
// __BEGIN_DECLS, and pidfd_open & co. became C++ symbols libc has not.

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app-check.h"
#include "pidfd-enosys.h"

int
main ()
{
  int pidfd = -1;
  pid_t pid = pidfd_fork (&pidfd, -1, 0);
  if (pid == 0)
    _exit (0);
  if (pid < 0 && errno == ENOSYS)
    {
      // It linked: what this test is for.  Running needs pidfds, and
      // an ENOSYS where the kernel gives them is libc's fault.
      check_pidfd_enosys ("pidfd_fork", SIGCHLD);
      return app_status ();
    }
  siginfo_t info;
  bool ok = pid > 0 && pidfd_getpid (pidfd) == pid
	    && pidfd_send_signal (pidfd, 0, nullptr, 0) == 0
	    && waitid (P_PIDFD, pidfd, &info, WEXITED) == 0
	    && close (pidfd) == 0;

  int self = pidfd_open (getpid (), 0);
  ok = ok && self >= 0 && pidfd_getpid (self) == getpid ()
       && close (self) == 0;

  posix_spawnattr_t attr;
  int cgroup = -1;
  char arg0[] = "true";
  char *argv[] = { arg0, nullptr };
  ok = ok && posix_spawnattr_init (&attr) == 0
       && posix_spawnattr_setcgroup_np (&attr, 0) == 0
       && posix_spawnattr_getcgroup_np (&attr, &cgroup) == 0 && cgroup == 0
       && pidfd_spawnp (&pidfd, "true", nullptr, &attr, argv, nullptr) == 0
       && waitid (P_PIDFD, pidfd, &info, WEXITED) == 0
       && info.si_status == 0 && close (pidfd) == 0;
  posix_spawnattr_destroy (&attr);
  check (ok, "the pidfd functions link and work from C++");
  return app_status ();
}
