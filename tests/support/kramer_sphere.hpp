#pragma once
// The floating sphere of Kramer et al. (Energies 14(2):269, 2021, a public
// decay benchmark: diameter 300 mm, 7.056 kg, fresh water) and linear
// theory's heave coefficients of a floating hemisphere (Hulme, JFM 121,
// 1982, table 1), for the tests that compare a sphere's heave with them.
#include "test_hulls.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <utility>

namespace keel::test {

/// The benchmark's sphere and tank: radius [m], mass [kg], fresh water's
/// density [kg/m^3] and the tank's gravity [m/s^2].
constexpr double kSphereR = 0.15, kSphereMass = 7.056, kFresh = 998.2, kTankG = 9.82;

/// Hulme (JFM 121, 1982, table 1), a floating hemisphere of radius a in
/// heave, against `K a = w^2 a / g`: its added mass over its displaced mass
/// `M = (2/3) pi rho a^3` (0.5 at infinite frequency, 0.831 at zero), and
/// its radiation damping `B / (rho w (2/3) pi a^3)`.
struct HulmeHeave {
  double ka, addedMass, damping;
};
constexpr std::array<HulmeHeave, 26> kHulmeHeave{{
    {0.0, 0.8310, 0.0},     {0.05, 0.8764, 0.1036}, {0.1, 0.8627, 0.1816}, {0.2, 0.7938, 0.2793}, {0.3, 0.7157, 0.3254},
    {0.4, 0.6452, 0.3410},  {0.5, 0.5861, 0.3391},  {0.6, 0.5381, 0.3271}, {0.7, 0.4999, 0.3098}, {0.8, 0.4698, 0.2899},
    {0.9, 0.4464, 0.2691},  {1.0, 0.4284, 0.2484},  {1.2, 0.4047, 0.2096}, {1.4, 0.3924, 0.1756}, {1.6, 0.3871, 0.1469},
    {1.8, 0.3864, 0.1229},  {2.0, 0.3884, 0.1031},  {2.5, 0.3988, 0.0674}, {3.0, 0.4111, 0.0452}, {4.0, 0.4322, 0.0219},
    {5.0, 0.4471, 0.0116},  {6.0, 0.4574, 0.0066},  {7.0, 0.4647, 0.0040}, {8.0, 0.4700, 0.0026}, {9.0, 0.4740, 0.0017},
    {10.0, 0.4771, 0.0012},
}};

/// Hulme's coefficients at `ka`, interpolated linearly in his table.
inline HulmeHeave hulmeHeave(double ka) {
  for (std::size_t i = 1; i < kHulmeHeave.size(); ++i)
    if (ka <= kHulmeHeave[i].ka) {
      const HulmeHeave& a = kHulmeHeave[i - 1];
      const HulmeHeave& b = kHulmeHeave[i];
      const double s = (ka - a.ka) / (b.ka - a.ka);
      return {ka, a.addedMass + s * (b.addedMass - a.addedMass), a.damping + s * (b.damping - a.damping)};
    }
  return kHulmeHeave.back();
}

/// The half-submerged sphere's displaced mass `(2/3) pi rho R^3` [kg].
inline double sphereDisplacedMass() { return kFresh * 2.0 / 3.0 * std::numbers::pi * kSphereR * kSphereR * kSphereR; }
/// Its heave stiffness `rho g A_wp` [N/m].
inline double sphereStiffness() { return kFresh * kTankG * std::numbers::pi * kSphereR * kSphereR; }

/// Linear theory's heave natural frequency [rad/s] with Hulme's added mass
/// at that frequency itself: `w^2 = c / (m + A(w))`, solved by fixed-point
/// iteration.
inline double hulmeNaturalFrequency() {
  double w2 = sphereStiffness() / kSphereMass;
  for (int i = 0; i < 50; ++i)
    w2 = sphereStiffness() / (kSphereMass + hulmeHeave(w2 * kSphereR / kTankG).addedMass * sphereDisplacedMass());
  return std::sqrt(w2);
}

/// The height [m] of the centre of a sphere hull of mass kSphereMass
/// floating at rest on still fresh water at height 0 (found on the hull
/// itself: a faceted sphere displaces a little less than the sphere).
inline double sphereEquilibrium(const Hull& hull) {
  PoseQuery q;
  q.gravity_mps2 = btVector3(0, -btScalar(kTankG), 0);
  q.waterDensity_kgpm3 = btScalar(kFresh);
  LevelWater still;
  double low = -kSphereR, high = kSphereR;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    const btTransform pose(btQuaternion::getIdentity(), btVector3(0, btScalar(mid), 0));
    (hydrostaticsAtPose(hull, pose, still, q).displacement_kg > kSphereMass ? low : high) = mid;
  }
  return (low + high) / 2;
}

}  // namespace keel::test
