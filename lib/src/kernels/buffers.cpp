// The streams of pieces and the per-thread working memory (buffers.hpp).

#include "kernels/buffers.hpp"

namespace keel::KEEL_ABI::detail {

PieceStream triangleStream(const HullSoA& hull, const btScalar* d0, const btScalar* d1, const btScalar* d2,
                           const btScalar* weight, const btScalar* u, const btScalar* v, const btScalar* w) {
  return PieceStream{hull.trianglePadded,
                     hull.ax.data(),
                     hull.ay.data(),
                     hull.az.data(),
                     hull.bx.data(),
                     hull.by.data(),
                     hull.bz.data(),
                     hull.cx.data(),
                     hull.cy.data(),
                     hull.cz.data(),
                     hull.gx.data(),
                     hull.gy.data(),
                     hull.gz.data(),
                     d0,
                     d1,
                     d2,
                     hull.sx.data(),
                     hull.sy.data(),
                     hull.sz.data(),
                     hull.csx.data(),
                     hull.csy.data(),
                     hull.csz.data(),
                     hull.area.data(),
                     hull.inverseArea.data(),
                     weight,
                     u,
                     v,
                     w};
}

void PieceBuffer::reserve(std::size_t triangleCount) {
  const std::size_t n = 2 * (padded(triangleCount) + kPad);
  for (auto* v :
       {&ax,       &ay,   &az,    &bx,      &by,  &bz,  &cx,   &cy,          &cz,     &gx, &gy, &gz, &d0, &d1, &d2,
        &sx,       &sy,   &sz,    &csx,     &csy, &csz, &area, &inverseArea, &weight, &ux, &uy, &uz, &vx, &vy, &vz,
        &cosTheta, &rate, &gamma, &emerged, &px,  &py,  &pz,   &qx,          &qy,     &qz, &e0, &e1, &e2})
    v->assign(n, 0);
  crossing = slots = twoSlots = 0;
}

PieceStream PieceBuffer::stream() const {
  return PieceStream{slots + twoSlots, ax.data(),  ay.data(),  az.data(),  bx.data(),   by.data(),
                     bz.data(),        cx.data(),  cy.data(),  cz.data(),  gx.data(),   gy.data(),
                     gz.data(),        d0.data(),  d1.data(),  d2.data(),  sx.data(),   sy.data(),
                     sz.data(),        csx.data(), csy.data(), csz.data(), area.data(), inverseArea.data(),
                     weight.data(),    ux.data(),  uy.data(),  uz.data()};
}

PieceFlowOut PieceBuffer::flowOut() {
  return PieceFlowOut{vx.data(), vy.data(), vz.data(), cosTheta.data(), rate.data()};
}

void BoatBuffers::fit(const HullSoA& hull) {
  if (d0.size() < hull.trianglePadded) {
    for (auto* v : {&corner0, &corner1, &corner2, &d0, &d1, &d2, &weight, &emerged, &waterU, &waterV, &waterW, &head0,
                    &head1, &head2})
      v->assign(hull.trianglePadded, 0);
    crossing.assign(hull.trianglePadded + kPad, 0);
    crossingOneWet.assign(hull.trianglePadded + kPad, 0);
    blockKind.assign(hull.trianglePadded / kPad, 0);
    stageMemory.assign(std::size_t(4) * kStageGroups * hull.trianglePadded, 0);
    for (int g = 0; g < kStageGroups; ++g) stage[g] = stageMemory.data() + 4 * hull.trianglePadded * std::size_t(g);
    pieces.reserve(hull.trianglePadded);
  }
  if (u_m.size() < hull.vertexPadded) {
    water_mps.assign(4 * hull.vertexPadded, 0);
    for (auto* v :
         {&u_m, &v_m, &w_m, &queryU_m, &queryV_m, &queryW_m, &above_m, &head_m, &queryHead_m, &querySurface_m})
      v->assign(hull.vertexPadded, 0);
    cellRecord.assign(PatchCells::kRecord * hull.vertexPadded, 0);
    queried.assign(hull.vertexPadded, 0);
    queried.clear();  // capacity kept: no allocation per substep
    listed.assign(hull.vertexPadded + kListedPad, 0);
    stamp.assign(hull.vertexPadded, 0);
    stampNow = 0;
    velocity.assign(hull.vertexPadded, WaterVelocity{});
  }
}

BoatBuffers& threadBufferStorage() {
  thread_local BoatBuffers buffers;
  return buffers;
}

}  // namespace keel::KEEL_ABI::detail
