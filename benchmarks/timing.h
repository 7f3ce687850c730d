/* Time and medians for the benchmarks.  */

#include <stdlib.h>
#include <time.h>

static long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int
compare_ll (const void *a, const void *b)
{
  long long x = *(const long long *) a, y = *(const long long *) b;
  return (x > y) - (x < y);
}

/* The median of the N SAMPLES (sorted in place).  */
static long long
median (long long *samples, int n)
{
  qsort (samples, n, sizeof *samples, compare_ll);
  return samples[n / 2];
}
