// keel::WakeField's grid velocities vectorised with Highway (wake_grid.hpp):
// each node's velocities at its depths, the depths in lanes, added to the
// answer (or to the ambient water's one velocity, which the answer then
// need not hold): in registers when the depths fill a vector, else stored
// interleaved into a scratch table first. Each sum is taken in the scalar
// formula's order (the bands in order, from zero; the answer's value plus
// the field's; no fused multiply-adds), so every instruction set gives the
// same bits.

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

/// A node's velocities at the depths m... (lanes), each axis the sum over
/// the bands of the band's velocity at the node (`band`, `stride` apart)
/// times its decay at each depth (`decay`, `padded` apart).
template <std::size_t Bands, class DV>
HWY_INLINE void nodeDepths(DV ds, const btScalar* band, std::size_t stride, const btScalar* decay, std::size_t padded,
                           hn::Vec<DV> (&sum)[3]) {
  sum[0] = sum[1] = sum[2] = hn::Zero(ds);
  for (std::size_t b = 0; b < Bands; ++b) {
    const auto weight = hn::LoadU(ds, decay + b * padded);
    for (std::size_t axis = 0; axis < 3; ++axis)
      sum[axis] = hn::Add(sum[axis], hn::Mul(weight, hn::Set(ds, band[(3 * b + axis) * stride])));
  }
}

/// Every node's velocities at every depth into the scratch table, node
/// after node: a vector of depths past the node's runs on into the next
/// node's, which overwrites it (the table has a vector to spare at its end).
template <std::size_t Bands, class DV>
void depthsIntoScratch(DV ds, const WakeDepthJob& job) {
  const std::size_t lanes = hn::Lanes(ds), padded = wakeGridPadded(job.depths), nodes = job.nodesU * job.nodesV;
  const std::size_t depths = job.depths;
  const btScalar *band = job.band, *decay = job.decay;
  btScalar* scratch = job.scratch;
  for (std::size_t node = 0; node < nodes; ++node)
    for (std::size_t m = 0; m < depths; m += lanes) {
      hn::Vec<DV> sum[3];
      nodeDepths<Bands>(ds, band + node, nodes, decay + m, padded, sum);
      hn::StoreInterleaved3(sum[0], sum[1], sum[2], ds, scratch + 3 * (node * depths + m));
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

/// The job when its depths are a vector of `ds` exactly: each node's
/// velocities added in registers to the answer's (or to the uniform
/// velocity), which holds the node's depths in that one vector's
/// interleaved three: no scratch table, and no store past the node.
template <std::size_t Bands, class DV>
void depthsIntoAnswer(DV ds, const WakeDepthJob& job) {
  const std::size_t nodesU = job.nodesU, nodesV = job.nodesV, stride = nodesU * nodesV, perNode = 3 * job.depths;
  const std::size_t padded = wakeGridPadded(job.depths), outRow = job.outRow;
  const btScalar *band = job.band, *decay = job.decay, *uniform = job.uniform;
  btScalar* out = job.out;
  for (std::size_t j = 0; j < nodesV; ++j)
    for (std::size_t i = 0; i < nodesU; ++i) {
      hn::Vec<DV> sum[3], to[3];
      nodeDepths<Bands>(ds, band + j * nodesU + i, stride, decay, padded, sum);
      btScalar* at = out + j * outRow + i * perNode;
      if (uniform != nullptr)
        to[0] = hn::Set(ds, uniform[0]), to[1] = hn::Set(ds, uniform[1]), to[2] = hn::Set(ds, uniform[2]);
      else
        hn::LoadInterleaved3(ds, at, to[0], to[1], to[2]);
      hn::StoreInterleaved3(hn::Add(to[0], sum[0]), hn::Add(to[1], sum[1]), hn::Add(to[2], sum[2]), ds, at);
    }
}

/// The job with vectors of `ds`: in registers when its depths fill one
/// exactly, else through the scratch table.
template <std::size_t Bands, class DV>
void depthsOf(DV ds, const WakeDepthJob& job) {
  if (job.depths == hn::Lanes(ds)) {
    depthsIntoAnswer<Bands>(ds, job);
    return;
  }
  depthsIntoScratch<Bands>(ds, job);
  const std::size_t row = 3 * job.nodesU * job.depths;
  for (std::size_t j = 0; j < job.nodesV; ++j)
    addRow(row, job.scratch + j * row, job.uniform, job.out + j * job.outRow);
}

/// depthsOf with vectors as wide as a boat's patch's depths (about four)
/// need, wasting no lane.
template <std::size_t Bands>
void depthsOf(const WakeDepthJob& job) {
  const hn::CappedTag<btScalar, 2> d2;
  const hn::CappedTag<btScalar, 4> d4;
  if (job.depths <= hn::Lanes(d2))
    depthsOf<Bands>(d2, job);
  else if (job.depths <= hn::Lanes(d4))
    depthsOf<Bands>(d4, job);
  else
    depthsOf<Bands>(DS(), job);
}

}  // namespace

void AddWakeDepthsKernel(const WakeDepthJob& job) {
  switch (job.bands) {
    case 1: depthsOf<1>(job); break;
    case 2: depthsOf<2>(job); break;
    case 3: depthsOf<3>(job); break;
    default: depthsOf<4>(job); break;  // WakeFieldSettings: 1 to 4
  }
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(AddWakeDepthsKernel);

void addWakeDepths(const WakeDepthJob& job) { HWY_DYNAMIC_DISPATCH(AddWakeDepthsKernel)(job); }

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
