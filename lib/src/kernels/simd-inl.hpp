// What the SIMD kernels share: the vector types and small vector helpers.
// Included by each kernel source once per instruction set (Highway's
// foreach_target.h re-includes the source, and so this header: its include
// guard toggles with HWY_TARGET_TOGGLE, as Highway's own -inl headers do).
//
// Each kernel is the vector form of a formula of docs/model.md §1 and §2,
// which the tests' scalar reference (tests/support/reference.hpp) restates
// one function per formula; the tests compare the two to rounding (docs/model.md, "The SIMD path"). Every
// instruction set computes the same bits (docs/model.md, "The SIMD path"): no fused multiply-add (mulAdd below),
// no estimate instruction (inverseSqrt), and every sum kept in a fixed number of partial sums whatever the vector
// width (SlotSum).
//
// The kernels read arrays and parameters through local copies (pointers,
// structs copied by value): a vector store may alias any memory, so a field
// read through a reference would be loaded again after every store.

#include "kernels/buffers.hpp"
#include "kernels/flow.hpp"

#if defined(KEEL_KERNELS_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_SIMD_INL_H_
#undef KEEL_KERNELS_SIMD_INL_H_
#else
#define KEEL_KERNELS_SIMD_INL_H_
#endif

#ifndef KEEL_CROSS_ISA_DETERMINISM
#define KEEL_CROSS_ISA_DETERMINISM 1  // the build's default (CMakeLists.txt)
#endif

#include <hwy/highway.h>

#include "math/det_math-inl.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using T = btScalar;
using D = hn::ScalableTag<T>;
using DI = hn::RebindToSigned<D>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;

// Rows of four floats read from scattered places and transposed into
// lanes (the patch's cells and their velocities): on x86 with 256-bit
// vectors or wider, in float. A transpose moves no bit, so every
// instruction set gives the same values; it replaces vector gathers, which
// cost about a cycle per lane and are microcoded on AMD Zen 4, and copies
// through memory, whose wide loads of narrow stores stall.
#undef KEEL_QUAD_TRANSPOSE
#if !defined(BT_USE_DOUBLE_PRECISION) && HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
#define KEEL_QUAD_TRANSPOSE 1

/// The vector of DV's lanes (4, 8 or 16 floats) whose 128-bit blocks are
/// rows j, j + 4, j + 8, ... (row(k) gives row k as a Full128 vector): with
/// the vectors of j + 1, j + 2 and j + 3, transposeQuads' input.
template <class DV, class Row>
HWY_INLINE hn::Vec<DV> quadRows(DV d, std::size_t j, const Row& row) {
  if constexpr (hn::MaxLanes(DV()) == 4) {
    return row(j);
  } else {
    const hn::Half<DV> h;
    return hn::Combine(d, quadRows(h, j + hn::MaxLanes(DV()) / 2, row), quadRows(h, j, row));
  }
}

/// Each 128-bit block of r0 to r3 holds four rows of four floats, one row
/// each: column[c]'s block then holds the rows' element c, in row order.
template <class DV>
HWY_INLINE void transposeQuads(DV d, hn::Vec<DV> r0, hn::Vec<DV> r1, hn::Vec<DV> r2, hn::Vec<DV> r3,
                               hn::Vec<DV> (&column)[4]) {
  const hn::Repartition<double, DV> dd;
  const auto pairs = [&](hn::Vec<DV> x, hn::Vec<DV> y, bool upper) {
    const auto px = hn::BitCast(dd, x), py = hn::BitCast(dd, y);
    return hn::BitCast(d, upper ? hn::InterleaveUpper(dd, px, py) : hn::InterleaveLower(dd, px, py));
  };
  const auto low01 = hn::InterleaveLower(d, r0, r1), high01 = hn::InterleaveUpper(d, r0, r1);
  const auto low23 = hn::InterleaveLower(d, r2, r3), high23 = hn::InterleaveUpper(d, r2, r3);
  column[0] = pairs(low01, low23, false), column[1] = pairs(low01, low23, true);
  column[2] = pairs(high01, high23, false), column[3] = pairs(high01, high23, true);
}

/// Rows 0 to Lanes(d) - 1 (row(k) a Full128 vector) transposed: lane k of
/// column[c] is row k's element c.
template <class DV, class Row>
HWY_INLINE void rowsToLanes(DV d, const Row& row, hn::Vec<DV> (&column)[4]) {
  transposeQuads(d, quadRows(d, 0, row), quadRows(d, 1, row), quadRows(d, 2, row), quadRows(d, 3, row), column);
}
#else
#define KEEL_QUAD_TRANSPOSE 0
#endif

/// A vector of 3-vectors, one per lane.
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
/// a b + c, rounded twice as the scalar reference rounds it: Highway's
/// MulAdd is fused on AVX2 and AVX-512 and not elsewhere, which would give
/// the instruction sets different bits. Fused (faster, each instruction set
/// its own bits) when the build turns KEEL_CROSS_ISA_DETERMINISM off.
template <class VV>
HWY_INLINE VV mulAdd(VV a, VV b, VV c) {
#if KEEL_CROSS_ISA_DETERMINISM
  return hn::Add(hn::Mul(a, b), c);
#else
  return hn::MulAdd(a, b, c);
#endif
}
/// c - a b (see mulAdd).
template <class VV>
HWY_INLINE VV negMulAdd(VV a, VV b, VV c) {
#if KEEL_CROSS_ISA_DETERMINISM
  return hn::Sub(c, hn::Mul(a, b));
#else
  return hn::NegMulAdd(a, b, c);
#endif
}
/// a . b in btVector3::dot's order, (ax bx + ay by) + az bz.
HWY_INLINE V dot(V3 a, V3 b) { return hn::Add(hn::Add(hn::Mul(a.x, b.x), hn::Mul(a.y, b.y)), hn::Mul(a.z, b.z)); }
HWY_INLINE V3 cross(V3 a, V3 b) {
  return {hn::Sub(hn::Mul(a.y, b.z), hn::Mul(a.z, b.y)), hn::Sub(hn::Mul(a.z, b.x), hn::Mul(a.x, b.z)),
          hn::Sub(hn::Mul(a.x, b.y), hn::Mul(a.y, b.x))};
}
/// The centroid (a + b + c) / 3 of a stream's pieces, stored with them:
/// three loads instead of nine (the kernels stream from L2, not L1).
HWY_INLINE V3 centroid(D d, const PieceStream& s, std::size_t i) { return load3(d, s.gx, s.gy, s.gz, i); }

/// The number of partial sums of a reduction of `Lane`s: the widest
/// instruction set's lanes (AVX-512: 16 floats, 8 doubles).
template <class Lane>
inline constexpr std::size_t kSlotsOf = 64 / sizeof(Lane);
inline constexpr std::size_t kSlots = kSlotsOf<T>;
static_assert(kPad % kSlots == 0, "a stream's padding must fill the partial sums' slots");

/// s[0] + ... + s[n - 1] (n a power of 2) in a fixed order, by halves:
/// s[k] + s[k + n/2], then the same on the first half, and so on; s is
/// overwritten. Each level is one vector addition the compiler may use (the
/// bits are the same either way), and the depth is log2 n additions, not n:
/// a substep takes some fifty of these sums.
HWY_INLINE double halvingSum(double* s, std::size_t n) {
  for (std::size_t half = n / 2; half >= 1; half /= 2)
    for (std::size_t k = 0; k < half; ++k) s[k] += s[k + half];
  return s[0];
}

/// A sum over items 0, 1, 2, ... of a stream whose bits do not depend on the
/// vector width: item i always goes to partial sum i mod K, each partial sum
/// starts at +0 and adds its items in stream order, and total() adds the K
/// partial sums in double, by halves (halvingSum). A vector of N lanes holding items
/// i... (i a multiple of N) goes to accumulator (i / N) mod (K / N): one
/// accumulator on AVX-512, K scalars on the scalar target. Lanes that add a
/// zero (a dry piece, padding) leave their sum's bits as they are (a sum
/// that starts at +0 is never -0), so a vector of them may be skipped.
struct Unstarted {};  ///< SlotSum's tag: not started
template <class DV, std::size_t K = kSlotsOf<hn::TFromD<DV>>>
struct SlotSum {
  using Lane = hn::TFromD<DV>;
#if HWY_HAVE_SCALABLE
  // A vector width known only at run time (SVE, RVV): each lane is added to
  // its slot in turn, the same additions.
  Lane slot[K] = {};
  HWY_INLINE void add(std::size_t i, hn::Vec<DV> x) {
    Lane lanes[hn::MaxLanes(DV())];
    hn::StoreU(x, DV(), lanes);
    for (std::size_t l = 0; l < hn::Lanes(DV()); ++l) slot[(i + l) % K] += lanes[l];
  }
  HWY_INLINE SlotSum() = default;
  HWY_INLINE explicit SlotSum(Unstarted /*tag*/) {}
  HWY_INLINE void store(Lane* out) const {
    for (std::size_t k = 0; k < K; ++k) out[k] = slot[k];
  }
#else
  static constexpr std::size_t kLanes = hn::MaxLanes(DV());
  static_assert(K % kLanes == 0, "the vector width must divide the number of partial sums");
  static constexpr std::size_t kVectors = K / kLanes;
  hn::Vec<DV> v[kVectors];
  HWY_INLINE SlotSum() {
    for (auto& x : v) x = hn::Zero(DV());
  }
  /// Not started: to be assigned (an array of zeroed ones may be cleared
  /// through memory first).
  HWY_INLINE explicit SlotSum(Unstarted /*tag*/) {}
  /// The accumulator of items i... (i counted from the stream's start).
  HWY_INLINE hn::Vec<DV>& at(std::size_t i) { return v[i / kLanes % kVectors]; }
  HWY_INLINE void add(std::size_t i, hn::Vec<DV> x) {
    hn::Vec<DV>& s = at(i);
    s = hn::Add(s, x);
  }
  /// Adds a b for items i... (mulAdd).
  HWY_INLINE void addProduct(std::size_t i, hn::Vec<DV> a, hn::Vec<DV> b) {
    hn::Vec<DV>& s = at(i);
    s = mulAdd(a, b, s);
  }
  /// The K partial sums, in slot order.
  HWY_INLINE void store(Lane* out) const {
    for (std::size_t j = 0; j < kVectors; ++j) hn::StoreU(v[j], DV(), out + j * kLanes);
  }
#endif
  [[nodiscard]] HWY_INLINE double total() const {
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
    if constexpr (kLanes > 1 || sizeof(Lane) == sizeof(double)) return slotHalvingSum(*this);
#endif
    Lane lanes[K];
    store(lanes);
    double wide[K];
    for (std::size_t k = 0; k < K; ++k) wide[k] = double(lanes[k]);
    return halvingSum(wide, K);
  }
};

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
/// halvingSum of one vector's lanes: its lower half plus its upper half
/// (s[k] + s[k + n/2], k < n/2) until one lane is left.
template <class DW>
HWY_INLINE double laneHalvingSum(DW /*d*/, hn::Vec<DW> x) {
  if constexpr (hn::MaxLanes(DW()) == 1) {
    return hn::GetLane(x);
  } else {
    const hn::Half<DW> h;
    return laneHalvingSum(h, hn::Add(hn::LowerHalf(h, x), hn::UpperHalf(h, x)));
  }
}

/// A SlotSum's total(): its slots in double, added by halves (halvingSum)
/// in vector additions, not one lane at a time through memory. The slots
/// are n double vectors in order, so a level of halvingSum adds vector
/// j + n/2 to vector j until one is left, then halves within it: the same
/// additions of the same numbers, and so the same bits.
template <class DV, std::size_t K>
HWY_INLINE double slotHalvingSum(const SlotSum<DV, K>& sum) {
  using S = SlotSum<DV, K>;
  constexpr std::size_t kLanes = S::kLanes;
  if constexpr (sizeof(typename S::Lane) == sizeof(double)) {
    hn::Vec<DV> w[S::kVectors];
    for (std::size_t j = 0; j < S::kVectors; ++j) w[j] = sum.v[j];
    for (std::size_t n = S::kVectors / 2; n >= 1; n /= 2)
      for (std::size_t j = 0; j < n; ++j) w[j] = hn::Add(w[j], w[j + n]);
    return laneHalvingSum(DV(), w[0]);
  } else {  // float slots: each vector's halves promoted, in slot order
    const hn::Half<DV> dh;
    const hn::RepartitionToWide<DV> dw;
    static_assert(hn::MaxLanes(dw) == kLanes / 2, "a float vector's halves are double vectors");
    hn::Vec<decltype(dw)> w[2 * S::kVectors];
    for (std::size_t j = 0; j < S::kVectors; ++j) {
      w[2 * j] = hn::PromoteTo(dw, hn::LowerHalf(dh, sum.v[j]));
      w[2 * j + 1] = hn::PromoteTo(dw, hn::UpperHalf(dh, sum.v[j]));
    }
    for (std::size_t n = S::kVectors; n >= 1; n /= 2)
      for (std::size_t j = 0; j < n; ++j) w[j] = hn::Add(w[j], w[j + n]);
    return laneHalvingSum(dw, w[0]);
  }
}
#endif
using Sum = SlotSum<D>;

/// A force and torque (body axes) summed per slot (SlotSum).
struct ForceSum {
  Sum fx, fy, fz, tx, ty, tz;
  HWY_INLINE ForceSum() {}  // (the implicit one would lack the instruction set's attributes)
  /// Adds force k u for items i... whose moment is k (c x u), given c x u as `arm`.
  HWY_INLINE void add(std::size_t i, V k, V3 u, V3 arm) {
    fx.addProduct(i, k, u.x), fy.addProduct(i, k, u.y), fz.addProduct(i, k, u.z);
    tx.addProduct(i, k, arm.x), ty.addProduct(i, k, arm.y), tz.addProduct(i, k, arm.z);
  }
  [[nodiscard]] HWY_INLINE BodyForce total() const {
    BodyForce out;
    const Sum* parts[6] = {&fx, &fy, &fz, &tx, &ty, &tz};
    for (int k = 0; k < 3; ++k) out.force[k] = parts[k]->total(), out.torque[k] = parts[k + 3]->total();
    return out;
  }
};

/// The least and greatest lane of v, a zero of either sign as +0: which
/// zero Min and Max keep depends on the order the lanes meet in, and so on
/// the vector width.
HWY_INLINE T leastLane(D d, V v) { return hn::GetLane(hn::MinOfLanes(d, v)) + T(0); }
HWY_INLINE T greatestLane(D d, V v) { return hn::GetLane(hn::MaxOfLanes(d, v)) + T(0); }

/// 1 / sqrt(x) for x > 0, correctly rounded twice on every instruction
/// set: the CPU's estimates (AVX-512's vrsqrt14ps, SSE's and AVX2's rsqrtps)
/// would give each instruction set, and for rsqrtps each CPU maker, other
/// bits. Without KEEL_CROSS_ISA_DETERMINISM, in float on AVX-512: the
/// estimate, defined bit for bit by the instruction set, and one Newton
/// step, r (3 - x r^2) / 2, good to about an ulp.
HWY_INLINE V inverseSqrt(D d, V x) {
#if KEEL_CROSS_ISA_DETERMINISM || defined(BT_USE_DOUBLE_PRECISION) || HWY_TARGET > HWY_AVX3
  return hn::Div(hn::Set(d, T(1)), hn::Sqrt(x));
#else
  const V r = hn::ApproximateReciprocalSqrt(x);
  return hn::Mul(hn::Mul(hn::Set(d, T(0.5)), r), hn::NegMulAdd(hn::Mul(x, r), r, hn::Set(d, T(3))));
#endif
}

/// x^exponent for x >= 0, the common exponents without exp and log
/// (the reference's falloff); the others e^{exponent log x} in double with
/// Keel's own exp and log (math/det_math-inl.hpp), each lane det::pow's
/// bits: the same on every instruction set.
HWY_INLINE V power(D d, V x, T exponent) {
  if (exponent == T(0.5)) return hn::Sqrt(x);
  if (exponent == T(1)) return x;
  if (exponent == T(2)) return hn::Mul(x, x);
  const M positive = hn::Gt(x, hn::Zero(d));
  const V safe = hn::IfThenElse(positive, x, hn::Set(d, T(1)));
#if defined(BT_USE_DOUBLE_PRECISION)
  const V p = det_simd::Exp(d, hn::Mul(hn::Set(d, exponent), det_simd::Log(d, safe)));
#elif HWY_TARGET == HWY_SCALAR
  const V p = hn::Set(d, T(det::pow(double(hn::GetLane(safe)), double(exponent))));
#else
  const hn::RepartitionToWide<D> dw;
  const hn::Half<D> dh;
  const auto e = hn::Set(dw, double(exponent));
  const auto pow = [&](auto half) { return hn::DemoteTo(dh, det_simd::Exp(dw, hn::Mul(e, det_simd::Log(dw, half)))); };
  const V p = hn::Combine(d, pow(hn::PromoteTo(dw, hn::UpperHalf(dh, safe))),
                          pow(hn::PromoteTo(dw, hn::LowerHalf(dh, safe))));
#endif
  return hn::IfThenElseZero(positive, p);
}

/// btScalar(base + double(offset)) lane by lane: one rounding, so a boat far
/// from the origin keeps its shape in float (water_sampling.cpp, sampleDirect).
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

/// A ScalarIndex that is not negative (a lane's offset into an array) as
/// an offset: through the unsigned type, so that x86 reads a 32-bit one
/// with a plain load, without a sign extension.
HWY_INLINE std::size_t asOffset(ScalarIndex i) { return std::size_t(std::make_unsigned_t<ScalarIndex>(i)); }

/// Lanes holding whole numbers from 0 to under 2^23 (2^52 in double: a
/// patch's node or cell, a velocity level) as ScalarIndex lanes, exactly:
/// added to 2^23 (2^52), the number is the sum's mantissa, read as an
/// integer. Two instructions, where ConvertTo's guard against lanes out of
/// range takes five on x86.
HWY_INLINE hn::Vec<DI> wholeToIndex(D d, V whole) {
  const DI di;
  const V shift = hn::Set(d, sizeof(T) == 4 ? T(8388608.0) : T(4503599627370496.0));
  return hn::Sub(hn::BitCast(di, hn::Add(whole, shift)), hn::BitCast(di, shift));
}

/// Velocities (u, v, w) lanes, body axes, stored as four btScalars (u, v, w,
/// 0) a vertex: at vertex[i + j] for the first `here` lanes, or, without a
/// list, at i + j for every lane (the array then holds whole vectors).
HWY_INLINE void storeVertexVelocities(D d, V u, V v, V w, T* out4, const std::uint32_t* vertex, std::size_t i,
                                      std::size_t here) {
  if (vertex == nullptr) {
    hn::StoreInterleaved4(u, v, w, hn::Zero(d), d, out4 + 4 * i);
    return;
  }
  T quads[std::size_t{4} * HWY_MAX_BYTES / sizeof(T)];
  hn::StoreInterleaved4(u, v, w, hn::Zero(d), d, quads);
  const auto scatter = [&](std::size_t j) {
    std::memcpy(out4 + 4 * std::size_t(vertex[i + j]), quads + 4 * j, 4 * sizeof(T));
  };
  // A whole vector with a constant bound: no test per lane.
  if (here == hn::MaxLanes(d)) {
    for (std::size_t j = 0; j < hn::MaxLanes(d); ++j) scatter(j);
    return;
  }
  for (std::size_t j = 0; j < here; ++j) scatter(j);
}

/// The cell of a world-snapped patch under points (u, v) [m], double lanes,
/// as WaterPatch::locate: the row-major index of its node (0, 0) (exact in
/// double) and the fractions a, b across it along u and v. Points beyond
/// the grid are clamped to its edge.
struct PatchCellLanes {
  hn::Vec<hn::ScalableTag<double>> k00, a, b;
};
HWY_INLINE PatchCellLanes locatePatchCell(hn::Vec<hn::ScalableTag<double>> u, hn::Vec<hn::ScalableTag<double>> v,
                                          double inverseCell_pm, double originI, double originJ, int side) {
  const hn::ScalableTag<double> dd;
  const auto zero = hn::Zero(dd), last = hn::Set(dd, double(side - 1)), lastCell = hn::Set(dd, double(side - 2));
  const auto inverse = hn::Set(dd, inverseCell_pm);
  const auto fu = hn::Min(hn::Max(hn::Sub(hn::Mul(u, inverse), hn::Set(dd, originI)), zero), last);
  const auto fv = hn::Min(hn::Max(hn::Sub(hn::Mul(v, inverse), hn::Set(dd, originJ)), zero), last);
  const auto ci = hn::Min(hn::Floor(fu), lastCell), cj = hn::Min(hn::Floor(fv), lastCell);
  return {mulAdd(cj, hn::Set(dd, double(side)), ci), hn::Sub(fu, ci), hn::Sub(fv, cj)};
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_SIMD_INL_H_
