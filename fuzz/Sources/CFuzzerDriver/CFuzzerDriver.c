// Declarations only: LLVMFuzzerRunDriver comes from libclang_rt.fuzzer, linked by -sanitize=fuzzer.
#include "CFuzzerDriver.h"
