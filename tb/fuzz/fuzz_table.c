/* libFuzzer harness of the routing-table loader (tc_table_load). The first byte picks
 * a torus, the rest is the table text. A table the loader accepts must validate,
 * and write and load back to the same rows. Run by sim/fuzz.sh (make fuzz). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmodel/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int shapes[][5] = {{2, 4, 4, 1, 1}, {1, 5, 1, 1, 1}, {3, 3, 2, 2, 1}, {4, 2, 2, 2, 2},
                                    {1, 1, 1, 1, 1}, {2, 2, 1, 1, 1}, {2, 8, 8, 1, 1}, {3, 3, 1, 2, 1}};
    tc_topo t;
    char err[256];
    if (size < 1)
        return 0;
    const int *s = shapes[data[0] % (sizeof shapes / sizeof shapes[0])];
    if (tc_topo_init(&t, s[0], s + 1, err, sizeof err))
        abort();
    size_t nrows = (size_t)t.n * TC_TREES;
    tc_row *rows = calloc(nrows, sizeof *rows), *again = calloc(nrows, sizeof *again);
    FILE *f = fmemopen(size > 1 ? (void *)(data + 1) : (void *)"", size > 1 ? size - 1 : 0, "r");
    if (!f || !rows || !again)
        abort();
    err[0] = 0;
    int rc = tc_table_load(&t, rows, f, err, sizeof err);
    fclose(f);
    if (rc != 0 && rc != -1)
        abort();
    if (rc == -1 && (!err[0] || !memchr(err, 0, sizeof err))) /* refused without saying why */
        abort();
    if (rc == 0) {
        char *buf = NULL;
        size_t len = 0;
        if (tc_table_validate(&t, rows, err, sizeof err))
            abort();
        f = open_memstream(&buf, &len);
        tc_table_write(&t, rows, f);
        fclose(f);
        f = fmemopen(buf, len ? len : 1, "r");
        if (tc_table_load(&t, again, f, err, sizeof err) || memcmp(rows, again, nrows * sizeof *rows))
            abort(); /* what was accepted must write and read back unchanged */
        fclose(f);
        free(buf);
    }
    free(rows);
    free(again);
    return 0;
}
