/* Physical pages and the kernel heap.  Every allocator returns NULL when memory runs out; none panics. */
#ifndef KERNEL_MEM_H
#define KERNEL_MEM_H

#include "types.h"

#define PAGE_SIZE 4096

struct mem_region {
    uint64_t base, length;
};

void mem_init(const struct mem_region *usable, int n, uintptr_t kernel_end);
void *page_alloc(int npages);              /* contiguous, page aligned, not zeroed */
void *page_alloc_aligned(int npages, int align_pages);   /* ... and aligned to align_pages pages (a power of 2) */
void page_free(void *p, int npages);
void *kmalloc(size_t n);                   /* 8-byte aligned */
void *kzalloc(size_t n);
void kfree(void *p);
uint32_t mem_usable_mib(void);
uint32_t mem_free_pages(void);
void mem_heap_reap_stats(uint32_t *reaps, uint32_t *pages);  /* failed page allocations' heap reaps, pages they freed */

#endif
