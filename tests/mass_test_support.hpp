#pragma once
// Closed-form rigid bodies for the mass-property tests: boxes and points
// combined by the parallel-axis theorem, and the comparison with
// keel::MassProperties.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <array>
#include <type_traits>

namespace keel::test {

constexpr bool kDouble = std::is_same_v<btScalar, double>;
/// Volume moments of meshes whose vertices are exact in float: double round-off.
constexpr double kExact = 1e-12;
/// MassProperties (btScalar fields): 1e-9 relative in double; float's rounding of the results otherwise.
constexpr double kRel = kDouble ? 1e-9 : 1e-6;
/// Meshes turned by a rotation: their vertices round to btScalar.
constexpr double kTurned = kDouble ? 1e-9 : 2e-5;

/// A rigid body in closed form: mass, centre of mass and inertia about it.
struct Body {
  double mass_kg = 0;
  std::array<double, 3> centre_m{};
  std::array<std::array<double, 3>, 3> inertia_kgm2{};  // about the centre
  Body() = default;
  Body(double mass, const btVector3& centre, const btVector3& principal) : mass_kg(mass) {
    for (int i = 0; i < 3; ++i) {
      centre_m[i] = centre[i];
      inertia_kgm2[i][i] = principal[i];
    }
  }
};

/// A solid box of `mass` (may be negative, a hole), full extents `size`, axis-aligned at `centre`.
inline Body boxBody(double mass, const btVector3& size, const btVector3& centre) {
  const double x = size.x(), y = size.y(), z = size.z();
  return {mass, centre,
          btVector3(btScalar(mass * (y * y + z * z) / 12), btScalar(mass * (x * x + z * z) / 12),
                    btScalar(mass * (x * x + y * y) / 12))};
}
/// A point mass.
inline Body point(double mass, const btVector3& at) { return {mass, at, btVector3(0, 0, 0)}; }
/// Two bodies as one (parallel-axis theorem).
Body combine(const Body& a, const Body& b);

/// `m` matches `expected` to `rel` (relative to the mass, the body's size
/// and its largest moment), and its principal frame rebuilds its inertia.
void expectProperties(const MassProperties& m, const Body& expected, double rel);
void expectNear(const btVector3& a, const btVector3& b, double tol);

}  // namespace keel::test
