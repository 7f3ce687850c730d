/* Time pidfd_getpid on the pidfd of a running child: the median, in
   nanoseconds, over ROUNDS rounds of ITERATIONS calls.

   Usage: pidfd-getpid ioctl|fdinfo ITERATIONS ROUNDS

   fdinfo makes the PIDFD_GET_INFO ioctl fail with ENOTTY through a
   seccomp filter, as on a kernel older than 6.13, so that pidfd_getpid
   reads /proc/self/fdinfo.  (The filter itself costs a few nanoseconds
   per system call.)  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

static void
fail_ioctl (void)
{
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOTTY),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { .len = 4, .filter = filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    {
      perror ("seccomp");
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  if (argc != 4
      || (strcmp (argv[1], "ioctl") != 0 && strcmp (argv[1], "fdinfo") != 0))
    {
      fprintf (stderr, "usage: %s ioctl|fdinfo ITERATIONS ROUNDS\n", argv[0]);
      return 2;
    }
  int n = atoi (argv[2]);
  int rounds = atoi (argv[3]);
  long long *samples = calloc (rounds, sizeof *samples);
  if (n <= 0 || rounds <= 0 || samples == NULL)
    return 2;

  /* A child that lives until its standard input is closed.  */
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) != 0)
    return 1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, fds[0], STDIN_FILENO);
  char *child_argv[] = { (char *) "sh", (char *) "-c", (char *) "read x",
			 NULL };
  int pidfd;
  int err = pidfd_spawn (&pidfd, "/bin/sh", &fa, NULL, child_argv, NULL);
  if (err != 0)
    {
      fprintf (stderr, "pidfd_spawn: %s\n", strerror (err));
      return 1;
    }
  pid_t expected = pidfd_getpid (pidfd);

  if (strcmp (argv[1], "fdinfo") == 0)
    fail_ioctl ();
  for (int r = 0; r < rounds; r++)
    {
      long long start = now_ns ();
      for (int i = 0; i < n; i++)
	if (pidfd_getpid (pidfd) != expected)
	  {
	    perror ("pidfd_getpid");
	    return 1;
	  }
      samples[r] = (now_ns () - start) / n;
    }
  close (fds[1]);
  siginfo_t info;
  waitid (P_PIDFD, pidfd, &info, WEXITED);
  printf ("%lld\n", median (samples, rounds));
  return 0;
}
