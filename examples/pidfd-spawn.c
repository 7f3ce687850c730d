/* Spawn a child with pidfd_spawn, optionally straight into a cgroup v2,
   print its PID (pidfd_getpid), wait for it with poll on its pidfd,
   and print its exit status.

   Usage: pidfd-spawn [-c CGROUP-DIR] [COMMAND [ARG...]]
   Without a command it runs: sh -c 'exit 3'.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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
	fprintf (stderr, "usage: %s [-c CGROUP-DIR] [COMMAND [ARG...]]\n",
		 argv[0]);
	return 2;
      }
  char *default_argv[] = { (char *) "sh", (char *) "-c",
			   (char *) "exit 3", NULL };
  char **child_argv = optind < argc ? argv + optind : default_argv;

  posix_spawnattr_t attr;
  posix_spawnattr_init (&attr);
  int cgroup_fd = -1;
  if (cgroup != NULL)
    {
      int fd = cgroup_fd = open (cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
	{
	  perror (cgroup);
	  return 1;
	}
      posix_spawnattr_setcgroup_np (&attr, fd);
      posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETCGROUP);
    }

  int pidfd;
  int err = pidfd_spawnp (&pidfd, child_argv[0], NULL, &attr, child_argv,
			  environ);
  posix_spawnattr_destroy (&attr);
  if (cgroup_fd >= 0)
    close (cgroup_fd);
  if (err != 0)
    {
      fprintf (stderr, "pidfd_spawnp: %s\n", strerror (err));
      return 1;
    }
  printf ("spawned %s%s%s: pidfd %d, PID %d (pidfd_getpid)\n",
	  child_argv[0], cgroup != NULL ? " in " : "",
	  cgroup != NULL ? cgroup : "", pidfd, (int) pidfd_getpid (pidfd));
  fflush (stdout);

  /* The pidfd becomes readable when the child exits.  */
  struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
  if (poll (&pfd, 1, -1) != 1)
    {
      perror ("poll");
      return 1;
    }
  siginfo_t info;
  if (waitid (P_PIDFD, pidfd, &info, WEXITED) != 0)
    {
      perror ("waitid");
      return 1;
    }
  close (pidfd);
  if (info.si_code == CLD_EXITED)
    printf ("child %d exited with status %d\n", (int) info.si_pid,
	    info.si_status);
  else
    printf ("child %d was killed by signal %d\n", (int) info.si_pid,
	    info.si_status);
  return 0;
}
