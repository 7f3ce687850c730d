/* Time fork-like process creation: the median time, in nanoseconds,
   that the parent spends in the call (the child exits at once; waiting
   for it is not timed).

   Usage: fork-latency MODE ITERATIONS
   MODE: fork; fork+pidfd_open (the racy way to get a pidfd);
   pidfd_fork (with a pidfd, fork's semantics); pidfd_fork-asyncsafe.

   pidfd_fork is looked up at run time, so that the fork mode also runs
   on a libc without it.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

#ifndef PIDFDFORK_ASYNCSAFE
# define PIDFDFORK_ASYNCSAFE (1U << 1)
#endif

static pid_t (*pidfd_fork_fn) (int *, int, unsigned int);

/* Create the child in MODE; store a pidfd in *PIDFD, or -1.  */
static pid_t
create (const char *mode, int *pidfd)
{
  *pidfd = -1;
  if (strcmp (mode, "fork") == 0)
    return fork ();
  if (strcmp (mode, "fork+pidfd_open") == 0)
    {
      pid_t pid = fork ();
      if (pid > 0)
	*pidfd = pidfd_open (pid, 0);
      return pid;
    }
  unsigned int flags = strcmp (mode, "pidfd_fork") == 0
		       ? 0 : PIDFDFORK_ASYNCSAFE;
  return pidfd_fork_fn (pidfd, -1, flags);
}

int
main (int argc, char **argv)
{
  static const char *const modes[] =
    { "fork", "fork+pidfd_open", "pidfd_fork", "pidfd_fork-asyncsafe" };
  int known = 0;
  for (size_t i = 0; argc == 3 && i < sizeof modes / sizeof modes[0]; i++)
    known |= strcmp (argv[1], modes[i]) == 0;
  if (!known)
    {
      fprintf (stderr, "usage: %s fork|fork+pidfd_open|pidfd_fork"
	       "|pidfd_fork-asyncsafe ITERATIONS\n", argv[0]);
      return 2;
    }
  pidfd_fork_fn = dlsym (RTLD_DEFAULT, "pidfd_fork");
  if (strncmp (argv[1], "pidfd_fork", 10) == 0 && pidfd_fork_fn == NULL)
    {
      fprintf (stderr, "this libc has no pidfd_fork\n");
      return 1;
    }
  int n = atoi (argv[2]);
  long long *samples = calloc (n, sizeof *samples);
  if (n <= 0 || samples == NULL)
    return 2;

  for (int i = 0; i < n; i++)
    {
      int pidfd;
      long long start = now_ns ();
      pid_t pid = create (argv[1], &pidfd);
      long long end = now_ns ();
      if (pid == 0)
	_exit (0);
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid
	  || !WIFEXITED (status) || WEXITSTATUS (status) != 0
	  || (strcmp (argv[1], "fork") != 0 && pidfd < 0))
	{
	  fprintf (stderr, "%s: child %d failed\n", argv[1], i);
	  return 1;
	}
      if (pidfd >= 0)
	close (pidfd);
      samples[i] = end - start;
    }
  printf ("%lld\n", median (samples, n));
  return 0;
}
