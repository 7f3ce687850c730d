/* A soak of process creation (make soak): for SECONDS seconds, create
   children in every way the series' libc has, from many threads at
   once, and watch the process for anything that grows.

   - Eight worker threads each create children in turn with posix_spawn,
     pidfd_spawn, pidfd_fork (flags 0, PIDFDFORK_ASYNCSAFE,
     PIDFDFORK_NOSIGCHLD and both) and fork.  Every child exits with a
     status its creator chose, and the creator checks what the wait
     reports: waitid (P_PIDFD) where it has a pidfd (with __WALL for a
     child without SIGCHLD), waitpid otherwise.  A spawned child runs
     HELPER (exit-status.c); a forked one exits at once, or first
     spawns HELPER itself (posix_spawn or pidfd_spawn, in the child of
     a fork of this multithreaded process) and exits with its status.
   - A signal thread sends SIGUSR1 every 5 ms, in turn to one worker
     (pthread_kill) and to the process (kill).  Its handler spawns
     HELPER with posix_spawn or pidfd_spawn, waits and checks the
     status: a spawn from a handler that may interrupt a spawn or a fork
     of the same thread.
   - A thread manager creates threads all the time, each of which spawns
     once and exits: joined ones, and up to four detached ones at once,
     so that the spawn stack each thread keeps is released again and
     again.

   Once a second the main thread stops them all where they have no
   child and hold no descriptor of their own (SIGUSR1 blocked), and
   samples the process: its descriptors (/proc/self/fd), memory maps
   (lines of /proc/self/maps and their total size), RSS
   (/proc/self/statm), threads (/proc/self/status) and children (every
   /proc/PID/stat whose parent is this process, zombies counted apart).

   The first tenth of the run, at least 5 and at most 30 samples, is
   warm-up.  The run fails on a wrong exit status or a failed call; on a
   zombie seen by two samples in a row; and on growth: the largest
   value of the last third of the samples after warm-up above the
   largest of the first third, by anything for descriptors, threads and
   children, by more than 16 lines for the maps, and by more than
   1 MiB or 2 %, whichever is more, for the mapped size and the RSS.

   Prints a line a sample (every tenth sample in runs over 300 seconds,
   and every sample that finds a zombie), a line for each failure (the
   first 50), then a summary whose lines run-soak.sh reads: "ops
   METHOD N", "metric NAME first N last N min N max N" (after
   warm-up), "samples N warm-up N" and "verdict PASS" or "verdict FAIL:
   REASONS".  Exits with 0 on PASS, 1 on FAIL, 2 on a usage error.

   Usage: soak SECONDS HELPER  */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 8
#define DETACHED_MAX 4
#define SIGNAL_INTERVAL_NS 5000000L
#define SHORT_THREAD_STACK (128 * 1024)
#define FAILURES_SHOWN 50
#define ZOMBIES_KEPT 64

/* The ways a child is created; the first FIRST_HANDLER are the workers'
   round.  */
enum method
{
  M_POSIX_SPAWN,
  M_PIDFD_SPAWN,
  M_PIDFD_FORK,
  M_PIDFD_FORK_ASYNCSAFE,
  M_PIDFD_FORK_NOSIGCHLD,
  M_PIDFD_FORK_BOTH,
  M_FORK,
  FIRST_HANDLER,
  M_HANDLER_POSIX_SPAWN = FIRST_HANDLER,
  M_HANDLER_PIDFD_SPAWN,
  M_THREAD_POSIX_SPAWN,
  M_THREAD_PIDFD_SPAWN,
  M_CHILD_SPAWN,
  M_COUNT
};

/* The names of the methods, one word each, as the summary prints them.  */
static const char *const method_names[M_COUNT] =
{
  [M_POSIX_SPAWN] = "posix_spawn",
  [M_PIDFD_SPAWN] = "pidfd_spawn",
  [M_PIDFD_FORK] = "pidfd_fork",
  [M_PIDFD_FORK_ASYNCSAFE] = "pidfd_fork_ASYNCSAFE",
  [M_PIDFD_FORK_NOSIGCHLD] = "pidfd_fork_NOSIGCHLD",
  [M_PIDFD_FORK_BOTH] = "pidfd_fork_ASYNCSAFE+NOSIGCHLD",
  [M_FORK] = "fork",
  [M_HANDLER_POSIX_SPAWN] = "handler_posix_spawn",
  [M_HANDLER_PIDFD_SPAWN] = "handler_pidfd_spawn",
  [M_THREAD_POSIX_SPAWN] = "short_thread_posix_spawn",
  [M_THREAD_PIDFD_SPAWN] = "short_thread_pidfd_spawn",
  [M_CHILD_SPAWN] = "spawn_in_forked_child",
};

/* What each sample measures.  */
enum metric
{
  FDS,
  MAPS,
  MAPPED_KIB,
  RSS_KIB,
  THREADS,
  CHILDREN,
  ZOMBIES,
  METRIC_COUNT
};

static const char *const metric_names[METRIC_COUNT] =
{
  [FDS] = "fds", [MAPS] = "maps", [MAPPED_KIB] = "mapped_kib",
  [RSS_KIB] = "rss_kib", [THREADS] = "threads", [CHILDREN] = "children",
  [ZOMBIES] = "zombies",
};

struct sample
{
  unsigned long long value[METRIC_COUNT];
};

static const char *helper;
static unsigned long ops[M_COUNT];
static unsigned long failures;
static int stop;
static unsigned int handler_round;

/* The pause of the threads that create children while main samples:
   PAUSE_WANTED asks for it, PAUSED counts the threads in it, and a new
   GENERATION ends it.  */
static pthread_mutex_t pause_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pause_cond = PTHREAD_COND_INITIALIZER;
static int pause_wanted;
static int paused;
static unsigned long generation;
/* The workers, the signal thread and the thread manager.  */
#define PAUSERS (WORKERS + 2)
/* The threads of the process but the manager's: main and PAUSERS.  */
#define THREADS_STEADY (1 + PAUSERS)

static pthread_t workers[WORKERS];
static int detached_live;

static unsigned long long count_threads (void);

static void
count (enum method m)
{
  __atomic_fetch_add (&ops[m], 1, __ATOMIC_RELAXED);
}

/* Append the decimal digits of N to P; return the end.  Async-signal
   safe, unlike snprintf.  */
static char *
append_number (char *p, long n)
{
  char digits[24];
  int len = 0;
  unsigned long u = n < 0 ? -(unsigned long) n : (unsigned long) n;
  if (n < 0)
    *p++ = '-';
  do
    {
      digits[len++] = '0' + u % 10;
      u /= 10;
    }
  while (u != 0);
  while (len > 0)
    *p++ = digits[--len];
  return p;
}

static char *
append_string (char *p, const char *s)
{
  while (*s != '\0')
    *p++ = *s++;
  return p;
}

/* Count a failure of method M, and print "FAIL: METHOD: WHAT A (B)" if
   it is one of the first ones.  Async-signal-safe.  */
static void
fail (enum method m, const char *what, long a, long b)
{
  unsigned long n = __atomic_fetch_add (&failures, 1, __ATOMIC_RELAXED);
  if (n >= FAILURES_SHOWN)
    return;
  char line[256];
  char *p = append_string (line, "FAIL: ");
  p = append_string (p, method_names[m]);
  p = append_string (p, ": ");
  p = append_string (p, what);
  *p++ = ' ';
  p = append_number (p, a);
  p = append_string (p, " (");
  p = append_number (p, b);
  p = append_string (p, ")\n");
  if (write (STDOUT_FILENO, line, p - line) < 0)
    return;
}

/* Spawn HELPER to exit with STATUS: with pidfd_spawn if PIDFD is not
   NULL, else with posix_spawn into *PID.  Return the spawn's error.  */
static int
spawn_helper (int status, int *pidfd, pid_t *pid)
{
  char arg[8];
  *append_number (arg, status) = '\0';
  char *argv[] = { (char *) helper, arg, NULL };
  if (pidfd != NULL)
    return pidfd_spawn (pidfd, helper, NULL, NULL, argv, environ);
  return posix_spawn (pid, helper, NULL, NULL, argv, environ);
}

/* Wait for the child of PIDFD (with the waitid options EXTRA) into
   *INFO; on failure, errno's value, else 0.  */
static int
wait_pidfd (int pidfd, int extra, siginfo_t *info)
{
  int r;
  do
    r = waitid (P_PIDFD, pidfd, info, WEXITED | extra);
  while (r != 0 && errno == EINTR);
  return r == 0 ? 0 : errno;
}

/* Wait for PID with waitpid; on failure, -1 with errno set, else its
   wait status.  */
static int
wait_pid (pid_t pid)
{
  int status;
  pid_t r;
  do
    r = waitpid (pid, &status, 0);
  while (r < 0 && errno == EINTR);
  return r == pid ? status : -1;
}

/* Check that the wait INFO of the child PID (0: not known) says that
   it exited with STATUS.  */
static void
check_info (enum method m, const siginfo_t *info, pid_t pid, int status)
{
  if (info->si_code != CLD_EXITED)
    fail (m, "child not exited: si_code", info->si_code, info->si_status);
  else if (info->si_status != status)
    fail (m, "exit status", info->si_status, status);
  else if (pid != 0 && info->si_pid != pid)
    fail (m, "si_pid", info->si_pid, pid);
}

static void
check_wait_status (enum method m, int wstatus, int status)
{
  if (wstatus < 0)
    fail (m, "waitpid: errno", errno, 0);
  else if (!WIFEXITED (wstatus))
    fail (m, "child not exited: wait status", wstatus, status);
  else if (WEXITSTATUS (wstatus) != status)
    fail (m, "exit status", WEXITSTATUS (wstatus), status);
}

/* Spawn HELPER with pidfd_spawn (or posix_spawn if not WITH_PIDFD) to
   exit with STATUS, wait for it and check its status; count it as M.
   Async-signal-safe: the signal handler and the child of a fork call
   it.  Return whether the child exited with STATUS.  */
static int
spawn_and_check (enum method m, int with_pidfd, int status)
{
  unsigned long before = __atomic_load_n (&failures, __ATOMIC_RELAXED);
  int pidfd;
  pid_t pid;
  int e = spawn_helper (status, with_pidfd ? &pidfd : NULL, &pid);
  if (e != 0)
    {
      fail (m, "spawn: error", e, 0);
      return 0;
    }
  if (with_pidfd)
    {
      pid = pidfd_getpid (pidfd);
      if (pid <= 0)
	fail (m, "pidfd_getpid: errno", errno, pid);
      siginfo_t info;
      e = wait_pidfd (pidfd, 0, &info);
      if (e != 0)
	fail (m, "waitid P_PIDFD: errno", e, pidfd);
      else
	check_info (m, &info, pid > 0 ? pid : 0, status);
      close (pidfd);
    }
  else
    check_wait_status (m, wait_pid (pid), status);
  count (m);
  return __atomic_load_n (&failures, __ATOMIC_RELAXED) == before;
}

/* The handler of SIGUSR1: spawn a child, wait for it, check it.  */
static void
on_sigusr1 (int sig)
{
  (void) sig;
  int saved = errno;
  unsigned int n = __atomic_fetch_add (&handler_round, 1, __ATOMIC_RELAXED);
  int with_pidfd = n % 2;
  spawn_and_check (with_pidfd ? M_HANDLER_PIDFD_SPAWN : M_HANDLER_POSIX_SPAWN,
		   with_pidfd, (n * 13 + 7) % 256);
  errno = saved;
}

/* In the child of a fork: exit with STATUS at once (HOW 0), or after a
   child of its own, spawned with posix_spawn (1) or pidfd_spawn (2),
   exited with it.  Only async-signal-safe calls: the child of
   PIDFDFORK_ASYNCSAFE runs this too.  */
static void __attribute__ ((noreturn))
forked_child (int how, int status)
{
  if (how == 0)
    _exit (status);
  /* The parent counts these children; this count is this process's.  */
  if (!spawn_and_check (M_CHILD_SPAWN, how == 2, status))
    _exit (status ^ 1);
  _exit (status);
}

/* Create a child by M that exits with STATUS (after a spawn of its own
   if HOW says so, for the forks), wait for it and check the wait.  */
static void
create_one (enum method m, int status, int how)
{
  static const unsigned int fork_flags[FIRST_HANDLER] =
  {
    [M_PIDFD_FORK_ASYNCSAFE] = PIDFDFORK_ASYNCSAFE,
    [M_PIDFD_FORK_NOSIGCHLD] = PIDFDFORK_NOSIGCHLD,
    [M_PIDFD_FORK_BOTH] = PIDFDFORK_ASYNCSAFE | PIDFDFORK_NOSIGCHLD,
  };
  switch (m)
    {
    case M_POSIX_SPAWN:
    case M_PIDFD_SPAWN:
      spawn_and_check (m, m == M_PIDFD_SPAWN, status);
      return;
    case M_FORK:
      {
	pid_t pid = fork ();
	if (pid == 0)
	  forked_child (how, status);
	if (pid < 0)
	  {
	    fail (m, "fork: errno", errno, 0);
	    return;
	  }
	check_wait_status (m, wait_pid (pid), status);
	break;
      }
    case M_PIDFD_FORK:
    case M_PIDFD_FORK_ASYNCSAFE:
    case M_PIDFD_FORK_NOSIGCHLD:
    case M_PIDFD_FORK_BOTH:
      {
	unsigned int flags = fork_flags[m];
	int pidfd = -1;
	pid_t pid = pidfd_fork (&pidfd, -1, flags);
	if (pid == 0)
	  forked_child (how, status);
	if (pid < 0)
	  {
	    fail (m, "pidfd_fork: errno", errno, flags);
	    return;
	  }
	pid_t got = pidfd_getpid (pidfd);
	if (got != pid)
	  fail (m, "pidfd_getpid", got, pid);
	siginfo_t info;
	int e = wait_pidfd (pidfd, flags & PIDFDFORK_NOSIGCHLD ? __WALL : 0,
			    &info);
	if (e != 0)
	  fail (m, "waitid P_PIDFD: errno", e, flags);
	else
	  check_info (m, &info, pid, status);
	close (pidfd);
	break;
      }
    default:
      abort ();
    }
  count (m);
  if (how != 0)
    count (M_CHILD_SPAWN);
}

/* Hold the calling thread while main samples, if it asks for that:
   with SIGUSR1 blocked, so that no handler spawns meanwhile.  */
static void
pause_point (void)
{
  if (!__atomic_load_n (&pause_wanted, __ATOMIC_ACQUIRE))
    return;
  sigset_t usr1, old;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, &old);
  pthread_mutex_lock (&pause_lock);
  unsigned long g = generation;
  if (pause_wanted)
    {
      paused++;
      pthread_cond_broadcast (&pause_cond);
      while (generation == g)
	pthread_cond_wait (&pause_cond, &pause_lock);
    }
  pthread_mutex_unlock (&pause_lock);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
}

static void *
worker (void *arg)
{
  unsigned int index = (unsigned int) (unsigned long) arg;
  for (unsigned int n = 0; !__atomic_load_n (&stop, __ATOMIC_RELAXED); n++)
    {
      pause_point ();
      enum method m = (n + index) % FIRST_HANDLER;
      create_one (m, (n * 31 + index) % 256, (n / FIRST_HANDLER) % 3);
    }
  return NULL;
}

static void *
signal_thread (void *arg)
{
  (void) arg;
  struct timespec interval = { 0, SIGNAL_INTERVAL_NS };
  for (unsigned int n = 0; !__atomic_load_n (&stop, __ATOMIC_RELAXED); n++)
    {
      pause_point ();
      if (n % 2 == 0)
	pthread_kill (workers[(n / 2) % WORKERS], SIGUSR1);
      else
	kill (getpid (), SIGUSR1);
      nanosleep (&interval, NULL);
    }
  return NULL;
}

/* A thread of the manager's: spawn once, and exit.  ARG is 1 for a
   detached thread.  */
static void *
short_thread (void *arg)
{
  static unsigned int round;
  unsigned int n = __atomic_fetch_add (&round, 1, __ATOMIC_RELAXED);
  int with_pidfd = n % 2;
  spawn_and_check (with_pidfd ? M_THREAD_PIDFD_SPAWN : M_THREAD_POSIX_SPAWN,
		   with_pidfd, (n * 7 + 3) % 256);
  if (arg != NULL)
    {
      /* No handler of this thread spawns once main may sample.  */
      sigset_t usr1;
      sigemptyset (&usr1);
      sigaddset (&usr1, SIGUSR1);
      pthread_sigmask (SIG_BLOCK, &usr1, NULL);
      __atomic_fetch_sub (&detached_live, 1, __ATOMIC_RELEASE);
    }
  return NULL;
}

static void
short_sleep (void)
{
  struct timespec t = { 0, 100000 };
  nanosleep (&t, NULL);
}

static void *
thread_manager (void *arg)
{
  (void) arg;
  pthread_attr_t joined, detached;
  pthread_attr_init (&joined);
  pthread_attr_setstacksize (&joined, SHORT_THREAD_STACK);
  pthread_attr_init (&detached);
  pthread_attr_setstacksize (&detached, SHORT_THREAD_STACK);
  pthread_attr_setdetachstate (&detached, PTHREAD_CREATE_DETACHED);
  for (unsigned int n = 0; !__atomic_load_n (&stop, __ATOMIC_RELAXED); n++)
    {
      /* No thread of the manager's is left when it pauses.  */
      if (__atomic_load_n (&pause_wanted, __ATOMIC_ACQUIRE))
	{
	  while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE) != 0)
	    short_sleep ();
	  pause_point ();
	}
      pthread_t t;
      int e;
      if (n % 2 == 0)
	{
	  e = pthread_create (&t, &joined, short_thread, NULL);
	  if (e == 0)
	    pthread_join (t, NULL);
	}
      else
	{
	  /* A detached thread gives its stack back to libc's cache before
	     it ends, and the stack can be used again once the kernel has
	     ended the thread, which the count of threads shows.  Wait for
	     that: otherwise an exiting thread that is slow to end makes
	     libc map one stack more, which stays in the cache (up to its
	     40 MiB), and the maps grow by steps as such delays get
	     longer.  */
	  while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE)
		 >= DETACHED_MAX
		 || count_threads () >= THREADS_STEADY + DETACHED_MAX)
	    short_sleep ();
	  __atomic_fetch_add (&detached_live, 1, __ATOMIC_RELAXED);
	  e = pthread_create (&t, &detached, short_thread, (void *) 1);
	  if (e != 0)
	    __atomic_fetch_sub (&detached_live, 1, __ATOMIC_RELAXED);
	}
      if (e != 0)
	fail (M_THREAD_POSIX_SPAWN, "pthread_create: error", e, 0);
    }
  while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE) != 0)
    short_sleep ();
  pthread_attr_destroy (&joined);
  pthread_attr_destroy (&detached);
  return NULL;
}

/* Stop the threads that create children at their pause points, or
   let them go on.  */
static void
pause_all (void)
{
  pthread_mutex_lock (&pause_lock);
  __atomic_store_n (&pause_wanted, 1, __ATOMIC_RELEASE);
  while (paused < PAUSERS)
    pthread_cond_wait (&pause_cond, &pause_lock);
  pthread_mutex_unlock (&pause_lock);
}

static void
resume_all (void)
{
  pthread_mutex_lock (&pause_lock);
  __atomic_store_n (&pause_wanted, 0, __ATOMIC_RELEASE);
  paused = 0;
  generation++;
  pthread_cond_broadcast (&pause_cond);
  pthread_mutex_unlock (&pause_lock);
}

/* The contents of the file PATH into BUF (SIZE bytes, NUL-terminated);
   its length, or -1 if it cannot be read whole.  */
static long
read_file (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t len = 0;
  ssize_t r;
  while (len < size - 1 && (r = read (fd, buf + len, size - 1 - len)) > 0)
    len += r;
  close (fd);
  buf[len] = '\0';
  return len < size - 1 ? (long) len : -1;
}

/* The descriptors of the process: the entries of /proc/self/fd but
   ".", ".." and the one that reads it.  */
static unsigned long long
count_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  if (d == NULL)
    return 0;
  unsigned long long n = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    n += e->d_name[0] != '.';
  closedir (d);
  return n - 1;
}

static char file_buf[1 << 20];

/* The lines of /proc/self/maps into S, and their total size.  */
static void
count_maps (struct sample *s)
{
  if (read_file ("/proc/self/maps", file_buf, sizeof file_buf) < 0)
    return;
  unsigned long long bytes = 0;
  for (char *p = file_buf; *p != '\0'; )
    {
      char *end;
      unsigned long long start = strtoull (p, &end, 16);
      unsigned long long stop_at = strtoull (end + 1, &end, 16);
      bytes += stop_at - start;
      s->value[MAPS]++;
      p = strchr (end, '\n');
      if (p == NULL)
	break;
      p++;
    }
  s->value[MAPPED_KIB] = bytes / 1024;
}

/* The threads of the process, from /proc/self/status.  */
static unsigned long long
count_threads (void)
{
  char buf[8192];
  if (read_file ("/proc/self/status", buf, sizeof buf) < 0)
    return 0;
  char *p = strstr (buf, "\nThreads:");
  return p == NULL ? 0 : strtoull (p + strlen ("\nThreads:"), NULL, 10);
}

/* The zombies the last sample saw, and whether each was reported.  */
static pid_t zombies_before[ZOMBIES_KEPT];
static int zombies_before_count;
static char zombies_before_reported[ZOMBIES_KEPT];
static unsigned long lasting_zombies;

/* The children of the process, and its zombies, from /proc/PID/stat
   of every process; a zombie that the last sample saw too is counted
   in LASTING_ZOMBIES, once.  */
static void
count_children (struct sample *s)
{
  static pid_t zombies_now[ZOMBIES_KEPT];
  static char reported_now[ZOMBIES_KEPT];
  pid_t self = getpid ();
  int zombies = 0;
  DIR *d = opendir ("/proc");
  if (d == NULL)
    return;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      if (e->d_name[0] < '1' || e->d_name[0] > '9')
	continue;
      char path[300], stat[1024];
      snprintf (path, sizeof path, "/proc/%s/stat", e->d_name);
      if (read_file (path, stat, sizeof stat) < 0)
	continue;
      /* PID (COMM) STATE PPID: COMM may hold anything, ')' too.  */
      char *p = strrchr (stat, ')');
      char state;
      int ppid;
      if (p == NULL || sscanf (p + 1, " %c %d", &state, &ppid) != 2
	  || ppid != self)
	continue;
      s->value[CHILDREN]++;
      if (state != 'Z')
	continue;
      s->value[ZOMBIES]++;
      if (zombies == ZOMBIES_KEPT)
	continue;
      pid_t pid = atoi (e->d_name);
      zombies_now[zombies] = pid;
      reported_now[zombies] = 0;
      for (int i = 0; i < zombies_before_count; i++)
	if (zombies_before[i] == pid)
	  {
	    if (!zombies_before_reported[i])
	      {
		printf ("FAIL: zombie %d outlived a sampling period\n",
			(int) pid);
		lasting_zombies++;
	      }
	    reported_now[zombies] = 1;
	  }
      zombies++;
    }
  closedir (d);
  memcpy (zombies_before, zombies_now, zombies * sizeof *zombies_now);
  memcpy (zombies_before_reported, reported_now, zombies);
  zombies_before_count = zombies;
}

/* Sample the process into S while every thread that creates children
   is paused.  */
static void
take_sample (struct sample *s)
{
  memset (s, 0, sizeof *s);
  pause_all ();
  /* A detached thread that has just returned may still be exiting:
     give it up to a second.  */
  struct timespec ms = { 0, 1000000 };
  for (int i = 0; i < 1000; i++)
    {
      s->value[THREADS] = count_threads ();
      if (s->value[THREADS] <= THREADS_STEADY)
	break;
      nanosleep (&ms, NULL);
    }
  s->value[FDS] = count_fds ();
  count_maps (s);
  long pages = 0;
  char statm[256];
  if (read_file ("/proc/self/statm", statm, sizeof statm) >= 0)
    sscanf (statm, "%*s %ld", &pages);
  s->value[RSS_KIB] = (unsigned long long) pages * (sysconf (_SC_PAGESIZE)
						     / 1024);
  count_children (s);
  resume_all ();
}

static void
print_sample (long seconds, const struct sample *s, unsigned long total)
{
  printf ("%6lds  fds %3llu  maps %4llu  mapped %7llu KiB  rss %6llu KiB"
	  "  threads %2llu  children %llu (%llu zombies)  ops %lu\n",
	  seconds, s->value[FDS], s->value[MAPS], s->value[MAPPED_KIB],
	  s->value[RSS_KIB], s->value[THREADS], s->value[CHILDREN],
	  s->value[ZOMBIES], total);
}

static unsigned long long
max_of (const struct sample *s, int n, enum metric m)
{
  unsigned long long v = 0;
  for (int i = 0; i < n; i++)
    if (s[i].value[m] > v)
      v = s[i].value[m];
  return v;
}

static unsigned long long
min_of (const struct sample *s, int n, enum metric m)
{
  unsigned long long v = s[0].value[m];
  for (int i = 1; i < n; i++)
    if (s[i].value[m] < v)
      v = s[i].value[m];
  return v;
}

/* How much the largest value of metric M in the last third of the
   samples after warm-up may exceed the largest of the first third.  */
static unsigned long long
tolerance (enum metric m, unsigned long long first_max)
{
  unsigned long long two_percent = first_max / 50;
  switch (m)
    {
    case MAPS:
      return 16;
    case MAPPED_KIB:
    case RSS_KIB:
      return two_percent > 1024 ? two_percent : 1024;
    default:
      return 0;
    }
}

/* Why the run failed: "; REASON" for each reason.  */
static char reasons[1024];
static size_t reasons_used;

static void __attribute__ ((format (printf, 1, 2)))
reason (const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  reasons_used += vsnprintf (reasons + reasons_used,
			     sizeof reasons - reasons_used, format, ap);
  va_end (ap);
  if (reasons_used >= sizeof reasons)
    reasons_used = sizeof reasons - 1;
}

/* Print the summary of SAMPLES (N, the first WARMUP of warm-up) and
   the verdict; return whether the run passed.  */
static int
summarize (const struct sample *samples, int n, int warmup)
{
  unsigned long total = 0;
  for (int m = 0; m < M_COUNT; m++)
    {
      printf ("ops %s %lu\n", method_names[m], ops[m]);
      total += ops[m];
    }
  printf ("ops total %lu\n", total);
  printf ("samples %d warm-up %d\n", n, warmup);

  const struct sample *post = samples + warmup;
  int posts = n - warmup;
  int third = posts / 3;
  if (third < 2)
    {
      reason ("; %d samples after warm-up, too few to see a trend", posts);
      third = 0;
    }
  for (int m = 0; m < METRIC_COUNT && posts > 0; m++)
    {
      printf ("metric %s first %llu last %llu min %llu max %llu\n",
	      metric_names[m], post[0].value[m], post[posts - 1].value[m],
	      min_of (post, posts, m), max_of (post, posts, m));
      if (third == 0)
	continue;
      unsigned long long first = max_of (post, third, m);
      unsigned long long last = max_of (post + posts - third, third, m);
      if (last > first + tolerance (m, first))
	reason ("; %s grew from %llu to %llu (tolerance %llu)",
		metric_names[m], first, last, tolerance (m, first));
    }
  if (failures != 0)
    reason ("; %lu wrong exit statuses or failed calls", failures);
  if (lasting_zombies != 0)
    reason ("; %lu zombies outlived a sampling period", lasting_zombies);
  for (int m = 0; m < M_COUNT; m++)
    if (ops[m] == 0)
      reason ("; no %s", method_names[m]);
  if (reasons_used == 0)
    printf ("verdict PASS\n");
  else
    printf ("verdict FAIL: %s\n", reasons + 2);
  return reasons_used == 0;
}

int
main (int argc, char **argv)
{
  long seconds = argc == 3 ? atol (argv[1]) : 0;
  if (seconds < 15)
    {
      fprintf (stderr, "usage: soak SECONDS HELPER (SECONDS at least 15)\n");
      return 2;
    }
  helper = argv[2];
  if (access (helper, X_OK) != 0)
    {
      fprintf (stderr, "soak: %s: %m\n", helper);
      return 2;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  long warmup = seconds / 10;
  warmup = warmup < 5 ? 5 : warmup > 30 ? 30 : warmup;
  int print_every = seconds > 300 ? 10 : 1;

  /* Every page of the samples is touched now: the array does not add
     to the RSS as the run goes on.  */
  struct sample *samples = malloc (seconds * sizeof *samples);
  if (samples == NULL)
    {
      perror ("soak: malloc");
      return 2;
    }
  memset (samples, 0, seconds * sizeof *samples);

  struct sigaction sa = { .sa_handler = on_sigusr1, .sa_flags = SA_RESTART };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  /* Main and the signal thread take no SIGUSR1: the workers and the
     short threads do (they unblock it).  */
  sigset_t usr1;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, NULL);

  printf ("soak: %ld s (%ld of warm-up), %d workers, SIGUSR1 every %ld ms,"
	  " helper %s\n", seconds, warmup, WORKERS,
	  SIGNAL_INTERVAL_NS / 1000000, helper);
  pthread_t signaller, manager;
  int e = pthread_create (&signaller, NULL, signal_thread, NULL);
  pthread_sigmask (SIG_UNBLOCK, &usr1, NULL);
  for (int i = 0; i < WORKERS && e == 0; i++)
    e = pthread_create (&workers[i], NULL, worker, (void *) (unsigned long) i);
  if (e == 0)
    e = pthread_create (&manager, NULL, thread_manager, NULL);
  pthread_sigmask (SIG_BLOCK, &usr1, NULL);
  if (e != 0)
    {
      fprintf (stderr, "soak: pthread_create: %s\n", strerror (e));
      return 2;
    }

  struct timespec next;
  clock_gettime (CLOCK_MONOTONIC, &next);
  int n;
  for (n = 0; n < seconds; n++)
    {
      next.tv_sec++;
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)
	     == EINTR)
	;
      take_sample (&samples[n]);
      unsigned long total = 0;
      for (int m = 0; m < M_COUNT; m++)
	total += __atomic_load_n (&ops[m], __ATOMIC_RELAXED);
      if ((n + 1) % print_every == 0 || samples[n].value[ZOMBIES] != 0
	  || n + 1 == warmup)
	print_sample (n + 1, &samples[n], total);
      if (n + 1 == warmup)
	printf ("warm-up over\n");
    }

  __atomic_store_n (&stop, 1, __ATOMIC_RELAXED);
  pthread_join (signaller, NULL);
  pthread_join (manager, NULL);
  for (int i = 0; i < WORKERS; i++)
    pthread_join (workers[i], NULL);
  return summarize (samples, n, warmup) ? 0 : 1;
}
