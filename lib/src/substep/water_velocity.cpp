// The water's velocity for the flow terms: at the hull's vertices (the
// WaterVelocity stage; the Cut interpolates it to the pieces), or once
// under the boat (docs/model.md §2).
#include "substep/water_velocity.hpp"

#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace keel::KEEL_ABI::detail {
namespace {

/// The surface's answers (water frame, in query order) to body axes, at
/// their vertices (every vertex in order when `vertex` is null); a
/// non-finite one becomes zero and is reported.
std::uint32_t storeVertexVelocities(BoatState& state, Substep& s, std::size_t count, const std::uint32_t* vertex) {
  BoatBuffers& b = s.buffers;
  const std::size_t bad = velocitiesToBody(b.velocity.data(), count, s.axes.east, s.axes.north, s.axes.up,
                                           b.water_mps.data(), vertex);
  state.status.nonFiniteVelocities += bad;
  return bad > 0 ? StatusNonFiniteVelocity : StatusOk;
}

/// Lists the vertices the pieces lie on in b.listed, in increasing order:
/// the wet ones and the dry corners of the crossing triangles (a cut piece
/// interpolates along its own triangle's edges), none of the rest of the
/// dry hull; then kListedPad copies of the first. Returns how many.
std::size_t listWetVertices(const HullSoA& soa, const TriangleState& tri, const Substep& s, BoatBuffers& b) {
  if (++b.stampNow == 0) {  // wrapped after 2^32 substeps: forget every stamp
    std::fill(b.stamp.begin(), b.stamp.end(), 0u);
    b.stampNow = 1;
  }
  // The crossing triangles' corners stamped (stores without a branch: the
  // wet test per corner mispredicted), then one pass over the vertices.
  // Every pointer a local: a store may alias any memory, so the compiler
  // would read them again after each stamp.
  std::uint32_t* stamp = b.stamp.data();
  const std::uint32_t now = b.stampNow;
  const ScalarIndex* crossing = b.crossing.data();
  const std::uint64_t* corners = soa.corners.data();
  for (std::size_t k = 0; k < s.crossingCount; ++k) {
    const std::uint64_t c = corners[std::size_t(crossing[k])];
    for (int j = 0; j < 3; ++j) stamp[HullSoA::corner(c, j)] = now;
  }
  std::uint32_t* listed = b.listed.data();
  const std::size_t count = listVertices(tri.water.above_m.data(), stamp, b.stampNow, soa.vertexCount, listed);
  std::fill_n(listed + count, kListedPad, count > 0 ? listed[0] : 0u);
  return count;
}

/// Whether every listed vertex lies no deeper below the surface than the
/// patch's deepest velocity level (its depth there, surface - w, is the
/// vertex's height above the water negated: BoatState::lowestAbove_m is the
/// least). The margin covers their different roundings, so that the
/// interpolation is the same bits as with every level; when a vertex went
/// deeper than the plan expected, the surface is asked instead.
bool patchVelocitiesReach(const BoatState& state, const Substep& s) {
  const std::span<const double> depths = state.patch.velocityDepths_m();
  if (depths.size() == WaterPatch::kVelocityLevels) return true;
  const double reach_m = depths.back(), deepest_m = -double(state.lowestAbove_m);
  return deepest_m + 1e-4 * (reach_m + std::abs(double(s.axes.centreUp_m)) + 1.0) <= reach_m;
}

/// One batch query of the listed vertices' water velocities.
std::uint32_t sampleWetVertices(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s) {
  BoatBuffers& b = s.buffers;
  const HullSoA& soa = soaOf(boat.hull);
  const std::size_t count = listWetVertices(soa, tri, s, b);
  const WaterAxes& a = s.axes;
  // Sampled with the heights: interpolated, in the cells the heights pass
  // stored (SampleWater passes them whenever it asks for the nodes'
  // velocities), when the patch's depths reach the deepest wet vertex.
  if (state.patchSampled && state.patch.hasVelocities() && patchVelocitiesReach(state, s)) {
    const VertexVelocityQuery query{&soa,
                                    a.east,
                                    a.north,
                                    a.up,
                                    a.centreEast_m,
                                    a.centreNorth_m,
                                    a.centreUp_m,
                                    tri.water.height_m.data(),
                                    b.listed.data(),
                                    count,
                                    b.cells()};
    const std::size_t bad = count > 0 ? patchVertexVelocities(state.patch, query, count, b.water_mps.data()) : 0;
    state.status.nonFiniteVelocities += bad;
    return bad > 0 ? StatusNonFiniteVelocity : StatusOk;
  }
  // Their coordinates as the heights' (worldCoordinates), in query order.
  worldCoordinates(soa, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m, b.u_m.data(),
                   b.v_m.data(), b.w_m.data());
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t i = b.listed[k];
    b.queryU_m[k] = b.u_m[i], b.queryV_m[k] = b.v_m[i], b.queryW_m[k] = b.w_m[i];
  }
  std::uint32_t flags = StatusOk;
  try {
    boat.surface.velocities(b.queryU_m.data(), b.queryV_m.data(), b.queryW_m.data(), count, s.t_s, b.velocity.data());
  } catch (...) {
    flags |= StatusSurfaceThrew;
    std::fill_n(b.velocity.begin(), count, WaterVelocity{});
  }
  return flags | storeVertexVelocities(state, s, count, b.listed.data());
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

void waterVelocityAtVertices(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::WaterVelocity);
  // Asked with the heights (direct sampling), or now of the wet vertices
  // and the crossing triangles' corners.
  s.flags |= s.plan.velocitiesWithHeights ? storeVertexVelocities(state, s, soaOf(boat.hull).vertexCount, nullptr)
                                          : sampleWetVertices(boat, state, tri, s);
}

btVector3 waterVelocityUnderBoat(const BoatModel& boat, BoatState& state, Substep& s,
                                 std::span<const btScalar> waterHeight_m) {
  // One point: under the centre of mass, on the mean water height of the
  // points. (A uniform velocity is the same anywhere: no mean to take.)
  const std::size_t n = boat.surface.velocityIsUniform() ? 0 : waterHeight_m.size();
  double meanHeight = n == 0 ? double(state.centre_m.dot(state.frame.up)) : 0;
  for (std::size_t i = 0; i < n; ++i) meanHeight += double(waterHeight_m[i]);
  return waterVelocityAt(boat, state, s, btScalar(meanHeight / double(std::max<std::size_t>(1, n))));
}

btVector3 waterVelocityAt(const BoatModel& boat, BoatState& state, Substep& s, btScalar w) {
  const WaterFrame& f = state.frame;
  // The centre along east and north as the Pose stage placed it (the same
  // dot products of the same vectors: the same bits).
  const double u = s.axes.centreEast_m, v = s.axes.centreNorth_m;
  // The patch's nodes brought their surface velocities (SampleWater): the
  // point, on the mean water height, is at the surface to the patch's
  // resolution, and its velocity the interpolated one (the patch placed
  // around this point holds its cell).
  WaterVelocity q = state.patchSampled && state.patch.hasSurfaceVelocities()
                        ? state.patch.surfaceVelocity(u, v)
                        : queryOnePoint(boat, s, btScalar(u), btScalar(v), w);
  if (!(std::isfinite(q.east_mps) && std::isfinite(q.north_mps) && std::isfinite(q.up_mps))) {
    ++state.status.nonFiniteVelocities;
    s.flags |= StatusNonFiniteVelocity;
    q = WaterVelocity{};
  }
  return f.toWorld(q);
}

}  // namespace keel::KEEL_ABI::detail
