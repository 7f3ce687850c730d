/* An ENOSYS from pidfd_spawn or pidfd_fork: libc's answer where the
   kernel cannot create a process with a pidfd and wait for it through
   the pidfd (before Linux 5.4, under qemu-user, behind a seccomp
   filter).  A test skips its check there, and only there: where the
   kernel can, asked directly, the ENOSYS is libc's own fault, and the
   check fails.  */

#ifndef PIDFD_ENOSYS_H
#define PIDFD_ENOSYS_H

#include <errno.h>
#include <linux/sched.h>	/* struct clone_args.  */
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app-check.h"

static int
pidfd_probe_child (void *arg)
{
  (void) arg;
  _exit (0);
}

/* Whether the kernel gives a pidfd with a new process and waits for it
   through the pidfd (waitid (P_PIDFD), Linux 5.4), as pidfd_spawn and
   pidfd_fork need: clone3 with CLONE_PIDFD, then (where clone3 fails)
   clone with CLONE_PIDFD through glibc's clone, which knows each ABI's
   argument order.  The child shares nothing and exits at once.  */
static inline bool
kernel_gives_pidfd (void)
{
  int pidfd = -1;
  pid_t pid = -1;
#ifdef SYS_clone3
  struct clone_args args = { .flags = CLONE_PIDFD,
			     .pidfd = (uintptr_t) &pidfd,
			     .exit_signal = SIGCHLD };
  pid = syscall (SYS_clone3, &args, sizeof args);
  if (pid == 0)
    _exit (0);
#endif
  if (pid < 0)
    {
      /* A copy of it is the child's stack: no CLONE_VM.  */
      static char stack[64 * 1024] __attribute__ ((aligned (16)));
#ifdef __hppa__
      char *sp = stack;		/* It grows up.  */
#else
      char *sp = stack + sizeof stack;
#endif
      pidfd = -1;
      pid = clone (pidfd_probe_child, sp, CLONE_PIDFD | SIGCHLD, NULL,
		   &pidfd);
    }
  if (pid < 0)
    return false;
  /* A kernel before Linux 5.2 ignores the flag: no pidfd.  */
  siginfo_t info;
  bool waited = pidfd >= 0 && waitid (P_PIDFD, pidfd, &info, WEXITED) == 0;
  if (!waited)
    waitpid (pid, NULL, 0);
  if (pidfd >= 0)
    close (pidfd);
  return waited;
}

/* WHAT failed with ENOSYS: skipped where the kernel cannot give a
   pidfd, a failure where it can.  */
static inline void
check_pidfd_enosys (const char *what)
{
  if (kernel_gives_pidfd ())
    {
      printf ("%s: ENOSYS, but the kernel gives a pidfd\n", what);
      check (0, what);
    }
  else
    skip (what, "ENOSYS: the kernel cannot give a pidfd (before Linux"
	  " 5.4, qemu-user, or a seccomp filter)");
}

#endif
