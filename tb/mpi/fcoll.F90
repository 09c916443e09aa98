! fcoll: a small Fortran MPI program for the recorder's test (sim/apps_test.sh): the
! same calls through each Fortran binding, chosen at build time: BIND=1 mpif.h,
! BIND=2 `use mpi`, BIND=3 `use mpi_f08`. Run on 4 ranks; prints "fcoll ok" when
! every result is right. Its calls, in order, are listed in sim/apps_test.sh.
program fcoll
#if BIND == 2
  use mpi
#elif BIND == 3
  use mpi_f08
#endif
  implicit none
#if BIND == 1
  include 'mpif.h'
#endif
#if BIND == 3
  type(MPI_Comm) :: half, single
  type(MPI_Request) :: req(2)
  type(MPI_Status) :: st
  type(MPI_Win) :: win
#else
  integer :: half, single, req(2), st(MPI_STATUS_SIZE), win
#endif
  integer, volatile :: wbuf(2), gotw ! written by one-sided calls, which the compiler does not see
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer :: me, np, ierr, left, right, i, v(4), w(4), got, gat(4)
  double precision :: x, y
  logical :: ok

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  ok = np == 4
  v = [(10 * i + me, i = 1, 4)]
  call MPI_Bcast(v, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  ok = ok .and. v(2) == 20
  x = me + 1
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  ok = ok .and. y == 10
  call MPI_Iallreduce(me, got, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Wait(req(1), st, ierr)
  ok = ok .and. got == 3
  ! two halves of 2 ranks, then a communicator of each rank alone
  call MPI_Comm_split(MPI_COMM_WORLD, mod(me, 2), me, half, ierr)
  call MPI_Allreduce(me, got, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  ok = ok .and. got == 2 * mod(me, 2) + 2
  call MPI_Barrier(half, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, me, 0, single, ierr)
  call MPI_Allreduce(me, got, 1, MPI_INTEGER, MPI_SUM, single, ierr)
  ok = ok .and. got == me
  ! a ring: nonblocking, then Sendrecv
  left = mod(me + np - 1, np)
  right = mod(me + 1, np)
  call MPI_Irecv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(me, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  ok = ok .and. got == left
  call MPI_Sendrecv(v, 2, MPI_INTEGER, right, 8, w, 4, MPI_INTEGER, left, 8, MPI_COMM_WORLD, st, ierr)
  w = [(me, i = 1, 4)]
  call MPI_Alltoall(w, 1, MPI_INTEGER, v, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  ok = ok .and. all(v == [0, 1, 2, 3])
  call MPI_Gather(me, 1, MPI_INTEGER, gat, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) ok = ok .and. gat(4) == 3
  call MPI_Scan(1, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ok = ok .and. got == me + 1
  w = 1
  call MPI_Reduce_scatter_block(w, got, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ok = ok .and. got == 4
  call MPI_Bcast(v, 0, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  ! persistent: a send to the right, a receive from the left, started together
  call MPI_Send_init(me, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Recv_init(got, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Startall(2, req, ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  ok = ok .and. got == left
  call MPI_Request_free(req(1), ierr)
  call MPI_Request_free(req(2), ierr)
  ! one-sided: put to the right, get from the left, between fences
  wbuf = [-1, 100 + me]
  wsize = 8
  call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(me, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 1
  call MPI_Get(gotw, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  ok = ok .and. wbuf(1) == left .and. gotw == 100 + left
  call MPI_Win_free(win, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Comm_free(single, ierr)
  if (ok) then
    if (me == 0) print '(a)', 'fcoll ok'
  else
    print '(a,i0)', 'fcoll: wrong result on rank ', me
  end if
  call MPI_Finalize(ierr)
end program fcoll
