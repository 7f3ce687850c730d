/* What the application tests share: check prints one line per check
   and counts the failures; main returns failures != 0.  */

#ifndef APP_CHECK_H
#define APP_CHECK_H

#include <stdio.h>

static int failures;

static void
check (int ok, const char *what)
{
  printf ("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

#endif
