#pragma once
// The added-mass model (docs/model.md, "Added mass"), shared by the substep
// and the public queries of keel/added_mass.hpp.

#include <keel/added_mass.hpp>
#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

namespace keel::KEEL_ABI::detail {

/// The added mass of `hull` (vertices in its centre-of-mass frame) with
/// the water's surface taken as the level plane `up . x = waterHeight_m`
/// (hull frame; `up` a unit vector, against gravity), in water of density
/// `density_kgpm3`: zero when the hull lies wholly above the plane, and
/// continuous as it enters, floats and goes under. About the centre of
/// mass, hull axes. Computed in double; allocates nothing.
[[nodiscard]] AddedMass addedMassBelowPlane(const Hull& hull, const btVector3& up, double waterHeight_m,
                                            double density_kgpm3);

}  // namespace keel::KEEL_ABI::detail
