#pragma once
// The water's velocity under the whole boat, for the flow terms that take
// one velocity per boat (water_velocity.cpp).

#include "substep/substep.hpp"

#include <span>

namespace keel::KEEL_ABI::detail {

/// The water's velocity [m/s, world] at one point: under the centre of mass,
/// on the mean of `waterHeight_m` (the water under the hull's vertices).
/// Zero, reported, when the surface throws or answers NaN.
[[nodiscard]] btVector3 waterVelocityUnderBoat(const BoatModel& boat, BoatState& state, Substep& s,
                                               std::span<const btScalar> waterHeight_m);

/// The same at height `w_m` [m] along up (the caller's mean water height).
[[nodiscard]] btVector3 waterVelocityAt(const BoatModel& boat, BoatState& state, Substep& s, btScalar w_m);

}  // namespace keel::KEEL_ABI::detail
