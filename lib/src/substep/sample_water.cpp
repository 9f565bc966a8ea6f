// The water stages' helpers that run only when the water misbehaves or the
// patch is sampled: out of line, where findWater (sample_water.hpp) calls
// them.
#include "substep/sample_water.hpp"

#include <algorithm>
#include <utility>

namespace keel::KEEL_ABI::detail {

/// Water heights beyond [lo, hi] [m] (the hull's reach plus
/// kPlausibleHead_m) are no sea: when some are within, the others are
/// replaced by their mean and counted; when none is, the hull is deep under
/// the water or high above it and every height is clamped to the bound,
/// which leaves the pressure force of a closed hull unchanged. Returns how
/// many were replaced.
std::size_t replaceImplausible(std::span<btScalar> water_m, btScalar lo, btScalar hi) {
  double sum = 0;
  std::size_t plausible = 0;
  for (const btScalar h : water_m)
    if (h >= lo && h <= hi) sum += double(h), ++plausible;
  if (plausible == 0) {
    for (btScalar& h : water_m) h = std::clamp(h, lo, hi);
    return 0;
  }
  const auto mean = btScalar(sum / double(plausible));
  for (btScalar& h : water_m)
    if (!(h >= lo && h <= hi)) h = mean;
  return water_m.size() - plausible;
}

/// The hull's bounding box (body axes) placed on the water's axes: the
/// horizontal box every vertex lies in, for the patch's velocities.
Footprint footprint(const Hull& hull, const WaterAxes& a) {
  const btVector3 centre = (hull.boundsMin() + hull.boundsMax()) * btScalar(0.5);
  const btVector3 half = (hull.boundsMax() - hull.boundsMin()) * btScalar(0.5);
  const auto along = [&](const btVector3& axis, double origin_m) {
    const double mid = origin_m + double(centre.dot(axis)), reach = double(half.dot(axis.absolute()));
    return std::pair{mid - reach, mid + reach};
  };
  const auto [uLo, uHi] = along(a.east, a.centreEast_m);
  const auto [vLo, vHi] = along(a.north, a.centreNorth_m);
  return {.uLo_m = uLo, .uHi_m = uHi, .vLo_m = vLo, .vHi_m = vHi};
}

}  // namespace keel::KEEL_ABI::detail
