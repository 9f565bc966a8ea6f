// keel::SpectralOcean's grid queries vectorised with Highway: the tile nodes
// under a world-snapped grid blended in time, each grid row a 4-tap sum of
// the block's rows, each vector of the row's nodes a sum of its columns, and
// each node's velocities at every depth from its bands'. The sums are in
// btScalar (in float, the tiles' precision, vectors half as wide as
// double's for as many nodes), each taken in the scalar formula's order
// (the taps in order, from zero; no fused multiply-adds), so every
// instruction set gives the same bits.
// docs/waves.md, "Spectral ocean".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/spectral_grid_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "water/spectral_grid.hpp"

#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DS = hn::CappedTag<btScalar, kSpectralGridLanes>;  // the sums' lanes
using VS = hn::Vec<DS>;
using DF = hn::Rebind<float, DS>;  // as many floats (the tiles')

/// Where a job's tables lie: the block blended in time (in its scratch, or
/// a blended tile's), then in its scratch a grid row of each plane, the
/// lanes, the spill and depthRuns' lanes' nodes.
struct Layout {
  std::size_t paddedE, paddedV;     // a block row's elevations and velocities, whole vectors
  std::size_t strideE, strideV;     // the block planes' row lengths
  const btScalar *blockE, *blockV;  // [height][stride]: the block blended in time
  btScalar *ownE, *ownV;            // the scratch's block planes, for the kernel's own blend
  btScalar *rowE, *rowV;            // one grid row: the 4-tap sums of the block's rows
  btScalar* lanes;                  // one vector of nodes' band velocities: [3 bands][kSpectralGridLanes]
  btScalar* spill;                  // a partial store's vector; a vector of nodes' velocities: [depth][lane][axis]
  btScalar* runNode;                // depthRuns' lanes' nodes: [vector][lane], integers' bits
};

Layout layoutOf(const SpectralGridJob& job) {
  Layout l{};
  l.paddedE = spectralGridPadded(job.width);
  l.paddedV = spectralGridPadded(job.width * 3 * job.bands);
  l.ownE = job.scratch;
  l.ownV = l.ownE + job.height * l.paddedE;
  l.rowE = l.ownV + job.height * l.paddedV;
  l.rowV = l.rowE + l.paddedE;
  l.lanes = l.rowV + l.paddedV;
  l.spill = l.lanes + 3 * job.bands * kSpectralGridLanes;
  l.runNode = l.spill + 3 * std::max<std::size_t>(job.depths, 1) * kSpectralGridLanes;
  l.blockE = job.blendedE != nullptr ? job.blendedE : l.ownE;
  l.strideE = job.blendedE != nullptr ? job.blendedStrideE : l.paddedE;
  l.blockV = job.blendedV != nullptr ? job.blendedV : l.ownV;
  l.strideV = job.blendedV != nullptr ? job.blendedStrideV : l.paddedV;
  return l;
}

/// TimeWeights::hermite's operations, lane by lane.
hn::Vec<DF> hermite(const TimeWeights& t, hn::Vec<DF> v0, hn::Vec<DF> v1, hn::Vec<DF> d0, hn::Vec<DF> d1) {
  const DF df;
  return hn::Add(hn::Add(hn::Add(hn::Mul(hn::Set(df, t.value0), v0), hn::Mul(hn::Set(df, t.value1), v1)),
                         hn::Mul(hn::Set(df, t.slope0), d0)),
                 hn::Mul(hn::Set(df, t.slope1), d1));
}

/// The tiles' floats as btScalar lanes.
VS widen(hn::Vec<DF> v) {
#if defined(BT_USE_DOUBLE_PRECISION)
  return hn::PromoteTo(DS(), v);
#else
  return v;
#endif
}

/// `count` lanes of `v` to `out` (btScalar); the vector whole where `room`
/// btScalars can be written at `out` (nodes written after these).
template <class D = DS>
void storeLanes(hn::Vec<D> v, std::size_t count, std::size_t room, btScalar* spill, btScalar* out) {
  const D d;
  if (count == hn::Lanes(d) || hn::Lanes(d) <= room) {
    hn::StoreU(v, d, out);
    return;
  }
  hn::StoreU(v, d, spill);
  for (std::size_t k = 0; k < count; ++k) out[k] = spill[k];
}

/// `count` tile values blended in time into btScalars at `out`, vector by
/// vector: `values(k)` blends the lanes from value k. The last, partial
/// vector whole when `readable` values can be read: stored whole where
/// `room` btScalars can be written at `out` (a block row's padding, or the
/// row's next run, written after), else its lanes copied; else `one(k)`
/// by one.
template <typename Values, typename One>
void blendRun(std::size_t count, std::size_t readable, std::size_t room, btScalar* out, const Values& values,
              const One& one) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds);
  std::size_t k = 0;
  for (; k + lanes <= count; k += lanes) hn::StoreU(widen(values(k)), ds, out + k);
  if (k == count) return;
  if (k + lanes <= readable) {
    btScalar last[kSpectralGridLanes];
    storeLanes(widen(values(k)), count - k, room - k, last, out + k);  // room >= count > k
    return;
  }
  for (; k < count; ++k) out[k] = btScalar(one(k));
}

/// The block: each of its rows as runs of consecutive tile nodes (a row
/// that crosses the tile's edge is two), the elevations into `outE` (rows
/// `strideE` apart) and the bands' velocities into `outV` (`strideV`) of
/// the rows from `velocityRows[0]` to before `velocityRows[1]`, each unless
/// null.
void blendBlock(const SpectralGridJob& job, std::size_t strideE, std::size_t strideV, btScalar* outE, btScalar* outV,
                const std::size_t (&velocityRows)[2]) {
  const DF df;
  const Snapshot& s = job.snapshot;
  // A copy the stores below cannot alias: its broadcasts stay out of the loops.
  const TimeWeights t = s.weights;
  const auto n = std::int64_t(s.state->fixedNodes);
  const std::size_t fields = outV != nullptr ? 3 * job.bands : 0, nodes = std::size_t(n * n);
  const auto* fixed0 = reinterpret_cast<const float*>(s.level0->fixed.data());  // (elevation, rate) per node
  const auto* fixed1 = reinterpret_cast<const float*>(s.level1->fixed.data());
  static_assert(sizeof(FixedNode) == 2 * sizeof(float));
  const float *v0 = s.level0->fixedVelocity_mps.data(), *v1 = s.level1->fixedVelocity_mps.data();
  // The velocities' slope in time: their rate at the fixed points.
  const float *a0 = s.level0->fixedVelocityRate_mps2.data(), *a1 = s.level1->fixedVelocityRate_mps2.data();
  // The first row and column wrapped into the tile once (wrapIndex), the
  // rest stepped.
  const double inverseN = 1 / double(n);
  const std::int64_t column0 = wrapIndex(job.x0, n, inverseN);
  std::int64_t row = wrapIndex(job.y0, n, inverseN);
  for (std::size_t r = 0; r < job.height; ++r, row = row + 1 == n ? 0 : row + 1) {
    for (std::size_t c = 0; c < job.width;) {
      std::int64_t column = column0 + std::int64_t(c);
      while (column >= n) column -= n;  // once, unless the grid is wider than the tile
      const std::size_t run = std::min(job.width - c, std::size_t(n - column));
      const auto k = std::size_t(row * n + column);
      const float *p = fixed0 + 2 * k, *q = fixed1 + 2 * k;
      if (outE != nullptr)
        blendRun(
            run, nodes - k, strideE - c, outE + r * strideE + c,
            [&](std::size_t i) {
              hn::Vec<DF> e0, r0, e1, r1;
              hn::LoadInterleaved2(df, p + 2 * i, e0, r0);
              hn::LoadInterleaved2(df, q + 2 * i, e1, r1);
              return hermite(t, e0, e1, r0, r1);
            },
            [&](std::size_t i) { return t.hermite(p[2 * i], q[2 * i], p[2 * i + 1], q[2 * i + 1]); });
      if (fields > 0 && r - velocityRows[0] < velocityRows[1] - velocityRows[0]) {
        const std::size_t at = k * fields;
        blendRun(
            run * fields, (nodes - k) * fields, strideV - c * fields, outV + r * strideV + c * fields,
            [&](std::size_t i) {
              return hermite(t, hn::LoadU(df, v0 + at + i), hn::LoadU(df, v1 + at + i), hn::LoadU(df, a0 + at + i),
                             hn::LoadU(df, a1 + at + i));
            },
            [&](std::size_t i) { return t.hermite(v0[at + i], v1[at + i], a0[at + i], a1[at + i]); });
      }
      c += run;
    }
  }
}

/// out = w0 in[0] + w1 in[1] + w2 in[2] + w3 in[3], the inputs `stride`
/// apart, over `count` (whole vectors).
void fourTaps(const double* w, const btScalar* in, std::size_t stride, std::size_t count, btScalar* out) {
  const DS ds;
  const VS w0 = hn::Set(ds, btScalar(w[0])), w1 = hn::Set(ds, btScalar(w[1])), w2 = hn::Set(ds, btScalar(w[2])),
           w3 = hn::Set(ds, btScalar(w[3]));
  for (std::size_t e = 0; e < count; e += hn::Lanes(ds)) {
    const VS sum = hn::Add(
        hn::Add(hn::Add(hn::Mul(w0, hn::LoadU(ds, in + e)), hn::Mul(w1, hn::LoadU(ds, in + stride + e))),
                hn::Mul(w2, hn::LoadU(ds, in + 2 * stride + e))),
        hn::Mul(w3, hn::LoadU(ds, in + 3 * stride + e)));
    hn::StoreU(sum, ds, out + e);
  }
}

/// The grid row's values for a vector of nodes, `Fields` at a time (an
/// elevation, or a band's east, north, up): over the row's columns [first,
/// last), each column's values (`stride` apart from `row`) times the
/// column's dense weights, summed in order.
template <std::size_t Fields>
void columns(const btScalar* weight, std::size_t weightStride, const btScalar* row, std::size_t stride,
             std::size_t first, std::size_t last, VS (&sum)[Fields]) {
  const DS ds;
  for (VS& s : sum) s = hn::Zero(ds);
  for (std::size_t c = first; c < last; ++c) {
    const VS w = hn::LoadU(ds, weight + c * weightStride);
    const btScalar* values = row + c * stride;
    for (std::size_t f = 0; f < Fields; ++f) sum[f] = hn::Add(sum[f], hn::Mul(w, hn::Set(ds, values[f])));
  }
}

/// columns() of every band's east, north, up at once (each column's weights
/// loaded once), into `lanes` ([3 bands][kSpectralGridLanes]): each sum
/// alone is the same as a band's.
template <std::size_t Bands>
void bandColumns(const btScalar* weight, std::size_t weightStride, const btScalar* row, std::size_t first,
                 std::size_t last, btScalar* lanes) {
  const DS ds;
  VS sum[3 * Bands];
  columns(weight, weightStride, row, 3 * Bands, first, last, sum);
  for (std::size_t f = 0; f < 3 * Bands; ++f) hn::StoreU(sum[f], ds, lanes + f * kSpectralGridLanes);
}

/// The same for `bands` bands: up to three at once (their sums fit the
/// registers), more band by band.
void bandColumns(std::size_t bands, const btScalar* weight, std::size_t weightStride, const btScalar* row,
                 std::size_t first, std::size_t last, btScalar* lanes) {
  switch (bands) {
    case 1: return bandColumns<1>(weight, weightStride, row, first, last, lanes);
    case 2: return bandColumns<2>(weight, weightStride, row, first, last, lanes);
    case 3: return bandColumns<3>(weight, weightStride, row, first, last, lanes);
    default:
      for (std::size_t b = 0; b < bands; ++b) {
        VS band[3];
        columns(weight, weightStride, row + 3 * b, 3 * bands, first, last, band);
        for (std::size_t axis = 0; axis < 3; ++axis)
          hn::StoreU(band[axis], DS(), lanes + (3 * b + axis) * kSpectralGridLanes);
      }
  }
}

// A node's velocities at its depths from its bands' (depthsAcrossNodes,
// depthsOfEachNode, depthRuns).
#include "water/spectral_depth_sums-inl.hpp"  // IWYU pragma: keep

/// Grid row j: the block's rows' sums, then each vector of nodes.
void gridRow(const SpectralGridJob& job, const Layout& l, std::size_t j) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds), weightStride = spectralGridPadded(job.nodesU), fields = 3 * job.bands;
  const double* w = job.rows[j].w.data();
  const auto r0 = std::size_t(job.rows[j].first - job.y0);
  if (job.heights_m != nullptr) fourTaps(w, l.blockE + r0 * l.strideE, l.strideE, l.paddedE, l.rowE);
  const bool velocities = job.velocities_mps != nullptr && j - job.velocityRow0 < job.velocityRows;
  if (fields > 0 && velocities) fourTaps(w, l.blockV + r0 * l.strideV, l.strideV, l.paddedV, l.rowV);
  for (std::size_t i = 0; i < job.nodesU; i += lanes) {
    const std::size_t count = std::min(lanes, job.nodesU - i);
    const auto first = std::size_t(job.columns[i].first - job.x0),
               last = std::size_t(job.columns[i + count - 1].first - job.x0) + 4;
    const btScalar* weight = job.columnWeight + i;
    if (job.heights_m != nullptr) {
      VS elevation[1];
      columns(weight, weightStride, l.rowE, 1, first, last, elevation);
      const std::size_t node = j * job.nodesU + i;
      storeLanes(hn::Add(hn::Set(ds, btScalar(job.meanLevel_m)), elevation[0]), count, job.nodesU * job.nodesV - node,
                 l.spill, job.heights_m + node);
    }
    if (!velocities) continue;
    // The vector's nodes in the velocities' columns: their columns alone
    // (the others add zeros), from the first such node in lane 0.
    const std::size_t from = std::max(i, job.velocityColumn0),
                      to = std::min(i + count, job.velocityColumn0 + job.velocityColumns);
    if (from >= to) continue;
    const auto vFirst = std::size_t(job.columns[from].first - job.x0),
               vLast = std::size_t(job.columns[to - 1].first - job.x0) + 4;
    bandColumns(job.bands, job.columnWeight + from, weightStride, l.rowV, vFirst, vLast, l.lanes);
    if (job.runDecay != nullptr && job.depths <= lanes)
      depthRuns(job, l, to - from, j * job.nodesU + from);
    else
      depthsOfEachNode(job, l, to - from, j * job.nodesU + from);
  }
}

// The rows of grids of at most kSpectralSmallRow nodes a row (smallGrid).
#include "water/spectral_small_grid-inl.hpp"  // IWYU pragma: keep

}  // namespace

void SpectralGridKernel(const SpectralGridJob& job) {
  const Layout l = layoutOf(job);
  // The planes no blended tile holds.
  btScalar* outE = job.heights_m != nullptr && job.blendedE == nullptr ? l.ownE : nullptr;
  btScalar* outV = job.bands > 0 && job.blendedV == nullptr ? l.ownV : nullptr;
  // The velocities of the block's rows the velocity rows' 4-tap sums read
  // (gridRow) alone: a far boat's or a full-detail boat's window lies
  // within its grid's rows.
  std::size_t velocityRows[2] = {0, 0};
  if (job.velocities_mps != nullptr && job.velocityRows > 0) {
    velocityRows[0] = std::size_t(job.rows[job.velocityRow0].first - job.y0);
    velocityRows[1] = std::size_t(job.rows[job.velocityRow0 + job.velocityRows - 1].first - job.y0) + 4;
  }
  if (outE != nullptr || outV != nullptr) blendBlock(job, l.paddedE, l.paddedV, outE, outV, velocityRows);
  // A far boat's rows of 4 nodes and the default 3 bands with the counts
  // constants; other small grids with them variables.
  if (job.nodesU == kSpectralSmallRow && job.bands == 3) return smallGrid(job, l, kSpectralSmallRow, 3);
  if (job.nodesU <= kSpectralSmallRow) return smallGrid(job, l, job.nodesU, job.bands);
  if (job.bands > 0 && job.velocities_mps != nullptr && job.runDecay != nullptr && job.depths <= hn::Lanes(DS()))
    layRunNodes(job, l);
  for (std::size_t j = 0; j < job.nodesV; ++j) gridRow(job, l, j);
}

void SpectralBlendKernel(const SpectralGridJob& job, btScalar* elevation_m, btScalar* velocity_mps) {
  blendBlock(job, spectralGridPadded(job.width), spectralGridPadded(job.width * 3 * job.bands), elevation_m,
             job.bands > 0 ? velocity_mps : nullptr, {0, job.height});
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(SpectralGridKernel);
HWY_EXPORT(SpectralBlendKernel);

std::size_t spectralGridScratch(const SpectralGridJob& job) {
  const std::size_t strideE = spectralGridPadded(job.width), strideV = spectralGridPadded(job.width * 3 * job.bands);
  // The planes, a grid row of each, the lanes, the spill (3 vectors of
  // btScalar per depth, at least one) and depthRuns' nodes (a vector per
  // depth, for a vector's lanes of depths at most).
  const std::size_t runNodes = job.depths <= kSpectralGridLanes ? job.depths * kSpectralGridLanes : 0;
  return (job.height + 1) * (strideE + strideV) +
         3 * (job.bands + std::max<std::size_t>(job.depths, 1)) * kSpectralGridLanes + runNodes;
}

void spectralGrid(const SpectralGridJob& job) { HWY_DYNAMIC_DISPATCH(SpectralGridKernel)(job); }

void spectralBlend(const SpectralGridJob& job, btScalar* elevation_m, btScalar* velocity_mps) {
  HWY_DYNAMIC_DISPATCH(SpectralBlendKernel)(job, elevation_m, velocity_mps);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
