// Closed-form rigid bodies for the mass-property tests.
#include "mass_test_support.hpp"

#include <algorithm>
#include <cmath>

namespace keel::test {

Body combine(const Body& a, const Body& b) {
  Body out;
  out.mass_kg = a.mass_kg + b.mass_kg;
  for (int i = 0; i < 3; ++i) out.centre_m[i] = (a.mass_kg * a.centre_m[i] + b.mass_kg * b.centre_m[i]) / out.mass_kg;
  for (const Body* part : {&a, &b}) {
    double d[3], dd = 0;
    for (int i = 0; i < 3; ++i) {
      d[i] = part->centre_m[i] - out.centre_m[i];
      dd += d[i] * d[i];
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        out.inertia_kgm2[i][j] += part->inertia_kgm2[i][j] + part->mass_kg * ((i == j ? dd : 0) - d[i] * d[j]);
  }
  return out;
}

void expectNear(const btVector3& a, const btVector3& b, double tol) {
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], tol) << "component " << i;
}

void expectProperties(const MassProperties& m, const Body& expected, double rel) {
  EXPECT_NEAR(m.mass_kg, expected.mass_kg, rel * expected.mass_kg);
  double size = 1, largest = 0;
  for (int i = 0; i < 3; ++i) size = std::max(size, std::abs(expected.centre_m[i]));
  for (const auto& row : expected.inertia_kgm2)
    for (double v : row) largest = std::max(largest, std::abs(v));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m.centreOfMass_m[i], expected.centre_m[i], rel * size) << "centre " << i;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(m.inertia_kgm2[i][j], expected.inertia_kgm2[i][j], rel * largest) << "inertia " << i << j;
  const btMatrix3x3 rebuilt = m.principalAxes.scaled(m.principalInertia_kgm2) * m.principalAxes.transpose();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(rebuilt[i][j], m.inertia_kgm2[i][j], 4 * rel * largest);
  EXPECT_NEAR(m.principalAxes.determinant(), 1, 4 * rel);
}

}  // namespace keel::test
