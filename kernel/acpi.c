/*
 * Finding the CPUs.  ACPI first: the RSDP lives on a 16-byte boundary in the
 * EBDA's first KiB or in 0xE0000-0xFFFFF; it points to the RSDT, whose MADT
 * ("APIC") lists one local-APIC entry (type 0) per processor.  The Intel MP
 * tables ("_MP_" floating pointer, then a "PCMP" configuration table with
 * 20-byte processor entries) are the fallback.  QEMU's SeaBIOS provides both.
 */
#include "smp.h"
#include "lib.h"

static const char *source = "none";
const char *cpu_table_source(void) { return source; }

static bool checksum_ok(const void *p, size_t n)
{
    uint8_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += ((const uint8_t *)p)[i];
    return sum == 0;
}

static const void *scan(uintptr_t start, size_t len, const char *sig, size_t siglen, size_t csum_len)
{
    for (uintptr_t p = start; p + csum_len <= start + len; p += 16)
        if (memcmp((const void *)p, sig, siglen) == 0 && checksum_ok((const void *)p, csum_len))
            return (const void *)p;
    return NULL;
}

static uintptr_t ebda_base(void)
{
    return (uintptr_t)(*(volatile uint16_t *)0x40e) << 4;
}

int acpi_find_cpus(int *apic_ids, int max, uintptr_t *lapic_base)
{
    const uint8_t *rsdp = NULL;
    uintptr_t ebda = ebda_base();
    if (ebda >= 0x80000 && ebda < 0xa0000)
        rsdp = scan(ebda, 1024, "RSD PTR ", 8, 20);
    if (!rsdp)
        rsdp = scan(0xe0000, 0x20000, "RSD PTR ", 8, 20);
    if (!rsdp)
        return 0;
    const uint8_t *rsdt = (const uint8_t *)(uintptr_t)*(const uint32_t *)(rsdp + 16);
    uint32_t rsdt_len = *(const uint32_t *)(rsdt + 4);
    if (memcmp(rsdt, "RSDT", 4) != 0 || !checksum_ok(rsdt, rsdt_len))
        return 0;
    for (uint32_t off = 36; off + 4 <= rsdt_len; off += 4) {
        const uint8_t *t = (const uint8_t *)(uintptr_t)*(const uint32_t *)(rsdt + off);
        uint32_t len = *(const uint32_t *)(t + 4);
        if (memcmp(t, "APIC", 4) != 0 || !checksum_ok(t, len))
            continue;
        *lapic_base = *(const uint32_t *)(t + 36);
        int n = 0;
        for (uint32_t e = 44; e + 2 <= len; e += t[e + 1]) {
            if (t[e + 1] < 2)
                break;
            if (t[e] == 0 && (*(const uint32_t *)(t + e + 4) & 1) && n < max)   /* enabled local APIC */
                apic_ids[n++] = t[e + 3];
        }
        source = "acpi";
        return n;
    }
    return 0;
}

int mptable_find_cpus(int *apic_ids, int max, uintptr_t *lapic_base)
{
    const uint8_t *mp = NULL;
    uintptr_t ebda = ebda_base();
    if (ebda >= 0x80000 && ebda < 0xa0000)
        mp = scan(ebda, 1024, "_MP_", 4, 16);
    if (!mp)
        mp = scan(0x9fc00, 1024, "_MP_", 4, 16);
    if (!mp)
        mp = scan(0xf0000, 0x10000, "_MP_", 4, 16);
    if (!mp)
        return 0;
    const uint8_t *cfg = (const uint8_t *)(uintptr_t)*(const uint32_t *)(mp + 4);
    if (!cfg || memcmp(cfg, "PCMP", 4) != 0)
        return 0;
    *lapic_base = *(const uint32_t *)(cfg + 36);
    uint16_t entries = *(const uint16_t *)(cfg + 34);
    const uint8_t *e = cfg + 44;
    int n = 0;
    for (uint16_t i = 0; i < entries; i++) {
        if (e[0] == 0) {               /* processor: 20 bytes */
            if ((e[3] & 1) && n < max)
                apic_ids[n++] = e[1];
            e += 20;
        } else {
            e += 8;
        }
    }
    source = "mptable";
    return n;
}
