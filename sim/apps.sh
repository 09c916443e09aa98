#!/usr/bin/env bash
# make apps: the applications of Mukosey, Semenov and Simonov (2015) on tcnet (sim/apps.py):
# docs/applications.md, docs/apps.csv and the plots.
set -eu
cd "$(dirname "$0")/.."
make -s build/tcnet build/tckern build/libtcpmpi.so build/heat_mpi build/tcotf2
/usr/bin/python3 sim/apps.py
