#pragma once
// The exact volumes of the solids Bullet's primitive shapes stand for, which
// the hulls built from those shapes are measured against
// (hull_from_shape_test.cpp, hull_from_shape_floating_test.cpp).

namespace keel::test::solids {

inline constexpr double kPi = 3.14159265358979323846;

inline double sphereVolume(double r) { return 4 * kPi * r * r * r / 3; }
inline double cylinderVolume(double r, double h) { return kPi * r * r * h; }
inline double capsuleVolume(double r, double h) { return cylinderVolume(r, h) + sphereVolume(r); }

}  // namespace keel::test::solids
