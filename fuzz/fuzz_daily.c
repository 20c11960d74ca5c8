/*
 * fuzz_daily.c - libFuzzer target: every input through fuzz_daily_one()
 * (tests/support/fuzz_entry.c). Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>

#include "../tests/support/fuzz_entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_daily_one(data, size);
    return 0;
}
