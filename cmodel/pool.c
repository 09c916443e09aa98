#include "pool.h"

#include <stdlib.h>
#include <sys/mman.h>

/* Chunks start small and double up to the pool's chunk size; one below a huge page
 * comes from calloc, so that a small network's run takes no mapping of its own and
 * reuses freed memory, as runs one after another in a process do (tcsim runs = FILE). */
#define FIRST_CHUNK ((size_t)256 << 10)
#define MAPPED_CHUNK ((size_t)2 << 20)

void tc_pool_init(tc_pool *p, size_t chunk)
{
    p->next = p->end = NULL;
    p->chunks = NULL;
    p->chunk = chunk;
    p->next_chunk = FIRST_CHUNK < chunk ? FIRST_CHUNK : chunk;
    p->taken = 0;
}

void *tc_pool_take(tc_pool *p, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    if ((size_t)(p->end - p->next) < bytes) {
        size_t size = bytes + 64 > p->next_chunk ? bytes + 64 : p->next_chunk;
        char *c;
        if (size < MAPPED_CHUNK) {
            if (!(c = calloc(1, size)))
                return NULL;
        } else {
            c = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (c == MAP_FAILED)
                return NULL;
            madvise(c, size, MADV_HUGEPAGE); /* a hint */
        }
        if (p->next_chunk < p->chunk)
            p->next_chunk = 2 * p->next_chunk < p->chunk ? 2 * p->next_chunk : p->chunk;
        ((void **)c)[0] = p->chunks;
        ((size_t *)c)[1] = size;
        p->chunks = c;
        p->next = c + 64;
        p->end = c + size;
    }
    void *r = p->next;
    p->next += bytes;
    p->taken += bytes;
    return r;
}

void tc_pool_free(tc_pool *p)
{
    while (p->chunks) {
        char *c = p->chunks;
        p->chunks = ((void **)c)[0];
        size_t size = ((size_t *)c)[1];
        if (size < MAPPED_CHUNK)
            free(c);
        else
            munmap(c, size);
    }
    tc_pool_init(p, p->chunk);
}
