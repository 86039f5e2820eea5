/* Internal interface of src/device. */
#ifndef SHMEMI_DEVICE_DEVICE_H
#define SHMEMI_DEVICE_DEVICE_H

#include <shmem/device/impl/state__types.h>

/* The library's copy of the device state (valid after shmem_init on a GPU build). */
const shmemi_device_state_t *shmemi_device_state(void);

#endif
