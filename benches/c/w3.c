/* W3, the peer of `impactkit audit corner --reference none` and of the criterion bench
 * `audit_w3`: the stable algorithm of Fassino & Pasquero (2020), Sect. 6, eqs. (18)-(20),
 * as a plain C loop in double precision. alpha = pi/16, eps = 0.9, 10^6 entrance
 * directions evenly spaced over [-alpha, alpha] (ends included), S = 4.5e-16,
 * S_v = 1e-12, N_max = 10^5. Prints rule applications per second on one core.
 *
 *   cc -O2 -march=haswell -o /tmp/w3 benches/c/w3.c -lm && /tmp/w3
 */
#include <math.h>
#include <stdio.h>
#include <time.h>

int main(void) {
    const long n_dir = 1000000, n_max = 100000;
    const double alpha = M_PI / 16, eps = 0.9, s = 4.5e-16, sv = 1e-12;
    const double k = tan(alpha), k2 = k * k, k4 = k2 * k2, den = 1 + k2;
    const double a = (1 - eps * k2) / den, b = (1 + eps) * k / den, c = (eps - k2) / den;
    const double e_k4 = eps * k4, c1 = 1 - (1 + eps) * k2, c2 = k2 * (k2 - (1 + eps));
    const double sv2 = sv * sv;
    for (int rep = 0; rep < 3; rep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        long total = 0;
        double sink = 0;
        for (long i = 0; i < n_dir; i++) {
            double phi = -alpha + (alpha - -alpha) * ((double)i / (double)(n_dir - 1));
            double x = cos(phi), y = sin(phi);
            long n = 0;
            for (;;) {
                double xi = k * x + y, eta = k * x - y;
                if (!(xi > s || eta > s)) break;          /* Z0 */
                if (!(x * x + y * y > sv2)) break;        /* at rest */
                if (n >= n_max) break;
                double nx, ny;
                if (!(xi > s)) {                          /* Z1, (18) */
                    nx = a * x + b * y; ny = b * x - c * y;
                } else if (!(eta > s)) {                  /* Z2, (19) */
                    nx = a * x - b * y; ny = -(b * x) - c * y;
                } else {                                  /* Z12, (20) */
                    double x2 = x * x, y2 = y * y, d = k4 * x2 + y2;
                    nx = (-(e_k4 * x2) + c1 * y2) / d * x;
                    ny = (c2 * x2 - eps * y2) / d * y;
                }
                x = nx; y = ny; n++;
            }
            total += n;
            sink += x + y;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        printf("C loop: %ld rule applications in %.4f s: %.4g per second (checksum %.17g)\n",
               total, sec, total / sec, sink);
    }
    return 0;
}
