/* What clone3 answers here: the name of the error of
   syscall (SYS_clone3, NULL, 0), which no kernel accepts.  A kernel
   with clone3 says EFAULT or EINVAL (it read the call); a seccomp
   filter that refuses clone3 says what its profile names: ENOSYS, so
   that libc falls back to clone, or EPERM.  scripts/container/
   check-container.sh builds it on this machine and runs it here and in
   the container.  Prints the name, or "none" where the call succeeded
   (it cannot).

   Usage: clone3-probe  */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int
main (void)
{
#ifdef SYS_clone3
  long int ret = syscall (SYS_clone3, NULL, 0);
  const char *name = ret == -1 ? strerrorname_np (errno) : NULL;
  puts (ret == -1 ? (name != NULL ? name : "unknown") : "none");
#else
  puts ("ENOSYS");
#endif
  return 0;
}
