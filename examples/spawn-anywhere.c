/* Create a child with pidfd_spawnp where the libc and the kernel can,
   and with posix_spawnp and pidfd_open where they cannot, so that one
   binary runs on the series' libc, on upstream glibc 2.39 or later and
   on a stock Debian 12 libc alike.  The series' functions are looked up
   at run time with dlvsym, never called by name: a call by name would
   give the program a need for version GLIBC_2.39 (DEBIAN_PIDFD_FORK_1
   for pidfd_fork), and the dynamic linker would refuse to start it on
   a libc without that version.  With -f it forks a worker instead:
   pidfd_fork, else fork and pidfd_open.  With -c the child goes into
   that cgroup v2: created there where the kernel can do it, moved there
   once it runs where it cannot.  Prints the way it took, the child's
   PID and pidfd, and its exit status.

   Usage: spawn-anywhere [-c CGROUP-DIR] [COMMAND [ARG...]]
	  spawn-anywhere -f [-c CGROUP-DIR]
   Without a command it runs /bin/true.  Exits with status 0 when the
   child was created (with -c, and put into the cgroup) and exited with
   status 0.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The types of the series' functions, written out here instead of
   taken from the headers, so that the program compiles against a
   libc's headers that lack them (a stock Debian 12 libc6-dev).  */
typedef int pidfd_spawnp_function (int *, const char *,
				   const posix_spawn_file_actions_t *,
				   const posix_spawnattr_t *, char *const[],
				   char *const[]);
typedef int setcgroup_function (posix_spawnattr_t *, int);
typedef pid_t pidfd_getpid_function (int);
typedef pid_t pidfd_fork_function (int *, int, unsigned int);

/* The value of glibc 2.39 and of the series.  */
#ifndef POSIX_SPAWN_SETCGROUP
# define POSIX_SPAWN_SETCGROUP 0x100
#endif

/* The child, and how it was created.  */
struct child
{
  pid_t pid;			/* -1 if unknown.  */
  int pidfd;			/* -1 if none.  */
  bool not_moved;		/* Created, but not put into the cgroup.  */
};

/* The function NAME of version node VERSION in the libc the program
   runs on, or NULL.  dlvsym, not dlsym: the type written above is the
   one of that version.  */
static void *
lookup (const char *name, const char *version)
{
  return dlvsym (RTLD_DEFAULT, name, version);
}

/* Move the process PID into the cgroup CGROUP_FD: write its PID to the
   cgroup's cgroup.procs.  Return 0 or an error number.  */
static int
move_to_cgroup (int cgroup_fd, pid_t pid)
{
  int fd = openat (cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  char buf[32];
  int len = snprintf (buf, sizeof buf, "%d\n", (int) pid);
  ssize_t n = write (fd, buf, len);
  int err = n < 0 ? errno : n != len ? EIO : 0;
  close (fd);
  return err;
}

/* Open a pidfd for C->pid, a child that posix_spawnp or fork has just
   created.  Return false if there is none to be had.

   This is the race that pidfd_spawn and pidfd_fork close: pidfd_open
   takes whatever process has the PID now.  Here that is the child as
   long as it has not been reaped: an exited child keeps its PID, as a
   zombie, until its parent waits for it.  But if something else reaps
   it first (SIGCHLD ignored or SA_NOCLDWAIT, a SIGCHLD handler or
   another thread calling waitpid (-1, ...)), its PID may already name
   another process, and so would the pidfd.  The check after
   pidfd_open catches that case (unless another thread creates a child
   meanwhile, which may get the same PID): once the PID is no child of
   ours, the pidfd is not trusted.  */
static bool
open_pidfd (struct child *c)
{
  c->pidfd = pidfd_open (c->pid, 0);
  if (c->pidfd < 0)
    {
      /* Linux before 5.3 (ENOSYS), or the child already reaped by
	 something else (ESRCH): no pidfd, only the PID.  */
      printf ("pidfd_open: %s: no pidfd\n", strerror (errno));
      return false;
    }
  siginfo_t info;
  memset (&info, 0, sizeof info);
  if (waitid (P_PID, c->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    {
      printf ("PID %d is no child of ours any more (%s): its pidfd may"
	      " refer to another process\n", (int) c->pid, strerror (errno));
      close (c->pidfd);
      c->pidfd = -1;
      return false;
    }
  return true;
}

/* Spawn ARGV (a command searched in PATH) into *C, in the cgroup
   CGROUP_FD unless it is -1.  Return false if there is no child.  */
static bool
spawn (char **argv, int cgroup_fd, struct child *c)
{
  pidfd_spawnp_function *pidfd_spawnp_p
    = lookup ("pidfd_spawnp", "GLIBC_2.39");
  /* Of the same version node as pidfd_spawnp: a libc that has one of
     the three has all three.  */
  setcgroup_function *setcgroup_p
    = lookup ("posix_spawnattr_setcgroup_np", "GLIBC_2.39");
  pidfd_getpid_function *pidfd_getpid_p
    = lookup ("pidfd_getpid", "GLIBC_2.39");
  bool move = cgroup_fd >= 0;
  bool fallback = true;

  if (pidfd_spawnp_p != NULL && setcgroup_p != NULL
      && pidfd_getpid_p != NULL)
    {
      posix_spawnattr_t attr;
      posix_spawnattr_init (&attr);
      if (cgroup_fd >= 0)
	{
	  setcgroup_p (&attr, cgroup_fd);
	  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETCGROUP);
	}
      int err = pidfd_spawnp_p (&c->pidfd, argv[0], NULL, &attr, argv,
				environ);
      if (err == ENOTSUP && cgroup_fd >= 0)
	{
	  /* A C library that creates a child in a cgroup only with
	     clone3 answers ENOTSUP where clone3 cannot (this series'
	     moves the child itself there instead); no process was
	     created.  Create the child where this process is, and
	     move it after.  (ENOTSUP is also the answer for a cgroup
	     that cannot hold processes, an invalid domain: the move
	     then fails the same way.)  */
	  printf ("pidfd_spawnp into the cgroup: %s\n", strerror (err));
	  posix_spawnattr_setflags (&attr, 0);
	  err = pidfd_spawnp_p (&c->pidfd, argv[0], NULL, &attr, argv,
				environ);
	}
      else if (err == 0)
	move = false;
      posix_spawnattr_destroy (&attr);
      if (err == 0)
	{
	  fallback = false;
	  c->pid = pidfd_getpid_p (c->pidfd);
	  printf ("pidfd_spawnp: PID %d, pidfd %d%s\n", (int) c->pid,
		  c->pidfd, cgroup_fd >= 0 && !move
		  ? ", created in the cgroup" : "");
	}
      else if (err == ENOSYS)
	/* The kernel gives no pidfd (before Linux 5.4, or qemu-user);
	   no process was created.  */
	printf ("pidfd_spawnp: %s: falling back to posix_spawnp\n",
		strerror (err));
      else
	{
	  fprintf (stderr, "pidfd_spawnp: %s\n", strerror (err));
	  return false;
	}
    }
  else
    printf ("libc %s has no pidfd_spawnp@GLIBC_2.39: falling back to"
	    " posix_spawnp\n", gnu_get_libc_version ());

  if (fallback)
    {
      int err = posix_spawnp (&c->pid, argv[0], NULL, NULL, argv, environ);
      if (err != 0)
	{
	  fprintf (stderr, "posix_spawnp: %s\n", strerror (err));
	  return false;
	}
      if (open_pidfd (c))
	printf ("posix_spawnp and pidfd_open: PID %d, pidfd %d\n",
		(int) c->pid, c->pidfd);
      else
	printf ("posix_spawnp: PID %d\n", (int) c->pid);
    }

  if (move)
    {
      /* The child runs outside the cgroup until it is moved: what it
	 does first, and a process it starts meanwhile, are not in the
	 cgroup.  */
      int err = c->pid > 0 ? move_to_cgroup (cgroup_fd, c->pid) : ESRCH;
      if (err != 0)
	{
	  fprintf (stderr, "cannot move PID %d into the cgroup: %s\n",
		   (int) c->pid, strerror (err));
	  c->not_moved = true;
	}
      else
	printf ("moved PID %d into the cgroup after it started\n",
		(int) c->pid);
    }
  return true;
}

/* The worker of -f: move into the cgroup CGROUP_FD unless it is -1,
   print the cgroup, exit.  */
static void __attribute__ ((noreturn))
worker (int cgroup_fd)
{
  /* Moved by itself, before it does anything else: unlike a spawned
     program, the worker runs no code of its own outside the cgroup.  */
  if (cgroup_fd >= 0)
    {
      int err = move_to_cgroup (cgroup_fd, getpid ());
      if (err != 0)
	{
	  fprintf (stderr, "worker: cannot move into the cgroup: %s\n",
		   strerror (err));
	  _exit (1);
	}
    }
  char *line = NULL;
  size_t size = 0;
  const char *where = "?\n";
  FILE *f = fopen ("/proc/self/cgroup", "r");
  while (f != NULL && getline (&line, &size, f) > 0)
    if (strncmp (line, "0::", 3) == 0)
      where = line + 3;
  printf ("worker %d: cgroup %s", (int) getpid (), where);
  fflush (stdout);
  _exit (0);
}

/* Fork a worker into *C, in the cgroup CGROUP_FD unless it is -1.
   Return false on failure; the worker does not return.  */
static bool
fork_worker (int cgroup_fd, struct child *c)
{
  pidfd_fork_function *pidfd_fork_p
    = lookup ("pidfd_fork", "DEBIAN_PIDFD_FORK_1");
  bool move = cgroup_fd >= 0;
  pid_t pid = -1;

  /* What stdio holds must not be written twice, by parent and child.  */
  fflush (stdout);
  if (pidfd_fork_p != NULL)
    {
      pid = pidfd_fork_p (&c->pidfd, cgroup_fd, 0);
      if (pid < 0 && errno == ENOTSUP && cgroup_fd >= 0)
	{
	  /* No child in a cgroup here (see spawn): the worker moves
	     itself.  */
	  printf ("pidfd_fork into the cgroup: %s\n", strerror (errno));
	  fflush (stdout);
	  pid = pidfd_fork_p (&c->pidfd, -1, 0);
	}
      else if (pid >= 0)
	move = false;
      if (pid == 0)
	worker (move ? cgroup_fd : -1);
      if (pid > 0)
	{
	  c->pid = pid;
	  printf ("pidfd_fork: PID %d, pidfd %d%s\n", (int) pid, c->pidfd,
		  cgroup_fd >= 0 && !move ? ", created in the cgroup" : "");
	  return true;
	}
      if (errno != ENOSYS)
	{
	  perror ("pidfd_fork");
	  return false;
	}
      printf ("pidfd_fork: %s: falling back to fork\n", strerror (errno));
    }
  else
    printf ("libc %s has no pidfd_fork@DEBIAN_PIDFD_FORK_1: falling back"
	    " to fork\n", gnu_get_libc_version ());

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return false;
    }
  if (pid == 0)
    worker (cgroup_fd);
  c->pid = pid;
  if (open_pidfd (c))
    printf ("fork and pidfd_open: PID %d, pidfd %d\n", (int) pid,
	    c->pidfd);
  else
    printf ("fork: PID %d\n", (int) pid);
  return true;
}

/* Wait for the child C to exit.  Return 0, or -1 with errno set.  */
static int
wait_child (const struct child *c, siginfo_t *info)
{
  if (c->pidfd >= 0)
    {
      if (waitid (P_PIDFD, c->pidfd, info, WEXITED) == 0)
	return 0;
      /* Linux 5.3 has pidfd_open, but waitid knows no P_PIDFD
	 (EINVAL; ENOSYS from a seccomp filter).  */
      if ((errno != EINVAL && errno != ENOSYS) || c->pid <= 0)
	return -1;
    }
  return waitid (P_PID, c->pid, info, WEXITED);
}

int
main (int argc, char **argv)
{
  const char *cgroup = NULL;
  bool fork_mode = false;
  int opt;
  /* "+": the options of COMMAND are its own.  */
  while ((opt = getopt (argc, argv, "+c:f")) != -1)
    if (opt == 'c')
      cgroup = optarg;
    else if (opt == 'f')
      fork_mode = true;
    else
      break;
  if (opt != -1 || (fork_mode && optind < argc))
    {
      fprintf (stderr, "usage: %s [-c CGROUP-DIR] [COMMAND [ARG...]]\n"
	       "       %s -f [-c CGROUP-DIR]\n", argv[0], argv[0]);
      return 2;
    }
  char *default_argv[] = { (char *) "/bin/true", NULL };
  char **child_argv = optind < argc ? argv + optind : default_argv;

  /* Line by line, so that nothing is left in the buffer at fork and the
     lines come in order with the child's.  */
  setvbuf (stdout, NULL, _IOLBF, 0);

  int cgroup_fd = -1;
  if (cgroup != NULL
      && (cgroup_fd = open (cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      perror (cgroup);
      return 1;
    }

  struct child c = { .pid = -1, .pidfd = -1, .not_moved = false };
  if (!(fork_mode ? fork_worker (cgroup_fd, &c)
	: spawn (child_argv, cgroup_fd, &c)))
    return 1;
  if (cgroup_fd >= 0)
    close (cgroup_fd);

  siginfo_t info;
  memset (&info, 0, sizeof info);
  if (wait_child (&c, &info) != 0)
    {
      perror ("waitid");
      return 1;
    }
  if (c.pidfd >= 0)
    close (c.pidfd);
  if (info.si_code == CLD_EXITED)
    {
      printf ("child %d exited with status %d\n", (int) info.si_pid,
	      info.si_status);
      return info.si_status == 0 && !c.not_moved ? 0 : 1;
    }
  printf ("child %d was killed by signal %d (%s)\n", (int) info.si_pid,
	  info.si_status, strsignal (info.si_status));
  return 1;
}
