#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in libclang_rt.fuzzer, linked by `-sanitize=fuzzer`). SwiftPM gives
/// each executable its own entry point (`<Target>_main`, linked as `main`), so libFuzzer's own
/// `main` is not used: each target's entry point calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
