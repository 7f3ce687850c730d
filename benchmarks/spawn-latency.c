/* Time process creation: the median time, in nanoseconds, that the
   parent spends creating a child that executes /bin/true, until the
   call returns (the child has called execve).

   Usage: spawn-latency posix_spawn|clone-vfork ITERATIONS

   clone-vfork is the floor: a bare clone (CLONE_VM | CLONE_VFORK)
   whose child calls execve at once, with nothing else done.  */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

extern char **environ;
static char *child_argv[] = { (char *) "/bin/true", NULL };
static char child_stack[64 * 1024] __attribute__ ((aligned (16)));

static int
exec_child (void *closure)
{
  (void) closure;
  execve (child_argv[0], child_argv, environ);
  _exit (127);
}

static pid_t
create (const char *mode)
{
  pid_t pid;
  if (strcmp (mode, "posix_spawn") == 0)
    {
      if (posix_spawn (&pid, child_argv[0], NULL, NULL, child_argv,
		       environ) != 0)
	return -1;
    }
  else
    pid = clone (exec_child, child_stack + sizeof child_stack,
		 CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  return pid;
}

int
main (int argc, char **argv)
{
  if (argc != 3
      || (strcmp (argv[1], "posix_spawn") != 0
	  && strcmp (argv[1], "clone-vfork") != 0))
    {
      fprintf (stderr, "usage: %s posix_spawn|clone-vfork ITERATIONS\n",
	       argv[0]);
      return 2;
    }
  int n = atoi (argv[2]);
  long long *samples = calloc (n, sizeof *samples);
  if (n <= 0 || samples == NULL)
    return 2;

  for (int i = 0; i < n; i++)
    {
      long long start = now_ns ();
      pid_t pid = create (argv[1]);
      long long end = now_ns ();
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid
	  || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
	{
	  fprintf (stderr, "%s: child %d failed\n", argv[1], i);
	  return 1;
	}
      samples[i] = end - start;
    }
  printf ("%lld\n", median (samples, n));
  return 0;
}
