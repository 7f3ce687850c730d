/* The application tests must run on the libc that make built, not on
   the system's: check that the libc this program loaded is the one in
   the build tree, and that it is a 2.36.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

int
main (void)
{
  /* The loaded libc's own link map: the address of one of its
     functions would not do, as a program built without PIE takes the
     address of its PLT entry for it.  */
  void *libc = dlopen (LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
  struct link_map *map;
  if (libc == NULL || dlinfo (libc, RTLD_DI_LINKMAP, &map) != 0)
    {
      printf ("FAIL: cannot find the loaded %s: %s\n", LIBC_SO, dlerror ());
      return 1;
    }
  printf ("libc %s from %s\n", gnu_get_libc_version (), map->l_name);
  if (strcmp (gnu_get_libc_version (), "2.36") != 0)
    {
      puts ("FAIL: not glibc 2.36");
      return 1;
    }
  if (strstr (map->l_name, "build/obj") == NULL)
    {
      puts ("FAIL: not the libc of the build tree");
      return 1;
    }
  return 0;
}
