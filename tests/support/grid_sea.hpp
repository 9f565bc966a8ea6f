#pragma once
// The sea the grid tests share (wave_grid_test.cpp, wave_grid_velocity_test.cpp):
// 64 components of a JONSWAP sea.
#include <keel/waves.hpp>

#include <vector>

namespace keel::test {

/// JONSWAP Hs 2 m, Tp 7 s, as 64 components about 0.7 rad, seed 3.
inline std::vector<WaveComponent> jonswap64() {
  return sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.7, .componentCount = 64, .seed = 3});
}

}  // namespace keel::test
