/* heat_mpi: the explicit 2D nonlinear heat equation of Mukosey, Semenov and Simonov
 * (2015), section 3.3, as a small MPI program for make trace-demo: the grid split in
 * row strips, the edges exchanged with MPI_Sendrecv every step, the time step from
 * the maximum conductivity (MPI_Allreduce, max), the parameters broadcast at the
 * start, the total heat reduced to rank 0 every 10 steps, the ranks' times
 * all-gathered at the end. Checks that the total heat stays finite and positive.
 *   heat_mpi [SIDE [STEPS]]   (defaults 256, 40) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    long par[2] = {256, 40}; /* side, steps */
    if (me == 0 && argc > 1)
        par[0] = atol(argv[1]);
    if (me == 0 && argc > 2)
        par[1] = atol(argv[2]);
    MPI_Bcast(par, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    long side = par[0], steps = par[1];
    if (side < np || steps < 1) {
        if (!me)
            fprintf(stderr, "heat_mpi: SIDE %ld must be at least the %d ranks, STEPS at least 1\n", side, np);
        MPI_Finalize();
        return 2;
    }
    long rows = side / np + (me < side % np), w = side + 2;
    double *u = calloc((size_t)((rows + 2) * w), sizeof *u), *un = calloc((size_t)((rows + 2) * w), sizeof *un);
    for (long i = 1; i <= rows; i++)
        for (long j = 1; j <= side; j++)
            u[i * w + j] = (double)((i * 7 + j * 3 + me) % 11) * 0.1;
    int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < np - 1 ? me + 1 : MPI_PROC_NULL;
    double t0 = MPI_Wtime(), total = 0.0;
    for (long s = 0; s < steps; s++) {
        MPI_Sendrecv(&u[w], (int)w, MPI_DOUBLE, up, 0, &u[(rows + 1) * w], (int)w, MPI_DOUBLE, down, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[rows * w], (int)w, MPI_DOUBLE, down, 1, &u[0], (int)w, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double smax = 0.0, gmax;
        for (long i = 1; i <= rows; i++)
            for (long j = 1; j <= side; j++) {
                double c = u[i * w + j], sig = 1.0 + 0.5 * c * c;
                smax = sig > smax ? sig : smax;
            }
        MPI_Allreduce(&smax, &gmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        double dt = 0.2 / gmax; /* the stability bound of the explicit scheme, h = 1 */
        for (long i = 1; i <= rows; i++)
            for (long j = 1; j <= side; j++) {
                double c = u[i * w + j], sig = 1.0 + 0.5 * c * c;
                double lap = u[i * w + j + 1] + u[i * w + j - 1] + u[(i + 1) * w + j] + u[(i - 1) * w + j] - 4 * c;
                un[i * w + j] = c + dt * (sig * lap + 1e-3);
            }
        double *tmp = u;
        u = un, un = tmp;
        if (s % 10 == 9) {
            double mine = 0.0;
            for (long i = 1; i <= rows; i++)
                for (long j = 1; j <= side; j++)
                    mine += u[i * w + j];
            MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double mytime = MPI_Wtime() - t0, *times = malloc((size_t)np * sizeof *times);
    MPI_Allgather(&mytime, 1, MPI_DOUBLE, times, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    int bad = !(total > 0.0 && total < 1e300);
    if (!me)
        printf("heat_mpi: %d ranks, %ld x %ld cells, %ld steps: total heat %.6g%s, slowest rank %.3f s\n", np, side,
               side, steps, total, bad ? " (WRONG)" : "", times[np - 1]);
    free(u), free(un), free(times);
    MPI_Finalize();
    return !me && bad;
}
