/*
 * fuzz_daily_entry.c - libFuzzer target: every input through
 * fuzz_daily_entry_one() (tests/support/fuzz_entry.c): the bodies of
 * a daily entry and a daily finish. Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>

#include "../tests/support/fuzz_entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_daily_entry_one(data, size);
    return 0;
}
