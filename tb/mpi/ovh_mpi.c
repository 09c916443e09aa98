/* ovh_mpi: the recorder's cost a call (docs/applications.md). One rank times N
 * rounds of each of: MPI_Allreduce of one int on MPI_COMM_WORLD, MPI_Bcast of one
 * int, and MPI_Isend + MPI_Irecv to itself with their MPI_Waitall (3 calls, 4
 * records); run it with and without build/libtcpmpi.so preloaded and subtract.
 *   mpirun -np 1 [-x LD_PRELOAD=build/libtcpmpi.so] build/ovh_mpi [N]   (default 200000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 200000;
    int x = 1, y, me;
    MPI_Request q[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    for (long i = 0; i < n; i++)
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        MPI_Irecv(&y, 1, MPI_INT, me, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&x, 1, MPI_INT, me, 0, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    double t3 = MPI_Wtime();
    printf("ns a round: allreduce %.1f, bcast %.1f, isend+irecv+waitall %.1f\n", (t1 - t0) * 1e9 / (double)n,
           (t2 - t1) * 1e9 / (double)n, (t3 - t2) * 1e9 / (double)n);
    MPI_Finalize();
    return 0;
}
