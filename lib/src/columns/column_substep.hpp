#pragma once
// The column model's substep (column_substep.cpp): the triangle substep's
// pose, sampling, damping, clamp and velocity-change stages around the
// column buoyancy (docs/columns.md, "The substep").

#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {

/// Runs one substep of the column model (boat.columns not null; the state
/// sized by allocateColumns). Returns as runSubstep does.
[[nodiscard]] bool runColumnSubstep(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s,
                                    double t_s);

/// Each column's immersion and the buoyancy they sum to: force, torque,
/// displaced volume, centre of buoyancy, the lowest column bottom's height
/// above the water.
void columnBuoyancy(const BoatModel& boat, BoatState& state, Substep& s);

/// The boat's velocity relative to the water under it (one velocity per
/// boat), for the damping and the clamp.
void columnRelativeVelocity(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

}  // namespace keel::KEEL_ABI::detail
