/*
 * The perceptron's epoch loop in plain C, the yardstick of `npm run bench -- --c-reference`, which
 * compiles it twice (gcc -O3, and gcc -O3 -march=native -ffast-math) and runs it on the same data as
 * the kernel benchmark. Not part of the tool.
 *
 * usage: reference-kernel <u.f64> <n> <dim> <epochs> <repeats>
 * u.f64: the learner's vectors u_i, n × dim float64, row-major, native byte order.
 * Prints one JSON line: updates and epochs of the run (cyclic, ŵ(0) = 0, η = 1) and the median seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s <u.f64> <n> <dim> <epochs> <repeats>\n", argv[0]);
    return 2;
  }
  long n = atol(argv[2]), dim = atol(argv[3]);
  int maxEpochs = atoi(argv[4]), repeats = atoi(argv[5]);
  double *u = malloc(sizeof(double) * n * dim), *w = malloc(sizeof(double) * dim), *times = malloc(sizeof(double) * repeats);
  FILE *file = fopen(argv[1], "rb");
  if (!file || fread(u, sizeof(double), n * dim, file) != (size_t)(n * dim)) {
    fprintf(stderr, "cannot read %ld x %ld float64 from %s\n", n, dim, argv[1]);
    return 2;
  }
  fclose(file);
  long updates = 0;
  int epochs = 0;
  for (int r = 0; r < repeats; r++) {
    for (long j = 0; j < dim; j++) w[j] = 0;
    double start = now();
    updates = 0;
    for (epochs = 1; epochs <= maxEpochs; epochs++) {
      long mistakes = 0;
      for (long i = 0; i < n; i++) {
        const double *row = u + i * dim;
        double dot = 0;
        for (long j = 0; j < dim; j++) dot += w[j] * row[j];
        if (!(dot > 0)) {
          for (long j = 0; j < dim; j++) w[j] += row[j];
          mistakes++;
        }
      }
      updates += mistakes;
      if (mistakes == 0) break;
    }
    if (epochs > maxEpochs) epochs = maxEpochs;
    times[r] = now() - start;
  }
  qsort(times, repeats, sizeof(double), compare);
  printf("{\"updates\":%ld,\"epochs\":%d,\"seconds\":%.9f}\n", updates, epochs, times[repeats / 2]);
  return 0;
}
