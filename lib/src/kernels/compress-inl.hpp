// A vector's selected lanes moved to its front, in order (Highway's
// Compress), for the kernels that list or pack lanes: the wet vertices'
// indices (heights.cpp) and the wake's wet pieces (wake_pieces.cpp).
// Included by each kernel source once per instruction set, after
// kernels/simd-inl.hpp (its include guard toggles with HWY_TARGET_TOGGLE,
// as Highway's own -inl headers do).
//
// On AVX2, Highway 1.0's Compress of eight 32-bit lanes reads the lanes'
// order from a 1 KiB table declared as a local constexpr array, which GCC 12
// copies onto the stack at every call (a `rep movsq` of 1 KiB per vector:
// most of the listing's time on AVX2); on SSE4 and SSSE3, four lanes' 256
// bytes, stored anew at every call. Here the lanes' orders lie at
// namespace scope, computed at compile time: each lane holds what
// Highway's Compress gives it (the selected lanes in order, then the
// others in order), so the bits are the same. AVX-512 (which compresses in
// one instruction), the other instruction sets and lane types use Highway's.

#if defined(KEEL_KERNELS_COMPRESS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_COMPRESS_INL_H_
#undef KEEL_KERNELS_COMPRESS_INL_H_
#else
#define KEEL_KERNELS_COMPRESS_INL_H_
#endif

#include <hwy/highway.h>

#include <array>
#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef KEEL_COMPRESS_TABLE
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3
#define KEEL_COMPRESS_TABLE 1
#else
#define KEEL_COMPRESS_TABLE 0
#endif

#if KEEL_COMPRESS_TABLE
/// For each mask of eight lanes (bit k set: lane k selected), the source
/// lane of each output lane, four bits each from output lane 0 up: the
/// selected lanes in order, then the others in order.
inline constexpr std::array<std::uint32_t, 256> kCompressOrder8 = [] {
  std::array<std::uint32_t, 256> order{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint32_t packed = 0, slot = 0;
    for (const std::uint32_t selected : {1u, 0u})
      for (std::uint32_t lane = 0; lane < 8; ++lane)
        if (((mask >> lane) & 1u) == selected) packed |= lane << (4 * slot++);
    order[mask] = packed;
  }
  return order;
}();

/// The same for four lanes (masks 0 to 15: their first four lanes' orders
/// above), a lane each, to load as a vector.
alignas(16) inline constexpr std::array<std::array<std::uint32_t, 4>, 16> kCompressOrder4 = [] {
  std::array<std::array<std::uint32_t, 4>, 16> order{};
  for (std::size_t mask = 0; mask < 16; ++mask)
    for (std::size_t lane = 0; lane < 4; ++lane) order[mask][lane] = (kCompressOrder8[mask] >> (4 * lane)) & 7u;
  return order;
}();
#endif

/// hn::Compress(v, mask) for the vectors `v` of one mask: in 32-bit lanes
/// on AVX2 (eight) and SSE4 or SSSE3 (four), the mask's lane order once and
/// a permutation per vector.
template <class DV>
class LaneCompress {
 public:
  HWY_INLINE LaneCompress(DV d, hn::Mask<DV> mask) : mask_(mask) {
    (void)d;  // unused where Highway's Compress serves
#if KEEL_COMPRESS_TABLE
    if constexpr (kLanes == 8) {
      const hn::RebindToUnsigned<DV> du;
      std::uint8_t bits[8] = {};
      hn::StoreMaskBits(d, mask, bits);
      // Lane k's four bits down to its bottom: its source lane.
      const auto shift = hn::ShiftLeft<2>(hn::Iota(du, 0));
      order_ = hn::IndicesFromVec(d, hn::And(hn::Set(du, kCompressOrder8[bits[0]]) >> shift, hn::Set(du, 7u)));
    } else if constexpr (kLanes == 4) {
      const hn::RebindToUnsigned<DV> du;
      std::uint8_t bits[8] = {};
      hn::StoreMaskBits(d, mask, bits);
      order_ = hn::IndicesFromVec(d, hn::Load(du, kCompressOrder4[bits[0] & 15u].data()));
    }
#endif
  }

  /// v's selected lanes first, in order; the others after.
  HWY_INLINE hn::Vec<DV> operator()(hn::Vec<DV> v) const {
#if KEEL_COMPRESS_TABLE
    if constexpr (kLanes == 4 || kLanes == 8) return hn::TableLookupLanes(v, order_);
#endif
    return hn::Compress(v, mask_);
  }

 private:
  hn::Mask<DV> mask_;
#if KEEL_COMPRESS_TABLE
  // The lanes the tables serve (32-bit), or 0.
  static constexpr std::size_t kLanes = sizeof(hn::TFromD<DV>) == 4 ? hn::MaxLanes(DV()) : 0;
  decltype(hn::IndicesFromVec(DV(), hn::Zero(hn::RebindToUnsigned<DV>()))) order_{};
#endif
};

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_COMPRESS_INL_H_ toggle
