#ifndef ONLINESTORE_CSODIUM_SHIM_H
#define ONLINESTORE_CSODIUM_SHIM_H

#include <sodium.h>

#endif
