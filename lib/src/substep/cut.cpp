// Stages 3 and 5 of the substep: which triangles the waterline crosses,
// and the pieces it cuts out of them (docs/model.md §1.1). Also the cut as
// pieces and waterline segments for drawing and for the one-shot query.
#include "substep/stages.hpp"

namespace keel::KEEL_ABI::detail {

void classify(const BoatModel& boat, BoatState& state, Substep& s) {
  // Whole triangles go to the SIMD sums as they are; the few the waterline
  // crosses are cut into a stream of pieces.
  state.crossingCount = classifyTriangles(boat.hull.soa(), state.h_m.data(), s.axes.up, s.axes.centreUp_m, s.waterRange,
                                          s.buffers);
  if (!state.anyWet) s.flags |= StatusDry;
  if (state.crossingCount == 0 && state.anyWet) s.flags |= StatusSubmerged;
}

void cut(const BoatModel& boat, BoatState& state, Substep& s) {
  BoatBuffers& b = s.buffers;
  // The pieces take the water velocity interpolated from their corners'
  // (waterVelocityAtVertices) when the flow wants it per vertex, and the
  // pressure heads (wavePressureHeads) with the wave pressure.
  cutCrossing(boat.hull.soa(), b, state.crossingCount, s.perVertexVelocities && state.anyWet, s.heads);
  for (std::size_t k = 0; k < state.crossingCount; ++k) b.emerged[std::size_t(b.crossing[k])] = b.pieces.emerged[k];
}

void drawnCut(const Hull& hull, const BoatState& state, std::vector<SubmergedPiece>& pieces,
              std::vector<WaterlineSegment>& waterline) {
  pieces.clear();
  waterline.clear();
  const HullSoA& soa = hull.soa();
  if (!state.anyWet || state.h_m.size() < soa.vertexPadded) return;  // no substep on triangles yet
  BoatBuffers& b = threadBuffers(soa);
  // Classified again from the kept heights, triangle by triangle (a water
  // range that no block's box lies outside of), and cut without velocities.
  const btScalar up[3] = {0, 0, 0};
  const std::size_t crossing = classifyTriangles(soa, state.h_m.data(), up, 0, Extent{-BT_LARGE_FLOAT, BT_LARGE_FLOAT},
                                                 b);
  cutCrossing(soa, b, crossing, false, false);
  auto world = [&](btScalar x, btScalar y, btScalar z) { return state.basis * btVector3(x, y, z); };
  auto add = [&](const PieceStream& p, std::size_t i, std::uint32_t triangle) {
    const btVector3 s = world(p.sx[i], p.sy[i], p.sz[i]);
    pieces.push_back(SubmergedPiece{
        {world(p.ax[i], p.ay[i], p.az[i]), world(p.bx[i], p.by[i], p.bz[i]), world(p.cx[i], p.cy[i], p.cz[i])},
        {p.d0[i], p.d1[i], p.d2[i]},
        triangle,
        s,
        p.area[i]});
  };
  const PieceStream whole = b.triangles(soa);
  for (std::size_t t = 0; t < soa.triangleCount; ++t)
    if (whole.weight[t] > 0) add(whole, t, soa.triangle[t]);
  const PieceStream cutPieces = b.pieces.stream();
  for (std::size_t k = 0; k < crossing; ++k) {
    const std::uint32_t triangle = soa.triangle[std::size_t(b.crossing[k])];
    add(cutPieces, k, triangle);
    if (k < b.pieces.twoSlots && cutPieces.weight[b.pieces.slots + k] > 0) add(cutPieces, b.pieces.slots + k, triangle);
    const PieceBuffer& p = b.pieces;
    waterline.push_back({world(p.px[k], p.py[k], p.pz[k]), world(p.qx[k], p.qy[k], p.qz[k])});
  }
}

}  // namespace keel::KEEL_ABI::detail
