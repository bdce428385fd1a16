#define _GNU_SOURCE
#include <sched.h>
#include "ProcessPlacement.h"

/* The mask before pinning; used by the benchmark's one thread. */
static cpu_set_t allowed;
static int isPinned;

int signup_pin_to_first_cpu(void) {
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed)) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0) return -1;
        isPinned = 1;
        return cpu;
    }
    return -1;
}

int signup_unpin(void) {
    if (!isPinned) return 0;
    isPinned = 0;
    return sched_setaffinity(0, sizeof allowed, &allowed);
}
