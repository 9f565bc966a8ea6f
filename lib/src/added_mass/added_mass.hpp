#pragma once
// The added-mass model (docs/model.md, "Added mass"), shared by the substep
// and the public queries of keel/added_mass.hpp.

#include <keel/added_mass.hpp>
#include <keel/hull.hpp>
#include <keel/volume_moments.hpp>

#include <LinearMath/btScalar.h>
#include <LinearMath/btVector3.h>

#include <array>
#include <span>

namespace keel::KEEL_ABI::detail {

/// The diagonal of Lamb's added mass of the ellipsoid with semi-axes `a_m`,
/// `b_m`, `c_m` > 0 along x, y, z about its centre (surge, sway, heave [kg],
/// roll, pitch, yaw [kg m^2]); ellipsoidAddedMass() without its checks.
[[nodiscard]] std::array<double, 6> ellipsoidDiagonal(double a_m, double b_m, double c_m, double density_kgpm3);

/// The level the added mass takes the water at, from the water heights
/// [m] under a hull's vertices (world, along up, as the Heights stage leaves
/// them): their mean (docs/model.md, "Added mass"). Zero for no heights.
/// addedMassBelowPlane's height is this less the centre of mass along up.
[[nodiscard]] double meanWaterHeight(std::span<const btScalar> height_m);

/// The added mass of `hull` (vertices in its centre-of-mass frame) with
/// the water's surface taken as the level plane `up . x = waterHeight_m`
/// (hull frame; `up` a unit vector, against gravity), in water of density
/// `density_kgpm3`: zero when the hull lies wholly above the plane, and
/// continuous as it enters, floats and goes under. About the centre of
/// mass, hull axes. Computed in double; allocates nothing. A zero or
/// non-finite `up`, a NaN height or a density that is not positive and
/// finite give zero (it runs inside the substep, which must not throw); a
/// height of +inf, the hull deep under water. `whole`, when given, is
/// keel::volumeMoments(hull), which a hull under the plane then does not
/// integrate again (the substep can keep it per boat: the integral is most
/// of the cost, keel_bench --benchmark_filter=addedMass).
[[nodiscard]] AddedMass addedMassBelowPlane(const Hull& hull, const btVector3& up, double waterHeight_m,
                                            double density_kgpm3, const Moments* whole = nullptr);

}  // namespace keel::KEEL_ABI::detail
