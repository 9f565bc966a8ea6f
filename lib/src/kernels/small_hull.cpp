// The small hull's kernel (cut.hpp's smallHullSums), one copy per
// instruction set (simd-inl.hpp): a hull whose vertices fit one vector and
// whose triangles fit two, its vertices' heights taken, then classified,
// cut and summed into the pressure integral in registers, to the bits of
// vertexHeights, classifyTriangles, then cutAndSum.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/small_hull.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/cut.hpp"
#include "kernels/cut_lanes-inl.hpp"
#include "kernels/heights-inl.hpp"
#include "kernels/pressure_sums-inl.hpp"
#include "kernels/simd-inl.hpp"
// After simd-inl.hpp.
#include "kernels/compress-inl.hpp"

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// The crossing list in at most two vectors of triangle indices, appended a
/// compressed vector at a time (its first `n` lanes): in registers, where
/// classifyTriangles writes it to memory entry by entry.
struct CrossingList {
  hn::Vec<DI> v[2];
  std::size_t count = 0;
  HWY_INLINE explicit CrossingList(DI di) : v{hn::Zero(di), hn::Zero(di)} {}
  HWY_INLINE void append(DI di, hn::Vec<DI> entries, std::size_t n) {
    const std::size_t lanes = hn::Lanes(di);
    // Lane j of r is entry (j - count) mod lanes: the entries rotated up to
    // the list's end, the first of them past it in v[0] (or v[1]), the rest
    // from the start of v[1].
    const auto back = hn::And(hn::Sub(hn::Iota(di, ScalarIndex(0)), hn::Set(di, ScalarIndex(count))),
                              hn::Set(di, ScalarIndex(lanes - 1)));
    const auto r = hn::TableLookupLanes(entries, hn::IndicesFromVec(di, back));
    if (count < lanes) {
      const auto before = hn::FirstN(di, count);
      v[0] = hn::IfThenElse(before, v[0], r);
      v[1] = hn::IfThenElse(before, r, v[1]);
    } else {
      v[1] = hn::IfThenElse(hn::FirstN(di, count - lanes), v[1], r);
    }
    count += n;
  }
};

std::size_t SmallHullSumsKernel(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m,
                                VertexHeights& measured, BoatBuffers& b, PressureSums& out) {
  const D d;
  const DI di;
  const std::size_t lanes = hn::Lanes(d);
  if (hull.vertexCount > lanes || hull.trianglePadded > 2 * lanes || hull.trianglePadded > kSlots) return kNotSmallHull;
  // (Its one vector of heights is read back from the vector store that
  // wrote it, which forwards it.)
  measured = heightsAbove(hull, up, centreUp_m, waterHeight_m, h_m, nullptr);
  const std::size_t vectors = hull.trianglePadded / lanes;
  const bool two = vectors == 2;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  const V heights = hn::LoadU(d, h_m);
  const ScalarIndex* vertexOf[3] = {hull.vertexOf[0].data(), hull.vertexOf[1].data(), hull.vertexOf[2].data()};
  const T *area = hull.area.data(), *ax = hull.ax.data(), *ay = hull.ay.data(), *az = hull.az.data();
  const T *gx = hull.gx.data(), *gy = hull.gy.data(), *gz = hull.gz.data();
  const T *sx = hull.sx.data(), *sy = hull.sy.data(), *sz = hull.sz.data();
  // The corners' heights [vector][corner], and each vector's crossing
  // triangles: classifyMixed's, lane by lane (a block wholly wet or dry
  // there gives the same depths and weights).
  V corner[2][3] = {{zero, zero, zero}, {zero, zero, zero}};
  hn::Mask<DI> twoWet[2], oneWet[2];
  SumBlock<kDepthSums> triangles, pieces;
  for (std::size_t v = 0; v < vectors; ++v) {
    const std::size_t t = v * lanes;
    V h[3];
    for (int k = 0; k < 3; ++k)
      corner[v][k] = h[k] = hn::TableLookupLanes(heights, hn::SetTableIndices(d, vertexOf[k] + t));
    const V a = hn::LoadU(d, area + t);
    const M real = hn::Gt(a, zero);  // not padding
    const M wet0 = hn::Lt(h[0], zero), wet1 = hn::Lt(h[1], zero), wet2 = hn::Lt(h[2], zero);
    const M anyWet = hn::Or(hn::Or(wet0, wet1), wet2);
    const M allWet = hn::And(real, hn::And(hn::And(wet0, wet1), wet2));
    // The whole triangles' terms, as addBlock adds the stream's (a vector
    // wholly dry adds nothing).
    if (!hn::AllFalse(d, allWet)) {
      PieceTerms p;
      p.a = load3(d, ax, ay, az, t), p.b = load3(d, hull.bx.data(), hull.by.data(), hull.bz.data(), t);
      p.c = load3(d, hull.cx.data(), hull.cy.data(), hull.cz.data(), t);
      p.g = load3(d, gx, gy, gz, t);
      p.s = load3(d, sx, sy, sz, t);
      p.d0 = hn::IfThenElseZero(allWet, hn::Neg(h[0])), p.d1 = hn::IfThenElseZero(allWet, hn::Neg(h[1]));
      p.d2 = hn::IfThenElseZero(allWet, hn::Neg(h[2]));
      p.weightedArea = hn::Mul(hn::IfThenElseZero(allWet, one), a);
      addTerms<false>(d, p, upv, t, triangles.sum);
    }
    const M crosses = hn::AndNot(allWet, hn::And(real, anyWet));
    const M pair = hn::And(crosses, hn::Or(hn::Or(hn::And(wet0, wet1), hn::And(wet0, wet2)), hn::And(wet1, wet2)));
    twoWet[v] = hn::RebindMask(di, pair), oneWet[v] = hn::RebindMask(di, hn::AndNot(pair, crosses));
  }
  // The list as classifyTriangles orders it: the two-wet triangles, then
  // the one-wet ones, each in order.
  CrossingList list(di);
  const auto lane = hn::Iota(di, ScalarIndex(0));
  for (const auto* kind : {twoWet, oneWet}) {
    for (std::size_t v = 0; v < vectors; ++v)
      list.append(di, LaneCompress(di, kind[v])(hn::Add(lane, hn::Set(di, ScalarIndex(v * lanes)))),
                  hn::CountTrue(di, kind[v]));
    if (kind == twoWet) b.twoWetCrossing = list.count;
  }
  const std::size_t count = list.count, slots = padded(count), twoSlots = padded(b.twoWetCrossing);
  // The crossing triangles' fields looked up in the hull's one or two
  // vectors of them (lookUpCrossing's).
  const auto last = hn::Set(di, ScalarIndex(lanes - 1));
  for (std::size_t k = 0; k < count; k += lanes) {
    const M valid = validLanes(d, k, count);
    const auto index = hn::And(k == 0 ? list.v[0] : list.v[1], hn::Set(di, ScalarIndex(hull.trianglePadded - 1)));
    const auto at = hn::IndicesFromVec(d, hn::And(index, last));
    const M inSecond = hn::RebindMask(d, hn::Gt(index, last));
    const auto pick = [&](V first, V second) HWY_ATTR {
      V x = hn::TableLookupLanes(first, at);
      if (two) x = hn::IfThenElse(inSecond, hn::TableLookupLanes(second, at), x);
      return hn::IfThenElseZero(valid, x);
    };
    const auto field = [&](const T* f) HWY_ATTR { return pick(hn::LoadU(d, f), two ? hn::LoadU(d, f + lanes) : zero); };
    StagedTriangles in;
    in.p0 = {field(ax), field(ay), field(az)};
    in.p1 = {field(hull.bx.data()), field(hull.by.data()), field(hull.bz.data())};
    in.p2 = {field(hull.cx.data()), field(hull.cy.data()), field(hull.cz.data())};
    in.sv = {field(sx), field(sy), field(sz)};
    in.area = field(area);
    in.h0 = pick(corner[0][0], corner[1][0]), in.h1 = pick(corner[0][1], corner[1][1]);
    in.h2 = pick(corner[0][2], corner[1][2]);
    in.u0 = in.u1 = in.u2 = V3{zero, zero, zero};
    in.e0 = in.e1 = in.e2 = zero;
    sumCutPieces(d, in, valid, k, slots, twoSlots, upv, pieces.sum);
  }
  twoBlockTotals<false>(triangles, pieces, out);
  return count;
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(SmallHullSumsKernel);

std::size_t smallHullSums(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m, const btScalar* waterHeight_m,
                          btScalar* h_m, VertexHeights& heights, BoatBuffers& b, PressureSums& sums) {
  // Past any instruction set's one vector of vertices and one block of
  // slots: no call.
  if (hull.vertexCount > 16 || hull.trianglePadded > 64 / sizeof(btScalar)) return kNotSmallHull;
  const std::size_t count = HWY_DYNAMIC_DISPATCH(SmallHullSumsKernel)(hull, up, centreUp_m, waterHeight_m, h_m, heights,
                                                                      b, sums);
  if (count != kNotSmallHull) countPieces(b.pieces, count, b.twoWetCrossing);
  return count;
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
