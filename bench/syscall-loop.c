/*
 * Makes argv[1] getppid system calls and prints the nanoseconds one took on average. getppid is
 * not among the calls the seccomp filter refuses, so each one runs the whole filter: the most a
 * call can cost (bench/seccomp-cost.ts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long count = argc > 1 ? atol(argv[1]) : 1000000;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long i = 0; i < count; i++) syscall(SYS_getppid);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ns = (end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec);
  printf("%.2f\n", ns / count);
  return 0;
}
