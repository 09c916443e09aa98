/* other_mpi: the calls the recorder (tools/pmpi/tcpmpi.c) records beyond collectives
 * and messages, for sim/apps_test.sh, on a ring of ranks (a periodic 1D Cart
 * communicator): persistent sends and receives to the neighbours started 4 times
 * (MPI_Startall and MPI_Start), a message found by MPI_Probe, one by MPI_Mprobe and
 * received by MPI_Mrecv, a window with MPI_Put to the right and MPI_Get from the
 * left between fences, then MPI_Accumulate and MPI_Rget (and its MPI_Wait) to the
 * right under MPI_Win_lock, an MPI_Neighbor_allgather and an
 * MPI_Ineighbor_allgather (and its MPI_Wait); each result checked, then one
 * MPI_Allreduce of the checks. Prints "other ok" on rank 0 when all hold. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, dims[1] = {0}, per[1] = {1}, left, right, ok = 1;
    MPI_Comm ring;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    dims[0] = np;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    MPI_Comm_rank(ring, &me);
    MPI_Cart_shift(ring, 0, 1, &left, &right);

    /* persistent: 16 ints to the right, from the left, started 4 times */
    int out[16], in[16];
    MPI_Request q[2];
    MPI_Send_init(out, 16, MPI_INT, right, 7, ring, &q[0]);
    MPI_Recv_init(in, 16, MPI_INT, left, 7, ring, &q[1]);
    for (int it = 0; it < 4; it++) {
        for (int k = 0; k < 16; k++)
            out[k] = 100 * it + me;
        if (it < 3) {
            MPI_Startall(2, q);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        } else {
            MPI_Start(&q[1]);
            MPI_Start(&q[0]);
            MPI_Wait(&q[0], MPI_STATUS_IGNORE);
            MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        }
        ok &= in[15] == 100 * it + left;
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);

    /* a probe, then the receive of what it found (8 bytes) */
    double d = me, got = -1;
    MPI_Status st;
    MPI_Send(&d, 1, MPI_DOUBLE, right, 8, ring);
    MPI_Probe(left, 8, ring, &st);
    MPI_Recv(&got, 1, MPI_DOUBLE, st.MPI_SOURCE, 8, ring, MPI_STATUS_IGNORE);
    ok &= got == left;

    /* a matched probe from any source and its matched receive (24 bytes) */
    long three[3] = {me, me, me}, back[3] = {-1, -1, -1};
    MPI_Message m;
    MPI_Send(three, 3, MPI_LONG, right, 9, ring);
    MPI_Mprobe(MPI_ANY_SOURCE, 9, ring, &m, &st);
    MPI_Mrecv(back, 3, MPI_LONG, &m, MPI_STATUS_IGNORE);
    ok &= back[2] == left && st.MPI_SOURCE == left;

    /* one-sided: 2 doubles put to the right, 3 ints got from the left */
    struct { double x[2]; int k[3]; double acc[2]; } win_buf = {{-1, -1}, {me, me + 1, me + 2}, {0, 0}};
    double two[2] = {me, me + 0.5};
    int k3[3] = {-1, -1, -1};
    MPI_Win w;
    MPI_Win_create(&win_buf, sizeof win_buf, 1, MPI_INFO_NULL, ring, &w);
    MPI_Win_fence(0, w);
    MPI_Put(two, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, w);
    MPI_Win_fence(0, w);
    MPI_Get(k3, 3, MPI_INT, left, (MPI_Aint)((char *)win_buf.k - (char *)&win_buf), 3, MPI_INT, w);
    MPI_Win_fence(0, w);
    ok &= win_buf.x[1] == left + 0.5 && k3[2] == left + 2;
    MPI_Request rq;
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
    /* into acc: the right rank may still be checking x */
    MPI_Accumulate(two, 2, MPI_DOUBLE, right, (MPI_Aint)((char *)win_buf.acc - (char *)&win_buf), 2, MPI_DOUBLE,
                   MPI_SUM, w);
    MPI_Rget(k3, 3, MPI_INT, right, (MPI_Aint)((char *)win_buf.k - (char *)&win_buf), 3, MPI_INT, w, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Win_unlock(right, w);
    ok &= k3[2] == right + 2;
    MPI_Win_free(&w);
    ok &= win_buf.acc[1] == left + 0.5; /* the left rank's accumulate, done by the window's free */

    /* a neighbourhood allgather: one int from each neighbour */
    int nb[2] = {-1, -1};
    MPI_Neighbor_allgather(&me, 1, MPI_INT, nb, 1, MPI_INT, ring);
    ok &= nb[0] == left && nb[1] == right;
    nb[0] = nb[1] = -1;
    MPI_Ineighbor_allgather(&me, 1, MPI_INT, nb, 1, MPI_INT, ring, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    ok &= nb[0] == left && nb[1] == right;

    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, ring);
    if (me == 0)
        printf(all ? "other ok\n" : "other FAILED\n");
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return !all;
}
