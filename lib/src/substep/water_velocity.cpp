// The water's velocity for the flow terms: at the hull's vertices (stage 4
// of the substep, interpolated to the pieces by the cut), or once under the
// boat (docs/model.md §2).
#include "substep/water_velocity.hpp"
#include "substep/stages.hpp"

#include <algorithm>
#include <cmath>

namespace keel::KEEL_ABI::detail {
namespace {

/// The surface's answers (water frame, in query order) to body axes, per
/// vertex; a non-finite one becomes zero and is reported. Every vertex in
/// order goes straight to the per-vertex arrays; a subset (`vertex` not
/// null) goes through the query arrays (done with) and is scattered.
std::uint32_t storeVertexVelocities(BoatState& state, Substep& s, std::size_t count, const std::uint32_t* vertex) {
  BoatBuffers& b = s.buffers;
  btScalar* u = vertex ? b.queryU_m.data() : b.waterU_mps.data();
  btScalar* v = vertex ? b.queryV_m.data() : b.waterV_mps.data();
  btScalar* w = vertex ? b.queryW_m.data() : b.waterW_mps.data();
  const std::size_t bad = velocitiesToBody(b.velocity.data(), count, s.axes.east, s.axes.north, s.axes.up, u, v, w);
  if (vertex)
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = vertex[k];
      b.waterU_mps[i] = u[k], b.waterV_mps[i] = v[k], b.waterW_mps[i] = w[k];
    }
  state.status.nonFiniteVelocities += bad;
  return bad > 0 ? StatusNonFiniteVelocity : StatusOk;
}

/// Lists the vertices the pieces lie on: the wet ones and the dry corners
/// of the crossing triangles (a cut piece interpolates along its own
/// triangle's edges), none of the rest of the dry hull. Returns how many.
std::size_t listWetVertices(const HullSoA& soa, const BoatState& state, BoatBuffers& b) {
  if (++b.stampNow == 0) {  // wrapped after 2^32 substeps: forget every stamp
    std::fill(b.stamp.begin(), b.stamp.end(), 0u);
    b.stampNow = 1;
  }
  b.queried.clear();
  for (std::uint32_t i = 0; i < soa.vertexCount; ++i)
    if (state.h_m[i] < 0) {
      b.stamp[i] = b.stampNow;
      b.queried.push_back(i);
    }
  for (std::size_t k = 0; k < state.crossingCount; ++k)
    for (int j = 0; j < 3; ++j)
      if (const std::size_t v = HullSoA::corner(soa.corners[std::size_t(b.crossing[k])], j); b.stamp[v] != b.stampNow) {
        b.stamp[v] = b.stampNow;
        b.queried.push_back(std::uint32_t(v));
      }
  return b.queried.size();
}

/// One batch query of the listed vertices' water velocities.
std::uint32_t sampleWetVertices(const BoatModel& boat, BoatState& state, Substep& s) {
  BoatBuffers& b = s.buffers;
  const std::size_t count = listWetVertices(boat.hull.soa(), state, b);
  // Their coordinates as the heights' (worldCoordinates), in query order.
  const WaterAxes& a = s.axes;
  worldCoordinates(boat.hull.soa(), a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m, b.u_m.data(),
                   b.v_m.data(), b.w_m.data());
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t i = b.queried[k];
    b.queryU_m[k] = b.u_m[i], b.queryV_m[k] = b.v_m[i], b.queryW_m[k] = b.w_m[i];
  }
  std::uint32_t flags = StatusOk;
  if (state.patchSampled && state.patch.hasVelocities()) {  // sampled with the heights: interpolated
    for (std::size_t k = 0; k < count; ++k) b.querySurface_m[k] = state.waterHeight_m[b.queried[k]];
    state.patch.velocities(b.queryU_m.data(), b.queryV_m.data(), b.queryW_m.data(), b.querySurface_m.data(), count,
                           b.velocity.data());
    return flags | storeVertexVelocities(state, s, count, b.queried.data());
  }
  try {
    boat.surface.velocities(b.queryU_m.data(), b.queryV_m.data(), b.queryW_m.data(), count, s.t_s, b.velocity.data());
  } catch (...) {
    flags |= StatusSurfaceThrew;
    std::fill_n(b.velocity.begin(), count, WaterVelocity{});
  }
  return flags | storeVertexVelocities(state, s, count, b.queried.data());
}

/// The surface's velocity at (u, v, w) [m]: one batch of one, into the
/// buffer the per-vertex query uses; the answer is read from memory the
/// surface wrote, and zero if it threw.
WaterVelocity queryOnePoint(const BoatModel& boat, Substep& s, btScalar u, btScalar v, btScalar w) {
  WaterVelocity* answer = s.buffers.velocity.data();
  answer[0] = WaterVelocity{};
  try {
    boat.surface.velocities(&u, &v, &w, 1, s.t_s, answer);
  } catch (...) {
    s.flags |= StatusSurfaceThrew;
    answer[0] = WaterVelocity{};
  }
  return answer[0];
}

}  // namespace

void waterVelocityAtVertices(const BoatModel& boat, BoatState& state, Substep& s) {
  // Asked with the heights (direct sampling), or now of the wet vertices
  // and the crossing triangles' corners.
  if (!(s.perVertexVelocities && state.anyWet)) return;
  s.flags |= s.vertexVelocitiesSampled ? storeVertexVelocities(state, s, boat.hull.soa().vertexCount, nullptr)
                                       : sampleWetVertices(boat, state, s);
}

btVector3 waterVelocityUnderBoat(const BoatModel& boat, BoatState& state, Substep& s, std::size_t sampled) {
  // One point: under the centre of mass, on the mean water height of the
  // hull's vertices. (A uniform velocity is the same anywhere: no mean to
  // take.)
  const std::size_t n = boat.surface.velocityIsUniform() ? 0 : sampled;
  double meanHeight = n == 0 ? double(state.centre_m.dot(state.frame.up)) : 0;
  for (std::size_t i = 0; i < n; ++i) meanHeight += double(state.waterHeight_m[i]);
  return waterVelocityAt(boat, state, s, btScalar(meanHeight / double(std::max<std::size_t>(1, n))));
}

btVector3 waterVelocityAt(const BoatModel& boat, BoatState& state, Substep& s, btScalar w) {
  const WaterFrame& f = state.frame;
  const btScalar u = state.centre_m.dot(f.east), v = state.centre_m.dot(f.north);
  // The patch's nodes brought their surface velocities (sampleWater): the
  // point, on the mean water height, is at the surface to the patch's
  // resolution, and its velocity the interpolated one.
  WaterVelocity q = state.patchSampled && state.patch.hasSurfaceVelocities() ? state.patch.surfaceVelocity(u, v)
                                                                             : queryOnePoint(boat, s, u, v, w);
  if (!(std::isfinite(q.east_mps) && std::isfinite(q.north_mps) && std::isfinite(q.up_mps))) {
    ++state.status.nonFiniteVelocities;
    s.flags |= StatusNonFiniteVelocity;
    q = WaterVelocity{};
  }
  return f.toWorld(q);
}

}  // namespace keel::KEEL_ABI::detail
