/* Differential fuzzing of posix_spawn (issue 38).  Each case is a
   request drawn from a seed and its number: file actions (open, close,
   dup2, chdir, fchdir, closefrom; valid and invalid, on bad and huge
   descriptors), attributes (setsid, setpgroup, sigmask, sigdefault,
   resetids, schedparam, schedpolicy, a cgroup), arguments and
   environments up to and over the kernel's limit (E2BIG), programs that
   cannot run (missing, mode 0, not executable, a directory, a file on
   the way, a symbolic link loop, a format the kernel does not know), a
   PATH for the p functions, and the state of the caller (its open
   descriptors, its blocked, ignored and caught signals, effective IDs,
   descriptor limit and umask).

   Each case runs through posix_spawn, pidfd_spawn, posix_spawnp and
   pidfd_spawnp, and through a reference: fork, then in the child the
   steps of glibc 2.36's spawni.c by hand, in its order (the cgroup; the
   signal dispositions; the scheduling; setsid; setpgid; the effective
   IDs; the file actions in order; the signal mask; then execve, or
   execvpe's search of PATH), each step's error sent to the parent
   through a close-on-exec pipe.  The program spawned is this one again
   in report mode: it writes what it sees (its descriptors with their
   targets and flags, its directory, process group and session, signal
   dispositions and mask, IDs, scheduling, cgroup, limits, arguments and
   environment) to a file named in its arguments, which it opens after
   it has listed its descriptors.  The error of each call, the child's
   exit status and its report must be the reference's: a difference is
   a failure, printed with the seed and the case that reproduce it
   (--seed S --case K), the case and both outcomes.  After each batch
   of cases, no descriptor, child or zombie may be left in this process.

   Where glibc documents a behaviour of its own, the reference models
   it: a close of a descriptor that is not open fails only outside the
   descriptor limit; the add functions refuse bad descriptors with EBADF
   (addfchdir_np and addchdir_np check nothing in 2.36); an open first
   closes its descriptor and opens with O_LARGEFILE; a dup2 of a
   descriptor to itself clears FD_CLOEXEC; the internal signals
   (SIGCANCEL, SIGSETXID) are ignored in the child unless the sigdefault
   set names them; the PATH search skips an element longer than its
   buffer, and runs no shell for ENOEXEC; a negative cgroup descriptor
   is EINVAL and one that is no cgroup v2 directory EBADF
   (posix_spawnattr_setcgroup_np(3)).  Where no element of PATH was
   tried, the reference says ENOENT.

   Usage: spawn-fuzz [--seed N] [--cases N] [--first K] [--case K]
                     [--verbose]
   With no argument it makes a short run of a fixed seed (make check
   T=app/spawn-fuzz); make fuzz runs it long (scripts/fuzz/run-fuzz.sh).
   Each case depends on the seed and its number alone: --first K starts
   at case K, --case K runs case K alone; --verbose prints every case
   and its outcomes.  It prints one line per check, then the seed, the
   cases run per method and the time, and exits 1 on a failure, 77 if a
   piece could not run (no pidfd from the kernel, no cgroup v2 it can
   write: the lines "unsupported: " say why), 0 otherwise.  As root it
   runs every kind of case; otherwise the effective IDs are not varied.
   It must run on the libc it was built against (through testrun.sh).  */

#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app-check.h"
#include "pidfd-enosys.h"

#ifndef CGROUP2_SUPER_MAGIC
# define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* The short run of make check.  */
#define DEFAULT_SEED 38ULL
#define DEFAULT_CASES 120L
/* Cases between two checks for leaks.  */
#define BATCH 25
/* Seconds a case may take.  */
#define CASE_LIMIT 60
/* The failures printed in full; after them, one line each.  */
#define FULL_REPORTS 5
#define SHORT_REPORTS 200

/* glibc's internal signals.  */
#define SIG_CANCEL __SIGRTMIN
#define SIG_SETXID (__SIGRTMIN + 1)

/* Descriptors of this program's own (close-on-exec), where the cases
   may name them.  */
enum
{
  FD_CG_A = 200,	/* D/a, a cgroup that takes children.  */
  FD_CG_OWN,		/* The cgroup this program runs in.  */
  FD_CG_GONE,		/* A cgroup removed since it was opened.  */
  FD_CG_THREADED,	/* A threaded cgroup.  */
  FD_CG_INVALID,	/* A domain that a threaded sibling made invalid.  */
  FD_CG_V1,		/* A directory of a cgroup v1 hierarchy, or /sys.  */
  FD_CG_PROCS,		/* D/a/cgroup.procs, a file of a cgroup.  */
  FD_CG_OPATH,		/* D/a, opened with O_PATH.  */
  FD_HELPER = 210,	/* Keeps the helper process alive.  */
  FD_OUTPUT,		/* This program's output.  */
};

/* Utilities.  */

static void *
xmalloc (size_t n)
{
  void *p = malloc (n == 0 ? 1 : n);
  if (p == NULL)
    {
      printf ("FAIL: out of memory\n");
      exit (1);
    }
  return p;
}

static char *
xstrdup (const char *s)
{
  size_t n = strlen (s) + 1;
  return memcpy (xmalloc (n), s, n);
}

static void __attribute__ ((noreturn, format (printf, 1, 2)))
fatal (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  printf ("FAIL: ");
  vprintf (fmt, ap);
  printf ("\n");
  va_end (ap);
  exit (1);
}

/* A growing string.  */
struct buf
{
  char *p;
  size_t len, cap;
};

static void __attribute__ ((format (printf, 2, 3)))
buf_printf (struct buf *b, const char *fmt, ...)
{
  if (b->cap == 0)
    {
      b->cap = 1024;
      b->p = xmalloc (b->cap);
      b->p[0] = '\0';
    }
  for (;;)
    {
      va_list ap;
      va_start (ap, fmt);
      size_t room = b->cap - b->len;
      int n = vsnprintf (b->p + b->len, room, fmt, ap);
      va_end (ap);
      if (n < 0)
	return;
      if ((size_t) n < room)
	{
	  b->len += n;
	  return;
	}
      b->cap = 2 * (b->cap + n);
      b->p = realloc (b->p, b->cap);
      if (b->p == NULL)
	fatal ("out of memory");
    }
}

/* Read the whole file PATH into a string, its size in *SIZE if SIZE is
   not NULL, or return NULL.  */
static char *
read_file (const char *path, size_t *size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct buf b = { 0 };
  buf_printf (&b, "%s", "");
  for (;;)
    {
      if (b.cap - b.len < 4096)
	{
	  b.cap *= 2;
	  b.p = realloc (b.p, b.cap);
	  if (b.p == NULL)
	    fatal ("out of memory");
	}
      ssize_t n = read (fd, b.p + b.len, b.cap - b.len - 1);
      if (n < 0 && errno == EINTR)
	continue;
      if (n <= 0)
	break;
      b.len += n;
    }
  b.p[b.len] = '\0';
  close (fd);
  if (size != NULL)
    *size = b.len;
  return b.p;
}

static void
write_file (const char *path, const char *text, mode_t mode)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || write (fd, text, strlen (text)) != (ssize_t) strlen (text)
      || fchmod (fd, mode) != 0 || close (fd) != 0)
    fatal ("cannot write %s: %m", path);
}

/* An error number's name.  */
static const char *
errname (int e)
{
  static char num[32];
  if (e == 0)
    return "0";
  const char *name = strerrorname_np (e);
  if (name != NULL)
    return name;
  snprintf (num, sizeof num, "error %d", e);
  return num;
}

/* Move FD to TARGET, close-on-exec if CLOEXEC.  */
static void
place_fd (int fd, int target, bool cloexec)
{
  if (fd < 0)
    fatal ("cannot open a descriptor for %d: %m", target);
  if (fd == target)
    {
      if (fcntl (fd, F_SETFD, cloexec ? FD_CLOEXEC : 0) != 0)
	fatal ("fcntl (%d): %m", fd);
      return;
    }
  if (dup3 (fd, target, cloexec ? O_CLOEXEC : 0) != target)
    fatal ("dup3 (%d, %d): %m", fd, target);
  close (fd);
}

static pid_t
wait_pid (pid_t pid, int *status)
{
  pid_t ret;
  while ((ret = waitpid (pid, status, __WALL)) < 0 && errno == EINTR)
    ;
  return ret;
}

/* A seeded generator: splitmix64.  */
struct rng
{
  uint64_t s;
};

static uint64_t
rng_next (struct rng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A number below N.  */
static unsigned int
rnd (struct rng *r, unsigned int n)
{
  return n == 0 ? 0 : (unsigned int) ((rng_next (r) >> 33) % n);
}

static bool
chance (struct rng *r, unsigned int percent)
{
  return rnd (r, 100) < percent;
}

/* An index of WEIGHTS, N of them, drawn by weight.  */
static int
pick (struct rng *r, const unsigned char *weights, int n)
{
  unsigned int sum = 0;
  for (int i = 0; i < n; i++)
    sum += weights[i];
  unsigned int x = rnd (r, sum);
  for (int i = 0; i < n; i++)
    {
      if (x < weights[i])
	return i;
      x -= weights[i];
    }
  return n - 1;
}

#define PICK(r, weights) pick (r, weights, (int) sizeof (weights))

/* The world the cases run in, made once.  */

/* The strings the cases pick from, with prefixes: "@" is the scratch
   directory's, "^" the base directory's; "$exe" is this program's
   executable (the dynamic loader, run through testrun.sh), "%name" a
   file name longer than NAME_MAX, "%path" a path longer than PATH_MAX,
   "%elem" a PATH element longer than PATH_MAX that names bin-ok.  */

/* Files that open and chdir name.  */
static const char *const file_spec[] =
  {
    "f0", "f1", "ro", "m0", "d", "d/f2", "dnx", "nx", "d/nx", "f0/x",
    "ln-f0", "ln-loop", "ln-d", ".", "", "/dev/null", "/proc/self/fd",
    "@f0", "@d", "@nx", "%name", "%path",
  };
static const unsigned char file_weights[] =
  {
    14, 8, 4, 3, 6, 3, 3, 8, 2, 2,
    2, 2, 2, 3, 1, 4, 1,
    3, 2, 2, 1, 1,
  };

/* The program of posix_spawn and pidfd_spawn.  */
static const char *const path_spec[] =
  {
    "$exe", "/proc/self/exe", "prog", "d/prog", "ln-d/prog", "dnx/prog",
    "^x100", "^x111", "^m000", "^noexec", "^garbage", "^script",
    "^badinterp", "d", "nx", "f0/x", "ln-loop", "", "%path", "sfz",
    "^bin-dir/sfz",
  };
static const unsigned char path_weights[] =
  {
    90, 6, 8, 5, 2, 3,
    6, 6, 3, 3, 3, 2,
    2, 2, 3, 2, 2, 1, 1, 2,
    1,
  };

/* The file of posix_spawnp and pidfd_spawnp.  */
static const char *const file_name_spec[] =
  {
    "sfz", "sfz-none", "", "./prog", "$exe", "d/sfz", "%name", "%name255",
    "prog",
  };
static const unsigned char file_name_weights[] =
  {
    100, 6, 2, 4, 4, 3, 3, 2, 4,
  };

/* The elements of PATH.  */
static const char *const path_elem_spec[] =
  {
    "^bin-ok", "^bin-noexec", "^bin-garbage", "^bin-dir", "^bin-m0",
    "^bin-x100", "^missing", "^noexec", "", ".", "d", "%elem",
  };
static const unsigned char path_elem_weights[] =
  {
    30, 6, 5, 5, 5, 5, 6, 5, 4, 3, 4, 3,
  };

#define N_FILE (sizeof file_spec / sizeof file_spec[0])
#define N_PATH (sizeof path_spec / sizeof path_spec[0])
#define N_FILE_NAME (sizeof file_name_spec / sizeof file_name_spec[0])
#define N_PATH_ELEM (sizeof path_elem_spec / sizeof path_elem_spec[0])

/* The signals whose state in the caller the cases vary.  */
#define MAX_SIGS 32

static struct
{
  char base[64];		/* /tmp/spawn-fuzz.XXXXXX */
  char scratch[128];		/* base/s: the current directory.  */
  char report[128];		/* base/report: the children's report.  */
  char exe[PATH_MAX];		/* realpath (/proc/self/exe).  */
  char **prefix;		/* The command up to this program.  */
  int nprefix;
  char helper_pgid[24];
  char *file[N_FILE], *path[N_PATH], *file_name[N_FILE_NAME];
  char *path_elem[N_PATH_ELEM];
  long open_max;		/* The descriptor limit.  */
  int reserved;			/* The reference's pipe: no case names it.  */
  pid_t pid, pgid, helper;
  uid_t euid;
  gid_t egid;
  bool ids, pidfd, cgroup, threaded;
  char cg_dir[PATH_MAX + 64];	/* D: the cgroup this program made.  */
  char cg_own[PATH_MAX];	/* The cgroup it runs in.  */
  unsigned long long arg_limit;	/* The kernel's limit of execve.  */
  size_t ptr_size;		/* The kernel's pointer.  */
  long page;
  char *saved_path;		/* PATH at the start, or NULL.  */
  int sigs[MAX_SIGS];
  int nsigs;
  sigset_t mask;
  struct sigaction act[MAX_SIGS];
  char *fds;			/* This process's descriptors at the start.  */
  bool scratch_dirty;
} w;

static char *
expand (const char *spec)
{
  struct buf b = { 0 };
  if (spec[0] == '@')
    buf_printf (&b, "%s/%s", w.scratch, spec + 1);
  else if (spec[0] == '^')
    buf_printf (&b, "%s/%s", w.base, spec + 1);
  else if (strcmp (spec, "$exe") == 0)
    buf_printf (&b, "%s", w.exe);
  else if (strcmp (spec, "%name") == 0)
    buf_printf (&b, "%0*d", NAME_MAX + 1, 0);
  else if (strcmp (spec, "%name255") == 0)
    buf_printf (&b, "%0*d", NAME_MAX, 0);
  else if (strcmp (spec, "%path") == 0)
    for (int i = 0; i < PATH_MAX / 2 + 8; i++)
      buf_printf (&b, "d/");
  else if (strcmp (spec, "%elem") == 0)
    buf_printf (&b, "%*s%s/bin-ok", PATH_MAX + 8, "/", w.base);
  else
    buf_printf (&b, "%s", spec);
  if (strcmp (spec, "%elem") == 0)
    memset (b.p, '/', PATH_MAX + 8);
  return b.p;
}

/* A copy of the executable, of MODE.  */
static void
copy_exe (const char *to, mode_t mode)
{
  int in = open (w.exe, O_RDONLY | O_CLOEXEC);
  int out = open (to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
  if (in < 0 || out < 0)
    fatal ("cannot copy %s to %s: %m", w.exe, to);
  char block[65536];
  ssize_t n;
  while ((n = read (in, block, sizeof block)) > 0)
    if (write (out, block, n) != n)
      fatal ("cannot write %s: %m", to);
  if (n < 0 || fchmod (out, mode) != 0 || close (out) != 0)
    fatal ("cannot copy %s: %m", to);
  close (in);
}

static void
make_dir (const char *path, mode_t mode)
{
  if (mkdir (path, 0700) != 0 || chmod (path, mode) != 0)
    fatal ("cannot create %s: %m", path);
}

static void
make_link (const char *target, const char *path)
{
  if (symlink (target, path) != 0)
    fatal ("cannot create %s: %m", path);
}

/* Remove what directory DIR holds, directories too, and DIR itself if
   SELF.  */
static void
remove_tree (int parent, const char *dir, bool self)
{
  if (self)
    fchmodat (parent, dir, 0700, 0);
  int fd = openat (parent, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW
		   | O_CLOEXEC);
  DIR *d = fd < 0 ? NULL : fdopendir (fd);
  if (d != NULL)
    {
      struct dirent *e;
      while ((e = readdir (d)) != NULL)
	{
	  if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
	    continue;
	  if (unlinkat (fd, e->d_name, 0) != 0 && errno == EISDIR)
	    remove_tree (fd, e->d_name, true);
	}
      closedir (d);
    }
  else if (fd >= 0)
    close (fd);
  if (self && unlinkat (parent, dir, AT_REMOVEDIR) != 0)
    printf ("warning: cannot remove %s: %m\n", dir);
}

/* The scratch directory as every run starts with it.  */
static void
scratch_reset (void)
{
  remove_tree (AT_FDCWD, w.scratch, false);
  write_file ("f0", "f0 data\n", 0644);
  write_file ("f1", "", 0600);
  write_file ("ro", "ro\n", 0444);
  write_file ("m0", "m0\n", 0);
  write_file ("sfz", "\x7f\x01 no format\n", 0755);
  make_dir ("d", 0755);
  write_file ("d/f2", "f2\n", 0644);
  make_link (w.exe, "d/prog");
  make_link (w.exe, "d/sfz");
  make_dir ("dnx", 0700);
  make_link (w.exe, "dnx/prog");
  if (chmod ("dnx", 0) != 0)
    fatal ("chmod dnx: %m");
  make_link ("f0", "ln-f0");
  make_link ("ln-loop", "ln-loop");
  make_link ("d", "ln-d");
  make_link (w.exe, "prog");
  w.scratch_dirty = false;
}

/* The descriptors of this process, with their targets.  */
static char *
fd_list (void)
{
  struct buf b = { 0 };
  buf_printf (&b, "%s", "");
  DIR *d = opendir ("/proc/self/fd");
  if (d == NULL)
    fatal ("cannot list /proc/self/fd: %m");
  struct dirent *e;
  int nums[4096];
  int n = 0;
  while ((e = readdir (d)) != NULL)
    if (e->d_name[0] != '.' && atoi (e->d_name) != dirfd (d) && n < 4096)
      nums[n++] = atoi (e->d_name);
  closedir (d);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (nums[j] < nums[i])
	{
	  int t = nums[i];
	  nums[i] = nums[j];
	  nums[j] = t;
	}
  for (int i = 0; i < n; i++)
    {
      char link[64], target[PATH_MAX];
      snprintf (link, sizeof link, "/proc/self/fd/%d", nums[i]);
      ssize_t len = readlink (link, target, sizeof target - 1);
      target[len > 0 ? len : 0] = '\0';
      buf_printf (&b, "%d %s\n", nums[i], target);
    }
  return b.p;
}

/* A helper process in a process group of its own, in this session, for
   setpgid to join.  Not a child: it is a grandchild that the kernel
   hands to another parent, and it exits when this process closes
   FD_HELPER (or exits).  */
static void
helper_start (void)
{
  int keep[2], info[2];
  if (pipe2 (keep, O_CLOEXEC) != 0 || pipe2 (info, O_CLOEXEC) != 0)
    fatal ("pipe2: %m");
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (fork () != 0)
	_exit (0);
      setpgid (0, 0);
      pid_t self = getpid ();
      if (write (info[1], &self, sizeof self) != sizeof self)
	_exit (1);
      close (info[1]);
      close (keep[1]);
      char c;
      while (read (keep[0], &c, 1) < 0 && errno == EINTR)
	;
      _exit (0);
    }
  if (pid < 0)
    fatal ("fork: %m");
  wait_pid (pid, NULL);
  close (keep[0]);
  close (info[1]);
  if (read (info[0], &w.helper, sizeof w.helper) != sizeof w.helper)
    fatal ("the helper process did not start");
  close (info[0]);
  place_fd (keep[1], FD_HELPER, true);
  snprintf (w.helper_pgid, sizeof w.helper_pgid, "%ld", (long) w.helper);
}

/* Where cgroup v2 is mounted, and the directory of this process's
   cgroup there: false, with the reason in WHY, if there is none.  */
static bool
cgroup_find (char *why, size_t size)
{
  char line[4096], root[4096], point[4096];
  bool found = false;
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  while (f != NULL && !found && fgets (line, sizeof line, f) != NULL)
    {
      const char *sep = strstr (line, " - ");
      found = (sep != NULL && strncmp (sep, " - cgroup2 ", 11) == 0
	       && sscanf (line, "%*s %*s %*s %4095s %4095s", root,
			  point) == 2);
    }
  if (f != NULL)
    fclose (f);
  char *own = read_file ("/proc/self/cgroup", NULL);
  char *v2 = own == NULL ? NULL : strstr (own, "0::");
  if (!found || v2 == NULL || (v2 != own && v2[-1] != '\n'))
    {
      snprintf (why, size, "no cgroup v2 hierarchy in /proc/self/mountinfo");
      free (own);
      return false;
    }
  v2 += 3;
  v2[strcspn (v2, "\n")] = '\0';
  size_t rootlen = strcmp (root, "/") == 0 ? 0 : strlen (root);
  if (strncmp (v2, root, rootlen) != 0)
    {
      snprintf (why, size, "this cgroup, %s, is outside the mount of %s",
		v2, root);
      free (own);
      return false;
    }
  snprintf (w.cg_own, sizeof w.cg_own, "%s%s", point,
	    strcmp (v2 + rootlen, "/") == 0 ? "" : v2 + rootlen);
  free (own);
  return true;
}

/* The file NAME of D.  */
static const char *
cgroup_path (const char *name)
{
  static char path[sizeof w.cg_dir + 32];
  snprintf (path, sizeof path, "%s/%s", w.cg_dir, name);
  return path;
}

static void
cgroup_dir (const char *name)
{
  if (mkdir (cgroup_path (name), 0755) != 0)
    fatal ("cannot create %s: %m", cgroup_path (name));
}

static int
cgroup_open (const char *name, int flags)
{
  return open (cgroup_path (name), flags | O_CLOEXEC);
}

/* D, this program's cgroup for the cases, and the descriptors
   FD_CG_*.  */
static void
cgroup_init (void)
{
  char why[PATH_MAX + 128];
  if (!cgroup_find (why, sizeof why))
    {
      skip ("cgroup cases", why);
      return;
    }
  snprintf (w.cg_dir, sizeof w.cg_dir, "%s/spawn-fuzz-%ld", w.cg_own,
	    (long) w.pid);
  if (mkdir (w.cg_dir, 0755) != 0)
    {
      snprintf (why, sizeof why, "cannot create %s: %m", w.cg_dir);
      skip ("cgroup cases", why);
      return;
    }
  cgroup_dir ("a");
  cgroup_dir ("tp");
  cgroup_dir ("tp/t");
  cgroup_dir ("gone");
  int fd = open (cgroup_path ("tp/t/cgroup.type"), O_WRONLY | O_CLOEXEC);
  w.threaded = fd >= 0 && write (fd, "threaded", 8) == 8;
  if (fd >= 0)
    close (fd);
  if (!w.threaded)
    printf ("info: cgroup: no threaded cgroup (%m): tp/t is a domain\n");
  /* A domain made after its sibling became threaded is invalid.  */
  cgroup_dir ("tp/inv");
  place_fd (cgroup_open ("a", O_RDONLY | O_DIRECTORY), FD_CG_A, true);
  place_fd (open (w.cg_own, O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_CG_OWN,
	    true);
  place_fd (cgroup_open ("gone", O_RDONLY | O_DIRECTORY), FD_CG_GONE, true);
  if (rmdir (cgroup_path ("gone")) != 0)
    fatal ("cannot remove %s: %m", cgroup_path ("gone"));
  place_fd (cgroup_open ("tp/t", O_RDONLY | O_DIRECTORY), FD_CG_THREADED,
	    true);
  place_fd (cgroup_open ("tp/inv", O_RDONLY | O_DIRECTORY), FD_CG_INVALID,
	    true);
  /* A cgroup v1 hierarchy's directory, or another file system's.  */
  const char *v1 = "/sys";
  char line[4096], point[4096];
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      const char *sep = strstr (line, " - ");
      if (sep != NULL && strncmp (sep, " - cgroup ", 10) == 0
	  && sscanf (line, "%*s %*s %*s %*s %4095s", point) == 1)
	{
	  v1 = point;
	  break;
	}
    }
  if (f != NULL)
    fclose (f);
  place_fd (open (v1, O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_CG_V1, true);
  place_fd (cgroup_open ("a/cgroup.procs", O_RDONLY), FD_CG_PROCS, true);
  place_fd (cgroup_open ("a", O_PATH), FD_CG_OPATH, true);
  printf ("info: cgroup: cases spawn into %s/a (and tp/t, tp/inv, gone),"
	  " from %s\n", w.cg_dir, v1);
  w.cgroup = true;
}

static void
cgroup_end (void)
{
  if (!w.cgroup)
    return;
  for (int fd = FD_CG_A; fd <= FD_CG_OPATH; fd++)
    close (fd);
  static const char *const dirs[] = { "tp/inv", "tp/t", "tp", "a", "" };
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    if (rmdir (cgroup_path (dirs[i])) != 0)
      printf ("warning: cannot remove %s: %m\n", cgroup_path (dirs[i]));
}

/* The command that runs this program again: what /proc/self/cmdline
   holds up to the program (the dynamic loader and its options when the
   program runs through it, as testrun.sh runs it), each path made
   absolute, since the cases change the directory.  */
static void
prefix_init (int argc, char **argv)
{
  size_t n = 0;
  char *cmdline = read_file ("/proc/self/cmdline", &n);
  if (cmdline == NULL || n == 0)
    fatal ("cannot read /proc/self/cmdline");
  char *elems[256];
  int nelems = 0;
  for (char *p = cmdline; p < cmdline + n && nelems < 256; p += strlen (p) + 1)
    elems[nelems++] = p;
  int loader = nelems - argc;
  if (loader < 0)
    fatal ("/proc/self/cmdline has fewer elements than argv");
  w.prefix = xmalloc ((loader + 2) * sizeof *w.prefix);
  char resolved[PATH_MAX];
  for (int i = 0; i < loader; i++)
    {
      if (i == 0)
	w.prefix[i] = xstrdup (realpath (elems[i], resolved) != NULL
			       ? resolved : elems[i]);
      else if (strcmp (elems[i - 1], "--library-path") == 0)
	{
	  struct buf b = { 0 };
	  buf_printf (&b, "%s", "");
	  for (char *dir = strtok (elems[i], ":"); dir != NULL;
	       dir = strtok (NULL, ":"))
	    buf_printf (&b, "%s%s", b.len == 0 ? "" : ":",
			realpath (dir, resolved) != NULL ? resolved : dir);
	  w.prefix[i] = b.p;
	}
      else
	w.prefix[i] = xstrdup (elems[i]);
    }
  w.prefix[loader] = xstrdup (loader == 0 ? w.exe
			      : realpath (argv[0], resolved) != NULL
			      ? resolved : argv[0]);
  w.prefix[loader + 1] = NULL;
  w.nprefix = loader + 1;
}

/* Whether the effective IDs 65534 can run this program and write the
   report: then the cases vary the effective IDs.  */
static bool
ids_usable (void)
{
  if (getuid () != 0 || geteuid () != 0)
    {
      printf ("info: not root: the cases do not vary the effective IDs\n");
      return false;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      bool ok = setegid (65534) == 0 && seteuid (65534) == 0
		&& faccessat (AT_FDCWD, w.exe, X_OK, AT_EACCESS) == 0
		&& faccessat (AT_FDCWD, w.prefix[w.nprefix - 1], R_OK,
			      AT_EACCESS) == 0
		&& faccessat (AT_FDCWD, w.report, W_OK, AT_EACCESS) == 0;
      _exit (!ok);
    }
  int status = -1;
  if (pid > 0)
    wait_pid (pid, &status);
  if (status != 0)
    printf ("info: user 65534 cannot run %s: the cases do not vary the"
	    " effective IDs\n", w.exe);
  return status == 0;
}

static void
caught (int sig)
{
  (void) sig;
}

static void world_end (void);

static void
world_init (int argc, char **argv)
{
  /* The cases decide which descriptors are open: none but the standard
     ones is inherited.  */
  if (syscall (SYS_close_range, 3, ~0U, 0) != 0)
    for (int fd = 3; fd < 1024; fd++)
      close (fd);
  /* This program prints to a copy of its standard output, which no
     child gets; the children get /dev/null as the standard descriptors,
     whose offsets nothing changes, so that a case's reports do not
     depend on where the output goes.  */
  int out = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, FD_OUTPUT);
  FILE *f = out < 0 ? NULL : fdopen (out, "w");
  if (f == NULL)
    fatal ("cannot copy the standard output: %m");
  fflush (stdout);
  stdout = f;
  setvbuf (stdout, NULL, _IOLBF, 0);
  for (int fd = 0; fd < 3; fd++)
    place_fd (open ("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY), fd, false);
  w.pid = getpid ();
  w.euid = geteuid ();
  w.egid = getegid ();
  /* A descriptor limit of 1024 at most, so that a seed's cases are the
     same wherever the limit is higher.  */
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0
      && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1024))
    {
      rl.rlim_cur = 1024;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  w.open_max = sysconf (_SC_OPEN_MAX);
  if (w.open_max < 256)
    {
      printf ("unsupported: spawn-fuzz: a descriptor limit of %ld, below"
	      " the 256 its descriptors need\n", w.open_max);
      exit (77);
    }
  w.reserved = w.open_max - 2;

  if (realpath ("/proc/self/exe", w.exe) == NULL)
    fatal ("realpath (/proc/self/exe): %m");
  prefix_init (argc, argv);

  strcpy (w.base, "/tmp/spawn-fuzz.XXXXXX");
  if (mkdtemp (w.base) == NULL || chmod (w.base, 0755) != 0)
    fatal ("cannot create a directory in /tmp: %m");
  /* A run that a signal or the hang timer ends leaves it: named for
     whoever cleans up.  */
  printf ("info: scratch directory %s\n", w.base);
  atexit (world_end);
  snprintf (w.scratch, sizeof w.scratch, "%s/s", w.base);
  snprintf (w.report, sizeof w.report, "%s/report", w.base);
  make_dir (w.scratch, 0755);
  write_file (w.report, "", 0666);
  char path[256];
#define BASE(name) (snprintf (path, sizeof path, "%s/%s", w.base, name), path)
  copy_exe (BASE ("x100"), 0100);
  copy_exe (BASE ("x111"), 0111);
  write_file (BASE ("m000"), "#!/bin/sh\n", 0);
  write_file (BASE ("noexec"), "#!/bin/sh\n", 0644);
  write_file (BASE ("garbage"), "\x7f\x01 no format\n", 0755);
  write_file (BASE ("script"), "echo no interpreter line\n", 0755);
  write_file (BASE ("badinterp"), "#!/nonexistent/interpreter\n", 0755);
  static const char *const bins[] =
    { "bin-ok", "bin-noexec", "bin-garbage", "bin-dir", "bin-m0", "bin-x100" };
  for (size_t i = 0; i < sizeof bins / sizeof bins[0]; i++)
    make_dir (BASE (bins[i]), 0755);
  make_link (w.exe, BASE ("bin-ok/sfz"));
  write_file (BASE ("bin-noexec/sfz"), "#!/bin/sh\n", 0644);
  write_file (BASE ("bin-garbage/sfz"), "\x7f\x01 no format\n", 0755);
  make_dir (BASE ("bin-dir/sfz"), 0755);
  write_file (BASE ("bin-m0/sfz"), "#!/bin/sh\n", 0);
  copy_exe (BASE ("bin-x100/sfz"), 0100);
#undef BASE
  if (chdir (w.scratch) != 0)
    fatal ("chdir (%s): %m", w.scratch);
  scratch_reset ();

  for (size_t i = 0; i < N_FILE; i++)
    w.file[i] = expand (file_spec[i]);
  for (size_t i = 0; i < N_PATH; i++)
    w.path[i] = expand (path_spec[i]);
  for (size_t i = 0; i < N_FILE_NAME; i++)
    w.file_name[i] = expand (file_name_spec[i]);
  for (size_t i = 0; i < N_PATH_ELEM; i++)
    w.path_elem[i] = expand (path_elem_spec[i]);
  const char *saved = getenv ("PATH");
  w.saved_path = saved == NULL ? NULL : xstrdup (saved);

  w.pgid = getpgrp ();
  helper_start ();
  cgroup_init ();
  w.ids = ids_usable ();

  /* The kernel's limit of the strings of execve (bprm_stack_limits):
     a quarter of the stack limit, at most 3/4 of 8 MiB, at least
     ARG_MAX (128 KiB), less a pointer per string.  */
  struct rlimit stack;
  w.arg_limit = 6ULL << 20;
  if (getrlimit (RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY
      && stack.rlim_cur / 4 < w.arg_limit)
    w.arg_limit = stack.rlim_cur / 4;
  if (w.arg_limit < 131072)
    w.arg_limit = 131072;
  struct utsname u;
  w.ptr_size = (uname (&u) == 0 && (strstr (u.machine, "64") != NULL
				    || strcmp (u.machine, "s390x") == 0)
		? 8 : sizeof (void *));
  w.page = sysconf (_SC_PAGESIZE);

  int sigs[] =
    {
      SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGTERM, SIGCHLD,
      SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGXFSZ, SIGVTALRM, SIGPROF,
      SIGWINCH, SIGIO, SIGRTMIN, SIGRTMIN + 1, SIGRTMAX - 1, SIGRTMAX,
    };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0] && i < MAX_SIGS; i++)
    {
      w.sigs[w.nsigs] = sigs[i];
      sigaction (sigs[i], NULL, &w.act[w.nsigs]);
      w.nsigs++;
    }
  sigprocmask (SIG_SETMASK, NULL, &w.mask);

  /* pidfd_spawn of a directory: EACCES, or ENOSYS without pidfds.  */
  int pidfd = -1;
  char *dir_argv[] = { (char *) "/", NULL };
  int ret = pidfd_spawn (&pidfd, "/", NULL, NULL, dir_argv, NULL);
  w.pidfd = ret != ENOSYS;
  if (ret == ENOSYS)
    check_pidfd_enosys ("pidfd_spawn, pidfd_spawnp cases", SIGCHLD);
  else if (ret != EACCES)
    fatal ("pidfd_spawn of / returned %s, not EACCES", errname (ret));
  w.fds = fd_list ();
}

static void
world_end (void)
{
  /* Once, and only in this process: it runs at exit too, so that a
     run that fatal ends leaves no cgroup or scratch tree behind.  */
  static bool ended;
  if (ended || getpid () != w.pid)
    return;
  ended = true;
  close (FD_HELPER);
  cgroup_end ();
  if (chdir ("/") != 0)
    printf ("warning: chdir (/): %m\n");
  remove_tree (AT_FDCWD, w.base, true);
}

/* The cases.  */

enum akind
{
  A_OPEN, A_CLOSE, A_DUP2, A_CHDIR, A_FCHDIR, A_CLOSEFROM,
};

struct action
{
  enum akind kind;
  int fd, newfd;
  int file;		/* Index of w.file: open, chdir.  */
  int oflag;
  mode_t mode;
  int added;		/* What the add function returned.  */
};

/* The kinds of descriptor the caller has open.  */
enum pkind
{
  K_F0_RD, K_F1_APPEND, K_F0_RDWR, K_DIR, K_DIR_PATH, K_NULL, K_PIPE_R,
  K_PIPE_W, K_SCRATCH, K_CGROUP, K_M0, K_N
};
static const char *const pkind_name[K_N] =
  {
    "f0 O_RDONLY", "f1 O_WRONLY|O_APPEND", "f0 O_RDWR", "d O_DIRECTORY",
    "d O_PATH", "/dev/null", "pipe read end", "pipe write end", "scratch",
    "cgroup a", "m0 O_RDONLY",
  };

enum { MAX_ACTIONS = 9, MAX_PFDS = 8 };

struct fuzz_case
{
  unsigned long long seed;
  long number;
  /* The caller's state.  */
  int npfds;
  struct
  {
    int fd, kind;
    bool cloexec;
  } pfds[MAX_PFDS];
  uint32_t pblock, pignore, pcatch;	/* Bits of w.sigs.  */
  int ids;		/* 1: effective GID 65534; 2: and UID.  */
  int nofile;		/* RLIMIT_NOFILE during the call, or 0.  */
  mode_t umask;
  /* The request.  */
  int path, file;	/* Indexes of w.path, w.file_name.  */
  char *env_path;	/* PATH of the p functions, or NULL: unset.  */
  bool no_actions, no_attr;
  int nactions;
  struct action actions[MAX_ACTIONS];
  short int flags;
  pid_t pgroup;
  sigset_t sigmask, sigdef;
  int policy, priority, cgroup;
  bool set_cgroup;
  const char *args;	/* What the arguments and environment are.  */
  char **argv, **envp;
  size_t argc, envc;
  char *arena;
  /* What the attribute functions took.  */
  short int eff_flags;
  int eff_policy;
};

struct fuzz_case;
static int case_fd (struct rng *r, const struct fuzz_case *c);

/* A descriptor for an action or an attribute of C: mostly one that C's
   caller has open, or a standard one, then others below 14, some of
   this program's own, and bad and huge ones.  Never w.reserved.  */
static int
pick_fd (struct rng *r, const struct fuzz_case *c)
{
  static const unsigned char weights[] =
    { 14, 25, 5, 6, 4, 4, 4, 4, 3, 31 };
  switch (PICK (r, weights))
    {
    case 9:
      return case_fd (r, c);
    case 0:
      return rnd (r, 3);
    case 1:
      return 3 + rnd (r, 8);
    case 2:
      return 11 + rnd (r, 3);
    case 3:
      return rnd (r, 2) ? 63 : 64;
    case 4:
      return FD_CG_A + rnd (r, 8);
    case 5:
      return rnd (r, 2) ? 1000 : (int) w.open_max - 1;
    case 6:
      return rnd (r, 2) ? (int) w.open_max : (int) w.open_max + 7;
    case 7:
      return rnd (r, 2) ? INT_MAX : (int) w.open_max * 4;
    default:
      return rnd (r, 2) ? -1 : INT_MIN;
    }
}

/* One of the descriptors C's caller has open, or a standard one.  */
static int
case_fd (struct rng *r, const struct fuzz_case *c)
{
  unsigned int i = rnd (r, c->npfds + 1);
  return i < (unsigned int) c->npfds ? c->pfds[i].fd : (int) rnd (r, 3);
}

static void
random_sigset (struct rng *r, sigset_t *set)
{
  static const unsigned char weights[] = { 30, 12, 4, 54 };
  sigemptyset (set);
  switch (PICK (r, weights))
    {
    case 0:
      break;
    case 1:
      sigfillset (set);
      break;
    case 2:
      /* The internal signals too, which sigfillset leaves out.  */
      memset (set, 0xff, sizeof *set);
      break;
    default:
      for (int sig = 1; sig < NSIG; sig++)
	if (chance (r, 10))
	  sigaddset (set, sig);
    }
}

static int
random_oflag (struct rng *r)
{
  static const int accmode[] = { O_RDONLY, O_WRONLY, O_RDWR, O_ACCMODE };
  static const unsigned char acc_weights[] = { 40, 25, 30, 5 };
  static const struct
  {
    int flag;
    unsigned char percent;
  } flags[] =
    {
      { O_CREAT, 25 }, { O_EXCL, 8 }, { O_TRUNC, 10 }, { O_APPEND, 10 },
      { O_CLOEXEC, 15 }, { O_DIRECTORY, 8 }, { O_NONBLOCK, 8 },
      { O_NOFOLLOW, 8 }, { O_PATH, 4 }, { O_TMPFILE, 3 }, { O_NOCTTY, 5 },
      { O_SYNC, 3 },
    };
  int oflag = accmode[PICK (r, acc_weights)];
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (chance (r, flags[i].percent))
      oflag |= flags[i].flag;
  return oflag;
}

static void
random_action (struct rng *r, const struct fuzz_case *c, struct action *a)
{
  static const unsigned char weights[] = { 30, 20, 25, 8, 8, 9 };
  static const mode_t modes[] = { 0644, 0600, 0, 0777, 04755, 01777 };
  memset (a, 0, sizeof *a);
  a->kind = PICK (r, weights);
  switch (a->kind)
    {
    case A_OPEN:
      a->fd = pick_fd (r, c);
      a->file = PICK (r, file_weights);
      a->oflag = random_oflag (r);
      a->mode = modes[rnd (r, sizeof modes / sizeof modes[0])];
      break;
    case A_CLOSE:
    case A_FCHDIR:
      a->fd = pick_fd (r, c);
      break;
    case A_DUP2:
      a->fd = pick_fd (r, c);
      a->newfd = chance (r, 12) ? a->fd : pick_fd (r, c);
      break;
    case A_CHDIR:
      a->file = PICK (r, file_weights);
      break;
    case A_CLOSEFROM:
      a->fd = chance (r, 50) ? 3 + (int) rnd (r, 8) : pick_fd (r, c);
      break;
    }
}

/* The cases' strings of arguments and environment.  */
static char *
arena_fill (struct fuzz_case *c, size_t *used, size_t len, char fill)
{
  char *s = c->arena + *used;
  memset (s, fill, len);
  s[len] = '\0';
  *used += len + 1;
  return s;
}

/* The arguments: the command that runs this program in report mode,
   then padding; the environment: a few variables, or none, or NULL.
   Some cases come near and over the kernel's limits (E2BIG).  */
static void
random_args (struct rng *r, struct fuzz_case *c)
{
  static const unsigned char weights[] = { 82, 5, 4, 2, 2, 2, 1, 2 };
  static const char *const names[] =
    {
      "small", "medium", "near the limit", "a string at its limit",
      "as many arguments as fit", "an environment near the limit",
      "an environment string at its limit", "empty environment",
    };
  int kind = PICK (r, weights);
  c->args = names[kind];
  size_t base = w.nprefix + 3;
  size_t nenv = kind == 7 ? 0 : 1 + rnd (r, 4);
  bool null_env = kind == 7 && chance (r, 50);
  /* Strings of the padding: their count and their total size.  */
  size_t npad = 0, padsize = 0, chunk = 0, last = 0;
  long long delta = 0;
  static const long long deltas[] = { -4096, -64, -1, 0, 1, 64, 4096 };
  size_t fixed = strlen (w.exe) + 1;
  for (int i = 0; i < w.nprefix; i++)
    fixed += strlen (w.prefix[i]) + 1;
  fixed += strlen ("--report") + 1 + strlen (w.report) + 1
	   + strlen (w.helper_pgid) + 1 + nenv * 16;
  size_t strlen_max = 32 * w.page;	/* MAX_ARG_STRLEN.  */
  switch (kind)
    {
    case 0:
      npad = rnd (r, 5);
      chunk = 1 + rnd (r, 40);
      break;
    case 1:
      npad = 50 + rnd (r, 500);
      chunk = 1 + rnd (r, 60);
      break;
    case 2:
    case 5:
      {
	/* Strings of 64 KiB up to the limit, less the pointers, plus
	   DELTA bytes.  */
	delta = deltas[rnd (r, sizeof deltas / sizeof deltas[0])];
	chunk = 65536;
	size_t k = 1;
	long long avail;
	for (;;)
	  {
	    avail = (long long) w.arg_limit - fixed + delta
		    - (long long) (w.ptr_size * (base + k + nenv));
	    if ((long long) (k * (chunk + 1)) >= avail)
	      break;
	    k++;
	  }
	npad = k;
	long long rest = avail - (long long) ((k - 1) * (chunk + 1)) - 1;
	last = rest < 0 ? 0 : rest;
      }
      break;
    case 3:
    case 6:
      npad = 1;
      chunk = strlen_max - 1 - rnd (r, 2) + rnd (r, 2);
      break;
    case 4:
      {
	/* Empty strings, each a byte and a pointer.  */
	static const long long extra[] = { -100, -1, 0, 1, 100 };
	delta = extra[rnd (r, sizeof extra / sizeof extra[0])];
	long long n = ((long long) w.arg_limit - fixed
		       - (long long) (w.ptr_size * (base + nenv)))
		      / (long long) (w.ptr_size + 1) + delta;
	npad = n < 0 ? 0 : n;
	chunk = 0;
      }
      break;
    }
  bool in_env = kind == 5 || kind == 6;
  /* The last string of the padding: the rest of the size.  */
  size_t lastlen = kind == 2 || kind == 5 ? last : chunk;
  padsize = npad * (chunk + 1) + last + 64 + nenv * 64;
  c->arena = xmalloc (padsize);
  size_t used = 0;
  c->argc = base + (in_env ? 0 : npad);
  c->argv = xmalloc ((c->argc + 1) * sizeof *c->argv);
  size_t i = 0;
  for (int j = 0; j < w.nprefix; j++)
    c->argv[i++] = w.prefix[j];
  c->argv[i++] = (char *) "--report";
  c->argv[i++] = w.report;
  c->argv[i++] = w.helper_pgid;
  char fill = 'a' + rnd (r, 26);
  size_t nvars = nenv + (in_env ? npad : 0);
  char **pad = in_env ? NULL : c->argv + i;
  if (!in_env)
    for (size_t j = 0; j < npad; j++)
      pad[j] = (kind == 4 ? (char *) ""
		: arena_fill (c, &used, j + 1 == npad ? lastlen : chunk,
			      fill));
  c->argv[c->argc] = NULL;
  if (null_env)
    {
      c->envp = NULL;
      c->envc = 0;
      return;
    }
  c->envc = nvars;
  c->envp = xmalloc ((nvars + 1) * sizeof *c->envp);
  for (size_t j = 0; j < nenv; j++)
    {
      char *s = c->arena + used;
      used += 1 + snprintf (s, 64, "SFZ_%zu=%u", j, rnd (r, 100000));
      c->envp[j] = s;
    }
  for (size_t j = nenv; j < nvars; j++)
    {
      char *s = arena_fill (c, &used, j + 1 == nvars ? lastlen : chunk,
			    fill);
      size_t len = strlen (s);
      memcpy (s, "SFZ_PAD=", len < 8 ? len : 8);
      c->envp[j] = s;
    }
  c->envp[nvars] = NULL;
}

static char *
random_path_env (struct rng *r)
{
  static const unsigned char weights[] = { 8, 4, 88 };
  switch (PICK (r, weights))
    {
    case 0:
      return NULL;
    case 1:
      return xstrdup ("");
    }
  struct buf b = { 0 };
  buf_printf (&b, "%s", "");
  int n = 1 + rnd (r, 5);
  for (int i = 0; i < n; i++)
    buf_printf (&b, "%s%s", i == 0 ? "" : ":",
		w.path_elem[PICK (r, path_elem_weights)]);
  return b.p;
}

static void
case_generate (struct fuzz_case *c, unsigned long long seed, long number)
{
  memset (c, 0, sizeof *c);
  c->seed = seed;
  c->number = number;
  struct rng rs = { seed * 0xd1b54a32d192ed03ULL ^ (uint64_t) number };
  rng_next (&rs);
  struct rng *r = &rs;

  /* The caller's descriptors.  */
  const int slots[] = { 3, 4, 5, 6, 7, 8, 9, 10, 63, 1000,
			(int) w.open_max - 1 };
  for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
    if (chance (r, 30) && c->npfds < MAX_PFDS)
      {
	c->pfds[c->npfds].fd = slots[i];
	c->pfds[c->npfds].kind = rnd (r, K_N);
	c->pfds[c->npfds].cloexec = chance (r, 30);
	c->npfds++;
      }
  for (int i = 0; i < w.nsigs; i++)
    {
      if (chance (r, 10))
	c->pblock |= 1U << i;
      unsigned int x = rnd (r, 100);
      if (x < 8 && w.sigs[i] != SIGCHLD)
	c->pignore |= 1U << i;
      else if (x >= 8 && x < 16)
	c->pcatch |= 1U << i;
    }
  static const unsigned char ids_weights[] = { 75, 12, 13 };
  c->ids = PICK (r, ids_weights);
  if (!w.ids)
    c->ids = 0;
  static const int nofiles[] = { 16, 64, 200, 1000 };
  c->nofile = chance (r, 15) ? nofiles[rnd (r, 4)] : 0;
  static const mode_t umasks[] = { 0, 077, 0777, 002 };
  c->umask = chance (r, 80) ? 022 : umasks[rnd (r, 4)];

  /* The request.  */
  c->path = PICK (r, path_weights);
  c->file = PICK (r, file_name_weights);
  c->env_path = random_path_env (r);
  c->no_actions = chance (r, 8);
  static const unsigned char count_weights[] =
    { 25, 25, 20, 12, 6, 4, 3, 3, 2 };
  c->nactions = c->no_actions ? 0 : PICK (r, count_weights);
  for (int i = 0; i < c->nactions; i++)
    random_action (r, c, &c->actions[i]);

  c->no_attr = chance (r, 10);
  static const struct
  {
    short int flag;
    unsigned char percent;
  } flags[] =
    {
      { POSIX_SPAWN_RESETIDS, 15 }, { POSIX_SPAWN_SETPGROUP, 20 },
      { POSIX_SPAWN_SETSIGDEF, 25 }, { POSIX_SPAWN_SETSIGMASK, 25 },
      { POSIX_SPAWN_SETSCHEDPARAM, 12 }, { POSIX_SPAWN_SETSCHEDULER, 12 },
      { POSIX_SPAWN_SETSID, 15 }, { POSIX_SPAWN_USEVFORK, 5 },
      { POSIX_SPAWN_SETCGROUP, 20 },
    };
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (chance (r, flags[i].percent))
      c->flags |= flags[i].flag;
  static const short int bad_flags[] = { 0x200, 0x400, 0x1000, 0x4000,
					 (short int) 0x8000 };
  if (chance (r, 3))
    c->flags |= bad_flags[rnd (r, 5)];
  if (!w.cgroup)
    c->flags &= ~POSIX_SPAWN_SETCGROUP;
  static const unsigned char pgroup_weights[] = { 40, 15, 15, 8, 7, 5, 10 };
  switch (PICK (r, pgroup_weights))
    {
    case 0:
      c->pgroup = 0;
      break;
    case 1:
      c->pgroup = w.pgid;
      break;
    case 2:
      c->pgroup = w.helper;
      break;
    case 3:
      c->pgroup = 1;
      break;
    case 4:
      c->pgroup = (1 << 22) + 5;
      break;
    case 5:
      c->pgroup = -1;
      break;
    default:
      c->pgroup = w.pid;
    }
  random_sigset (r, &c->sigmask);
  random_sigset (r, &c->sigdef);
  static const int policies[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR,
				  SCHED_BATCH, SCHED_IDLE, 42, -1 };
  static const unsigned char policy_weights[] = { 40, 20, 15, 8, 7, 5, 5 };
  c->policy = policies[PICK (r, policy_weights)];
  /* Mostly one the policy takes: 0 for SCHED_OTHER, 1 to 99 for the
     real-time ones.  */
  static const int priorities[] = { 0, 1, 50, 99, 100, -1, 1000 };
  static const unsigned char priority_weights[] = { 30, 15, 10, 10, 5, 5, 5 };
  c->priority = priorities[PICK (r, priority_weights)];
  if (chance (r, 70))
    c->priority = (c->policy == SCHED_FIFO || c->policy == SCHED_RR
		   ? 1 + (int) rnd (r, 99) : 0);
  static const unsigned char cgroup_weights[] =
    { 60, 10, 5, 5, 5, 4, 4, 8, 3, 3, 2 };
  int cg = PICK (r, cgroup_weights);
  c->cgroup = (cg <= 7 ? FD_CG_A + cg : cg == 8 ? pick_fd (r, c)
	       : cg == 9 ? -1 : 50);
  c->set_cgroup = chance (r, 92);

  random_args (r, c);
}

static void
case_free (struct fuzz_case *c)
{
  free (c->argv);
  free (c->envp);
  free (c->arena);
  free (c->env_path);
}

/* The descriptor limit at the add functions: sysconf (_SC_OPEN_MAX).  */
static bool
valid_fd (int fd)
{
  return fd >= 0 && fd < w.open_max;
}

/* The add functions' result, as glibc 2.36 documents it: EBADF for a
   descriptor that is negative or not below the limit; addchdir_np and
   addfchdir_np check nothing.  */
static int
expected_add (const struct action *a)
{
  switch (a->kind)
    {
    case A_OPEN:
    case A_CLOSE:
    case A_CLOSEFROM:
      return valid_fd (a->fd) ? 0 : EBADF;
    case A_DUP2:
      return valid_fd (a->fd) && valid_fd (a->newfd) ? 0 : EBADF;
    default:
      return 0;
    }
}

/* What C's file actions and attributes say, in words.  */
static void
print_sigset (const char *name, const sigset_t *set)
{
  int n = 0;
  for (int sig = 1; sig < NSIG; sig++)
    n += sigismember (set, sig) == 1;
  printf (" %s", name);
  if (n == 0)
    printf (" {}");
  else if (n == NSIG - 1)
    printf (" {all}");
  else
    {
      const char *sep = " {";
      for (int sig = 1; sig < NSIG; sig++)
	if (sigismember (set, sig) == 1)
	  {
	    printf ("%s%d", sep, sig);
	    sep = ",";
	  }
      printf ("}");
    }
}

static void
print_str (const char *s)
{
  if (s == NULL)
    printf ("(unset)");
  else if (strlen (s) > 120)
    printf ("\"%.40s...\" (%zu bytes)", s, strlen (s));
  else
    printf ("\"%s\"", s);
}

static void
print_oflag (int oflag)
{
  static const struct
  {
    int flag;
    const char *name;
  } names[] =
    {
      { O_TMPFILE, "O_TMPFILE" }, { O_CREAT, "O_CREAT" }, { O_EXCL, "O_EXCL" },
      { O_TRUNC, "O_TRUNC" }, { O_APPEND, "O_APPEND" },
      { O_CLOEXEC, "O_CLOEXEC" }, { O_DIRECTORY, "O_DIRECTORY" },
      { O_NONBLOCK, "O_NONBLOCK" }, { O_NOFOLLOW, "O_NOFOLLOW" },
      { O_PATH, "O_PATH" }, { O_NOCTTY, "O_NOCTTY" }, { O_SYNC, "O_SYNC" },
    };
  static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR",
				     "O_ACCMODE" };
  printf ("%s", acc[oflag & O_ACCMODE]);
  int rest = oflag & ~O_ACCMODE;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if ((rest & names[i].flag) == names[i].flag)
      {
	printf ("|%s", names[i].name);
	rest &= ~names[i].flag;
      }
}

static void
print_case (const struct fuzz_case *c)
{
  printf ("  case %ld of seed %llu:\n    caller: descriptors", c->number,
	  c->seed);
  for (int i = 0; i < c->npfds; i++)
    printf (" %d (%s%s)", c->pfds[i].fd, pkind_name[c->pfds[i].kind],
	    c->pfds[i].cloexec ? ", FD_CLOEXEC" : "");
  printf (";");
  const char *label[3] = { "blocked", "ignored", "caught" };
  uint32_t bits[3] = { c->pblock, c->pignore, c->pcatch };
  for (int k = 0; k < 3; k++)
    {
      printf (" %s {", label[k]);
      const char *sep = "";
      for (int i = 0; i < w.nsigs; i++)
	if (bits[k] & (1U << i))
	  {
	    printf ("%s%d", sep, w.sigs[i]);
	    sep = ",";
	  }
      printf ("}");
    }
  printf ("; effective IDs %s; RLIMIT_NOFILE %d; umask %03o\n",
	  c->ids == 0 ? "unchanged" : c->ids == 1 ? "gid 65534"
	  : "uid and gid 65534", c->nofile, (unsigned int) c->umask);
  printf ("    path ");
  print_str (w.path[c->path]);
  printf ("; file ");
  print_str (w.file_name[c->file]);
  printf ("; PATH ");
  if (c->env_path == NULL || strlen (c->env_path) <= 120)
    print_str (c->env_path);
  else
    /* Element by element, long ones cut.  */
    for (const char *p = c->env_path;; p++)
      {
	const char *end = strchrnul (p, ':');
	if (end - p > 40)
	  printf ("%.20s...(%d bytes)...%s", p, (int) (end - p),
		  end - 20);
	else
	  printf ("%.*s", (int) (end - p), p);
	if (*end == '\0')
	  break;
	printf (":");
	p = end;
      }
  printf ("\n    arguments: %s, argc %zu, envc %zu%s\n", c->args, c->argc,
	  c->envc, c->envp == NULL ? ", envp NULL" : "");
  if (c->no_actions)
    printf ("    file actions: NULL\n");
  for (int i = 0; i < c->nactions; i++)
    {
      const struct action *a = &c->actions[i];
      printf ("    action %d: ", i);
      switch (a->kind)
	{
	case A_OPEN:
	  printf ("open (%d, ", a->fd);
	  print_str (w.file[a->file]);
	  printf (", ");
	  print_oflag (a->oflag);
	  printf (", %#o)", (unsigned int) a->mode);
	  break;
	case A_CLOSE:
	  printf ("close (%d)", a->fd);
	  break;
	case A_DUP2:
	  printf ("dup2 (%d, %d)", a->fd, a->newfd);
	  break;
	case A_CHDIR:
	  printf ("chdir (");
	  print_str (w.file[a->file]);
	  printf (")");
	  break;
	case A_FCHDIR:
	  printf ("fchdir (%d)", a->fd);
	  break;
	case A_CLOSEFROM:
	  printf ("closefrom (%d)", a->fd);
	  break;
	}
      printf ("%s\n", a->added == 0 ? "" : a->added == EBADF
	      ? ": not added, EBADF" : ": not added");
    }
  if (c->no_attr)
    {
      printf ("    attributes: NULL\n");
      return;
    }
  printf ("    attributes: flags %#x (taken: %#x), pgroup %ld,",
	  (unsigned int) (unsigned short) c->flags,
	  (unsigned int) (unsigned short) c->eff_flags, (long) c->pgroup);
  print_sigset ("sigmask", &c->sigmask);
  print_sigset ("sigdefault", &c->sigdef);
  printf (", policy %d (taken: %d), priority %d, cgroup %d%s\n", c->policy,
	  c->eff_policy, c->priority, c->cgroup,
	  c->set_cgroup ? "" : " (not set: 0)");
}

/* Make the file actions and the attributes of C, checking what each
   function returns.  */
static void
case_build (struct fuzz_case *c, posix_spawn_file_actions_t *fa,
	    posix_spawnattr_t *attr)
{
  char what[256];
  bool ok = true;
  posix_spawn_file_actions_init (fa);
  for (int i = 0; i < c->nactions; i++)
    {
      struct action *a = &c->actions[i];
      switch (a->kind)
	{
	case A_OPEN:
	  a->added = posix_spawn_file_actions_addopen (fa, a->fd,
						       w.file[a->file],
						       a->oflag, a->mode);
	  break;
	case A_CLOSE:
	  a->added = posix_spawn_file_actions_addclose (fa, a->fd);
	  break;
	case A_DUP2:
	  a->added = posix_spawn_file_actions_adddup2 (fa, a->fd, a->newfd);
	  break;
	case A_CHDIR:
	  a->added = posix_spawn_file_actions_addchdir_np (fa,
							   w.file[a->file]);
	  break;
	case A_FCHDIR:
	  a->added = posix_spawn_file_actions_addfchdir_np (fa, a->fd);
	  break;
	case A_CLOSEFROM:
	  a->added = posix_spawn_file_actions_addclosefrom_np (fa, a->fd);
	  break;
	}
      if (a->added != expected_add (a))
	{
	  snprintf (what, sizeof what, "seed %llu case %ld: file action %d"
		    " added with %s, not %s", c->seed, c->number, i,
		    errname (a->added), errname (expected_add (a)));
	  check (0, what);
	  ok = false;
	}
    }

  posix_spawnattr_init (attr);
  const short int all = (POSIX_SPAWN_RESETIDS | POSIX_SPAWN_SETPGROUP
			 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
			 | POSIX_SPAWN_SETSCHEDPARAM
			 | POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSID
			 | POSIX_SPAWN_USEVFORK | POSIX_SPAWN_SETCGROUP);
  int ret = posix_spawnattr_setflags (attr, c->flags);
  int want = (c->flags & ~all) != 0 ? EINVAL : 0;
  short int got_flags = -1;
  posix_spawnattr_getflags (attr, &got_flags);
  c->eff_flags = want == 0 ? c->flags : 0;
  ok &= ret == want && got_flags == c->eff_flags;
  posix_spawnattr_setpgroup (attr, c->pgroup);
  posix_spawnattr_setsigmask (attr, &c->sigmask);
  posix_spawnattr_setsigdefault (attr, &c->sigdef);
  ret = posix_spawnattr_setschedpolicy (attr, c->policy);
  want = (c->policy == SCHED_OTHER || c->policy == SCHED_FIFO
	  || c->policy == SCHED_RR) ? 0 : EINVAL;
  c->eff_policy = want == 0 ? c->policy : SCHED_OTHER;
  int got_policy = -1;
  posix_spawnattr_getschedpolicy (attr, &got_policy);
  ok &= ret == want && got_policy == c->eff_policy;
  struct sched_param sp = { .sched_priority = c->priority };
  posix_spawnattr_setschedparam (attr, &sp);
  int got_cgroup = -1;
  if (c->set_cgroup)
    posix_spawnattr_setcgroup_np (attr, c->cgroup);
  else
    c->cgroup = 0;
  posix_spawnattr_getcgroup_np (attr, &got_cgroup);
  pid_t got_pgroup = -2;
  posix_spawnattr_getpgroup (attr, &got_pgroup);
  ok &= got_cgroup == c->cgroup && got_pgroup == c->pgroup;
  if (!ok)
    {
      snprintf (what, sizeof what, "seed %llu case %ld: the attribute and"
		" file action functions", c->seed, c->number);
      check (0, what);
      print_case (c);
    }
}

/* The caller's state for a call.  */

static int
open_kind (int kind)
{
  int p[2];
  switch (kind)
    {
    case K_F0_RD:
      return open ("f0", O_RDONLY);
    case K_F1_APPEND:
      return open ("f1", O_WRONLY | O_APPEND);
    case K_F0_RDWR:
      return open ("f0", O_RDWR);
    case K_DIR:
      return open ("d", O_RDONLY | O_DIRECTORY);
    case K_DIR_PATH:
      return open ("d", O_PATH);
    case K_PIPE_R:
    case K_PIPE_W:
      if (pipe (p) != 0)
	return -1;
      close (p[kind == K_PIPE_R]);
      return p[kind == K_PIPE_W];
    case K_SCRATCH:
      return open (".", O_RDONLY | O_DIRECTORY);
    case K_CGROUP:
      if (w.cgroup)
	return fcntl (FD_CG_A, F_DUPFD, 0);
      return open ("/", O_RDONLY | O_DIRECTORY);
    case K_M0:
      if (w.ids)
	return open ("m0", O_RDONLY);
      /* Only root may read it.  */
      return open ("/dev/null", O_RDONLY);
    default:
      return open ("/dev/null", O_RDWR);
    }
}

static void
caller_enter (const struct fuzz_case *c)
{
  for (int i = 0; i < c->npfds; i++)
    place_fd (open_kind (c->pfds[i].kind), c->pfds[i].fd, c->pfds[i].cloexec);
  for (int i = 0; i < w.nsigs; i++)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sigemptyset (&sa.sa_mask);
      if (c->pignore & (1U << i))
	sa.sa_handler = SIG_IGN;
      else if (c->pcatch & (1U << i))
	{
	  sa.sa_handler = caught;
	  sa.sa_flags = SA_RESTART;
	}
      else
	continue;
      sigaction (w.sigs[i], &sa, NULL);
    }
  sigset_t mask = w.mask;
  for (int i = 0; i < w.nsigs; i++)
    if (c->pblock & (1U << i))
      sigaddset (&mask, w.sigs[i]);
  sigprocmask (SIG_SETMASK, &mask, NULL);
}

static void
caller_leave (const struct fuzz_case *c)
{
  sigprocmask (SIG_SETMASK, &w.mask, NULL);
  for (int i = 0; i < w.nsigs; i++)
    if ((c->pignore | c->pcatch) & (1U << i))
      sigaction (w.sigs[i], &w.act[i], NULL);
  for (int i = 0; i < c->npfds; i++)
    close (c->pfds[i].fd);
}

static void
ids_enter (int ids)
{
  if (ids >= 1 && setegid (65534) != 0)
    fatal ("setegid: %m");
  if (ids == 2 && seteuid (65534) != 0)
    fatal ("seteuid: %m");
}

static void
ids_leave (int ids)
{
  if (ids == 2 && seteuid (w.euid) != 0)
    fatal ("seteuid: %m");
  if (ids >= 1 && setegid (w.egid) != 0)
    fatal ("setegid: %m");
}

static void
path_enter (const char *path)
{
  if (path == NULL)
    unsetenv ("PATH");
  else
    setenv ("PATH", path, 1);
}

static void
path_leave (void)
{
  path_enter (w.saved_path);
}

/* The reference.  */

/* Set the disposition of SIG in the child: sigaction, and for the
   internal signals, which glibc's sigaction refuses, the system
   call.  */
static void
ref_disposition (int sig, void (*handler) (int))
{
  if (sig != SIG_CANCEL && sig != SIG_SETXID)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = handler;
      /* SIGKILL and SIGSTOP: EINVAL, which glibc ignores too.  */
      sigaction (sig, &sa, NULL);
      return;
    }
  /* The kernel's struct sigaction, with no flags and an empty mask of
     its signal set: 128 signals on mips, 64 elsewhere (glibc's NSIG is
     128 on mips, 65 elsewhere).  */
#ifdef __mips__
# define KERNEL_NSIG 128
#else
# define KERNEL_NSIG 64
#endif
#ifdef __mips__
  struct
  {
    unsigned int flags;
    void (*handler) (int);
    unsigned long int mask[KERNEL_NSIG / (8 * sizeof (long int))];
  } ka;
#else
  struct
  {
    void (*handler) (int);
    unsigned long int flags;
    void (*restorer) (void);
    unsigned long int mask[KERNEL_NSIG / (8 * sizeof (long int))];
  } ka;
#endif
  memset (&ka, 0, sizeof ka);
  ka.handler = handler;
#ifdef __sparc__
  syscall (SYS_rt_sigaction, sig, &ka, NULL, NULL, (size_t) KERNEL_NSIG / 8);
#else
  syscall (SYS_rt_sigaction, sig, &ka, NULL, (size_t) KERNEL_NSIG / 8);
#endif
}

/* Move this process into the cgroup of descriptor FD, as
   posix_spawnattr_setcgroup_np(3) says: EBADF for a descriptor that is
   no cgroup v2 directory, else the errors of a write to its
   cgroup.procs.  */
static int
ref_cgroup (int fd)
{
  struct statfs sfs;
  struct stat st;
  if (fstatfs (fd, &sfs) != 0 || sfs.f_type != CGROUP2_SUPER_MAGIC
      || fstat (fd, &st) != 0 || !S_ISDIR (st.st_mode))
    return EBADF;
  int procs = openat (fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
  if (procs < 0)
    return errno;
  char num[32];
  int len = snprintf (num, sizeof num, "%ld\n", (long) getpid ());
  int err = write (procs, num, len) == len ? 0 : errno;
  close (procs);
  return err;
}

/* Close every descriptor from FROM on but w.reserved; it never
   fails.  */
static void
ref_closefrom (int from)
{
  if (from < w.reserved)
    {
      if (syscall (SYS_close_range, from, w.reserved - 1, 0) != 0)
	for (int fd = from; fd < w.reserved; fd++)
	  close (fd);
    }
  int start = from > w.reserved ? from : w.reserved + 1;
  if (syscall (SYS_close_range, start, ~0U, 0) != 0)
    for (int fd = start; fd < 65536; fd++)
      close (fd);
}

static int
ref_action (const struct action *a)
{
  switch (a->kind)
    {
    case A_CLOSE:
      if (close (a->fd) != 0)
	{
	  /* Not open: an error only outside the descriptor range.  */
	  int err = errno;
	  struct rlimit rl;
	  getrlimit (RLIMIT_NOFILE, &rl);
	  if (a->fd < 0 || (rlim_t) a->fd >= rl.rlim_cur)
	    return err;
	}
      return 0;
    case A_OPEN:
      {
	/* The descriptor is closed first; a new one moves there.  */
	close (a->fd);
	int fd = open (w.file[a->file], a->oflag | O_LARGEFILE, a->mode);
	if (fd < 0)
	  return errno;
	if (fd != a->fd)
	  {
	    if (dup2 (fd, a->fd) != a->fd)
	      return errno;
	    if (close (fd) != 0)
	      return errno;
	  }
	return 0;
      }
    case A_DUP2:
      if (a->fd == a->newfd)
	{
	  /* It clears FD_CLOEXEC (Austin Group issue 411).  */
	  int flags = fcntl (a->fd, F_GETFD);
	  if (flags < 0 || fcntl (a->fd, F_SETFD, flags & ~FD_CLOEXEC) != 0)
	    return errno;
	}
      else if (dup2 (a->fd, a->newfd) != a->newfd)
	return errno;
      return 0;
    case A_CHDIR:
      return chdir (w.file[a->file]) == 0 ? 0 : errno;
    case A_FCHDIR:
      return fchdir (a->fd) == 0 ? 0 : errno;
    case A_CLOSEFROM:
      ref_closefrom (a->fd);
      return 0;
    }
  return EINVAL;
}

/* execvpe without a shell: each element of PATH (the default path if
   it is unset) in turn, an empty one the current directory, one longer
   than PATH_MAX skipped; EACCES if an element gave it and none ran.  */
static int
ref_execvp (const char *file, char *const argv[], char *const envp[])
{
  if (*file == '\0')
    return ENOENT;
  if (strchr (file, '/') != NULL)
    {
      execve (file, argv, envp);
      return errno;
    }
  if (strlen (file) > NAME_MAX)
    return ENAMETOOLONG;
  const char *path = getenv ("PATH");
  char cs_path[256];
  if (path == NULL)
    {
      confstr (_CS_PATH, cs_path, sizeof cs_path);
      path = cs_path;
    }
  size_t room = strnlen (path, PATH_MAX - 1) + 1;
  bool eacces = false;
  int err = ENOENT;
  for (const char *p = path;; p++)
    {
      const char *end = strchrnul (p, ':');
      size_t len = end - p;
      if (len < room)
	{
	  char *name = xmalloc (len + strlen (file) + 2);
	  if (len == 0)
	    strcpy (name, file);
	  else
	    sprintf (name, "%.*s/%s", (int) len, p, file);
	  execve (name, argv, envp);
	  err = errno;
	  free (name);
	  switch (err)
	    {
	    case EACCES:
	      eacces = true;
	      break;
	    case ENOENT:
	    case ESTALE:
	    case ENOTDIR:
	    case ENODEV:
	    case ETIMEDOUT:
	      break;
	    default:
	      return err;
	    }
	}
      if (*end == '\0')
	break;
      p = end;
    }
  return eacces ? EACCES : err;
}

/* The steps of the child, in glibc's order; return the error of the
   step that failed.  */
static int
ref_child (const struct fuzz_case *c, bool use_path)
{
  short int flags = c->no_attr ? 0 : c->eff_flags;
  if (flags & POSIX_SPAWN_SETCGROUP)
    {
      int err = ref_cgroup (c->cgroup);
      if (err != 0)
	return err;
    }
  for (int sig = 1; sig < NSIG; sig++)
    if ((flags & POSIX_SPAWN_SETSIGDEF) && sigismember (&c->sigdef, sig) == 1)
      ref_disposition (sig, SIG_DFL);
    else if (sig == SIG_CANCEL || sig == SIG_SETXID)
      ref_disposition (sig, SIG_IGN);
  struct sched_param sp = { .sched_priority = c->priority };
  if ((flags & (POSIX_SPAWN_SETSCHEDPARAM | POSIX_SPAWN_SETSCHEDULER))
      == POSIX_SPAWN_SETSCHEDPARAM)
    {
      if (sched_setparam (0, &sp) != 0)
	return errno;
    }
  else if ((flags & POSIX_SPAWN_SETSCHEDULER)
	   && sched_setscheduler (0, c->eff_policy, &sp) != 0)
    return errno;
  if ((flags & POSIX_SPAWN_SETSID) && setsid () < 0)
    return errno;
  if ((flags & POSIX_SPAWN_SETPGROUP) && setpgid (0, c->pgroup) != 0)
    return errno;
  if ((flags & POSIX_SPAWN_RESETIDS)
      && (seteuid (getuid ()) != 0 || setegid (getgid ()) != 0))
    return errno;
  for (int i = 0; i < c->nactions; i++)
    if (c->actions[i].added == 0)
      {
	int err = ref_action (&c->actions[i]);
	if (err != 0)
	  return err;
      }
  if (flags & POSIX_SPAWN_SETSIGMASK)
    sigprocmask (SIG_SETMASK, &c->sigmask, NULL);
  if (use_path)
    return ref_execvp (w.file_name[c->file], c->argv, c->envp);
  execve (w.path[c->path], c->argv, c->envp);
  return errno;
}

/* The reference's pipe: its write end at w.reserved, where no case
   puts anything; return the read end.  Made before the caller's
   descriptor limit is lowered.  */
static int
ref_pipe (void)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) != 0)
    fatal ("pipe2: %m");
  place_fd (p[1], w.reserved, true);
  return p[0];
}

static int
ref_spawn (const struct fuzz_case *c, bool use_path, int pipe_r, pid_t *pid)
{
  short int flags = c->no_attr ? 0 : c->eff_flags;
  int err = 0;
  if ((flags & POSIX_SPAWN_SETCGROUP) && c->cgroup < 0)
    err = EINVAL;
  pid_t child = err != 0 ? -1 : fork ();
  if (child == 0)
    {
      close (pipe_r);
      err = ref_child (c, use_path);
      while (write (w.reserved, &err, sizeof err) < 0 && errno == EINTR)
	;
      _exit (127);
    }
  if (child < 0 && err == 0)
    err = errno;
  close (w.reserved);
  if (child > 0)
    {
      ssize_t n;
      while ((n = read (pipe_r, &err, sizeof err)) < 0 && errno == EINTR)
	;
      if (n == 0)
	err = 0;
      else if (n != sizeof err)
	fatal ("the reference's pipe: %zd bytes", n);
      if (err != 0)
	wait_pid (child, NULL);
      else
	*pid = child;
    }
  close (pipe_r);
  return err;
}

/* The calls.  */

enum method
{
  M_REF, M_SPAWN, M_PIDFD_SPAWN, M_REF_P, M_SPAWNP, M_PIDFD_SPAWNP,
  N_METHODS
};
static const char *const method_name[N_METHODS] =
  {
    "reference", "posix_spawn", "pidfd_spawn", "reference of the PATH search",
    "posix_spawnp", "pidfd_spawnp",
  };
static long method_count[N_METHODS];

struct outcome
{
  int ret;		/* The call's result, or the reference's error.  */
  int status;		/* The child's wait status; -1: no child.  */
  char *report;		/* What it reported, or NULL.  */
  char note[512];	/* What else went wrong in the call.  */
};

static void
note (struct outcome *o, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
note (struct outcome *o, const char *fmt, ...)
{
  size_t len = strlen (o->note);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (o->note + len, sizeof o->note - len, fmt, ap);
  va_end (ap);
}

/* Whether the file actions of C may change the scratch directory.  */
static bool
case_writes (const struct fuzz_case *c)
{
  for (int i = 0; i < c->nactions; i++)
    if (c->actions[i].kind == A_OPEN
	&& (c->actions[i].oflag & (O_CREAT | O_TRUNC | O_TMPFILE)) != 0)
      return true;
  return false;
}

static void
run_method (struct fuzz_case *c, enum method m,
	    const posix_spawn_file_actions_t *fa,
	    const posix_spawnattr_t *attr, struct outcome *o)
{
  memset (o, 0, sizeof *o);
  o->status = -1;
  if (w.scratch_dirty)
    scratch_reset ();
  w.scratch_dirty = case_writes (c);
  write_file (w.report, "", 0666);
  caller_enter (c);
  bool p = m >= M_REF_P;
  bool ref = m == M_REF || m == M_REF_P;
  int pipe_r = ref ? ref_pipe () : -1;
  if (p)
    path_enter (c->env_path);
  mode_t old_umask = umask (c->umask);
  struct rlimit rl;
  getrlimit (RLIMIT_NOFILE, &rl);
  if (c->nofile != 0)
    {
      struct rlimit low = { c->nofile, rl.rlim_max };
      if (setrlimit (RLIMIT_NOFILE, &low) != 0)
	fatal ("setrlimit: %m");
    }
  ids_enter (c->ids);

  const posix_spawn_file_actions_t *fap = c->no_actions ? NULL : fa;
  const posix_spawnattr_t *ap = c->no_attr ? NULL : attr;
  const char *path = w.path[c->path], *file = w.file_name[c->file];
  pid_t pid = -1;
  int pidfd = -1;
  /* A stale errno would show as EDOM.  */
  errno = EDOM;
  switch (m)
    {
    case M_REF:
    case M_REF_P:
      o->ret = ref_spawn (c, p, pipe_r, &pid);
      break;
    case M_SPAWN:
      o->ret = posix_spawn (&pid, path, fap, ap, c->argv, c->envp);
      break;
    case M_SPAWNP:
      o->ret = posix_spawnp (&pid, file, fap, ap, c->argv, c->envp);
      break;
    case M_PIDFD_SPAWN:
      o->ret = pidfd_spawn (&pidfd, path, fap, ap, c->argv, c->envp);
      break;
    case M_PIDFD_SPAWNP:
      o->ret = pidfd_spawnp (&pidfd, file, fap, ap, c->argv, c->envp);
      break;
    default:
      abort ();
    }

  ids_leave (c->ids);
  if (c->nofile != 0)
    setrlimit (RLIMIT_NOFILE, &rl);
  umask (old_umask);
  if (p)
    path_leave ();
  /* The caller's signal mask is its own again.  */
  sigset_t now, mask = w.mask;
  sigprocmask (SIG_SETMASK, NULL, &now);
  for (int i = 0; i < w.nsigs; i++)
    if (c->pblock & (1U << i))
      sigaddset (&mask, w.sigs[i]);
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (&now, sig) != sigismember (&mask, sig))
      note (o, "the caller's signal mask changed at %d; ", sig);
  caller_leave (c);

  if (o->ret == 0 && pidfd >= 0)
    {
      /* A pidfd of the child, close-on-exec.  */
      int flags = fcntl (pidfd, F_GETFD);
      if (flags < 0 || !(flags & FD_CLOEXEC))
	note (o, "the pidfd has no FD_CLOEXEC; ");
      if (pidfd_getpid (pidfd) <= 0)
	note (o, "pidfd_getpid: %m; ");
      siginfo_t info;
      int ret;
      while ((ret = waitid (P_PIDFD, pidfd, &info, WEXITED)) != 0
	     && errno == EINTR)
	;
      if (ret != 0)
	note (o, "waitid (P_PIDFD): %m; ");
      else if (info.si_code == CLD_EXITED)
	o->status = info.si_status << 8;
      else
	o->status = info.si_status;
      close (pidfd);
    }
  else if (o->ret == 0 && pid > 0)
    {
      if (wait_pid (pid, &o->status) != pid)
	note (o, "waitpid: %m; ");
    }
  else if (o->ret == 0)
    note (o, "returned 0 without a child; ");
  o->report = read_file (w.report, NULL);
  if (o->report != NULL && o->report[0] == '\0')
    {
      free (o->report);
      o->report = NULL;
    }
}

/* The report mode: what the child sees, written to ARGV[2].  */

static void
normalize (char *s, const char *self)
{
  /* The numbers of pipes and sockets, the inode number that names a file
     of O_TMPFILE ("DIR/#INODE (deleted)"), and this process's ID.  */
  char *p;
  if ((strncmp (s, "pipe:[", 6) == 0 || strncmp (s, "socket:[", 8) == 0)
      && (p = strchr (s, '[')) != NULL)
    strcpy (p, "[]");
  if ((p = strrchr (s, '/')) != NULL && p[1] == '#'
      && strspn (p + 2, "0123456789") > 0
      && strcmp (p + 2 + strspn (p + 2, "0123456789"), " (deleted)") == 0)
    strcpy (p, "/#INODE (deleted)");
  size_t len = strlen (self);
  while ((p = strstr (s, self)) != NULL)
    {
      memcpy (p, "/proc/self", 10);
      memmove (p + 10, p + len, strlen (p + len) + 1);
    }
}

static uint64_t
hash_strings (char **v, size_t *count, size_t *bytes)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  *count = *bytes = 0;
  for (; v != NULL && *v != NULL; v++)
    {
      for (const unsigned char *s = (const unsigned char *) *v;; s++)
	{
	  h = (h ^ *s) * 0x100000001b3ULL;
	  if (*s == '\0')
	    break;
	}
      ++*count;
      *bytes += strlen (*v) + 1;
    }
  return h;
}

static int
cmp_int (const void *a, const void *b)
{
  return *(const int *) a - *(const int *) b;
}

static const char *
relation (pid_t id, pid_t self, pid_t parent, pid_t helper)
{
  static char num[24];
  if (id == self)
    return "self";
  if (id == parent)
    return "parent's";
  if (id == helper)
    return "helper's";
  snprintf (num, sizeof num, "%ld", (long) id);
  return num;
}

static int
report_main (int argc, char **argv, char **envp)
{
  struct buf b = { 0 };
  char self[32];
  snprintf (self, sizeof self, "/proc/%ld", (long) getpid ());

  /* The descriptors first, before anything else opens one.  */
  static int fds[4096];
  int nfds = 0;
  DIR *d = opendir ("/proc/self/fd");
  if (d == NULL)
    buf_printf (&b, "fd list: %s\n", errname (errno));
  else
    {
      struct dirent *e;
      while ((e = readdir (d)) != NULL)
	if (e->d_name[0] != '.' && atoi (e->d_name) != dirfd (d)
	    && nfds < 4096)
	  fds[nfds++] = atoi (e->d_name);
      closedir (d);
    }
  qsort (fds, nfds, sizeof fds[0], cmp_int);
  for (int i = 0; i < nfds; i++)
    {
      char link[64], target[PATH_MAX];
      snprintf (link, sizeof link, "/proc/self/fd/%d", fds[i]);
      ssize_t len = readlink (link, target, sizeof target - 1);
      target[len > 0 ? len : 0] = '\0';
      normalize (target, self);
      struct stat st;
      unsigned int mode = fstat (fds[i], &st) == 0 ? st.st_mode : 0;
      buf_printf (&b, "fd %d %s fd_flags %d fl %#x mode %#o pos %lld\n",
		  fds[i], target, fcntl (fds[i], F_GETFD),
		  fcntl (fds[i], F_GETFL), mode,
		  (long long) lseek (fds[i], 0, SEEK_CUR));
    }

  char path[PATH_MAX];
  ssize_t len = readlink ("/proc/self/exe", path, sizeof path - 1);
  path[len > 0 ? len : 0] = '\0';
  buf_printf (&b, "exe %s\n", path);
  if (getcwd (path, sizeof path) == NULL)
    snprintf (path, sizeof path, "(%s)", errname (errno));
  normalize (path, self);
  buf_printf (&b, "cwd %s\n", path);

  pid_t pid = getpid (), ppid = getppid ();
  pid_t helper = argc > 3 ? atol (argv[3]) : -1;
  buf_printf (&b, "pgid %s", relation (getpgid (0), pid, getpgid (ppid),
				       helper));
  buf_printf (&b, " sid %s\n", relation (getsid (0), pid, getsid (ppid),
					 helper));
  uid_t ru, eu, su;
  gid_t rg, eg, sg;
  getresuid (&ru, &eu, &su);
  getresgid (&rg, &eg, &sg);
  buf_printf (&b, "uid %ld %ld %ld gid %ld %ld %ld groups", (long) ru,
	      (long) eu, (long) su, (long) rg, (long) eg, (long) sg);
  gid_t groups[256];
  int ngroups = getgroups (256, groups);
  for (int i = 0; i < ngroups; i++)
    buf_printf (&b, " %ld", (long) groups[i]);
  struct sched_param sp = { 0 };
  sched_getparam (0, &sp);
  errno = 0;
  int nice = getpriority (PRIO_PROCESS, 0);
  buf_printf (&b, "\nsched %d priority %d nice %d\n", sched_getscheduler (0),
	      sp.sched_priority, errno == 0 ? nice : -100);
  char *cgroup = read_file ("/proc/self/cgroup", NULL);
  for (char *p = cgroup; p != NULL && *p != '\0'; p++)
    if (*p == '\n')
      *p = ';';
  buf_printf (&b, "cgroup %s\n", cgroup == NULL ? "-" : cgroup);
  free (cgroup);
  mode_t mask = umask (0);
  struct rlimit rl;
  getrlimit (RLIMIT_NOFILE, &rl);
  buf_printf (&b, "umask %03o nofile %lld %lld dumpable %d\n",
	      (unsigned int) mask, (long long) rl.rlim_cur,
	      (long long) rl.rlim_max, prctl (PR_GET_DUMPABLE));

  /* Signals: D default, I ignored, H caught, E sigaction refuses it;
     B blocked.  */
  buf_printf (&b, "sigaction ");
  for (int sig = 1; sig < NSIG; sig++)
    {
      struct sigaction sa;
      char ch = 'E';
      if (sigaction (sig, NULL, &sa) == 0)
	ch = (sa.sa_handler == SIG_DFL ? 'D'
	      : sa.sa_handler == SIG_IGN ? 'I' : 'H');
      buf_printf (&b, "%c", ch);
    }
  sigset_t blocked;
  sigprocmask (SIG_BLOCK, NULL, &blocked);
  buf_printf (&b, "\nsigmask   ");
  for (int sig = 1; sig < NSIG; sig++)
    buf_printf (&b, "%c", sigismember (&blocked, sig) == 1 ? 'B' : '.');
  buf_printf (&b, "\n");
  char *status = read_file ("/proc/self/status", NULL);
  for (char *line = status; line != NULL && *line != '\0';)
    {
      char *end = strchrnul (line, '\n');
      static const char *const keys[] =
	{ "SigBlk:", "SigIgn:", "SigCgt:", "CapEff:", "NoNewPrivs:" };
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
	if (strncmp (line, keys[i], strlen (keys[i])) == 0)
	  buf_printf (&b, "%.*s\n", (int) (end - line), line);
      line = *end == '\0' ? end : end + 1;
    }
  free (status);
  size_t count, bytes;
  uint64_t h = hash_strings (argv, &count, &bytes);
  buf_printf (&b, "argc %zu bytes %zu hash %016" PRIx64 "\n", count, bytes,
	      h);
  h = hash_strings (envp, &count, &bytes);
  buf_printf (&b, "envc %zu bytes %zu hash %016" PRIx64 "\nend\n", count,
	      bytes, h);

  int out = open (argv[2], O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (out < 0)
    return 3;
  if (write (out, b.p, b.len) != (ssize_t) b.len)
    return 4;
  return close (out) == 0 ? 0 : 5;
}

/* The comparison.  */

static bool
same (const struct outcome *a, const struct outcome *b)
{
  return (a->ret == b->ret && a->status == b->status
	  && a->note[0] == '\0' && b->note[0] == '\0'
	  && (a->report == NULL ? b->report == NULL
	      : b->report != NULL && strcmp (a->report, b->report) == 0));
}

static void
print_outcome (const char *name, const struct outcome *o)
{
  printf ("  %s: %s", name, errname (o->ret));
  if (o->status == -1)
    printf (", no child");
  else if (WIFEXITED (o->status))
    printf (", the child exited with %d", WEXITSTATUS (o->status));
  else
    printf (", the child was killed by signal %d", o->status & 0x7f);
  if (o->note[0] != '\0')
    printf (", %s", o->note);
  if (o->report == NULL)
    {
      printf (", no report\n");
      return;
    }
  printf (", its report:\n");
  for (const char *line = o->report; *line != '\0';)
    {
      const char *end = strchrnul (line, '\n');
      printf ("    | %.*s\n", (int) (end - line), line);
      line = *end == '\0' ? end : end + 1;
    }
}

static long differences, reported;

/* The kinds of difference, and how often.  */
static struct
{
  char what[256];
  long count;
  long first;			/* The number of its first case.  */
} kinds[64];

/* Count the kind of the difference of O from REF: return true if it is
   a new one.  */
static bool
count_kind (const struct fuzz_case *c, enum method m, const struct outcome *o,
	    const struct outcome *ref)
{
  char what[256];
  /* PATH elements longer than PATH_MAX, which the search skips.  */
  bool long_elem = false;
  for (const char *p = c->env_path; m >= M_REF_P && p != NULL; p++)
    {
      const char *end = strchrnul (p, ':');
      long_elem |= end - p >= PATH_MAX;
      if (*end == '\0')
	break;
      p = end;
    }
  bool long_name = m >= M_REF_P && strlen (w.file_name[c->file]) > NAME_MAX;
  snprintf (what, sizeof what, "%s: %s where the reference gives %s%s%s%s",
	    method_name[m], errname (o->ret), errname (ref->ret),
	    o->ret == ref->ret ? ", another outcome" : "",
	    long_elem ? ", PATH with an element of PATH_MAX bytes or more"
	    : "", long_name ? ", a file name longer than NAME_MAX" : "");
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].count == 0 || strcmp (kinds[i].what, what) == 0)
      {
	if (kinds[i].count == 0)
	  {
	    strcpy (kinds[i].what, what);
	    kinds[i].first = c->number;
	  }
	return kinds[i].count++ == 0;
      }
  return false;
}

static void
compare (const struct fuzz_case *c, enum method m, const struct outcome *o,
	 enum method r, const struct outcome *ref)
{
  if (same (o, ref))
    return;
  differences++;
  bool new_kind = count_kind (c, m, o, ref);
  char what[512];
  snprintf (what, sizeof what, "seed %llu case %ld: %s: %s where the"
	    " reference gives %s (reproduce: spawn-fuzz --seed %llu --case"
	    " %ld)", c->seed, c->number, method_name[m], errname (o->ret),
	    errname (ref->ret), c->seed, c->number);
  /* The first of each kind in full, whatever came before.  */
  if (++reported > SHORT_REPORTS && !new_kind)
    {
      failures++;
      return;
    }
  check (0, what);
  if (reported > FULL_REPORTS && !new_kind)
    return;
  print_case (c);
  print_outcome (method_name[r], ref);
  print_outcome (method_name[m], o);
}

/* The errors of the reference, and how often.  */
static struct
{
  int err;
  long count;
} errors[64];

static void
count_error (int err)
{
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].count == 0 || errors[i].err == err)
      {
	errors[i].err = err;
	errors[i].count++;
	return;
      }
}

/* No descriptor, child or zombie left since the start.  */
static void
leak_check (unsigned long long seed, long number)
{
  char what[256];
  char *now = fd_list ();
  if (strcmp (now, w.fds) != 0)
    {
      snprintf (what, sizeof what, "seed %llu: descriptors left after"
		" case %ld", seed, number);
      check (0, what);
      printf ("  at the start:\n%s  now:\n%s", w.fds, now);
      free (w.fds);
      w.fds = now;
    }
  else
    free (now);
  siginfo_t info;
  memset (&info, 0, sizeof info);
  int ret = waitid (P_ALL, 0, &info, WEXITED | WNOHANG);
  if (!(ret == -1 && errno == ECHILD))
    {
      snprintf (what, sizeof what, "seed %llu: a %s (PID %ld) left after"
		" case %ld", seed, info.si_pid == 0 ? "child" : "zombie",
		(long) info.si_pid, number);
      check (0, what);
      while (wait_pid (-1, NULL) > 0)
	;
    }
}

static char hang_message[256];

static void
hang (int sig)
{
  (void) sig;
  if (write (FD_OUTPUT, hang_message, strlen (hang_message)) < 0)
    _exit (2);
  _exit (1);
}

static void
usage (void)
{
  printf ("usage: spawn-fuzz [--seed N] [--cases N] [--first K] [--case K]"
	  " [--verbose]\n");
  exit (2);
}

int
main (int argc, char **argv, char **envp)
{
  if (argc >= 3 && strcmp (argv[1], "--report") == 0)
    return report_main (argc, argv, envp);
  setvbuf (stdout, NULL, _IOLBF, 0);

  unsigned long long seed = DEFAULT_SEED;
  long first = 0, cases = DEFAULT_CASES;
  bool verbose = false;
  for (int i = 1; i < argc; i++)
    {
      char *end = NULL;
      if (strcmp (argv[i], "--verbose") == 0)
	verbose = true;
      else if (i + 1 >= argc)
	usage ();
      else if (strcmp (argv[i], "--seed") == 0)
	seed = strtoull (argv[++i], &end, 0);
      else if (strcmp (argv[i], "--cases") == 0)
	cases = strtol (argv[++i], &end, 0);
      else if (strcmp (argv[i], "--first") == 0)
	first = strtol (argv[++i], &end, 0);
      else if (strcmp (argv[i], "--case") == 0)
	{
	  first = strtol (argv[++i], &end, 0);
	  cases = 1;
	}
      else
	usage ();
      if (end != NULL && (*end != '\0' || cases < 1 || first < 0))
	usage ();
    }

  world_init (argc, argv);
  printf ("info: seed %llu, cases %ld to %ld; executable %s\n", seed, first,
	  first + cases - 1, w.exe);
  bool on[N_METHODS];
  for (int m = 0; m < N_METHODS; m++)
    on[m] = w.pidfd || (m != M_PIDFD_SPAWN && m != M_PIDFD_SPAWNP);
  signal (SIGALRM, hang);

  struct timespec start, end;
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (long k = first; k < first + cases; k++)
    {
      snprintf (hang_message, sizeof hang_message, "FAIL: seed %llu case"
		" %ld: no answer in %d s\n", seed, k, CASE_LIMIT);
      alarm (CASE_LIMIT);
      struct fuzz_case c;
      case_generate (&c, seed, k);
      posix_spawn_file_actions_t fa;
      posix_spawnattr_t attr;
      case_build (&c, &fa, &attr);
      if (verbose)
	print_case (&c);
      struct outcome out[N_METHODS];
      for (int m = 0; m < N_METHODS; m++)
	{
	  if (!on[m])
	    continue;
	  run_method (&c, m, &fa, &attr, &out[m]);
	  method_count[m]++;
	  if (verbose)
	    print_outcome (method_name[m], &out[m]);
	}
      count_error (out[M_REF].ret);
      count_error (out[M_REF_P].ret);
      for (int m = 0; m < N_METHODS; m++)
	if (on[m] && m != M_REF && m != M_REF_P)
	  compare (&c, m, &out[m], m < M_REF_P ? M_REF : M_REF_P,
		   &out[m < M_REF_P ? M_REF : M_REF_P]);
      for (int m = 0; m < N_METHODS; m++)
	if (on[m])
	  free (out[m].report);
      posix_spawn_file_actions_destroy (&fa);
      posix_spawnattr_destroy (&attr);
      case_free (&c);
      if ((k + 1 - first) % BATCH == 0 || k + 1 == first + cases)
	leak_check (seed, k);
      if ((k + 1 - first) % 10000 == 0)
	{
	  clock_gettime (CLOCK_MONOTONIC, &end);
	  printf ("info: %ld cases, %ld differences, %ld s\n", k + 1 - first,
		  differences, (long) (end.tv_sec - start.tv_sec));
	}
    }
  alarm (0);
  clock_gettime (CLOCK_MONOTONIC, &end);
  double seconds = (end.tv_sec - start.tv_sec)
		   + (end.tv_nsec - start.tv_nsec) / 1e9;

  printf ("info: the reference's results:");
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]
		     && errors[i].count != 0; i++)
    printf (" %s %ld", errors[i].err == 0 ? "a child ran"
	    : errname (errors[i].err), errors[i].count);
  printf ("\n");
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]
		     && kinds[i].count != 0; i++)
    printf ("difference: %s: %ld cases, the first case %ld\n",
	    kinds[i].what, kinds[i].count, kinds[i].first);
  char what[256];
  snprintf (what, sizeof what, "%ld cases of seed %llu: every spawn function"
	    " as the reference, nothing left behind", cases, seed);
  check (failures == 0, what);
  world_end ();
  printf ("spawn-fuzz: seed %llu, %ld cases in %.1f s\n", seed, cases,
	  seconds);
  printf ("spawn-fuzz: cases run:");
  for (int m = 0; m < N_METHODS; m++)
    printf ("%s %s %ld", m == 0 ? "" : ",", method_name[m], method_count[m]);
  printf ("\nspawn-fuzz: %ld differences, %d failed, %d unsupported\n",
	  differences, failures, unsupported);
  return app_status ();
}
