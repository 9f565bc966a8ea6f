// The pressure kernel (pressure.hpp), one copy per instruction set
// (simd-inl.hpp), and the hydrostatic result of its sums.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pressure.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/pressure.hpp"
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

/// The moment m = sum x_i r_i + (sum x_i)(sum r_i) of a field x given at a
/// piece's corners (docs/model.md, "The pressure integral"); sum r_i is 3 G,
/// the stored centroid's.
HWY_INLINE V3 fieldMoment(V3 a, V3 b, V3 c, V3 g, V x0, V x1, V x2, V sum3) {
  return {mulAdd(a.x, x0, mulAdd(b.x, x1, mulAdd(c.x, x2, hn::Mul(g.x, sum3)))),
          mulAdd(a.y, x0, mulAdd(b.y, x1, mulAdd(c.y, x2, hn::Mul(g.y, sum3)))),
          mulAdd(a.z, x0, mulAdd(b.z, x1, mulAdd(c.z, x2, hn::Mul(g.z, sum3))))};
}

/// f(j) for j = 0, ..., kCount - 1, each j a compile-time constant, so that
/// sums held in an array are indexed only by constants and may stay in
/// registers.
template <std::size_t kCount, class F>
HWY_INLINE void eachIndex(const F& f) {
  [&]<std::size_t... J>(std::index_sequence<J...>) HWY_ATTR { (f(std::integral_constant<std::size_t, J>()), ...); }
  (std::make_index_sequence<kCount>());
}

enum { kForce = 0, kMoment = 3, kBuoyancy = 6, kArea = 9, kDepth = 10, kDepthForce = 11 };

/// Adds the pressure terms of pieces i... of s to `block`.
template <bool kHeads>
HWY_INLINE void addPieces(D d, const PieceStream& s, std::size_t i, V3 upv, Sum* block) {
  const V three = hn::Set(d, T(3));
  const V3 a = load3(d, s.ax, s.ay, s.az, i), b = load3(d, s.bx, s.by, s.bz, i), c = load3(d, s.cx, s.cy, s.cz, i);
  const V d0 = hn::LoadU(d, s.d0 + i), d1 = hn::LoadU(d, s.d1 + i), d2 = hn::LoadU(d, s.d2 + i);
  const V3 sv = load3(d, s.sx, s.sy, s.sz, i);
  const V sumD = hn::Add(hn::Add(d0, d1), d2);
  const V3 g = centroid(d, s, i);
  const V3 m = fieldMoment(a, b, c, g, d0, d1, d2, hn::Mul(sumD, three));
  // The pressure's head: the depth, or the surface's head.
  V sumP = sumD;
  V3 mp = m;
  if constexpr (kHeads) {
    const V e0 = hn::LoadU(d, s.e0 + i), e1 = hn::LoadU(d, s.e1 + i), e2 = hn::LoadU(d, s.e2 + i);
    sumP = hn::Add(hn::Add(e0, e1), e2);
    mp = fieldMoment(a, b, c, g, e0, e1, e2, hn::Mul(sumP, three));
  }
  const V3 torque = cross(mp, sv);
  const V sUp = dot(sv, upv);
  const V sumD2 = mulAdd(d0, d0, mulAdd(d1, d1, mulAdd(d2, d2, hn::Mul(sumD, sumD))));
  const V terms[14] = {hn::Mul(sv.x, sumP),
                       hn::Mul(sv.y, sumP),
                       hn::Mul(sv.z, sumP),
                       torque.x,
                       torque.y,
                       torque.z,
                       hn::Mul(m.x, sUp),
                       hn::Mul(m.y, sUp),
                       hn::Mul(m.z, sUp),
                       hn::Mul(hn::LoadU(d, s.weight + i), hn::LoadU(d, s.area + i)),
                       hn::Mul(sUp, sumD2),
                       hn::Mul(sv.x, sumD),
                       hn::Mul(sv.y, sumD),
                       hn::Mul(sv.z, sumD)};
  eachIndex<kHeads ? 14 : 11>([&](auto j) { block[j].add(i, terms[j]); });
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

/// The sums of a block of pieces, each Sum started (zeroed) or not one by
/// one: GCC would clear an array of them, loop-constructed, through memory
/// (rep stos) rather than in the registers the block's loop keeps them in.
template <std::size_t kSums>
struct SumBlock {
  Sum sum[kSums];
  HWY_INLINE SumBlock() : SumBlock(Sum(), std::make_index_sequence<kSums>()) {}
  HWY_INLINE explicit SumBlock(Unstarted tag) : SumBlock(tag, std::make_index_sequence<kSums>()) {}
  template <class Init, std::size_t... J>
  HWY_INLINE SumBlock(const Init& init, std::index_sequence<J...> /*each*/)
      : sum{(static_cast<void>(J), Sum(init))...} {}
};

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

/// Sums for two streams of at most a block each (a small hull's triangles
/// and pieces): the same additions as Sums' loop, without the double
/// totals zeroed and kept in memory.
template <bool kHeads, std::size_t kSums>
HWY_NOINLINE PressureSums twoBlockSums(const PieceStream* streams, V3 upv) {
  SumBlock<kSums> first(Unstarted{}), second(Unstarted{});
  keepBlock<kHeads>(streams, upv, first);
  keepBlock<kHeads>(streams + 1, upv, second);
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

/// The pressure sums; with `kHeads`, the force and torque from the pressure
/// heads at the corners (s.e0...; PressureModel::WavePressure), the volume,
/// centre of buoyancy and depth integral still from the depths.
template <bool kHeads>
PressureSums Sums(const PieceStream* streams, std::size_t streamCount, const T* up) {
  // (The streams are read through local copies: see simd-inl.hpp.)
  const D d;
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  // Eleven sums (fourteen with heads), each kept per slot in btScalar over a
  // block of kBlock pieces and then added into double slots: only 8-term
  // sums round in float, the cancelling sum over the whole hull is double,
  // at an eighth of the conversions (float sums fail the submerged-hull
  // tests). A block is a run of a stream, the same on every instruction set.
  constexpr int kSums = kHeads ? 14 : 11;
  constexpr std::size_t kBlock = 8 * kSlots;
  if (streamCount == 2 && streams[0].count <= kBlock && streams[1].count <= kBlock)
    return twoBlockSums<kHeads, kSums>(streams, upv);
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
  return sumsOf<kHeads>([&](int j) { return total[j].total(); });
}

PressureSums PressureKernel(const PieceStream* streams, std::size_t streamCount, const T* up) {
  return streams[0].e0 != nullptr ? Sums<true>(streams, streamCount, up) : Sums<false>(streams, streamCount, up);
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PressureKernel);

PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3]) {
  return HWY_DYNAMIC_DISPATCH(PressureKernel)(streams, count, up);
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
