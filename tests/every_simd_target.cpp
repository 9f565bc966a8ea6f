// The tests of everything SIMD (the batch wave queries of waves_*_test.cpp,
// the spectral ocean's grid queries of spectral_ocean_fixed_test.cpp, and
// the boat's kernels through fast_path_test.cpp, water_action_test.cpp and
// wave_pressure_test.cpp, the FFTs of fft_test.cpp, and the wake field's
// grid queries and wet pieces of wake_grid_query_test.cpp)
// once per instruction set Highway compiled into the library: the library
// picks the best one the CPU has at run time, so without this a machine
// would only ever test its own (AVX-512 here, AVX2 or SSE4 elsewhere, one
// lane per vector for the fallback).
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <cstdio>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int failed = 0;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);  // the next dispatch chooses `target`
    std::printf("[ target   ] %s\n", hwy::TargetName(target));
    failed |= RUN_ALL_TESTS();
  }
  hwy::SetSupportedTargetsForTest(0);  // back to the CPU's own choice
  return failed;
}
