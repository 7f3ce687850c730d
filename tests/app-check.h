/* What the application tests share: check prints one line per check
   and counts the failures, skip one line per check the system cannot
   run and counts those; main returns app_status ().  */

#ifndef APP_CHECK_H
#define APP_CHECK_H

#include <stdio.h>

static int failures;
static int unsupported;

static void
check (int ok, const char *what)
{
  printf ("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

static void
skip (const char *what, const char *why)
{
  printf ("unsupported: %s: %s\n", what, why);
  unsupported++;
}

/* The exit status of the test: 1 if a check failed, else 77
   (UNSUPPORTED) if one was skipped, else 0.  */
static int
app_status (void)
{
  return failures != 0 ? 1 : unsupported != 0 ? 77 : 0;
}

#endif
