// keel::WakeField's grid velocities vectorised with Highway (wake_grid.hpp):
// each node's velocities at its depths, the depths in lanes, stored
// interleaved into a scratch table, then added to the answer (or to the
// ambient water's one velocity, which the answer then need not hold). Each sum is
// taken in the scalar formula's order (the bands in order, from zero; no
// fused multiply-adds), so every instruction set gives the same bits.

#include "water/fp_contract_off.hpp"  // first: before any Highway code

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "wake/wake_grid_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "wake/wake_grid.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DS = hn::CappedTag<btScalar, kWakeGridLanes>;
using VS = hn::Vec<DS>;

/// Every node's velocities at every depth into the scratch table, node
/// after node: a vector of depths past the node's runs on into the next
/// node's, which overwrites it (the table has a vector to spare at its end).
template <std::size_t Bands>
void depthsOfEachNode(const WakeDepthJob& job) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds), padded = wakeGridPadded(job.depths), nodes = job.nodesU * job.nodesV;
  for (std::size_t node = 0; node < nodes; ++node) {
    const btScalar* band = job.band + node;
    for (std::size_t m = 0; m < job.depths; m += lanes) {
      VS sum[3] = {hn::Zero(ds), hn::Zero(ds), hn::Zero(ds)};
      for (std::size_t b = 0; b < Bands; ++b) {
        const VS decay = hn::LoadU(ds, job.decay + b * padded + m);
        for (std::size_t axis = 0; axis < 3; ++axis)
          sum[axis] = hn::Add(sum[axis], hn::Mul(decay, hn::Set(ds, band[(3 * b + axis) * nodes])));
      }
      hn::StoreInterleaved3(sum[0], sum[1], sum[2], ds, job.scratch + 3 * (node * job.depths + m));
    }
  }
}

/// `count` btScalars of the scratch table added to a row of the answer:
/// to what it holds, or to the uniform velocity (`uniform` not null: its
/// east, north, up, repeated), the sum in the same order either way.
void addRow(std::size_t count, const btScalar* from, const btScalar* uniform, btScalar* out) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds);
  std::size_t k = 0;
  if (uniform == nullptr) {
    for (; k + lanes <= count; k += lanes)
      hn::StoreU(hn::Add(hn::LoadU(ds, out + k), hn::LoadU(ds, from + k)), ds, out + k);
    for (; k < count; ++k) out[k] += from[k];
    return;
  }
  // The axes repeat every three btScalars: a vector from k starts at axis
  // k mod 3 of a table of them.
  btScalar repeated[3 + kWakeGridLanes];
  for (std::size_t i = 0; i < 3 + kWakeGridLanes; ++i) repeated[i] = uniform[i % 3];
  for (; k + lanes <= count; k += lanes)
    hn::StoreU(hn::Add(hn::LoadU(ds, repeated + k % 3), hn::LoadU(ds, from + k)), ds, out + k);
  for (; k < count; ++k) out[k] = uniform[k % 3] + from[k];
}

}  // namespace

void AddWakeDepthsKernel(const WakeDepthJob& job) {
  switch (job.bands) {
    case 1: depthsOfEachNode<1>(job); break;
    case 2: depthsOfEachNode<2>(job); break;
    case 3: depthsOfEachNode<3>(job); break;
    default: depthsOfEachNode<4>(job); break;  // WakeFieldSettings: 1 to 4
  }
  const std::size_t row = 3 * job.nodesU * job.depths;
  for (std::size_t j = 0; j < job.nodesV; ++j) addRow(row, job.scratch + j * row, job.uniform, job.out + j * job.outRow);
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(AddWakeDepthsKernel);

void addWakeDepths(const WakeDepthJob& job) { HWY_DYNAMIC_DISPATCH(AddWakeDepthsKernel)(job); }

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
