/* Memory handed out in pieces that are kept until the whole pool is freed: a unit's
 * SRAM is taken the first time a flit is written into it, so a node's memory follows
 * the buffers its traffic uses (a broadcast uses one link input a node) rather than
 * all of them. Pieces are zeroed; chunks of 2 MB and more are mapped on transparent
 * huge pages. */
#ifndef TC_POOL_H
#define TC_POOL_H

#include <stddef.h>

typedef struct {
    char *next, *end; /* the rest of the current chunk */
    void *chunks;     /* the chunks, each starting with a pointer to the one before */
    size_t chunk;     /* bytes per chunk, at most */
    size_t next_chunk; /* the next chunk's (chunks double up to chunk) */
    size_t taken;     /* bytes handed out */
} tc_pool;

void tc_pool_init(tc_pool *p, size_t chunk);
/* bytes, aligned to 64 (a cache line); NULL if out of memory. */
void *tc_pool_take(tc_pool *p, size_t bytes);
void tc_pool_free(tc_pool *p);

#endif
