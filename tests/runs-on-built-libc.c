/* The application tests must run on the libc that make built, not on
   the system's: check that the libc this program loaded is the one in
   the build tree, and that it is a 2.36.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <string.h>

int
main (void)
{
  Dl_info info;
  if (dladdr ((void *) gnu_get_libc_version, &info) == 0)
    {
      puts ("FAIL: dladdr cannot place gnu_get_libc_version");
      return 1;
    }
  printf ("libc %s from %s\n", gnu_get_libc_version (), info.dli_fname);
  if (strcmp (gnu_get_libc_version (), "2.36") != 0)
    {
      puts ("FAIL: not glibc 2.36");
      return 1;
    }
  if (strstr (info.dli_fname, "build/obj") == NULL)
    {
      puts ("FAIL: not the libc of the build tree");
      return 1;
    }
  return 0;
}
