/* Every way libc creates a thread or a process with clone3, as an
   application on any ABI sees it: pthread_create and posix_spawn through
   the architecture's clone3 wrapper (the thread's call chain must end in
   the child, and the spawn child must reset the signal handlers), a
   posix_spawn child created in a cgroup, pidfd_spawn, and a pidfd_fork
   child created in a cgroup through the clone3 system call.  Where
   clone3 cannot create a child in a cgroup, the library creates it with
   clone and the child moves itself there: the child must be in the
   cgroup either way.

   Run as a program, it needs nothing but the libc; run as /init of an
   initramfs (PID 1, under qemu-system: make check-wrapper), it mounts
   /proc and cgroup2 itself, then also runs every program in /tests
   (glibc's static tests of clone3), and powers the machine off at the
   end.  It prints one line per check, then "clone3-paths: N failed, N
   unsupported", and exits 1 on a failure, 77 if a check was skipped
   (the lines before say why: a kernel without clone3 skips the checks
   of the wrapper), 0 otherwise.  */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>	/* struct clone_args, CLONE_INTO_CGROUP.  */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unwind.h>

#include "app-check.h"
#include "pidfd-enosys.h"

/* The command that runs this program again, with two more arguments:
   what /proc/self/cmdline holds (the loader and its options come first
   when the program runs through the loader), then "--child" and the
   mode.  */
static char *child_argv[32];

static void
make_child_argv (void)
{
  static char cmdline[4096];
  int fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read (fd, cmdline, sizeof cmdline - 1);
  if (fd >= 0)
    close (fd);
  if (n <= 0)
    {
      printf ("FAIL: cannot read /proc/self/cmdline\n");
      exit (1);
    }
  int argc = 0;
  for (char *p = cmdline; p < cmdline + n && argc < 29; p += strlen (p) + 1)
    child_argv[argc++] = p;
  child_argv[argc++] = (char *) "--child";
  child_argv[argc++] = NULL;	/* The mode.  */
  child_argv[argc] = NULL;
}

/* Spawn this program in MODE with ATTR (may be NULL), its standard
   output to OUT if it is not -1; store the pidfd in *PIDFD if PIDFD is
   not NULL (pidfd_spawn), the PID in *PID otherwise (posix_spawn).
   Return the spawn function's result.  */
static int
spawn_self (const char *mode, const posix_spawnattr_t *attr, int out,
	    pid_t *pid, int *pidfd)
{
  int argc = 0;
  while (child_argv[argc] != NULL)
    argc++;
  child_argv[argc] = (char *) mode;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  if (out != -1)
    posix_spawn_file_actions_adddup2 (&fa, out, STDOUT_FILENO);
  int ret = (pidfd != NULL
	     ? pidfd_spawn (pidfd, "/proc/self/exe", &fa, attr, child_argv,
			    NULL)
	     : posix_spawn (pid, "/proc/self/exe", &fa, attr, child_argv,
			    NULL));
  posix_spawn_file_actions_destroy (&fa);
  child_argv[argc] = NULL;
  return ret;
}

/* The cgroup v2 path of the calling process, or NULL.  */
static char *
own_cgroup (void)
{
  static char line[4096];
  FILE *f = fopen ("/proc/self/cgroup", "re");
  char *path = NULL;
  while (f != NULL && path == NULL && fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "0::", 3) == 0)
      {
	line[strcspn (line, "\n")] = '\0';
	path = line + 3;
      }
  if (f != NULL)
    fclose (f);
  return path;
}

/* The children.  */
static int
child (const char *mode)
{
  if (strcmp (mode, "signals") == 0)
    {
      /* The parent catches SIGUSR1 and ignores SIGUSR2.  */
      struct sigaction usr1, usr2;
      return !(sigaction (SIGUSR1, NULL, &usr1) == 0
	       && usr1.sa_handler == SIG_DFL
	       && sigaction (SIGUSR2, NULL, &usr2) == 0
	       && usr2.sa_handler == SIG_IGN);
    }
  if (strcmp (mode, "cgroup") == 0)
    {
      const char *path = own_cgroup ();
      return path == NULL || printf ("%s\n", path) < 0;
    }
  if (strcmp (mode, "exit9") == 0)
    return 9;
  return 2;
}

/* Threads.  Each walks its own call chain: through start_thread down to
   the wrapper's child code, where the unwinder must stop.  */
static _Unwind_Reason_Code
count_frame (struct _Unwind_Context *context, void *closure)
{
  (void) context;
  int *frames = closure;
  return ++*frames < 64 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static void *
thread_func (void *closure)
{
  int frames = 0;
  _Unwind_Backtrace (count_frame, &frames);
  return (void *) (uintptr_t) (frames * 1000 + (uintptr_t) closure);
}

static void
check_threads (void)
{
  pthread_t threads[4];
  int ok = 1;
  for (uintptr_t i = 0; i < 4; i++)
    ok &= pthread_create (&threads[i], NULL, thread_func, (void *) i) == 0;
  for (uintptr_t i = 0; i < 4 && ok; i++)
    {
      void *result;
      ok &= pthread_join (threads[i], &result) == 0;
      uintptr_t frames = (uintptr_t) result / 1000;
      /* The thread's function and start_thread, at least.  On 32-bit
	 ARM the EHABI unwinder stops at start_thread, which glibc
	 compiles without unwind tables: the thread's function alone.  */
#ifdef __ARM_EABI__
      const uintptr_t min_frames = 1;
#else
      const uintptr_t min_frames = 2;
#endif
      ok &= ((uintptr_t) result % 1000 == i && frames >= min_frames
	     && frames < 64);
      if (i == 0)
	printf ("info: a thread's call chain has %d frames\n", (int) frames);
    }
  check (ok, "pthread_create: 4 threads run, their call chains end");
}

static void
handler (int sig)
{
  (void) sig;
}

static void
check_spawn (void)
{
  struct sigaction sa = { .sa_handler = handler };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  signal (SIGUSR2, SIG_IGN);
  pid_t pid;
  int status = -1;
  check (spawn_self ("signals", NULL, -1, &pid, NULL) == 0
	 && waitpid (pid, &status, 0) == pid && status == 0,
	 "posix_spawn: the child has SIGUSR1 default, SIGUSR2 ignored");
  signal (SIGUSR1, SIG_DFL);
  signal (SIGUSR2, SIG_DFL);

  int pidfd = -1;
  siginfo_t info;
  int ret = spawn_self ("exit9", NULL, -1, NULL, &pidfd);
  if (ret == ENOSYS)
    {
      check_pidfd_enosys ("pidfd_spawn", SIGCHLD);
      return;
    }
  check (ret == 0
	 && waitid (P_PIDFD, pidfd, &info, WEXITED) == 0
	 && info.si_code == CLD_EXITED && info.si_status == 9
	 && close (pidfd) == 0,
	 "pidfd_spawn: waitid (P_PIDFD) reports the exit status");
}

/* Where cgroup v2 is mounted with its root, or NULL.  */
static char *
cgroup2_mount (void)
{
  static char line[4096], point[4096];
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  char *mount = NULL;
  while (f != NULL && mount == NULL && fgets (line, sizeof line, f) != NULL)
    {
      char root[4096];
      const char *sep = strstr (line, " - ");
      if (sep != NULL && strncmp (sep, " - cgroup2 ", 11) == 0
	  && sscanf (line, "%*s %*s %*s %4095s %4095s", root, point) == 2
	  && strcmp (root, "/") == 0)
	mount = point;
    }
  if (f != NULL)
    fclose (f);
  return mount;
}

/* The error of the clone3 system call with CLONE_INTO_CGROUP and a
   descriptor that is no cgroup: EBADF where the kernel creates
   processes in a cgroup (from Linux 5.7 on); before, E2BIG or EINVAL,
   or ENOSYS; EPERM (or another error) where a seccomp filter refuses
   clone3, as container runtimes' older profiles do.  */
static int
clone_into_cgroup_error (void)
{
#ifdef SYS_clone3
  int fd = open ("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  struct clone_args args =
    {
      .flags = CLONE_INTO_CGROUP,
      .exit_signal = SIGCHLD,
      .cgroup = fd,
    };
  long int ret = syscall (SYS_clone3, &args, sizeof args);
  int error = errno;
  if (ret == 0)
    _exit (0);
  if (ret > 0)
    {
      waitpid (ret, NULL, 0);
      error = 0;
    }
  close (fd);
  return error;
#else
  return ENOSYS;
#endif
}

/* How the library creates a child in a cgroup here: with clone3, or,
   where clone3 cannot (no clone3 or no CLONE_INTO_CGROUP in the kernel,
   a seccomp filter, no clone3 wrapper for posix_spawn on this ABI),
   with clone, after which the child moves itself into the cgroup.  The
   checks expect the child in the cgroup either way.  */
static void
print_cgroup_way (void)
{
  int probe = clone_into_cgroup_error ();
  if (probe == EBADF)
    printf ("info: cgroup: clone3 creates children in a cgroup\n");
  else
    printf ("info: cgroup: clone3 with CLONE_INTO_CGROUP gives %s: the"
	    " children move themselves into the cgroup\n", strerror (probe));
}

static void
check_cgroup (void)
{
  const char *mount = cgroup2_mount ();
  const char *own = own_cgroup ();
  if (mount == NULL || own == NULL)
    {
      skip ("cgroup", "no cgroup v2 hierarchy");
      return;
    }
  char path[8192], dir[4096 + 8192];
  snprintf (path, sizeof path, "%s/clone3-paths-%d",
	    strcmp (own, "/") == 0 ? "" : own, (int) getpid ());
  snprintf (dir, sizeof dir, "%s%s", mount, path);
  if (mkdir (dir, 0700) != 0)
    {
      printf ("unsupported: cgroup: cannot create %s: %m\n", dir);
      unsupported++;
      return;
    }
  int cgroup = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  print_cgroup_way ();

  /* posix_spawn with POSIX_SPAWN_SETCGROUP: clone3 through the
     wrapper.  */
  posix_spawnattr_t attr;
  posix_spawnattr_init (&attr);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETCGROUP);
  posix_spawnattr_setcgroup_np (&attr, cgroup);
  int fds[2];
  char buf[8192] = "";
  pid_t pid;
  int status = -1;
  int ret = -1;
  if (pipe2 (fds, O_CLOEXEC) == 0)
    {
      ret = spawn_self ("cgroup", &attr, fds[1], &pid, NULL);
      close (fds[1]);
      if (ret != 0)
	printf ("posix_spawn into a cgroup: %s\n", strerror (ret));
      else
	{
	  ssize_t n = read (fds[0], buf, sizeof buf - 1);
	  buf[n > 0 ? n : 0] = '\0';
	  buf[strcspn (buf, "\n")] = '\0';
	  waitpid (pid, &status, 0);
	}
      close (fds[0]);
    }
  check (ret == 0 && status == 0 && strcmp (buf, path) == 0,
	   "posix_spawn: the child starts in the cgroup");
  posix_spawnattr_destroy (&attr);

  /* pidfd_fork into the cgroup: the clone3 system call itself (or clone
     and the move), with no exit signal.  */
  int pidfd = -1;
  pid = pidfd_fork (&pidfd, cgroup, PIDFDFORK_NOSIGCHLD);
  if (pid == 0)
    {
      const char *now = own_cgroup ();
      _exit (now == NULL || strcmp (now, path) != 0);
    }
  int error = errno;
  siginfo_t info;
  if (pid < 0)
    printf ("pidfd_fork into a cgroup: %s\n", strerror (error));
  check (pid > 0
	   && waitid (P_PIDFD, pidfd, &info, WEXITED | __WALL) == 0
	   && info.si_pid == pid
	   && info.si_code == CLD_EXITED && info.si_status == 0
	   && close (pidfd) == 0,
	   "pidfd_fork: the child starts in the cgroup");

  close (cgroup);
  if (rmdir (dir) != 0)
    printf ("warning: cannot remove %s: %m\n", dir);
}

/* Under qemu-system: run each test program of DIR, as glibc's make
   check would (exit status 0: passed, 77: unsupported).  */
static void
run_tests (const char *dir)
{
  struct dirent **names;
  int n = scandir (dir, &names, NULL, alphasort);
  /* No partial runs: "." and ".." and the tests.  */
  check (n > 2, "the glibc tests are in /tests");
  for (int i = 0; i < n; i++)
    {
      if (names[i]->d_name[0] != '.')
	{
	  char path[4096], what[4096];
	  snprintf (path, sizeof path, "%s/%s", dir, names[i]->d_name);
	  snprintf (what, sizeof what, "glibc test %s", names[i]->d_name);
	  char *argv[] = { path, NULL };
	  pid_t pid;
	  int status = -1;
	  if (posix_spawn (&pid, path, NULL, NULL, argv, NULL) == 0)
	    waitpid (pid, &status, 0);
	  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
	    skip (what, "UNSUPPORTED");
	  else
	    check (status == 0, what);
	}
      free (names[i]);
    }
  if (n >= 0)
    free (names);
}

int
main (int argc, char **argv)
{
  if (argc >= 3 && strcmp (argv[argc - 2], "--child") == 0)
    return child (argv[argc - 1]);

  int init = getpid () == 1;
  if (init)
    {
      /* The initramfs holds this program alone.  */
      mkdir ("/proc", 0555);
      mkdir ("/cgroup", 0755);
      mkdir ("/tmp", 01777);
      if (mount ("proc", "/proc", "proc", 0, NULL) != 0)
	printf ("warning: cannot mount /proc: %m\n");
      if (mount ("cgroup2", "/cgroup", "cgroup2", 0, NULL) != 0)
	printf ("warning: cannot mount cgroup2: %m\n");
    }
  setvbuf (stdout, NULL, _IOLBF, 0);

  int status = 0;
  /* clone3 (NULL, 0) is EINVAL where the kernel has clone3.  Some ABIs
     (sparc) have no clone3 at all.  */
  bool have_clone3 = false;
#ifdef SYS_clone3
  have_clone3 = !(syscall (SYS_clone3, NULL, 0) == -1 && errno == ENOSYS);
#endif
  if (!have_clone3)
    skip ("clone3", "ENOSYS: the kernel has none, or a seccomp filter refuses"
	  " it; libc's clone fallback is checked");
  make_child_argv ();
  check_threads ();
  check_spawn ();
  check_cgroup ();
  if (init)
    run_tests ("/tests");
  status = app_status ();
  printf ("clone3-paths: %d failed, %d unsupported\n", failures,
	  unsupported);
  if (init)
    {
      sync ();
      reboot (RB_POWER_OFF);
    }
  return status;
}
