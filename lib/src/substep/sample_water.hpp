#pragma once
// The stages every model begins with (findWater): Pose, then SampleWater
// and Heights, the water under the model's points as the plan says to
// sample it and each point's height above it (docs/model.md §1.1). Inline
// where the models run (triangle_model.cpp, column_model.cpp, and the
// added mass at a pose): a call fewer a substep, and the arguments a call
// would pass through memory stay where the model holds them. What runs
// only when the water misbehaves, or for the patch, is out of line in
// sample_water.cpp.
#include "substep/profile.hpp"
#include "substep/substep.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {

/// Water heights beyond [lo, hi] [m] (the hull's reach plus
/// kPlausibleHead_m) are no sea: when some are within, the others are
/// replaced by their mean and counted; when none is, the hull is deep under
/// the water or high above it and every height is clamped to the bound,
/// which leaves the pressure force of a closed hull unchanged. Returns how
/// many were replaced.
std::size_t replaceImplausible(std::span<btScalar> water_m, btScalar lo, btScalar hi);

/// The hull's bounding box (body axes) placed on the water's axes: the
/// horizontal box every vertex lies in, for the patch's velocities.
Footprint footprint(const Hull& hull, const WaterAxes& a);

/// Whether every water height lies above `hi` [m], the hull's reach plus
/// kPlausibleHead_m: the hull would be deeper under the water than boats
/// go, which no boat means, but a surface in millimetres gives (1 m of water
/// reads 1000). Water far below every vertex is a boat on land: not flagged.
inline bool deeperThanBoatsGo(const Extent& water, btScalar hi) { return water.lo > hi; }

/// SampleWater. Reads plan.heights, plan.patchVelocities and
/// plan.velocitiesWithHeights, s.axes, `points`. Writes water.height_m,
/// state.patch and state.patchSampled; with HeightSampling::Direct the
/// points' world coordinates (s.buffers.u_m, v_m), with
/// velocitiesWithHeights their velocities (s.buffers.velocity), with
/// PatchVelocities::Nodes the points' cells (s.buffers.cells());
/// s.samplesAsked, s.nonFiniteHeights. False when the surface threw or the
/// patch cannot reach.
[[gnu::always_inline]] inline bool sampleWater(const BoatModel& boat, BoatState& state, PointWater& water, Substep& s,
                                               const HullSoA& soa) {
  const StageScope scope(s.profile, SubstepStage::SampleWater);
  const SubstepPlan& plan = s.plan;
  const WaterAxes& a = s.axes;
  BoatBuffers& b = s.buffers;
  state.patchSampled = plan.heights == HeightSampling::Patch;
  // The surface is user code running inside Bullet's step: an exception
  // escaping here would leave Bullet mid-step, so it is caught and reported.
  try {
    switch (plan.heights) {
      case HeightSampling::Patch: {
        PatchSampler& patch = state.patch;
        const bool nodes = plan.patchVelocities == PatchVelocities::Nodes;
        // The patch in time's period; the surface velocities' query (a far
        // boat's) has none.
        const auto period_s = [&] { return patchTimePeriod_s(s.dt_s, boat.statics.patchSubstepsPerSample); };
        if (nodes) {
          const Footprint under = footprint(boat.hull, a);
          s.nonFiniteHeights = patch.sampleWithVelocities(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s,
                                                          plan.patchVelocityDepth_m, &under, period_s());
        } else if (plan.patchVelocities == PatchVelocities::Surface)
          s.nonFiniteHeights = patch.sampleWithSurfaceVelocities(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s);
        else
          s.nonFiniteHeights = patch.sample(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s, period_s());
        s.samplesAsked = patch.samples_m().size();
        // The points' cells too when their velocities will be interpolated.
        patchHeights(soa, patch, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m,
                     water.height_m.data(), nodes ? b.cells() : PatchCells{});
        break;
      }
      case HeightSampling::Level: {
        const btScalar h = boat.surface.height(btScalar(a.centreEast_m), btScalar(a.centreNorth_m), s.t_s);
        // The padding too (which no triangle names, and the kernels leave
        // out of every range and sum): whole vectors, kPad at a time.
        btScalar* height_m = water.height_m.data();
        for (std::size_t i = 0; i < soa.vertexPadded; i += kPad)
          for (std::size_t j = 0; j < kPad; ++j) height_m[i + j] = h;
        s.samplesAsked = soa.vertexCount;
        break;
      }
      case HeightSampling::Direct:
        worldCoordinates(soa, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m, b.u_m.data(),
                         b.v_m.data(), plan.velocitiesWithHeights ? b.w_m.data() : nullptr);
        if (plan.velocitiesWithHeights)
          boat.surface.heightsAndVelocities(b.u_m.data(), b.v_m.data(), b.w_m.data(), soa.vertexCount, s.t_s,
                                            water.height_m.data(), b.velocity.data());
        else
          boat.surface.heights(b.u_m.data(), b.v_m.data(), soa.vertexCount, s.t_s, water.height_m.data());
        s.samplesAsked = soa.vertexCount;
        break;
    }
  } catch (const std::out_of_range&) {  // the patch's grid cannot reach this far (PatchSampler::sample)
    s.flags = StatusOutOfRange;
    return false;
  } catch (...) {
    s.flags = StatusSurfaceThrew;
    return false;
  }
  return true;
}

/// Heights. Reads water.height_m, s.axes, plan.keepAlongUp. Writes
/// water.above_m (each point's height above the water), water.height_m
/// (non-finite and implausible heights replaced), with keepAlongUp each
/// point's height along up (s.buffers.above_m); state.anyWet,
/// state.lowestAbove_m, s.waterRange. With `smallHull` (pressureAlone),
/// for a hull smallHullSums takes, also Classify's and Cut's work in the
/// same kernel: s.crossingCount and the pressure sums (s.sums, s.summed),
/// unless a height was replaced. False when no height was finite.
[[gnu::always_inline]] inline bool heightsAboveWater(const BoatModel& boat, BoatState& state, PointWater& water,
                                                     Substep& s, const HullSoA& soa, bool smallHull) {
  const StageScope scope(s.profile, SubstepStage::Heights);
  const std::size_t n = soa.vertexCount;
  // The kernel also counts the non-finite water heights, which are rare:
  // only then are they replaced (by the mean of the finite ones) and the
  // heights taken again. Each point's height along up as the kernel
  // computes it, when the plan keeps it (the wave pressure's query).
  btScalar* alongUp = s.plan.keepAlongUp ? s.buffers.above_m.data() : nullptr;
  auto measure = [&] {
    return vertexHeights(soa, s.axes.up, s.axes.centreUp_m, water.height_m.data(), water.above_m.data(), alongUp);
  };
  // A small hull's sums from the same kernel, kept unless a height is
  // replaced below (the heights then change).
  VertexHeights heights{};
  std::size_t crossing = kNotSmallHull;
  if (smallHull)
    crossing = smallHullSums(soa, s.axes.up, s.axes.centreUp_m, water.height_m.data(), water.above_m.data(), heights,
                             s.buffers, s.sums.value);
  if (crossing == kNotSmallHull) heights = measure();
  if (heights.nonFinite > 0) {
    crossing = kNotSmallHull;
    const std::size_t replaced = replaceNonFinite(std::span<btScalar>(water.height_m).first(n));
    s.nonFiniteHeights += replaced;
    if (replaced < n) heights = measure();
  }
  state.status.nonFiniteHeights += s.nonFiniteHeights;
  if (s.nonFiniteHeights == s.samplesAsked) {  // nothing finite to stand in for the bad samples
    s.flags = StatusNoFiniteHeight;
    return false;
  }
  if (s.nonFiniteHeights > 0) s.flags |= StatusNonFiniteHeight;
  // Heights far outside any sea around the hull (the kernel's range of them
  // tells, so this costs nothing when there are none).
  const btScalar reach = boat.hull.radius_m() + btScalar(kPlausibleHead_m);
  const btScalar lo = s.axes.centreUp_m - reach, hi = s.axes.centreUp_m + reach;
  if (deeperThanBoatsGo(heights.water, hi)) s.flags |= StatusImplausibleDepth;
  if (heights.water.lo < lo || heights.water.hi > hi) {
    crossing = kNotSmallHull;
    const std::size_t replaced = replaceImplausible(std::span<btScalar>(water.height_m).first(n), lo, hi);
    state.status.implausibleHeights += replaced;
    if (replaced > 0) s.flags |= StatusImplausibleHeight;
    heights = measure();
  }
  s.waterRange = heights.water;
  // Some of the hull is wet exactly when a vertex is (every vertex belongs
  // to a triangle, which then crosses the waterline or lies under it).
  state.anyWet = heights.lowestAbove_m < 0;
  state.lowestAbove_m = heights.lowestAbove_m;
  s.summed = crossing != kNotSmallHull;
  if (s.summed) s.crossingCount = crossing;
  return true;
}

/// Starts a substep's results: nothing pending, no water found yet.
inline void beginSubstep(BoatState& state) {
  state.pendingLinear_mps.setZero();
  state.pendingAngular_radps.setZero();
  if (!state.termsCleared) {
    state.hydrodynamics = HydrodynamicForces{};
    state.referenceWater_mps.setZero();
    state.energyAllowance_J = 0;
    state.termsCleared = true;
  }
  state.lowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();  // until the water is found
}

/// The Pose stage (stages.hpp), inlined in findWater.
[[gnu::always_inline]] inline bool readPose(const BoatModel&, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Pose);
  if (body.staticOrKinematic || !(body.inverseMass_pkg > 0)) {
    s.flags = StatusStaticBody;
    return false;
  }
  // The water's frame, again only when gravity changed.
  if (!(state.frameValid && body.gravity_mps2 == state.frameGravity_mps2)) {
    state.frameValid = WaterFrame::fromGravity(body.gravity_mps2, state.frame);
    state.frameGravity_mps2 = body.gravity_mps2;
    state.frameGravityLength_mps2 = body.gravity_mps2.length();
  }
  if (!state.frameValid) {
    s.flags = StatusNoGravity;
    return false;
  }
  if (!isFinite(body.centreOfMass)) {
    s.flags = StatusNonFiniteBody;
    return false;
  }
  s.effectiveInverseMass_pkg = body.inverseMass_pkg;  // the AddedMass stage raises them
  s.effectiveInverseInertia = body.inverseInertia;
  // Read from the snapshot, not from the state just written: a load of
  // what was just stored in other widths would wait for the stores.
  const btVector3& centre = body.centreOfMass.getOrigin();
  const btMatrix3x3& basis = body.centreOfMass.getBasis();
  state.centre_m = centre;
  state.basis = basis;
  // The water's axes in the body frame (B^T a): the hull's vertices are
  // used as they are.
  const WaterFrame& f = state.frame;
  s.axes.east = timesRows(f.east, basis);
  s.axes.north = timesRows(f.north, basis);
  s.axes.up = timesRows(f.up, basis);
  s.axes.centreEast_m = double(centre.dot(f.east));
  s.axes.centreNorth_m = double(centre.dot(f.north));
  s.axes.centreUp_m = centre.dot(f.up);
  return true;
}

/// The stages every model begins with: its results started afresh, then
/// Pose, SampleWater and Heights on `points` (with `smallHull`, as
/// heightsAboveWater). False when one of them found nothing to float (the
/// substep is then skipped).
[[nodiscard, gnu::always_inline]] inline bool findWater(const BoatModel& boat, BoatState& state, PointWater& water,
                                                        const BodySnapshot& body, Substep& s, const HullSoA& points,
                                                        bool smallHull = false) {
  beginSubstep(state);
  return readPose(boat, state, body, s) && sampleWater(boat, state, water, s, points) &&
         heightsAboveWater(boat, state, water, s, points, smallHull);
}

}  // namespace keel::KEEL_ABI::detail
