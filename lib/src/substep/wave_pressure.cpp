// The WavePressure stage, with PressureModel::WavePressure only: the
// surface's pressure head at every wet vertex, and at the wet triangles'
// corners, for the Cut and Pressure stages (docs/model.md, "Wave
// pressure").
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>
#include <cmath>

namespace keel::KEEL_ABI::detail {
namespace {

/// Lists the wet vertices (h < 0) in b.queried with their coordinates in the
/// query arrays: u and v as the heights were asked (worldCoordinates), w as
/// the Heights stage found it, so that a static head `eta - w` is exactly
/// the depth -h. The dry vertices' heads are 0. Returns how many.
std::size_t listWetVertices(const BoatModel& boat, const TriangleState& tri, Substep& s) {
  const HullSoA& soa = soaOf(boat.hull);
  BoatBuffers& b = s.buffers;
  if (s.plan.heights != HeightSampling::Direct) {  // the patch, or level water, asked the surface elsewhere
    const WaterAxes& a = s.axes;
    worldCoordinates(soa, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m, b.u_m.data(),
                     b.v_m.data(), nullptr);
  }
  b.queried.clear();
  for (std::uint32_t i = 0; i < soa.vertexCount; ++i) {
    b.head_m[i] = 0;
    if (tri.water.above_m[i] < 0) {
      const std::size_t k = b.queried.size();
      b.queried.push_back(i);
      b.queryU_m[k] = b.u_m[i], b.queryV_m[k] = b.v_m[i], b.queryW_m[k] = b.above_m[i];
    }
  }
  return b.queried.size();
}

}  // namespace

void wavePressureHeads(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::WavePressure);
  s.cornerHeads = true;
  BoatBuffers& b = s.buffers;
  const std::size_t count = listWetVertices(boat, tri, s);
  bool threw = false;
  try {
    boat.surface.pressureHeads(b.queryU_m.data(), b.queryV_m.data(), b.queryW_m.data(), count, s.t_s,
                               b.queryHead_m.data());
  } catch (...) {
    s.flags |= StatusSurfaceThrew;
    threw = true;
  }
  // A wet vertex's head is at least 0 (the surface's pressure, where patch
  // sampling put the vertex under a surface the surface itself has above
  // it); a non-finite one, or all when the surface threw, is the depth.
  std::size_t nonFinite = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t i = b.queried[k];
    const btScalar head = b.queryHead_m[k];
    const bool finite = !threw && std::isfinite(head);
    nonFinite += threw || finite ? 0 : 1;
    b.head_m[i] = finite ? std::max(head, btScalar(0)) : -tri.water.above_m[i];
  }
  if (nonFinite > 0) {
    s.flags |= StatusNonFiniteHeight;
    state.status.nonFiniteHeights += nonFinite;
  }
  triangleHeads(soaOf(boat.hull), b);
}

}  // namespace keel::KEEL_ABI::detail
