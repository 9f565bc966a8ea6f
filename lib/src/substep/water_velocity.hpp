#pragma once
// The water's velocity under the whole boat, for the flow terms that take
// one velocity per boat (water_velocity.cpp).

#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {

/// The water's velocity [m/s, world] at one point: under the centre of mass,
/// on the mean water height under the first `sampled` points (the hull's
/// vertices, or the columns). Zero, reported, when the surface throws or
/// answers NaN.
[[nodiscard]] btVector3 waterVelocityUnderBoat(const BoatModel& boat, BoatState& state, Substep& s,
                                               std::size_t sampled);

/// The same at height `w_m` [m] along up (the caller's mean water height).
[[nodiscard]] btVector3 waterVelocityAt(const BoatModel& boat, BoatState& state, Substep& s, btScalar w_m);

}  // namespace keel::KEEL_ABI::detail
