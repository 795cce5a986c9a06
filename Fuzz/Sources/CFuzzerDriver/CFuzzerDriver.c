// Header-only module: declares libFuzzer's LLVMFuzzerRunDriver for the Swift targets.
#include "CFuzzerDriver.h"
