/* Boot-time code patching: kernel/patch_site.h. */
#include "patch_site.h"
#include "cpu.h"
#include "lib.h"
#include "x86.h"

void patch_sites_enable(const struct patch_site *start, const struct patch_site *stop, const char *what)
{
    if (ncpus_online > 1)
        panic("%s sites: the code is patched before the other CPUs start", what);
    for (const struct patch_site *s = start; s < stop; s++) {
        uint8_t *p = (uint8_t *)(uintptr_t)s->site;
        if (p[0] != 0x0f || p[1] != 0x1f || p[2] != 0x44 || p[3] != 0 || p[4] != 0)
            panic("%s site %p is not the 5-byte NOP", what, (void *)p);
        int32_t rel = (int32_t)(s->target - (s->site + 5));
        p[1] = (uint8_t)rel;
        p[2] = (uint8_t)(rel >> 8);
        p[3] = (uint8_t)(rel >> 16);
        p[4] = (uint8_t)(rel >> 24);
        barrier();
        p[0] = 0xe9;                     /* jmp rel32 */
    }
    uint32_t a, b, c, d;
    cpuid(0, &a, &b, &c, &d);            /* serialising: no stale NOP in the pipeline (Intel SDM 8.1.3) */
}
