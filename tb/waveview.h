/* The GTKWave views of the co-simulation (tb/waveview.c, docs/waves.md). */
#ifndef TC_WAVEVIEW_H
#define TC_WAVEVIEW_H

#include <stdint.h>

#include "../cmodel/config.h"

/* The RTL's view GTKW of its FST: the routers nodes[0..nn) (roles: their titles), the
 * window from..to (run cycles), the marker and marker A (UINT64_MAX: none); the
 * translate filters are written into dir. */
void tc_wave_view(const char *gtkw, const char *fst, const char *dir, const int *nodes, const char *const *roles,
                  int nn, const tc_params *p, uint64_t from, uint64_t to, uint64_t marker, uint64_t marker_a);
/* The mismatch view: a VCD of node's decoded observation records on both sides
 * (hist[side][cycle % nh]) for cycles from..at, and its save file GTKW. */
void tc_wave_mismatch_view(const char *vcd, const char *gtkw, const uint32_t *const hist[2], int nh, int np, int ns,
                           int node, uint64_t from, uint64_t at);

#endif
