// SIMD kernels of the per-substep fast path (hull_kernel.hpp). Highway
// compiles this file once per instruction set (foreach_target.h re-includes
// it) and HWY_DYNAMIC_DISPATCH calls the best one the CPU has.
//
// Each kernel is the vector form of a function of hydrostatics.cpp or
// hydrodynamics.cpp, whose comments give the formulas; the tests compare
// the two to rounding. Lanes never interact until the final sums, which are
// taken in a fixed lane order: the result is deterministic for a given
// machine, whatever the number of threads.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hull_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "hull_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using T = btScalar;
using D = hn::ScalableTag<T>;
using DI = hn::RebindToSigned<D>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;

/// Speeds below this [m/s] have no direction (hydrodynamics.cpp, kTinySpeed_mps).
constexpr T kTinySpeed_mps = T(1e-6);

struct V3 {
  V x, y, z;
};

HWY_INLINE V3 load3(D d, const T* x, const T* y, const T* z, std::size_t i) {
  return {hn::LoadU(d, x + i), hn::LoadU(d, y + i), hn::LoadU(d, z + i)};
}
HWY_INLINE V3 set3(D d, const T (&v)[3]) { return {hn::Set(d, v[0]), hn::Set(d, v[1]), hn::Set(d, v[2])}; }
HWY_INLINE V3 add(V3 a, V3 b) { return {hn::Add(a.x, b.x), hn::Add(a.y, b.y), hn::Add(a.z, b.z)}; }
HWY_INLINE V3 sub(V3 a, V3 b) { return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)}; }
HWY_INLINE V3 scale(V3 a, V s) { return {hn::Mul(a.x, s), hn::Mul(a.y, s), hn::Mul(a.z, s)}; }
HWY_INLINE V dot(V3 a, V3 b) { return hn::MulAdd(a.x, b.x, hn::MulAdd(a.y, b.y, hn::Mul(a.z, b.z))); }
HWY_INLINE V3 cross(V3 a, V3 b) {
  return {hn::Sub(hn::Mul(a.y, b.z), hn::Mul(a.z, b.y)), hn::Sub(hn::Mul(a.z, b.x), hn::Mul(a.x, b.z)),
          hn::Sub(hn::Mul(a.x, b.y), hn::Mul(a.y, b.x))};
}
/// The centroid (a + b + c) / 3 of a stream's pieces, stored with them:
/// three loads instead of nine (the kernels stream from L2, not L1).
HWY_INLINE V3 centroid(D d, const PieceStream& s, std::size_t i) { return load3(d, s.gx, s.gy, s.gz, i); }

/// A sum kept in double lanes: the pressure sums cancel heavily over a closed
/// hull (hydrostatics.cpp accumulates them in double for the same reason).
struct WideSum {
#if defined(BT_USE_DOUBLE_PRECISION) || HWY_TARGET == HWY_SCALAR
  // Doubles already, or one float lane (promoted as it is added).
#if defined(BT_USE_DOUBLE_PRECISION)
  V v;
  HWY_INLINE WideSum() : v(hn::Zero(D())) {}
  HWY_INLINE void add(V x) { v = hn::Add(v, x); }
  [[nodiscard]] HWY_INLINE double total() const { return hn::GetLane(hn::SumOfLanes(D(), v)); }
#else
  double v = 0;
  HWY_INLINE void add(V x) { v += double(hn::GetLane(x)); }
  [[nodiscard]] HWY_INLINE double total() const { return v; }
#endif
#elif 0
  V v;
  HWY_INLINE WideSum() : v(hn::Zero(D())) {}
  HWY_INLINE void add(V x) { v = hn::Add(v, x); }
  [[nodiscard]] HWY_INLINE double total() const { return hn::GetLane(hn::SumOfLanes(D(), v)); }
#else
  using DW = hn::RepartitionToWide<D>;
  hn::Vec<DW> lo, hi;
  HWY_INLINE WideSum() : lo(hn::Zero(DW())), hi(hn::Zero(DW())) {}
  HWY_INLINE void add(V x) {
    const hn::Half<D> dh;
    lo = hn::Add(lo, hn::PromoteTo(DW(), hn::LowerHalf(dh, x)));
    hi = hn::Add(hi, hn::PromoteTo(DW(), hn::UpperHalf(dh, x)));
  }
  [[nodiscard]] HWY_INLINE double total() const { return hn::GetLane(hn::SumOfLanes(DW(), hn::Add(lo, hi))); }
#endif
};

/// A force and torque summed in vector lanes.
struct ForceSum {
  V fx, fy, fz, tx, ty, tz;
  HWY_INLINE explicit ForceSum(D d)
      : fx(hn::Zero(d)), fy(hn::Zero(d)), fz(hn::Zero(d)), tx(hn::Zero(d)), ty(hn::Zero(d)), tz(hn::Zero(d)) {}
  /// Adds force k u whose moment is k (c x u), given c x u as `arm`.
  HWY_INLINE void add(V k, V3 u, V3 arm) {
    fx = hn::MulAdd(k, u.x, fx), fy = hn::MulAdd(k, u.y, fy), fz = hn::MulAdd(k, u.z, fz);
    tx = hn::MulAdd(k, arm.x, tx), ty = hn::MulAdd(k, arm.y, ty), tz = hn::MulAdd(k, arm.z, tz);
  }
  [[nodiscard]] HWY_INLINE BodyForce total(D d) const {
    BodyForce out;
    const V parts[6] = {fx, fy, fz, tx, ty, tz};
    for (int k = 0; k < 3; ++k) {
      out.force[k] = double(hn::GetLane(hn::SumOfLanes(d, parts[k])));
      out.torque[k] = double(hn::GetLane(hn::SumOfLanes(d, parts[k + 3])));
    }
    return out;
  }
};

/// 1 / sqrt(x) for x > 0. In float: the CPU's estimate and one Newton step,
/// r (3 - x r^2) / 2, good to about an ulp and several times cheaper than a
/// square root and a division (this is the flow pass's costliest step). In
/// double, where the estimate would lose digits: exact.
HWY_INLINE V inverseSqrt(D d, V x) {
#if defined(BT_USE_DOUBLE_PRECISION) || HWY_TARGET == HWY_SCALAR
  return hn::Div(hn::Set(d, T(1)), hn::Sqrt(x));
#else
  const V r = hn::ApproximateReciprocalSqrt(x);
  return hn::Mul(hn::Mul(hn::Set(d, T(0.5)), r), hn::NegMulAdd(hn::Mul(x, r), r, hn::Set(d, T(3))));
#endif
}

/// x^exponent for x >= 0, the common exponents without exp and log
/// (hydrodynamics.cpp, falloff).
HWY_INLINE V power(D d, V x, T exponent) {
  if (exponent == T(0.5)) return hn::Sqrt(x);
  if (exponent == T(1)) return x;
  if (exponent == T(2)) return hn::Mul(x, x);
  const M positive = hn::Gt(x, hn::Zero(d));
  const V safe = hn::IfThenElse(positive, x, hn::Set(d, T(1)));
  return hn::IfThenElseZero(positive, hn::Exp(d, hn::Mul(hn::Set(d, exponent), hn::Log(d, safe))));
}

VertexHeights VertexHeightsKernel(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m) {
  const D d;
  const V ux = hn::Set(d, up[0]), uy = hn::Set(d, up[1]), uz = hn::Set(d, up[2]), c = hn::Set(d, centreUp_m);
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bottom = hn::Set(d, BT_LARGE_FLOAT), top = hn::Set(d, -BT_LARGE_FLOAT), nonFinite = hn::Zero(d);
  V lowest = hn::Set(d, BT_LARGE_FLOAT);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see FlowKernel
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(d)) {
    const V3 p = load3(d, px, py, pz, i);
    const V above = hn::MulAdd(p.x, ux, hn::MulAdd(p.y, uy, hn::MulAdd(p.z, uz, c)));
    const V water = hn::LoadU(d, waterHeight_m + i);
    const V h = hn::Sub(above, water);
    hn::StoreU(h, d, h_m + i);
    const M real = hn::FirstN(d, hull.vertexCount - std::min(i, hull.vertexCount));
    lowest = hn::Min(lowest, hn::IfThenElse(real, h, lowest));
    bottom = hn::Min(bottom, hn::IfThenElse(real, water, bottom));
    top = hn::Max(top, hn::IfThenElse(real, water, top));
    // Not |x| <= max: NaN or infinite (counted, as replaceNonFinite does).
    const M finite = hn::Le(hn::Abs(water), largest);
    nonFinite = hn::Add(nonFinite, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
  }
  return VertexHeights{Extent{hn::GetLane(hn::MinOfLanes(d, bottom)), hn::GetLane(hn::MaxOfLanes(d, top))},
                       std::size_t(hn::GetLane(hn::SumOfLanes(d, nonFinite))),
                       hn::GetLane(hn::MinOfLanes(d, lowest))};
}

/// btScalar(base + double(offset)) lane by lane: one rounding, so a boat far
/// from the origin keeps its shape in float (sampleDirect).
HWY_INLINE V addToDouble(D d, V offset, double base) {
#if defined(BT_USE_DOUBLE_PRECISION)
  return hn::Add(offset, hn::Set(d, base));
#elif HWY_TARGET == HWY_SCALAR
  return hn::Set(d, T(base + double(hn::GetLane(offset))));
#else
  const hn::RepartitionToWide<D> dw;
  const hn::Half<D> dh;
  const auto b = hn::Set(dw, base);
  const auto lo = hn::DemoteTo(dh, hn::Add(b, hn::PromoteTo(dw, hn::LowerHalf(dh, offset))));
  const auto hi = hn::DemoteTo(dh, hn::Add(b, hn::PromoteTo(dw, hn::UpperHalf(dh, offset))));
  return hn::Combine(d, hi, lo);
#endif
}

void CoordinatesKernel(const HullSoA& hull, const T* east, const T* north, const T* up, double centreEast_m,
                       double centreNorth_m, T centreUp_m, T* u_m, T* v_m, T* w_m) {
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V c = hn::Set(d, centreUp_m);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see FlowKernel
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(d)) {
    const V3 p = load3(d, px, py, pz, i);
    hn::StoreU(addToDouble(d, dot(p, e), centreEast_m), d, u_m + i);
    hn::StoreU(addToDouble(d, dot(p, n), centreNorth_m), d, v_m + i);
    if (w_m) hn::StoreU(hn::Add(c, dot(p, z)), d, w_m + i);
  }
}

std::size_t ClassifyKernel(const HullSoA& hull, const T* h_m, const T* up, T centreUp_m, Extent water_m,
                           BoatBuffers& b) {
  const D d;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  // Margin for rounding between the bounds below and the heights [m].
  const T margin = 16 * std::numeric_limits<T>::epsilon() *
                   (std::abs(centreUp_m) + std::max(std::abs(water_m.lo), std::abs(water_m.hi)) + hull.blockReach_m);
  // Each block's box against the water's range: when its lowest point is
  // above the highest water, every corner in the block is dry and no height
  // need be loaded; when its highest point is below the lowest water, every
  // triangle is wholly wet and only their depths are loaded. Of the others,
  // the corners' heights. All loads first: scalar loads beat vector gathers
  // (a gather costs about one cycle per lane on current x86 cores), and a
  // vector load right after the scalar stores to the same place would stall
  // (no store forwarding from several stores to one load).
  const std::size_t blocks = hull.trianglePadded / kPad;
  const T *low = hull.blockLow.data(), *high = hull.blockHigh.data();
  const std::uint64_t* corners = hull.corners.data();
  T *corner0 = b.corner0.data(), *corner1 = b.corner1.data(), *corner2 = b.corner2.data();
  T *d0 = b.d0.data(), *d1 = b.d1.data(), *d2 = b.d2.data(), *weight = b.weight.data(), *emerged = b.emerged.data();
  const T* area = hull.area.data();
  ScalarIndex *twoWetList = b.crossing.data(), *oneWetList = b.crossingOneWet.data();
  std::uint32_t* kind = b.blockKind.data();  // not char: a char store may alias every pointer above
  for (std::size_t block = 0; block < blocks; ++block) {
    T lowest = centreUp_m, highest = centreUp_m;
    for (int k = 0; k < 3; ++k) {
      const T a = up[k] * low[3 * block + k], c = up[k] * high[3 * block + k];
      lowest += std::min(a, c), highest += std::max(a, c);
    }
    const std::size_t first = block * kPad, end = first + kPad;
    if (lowest - water_m.hi > margin) {
      kind[block] = kBlockDry;
    } else if (water_m.lo - highest > margin) {
      kind[block] = kBlockWet;
      // Depths; a padding entry gets vertex 0's, harmless with its zero
      // area vector and weight.
      for (std::size_t t = first; t < end; ++t) {
        const std::uint64_t c = corners[t];
        d0[t] = -h_m[HullSoA::corner(c, 0)], d1[t] = -h_m[HullSoA::corner(c, 1)], d2[t] = -h_m[HullSoA::corner(c, 2)];
      }
    } else {
      kind[block] = kBlockMixed;
      for (std::size_t t = first; t < end; ++t) {
        const std::uint64_t c = corners[t];
        corner0[t] = h_m[HullSoA::corner(c, 0)], corner1[t] = h_m[HullSoA::corner(c, 1)];
        corner2[t] = h_m[HullSoA::corner(c, 2)];
      }
    }
  }
  std::size_t twoWetCount = 0, oneWetCount = 0;
  for (std::size_t block = 0; block < blocks; ++block) {
    const std::size_t first = block * kPad;
    if (kind[block] != kBlockMixed) {
      const bool dry = kind[block] == kBlockDry;
      for (std::size_t t = first; t < first + kPad; t += hn::Lanes(d)) {
        // (A dry block's depths are left as they are: a vector whose
        // weights are all zero is skipped by every pass that reads them.)
        const V real = hn::IfThenElseZero(hn::Gt(hn::LoadU(d, area + t), zero), one);
        hn::StoreU(dry ? zero : real, d, weight + t);
        hn::StoreU(dry ? real : zero, d, emerged + t);
      }
      continue;
    }
    for (std::size_t t = first; t < first + kPad; t += hn::Lanes(d)) {
      const V h0 = hn::LoadU(d, corner0 + t), h1 = hn::LoadU(d, corner1 + t), h2 = hn::LoadU(d, corner2 + t);
      const M real = hn::Gt(hn::LoadU(d, area + t), zero);  // not padding
      const M wet0 = hn::Lt(h0, zero), wet1 = hn::Lt(h1, zero), wet2 = hn::Lt(h2, zero);
      const M anyWet = hn::Or(hn::Or(wet0, wet1), wet2);
      const M allWet = hn::And(real, hn::And(hn::And(wet0, wet1), wet2));
      const M allDry = hn::And(real, hn::Not(anyWet));
      hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h0)), d, d0 + t);
      hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h1)), d, d1 + t);
      hn::StoreU(hn::IfThenElseZero(allWet, hn::Neg(h2)), d, d2 + t);
      hn::StoreU(hn::IfThenElseZero(allWet, one), d, weight + t);
      hn::StoreU(hn::IfThenElseZero(allDry, one), d, emerged + t);
      // The crossing triangles' indices, from the masks' bits: few per
      // vector, so a bit scan beats a compress (a table lookup on AVX2, slow
      // microcode on AMD's AVX-512). Those with two corners wet (two
      // pieces) in one list, with one (one piece) in another.
      const M crosses = hn::AndNot(allWet, hn::And(real, anyWet));
      const M twoWet = hn::And(crosses, hn::Or(hn::Or(hn::And(wet0, wet1), hn::And(wet0, wet2)), hn::And(wet1, wet2)));
      auto append = [&](M m, ScalarIndex* list, std::size_t& count) {
        std::uint8_t bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        hn::StoreMaskBits(d, m, bytes);
        std::uint64_t bits = 0;
        for (int k = 7; k >= 0; --k) bits = (bits << 8) | bytes[k];
        for (; bits != 0; bits &= bits - 1) list[count++] = ScalarIndex(t + std::size_t(__builtin_ctzll(bits)));
      };
      append(twoWet, twoWetList, twoWetCount);
      append(hn::AndNot(twoWet, crosses), oneWetList, oneWetCount);
    }
  }
  // The two-wet triangles first: only they need second slots (cutCrossing).
  std::copy_n(b.crossingOneWet.data(), oneWetCount, b.crossing.data() + twoWetCount);
  b.twoWetCrossing = twoWetCount;
  return twoWetCount + oneWetCount;
}

PressureSums PressureKernel(const PieceStream* streams, std::size_t streamCount, const T* up) {
  // (The streams are read through local copies: see FlowKernel.)
  const D d;
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  // Eleven sums, each kept per lane in btScalar over a block of 8 vectors
  // and then added into double lanes: only 8-term sums round in float, the
  // cancelling sum over the whole hull is double, at an eighth of the
  // conversions.
  enum { kForce = 0, kMoment = 3, kBuoyancy = 6, kArea = 9, kDepth = 10, kSums = 11 };
  constexpr int kBlock = 8;
  WideSum total[kSums];
  V block[kSums];
  for (V& b : block) b = hn::Zero(d);
  int inBlock = 0;
  auto flush = [&] {
    for (int k = 0; k < kSums; ++k) total[k].add(block[k]), block[k] = hn::Zero(d);
    inBlock = 0;
  };
  for (std::size_t k = 0; k < streamCount; ++k) {
  const PieceStream s = streams[k];
  for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) {
    if (hn::AllFalse(d, hn::Gt(hn::LoadU(d, s.weight + i), hn::Zero(d)))) continue;  // dry: adds nothing
    const V3 a = load3(d, s.ax, s.ay, s.az, i), b = load3(d, s.bx, s.by, s.bz, i), c = load3(d, s.cx, s.cy, s.cz, i);
    const V d0 = hn::LoadU(d, s.d0 + i), d1 = hn::LoadU(d, s.d1 + i), d2 = hn::LoadU(d, s.d2 + i);
    const V3 sv = load3(d, s.sx, s.sy, s.sz, i);
    // m = sum d_i r_i + (sum d_i)(sum r_i); torque m x S (integratePressure).
    // sum r_i is 3 G, the stored centroid's.
    const V sumD = hn::Add(hn::Add(d0, d1), d2);
    const V3 g = centroid(d, s, i);
    const V sumD3 = hn::Mul(sumD, hn::Set(d, T(3)));
    const V3 m = {hn::MulAdd(a.x, d0, hn::MulAdd(b.x, d1, hn::MulAdd(c.x, d2, hn::Mul(g.x, sumD3)))),
                  hn::MulAdd(a.y, d0, hn::MulAdd(b.y, d1, hn::MulAdd(c.y, d2, hn::Mul(g.y, sumD3)))),
                  hn::MulAdd(a.z, d0, hn::MulAdd(b.z, d1, hn::MulAdd(c.z, d2, hn::Mul(g.z, sumD3))))};
    const V3 torque = cross(m, sv);
    const V sUp = dot(sv, upv);
    const V sumD2 = hn::MulAdd(d0, d0, hn::MulAdd(d1, d1, hn::MulAdd(d2, d2, hn::Mul(sumD, sumD))));
    const V terms[kSums] = {hn::Mul(sv.x, sumD),
                            hn::Mul(sv.y, sumD),
                            hn::Mul(sv.z, sumD),
                            torque.x,
                            torque.y,
                            torque.z,
                            hn::Mul(m.x, sUp),
                            hn::Mul(m.y, sUp),
                            hn::Mul(m.z, sUp),
                            hn::Mul(hn::LoadU(d, s.weight + i), hn::LoadU(d, s.area + i)),
                            hn::Mul(sUp, sumD2)};
    for (int j = 0; j < kSums; ++j) block[j] = hn::Add(block[j], terms[j]);
    if (++inBlock == kBlock) flush();
  }
  }
  flush();
  PressureSums out;
  for (int k = 0; k < 3; ++k) {
    out.force[k] = total[kForce + k].total();
    out.moment[k] = total[kMoment + k].total();
    out.buoyancyMoment[k] = total[kBuoyancy + k].total();
  }
  out.area = total[kArea].total();
  out.depthIntegral = total[kDepth].total();
  return out;
}

/// The factor k of slamming's force k v on the pieces that move into the
/// water while their swept volume grows (gamma > 0): -min(gamma / Gamma_max,
/// 1)^p cos(theta) (2 m A / S) / dt (slammingForce). Zero elsewhere.
HWY_INLINE V slammingFactor(D d, V cosTheta, V gamma, V area, M wet, V inverseCutoff, V stop, T exponent) {
  const V zero = hn::Zero(d);
  const M hits = hn::And(wet, hn::And(hn::Gt(cosTheta, zero), hn::Gt(gamma, zero)));
  const V ratio = hn::Min(hn::Mul(hn::IfThenElseZero(hits, gamma), inverseCutoff), hn::Set(d, T(1)));
  return hn::IfThenElseZero(hits, hn::Neg(hn::Mul(hn::Mul(power(d, ratio, exponent), cosTheta), hn::Mul(stop, area))));
}

FlowSums FlowKernel(const FlowStream* streams, std::size_t streamCount, const FlowParameters& parameters) {
  const D d;
  // Local copies: a vector store may alias any memory, so fields read
  // through a reference would be read again after every store.
  const FlowParameters p = parameters;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1)), tiny2 = hn::Set(d, kTinySpeed_mps * kTinySpeed_mps);
  const V3 angular = set3(d, p.angularVelocity);
  // v_G - u_water, one vector when the water's velocity is uniform.
  const T base[3] = {p.linearVelocity[0] - (p.waterPerPiece ? T(0) : p.water[0]),
                     p.linearVelocity[1] - (p.waterPerPiece ? T(0) : p.water[1]),
                     p.linearVelocity[2] - (p.waterPerPiece ? T(0) : p.water[2])};
  const V3 linear = set3(d, base);
  const V inverseReference = hn::Set(d, p.inverseReferenceSpeed);
  const V pressureLinear = hn::Set(d, p.pressureLinear), pressureQuadratic = hn::Set(d, p.pressureQuadratic);
  const V suctionLinear = hn::Set(d, p.suctionLinear), suctionQuadratic = hn::Set(d, p.suctionQuadratic);
  const V inverseDt = hn::Set(d, p.inverseDt), inverseCutoff = hn::Set(d, p.slamming.inverseCutoff);
  const V stop = hn::Set(d, p.slamming.stopFactor);
  ForceSum viscous(d), pressure(d), slamming(d);
  V waterX = zero, waterY = zero, waterZ = zero, areaSum = zero;
  for (std::size_t k = 0; k < streamCount; ++k) {
    const PieceStream s = streams[k].pieces;
    const PieceFlowOut out = streams[k].out;
    const T* previousRate = streams[k].previousRate;
    for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) {
      // A piece the cut left without area has no normal (pieceFlows): skipped.
      const V pieceArea = hn::LoadU(d, s.area + i);
      const M wet = hn::And(hn::Gt(hn::LoadU(d, s.weight + i), zero), hn::Gt(pieceArea, zero));
      if (hn::AllFalse(d, wet)) {  // a dry stretch of hull: nothing flows, nothing sweeps
        hn::StoreU(zero, d, out.rate + i);
        continue;
      }
      const V area = hn::IfThenElseZero(wet, pieceArea);
      const V inverseArea = hn::IfThenElseZero(wet, hn::LoadU(d, s.inverseArea + i));
      const V3 sv = load3(d, s.sx, s.sy, s.sz, i);
      const V3 c = centroid(d, s, i);
      // v_G + omega x C - u_water(C) (pieceFlows).
      V3 v = add(linear, cross(angular, c));
      if (p.waterPerPiece) {
        const V3 water = load3(d, s.ux, s.uy, s.uz, i);
        v = sub(v, water);
        waterX = hn::MulAdd(area, water.x, waterX), waterY = hn::MulAdd(area, water.y, waterY);
        waterZ = hn::MulAdd(area, water.z, waterZ);
      }
      areaSum = hn::Add(areaSum, area);
      // v . n with the unit normal S / A (pieceFlows): (v . S) / A, never
      // (v . S) / A^2, whose A^2 underflows for the slivers a cut can leave.
      // |v| and 1 / |v| (0 and 1 when the piece is not moving).
      const V speed2 = dot(v, v), vS = dot(v, sv), vn = hn::Mul(vS, inverseArea);
      const M moving = hn::And(wet, hn::Gt(speed2, tiny2));
      const V inverseSpeed = inverseSqrt(d, hn::IfThenElse(moving, speed2, one));
      const V speed = hn::IfThenElseZero(moving, hn::Mul(speed2, inverseSpeed));
      const V rate = hn::IfThenElseZero(wet, hn::Max(vS, zero));  // A max(0, v . n)
      hn::StoreU(rate, d, out.rate + i);
      // Forces along v (slamming) and along v_t (skin friction) act at C:
      // their moments share C x v.
      const V3 cv = cross(c, v);
      const V3 cs = load3(d, s.csx, s.csy, s.csz, i);  // C x S
      if (p.viscous) {
        // Normal part removed before normalising (viscousForce):
        // v_t = v - n (v . n) = v - S (v . n) / A.
        const V along = hn::Mul(vn, inverseArea);
        const V3 tangential = {hn::NegMulAdd(sv.x, along, v.x), hn::NegMulAdd(sv.y, along, v.y),
                               hn::NegMulAdd(sv.z, along, v.z)};
        const V vt2 = dot(tangential, tangential);
        const M sliding = hn::And(wet, hn::Gt(vt2, tiny2));
        const V inverseVt = inverseSqrt(d, hn::IfThenElse(sliding, vt2, one));
        // F = -A |v|^2 v_t / |v_t|, at C: moment C x v_t = C x v - (C x S) (v . n) / A.
        const V k = hn::IfThenElseZero(sliding, hn::Neg(hn::Mul(hn::Mul(area, speed2), inverseVt)));
        const V3 arm = {hn::NegMulAdd(cs.x, along, cv.x), hn::NegMulAdd(cs.y, along, cv.y),
                        hn::NegMulAdd(cs.z, along, cv.z)};
        viscous.add(k, tangential, arm);
      }
      const V cosTheta = hn::IfThenElseZero(moving, hn::Mul(vn, inverseSpeed));
      if (out.vx) {  // kept for SlammingKernel
        hn::StoreU(v.x, d, out.vx + i), hn::StoreU(v.y, d, out.vy + i), hn::StoreU(v.z, d, out.vz + i);
        hn::StoreU(cosTheta, d, out.cosTheta + i);
      }
      if (previousRate) {
        // Gamma = (rate - previous rate) / (A dt) (slammingForce), then the
        // slamming of SlammingKernel.
        const V gamma = hn::Mul(hn::Mul(hn::Sub(rate, hn::LoadU(d, previousRate + i)), inverseArea), inverseDt);
        slamming.add(slammingFactor(d, cosTheta, gamma, area, wet, inverseCutoff, stop, p.slamming.power), v, cv);
      }
      if (p.pressureDrag) {
        // Pressure drag on faces moving into the water, suction on the others
        // (pressureDragForce): F = -/+ (C1 r + C2 r^2) cos^f S, r = |v| / vr.
        const V ratio = hn::Mul(speed, inverseReference);
        const V into = hn::Mul(ratio, hn::MulAdd(pressureQuadratic, ratio, pressureLinear));
        const V away = hn::Mul(ratio, hn::MulAdd(suctionQuadratic, ratio, suctionLinear));
        const M forward = hn::Gt(cosTheta, zero), backward = hn::Lt(cosTheta, zero);
        // cos^f of |cos theta|: one root when both falloffs are alike (the default).
        const V absCos = hn::Abs(cosTheta);
        const V intoFalloff = power(d, absCos, p.pressureFalloff);
        const V awayFalloff = p.suctionFalloff == p.pressureFalloff ? intoFalloff : power(d, absCos, p.suctionFalloff);
        const V k = hn::IfThenElse(forward, hn::Neg(hn::Mul(into, intoFalloff)),
                                   hn::IfThenElseZero(backward, hn::Mul(away, awayFalloff)));
        pressure.add(k, sv, cs);
      }
    }
  }
  FlowSums sums;
  sums.viscousPerHalfRhoCf = viscous.total(d);
  sums.pressureDrag = pressure.total(d);
  sums.slamming = slamming.total(d);
  sums.area = double(hn::GetLane(hn::SumOfLanes(d, areaSum)));
  if (p.waterPerPiece) {
    sums.waterArea[0] = double(hn::GetLane(hn::SumOfLanes(d, waterX)));
    sums.waterArea[1] = double(hn::GetLane(hn::SumOfLanes(d, waterY)));
    sums.waterArea[2] = double(hn::GetLane(hn::SumOfLanes(d, waterZ)));
  } else {
    for (int k = 0; k < 3; ++k) sums.waterArea[k] = double(p.water[k]) * sums.area;
  }
  return sums;
}

BodyForce SlammingKernel(const PieceStream& s, const PieceFlowOut& flow, const T* gamma, const SlammingParameters& p) {
  const D d;
  const V zero = hn::Zero(d), inverseCutoff = hn::Set(d, p.inverseCutoff), stop = hn::Set(d, p.stopFactor);
  ForceSum slam(d);
  for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) {
    const M wet = hn::Gt(hn::LoadU(d, s.weight + i), zero);
    if (hn::AllFalse(d, wet)) continue;
    const V3 v = load3(d, flow.vx, flow.vy, flow.vz, i);
    const V k = slammingFactor(d, hn::LoadU(d, flow.cosTheta + i), hn::LoadU(d, gamma + i), hn::LoadU(d, s.area + i),
                               wet, inverseCutoff, stop, p.power);
    slam.add(k, v, cross(centroid(d, s, i), v));
  }
  return slam.total(d);
}

BodyForce AirKernel(const HullSoA& hull, const T* emerged, const AirParameters& p) {
  const D d;
  const V zero = hn::Zero(d), half = hn::Set(d, p.half);
  const V3 air = set3(d, p.airVelocity), angular = set3(d, p.angularVelocity);
  ForceSum sum(d);
  for (std::size_t t = 0; t < hull.trianglePadded; t += hn::Lanes(d)) {
    const V fraction = hn::LoadU(d, emerged + t);
    if (hn::AllFalse(d, hn::Gt(fraction, zero))) continue;  // under the water: no air
    const V3 c = load3(d, hull.gx.data(), hull.gy.data(), hull.gz.data(), t);
    // Only faces meeting the air are pushed: F = -1/2 rho C fraction (S . v) v (airForce).
    const V3 v = add(air, cross(angular, c));
    const V facing = dot(v, load3(d, hull.sx.data(), hull.sy.data(), hull.sz.data(), t));
    const V k = hn::IfThenElseZero(hn::And(hn::Gt(facing, zero), hn::Gt(fraction, zero)),
                                   hn::Neg(hn::Mul(hn::Mul(half, fraction), facing)));
    sum.add(k, v, cross(c, v));
  }
  return sum.total(d);
}

/// velocitiesToBody: three interleaved components per velocity.
std::size_t VelocitiesKernel(const WaterVelocity* in, std::size_t count, const T* east, const T* north, const T* up,
                             T* u, T* v, T* w) {
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(T), "WaterVelocity is three btScalars");
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bad = hn::Zero(d);
  const T* flat = &in[0].east_mps;
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    V ue, un, uu;
    hn::LoadInterleaved3(d, flat + 3 * i, ue, un, uu);
    // Finite when every |component| <= max (a NaN compares false).
    const M finite = hn::And(hn::And(hn::Le(hn::Abs(ue), largest), hn::Le(hn::Abs(un), largest)),
                             hn::Le(hn::Abs(uu), largest));
    const M real = hn::FirstN(d, count - i);
    bad = hn::Add(bad, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
    ue = hn::IfThenElseZero(finite, ue), un = hn::IfThenElseZero(finite, un), uu = hn::IfThenElseZero(finite, uu);
    hn::StoreU(hn::MulAdd(e.x, ue, hn::MulAdd(n.x, un, hn::Mul(z.x, uu))), d, u + i);
    hn::StoreU(hn::MulAdd(e.y, ue, hn::MulAdd(n.y, un, hn::Mul(z.y, uu))), d, v + i);
    hn::StoreU(hn::MulAdd(e.z, ue, hn::MulAdd(n.z, un, hn::Mul(z.z, uu))), d, w + i);
  }
  return std::size_t(hn::GetLane(hn::SumOfLanes(d, bad)));
}

/// The least and greatest p . direction over points[0..count) (arrays
/// readable up to a multiple of the lane count).
Extent ExtentKernel(const T* x, const T* y, const T* z, std::size_t count, const T* direction) {
  const D d;
  const V3 dir = set3(d, {direction[0], direction[1], direction[2]});
  V lo = hn::Set(d, BT_LARGE_FLOAT), hi = hn::Set(d, -BT_LARGE_FLOAT);
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const M in = hn::FirstN(d, count - i);
    const V along = dot(load3(d, x, y, z, i), dir);
    lo = hn::Min(lo, hn::IfThenElse(in, along, lo));
    hi = hn::Max(hi, hn::IfThenElse(in, along, hi));
  }
  return Extent{hn::GetLane(hn::MinOfLanes(d, lo)), hn::GetLane(hn::MaxOfLanes(d, hi))};
}

/// The waterline cut of hydrostatics.cpp (cutCrossingTriangle) for a
/// vector of crossing triangles at once: both of its cases are computed and
/// the lane's own is kept (every division there has a positive denominator
/// in both cases, so nothing blows up in the case not taken). With
/// `velocities`, the water velocity at each piece's centroid too: the mean
/// of its corners', each interpolated along the hull's edge as the corner
/// itself is (centroidValue).
void CutKernel(const BoatBuffers& buffers, std::size_t count, bool velocities, PieceBuffer& o) {
  const D d;
  const DI di;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const std::size_t slots = o.slots;
  for (std::size_t k = 0; k < slots; k += hn::Lanes(d)) {
    const M valid = hn::RebindMask(d, hn::Lt(hn::Iota(di, ScalarIndex(k)), hn::Set(di, ScalarIndex(count))));
    // The triangles' corners, area vectors, areas, corner heights and
    // corner water velocities, as cutCrossing staged them: groups of four
    // per triangle.
    V3 p0, p1, p2, sv, u0{zero, zero, zero}, u1 = u0, u2 = u0;
    V area, h0, h1, h2, unused;
    const T* const* stage = buffers.stage;
    hn::LoadInterleaved4(d, stage[0] + 4 * k, p0.x, p0.y, p0.z, area);
    hn::LoadInterleaved4(d, stage[1] + 4 * k, p1.x, p1.y, p1.z, h0);
    hn::LoadInterleaved4(d, stage[2] + 4 * k, p2.x, p2.y, p2.z, h1);
    hn::LoadInterleaved4(d, stage[3] + 4 * k, sv.x, sv.y, sv.z, h2);
    if (velocities) {
      hn::LoadInterleaved4(d, stage[4] + 4 * k, u0.x, u0.y, u0.z, unused);
      hn::LoadInterleaved4(d, stage[5] + 4 * k, u1.x, u1.y, u1.z, unused);
      hn::LoadInterleaved4(d, stage[6] + 4 * k, u2.x, u2.y, u2.z, unused);
    }
    const M w0 = hn::Lt(h0, zero), w1 = hn::Lt(h1, zero), w2 = hn::Lt(h2, zero);
    const V wetCount =
        hn::Add(hn::Add(hn::IfThenElseZero(w0, one), hn::IfThenElseZero(w1, one)), hn::IfThenElseZero(w2, one));
    const M single = hn::Eq(wetCount, one);  // one corner wet (else two)
    const M twoWet = hn::Not(single);
    // The odd corner out comes first (the wet one of one, the dry one of
    // two), by rotation: the winding, and so the normal, is kept.
    auto odd = [&](M wet) { return hn::Or(hn::And(single, wet), hn::AndNot(single, hn::Not(wet))); };
    const M odd0 = odd(w0), odd1 = odd(w1);
    auto pick = [&](V a, V b, V c) { return hn::IfThenElse(odd0, a, hn::IfThenElse(odd1, b, c)); };
    auto pick3 = [&](V3 a, V3 b, V3 c) { return V3{pick(a.x, b.x, c.x), pick(a.y, b.y, c.y), pick(a.z, b.z, c.z)}; };
    const V g0 = pick(h0, h1, h2), g1 = pick(h1, h2, h0), g2 = pick(h2, h0, h1);
    // One wet (v0): J1, J2 at fractions t1, t2 from v0 along v0v1, v0v2.
    // Two wet (v0 dry): I1 at a from v1 towards v0, I2 at b from v2. They
    // are the same points as J1 and J2, where the height crosses zero on
    // v0v1 and v0v2 (the reference computes them from the other end, equal
    // to rounding), so a = 1 - t1 and b = 1 - t2.
    const V t1 = hn::Div(g0, hn::Sub(g0, g1)), t2 = hn::Div(g0, hn::Sub(g0, g2));
    const V a = hn::Sub(one, t1), b = hn::Sub(one, t2);
    auto sel = [&](V x, V y) { return hn::IfThenElseZero(valid, hn::IfThenElse(single, x, y)); };
    auto sel3 = [&](V3 x, V3 y) { return V3{sel(x.x, y.x), sel(x.y, y.y), sel(x.z, y.z)}; };
    auto only = [&](M m, V x) { return hn::IfThenElseZero(hn::And(valid, m), x); };
    auto store3 = [&](V3 v, T* x, T* y, T* z, std::size_t i) {
      hn::StoreU(v.x, d, x + i), hn::StoreU(v.y, d, y + i), hn::StoreU(v.z, d, z + i);
    };
    const V3 none{zero, zero, zero};
    // A field given at the corners (positions, water velocities) at the
    // pieces' corners. First piece: (v0, J1, J2) covering t1 t2, or (I1, v1,
    // v2) covering a; second piece (two wet only): (I1, v2, I2) covering
    // b (1 - a).
    struct PieceCorners {
      V3 of[2][3];
      V3 j1, j2;
    };
    auto atPieceCorners = [&](V3 f0, V3 f1, V3 f2) {
      const V3 q0 = pick3(f0, f1, f2), q1 = pick3(f1, f2, f0), q2 = pick3(f2, f0, f1);
      const V3 j1 = add(q0, scale(sub(q1, q0), t1)), j2 = add(q0, scale(sub(q2, q0), t2));
      return PieceCorners{
          {{sel3(q0, j1), sel3(j1, q1), sel3(j2, q2)}, {sel3(none, j1), sel3(none, q2), sel3(none, j2)}}, j1, j2};
    };
    const PieceCorners r = atPieceCorners(p0, p1, p2);
    const V depths[2][3] = {{only(single, hn::Neg(g0)), only(twoWet, hn::Neg(g1)), only(twoWet, hn::Neg(g2))},
                            {zero, only(twoWet, hn::Neg(g2)), zero}};
    const V fractions[2] = {sel(hn::Mul(t1, t2), a), only(twoWet, hn::Mul(b, hn::Sub(one, a)))};
    const V third = hn::Set(d, T(1.0 / 3.0));
    // Only the first o.twoSlots triangles (the two-wet ones, which
    // classifyTriangles puts first) have second slots.
    const int pieces = k < o.twoSlots ? 2 : 1;
    for (int slot = 0; slot < pieces; ++slot) {
      const std::size_t i = slot == 0 ? k : slots + k;
      const V3(&corner)[3] = r.of[slot];
      store3(corner[0], o.ax.data(), o.ay.data(), o.az.data(), i);
      store3(corner[1], o.bx.data(), o.by.data(), o.bz.data(), i);
      store3(corner[2], o.cx.data(), o.cy.data(), o.cz.data(), i);
      const V3 centroid = scale(add(add(corner[0], corner[1]), corner[2]), third);
      store3(centroid, o.gx.data(), o.gy.data(), o.gz.data(), i);
      hn::StoreU(depths[slot][0], d, o.d0.data() + i);
      hn::StoreU(depths[slot][1], d, o.d1.data() + i);
      hn::StoreU(depths[slot][2], d, o.d2.data() + i);
      // A piece's area vector is its triangle's times the fraction it covers.
      const V pieceArea = hn::Mul(area, fractions[slot]);
      const M some = hn::Gt(pieceArea, zero);
      const V3 pieceS = scale(sv, fractions[slot]);
      store3(pieceS, o.sx.data(), o.sy.data(), o.sz.data(), i);
      store3(cross(centroid, pieceS), o.csx.data(), o.csy.data(), o.csz.data(), i);
      hn::StoreU(pieceArea, d, o.area.data() + i);
      hn::StoreU(hn::IfThenElseZero(some, hn::Div(one, hn::IfThenElse(some, pieceArea, one))), d,
                 o.inverseArea.data() + i);
      hn::StoreU(hn::IfThenElseZero(hn::And(valid, slot == 0 ? valid : twoWet), one), d, o.weight.data() + i);
    }
    if (velocities) {
      const PieceCorners u = atPieceCorners(u0, u1, u2);
      for (int slot = 0; slot < pieces; ++slot)
        store3(scale(add(add(u.of[slot][0], u.of[slot][1]), u.of[slot][2]), third), o.ux.data(), o.uy.data(),
               o.uz.data(), slot == 0 ? k : slots + k);
    }
    // The triangle's emerged fraction and waterline segment.
    hn::StoreU(sel(hn::Sub(one, hn::Mul(t1, t2)), hn::Mul(hn::Sub(one, a), hn::Sub(one, b))), d, o.emerged.data() + k);
    store3(sel3(r.j1, r.j2), o.px.data(), o.py.data(), o.pz.data(), k);
    store3(sel3(r.j2, r.j1), o.qx.data(), o.qy.data(), o.qz.data(), k);
  }
}

/// WaterPatch::height at every vertex (i < vertexPadded), lane by lane in
/// double as the scalar code: horizontal position u = centreEast +
/// double(p . east) [m], its cell, and the plane of the cell's triangle
/// (split on the (1,0)-(0,1) diagonal) through the three samples around it.
void PatchHeightsKernel(const HullSoA& hull, const T* east, const T* north, double centreEast_m,
                        double centreNorth_m, const T* grid, int side, double inverseCell_pm, double originI,
                        double originJ, T* out_m) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;                // btScalar lanes, as many as the doubles
  const hn::Rebind<ScalarIndex, decltype(dd)> dk;      // grid indices, as wide as btScalar
  using VD = hn::Vec<decltype(dd)>;
#if defined(BT_USE_DOUBLE_PRECISION)
  auto toDouble = [](hn::Vec<decltype(dt)> x) { return x; };
#else
  auto toDouble = [&](hn::Vec<decltype(dt)> x) { return hn::PromoteTo(dd, x); };
#endif
  const VD zero = hn::Zero(dd), one = hn::Set(dd, 1.0), last = hn::Set(dd, double(side - 1));
  const VD lastCell = hn::Set(dd, double(side - 2)), sideD = hn::Set(dd, double(side));
  const VD inverseCell = hn::Set(dd, inverseCell_pm), i0 = hn::Set(dd, originI), j0 = hn::Set(dd, originJ);
  const VD cu = hn::Set(dd, centreEast_m), cv = hn::Set(dd, centreNorth_m);
  const auto ex = hn::Set(dt, east[0]), ey = hn::Set(dt, east[1]), ez = hn::Set(dt, east[2]);
  const auto nx = hn::Set(dt, north[0]), ny = hn::Set(dt, north[1]), nz = hn::Set(dt, north[2]);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see FlowKernel
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(dd)) {
    const auto x = hn::LoadU(dt, px + i), y = hn::LoadU(dt, py + i), z = hn::LoadU(dt, pz + i);
    const VD u = hn::Add(cu, toDouble(hn::MulAdd(x, ex, hn::MulAdd(y, ey, hn::Mul(z, ez)))));
    const VD v = hn::Add(cv, toDouble(hn::MulAdd(x, nx, hn::MulAdd(y, ny, hn::Mul(z, nz)))));
    const VD fu = hn::Min(hn::Max(hn::Sub(hn::Mul(u, inverseCell), i0), zero), last);
    const VD fv = hn::Min(hn::Max(hn::Sub(hn::Mul(v, inverseCell), j0), zero), last);
    const VD ci = hn::Min(hn::Floor(fu), lastCell), cj = hn::Min(hn::Floor(fv), lastCell);
    const VD a = hn::Sub(fu, ci), b = hn::Sub(fv, cj);
    const VD k = hn::MulAdd(cj, sideD, ci);  // row-major node index, exact in double
#if defined(BT_USE_DOUBLE_PRECISION)
    const hn::Vec<decltype(dk)> node = hn::ConvertTo(dk, k);
#else
    const hn::Vec<decltype(dk)> node = hn::DemoteTo(dk, k);
#endif
    const auto stride = hn::Set(dk, ScalarIndex(side));
    const VD h00 = toDouble(hn::GatherIndex(dt, grid, node));
    const VD h10 = toDouble(hn::GatherIndex(dt, grid, hn::Add(node, hn::Set(dk, ScalarIndex(1)))));
    const VD h01 = toDouble(hn::GatherIndex(dt, grid, hn::Add(node, stride)));
    const VD h11 = toDouble(hn::GatherIndex(dt, grid, hn::Add(hn::Add(node, stride), hn::Set(dk, ScalarIndex(1)))));
    const VD lower = hn::MulAdd(b, hn::Sub(h01, h00), hn::MulAdd(a, hn::Sub(h10, h00), h00));
    const VD upper = hn::MulAdd(hn::Sub(one, b), hn::Sub(h10, h11), hn::MulAdd(hn::Sub(one, a), hn::Sub(h01, h11), h11));
    const VD h = hn::IfThenElse(hn::Le(hn::Add(a, b), one), lower, upper);
#if defined(BT_USE_DOUBLE_PRECISION)
    hn::StoreU(h, dt, out_m + i);
#else
    hn::StoreU(hn::DemoteTo(dt, h), dt, out_m + i);
#endif
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>

namespace keel::detail {

HWY_EXPORT(VertexHeightsKernel);
HWY_EXPORT(ClassifyKernel);
HWY_EXPORT(CoordinatesKernel);
HWY_EXPORT(PressureKernel);
HWY_EXPORT(FlowKernel);
HWY_EXPORT(SlammingKernel);
HWY_EXPORT(AirKernel);
HWY_EXPORT(PatchHeightsKernel);
HWY_EXPORT(CutKernel);
HWY_EXPORT(ExtentKernel);
HWY_EXPORT(VelocitiesKernel);

BodyForce& BodyForce::operator+=(const BodyForce& o) {
  for (int k = 0; k < 3; ++k) {
    force[k] += o.force[k];
    torque[k] += o.torque[k];
  }
  return *this;
}

namespace {

/// Padding entry of kernelOrder.
constexpr std::uint32_t kNoTriangle = ~std::uint32_t(0);

/// The order the kernels visit the hull's triangles in, padded with
/// kNoTriangle to a multiple of kPad. A vector of neighbouring entries
/// should be wholly wet or wholly dry as often as possible, so the kernels
/// skip it (dry) or use every lane (wet): the triangles are sorted by the
/// height of their centroid along the hull's shortest axis (a boat's up).
/// (Splitting the hull into quarters first, each sorted by height, left
/// fewer mixed vectors on average over poses but measured slower.)
std::vector<std::uint32_t> kernelOrder(const Hull& hull) {
  const std::span<const btVector3> vertices = hull.vertices();
  const std::size_t count = hull.triangles().size();
  const int up = (hull.boundsMax() - hull.boundsMin()).minAxis();
  std::vector<btScalar> height(count);  // three times the centroid's [m]
  std::vector<std::uint32_t> order(count);
  for (std::size_t t = 0; t < count; ++t) {
    const Hull::Triangle& tri = hull.triangles()[t];
    height[t] = vertices[tri[0]][up] + vertices[tri[1]][up] + vertices[tri[2]][up];
    order[t] = std::uint32_t(t);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return height[a] < height[b]; });
  order.resize(padded(count), kNoTriangle);
  return order;
}

}  // namespace

HullSoA::HullSoA(const Hull& hull)
    : vertexCount(hull.vertices().size()),
      vertexPadded(padded(vertexCount)),
      triangleCount(hull.triangles().size()),
      triangle(kernelOrder(hull)) {
  trianglePadded = triangle.size();
  for (auto* v : {&x, &y, &z}) v->assign(vertexPadded, 0);
  for (std::size_t i = 0; i < vertexCount; ++i) {
    const btVector3& p = hull.vertices()[i];
    x[i] = p.x(), y[i] = p.y(), z[i] = p.z();
  }
  corners.assign(trianglePadded, 0);
  for (auto* v : {&ax, &ay, &az, &bx, &by, &bz, &cx, &cy, &cz, &gx, &gy, &gz, &sx, &sy, &sz, &csx, &csy, &csz, &area,
                  &inverseArea})
    v->assign(trianglePadded, 0);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    if (triangle[t] == kNoTriangle) continue;  // padding: zero area, vertex 0
    const Hull::Triangle& tri = hull.triangles()[triangle[t]];
    corners[t] = pack(tri[0], tri[1], tri[2]);
    const btVector3 &a = hull.vertices()[tri[0]], &b = hull.vertices()[tri[1]], &c = hull.vertices()[tri[2]];
    ax[t] = a.x(), ay[t] = a.y(), az[t] = a.z();
    bx[t] = b.x(), by[t] = b.y(), bz[t] = b.z();
    cx[t] = c.x(), cy[t] = c.y(), cz[t] = c.z();
    const btVector3 g = (a + b + c) * btScalar(1.0 / 3.0);
    gx[t] = g.x(), gy[t] = g.y(), gz[t] = g.z();
    const btVector3 s = (b - a).cross(c - a) * btScalar(0.5);  // areaVector_m2
    sx[t] = s.x(), sy[t] = s.y(), sz[t] = s.z();
    const btVector3 gs = g.cross(s);
    csx[t] = gs.x(), csy[t] = gs.y(), csz[t] = gs.z();
    area[t] = hull.triangleAreas_m2()[triangle[t]];
    inverseArea[t] = 1 / area[t];  // > 0: the hull dropped degenerate triangles
  }
  cutRecord.assign(trianglePadded * kCutRecord, 0);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    const btScalar fields[kCutRecord] = {ax[t], ay[t], az[t], area[t], bx[t], by[t], bz[t], 0, cx[t], cy[t], cz[t], 0,
                                         sx[t], sy[t], sz[t], 0};
    std::copy(fields, fields + kCutRecord, &cutRecord[t * kCutRecord]);
  }
  // Each block's box, and how far its corners reach from the origin.
  blockLow.assign(trianglePadded / kPad * 3, BT_LARGE_FLOAT);
  blockHigh.assign(trianglePadded / kPad * 3, -BT_LARGE_FLOAT);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    if (triangle[t] == kNoTriangle) continue;
    btScalar* low = &blockLow[t / kPad * 3];
    btScalar* high = &blockHigh[t / kPad * 3];
    for (std::uint32_t v : hull.triangles()[triangle[t]])
      for (int k = 0; k < 3; ++k) {
        low[k] = std::min(low[k], hull.vertices()[v][k]);
        high[k] = std::max(high[k], hull.vertices()[v][k]);
      }
  }
  blockReach_m = hull.radius_m();
}

VertexHeights vertexHeights(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                            const btScalar* waterHeight_m, btScalar* h_m) {
  return HWY_DYNAMIC_DISPATCH(VertexHeightsKernel)(hull, up, centreUp_m, waterHeight_m, h_m);
}

void worldCoordinates(const HullSoA& hull, const btScalar east[3], const btScalar north[3], const btScalar up[3],
                      double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* u_m, btScalar* v_m,
                      btScalar* w_m) {
  HWY_DYNAMIC_DISPATCH(CoordinatesKernel)
  (hull, east, north, up, centreEast_m, centreNorth_m, centreUp_m, u_m, v_m, w_m);
}

std::size_t classifyTriangles(const HullSoA& hull, const btScalar* h_m, const btScalar up[3], btScalar centreUp_m,
                              Extent water_m, BoatBuffers& b) {
  return HWY_DYNAMIC_DISPATCH(ClassifyKernel)(hull, h_m, up, centreUp_m, water_m, b);
}

void triangleWaterVelocity(const HullSoA& hull, const BoatBuffers& b, btScalar* u, btScalar* v, btScalar* w) {
  // The mean of the corners', in every block with water: scalar loads beat
  // vector gathers (about a cycle per lane), and a whole block without a
  // branch per triangle beats skipping the dry ones (mispredicted).
  const btScalar third = btScalar(1.0 / 3.0);
  const btScalar *U = b.waterU_mps.data(), *V = b.waterV_mps.data(), *W = b.waterW_mps.data();
  for (std::size_t block = 0; block < hull.trianglePadded / kPad; ++block) {
    if (b.blockKind[block] == kBlockDry) continue;
    for (std::size_t t = block * kPad; t < (block + 1) * kPad; ++t) {
      const std::uint64_t c = hull.corners[t];
      const std::size_t i0 = HullSoA::corner(c, 0), i1 = HullSoA::corner(c, 1), i2 = HullSoA::corner(c, 2);
      u[t] = (U[i0] + U[i1] + U[i2]) * third;
      v[t] = (V[i0] + V[i1] + V[i2]) * third;
      w[t] = (W[i0] + W[i1] + W[i2]) * third;
    }
  }
}

PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3]) {
  return HWY_DYNAMIC_DISPATCH(PressureKernel)(streams, count, up);
}

FlowSums flowSums(const FlowStream* streams, std::size_t count, const FlowParameters& p) {
  return HWY_DYNAMIC_DISPATCH(FlowKernel)(streams, count, p);
}

BodyForce slammingSums(const PieceStream& s, const PieceFlowOut& flow, const btScalar* gamma,
                       const SlammingParameters& p) {
  return HWY_DYNAMIC_DISPATCH(SlammingKernel)(s, flow, gamma, p);
}

BodyForce airSums(const HullSoA& hull, const btScalar* emerged, const AirParameters& p) {
  return HWY_DYNAMIC_DISPATCH(AirKernel)(hull, emerged, p);
}

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
  for (auto* v : {&ax, &ay, &az, &bx, &by, &bz, &cx, &cy, &cz, &gx, &gy, &gz, &d0, &d1, &d2, &sx, &sy, &sz, &csx,
                  &csy, &csz, &area, &inverseArea, &weight, &ux, &uy, &uz, &vx, &vy, &vz, &cosTheta, &rate, &gamma,
                  &emerged, &px, &py, &pz, &qx, &qy, &qz})
    v->assign(n, 0);
  crossing = slots = twoSlots = 0;
}

PieceStream PieceBuffer::stream() const {
  return PieceStream{slots + twoSlots, ax.data(),  ay.data(),  az.data(),          bx.data(),     by.data(),
                     bz.data(),     cx.data(),  cy.data(),  cz.data(),          gx.data(),     gy.data(),
                     gz.data(),     d0.data(),  d1.data(),  d2.data(),          sx.data(),     sy.data(),
                     sz.data(),     csx.data(), csy.data(), csz.data(),         area.data(),   inverseArea.data(),
                     weight.data(), ux.data(),  uy.data(),  uz.data()};
}

PieceFlowOut PieceBuffer::flowOut() {
  return PieceFlowOut{vx.data(), vy.data(), vz.data(), cosTheta.data(), rate.data()};
}

void patchHeights(const HullSoA& hull, const WaterPatch& patch, const btScalar east[3], const btScalar north[3],
                  double centreEast_m, double centreNorth_m, btScalar* out_m) {
  HWY_DYNAMIC_DISPATCH(PatchHeightsKernel)
  (hull, east, north, centreEast_m, centreNorth_m, patch.samples_m().data(), patch.samplesPerSide(),
   1.0 / double(patch.cellSize_m()), double(patch.originI()), double(patch.originJ()), out_m);
}

void cutCrossing(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities) {
  // The crossing triangles' data in order, each group of four one copy
  // from the hull's record, with the corners' heights in the free fourth
  // places; the kernel transposes four groups into vectors. This beats
  // vector gathers (about a cycle per lane) and copies field by field. The
  // lanes past `count` are zeroed: the kernel masks them, and zeros keep
  // them finite.
  const std::size_t group = 4 * sizeof(btScalar);
  const int groups = velocities ? kStageGroups : 4;
  // Every pointer in a local first: memcpy's stores may alias anything in
  // memory, so the compiler would reload them from `b` after each copy.
  btScalar* stage[kStageGroups];
  std::copy_n(b.stage, kStageGroups, stage);
  const ScalarIndex* crossing = b.crossing.data();
  const btScalar *records = hull.cutRecord.data(), *h0 = b.corner0.data(), *h1 = b.corner1.data(),
                 *h2 = b.corner2.data();
  const btScalar *u = b.waterU_mps.data(), *v = b.waterV_mps.data(), *w = b.waterW_mps.data();
  const std::uint64_t* corners = hull.corners.data();
  for (std::size_t k = 0; k < count; ++k) {
    const auto t = std::size_t(crossing[k]);
    const btScalar* record = records + HullSoA::kCutRecord * t;
    for (int g = 0; g < 4; ++g) std::memcpy(stage[g] + 4 * k, record + 4 * g, group);
    stage[1][4 * k + 3] = h0[t];
    stage[2][4 * k + 3] = h1[t];
    stage[3][4 * k + 3] = h2[t];
    if (!velocities) continue;
    const std::uint64_t c = corners[t];
    for (int j = 0; j < 3; ++j) {
      const std::size_t i = HullSoA::corner(c, j);
      btScalar* out = stage[4 + j] + 4 * k;
      out[0] = u[i], out[1] = v[i], out[2] = w[i];
    }
  }
  for (int g = 0; g < groups; ++g) std::memset(stage[g] + 4 * count, 0, (padded(count) - count) * group);
  b.pieces.crossing = count;
  b.pieces.slots = padded(count);
  b.pieces.twoSlots = padded(std::min(count, b.twoWetCrossing));
  HWY_DYNAMIC_DISPATCH(CutKernel)(b, count, velocities, b.pieces);
}

std::size_t velocitiesToBody(const WaterVelocity* in, std::size_t count, const btScalar east[3],
                             const btScalar north[3], const btScalar up[3], btScalar* u, btScalar* v, btScalar* w) {
  return HWY_DYNAMIC_DISPATCH(VelocitiesKernel)(in, count, east, north, up, u, v, w);
}

Extent extentAlong(const btScalar* x, const btScalar* y, const btScalar* z, std::size_t count,
                   const btScalar direction[3]) {
  return HWY_DYNAMIC_DISPATCH(ExtentKernel)(x, y, z, count, direction);
}

void BoatBuffers::fit(const HullSoA& hull) {
  if (d0.size() < hull.trianglePadded) {
    for (auto* v : {&corner0, &corner1, &corner2, &d0, &d1, &d2, &weight, &emerged, &waterU, &waterV, &waterW})
      v->assign(hull.trianglePadded, 0);
    crossing.assign(hull.trianglePadded + kPad, 0);
    crossingOneWet.assign(hull.trianglePadded + kPad, 0);
    blockKind.assign(hull.trianglePadded / kPad, 0);
    stageMemory.assign(4 * kStageGroups * hull.trianglePadded, 0);
    for (int g = 0; g < kStageGroups; ++g) stage[g] = stageMemory.data() + 4 * hull.trianglePadded * std::size_t(g);
    pieces.reserve(hull.trianglePadded);
  }
  if (u_m.size() < hull.vertexPadded) {
    for (auto* v : {&u_m, &v_m, &w_m, &waterU_mps, &waterV_mps, &waterW_mps, &queryU_m, &queryV_m, &queryW_m})
      v->assign(hull.vertexPadded, 0);
    queried.assign(hull.vertexPadded, 0);
    queried.clear();  // capacity kept: no allocation per substep
    stamp.assign(hull.vertexPadded, 0);
    stampNow = 0;
    velocity.assign(hull.vertexPadded, WaterVelocity{});
  }
}

BoatBuffers& threadBuffers(const HullSoA& hull) {
  thread_local BoatBuffers buffers;
  buffers.fit(hull);
  return buffers;
}

}  // namespace keel::detail
#endif  // HWY_ONCE
