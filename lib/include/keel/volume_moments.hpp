#pragma once
/// @file volume_moments.hpp
/// Exact volume and area integrals of closed triangle meshes (docs/mass.md):
/// the volume, first and second moments of a hull, of the part of it below
/// a plane, and of its surface. keel::MassModel weighs them with densities;
/// they are public so that a compartment's contents can be re-weighed
/// without integrating again. Computed in double whatever btScalar is.

#include <keel/config.hpp>
#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

#include <array>
#include <span>

namespace keel::KEEL_ABI {

/// Zeroth, first and second moments of a distribution w over a region,
/// about the hull frame's origin, along its axes. For a volume (w = 1) the
/// units are m^3, m^4, m^5; for an area m^2, m^3, m^4; weighed by a density
/// kg, kg m, kg m^2. Moments of disjoint regions add, and scale with w.
struct Moments {
  double zeroth = 0;              ///< integral of w: volume, area or mass
  std::array<double, 3> first{};  ///< integral of w x_i, i = x, y, z
  /// Integral of w x_i x_j, in the order xx, yy, zz, xy, yz, zx (not the
  /// inertia: keel::massProperties() turns these into it).
  std::array<double, 6> second{};

  Moments& operator+=(const Moments& other);
  /// These moments weighed by `w` (a density turns volume moments into mass moments).
  [[nodiscard]] Moments scaled(double w) const;
};

/// Volume moments of the solid a closed, outward-wound triangle mesh
/// encloses (a Hull is validated to be one), by the divergence theorem:
/// each triangle with the origin spans a signed tetrahedron whose
/// integrals are exact polynomials of its corners (Mirtich 1996; Tonon,
/// J. Math. Stat. 1(1), 2005). Exact to round-off in double.
[[nodiscard]] Moments volumeMoments(const Hull& hull);
/// As above for raw vertices [m] and triangles wound counter-clockwise seen
/// from outside. The mesh is not checked for being closed (build a Hull for
/// that); a triangle index past `vertices` throws std::invalid_argument.
[[nodiscard]] Moments volumeMoments(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles);

/// Volume moments of the part of the closed mesh where `up . x <= height_m
/// |up|` (below the plane at signed distance `height_m` along the unit
/// `up`, hull frame): the clipped polyhedron, closed by its cap polygon in
/// the plane, integrated exactly. Throws std::invalid_argument when `up` is
/// zero or not finite, or `height_m` is not finite. Zero when nothing is
/// below, the whole volume when nothing is above, exactly (a plane however
/// far from the mesh).
[[nodiscard]] Moments volumeMomentsBelow(const Hull& hull, const btVector3& up, double height_m);
/// As above for raw vertices and triangles (volumeMoments()' conditions).
[[nodiscard]] Moments volumeMomentsBelow(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles,
                                         const btVector3& up, double height_m);

/// Area moments of a mesh's surface (m^2, m^3, m^4), exact for triangles:
/// a triangle's `integral of x x^T dA = A/12 (sum of v v^T + s s^T)` over its
/// corners v, s their sum. A thin shell of thickness t and density rho
/// weighs `rho t` times these.
[[nodiscard]] Moments areaMoments(const Hull& hull);

}  // namespace keel::KEEL_ABI
