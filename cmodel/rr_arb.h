/* The round-robin pick, the twin of rtl/tc_rr_arb.v. */
#ifndef TC_RR_ARB_H
#define TC_RR_ARB_H

/* Of the requests elig (a bit per requester, not none), the first at or after the
 * pointer ptr, else the first; the pointer then moves past the winner (mod N). */
static inline unsigned tc_rr_pick(unsigned elig, unsigned ptr)
{
    unsigned hi = elig & ~((1u << ptr) - 1);
    return (unsigned)__builtin_ctz(hi ? hi : elig);
}

#endif
