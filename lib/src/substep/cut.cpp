// The Classify and Cut stages: which triangles the waterline crosses, and
// the pieces it cuts out of them (docs/model.md §1.1).
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

namespace keel::KEEL_ABI::detail {

void classify(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Classify);
  // Whole triangles go to the SIMD sums as they are; the few the waterline
  // crosses are cut into a stream of pieces.
  s.crossingCount = classifyTriangles(soaOf(boat.hull), tri.water.above_m.data(), s.axes.up, s.axes.centreUp_m,
                                      s.waterRange, s.buffers);
  classifyFlags(state, s);
}

void cut(const BoatModel& boat, BoatState& state, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Cut);
  BoatBuffers& b = s.buffers;
  // The pieces take the water velocity interpolated from their corners'
  // (the WaterVelocity stage) when the plan wants it per vertex, and the
  // corners' pressure heads when the WavePressure stage gave them.
  const bool velocities = s.plan.velocities == WaterVelocities::PerVertex && state.anyWet;
  // Hydrostatics alone read only what the pressure integral needs; a
  // hydrodynamic term, the effects, the added mass and the wake read the
  // rest (CutOutput::Full).
  const bool full = piecesReadBeyondPressure(s.plan, state);
  // The pressure integral alone, of a small hull: its sums, not its pieces.
  const HullSoA& hull = soaOf(boat.hull);
  s.summed = !full && !velocities && !s.cornerHeads && cutSums(hull, s.crossingCount);
  if (s.summed) {
    cutAndSum(hull, b, s.crossingCount, s.axes.up, s.sums.value);
    return;
  }
  cutCrossing(hull, b, s.crossingCount, velocities, s.cornerHeads, full ? CutOutput::Full : CutOutput::Pressure);
  if (!full) return;
  for (std::size_t k = 0; k < s.crossingCount; ++k) b.emerged[std::size_t(b.crossing[k])] = b.pieces.emerged[k];
}

}  // namespace keel::KEEL_ABI::detail
