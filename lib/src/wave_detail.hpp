#pragma once
// Internal to Keel: what the wave surfaces (waves.cpp, gerstner.cpp) share.

#include <keel/waves.hpp>

#include <cstddef>
#include <vector>

namespace keel::detail {

/// Points per block of the batch queries: their double scratch arrays live on
/// the stack (a few KiB), so the batches allocate nothing.
inline constexpr std::size_t kWaveBlock = 64;

/// Checks `components` (see SineSumSurface's constructor) and normalises their
/// directions. Throws std::invalid_argument whose message starts with `who`.
[[nodiscard]] std::vector<WaveComponent> checkedComponents(std::vector<WaveComponent> components,
                                                           const char* who);

/// Throws std::invalid_argument (message starting with `who`) when the mean
/// level or the current is not finite.
void checkField(double meanLevel_m, const UniformCurrent& current, const char* who);

/// The part of a component's phase that does not depend on position,
/// `phi - omega t` [rad]; computed once per component in the batch queries and
/// the same way in the single ones, so both give the same numbers.
[[nodiscard]] inline double phaseAtOrigin_rad(const WaveComponent& c, double t_s) {
  return c.phase_rad - c.angularFrequency_radps * t_s;
}

/// Phase `k d.x + phaseAtOrigin` [rad] at (x, y) [m] in the frame drifting
/// with the current.
[[nodiscard]] inline double phase_rad(const WaveComponent& c, double x_m, double y_m,
                                      double phaseAtOrigin) {
  return c.wavenumber_radpm * (c.directionEast * x_m + c.directionNorth * y_m) + phaseAtOrigin;
}

}  // namespace keel::detail
