// The Plan stage's patch decisions: Sampling::Auto's cost model and what
// the patch brings besides the heights (docs/model.md, "Water sampling").
// The decisions every plan makes are inline in plan_inline.hpp.
#include "substep/plan.hpp"

#include "hull/hull_access.hpp"
#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {
namespace {

// Sampling::Auto's cost model: an interpolation of a height per vertex, of
// a velocity per wet vertex (listed, placed, interpolated and turned into
// body axes in one SIMD pass: keel_bench's substep rows with patch:1 and
// terms:31 measure it), the wet share of the vertices asked for velocities
// (half the hull and the crossing triangles' dry corners), and how much
// cheaper the patch must be expected to be, since it interpolates.
constexpr double kInterpolation_ns = 2, kVelocityInterpolation_ns = 7, kWetFraction = 0.6, kPatchAdvantage = 0.75;

/// The patch's expected cost of the wet vertices' water velocities: its
/// nodes' velocities at every depth and an interpolation per wet vertex
/// (a surface that answers grids with velocities), or a velocities() query
/// of the wet vertices, whichever is cheaper. Sets `onGrid` to which.
double patchVelocityCost_ns(const BoatModel& boat, const BoatState& state, bool& onGrid) {
  const QueryCost cost = boat.surface.queryCost();
  const double nodes = double(state.patch.samplesPerSide()) * double(state.patch.samplesPerSide());
  const double wet = kWetFraction * double(soaOf(boat.hull).vertexCount);
  // Every depth: the choice does not hang on how deep the last substep went.
  const double grid_ns = nodes * double(WaterPatch::kVelocityLevels) * cost.gridNodeVelocity_ns +
                         wet * kVelocityInterpolation_ns;
  const double query_ns = wet * cost.velocity_ns;
  onGrid = cost.gridNodeVelocity_ns > 0 && grid_ns < query_ns;
  return onGrid ? grid_ns : query_ns;
}

/// How deep below the surface the wet vertices are expected to reach this
/// substep [m]: the last substep's deepest (`lowestAbove_m` negated) plus a
/// 16th of the hull's radius (half the first depth level; a vertex would
/// have to sink at 75 m/s for a 5 m hull at 240 substeps a second to go
/// past it); NaN, every depth, at the first. The patch then samples its
/// nodes' velocities only down to there: the same bits, since the
/// WaterVelocity stage checks that no wet vertex went deeper and asks the
/// surface itself when one did.
btScalar velocityDepthWanted_m(const BoatModel& boat, btScalar lowestAbove_m) {
  return -lowestAbove_m + btScalar(1.0 / 16) * boat.hull.radius_m();
}

/// Whether the patch's nodes should bring their surface velocities for the
/// one water velocity under the boat: when the surface answers grids with
/// velocities and its nodes cost less than a query of one point.
bool boatVelocityOnGrid(const BoatModel& boat, const BoatState& state) {
  const QueryCost cost = boat.surface.queryCost();
  if (!(cost.gridNodeVelocity_ns > 0)) return false;  // no grid query with velocities
  const double nodes = double(state.patch.samplesPerSide()) * double(state.patch.samplesPerSide());
  const double perNode = cost.gridNodeSurfaceVelocity_ns > 0 ? cost.gridNodeSurfaceVelocity_ns
                                                             : cost.gridNodeVelocity_ns;
  return nodes * perNode < cost.batchPoints * cost.velocity_ns;
}

}  // namespace

// Sampling::Auto's choice, from the surface's stated costs (plan.hpp): the
// patch costs its nodes, an interpolation per point and, when the flow
// wants the water velocity at the vertices, patchVelocityCost_ns; direct
// sampling costs a query per point, of heights and velocities at once when
// they are wanted. The patch is chosen when it is expected to cost less
// than kPatchAdvantage of direct sampling.
bool autoPicksPatch(const BoatModel& boat, const BoatState& state, bool perVertex) {
  const int side = state.patch.samplesPerSide();
  if (side == 0) return false;  // too many nodes to configure
  const QueryCost cost = boat.surface.queryCost();
  const auto count = double(soaOf(boat.hull).vertexCount);
  const double direct_ns = count * (perVertex ? cost.heightAndVelocity_ns : cost.height_ns);
  double patch_ns = double(side) * double(side) * cost.gridNode_ns + count * kInterpolation_ns;
  bool onGrid = false;
  if (perVertex) patch_ns += patchVelocityCost_ns(boat, state, onGrid);
  return patch_ns < kPatchAdvantage * direct_ns;
}

void planPatch(const BoatModel& boat, const BoatState& state, bool uniformVelocity, SubstepPlan& p) {
  p.heights = HeightSampling::Patch;
  // The nodes' velocities when the surface gives them on grids for less
  // than a query of the wet vertices (not for a small hull on a large
  // patch), or their surface velocities for the one under the boat.
  bool onGrid = false;
  if (p.velocities == WaterVelocities::PerVertex) (void)patchVelocityCost_ns(boat, state, onGrid);
  if (onGrid) {
    p.patchVelocities = PatchVelocities::Nodes;
    p.patchVelocityDepth_m = velocityDepthWanted_m(boat, state.lowestAbove_m);
  } else if (p.velocities == WaterVelocities::PerBoat && !uniformVelocity && boatVelocityOnGrid(boat, state)) {
    p.patchVelocities = PatchVelocities::Surface;
  }
}

}  // namespace keel::KEEL_ABI::detail
