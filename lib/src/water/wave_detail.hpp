#pragma once
// Internal to Keel: what the wave surfaces (waves.cpp, gerstner.cpp) share
// with each other and with their batch queries (sine_sum_simd.cpp,
// gerstner_simd.cpp).

#include <keel/surface_authoring.hpp>
#include <keel/waves.hpp>

#include "math/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// GerstnerSurface's Newton iteration, shared by the scalar solve
/// (gerstner.cpp) and the vector one (gerstner_simd.cpp): it stops when the
/// horizontal residual |x(x0) - x| is below this [m]. The height's error is
/// at most sum k a / (1 - Q sum k a) times it: far below float's resolution
/// of a height, and 1e5 times below the 1e-4 m the tests demand.
inline constexpr double kGerstnerResidualTolerance_m = 1e-9;
/// Newton converges quadratically from the first iterations on for usual
/// steepness; the caps only guarantee termination.
inline constexpr int kGerstnerMaxNewtonIterations = 50;
inline constexpr int kGerstnerMaxStepHalvings = 30;
/// The largest phase step [rad] whose sin and cos the batch solve takes
/// from the angle-addition identity and a Taylor series (gerstner_simd.cpp,
/// sinCosOfStep), and a grid's warm start's most phase moved in time.
inline constexpr double kGerstnerPhaseStepBound_rad = 0.5;
/// |F| [m] to which a grid's node is solved when it starts from its last
/// solution (GridHistory): 10 um of the rest position, which moves the
/// height by less than that (|grad eta| = |sum Q a k sin| < 1 below the fold
/// limit), a thousandth of a 1 m patch cell's interpolation error on a real
/// sea (docs/waves.md, "Grids"). From a substep's motion (about 1 cm at 60
/// Hz) one Newton step reaches it, where 1e-9 m takes two.
inline constexpr double kGerstnerGridTolerance_m = 1e-5;

/// Checks `components` (see SineSumSurface's constructor) and normalises their
/// directions. Throws std::invalid_argument whose message starts with `who`.
[[nodiscard]] std::vector<WaveComponent> checkedComponents(std::vector<WaveComponent> components, const char* who);

/// Throws std::invalid_argument (message starting with `who`) when the mean
/// level or the current is not finite.
void checkField(double meanLevel_m, const UniformCurrent& current, const char* who);

/// The part of a component's phase that does not depend on position,
/// `phi - omega t` [rad], and with a current the drift's phase
/// `- k d.current t` (the field drifts: theta = k d.(x - current t) + phi -
/// omega t), so that positions enter as they are (an exact zero without a
/// current); computed once per component in the batch queries and the same
/// way in the single ones, so both give the same numbers.
[[nodiscard]] inline double phaseAtOrigin_rad(const WaveComponent& c, double t_s, const UniformCurrent& current = {}) {
  const double drift_rad = c.wavenumber_radpm *
                           (c.directionEast * current.east_mps + c.directionNorth * current.north_mps) * t_s;
  return (c.phase_rad - c.angularFrequency_radps * t_s) - drift_rad;
}

/// How fast a component's phase turns at a fixed point [rad/s]: omega plus
/// the Doppler shift `k d.current` of the drifting field.
[[nodiscard]] inline double fixedPointFrequency_radps(const WaveComponent& c, const UniformCurrent& current) {
  return c.angularFrequency_radps +
         c.wavenumber_radpm * (c.directionEast * current.east_mps + c.directionNorth * current.north_mps);
}

/// Phase `k d.x + phaseAtOrigin` [rad] at (x, y) [m] in the frame drifting
/// with the current.
[[nodiscard]] inline double phase_rad(const WaveComponent& c, double x_m, double y_m, double phaseAtOrigin) {
  return c.wavenumber_radpm * (c.directionEast * x_m + c.directionNorth * y_m) + phaseAtOrigin;
}

/// Linear (Airy) pressure head p / (rho g) [m] at height w [m] below a
/// surface at height eta [m], the components' phases taken at (x, y) [m] in
/// the frame drifting with the current (the rest point of the surface
/// particle for Gerstner waves), time t [s]; or, given the current, at
/// (x, y) where they are. Deep water (Newman, Marine
/// Hydrodynamics, 1977, ch. 6; Faltinsen 1990, table 2.1):
/// `sum a e^{k z} cos(theta) - z` below the mean level, the decay stretched
/// to the instantaneous surface (Wheeler 1970, deep water: z = w - eta).
/// Written as the static head `eta - w` plus `sum a (e^{k z} - 1)
/// cos(theta)`, which is 0 at the surface and above it (z clamped to 0).
[[nodiscard]] inline double airyPressureHead_m(std::span<const WaveComponent> components, double eta_m, double w_m,
                                               double x_m, double y_m, double t_s, const UniformCurrent& current = {}) {
  const double z = std::min(w_m - eta_m, 0.0);
  double dynamic_m = 0;
  for (const WaveComponent& c : components)
    dynamic_m += c.amplitude_m * det::expm1(c.wavenumber_radpm * z) *
                 det::cos(phase_rad(c, x_m, y_m, phaseAtOrigin_rad(c, t_s, current)));
  return (eta_m - w_m) + dynamic_m;
}

}  // namespace keel::KEEL_ABI::detail
