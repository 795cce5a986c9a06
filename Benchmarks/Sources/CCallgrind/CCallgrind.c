// The header's functions are static inline; this file only gives SwiftPM a C target to build.
#include "CCallgrind.h"
