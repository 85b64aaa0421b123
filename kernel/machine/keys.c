/* The machine layer's static keys (kernel/machine/keys.h). */
#include "keys.h"

extern const struct patch_site __start_machine_vsmp_sites[], __stop_machine_vsmp_sites[];
extern const struct patch_site __start_machine_vsmp_multi_sites[], __stop_machine_vsmp_multi_sites[];

extern const struct patch_site __start_machine_cost_sites[], __stop_machine_cost_sites[];

void machine_keys_enable_vsmp(bool multi)
{
    patch_sites_enable(__start_machine_vsmp_sites, __stop_machine_vsmp_sites, "machine_vsmp");
    if (multi)
        patch_sites_enable(__start_machine_vsmp_multi_sites, __stop_machine_vsmp_multi_sites, "machine_vsmp_multi");
}

void machine_keys_enable_cost(void)
{
    static bool enabled;             /* a site is patched once: patch_sites_enable panics on a jump */
    if (!enabled)
        patch_sites_enable(__start_machine_cost_sites, __stop_machine_cost_sites, "machine_cost");
    enabled = true;
}
