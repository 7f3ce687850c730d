/* Measure what the stack each thread keeps for its next posix_spawn
   child costs: THREADS threads are created and wait; the process's
   METRIC is read; each thread then spawns once (a missing program:
   the child runs on the stack, then fails) and waits again; the metric
   is read again.  Prints the difference per thread:

     size   address space (VmSize), KiB
     rss    resident anonymous memory (RssAnon), KiB
     maps   entries of /proc/self/maps

   Usage: kept-stack-memory THREADS size|rss|maps  */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t created, go, spawned, done;

static void *
thread (void *closure)
{
  (void) closure;
  char *argv[] = { (char *) "/nonexistent/kept-stack-memory", NULL };
  pthread_barrier_wait (&created);
  pthread_barrier_wait (&go);
  pid_t pid;
  /* ENOENT: the child ran on the stack, then failed.  */
  if (posix_spawn (&pid, argv[0], NULL, NULL, argv, NULL) != ENOENT)
    abort ();
  pthread_barrier_wait (&spawned);
  pthread_barrier_wait (&done);
  return NULL;
}

/* The METRIC of this process now.  */
static long int
measure (const char *metric)
{
  const char *file = strcmp (metric, "maps") == 0 ? "/proc/self/maps"
		     : "/proc/self/status";
  const char *key = strcmp (metric, "size") == 0 ? "VmSize:" : "RssAnon:";
  FILE *f = fopen (file, "r");
  if (f == NULL)
    exit (2);
  char line[512];
  long int value = 0;
  while (fgets (line, sizeof line, f) != NULL)
    if (strcmp (metric, "maps") == 0)
      value++;
    else if (strncmp (line, key, strlen (key)) == 0)
      value = atol (line + strlen (key));
  fclose (f);
  return value;
}

int
main (int argc, char **argv)
{
  int n = argc == 3 ? atoi (argv[1]) : 0;
  if (n <= 0 || (strcmp (argv[2], "size") != 0 && strcmp (argv[2], "rss") != 0
		 && strcmp (argv[2], "maps") != 0))
    {
      fprintf (stderr, "usage: %s THREADS size|rss|maps\n", argv[0]);
      return 2;
    }
  pthread_barrier_init (&created, NULL, n + 1);
  pthread_barrier_init (&go, NULL, n + 1);
  pthread_barrier_init (&spawned, NULL, n + 1);
  pthread_barrier_init (&done, NULL, n + 1);
  pthread_t *threads = calloc (n, sizeof *threads);
  if (threads == NULL)
    return 2;
  for (int i = 0; i < n; i++)
    if (pthread_create (&threads[i], NULL, thread, NULL) != 0)
      return 2;
  pthread_barrier_wait (&created);
  long int before = measure (argv[2]);
  pthread_barrier_wait (&go);
  pthread_barrier_wait (&spawned);
  long int after = measure (argv[2]);
  pthread_barrier_wait (&done);
  for (int i = 0; i < n; i++)
    pthread_join (threads[i], NULL);
  printf ("%.2f\n", (double) (after - before) / n);
  return 0;
}
