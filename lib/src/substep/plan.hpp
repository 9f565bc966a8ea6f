#pragma once
// What one substep will do, decided once before its stages run: how the
// water is sampled, which water velocities the terms read, which pressure
// acts, which terms run. Each buoyancy model makes its own (planTriangles
// in plan_inline.hpp, planColumns in lib/src/columns); the stages read it and never
// change it. The decisions that hang on this substep's water (is the hull
// wet?) stay with the stages, as results.

#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/water_action.hpp>

#include <cstdint>

namespace keel::KEEL_ABI::detail {

struct BoatModel;
struct BoatState;

/// How the water heights under the model's points are found.
enum class HeightSampling : std::uint8_t {
  Level,   ///< still, level water: one height for every point
  Direct,  ///< one query of every point (their world coordinates in the buffers)
  Patch,   ///< the patch's grid, interpolated at the points
};

/// Which water velocities the hydrodynamic terms read.
enum class WaterVelocities : std::uint8_t {
  None,       ///< still water: the terms take the boat's own velocity
  PerBoat,    ///< one velocity, under the centre of mass
  PerVertex,  ///< at every wet vertex, interpolated to the pieces
};

/// What the patch samples at its nodes besides the heights.
enum class PatchVelocities : std::uint8_t {
  None,     ///< heights only
  Nodes,    ///< the velocity at every node at its depths, for the wet vertices
  Surface,  ///< the velocity at the surface, for the one velocity under the boat
};

/// One substep's decisions (docs/model.md, "The substep").
struct SubstepPlan {
  HeightSampling heights = HeightSampling::Direct;
  PatchVelocities patchVelocities = PatchVelocities::None;
  /// With PatchVelocities::Nodes: the depth below the surface [m] down to
  /// which the nodes' velocities are wanted (PatchSampler::sampleWithVelocities).
  btScalar patchVelocityDepth_m = 0;
  WaterVelocities velocities = WaterVelocities::None;
  /// Direct sampling asks the velocities with the heights (one query).
  bool velocitiesWithHeights = false;
  /// The water's velocity is the same under the whole hull (a uniform
  /// surface, or one velocity per boat): the terms can only dissipate.
  bool uniformWater = true;
  PressureModel pressure = PressureModel::StaticHead;
  /// The heights stage keeps each point's coordinate along up (the wave
  /// pressure's query wants it as the heights were taken).
  bool keepAlongUp = false;
  // The hydrodynamic terms that run (each still needs a wet hull, but air).
  bool viscous = false, pressureDrag = false, slamming = false, air = false, damping = false, hullLift = false;
  /// The AddedMass stage runs and the velocity change solves with it.
  bool addedMass = false;
  /// Some term wants the flow piece by piece (skin friction, pressure drag, slamming).
  /// (Each test below ors its flags rather than testing them in turn: one
  /// test where the substep asks it, not a branch a flag.)
  [[nodiscard]] bool perPiece() const { return (unsigned(viscous) | unsigned(pressureDrag) | unsigned(slamming)) != 0; }
  /// Some hydrodynamic term runs.
  [[nodiscard]] bool anyTerm() const {
    return (unsigned(perPiece()) | unsigned(air) | unsigned(damping) | unsigned(hullLift)) != 0;
  }
};

// The triangle model's plan (planTriangles) and the plan's sampling
// (planSampling) are inline in plan_inline.hpp, which sees the boat: they
// run every substep, and a plan for still or level water asks no more than
// the surface's two answers. The patch's decisions are here (plan.cpp).

/// Sampling::Auto's choice for the hull's vertices, from the surface's
/// stated costs: whether the patch is expected to cost less than direct
/// sampling (never when the patch has too many nodes to configure).
[[nodiscard]] bool autoPicksPatch(const BoatModel& boat, const BoatState& state, bool perVertex);

/// The plan's sampling when it takes the patch: what the patch brings
/// besides the heights (the nodes' velocities at their depths, down to the
/// last substep's deepest wet vertex and a margin; or their surface
/// velocities, for the one under the boat).
void planPatch(const BoatModel& boat, const BoatState& state, bool uniformVelocity, SubstepPlan& plan);

/// The hydrodynamic terms of `h` into `plan` (the model's own choice of
/// water velocities aside).
inline void planTerms(const HydrodynamicSettings& h, SubstepPlan& plan) {
  plan.viscous = h.viscous;
  plan.pressureDrag = h.pressureDrag;
  plan.slamming = h.slamming;
  plan.air = h.airResistance;
  plan.damping = h.damping;
  plan.hullLift = h.hullLift;
  plan.addedMass = h.addedMass;
}

}  // namespace keel::KEEL_ABI::detail
