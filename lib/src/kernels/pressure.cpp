// The pressure kernel (pressure.hpp), one copy per instruction set
// (simd-inl.hpp), and the hydrostatic result of its sums.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pressure.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/pressure.hpp"
#include "kernels/pressure_terms-inl.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// A Sum's partial sums carried on in double, slot by slot (SlotSum): the
/// pressure sums cancel heavily over a closed hull (docs/model.md, "The
/// pressure integral").
/// Started from a Sum, it holds that Sum's slots exactly: +0 + x is x for
/// every x but -0, which a sum started at +0 never is.
struct WideSum {
  HWY_INLINE WideSum() {}  // (the implicit one would lack the instruction set's attributes)
#if defined(BT_USE_DOUBLE_PRECISION) && !HWY_HAVE_SCALABLE
  Sum v;
  HWY_INLINE explicit WideSum(const Sum& x) : v(x) {}
  HWY_INLINE void add(const Sum& x) {
    for (std::size_t j = 0; j < Sum::kVectors; ++j) v.v[j] = hn::Add(v.v[j], x.v[j]);
  }
  [[nodiscard]] HWY_INLINE double total() const { return v.total(); }
#elif HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR
  double v[kSlots] = {};  // one lane at a time
  HWY_INLINE explicit WideSum(const Sum& x) { add(x); }
  HWY_INLINE void add(const Sum& x) {
    T lanes[kSlots];
    x.store(lanes);
    for (std::size_t k = 0; k < kSlots; ++k) v[k] += double(lanes[k]);
  }
  [[nodiscard]] HWY_INLINE double total() const {
    double sum[kSlots];
    std::copy(v, v + kSlots, sum);
    return halvingSum(sum, kSlots);
  }
#else
  using DW = hn::RepartitionToWide<D>;
  SlotSum<DW, kSlots> v;  // float vector j's slots are double vectors 2j and 2j + 1
  /// Slot vector k of x in double.
  static HWY_INLINE hn::Vec<DW> promoted(const Sum& x, std::size_t k) {
    const hn::Half<D> dh;
    return hn::PromoteTo(DW(), k % 2 == 0 ? hn::LowerHalf(dh, x.v[k / 2]) : hn::UpperHalf(dh, x.v[k / 2]));
  }
  HWY_INLINE explicit WideSum(const Sum& x) {
    for (std::size_t k = 0; k < 2 * Sum::kVectors; ++k) v.v[k] = promoted(x, k);
  }
  HWY_INLINE void add(const Sum& x) {
    for (std::size_t k = 0; k < 2 * Sum::kVectors; ++k) v.v[k] = hn::Add(v.v[k], promoted(x, k));
  }
  [[nodiscard]] HWY_INLINE double total() const { return v.total(); }
#endif
};

/// Adds the pressure terms of pieces i... of s to `block`.
template <bool kHeads>
HWY_INLINE void addPieces(D d, const PieceStream& s, std::size_t i, V3 upv, Sum* block) {
  PieceTerms p;
  p.a = load3(d, s.ax, s.ay, s.az, i), p.b = load3(d, s.bx, s.by, s.bz, i), p.c = load3(d, s.cx, s.cy, s.cz, i);
  p.g = centroid(d, s, i);
  p.s = load3(d, s.sx, s.sy, s.sz, i);
  p.d0 = hn::LoadU(d, s.d0 + i), p.d1 = hn::LoadU(d, s.d1 + i), p.d2 = hn::LoadU(d, s.d2 + i);
  if constexpr (kHeads) p.e0 = hn::LoadU(d, s.e0 + i), p.e1 = hn::LoadU(d, s.e1 + i), p.e2 = hn::LoadU(d, s.e2 + i);
  p.weightedArea = hn::Mul(hn::LoadU(d, s.weight + i), hn::LoadU(d, s.area + i));
  addTerms<kHeads>(d, p, upv, i, block);
}

/// Adds the pressure terms of pieces [start, end) of s, one block, to
/// `block`; false when every piece was dry (block then left as it was).
template <bool kHeads>
HWY_INLINE bool addBlock(D d, const PieceStream& s, std::size_t start, std::size_t end, V3 upv, Sum* block) {
  bool pending = false;
  for (std::size_t i = start; i < end; i += hn::Lanes(d)) {
    if (!hn::AllFalse(d, hn::Gt(hn::LoadU(d, s.weight + i), hn::Zero(d)))) {  // else dry: adds nothing
      addPieces<kHeads>(d, s, i, upv, block);
      pending = true;
    }
  }
  return pending;
}

/// The PressureSums of the sums' totals (indexed as kForce...).
template <bool kHeads, class Total>
HWY_INLINE PressureSums sumsOf(const Total& total) {
  PressureSums out;
  for (int k = 0; k < 3; ++k) {
    out.force[k] = total(kForce + k);
    out.moment[k] = total(kMoment + k);
    out.buoyancyMoment[k] = total(kBuoyancy + k);
    out.depthForce[k] = total((kHeads ? kDepthForce : kForce) + k);
  }
  out.area = total(kArea);
  out.depthIntegral = total(kDepth);
  return out;
}

/// Stream s's sums when it fits in one block (addBlock), into `out`: +0
/// in every slot when it is dry.
template <bool kHeads, std::size_t kSums>
HWY_NOINLINE void keepBlock(const PieceStream* stream, V3 upv, SumBlock<kSums>& out) {
  const D d;
  const PieceStream s = *stream;
  SumBlock<kSums> block;
  static_cast<void>(addBlock<kHeads>(d, s, 0, s.count, upv, block.sum));
  eachIndex<kSums>([&](auto j) { out.sum[j] = block.sum[j]; });
}

/// The totals of two blocks' sums, slot by slot in double, then by
/// halves.
template <bool kHeads, std::size_t kSums>
HWY_INLINE PressureSums twoBlockTotals(const SumBlock<kSums>& first, const SumBlock<kSums>& second) {
  double total[kSums];
  // A dry stream's block sums are the +0 they started at, whose addition
  // changes no bit (a sum started at +0 is never -0): added without a test.
  eachIndex<kSums>([&](auto j) {
    WideSum t(first.sum[j]);
    t.add(second.sum[j]);
    total[j] = t.total();
  });
  return sumsOf<kHeads>([&](int j) { return total[j]; });
}

/// Sums for two streams of at most a block each (a small hull's triangles
/// and pieces): the same additions as Sums' loop, without the double
/// totals zeroed and kept in memory.
template <bool kHeads, std::size_t kSums>
HWY_NOINLINE PressureSums twoBlockSums(const PieceStream* streams, V3 upv) {
  SumBlock<kSums> first(Unstarted{}), second(Unstarted{});
  keepBlock<kHeads>(streams, upv, first);
  keepBlock<kHeads>(streams + 1, upv, second);
  return twoBlockTotals<kHeads>(first, second);
}

/// The same as twoBlockSums for the triangles' stream of at most a block
/// and the pieces' block of sums the cut left (CutOutput::PressureSums):
/// the block keepBlock would have summed from the stored pieces.
template <std::size_t kSums>
HWY_NOINLINE PressureSums summedPiecesSums(const PieceStream* triangles, const T* pieceSums, V3 upv) {
  SumBlock<kSums> first(Unstarted{}), second(Unstarted{});
  keepBlock<false>(triangles, upv, first);
  eachIndex<kSums>([&](auto j) { second.sum[j].load(pieceSums + j * kSlots); });
  return twoBlockTotals<false>(first, second);
}

/// The pressure sums; with `kHeads`, the force and torque from the pressure
/// heads at the corners (s.e0...; PressureModel::WavePressure), the volume,
/// centre of buoyancy and depth integral still from the depths. With
/// `pieceSums` (not with kHeads), the pieces' one block of sums the cut
/// left, after the streams'.
template <bool kHeads>
PressureSums Sums(const PieceStream* streams, std::size_t streamCount, const T* up, const T* pieceSums) {
  // (The streams are read through local copies: see simd-inl.hpp.)
  const D d;
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  // Eleven sums (fourteen with heads), each kept per slot in btScalar over a
  // block of kBlock pieces and then added into double slots: only 8-term
  // sums round in float, the cancelling sum over the whole hull is double,
  // at an eighth of the conversions (float sums fail the submerged-hull
  // tests). A block is a run of a stream, the same on every instruction set.
  constexpr std::size_t kSums = kHeads ? kHeadSums : kDepthSums;
  constexpr std::size_t kBlock = 8 * kSlots;
  if (pieceSums == nullptr && streamCount == 2 && streams[0].count <= kBlock && streams[1].count <= kBlock)
    return twoBlockSums<kHeads, kSums>(streams, upv);
  if constexpr (!kHeads)
    if (pieceSums != nullptr && streamCount == 1 && streams[0].count <= kBlock)
      return summedPiecesSums<kSums>(streams, pieceSums, upv);
  WideSum total[kSums];
  for (std::size_t k = 0; k < streamCount; ++k) {
    const PieceStream s = streams[k];
    for (std::size_t start = 0; start < s.count; start += kBlock) {
      // The block's sums live only in its loop, which GCC then keeps in
      // registers; the double totals, touched once a block, stay in memory
      // (keel_bench substep).
      SumBlock<kSums> block;
      if (addBlock<kHeads>(d, s, start, std::min(start + kBlock, s.count), upv, block.sum))
        eachIndex<kSums>([&](auto j) { total[j].add(block.sum[j]); });
    }
  }
  if (pieceSums != nullptr) {  // a dry block's +0 slots change no bit: added without a test
    SumBlock<kSums> block(Unstarted{});
    eachIndex<kSums>([&](auto j) {
      block.sum[j].load(pieceSums + j * kSlots);
      total[j].add(block.sum[j]);
    });
  }
  return sumsOf<kHeads>([&](int j) { return total[j].total(); });
}

PressureSums PressureKernel(const PieceStream* streams, std::size_t streamCount, const T* up, const T* pieceSums) {
  return streams[0].e0 != nullptr ? Sums<true>(streams, streamCount, up, nullptr)
                                  : Sums<false>(streams, streamCount, up, pieceSums);
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PressureKernel);

PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3],
                          const btScalar* pieceSums) {
  return HWY_DYNAMIC_DISPATCH(PressureKernel)(streams, count, up, pieceSums);
}

void pressureResult(const PressureSums& sums, btScalar density_kgpm3, btScalar gravity_mps2, const btVector3& up,
                    HydrostaticResult& result) {
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  result.force_N = btVector3(btScalar(-rhoG * sums.force[0] / 3), btScalar(-rhoG * sums.force[1] / 3),
                             btScalar(-rhoG * sums.force[2] / 3));
  result.torque_Nm = btVector3(btScalar(-rhoG * sums.moment[0] / 12), btScalar(-rhoG * sums.moment[1] / 12),
                               btScalar(-rhoG * sums.moment[2] / 12));
  // V = -sum (S . up)(sum d) / 3: the vertical force over rho g of the
  // static head.
  const double volume = -(sums.depthForce[0] * up.x() + sums.depthForce[1] * up.y() + sums.depthForce[2] * up.z()) / 3;
  result.submergedVolume_m3 = btScalar(volume);
  result.wettedArea_m2 = btScalar(sums.area);
  // Divergence theorem with grad d = -up (flat water), the waterplane
  // contributing nothing because d = 0 there:
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,
  //   int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double depthVolume = -sums.depthIntegral / 24;
  result.depthIntegral_m4 = btScalar(depthVolume);
  result.centreOfBuoyancy_m.setZero();
  if (volume > 0) {
    for (int k = 0; k < 3; ++k)
      result.centreOfBuoyancy_m[k] = btScalar((double(up[k]) * depthVolume - sums.buoyancyMoment[k] / 12) / volume);
  }
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
