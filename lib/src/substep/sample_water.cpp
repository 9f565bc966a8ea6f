// Stages 1 and 2 of the substep: the water under the hull, and each
// vertex's height above it (docs/model.md §1.1).
#include "substep/stages.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {
namespace {

/// Water heights beyond [lo, hi] [m] (the hull's reach plus
/// kPlausibleHead_m) are no sea: when some are within, the others are
/// replaced by their mean and counted; when none is, the hull is deep under
/// the water or high above it and every height is clamped to the bound,
/// which leaves the pressure force of a closed hull unchanged. Returns how
/// many were replaced.
std::size_t replaceImplausible(std::span<btScalar> water_m, btScalar lo, btScalar hi) {
  double sum = 0;
  std::size_t plausible = 0;
  for (const btScalar h : water_m)
    if (h >= lo && h <= hi) sum += double(h), ++plausible;
  if (plausible == 0) {
    for (btScalar& h : water_m) h = std::clamp(h, lo, hi);
    return 0;
  }
  const auto mean = btScalar(sum / double(plausible));
  for (btScalar& h : water_m)
    if (!(h >= lo && h <= hi)) h = mean;
  return water_m.size() - plausible;
}

// Sampling::Auto's cost model (docs/model.md, "Water sampling"): an
// interpolation of a height per vertex, of a velocity per
// wet vertex (listed, placed, interpolated and turned into body axes in
// one SIMD pass: 1.85 us for 300 vertices of the 972-triangle box on
// AVX-512, 2.7 us on AVX2; docs/performance.md, "The water velocity at
// every wet vertex"), the
// wet share of the vertices asked for velocities (half the hull and the
// crossing triangles' dry corners), and how much cheaper the patch must be
// expected to be, since it interpolates.
constexpr double kInterpolation_ns = 2, kVelocityInterpolation_ns = 7, kWetFraction = 0.6, kPatchAdvantage = 0.75;

/// The patch's expected cost of the wet vertices' water velocities: its
/// nodes' velocities at every depth and an interpolation per wet vertex
/// (a surface that answers grids with velocities), or a velocities() query
/// of the wet vertices, whichever is cheaper. Sets `onGrid` to which.
double patchVelocityCost_ns(const BoatModel& boat, const BoatState& state, bool& onGrid) {
  const QueryCost cost = boat.surface.queryCost();
  const double nodes = double(state.patch.samplesPerSide()) * double(state.patch.samplesPerSide());
  const double wet = kWetFraction * double(boat.hull.soa().vertexCount);
  // Every depth: the choice does not hang on how deep the last substep went.
  const double grid_ns = nodes * double(WaterPatch::kVelocityLevels) * cost.gridNodeVelocity_ns +
                         wet * kVelocityInterpolation_ns;
  const double query_ns = wet * cost.velocity_ns;
  onGrid = cost.gridNodeVelocity_ns > 0 && grid_ns < query_ns;
  return onGrid ? grid_ns : query_ns;
}

/// How deep below the surface the wet vertices are expected to reach this
/// substep [m]: the last substep's deepest plus a 16th of the hull's radius
/// (half the first depth level; a vertex would have to sink at 75 m/s for a
/// 5 m hull at 240 substeps a second to go past it); NaN, every depth, at
/// the first. The patch then samples its nodes' velocities only down to
/// there (WaterPatch::sampleWithVelocities): the same bits, since
/// waterVelocityAtVertices checks that no wet vertex went deeper and asks
/// the surface itself when one did.
btScalar velocityDepthWanted_m(const BoatModel& boat, const Substep& s) {
  return -s.previousLowestAbove_m + btScalar(1.0 / 16) * boat.hull.radius_m();
}

/// Whether the patch's nodes should bring their surface velocities for the
/// one water velocity under the boat: when the surface answers grids with
/// velocities and its nodes' cost less than a query of one point, which
/// costs as much as a batch of QueryCost::batchPoints.
bool boatVelocityOnGrid(const BoatModel& boat, const BoatState& state) {
  const QueryCost cost = boat.surface.queryCost();
  const double nodes = double(state.patch.samplesPerSide()) * double(state.patch.samplesPerSide());
  return cost.gridNodeVelocity_ns > 0 && nodes * cost.gridNodeVelocity_ns < cost.batchPoints * cost.velocity_ns;
}

/// Sampling::Auto's choice, from the surface's stated costs: the patch
/// costs its nodes, an interpolation per vertex and, when the flow wants
/// the water velocity at the vertices, patchVelocityCost_ns; direct
/// sampling costs a query per vertex, of heights and velocities at once
/// when they are wanted. The patch is chosen when it is expected to cost
/// less than kPatchAdvantage of direct sampling.
bool autoPicksPatch(const BoatModel& boat, const BoatState& state, const Substep& s) {
  const int side = state.patch.samplesPerSide();
  if (side == 0) return false;  // too many nodes to configure
  const QueryCost cost = boat.surface.queryCost();
  const auto vertices = double(boat.hull.soa().vertexCount);
  const double direct_ns = vertices * (s.perVertexVelocities ? cost.heightAndVelocity_ns : cost.height_ns);
  double patch_ns = double(side) * double(side) * cost.gridNode_ns + vertices * kInterpolation_ns;
  bool onGrid = false;
  if (s.perVertexVelocities) patch_ns += patchVelocityCost_ns(boat, state, onGrid);
  return patch_ns < kPatchAdvantage * direct_ns;
}

}  // namespace

bool sampleWater(const BoatModel& boat, BoatState& state, Substep& s, const HullSoA& soa) {
  const WaterAxes& a = s.axes;
  BoatBuffers& b = s.buffers;
  // The surface is user code running inside Bullet's step: an exception
  // escaping here would leave Bullet mid-step, so it is caught and reported.
  try {
    const Sampling sampling = boat.statics.sampling;
    state.patchSampled = sampling == Sampling::Patch || (sampling == Sampling::Auto && autoPicksPatch(boat, state, s));
    if (state.patchSampled) {
      // The water's velocity too when the flow wants it at the vertices
      // and the surface gives it on grids: the wet vertices' are then
      // interpolated (waterVelocityAtVertices).
      // (Not for a small hull on a large patch: its few wet vertices cost
      // less than the nodes' velocities.)
      bool onGrid = false;
      if (s.perVertexVelocities) (void)patchVelocityCost_ns(boat, state, onGrid);
      WaterPatch& patch = state.patch;
      if (onGrid)
        s.nonFiniteHeights = patch.sampleWithVelocities(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s,
                                                        velocityDepthWanted_m(boat, s));
      else if (s.boatVelocity && boatVelocityOnGrid(boat, state))
        s.nonFiniteHeights = patch.sampleWithSurfaceVelocities(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s);
      else
        s.nonFiniteHeights = patch.sample(boat.surface, a.centreEast_m, a.centreNorth_m, s.t_s);
      s.samplesAsked = state.patch.samples_m().size();
      // The vertices' cells too when their velocities will be interpolated.
      patchHeights(soa, state.patch, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m,
                   state.waterHeight_m.data(), onGrid ? b.cells() : PatchCells{});
    } else if (boat.surface.heightIsUniform() && !s.perVertexVelocities) {
      // Still, level water: one height for every point, whose coordinates
      // are then not needed.
      const btScalar h = boat.surface.height(btScalar(a.centreEast_m), btScalar(a.centreNorth_m), s.t_s);
      std::fill_n(state.waterHeight_m.begin(), soa.vertexCount, h);
      s.samplesAsked = soa.vertexCount;
    } else {
      // The water's velocity at every vertex too when the flow wants it
      // there: one query, which a surface can answer with one solve.
      s.vertexVelocitiesSampled = s.perVertexVelocities;
      s.vertexCoordinates = true;
      worldCoordinates(soa, a.east, a.north, a.up, a.centreEast_m, a.centreNorth_m, a.centreUp_m, b.u_m.data(),
                       b.v_m.data(), s.vertexVelocitiesSampled ? b.w_m.data() : nullptr);
      if (s.vertexVelocitiesSampled)
        boat.surface.heightsAndVelocities(b.u_m.data(), b.v_m.data(), b.w_m.data(), soa.vertexCount, s.t_s,
                                          state.waterHeight_m.data(), b.velocity.data());
      else
        boat.surface.heights(b.u_m.data(), b.v_m.data(), soa.vertexCount, s.t_s, state.waterHeight_m.data());
      s.samplesAsked = soa.vertexCount;
    }
  } catch (const std::out_of_range&) {  // the patch's grid cannot reach this far (WaterPatch::reach_m)
    s.flags = StatusOutOfRange;
    return false;
  } catch (...) {
    s.flags = StatusSurfaceThrew;
    return false;
  }
  return true;
}

bool heightsAboveWater(const BoatModel& boat, BoatState& state, Substep& s, const HullSoA& soa) {
  const std::size_t n = soa.vertexCount;
  // The kernel also counts the non-finite water heights, which are rare:
  // only then are they replaced (by the mean of the finite ones) and the
  // heights taken again.
  // The wave pressure's query wants each vertex's height along up as the
  // kernel computes it (wave_pressure.cpp).
  btScalar* above = boat.statics.pressure == PressureModel::WavePressure ? s.buffers.above_m.data() : nullptr;
  VertexHeights heights = vertexHeights(soa, s.axes.up, s.axes.centreUp_m, state.waterHeight_m.data(), state.h_m.data(),
                                        above);
  if (heights.nonFinite > 0) {
    const std::size_t replaced = replaceNonFinite(std::span<btScalar>(state.waterHeight_m).first(n));
    s.nonFiniteHeights += replaced;
    if (replaced < n)
      heights = vertexHeights(soa, s.axes.up, s.axes.centreUp_m, state.waterHeight_m.data(), state.h_m.data(), above);
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
  if (heights.water.lo < lo || heights.water.hi > hi) {
    const std::size_t replaced = replaceImplausible(std::span<btScalar>(state.waterHeight_m).first(n), lo, hi);
    state.status.implausibleHeights += replaced;
    if (replaced > 0) s.flags |= StatusImplausibleHeight;
    heights = vertexHeights(soa, s.axes.up, s.axes.centreUp_m, state.waterHeight_m.data(), state.h_m.data(), above);
  }
  s.waterRange = heights.water;
  // Some of the hull is wet exactly when a vertex is (every vertex belongs
  // to a triangle, which then crosses the waterline or lies under it).
  state.anyWet = heights.lowestAbove_m < 0;
  state.lowestAbove_m = heights.lowestAbove_m;
  return true;
}

}  // namespace keel::KEEL_ABI::detail
