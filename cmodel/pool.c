#include "pool.h"

#include <sys/mman.h>

void tc_pool_init(tc_pool *p, size_t chunk)
{
    p->next = p->end = NULL;
    p->chunks = NULL;
    p->chunk = chunk;
    p->taken = 0;
}

void *tc_pool_take(tc_pool *p, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    if ((size_t)(p->end - p->next) < bytes) {
        size_t size = bytes + 64 > p->chunk ? bytes + 64 : p->chunk;
        char *c = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (c == MAP_FAILED)
            return NULL;
        madvise(c, size, MADV_HUGEPAGE); /* a hint */
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
        munmap(c, ((size_t *)c)[1]);
    }
    tc_pool_init(p, p->chunk);
}
