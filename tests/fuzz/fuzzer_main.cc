// The libFuzzer entry point of one target; ARBITER_FUZZ_TARGET names the
// function of fuzz_targets.h (set per binary in CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::ARBITER_FUZZ_TARGET(data, size);
  return 0;
}
