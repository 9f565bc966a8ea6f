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
#include <atomic>

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

/// What the small hull's kernel reads of the hull, as local pointers
/// (simd-inl.hpp): the triangles' corners' vertices and their fields, the
/// fields at constant offsets from one pointer (HullSoA::smallFields).
struct SmallHull {
  const ScalarIndex* vertexOf[3];
  const T *area, *ax, *ay, *az, *bx, *by, *bz, *cx, *cy, *cz, *gx, *gy, *gz, *sx, *sy, *sz;
  std::size_t trianglePadded;
  explicit SmallHull(const HullSoA& h) : SmallHull(h, h.smallFields.data()) {}
  SmallHull(const HullSoA& h, const T* f)
      : vertexOf{h.vertexOf[0].data(), h.vertexOf[1].data(), h.vertexOf[2].data()},
        area(f + HullSoA::kSmallArea * kPad),
        ax(f + HullSoA::kSmallA * kPad),
        ay(ax + kPad),
        az(ax + 2 * kPad),
        bx(f + HullSoA::kSmallB * kPad),
        by(bx + kPad),
        bz(bx + 2 * kPad),
        cx(f + HullSoA::kSmallC * kPad),
        cy(cx + kPad),
        cz(cx + 2 * kPad),
        gx(f + HullSoA::kSmallG * kPad),
        gy(gx + kPad),
        gz(gx + 2 * kPad),
        sx(f + HullSoA::kSmallS * kPad),
        sy(sx + kPad),
        sz(sx + 2 * kPad),
        trianglePadded(h.trianglePadded) {}
};

/// Which triangles of a vector cross the waterline: two corners wet, one;
/// and whether any is wholly wet (its terms added to the sums).
struct Crossing {
  hn::Mask<DI> twoWet, oneWet;
  bool wholeWet = false;
};

/// Triangles t... (one vector; t a constant where inlined, so that the
/// sums' slot vector is one too and stays in a register): their corners'
/// heights into `corner`, looked up in the vertices' `heights`; the whole
/// triangles' terms added to `triangles` as addBlock adds the stream's (a
/// vector wholly dry adds nothing); and the crossing ones. classifyMixed's
/// classes, lane by lane: a block wholly wet or dry there gives the same
/// depths and weights.
HWY_INLINE Crossing classifyVector(D d, const SmallHull& h, V heights, std::size_t t, V3 upv, Sum* triangles,
                                   V (&corner)[3]) {
  const DI di;
  const V zero = hn::Zero(d);
  for (int k = 0; k < 3; ++k) corner[k] = hn::TableLookupLanes(heights, hn::SetTableIndices(d, h.vertexOf[k] + t));
  const V a = hn::LoadU(d, h.area + t);
  const M real = hn::Gt(a, zero);  // not padding
  const M wet0 = hn::Lt(corner[0], zero), wet1 = hn::Lt(corner[1], zero), wet2 = hn::Lt(corner[2], zero);
  const M anyWet = hn::Or(hn::Or(wet0, wet1), wet2);
  const M allWet = hn::And(real, hn::And(hn::And(wet0, wet1), wet2));
  const bool wholeWet = !hn::AllFalse(d, allWet);
  if (wholeWet) {
    PieceTerms p;
    p.a = load3(d, h.ax, h.ay, h.az, t), p.b = load3(d, h.bx, h.by, h.bz, t), p.c = load3(d, h.cx, h.cy, h.cz, t);
    p.g = load3(d, h.gx, h.gy, h.gz, t);
    p.s = load3(d, h.sx, h.sy, h.sz, t);
    p.d0 = hn::IfThenElseZero(allWet, hn::Neg(corner[0])), p.d1 = hn::IfThenElseZero(allWet, hn::Neg(corner[1]));
    p.d2 = hn::IfThenElseZero(allWet, hn::Neg(corner[2]));
    p.weightedArea = hn::IfThenElseZero(allWet, a);  // (addBlock's weight, 1, times the area: the same bits)
    addTerms<false>(d, p, upv, t, triangles);
  }
  const M crosses = hn::AndNot(allWet, hn::And(real, anyWet));
  const M pair = hn::And(crosses, hn::Or(hn::Or(hn::And(wet0, wet1), hn::And(wet0, wet2)), hn::And(wet1, wet2)));
  return {hn::RebindMask(di, pair), hn::RebindMask(di, hn::AndNot(pair, crosses)), wholeWet};
}

/// Crossing triangles k... (one vector of the list, `entries`; k a
/// constant where inlined, as in classifyVector) looked up in the hull's
/// one or two vectors of triangles and their corners' heights `corner`
/// (lookUpCrossing's), cut and their pieces summed (sumCutPieces).
HWY_INLINE void cutVector(D d, const SmallHull& h, const V (&corner)[2][3], hn::Vec<DI> entries, std::size_t k,
                          std::size_t count, std::size_t twoSlots, V3 upv, Sum* pieces) {
  const DI di;
  const std::size_t lanes = hn::Lanes(d);
  const bool two = h.trianglePadded > lanes;
  const V zero = hn::Zero(d);
  const M valid = validLanes(d, k, count);
  const auto last = hn::Set(di, ScalarIndex(lanes - 1));
  const auto index = hn::And(entries, hn::Set(di, ScalarIndex(h.trianglePadded - 1)));
  const auto at = hn::IndicesFromVec(d, hn::And(index, last));
  const M inSecond = hn::RebindMask(d, hn::Gt(index, last));
  // Lanes past the list's end hold some triangle's finite fields:
  // sumCutPieces cuts them as triangles with one corner wet, their depths
  // and shares zero, so those lanes add +-0 terms to sums that began at
  // +0: not masked here.
  // (The second vector read only when there is one.)
  const auto pick = [&](const V& first, const V& second) HWY_ATTR {
    const V x = hn::TableLookupLanes(first, at);
    return two ? hn::IfThenElse(inSecond, hn::TableLookupLanes(second, at), x) : x;
  };
  const auto field = [&](const T* f) HWY_ATTR {
    const V x = hn::TableLookupLanes(hn::LoadU(d, f), at);
    return two ? hn::IfThenElse(inSecond, hn::TableLookupLanes(hn::LoadU(d, f + lanes), at), x) : x;
  };
  StagedTriangles in;
  in.p0 = {field(h.ax), field(h.ay), field(h.az)};
  in.p1 = {field(h.bx), field(h.by), field(h.bz)};
  in.p2 = {field(h.cx), field(h.cy), field(h.cz)};
  in.sv = {field(h.sx), field(h.sy), field(h.sz)};
  in.area = field(h.area);
  in.h0 = pick(corner[0][0], corner[1][0]), in.h1 = pick(corner[0][1], corner[1][1]);
  in.h2 = pick(corner[0][2], corner[1][2]);
  in.u0 = in.u1 = in.u2 = V3{zero, zero, zero};
  in.e0 = in.e1 = in.e2 = zero;
  sumCutPieces(d, in, valid, k, twoSlots, upv, pieces);
}

std::size_t SmallHullSumsKernel(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m,
                                VertexHeights& measured, BoatBuffers& b, PressureSums& out) {
  const D d;
  const DI di;
  const std::size_t lanes = hn::Lanes(d);
  if (hull.vertexCount > lanes || hull.trianglePadded > 2 * lanes || hull.trianglePadded > kSlots ||
      hull.smallFields.empty())
    return kNotSmallHull;
  // (Its one vector of heights is read back from the vector store that
  // wrote it, which forwards it. The padding past that vector is neither
  // read here nor named by a triangle: not written.)
  measured = heightsAbove(hull, up, centreUp_m, waterHeight_m, h_m, nullptr, lanes);
  const SmallHull h(hull);
  const bool two = hull.trianglePadded > lanes;
  const V zero = hn::Zero(d);
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  const V heights = hn::LoadU(d, h_m);
  // Each vector of triangles by itself, not in a loop: its sums' slot
  // vector is then known where it is compiled.
  V corner[2][3] = {{zero, zero, zero}, {zero, zero, zero}};
  SumBlock<kDepthSums> triangles, pieces;
  const hn::Mask<DI> none = hn::FirstN(di, 0);
  const Crossing first = classifyVector(d, h, heights, 0, upv, triangles.sum, corner[0]);
  const Crossing second = two ? classifyVector(d, h, heights, lanes, upv, triangles.sum, corner[1])
                              : Crossing{none, none, false};
  // The list as classifyTriangles orders it: the two-wet triangles, then
  // the one-wet ones, each in order.
  CrossingList list(di);
  const auto lane = hn::Iota(di, ScalarIndex(0));
  const auto append = [&](hn::Mask<DI> m, std::size_t t) HWY_ATTR __attribute__((always_inline)) {
    list.append(di, LaneCompress(di, m)(hn::Add(lane, hn::Set(di, ScalarIndex(t)))), hn::CountTrue(di, m));
  };
  append(first.twoWet, 0);
  if (two) append(second.twoWet, lanes);
  b.twoWetCrossing = list.count;
  append(first.oneWet, 0);
  if (two) append(second.oneWet, lanes);
  const std::size_t count = list.count, twoSlots = padded(b.twoWetCrossing);
  if (count > 0) cutVector(d, h, corner, list.v[0], 0, count, twoSlots, upv, pieces.sum);
  if (count > lanes) {
    // The fields read again: through the hull as loaded here, GCC kept the
    // first call's loads of them, spilled to the stack, for this rarer call.
    const HullSoA* again = &hull;
    asm("" : "+r"(again));  // NOLINT(hicpp-no-assembler): no instruction, only the compiler's view of the pointer
    cutVector(d, SmallHull(*again), corner, list.v[1], lanes, count, twoSlots, upv, pieces.sum);
  }
  // At most a vector of crossing triangles: the pieces' sums past their
  // first slot vector are the +0 they started at; and no wholly wet
  // triangle in the second vector (none when there is no second), the
  // triangles' too.
  if (count > lanes)
    twoBlockTotals<false>(triangles, pieces, out);
  else if (second.wholeWet)
    twoBlockTotals<false, kDepthSums, true>(triangles, pieces, out);
  else
    twoBlockTotals<false, kDepthSums, true, true>(triangles, pieces, out);
  countPieces(b.pieces, count, b.twoWetCrossing);
  return count;
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(SmallHullSumsKernel);

namespace {

/// Highway's choice of instruction set (a test's choice of another changes
/// this same object), found at the first call where HWY_DYNAMIC_DISPATCH
/// asks the Highway library for it at each call. Constant-initialised, so
/// that a call from another static's initialiser finds it null, not unmade.
std::atomic<const hwy::ChosenTarget*> chosenTarget{nullptr};

/// The first call: finds Highway's choice, then dispatches as every call
/// does. Out of line, so that smallHullSums' common path saves no registers.
[[gnu::noinline, gnu::cold]] std::size_t firstSmallHullSums(const HullSoA& hull, const btScalar up[3],
                                                            btScalar centreUp_m, const btScalar* waterHeight_m,
                                                            btScalar* h_m, VertexHeights& heights, BoatBuffers& b,
                                                            PressureSums& sums) {
  chosenTarget.store(&hwy::GetChosenTarget(), std::memory_order_relaxed);
  return HWY_DYNAMIC_DISPATCH(SmallHullSumsKernel)(hull, up, centreUp_m, waterHeight_m, h_m, heights, b, sums);
}

}  // namespace

std::size_t smallHullSums(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m, const btScalar* waterHeight_m,
                          btScalar* h_m, VertexHeights& heights, BoatBuffers& b, PressureSums& sums) {
  // Past any instruction set's one vector of vertices and one block of
  // slots: no call.
  if (hull.vertexCount > 16 || hull.trianglePadded > 64 / sizeof(btScalar)) return kNotSmallHull;
  // HWY_DYNAMIC_DISPATCH's table and index, and the kernel called last, so
  // that this call ends in a jump to it.
  const hwy::ChosenTarget* chosen = chosenTarget.load(std::memory_order_relaxed);
  if (chosen == nullptr) [[unlikely]]
    return firstSmallHullSums(hull, up, centreUp_m, waterHeight_m, h_m, heights, b, sums);
  return HWY_DISPATCH_TABLE(SmallHullSumsKernel)[chosen->GetIndex()](hull, up, centreUp_m, waterHeight_m, h_m, heights,
                                                                     b, sums);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
