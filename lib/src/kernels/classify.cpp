// The classification kernel (classify.hpp), one copy per instruction set
// (simd-inl.hpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/classify.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/classify.hpp"
#include "kernels/simd-inl.hpp"
// (after simd-inl.hpp)
#include "kernels/compress-inl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// What ClassifyKernel reads and writes, as local pointers (simd-inl.hpp).
struct ClassifyArrays {
  const std::uint64_t* corners;
  const T* area;
  T *corner0, *corner1, *corner2, *d0, *d1, *d2, *weight, *emerged;
  ScalarIndex *twoWetList, *oneWetList;
  std::uint32_t* kind;  // not char: a char store may alias every pointer above
};

/// A block's kind: the range of its box (corners `low` and `high`, body
/// frame) along up against the water's range, allowing `margin` [m] for
/// rounding between these bounds and the heights. Above the highest water,
/// every corner in the block is dry; below the lowest, every triangle is
/// wholly wet.
HWY_INLINE std::uint32_t blockKindOf(const T* up, const T* low, const T* high, T centreUp_m, Extent water_m, T margin) {
  T lowest = centreUp_m, highest = centreUp_m;
  for (int k = 0; k < 3; ++k) {
    const T a = up[k] * low[k], c = up[k] * high[k];
    lowest += std::min(a, c), highest += std::max(a, c);
  }
  if (lowest - water_m.hi > margin) return kBlockDry;
  if (water_m.lo - highest > margin) return kBlockWet;
  return kBlockMixed;
}

/// What the block from `first` needs of the vertices' heights h_m: none when
/// dry, the depths when wholly wet (a padding entry gets vertex 0's,
/// harmless with its zero area vector and weight), the corners' heights when
/// mixed [m].
HWY_INLINE void loadBlock(const ClassifyArrays& a, const T* h_m, std::uint32_t kind, std::size_t first) {
  const std::size_t end = first + kPad;
  if (kind == kBlockWet) {
    for (std::size_t t = first; t < end; ++t) {
      const std::uint64_t c = a.corners[t];
      a.d0[t] = -h_m[HullSoA::corner(c, 0)], a.d1[t] = -h_m[HullSoA::corner(c, 1)];
      a.d2[t] = -h_m[HullSoA::corner(c, 2)];
    }
  } else if (kind == kBlockMixed) {
    for (std::size_t t = first; t < end; ++t) {
      const std::uint64_t c = a.corners[t];
      a.corner0[t] = h_m[HullSoA::corner(c, 0)], a.corner1[t] = h_m[HullSoA::corner(c, 1)];
      a.corner2[t] = h_m[HullSoA::corner(c, 2)];
    }
  }
}

/// Weights and emerged fractions of a block wholly dry or wholly wet. (A
/// dry block's depths are left as they are: a vector whose weights are all
/// zero is skipped by every pass that reads them.)
HWY_INLINE void classifyWhole(D d, const ClassifyArrays& a, std::size_t first, bool dry) {
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  for (std::size_t t = first; t < first + kPad; t += hn::Lanes(d)) {
    const V real = hn::IfThenElseZero(hn::Gt(hn::LoadU(d, a.area + t), zero), one);  // not padding
    hn::StoreU(dry ? zero : real, d, a.weight + t);
    hn::StoreU(dry ? real : zero, d, a.emerged + t);
  }
}

/// Appends the entries t + lane of the lanes set in `m` to list[count...]:
/// few per vector, so a bit scan beats a compress (a table lookup on AVX2,
/// microcode on AMD's AVX-512; measured with keel_bench).
HWY_INLINE void appendIndices(D d, M m, std::size_t t, ScalarIndex* list, std::size_t& count) {
  std::uint8_t bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  hn::StoreMaskBits(d, m, bytes);
  std::uint64_t bits = 0;
  for (int k = 7; k >= 0; --k) bits = (bits << 8) | bytes[k];
  for (; bits != 0; bits &= bits - 1) list[count++] = ScalarIndex(t + std::size_t(__builtin_ctzll(bits)));
}

/// The crossing triangles of a vector, those with two corners wet (two
/// pieces) and those with one (one piece).
struct CrossingLanes {
  M twoWet, oneWet;
};

/// One vector of a block the water crosses, from its corners' heights: the
/// depths, weight and emerged fraction of each triangle; returns the
/// crossing ones.
HWY_INLINE CrossingLanes classifyMixed(D d, const ClassifyArrays& a, std::size_t t, V h0, V h1, V h2) {
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const M real = hn::Gt(hn::LoadU(d, a.area + t), zero);  // not padding
  const M wet0 = hn::Lt(h0, zero), wet1 = hn::Lt(h1, zero), wet2 = hn::Lt(h2, zero);
  const M anyWet = hn::Or(hn::Or(wet0, wet1), wet2);
  const M allWet = hn::And(real, hn::And(hn::And(wet0, wet1), wet2));
  const M allDry = hn::And(real, hn::Not(anyWet));
  hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h0)), d, a.d0 + t);
  hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h1)), d, a.d1 + t);
  hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h2)), d, a.d2 + t);
  hn::StoreU(hn::IfThenElseZero(allWet, one), d, a.weight + t);
  hn::StoreU(hn::IfThenElseZero(allDry, one), d, a.emerged + t);
  const M crosses = hn::AndNot(allWet, hn::And(real, anyWet));
  const M twoWet = hn::And(crosses, hn::Or(hn::Or(hn::And(wet0, wet1), hn::And(wet0, wet2)), hn::And(wet1, wet2)));
  return {twoWet, hn::AndNot(twoWet, crosses)};
}

/// The crossing list of a hull of one vector of triangles, in one vector
/// store: its two-wet triangles in order, then its one-wet ones (the
/// order the two lists' copy gives), so that the cut's vector load of it
/// is forwarded from this store rather than waiting for a store per entry.
/// Returns the two counts.
HWY_INLINE std::pair<std::size_t, std::size_t> storeCrossing(D d, CrossingLanes c, ScalarIndex* list) {
  const DI di;
  const auto lane = hn::Iota(di, ScalarIndex(0));
  const std::size_t twoWet = hn::CountTrue(d, c.twoWet), oneWet = hn::CountTrue(d, c.oneWet);
  const auto first = LaneCompress(di, hn::RebindMask(di, c.twoWet))(lane);
  const auto second = LaneCompress(di, hn::RebindMask(di, c.oneWet))(lane);
  // The one-wet entries moved up past the two-wet ones.
  const auto from = hn::And(hn::Sub(lane, hn::Set(di, ScalarIndex(twoWet))),
                            hn::Set(di, ScalarIndex(hn::Lanes(di) - 1)));
  const auto after = hn::TableLookupLanes(second, hn::IndicesFromVec(di, from));
  hn::StoreU(hn::IfThenElse(hn::FirstN(di, twoWet), first, after), di, list);
  return {twoWet, oneWet};
}

std::size_t ClassifyKernel(const HullSoA& hull, const T* h_m, const T* up, T centreUp_m, Extent water_m,
                           BoatBuffers& b) {
  const D d;
  // Margin for rounding between the blocks' bounds and the heights [m].
  const T margin = 16 * std::numeric_limits<T>::epsilon() *
                   (std::abs(centreUp_m) + std::max(std::abs(water_m.lo), std::abs(water_m.hi)) + hull.blockReach);
  // Every block's kind and loads first: scalar loads beat vector gathers
  // (about a cycle per lane; measured with keel_bench), and
  // a vector load right after the scalar stores to the same place would
  // stall (no store forwarding from several stores to one load).
  const std::size_t blocks = hull.trianglePadded / kPad;
  const T *low = hull.blockLow.data(), *high = hull.blockHigh.data();
  const ClassifyArrays a{hull.corners.data(), hull.area.data(), b.corner0.data(),  b.corner1.data(),
                         b.corner2.data(),    b.d0.data(),      b.d1.data(),       b.d2.data(),
                         b.weight.data(),     b.emerged.data(), b.crossing.data(), b.crossingOneWet.data(),
                         b.blockKind.data()};
  // A hull of at most a vector of vertices looks its mixed blocks' corners'
  // heights up in that vector instead, in registers.
  const bool lookUp = hull.vertexCount <= hn::Lanes(d);
  for (std::size_t block = 0; block < blocks; ++block) {
    const std::uint32_t kind = blockKindOf(up, low + 3 * block, high + 3 * block, centreUp_m, water_m, margin);
    a.kind[block] = kind;
    if (!(lookUp && kind == kBlockMixed)) loadBlock(a, h_m, kind, block * kPad);
  }
  const V heights = lookUp ? hn::LoadU(d, h_m) : hn::Zero(d);
  const ScalarIndex* vertexOf[3] = {hull.vertexOf[0].data(), hull.vertexOf[1].data(), hull.vertexOf[2].data()};
  std::size_t twoWetCount = 0, oneWetCount = 0;
  const bool oneVector = hull.trianglePadded == hn::Lanes(d);
  for (std::size_t block = 0; block < blocks; ++block) {
    const std::size_t first = block * kPad;
    if (a.kind[block] != kBlockMixed) {
      classifyWhole(d, a, first, a.kind[block] == kBlockDry);
      continue;
    }
    for (std::size_t t = first; t < first + kPad; t += hn::Lanes(d)) {
      V h[3];
      T* corner[3] = {a.corner0, a.corner1, a.corner2};
      for (int k = 0; k < 3; ++k) {
        if (lookUp) {  // stored for the cut, whose scalar loads of them do not wait
          h[k] = hn::TableLookupLanes(heights, hn::SetTableIndices(d, vertexOf[k] + t));
          hn::StoreU(h[k], d, corner[k] + t);
        } else {
          h[k] = hn::LoadU(d, corner[k] + t);
        }
      }
      const CrossingLanes c = classifyMixed(d, a, t, h[0], h[1], h[2]);
      if (oneVector) {
        std::tie(twoWetCount, oneWetCount) = storeCrossing(d, c, a.twoWetList);
      } else {
        appendIndices(d, c.twoWet, t, a.twoWetList, twoWetCount);
        appendIndices(d, c.oneWet, t, a.oneWetList, oneWetCount);
      }
    }
  }
  b.twoWetCrossing = twoWetCount;
  if (oneVector) return twoWetCount + oneWetCount;
  // The two-wet triangles first: only they need second slots (cutCrossing).
  // Copied kPad at a time (both lists have room for a kPad past their
  // triangles; what lies past the count is never a crossing triangle): a
  // copy of a known length, without a call.
  for (std::size_t k = 0; k < oneWetCount; k += kPad)
    std::copy_n(b.crossingOneWet.data() + k, kPad, b.crossing.data() + twoWetCount + k);
  return twoWetCount + oneWetCount;
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(ClassifyKernel);

std::size_t classifyTriangles(const HullSoA& hull, const btScalar* h_m, const btScalar up[3], btScalar centreUp_m,
                              Extent water_m, BoatBuffers& b) {
  return HWY_DYNAMIC_DISPATCH(ClassifyKernel)(hull, h_m, up, centreUp_m, water_m, b);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
