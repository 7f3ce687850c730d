/* Time process creation by one METHOD: ITERATIONS children, each
   executing PROGRAM (a static program that exits at once), created and
   waited for one after the other.  Prints one line:

     MIN-RETURN MEDIAN-RETURN MIN-REAPED MEDIAN-REAPED FAULTS

   the minimum and median time in nanoseconds until the creating call
   returns (with every method but fork, the child has called execve by
   then), and until the child is reaped;
   and the page faults per child, the parent's and the child's before it
   runs PROGRAM (the children's faults minus those of PROGRAM alone,
   measured first).  With RSS-MIB, the parent first fills that much
   memory of its own.

   Usage: spawn-latency METHOD ITERATIONS PROGRAM [RSS-MIB]

   METHOD is one of
     floor          clone (CLONE_VM | CLONE_VFORK | CLONE_PIDFD) on a
		    stack already touched, the child calling execve at once
     floor-nopidfd  the same without CLONE_PIDFD: the floor of the
		    methods that give no pidfd (posix_spawn)
     floor-mmap     the same on a fresh 36 KiB stack mapped and unmapped
		    for each child
     floor-guard    the same with a guard page below the fresh stack
		    (PROT_NONE, one mprotect more)
     vfork          vfork + execve, then pidfd_open
     fork           fork + execve, then pidfd_open
     posix_spawn    posix_spawn of the C library this runs on
     pidfd_spawn    pidfd_spawn of that C library (looked up with dlsym:
		    a C library without it reports "absent")  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

extern char **environ;
static char *child_argv[2];
static char floor_stack[64 * 1024] __attribute__ ((aligned (64)));
enum { FRESH_STACK = 36 * 1024 };

typedef int (*pidfd_spawn_fn) (int *, const char *,
			       const posix_spawn_file_actions_t *,
			       const posix_spawnattr_t *, char *const[],
			       char *const[]);
static pidfd_spawn_fn pidfd_spawn_ptr;

static int
exec_child (void *closure)
{
  (void) closure;
  execve (child_argv[0], child_argv, environ);
  _exit (127);
}

/* Create the child; return a pidfd (or, for posix_spawn, which gives
   none, the negated process ID), or 0 on failure.  */
static int
create (const char *method)
{
  int pidfd = -1;
  pid_t pid;
  if (strcmp (method, "floor") == 0)
    {
      pid = clone (exec_child, floor_stack + sizeof floor_stack,
		   CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, NULL,
		   &pidfd);
      return pid < 0 ? 0 : pidfd;
    }
  if (strcmp (method, "floor-nopidfd") == 0)
    {
      pid = clone (exec_child, floor_stack + sizeof floor_stack,
		   CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
      return pid <= 0 ? 0 : -pid;
    }
  if (strcmp (method, "floor-mmap") == 0)
    {
      char *stack = mmap (NULL, FRESH_STACK, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
      if (stack == MAP_FAILED)
	return 0;
      pid = clone (exec_child, stack + FRESH_STACK,
		   CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, NULL,
		   &pidfd);
      munmap (stack, FRESH_STACK);
      return pid < 0 ? 0 : pidfd;
    }
  if (strcmp (method, "floor-guard") == 0)
    {
      size_t page = sysconf (_SC_PAGESIZE);
      char *map = mmap (NULL, page + FRESH_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
      if (map == MAP_FAILED)
	return 0;
      if (mprotect (map, page, PROT_NONE) != 0)
	{
	  munmap (map, page + FRESH_STACK);
	  return 0;
	}
      pid = clone (exec_child, map + page + FRESH_STACK,
		   CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, NULL,
		   &pidfd);
      munmap (map, page + FRESH_STACK);
      return pid < 0 ? 0 : pidfd;
    }
  if (strcmp (method, "vfork") == 0 || strcmp (method, "fork") == 0)
    {
      pid = method[0] == 'v' ? vfork () : fork ();
      if (pid == 0)
	{
	  execve (child_argv[0], child_argv, environ);
	  _exit (127);
	}
      if (pid < 0)
	return 0;
      pidfd = pidfd_open (pid, 0);
      return pidfd < 0 ? 0 : pidfd;
    }
  if (strcmp (method, "posix_spawn") == 0)
    return posix_spawn (&pid, child_argv[0], NULL, NULL, child_argv,
			environ) != 0 ? 0 : -pid;
  if (pidfd_spawn_ptr (&pidfd, child_argv[0], NULL, NULL, child_argv,
		       environ) != 0)
    return 0;
  return pidfd;
}

/* Create a child with METHOD and reap it; store the nanoseconds until
   the call returned in *RET and until the child was reaped in *REAPED.
   Return 0, or 1 if the child could not be created or failed.  */
static int
create_and_reap (const char *method, long long *ret, long long *reaped)
{
  long long start = now_ns ();
  int id = create (method);
  long long returned = now_ns ();
  siginfo_t info;
  if (id == 0
      || waitid (id > 0 ? P_PIDFD : P_PID, id > 0 ? id : -id, &info,
		 WEXITED) != 0
      || info.si_code != CLD_EXITED || info.si_status != 0)
    return 1;
  long long end = now_ns ();
  if (id > 0)
    close (id);
  *ret = returned - start;
  *reaped = end - start;
  return 0;
}

static long
faults (int who)
{
  struct rusage ru;
  getrusage (who, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

int
main (int argc, char **argv)
{
  static const char *const methods[] =
    { "floor", "floor-nopidfd", "floor-mmap", "floor-guard", "vfork", "fork",
      "posix_spawn", "pidfd_spawn" };
  const char *method = argc >= 4 ? argv[1] : "";
  size_t m = 0;
  while (m < sizeof methods / sizeof methods[0]
	 && strcmp (method, methods[m]) != 0)
    m++;
  if ((argc != 4 && argc != 5) || m == sizeof methods / sizeof methods[0])
    {
      fprintf (stderr, "usage: %s floor|floor-nopidfd|floor-mmap|floor-guard"
	       "|vfork|fork|posix_spawn|pidfd_spawn ITERATIONS PROGRAM"
	       " [RSS-MIB]\n",
	       argv[0]);
      return 2;
    }
  int n = atoi (argv[2]);
  child_argv[0] = argv[3];
  long long *ret = calloc (n, sizeof *ret);
  long long *reaped = calloc (n, sizeof *reaped);
  if (n <= 0 || ret == NULL || reaped == NULL)
    return 2;
  if (strcmp (method, "pidfd_spawn") == 0)
    {
      pidfd_spawn_ptr = (pidfd_spawn_fn) dlsym (RTLD_DEFAULT, "pidfd_spawn");
      if (pidfd_spawn_ptr == NULL)
	{
	  puts ("absent");
	  return 0;
	}
    }
  if (argc == 5)
    {
      size_t rss = (size_t) atol (argv[4]) << 20;
      char *fill = malloc (rss);
      if (rss != 0 && fill == NULL)
	return 2;
      memset (fill, 1, rss);
    }
  memset (floor_stack, 0, sizeof floor_stack);

  /* The faults of PROGRAM alone: a child of vfork, which runs it at
     once on its parent's memory.  */
  long before = faults (RUSAGE_CHILDREN);
  for (int i = 0; i < 20; i++)
    {
      pid_t pid = vfork ();
      if (pid == 0)
	{
	  execve (child_argv[0], child_argv, environ);
	  _exit (127);
	}
      if (pid < 0 || waitpid (pid, NULL, 0) != pid)
	return 1;
    }
  double program_faults = (faults (RUSAGE_CHILDREN) - before) / 20.0;

  /* A few children first, not counted: the first call of a method
     binds its symbols and may set up what later calls keep.  The
     arrays of the results are touched before the count too.  */
  for (int i = 0; i < 3; i++)
    if (create_and_reap (method, &ret[0], &reaped[0]) != 0)
      {
	fprintf (stderr, "%s: child failed\n", method);
	return 1;
      }
  memset (ret, 0, n * sizeof *ret);
  memset (reaped, 0, n * sizeof *reaped);

  long self_before = faults (RUSAGE_SELF);
  long children_before = faults (RUSAGE_CHILDREN);
  for (int i = 0; i < n; i++)
    if (create_and_reap (method, &ret[i], &reaped[i]) != 0)
      {
	fprintf (stderr, "%s: child %d failed\n", method, i);
	return 1;
      }
  double per_child
    = (double) (faults (RUSAGE_SELF) - self_before
		+ faults (RUSAGE_CHILDREN) - children_before) / n
      - program_faults;
  long long min_ret = ret[0], min_reaped = reaped[0];
  for (int i = 1; i < n; i++)
    {
      if (ret[i] < min_ret)
	min_ret = ret[i];
      if (reaped[i] < min_reaped)
	min_reaped = reaped[i];
    }
  printf ("%lld %lld %lld %lld %.2f\n", min_ret, median (ret, n), min_reaped,
	  median (reaped, n), per_child);
  return 0;
}
