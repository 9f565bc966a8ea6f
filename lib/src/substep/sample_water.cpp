// Stages 1 and 2 of the substep: the water under the hull, and each
// vertex's height above it (docs/model.md §1.1).
#include "substep/stages.hpp"

#include <span>

namespace keel::detail {

bool sampleWater(const BoatModel& boat, BoatState& state, Substep& s) {
  const HullSoA& soa = boat.hull.soa();
  const WaterAxes& a = s.axes;
  BoatBuffers& b = s.buffers;
  // The surface is user code running inside Bullet's step: an exception
  // escaping here would leave Bullet mid-step, so it is caught and reported.
  try {
    if (boat.statics.sampling == Sampling::Patch) {
      s.nonFiniteHeights = state.patch.sample(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s);
      s.samplesAsked = state.patch.samples_m().size();
      patchHeights(soa, state.patch, a.east, a.north, a.centreEast_m, a.centreNorth_m,
                   state.waterHeight_m.data());
    } else {
      // The water's velocity at every vertex too when the flow wants it
      // there: one query, which a surface can answer with one solve.
      s.vertexVelocitiesSampled = s.perVertexVelocities;
      worldCoordinates(soa, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m,
                       a.centreUp_m, b.u_m.data(), b.v_m.data(), s.vertexVelocitiesSampled ? b.w_m.data() : nullptr);
      if (s.vertexVelocitiesSampled)
        boat.surface.heightsAndVelocities(b.u_m.data(), b.v_m.data(), b.w_m.data(), soa.vertexCount, s.t_s,
                                          state.waterHeight_m.data(), b.velocity.data());
      else
        boat.surface.heights(b.u_m.data(), b.v_m.data(), soa.vertexCount, s.t_s, state.waterHeight_m.data());
      s.samplesAsked = soa.vertexCount;
    }
  } catch (...) {
    s.flags = StatusSurfaceThrew;
    return false;
  }
  return true;
}

bool heightsAboveWater(const BoatModel& boat, BoatState& state, Substep& s) {
  const HullSoA& soa = boat.hull.soa();
  const std::size_t n = soa.vertexCount;
  // The kernel also counts the non-finite water heights, which are rare:
  // only then are they replaced (by the mean of the finite ones) and the
  // heights taken again.
  VertexHeights heights =
      vertexHeights(soa, s.axes.up, s.axes.centreUp_m, state.waterHeight_m.data(), state.h_m.data());
  if (heights.nonFinite > 0) {
    const std::size_t replaced = replaceNonFinite(std::span<btScalar>(state.waterHeight_m).first(n));
    s.nonFiniteHeights += replaced;
    if (replaced < n)
      heights =
          vertexHeights(soa, s.axes.up, s.axes.centreUp_m, state.waterHeight_m.data(), state.h_m.data());
  }
  state.status.nonFiniteHeights += s.nonFiniteHeights;
  if (s.nonFiniteHeights == s.samplesAsked) {  // nothing finite to stand in for the bad samples
    s.flags = StatusNonFiniteHeight | StatusNoFiniteHeight;
    return false;
  }
  if (s.nonFiniteHeights > 0) s.flags |= StatusNonFiniteHeight;
  s.waterRange = heights.water;
  // Some of the hull is wet exactly when a vertex is (every vertex belongs
  // to a triangle, which then crosses the waterline or lies under it).
  state.anyWet = heights.lowestAbove_m < 0;
  return true;
}

}  // namespace keel::detail
