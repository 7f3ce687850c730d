/* Fork a worker with pidfd_fork, optionally straight into a cgroup v2,
   without SIGCHLD: the parent learns of its exit from the pidfd alone.
   The worker, a copy of the parent, prints its cgroup and exits with
   status 5.

   Usage: pidfd-fork [-c CGROUP-DIR]  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  const char *cgroup = NULL;
  int opt;
  while ((opt = getopt (argc, argv, "+c:")) != -1)
    if (opt == 'c')
      cgroup = optarg;
    else
      {
	fprintf (stderr, "usage: %s [-c CGROUP-DIR]\n", argv[0]);
	return 2;
      }
  int cgroup_fd = -1;
  if (cgroup != NULL
      && (cgroup_fd = open (cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      perror (cgroup);
      return 1;
    }

  /* What stdio holds must not be written twice, by parent and child.  */
  fflush (stdout);
  int pidfd;
  pid_t pid = pidfd_fork (&pidfd, cgroup_fd, PIDFDFORK_NOSIGCHLD);
  if (pid < 0)
    {
      perror ("pidfd_fork");
      return 1;
    }
  if (pid == 0)
    {
      /* The worker: a copy of the parent, which may use stdio and
	 malloc as after fork.  */
      char *line = NULL;
      size_t size = 0;
      FILE *f = fopen ("/proc/self/cgroup", "r");
      while (f != NULL && getline (&line, &size, f) > 0)
	if (strncmp (line, "0::", 3) == 0)
	  printf ("worker %d: cgroup %s", (int) getpid (), line + 3);
      fflush (stdout);
      _exit (5);
    }
  if (cgroup_fd >= 0)
    close (cgroup_fd);
  printf ("forked worker: pidfd %d, PID %d (pidfd_getpid %d)\n", pidfd,
	  (int) pid, (int) pidfd_getpid (pidfd));
  fflush (stdout);

  /* The pidfd becomes readable when the worker exits.  No SIGCHLD
     comes, and waiting needs __WALL.  */
  struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
  siginfo_t info;
  if (poll (&pfd, 1, -1) != 1
      || waitid (P_PIDFD, pidfd, &info, WEXITED | __WALL) != 0)
    {
      perror ("waiting for the worker");
      return 1;
    }
  close (pidfd);
  printf ("worker %d exited with status %d\n", (int) info.si_pid,
	  info.si_status);
  return 0;
}
