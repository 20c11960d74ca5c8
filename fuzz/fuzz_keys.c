/*
 * fuzz_keys.c - libFuzzer target: every input through fuzz_keys_one()
 * (tests/support/fuzz_entry.c). Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>

#include "../tests/support/fuzz_entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_keys_one(data, size);
    return 0;
}
