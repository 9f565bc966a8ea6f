// The pressure kernel (pressure.hpp), one copy per instruction set
// (simd-inl.hpp), and the hydrostatic result of its sums.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pressure.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "finite.hpp"
#include "kernels/pressure.hpp"
#include "kernels/pressure_sums-inl.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// Sums for two streams of at most a block each (a small hull's triangles
/// and pieces): the same additions as Sums' loop, without the double
/// totals zeroed and kept in memory.
template <bool kHeads, std::size_t kSums>
HWY_NOINLINE PressureSums twoBlockSums(const PieceStream* streams, V3 upv) {
  SumBlock<kSums> first(Unstarted{}), second(Unstarted{});
  keepBlock<kHeads>(streams, upv, first);
  keepBlock<kHeads>(streams + 1, upv, second);
  PressureSums out;
  twoBlockTotals<kHeads>(first, second, out);
  return out;
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
  constexpr std::size_t kSums = kHeads ? kHeadSums : kDepthSums;
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
  PressureSums out;
  sumsOf<kHeads>([&](auto j) { return total[j].total(); }, out);
  return out;
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
                    const btMatrix3x3& toResult, HydrostaticResult& result) {
  // The constant divisors as factors, made before the sums are: a division
  // is long, and these lie on the chain from the sums to the velocity
  // change. Only the centre of buoyancy divides, once, by the volume.
  constexpr double kThird = 1.0 / 3, kTwelfth = 1.0 / 12, kTwentyFourth = 1.0 / 24;
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  const double forceFactor = -rhoG * kThird, momentFactor = -rhoG * kTwelfth;
  // Turned to the result's axes from the values in registers: read back from
  // the result, its narrow stores would stall the wide loads. M v as
  // v M^T (timesRows: the same products and sums in the same order as
  // Bullet's M v, in vector operations).
  const btMatrix3x3 columns = toResult.transpose();
  result.force_N = timesRows(btVector3(btScalar(sums.force[0] * forceFactor), btScalar(sums.force[1] * forceFactor),
                                       btScalar(sums.force[2] * forceFactor)),
                             columns);
  result.torque_Nm = timesRows(
      btVector3(btScalar(sums.moment[0] * momentFactor), btScalar(sums.moment[1] * momentFactor),
                btScalar(sums.moment[2] * momentFactor)),
      columns);
  // V = -sum (S . up)(sum d) / 3: the vertical force over rho g of the
  // static head.
  const double volume = -(sums.depthForce[0] * up.x() + sums.depthForce[1] * up.y() + sums.depthForce[2] * up.z()) *
                        kThird;
  result.submergedVolume_m3 = btScalar(volume);
  result.wettedArea_m2 = btScalar(sums.area);
  // Divergence theorem with grad d = -up (flat water), the waterplane
  // contributing nothing because d = 0 there:
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,
  //   int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double depthVolume = -sums.depthIntegral * kTwentyFourth;
  result.depthIntegral_m4 = btScalar(depthVolume);
  btVector3 centre(0, 0, 0);
  if (volume > 0) {
    const double perVolume = 1 / volume;
    for (int k = 0; k < 3; ++k)
      centre[k] = btScalar((double(up[k]) * depthVolume - sums.buoyancyMoment[k] * kTwelfth) * perVolume);
  }
  result.centreOfBuoyancy_m = timesRows(centre, columns);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
