#pragma once
// The stages of a boat's substep, in the order runSubstep (substep.cpp)
// calls them; each lives in its own file of this folder. docs/model.md §3
// describes them. A stage reads the boat and what earlier stages left in
// the Substep and the BoatState, and writes its own results there.

#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {

/// Reads the pose and the gravity: the water's frame (remade only when
/// gravity changes), its axes in the body frame, and whether the flow wants
/// the water's velocity at every vertex. False, with the flag set, for a
/// static body, no gravity or a non-finite pose (substep.cpp).
[[nodiscard]] bool readPose(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Samples the water height under every point of `points` (the hull's
/// vertices, or the column model's columns; and the water velocity with it
/// when one query can give both), directly or through the patch. False when
/// the surface threw (sample_water.cpp).
[[nodiscard]] bool sampleWater(const BoatModel& boat, BoatState& state, Substep& s, const HullSoA& points);

/// Each point's height above the water; non-finite water heights replaced
/// by the mean of the finite ones. False when no height was finite
/// (sample_water.cpp).
[[nodiscard]] bool heightsAboveWater(const BoatModel& boat, BoatState& state, Substep& s, const HullSoA& points);

/// Each triangle wholly wet, wholly dry, or crossed by the waterline
/// (cut.cpp).
void classify(const BoatModel& boat, BoatState& state, Substep& s);

/// The water's velocity at the wet vertices and the crossing triangles'
/// corners, when the flow wants it per vertex (water_velocity.cpp).
void waterVelocityAtVertices(const BoatModel& boat, BoatState& state, Substep& s);

/// The surface's pressure head at the wet vertices and the wet triangles'
/// corners, with PressureModel::WavePressure (wave_pressure.cpp).
void wavePressureHeads(const BoatModel& boat, BoatState& state, Substep& s);

/// Cuts the crossing triangles at the waterline into pieces (cut.cpp).
void cut(const BoatModel& boat, BoatState& state, Substep& s);

/// Kerner's exact pressure integral over the wet triangles and pieces:
/// force, torque, displaced volume, centre of buoyancy; the force and torque
/// of the wave pressure's heads when wavePressureHeads gave them
/// (pressure.cpp).
void pressure(const BoatModel& boat, BoatState& state, Substep& s);

/// Whether any hydrodynamic term has work this substep.
[[nodiscard]] bool wantsHydrodynamics(const BoatModel& boat, const BoatState& state);

/// The flow over every wet piece: skin friction and pressure drag, the
/// whole triangles' slamming in the same pass, and the boat's velocity
/// relative to the mean water under it (flow.cpp).
void flowTerms(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Slamming of the cut pieces, and the swept rates kept for the next
/// substep (slamming.cpp).
void slamming(const BoatModel& boat, BoatState& state, Substep& s);

/// Air resistance on the emerged faces (air_damping.cpp).
void airResistance(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// The optional damping scaled by the submerged fraction (air_damping.cpp).
void extraDamping(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Limits the hydrodynamic terms so they cannot reverse the motion within
/// the substep, nor add kinetic energy relative to the water (clamp.cpp).
void clampDrag(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Water through the compartments' openings, the floodwater's free
/// surfaces, and its weight at its centroid, for a boat with compartments
/// (floodwater.cpp).
void floodwater(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// The total force and torque, refused when not finite, and the velocity
/// change that makes them act exactly once in the next substep; whether to
/// wake the body. False when nothing is to be applied (velocity_change.cpp).
[[nodiscard]] bool velocityChange(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

}  // namespace keel::KEEL_ABI::detail
