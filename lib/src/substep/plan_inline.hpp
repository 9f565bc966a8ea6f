#pragma once
// The plan's decisions that run every substep, inline where the models
// make their plans (triangle_model.cpp, column_substep.cpp): for still or
// level water, or direct sampling, a plan is a few tests of the settings
// and the surface's two answers, which a call would cost as much again as.
// The patch's decisions, with Sampling::Auto's cost model, stay in
// plan.cpp (docs/model.md, "Water sampling").

#include "substep/plan.hpp"
#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {

/// The plan's sampling, once its velocities are planned: the water's
/// uniformity under the hull, how the heights are found (the patch for
/// Sampling::Patch, or for Auto when it expects the patch to cost less at
/// the hull's vertices; level water; or a query per point) and what the
/// patch brings besides the heights (planPatch). Auto chooses for the
/// hull's vertices whatever the model's points: switching a boat's model
/// then leaves its sampling as it was, so its force jumps by the models'
/// difference only (docs/columns.md, "Levels of detail").
inline void planSampling(const BoatModel& boat, const BoatState& state, bool uniformVelocity, SubstepPlan& p) {
  p.uniformWater = uniformVelocity || boat.dynamics.waterVelocity != WaterVelocitySampling::PerVertex;
  const bool perVertex = p.velocities == WaterVelocities::PerVertex;
  const Sampling sampling = boat.statics.sampling;
  if (sampling == Sampling::Patch || (sampling == Sampling::Auto && autoPicksPatch(boat, state, perVertex)))
    planPatch(boat, state, uniformVelocity, p);
  else if (boat.surface.heightIsUniform() && !perVertex)  // still, level water: one height for every point
    p.heights = HeightSampling::Level;
  else
    p.heights = HeightSampling::Direct;
  // Direct sampling asks the velocities with the heights: one query, which
  // a surface can answer with one solve.
  p.velocitiesWithHeights = p.heights == HeightSampling::Direct && perVertex;
}

/// The triangle model's plan for the next substep of `boat`:
/// Sampling::Auto's choice from the surface's stated costs, and the patch's
/// velocity depth from the last substep's deepest wet vertex.
[[nodiscard]] inline SubstepPlan planTriangles(const BoatModel& boat, const BoatState& state) {
  const HydrodynamicSettings& h = boat.dynamics;
  const bool uniformVelocity = boat.surface.velocityIsUniform();
  SubstepPlan p;
  planTerms(h, p);
  // The water velocity at the vertices only for the terms that take it
  // piece by piece, and only where it varies; every other term that reads
  // the water's velocity takes it once, under the boat.
  if (p.perPiece() && h.waterVelocity == WaterVelocitySampling::PerVertex && !uniformVelocity)
    p.velocities = WaterVelocities::PerVertex;
  else if (h.waterVelocity != WaterVelocitySampling::StillWater && p.anyTerm())
    p.velocities = WaterVelocities::PerBoat;
  planSampling(boat, state, uniformVelocity, p);
  p.pressure = boat.statics.pressure;
  p.keepAlongUp = p.pressure == PressureModel::WavePressure;
  return p;
}

}  // namespace keel::KEEL_ABI::detail
