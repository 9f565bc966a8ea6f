#pragma once
// Internal to Keel: the checks and the eigen-solver the mass properties
// (keel/mass_properties.hpp) share.

#include <keel/config.hpp>

#include "hull/build_steps.hpp"

#include <LinearMath/btVector3.h>

#include <array>

namespace keel::KEEL_ABI::detail {

/// `v` made unit, in double. Throws std::invalid_argument naming `what`
/// when it is zero or not finite.
[[nodiscard]] hull_build::Vec3d unitDirection(const btVector3& v, const char* what);

/// Where edge (a, b) crosses a plane, with signed distances da, db of
/// opposite signs. The ends are taken in one fixed (lexicographic) order,
/// so the two triangles sharing an edge cut it at the same point and a
/// clipped surface stays closed.
[[nodiscard]] hull_build::Vec3d edgeCrossing(hull_build::Vec3d a, double da, hull_build::Vec3d b, double db);

/// `value` when finite and >= 0 (> 0 when `positive`); else throws
/// std::invalid_argument naming `what` and the value.
double checkedNonNegative(double value, const char* what, bool positive = false);

/// The range a body's mass [kg] and each of its principal moments [kg m^2]
/// must lie in: the square root of float's normal range (docs/mass.md,
/// "Bounds"). Bullet inverts both and multiplies them by forces, velocities
/// and each other; a product of two values within it is a normal float. The
/// same in double, so that a model weighs the same in both precisions.
inline constexpr double kLightestBody = 0x1p-63;  // 1.1e-19
inline constexpr double kHeaviestBody = 0x1p63;   // 9.2e18

/// Eigenvalues and unit eigenvectors (columns of `vectors`) of a symmetric
/// 3 x 3 matrix: `a = vectors diag(values) vectors^T`.
struct SymmetricEigen {
  std::array<double, 3> values{};
  std::array<std::array<double, 3>, 3> vectors{};  // [row][column]
};
/// The cyclic Jacobi method (Golub and Van Loan, Matrix Computations, 4th
/// ed., §8.5), run until the off-diagonal is zero to round-off.
[[nodiscard]] SymmetricEigen symmetricEigen(std::array<std::array<double, 3>, 3> a);

}  // namespace keel::KEEL_ABI::detail
