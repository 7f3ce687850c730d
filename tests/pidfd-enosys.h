/* An ENOSYS from pidfd_spawn or pidfd_fork: libc's answer where the
   kernel cannot create a process with a pidfd and wait for it through
   the pidfd (before Linux 5.4, under qemu-user, behind a seccomp
   filter).  A test skips its check there, and only there: where the
   kernel can, asked directly, the ENOSYS is libc's own fault, and the
   check fails.  C and C++ tests include it.  */

#ifndef PIDFD_ENOSYS_H
#define PIDFD_ENOSYS_H

#ifndef _GNU_SOURCE
# error "pidfd-enosys.h needs _GNU_SOURCE (clone, CLONE_PIDFD)"
#endif

#include <errno.h>
#include <linux/sched.h>	/* struct clone_args.  */
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app-check.h"

/* The child of the probe's clone, given the parent's process ID.  A
   filter's fake 0 from clone has glibc's clone run this in the parent
   itself on some ABIs: that must fail the test, not end it with 0.  */
static int
pidfd_probe_child (void *arg)
{
  if (getpid () == *(pid_t *) arg)
    {
      fputs ("clone returned 0 in the parent, a filter's answer\n", stderr);
      _exit (1);
    }
  _exit (0);
}

/* Whether the kernel creates a process with a pidfd and EXIT_SIGNAL
   (0 for none, as PIDFDFORK_NOSIGCHLD asks), and waits for it through
   the pidfd (waitid (P_PIDFD), Linux 5.4), as pidfd_spawn and
   pidfd_fork need: clone3 with CLONE_PIDFD, then (where clone3 fails)
   clone with CLONE_PIDFD through glibc's clone, which knows each ABI's
   argument order.  The child shares nothing and exits at once.  */
static inline bool
kernel_gives_pidfd (int exit_signal)
{
  /* An inherited SIGCHLD ignored would have the kernel reap the child
     before waitid sees it.  */
  struct sigaction dfl, old;
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset (&dfl.sa_mask);
  sigaction (SIGCHLD, &dfl, &old);

  int pidfd = -1;
  pid_t pid = -1;
  pid_t self = getpid ();
#ifdef SYS_clone3
  struct clone_args args;
  memset (&args, 0, sizeof args);
  args.flags = CLONE_PIDFD;
  args.pidfd = (uintptr_t) &pidfd;
  args.exit_signal = exit_signal;
  pid = syscall (SYS_clone3, &args, sizeof args);
  /* The child, on a copy of the parent's memory: not every ABI returns
     0 there (sparc returns the parent's ID).  */
  if (pid >= 0 && getpid () != self)
    _exit (0);
  /* A 0 in the parent is a filter's fake success: no child.  */
  if (pid == 0)
    pid = -1;
#endif
  if (pid < 0)
    {
      /* A copy of it is the child's stack: no CLONE_VM.  */
      static char stack[64 * 1024] __attribute__ ((aligned (64)));
#ifdef __hppa__
      char *sp = stack;		/* It grows up.  */
#else
      char *sp = stack + sizeof stack;
#endif
      pidfd = -1;
      pid = clone (pidfd_probe_child, sp, CLONE_PIDFD | exit_signal, &self,
		   &pidfd);
    }
  bool waited = false;
  if (pid > 0)
    {
      /* A kernel before Linux 5.2 ignores the flag: no pidfd.  */
      siginfo_t info;
      if (pidfd >= 0)
	{
	  int ret;
	  while ((ret = waitid (P_PIDFD, pidfd, &info, WEXITED | __WALL)) != 0
		 && errno == EINTR)
	    ;
	  waited = ret == 0;
	}
      if (!waited)
	while (waitpid (pid, NULL, __WALL) < 0 && errno == EINTR)
	  ;
      if (pidfd >= 0)
	close (pidfd);
    }
  sigaction (SIGCHLD, &old, NULL);
  return waited;
}

/* WHAT, a request for a pidfd of a child with EXIT_SIGNAL, failed with
   ENOSYS: skipped where the kernel cannot give such a pidfd, a failure
   where it can.  */
static inline void
check_pidfd_enosys (const char *what, int exit_signal)
{
  char line[200];
  if (kernel_gives_pidfd (exit_signal))
    {
      snprintf (line, sizeof line, "%s: ENOSYS, but the kernel gives a"
		" pidfd", what);
      check (0, line);
    }
  else
    skip (what, "ENOSYS: the kernel cannot give a pidfd (before Linux"
	  " 5.4, qemu-user, or a seccomp filter)");
}

#endif
