/* The program that the children of scripts/soak/soak.c run: it exits
   with the status its argument names.  Linked statically (run-soak.sh),
   so that it starts without a dynamic loader.

   Usage: exit-status STATUS  */

#include <stdlib.h>

int
main (int argc, char **argv)
{
  return argc == 2 ? atoi (argv[1]) : 127;
}
