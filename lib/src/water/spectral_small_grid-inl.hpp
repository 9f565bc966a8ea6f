// The spectral grid kernel's rows for grids of at most kSpectralSmallRow
// nodes a row (a far boat's 4 x 4 patch): each node's column taps read in
// place (smallGrid). A part of spectral_grid_simd.cpp, which includes it once
// per instruction set inside its own namespaces, after the helpers it uses
// (Layout, storeLanes, fourTaps, and spectral_depth_sums-inl.hpp's
// depthsAcrossNodes and depthsOfEachNodeCall): no include guard, and nothing
// to include alone.
// docs/waves.md, "Spectral ocean".

/// A row of at most kSpectralSmallRow nodes (a far boat's patch) reads
/// each node's 4 column taps in place, rather than summing the block's
/// columns with dense weights. The dense sums add zeros off a node's taps:
/// from +0, the product of a zero weight and a finite value leaves every
/// partial sum as it was (x + 0 is x, +0 + -0 is +0), so a node's sum is
/// its 4 taps' products added in order to +0, the same bits.
struct SmallRow {
  std::size_t nodes, bands;
  std::size_t first[kSpectralSmallRow];  ///< each node's first tap, a block column
  btScalar w[4][kSpectralSmallRow];      ///< tap k of node i at [k][i], zero past the nodes
};

SmallRow smallRow(const SpectralGridJob& job, std::size_t nodes, std::size_t bands) {
  SmallRow r{};
  r.nodes = nodes;
  r.bands = bands;
  for (std::size_t i = 0; i < nodes; ++i) {
    r.first[i] = std::size_t(job.columns[i].first - job.x0);
    for (std::size_t k = 0; k < 4; ++k) r.w[k][i] = btScalar(job.columns[i].w[k]);
  }
  return r;
}

using D4 = hn::CappedTag<btScalar, 4>;  // a small row's nodes, or a velocity's axes
using V4 = hn::Vec<D4>;

/// (((+0 + w0 x0) + w1 x1) + w2 x2) + w3 x3, lane by lane.
template <class D>
hn::Vec<D> tapSum(D d, const hn::Vec<D> (&w)[4], hn::Vec<D> x0, hn::Vec<D> x1, hn::Vec<D> x2, hn::Vec<D> x3) {
  const hn::Vec<D> sum = hn::Add(hn::Add(hn::Zero(d), hn::Mul(w[0], x0)), hn::Mul(w[1], x1));
  return hn::Add(hn::Add(sum, hn::Mul(w[2], x2)), hn::Mul(w[3], x3));
}

/// A small grid row's heights from its block rows' sums (l.rowE): each
/// node's taps side by side in `taps` ([node][tap]), then a vector of nodes
/// a tap.
HWY_INLINE void smallRowHeights(const SpectralGridJob& job, const Layout& l, const SmallRow& r, btScalar* taps,
                                std::size_t j) {
  const D4 d;
  const std::size_t lanes = hn::Lanes(d), nu = r.nodes;
  for (std::size_t i = 0; i < nu; ++i) std::memcpy(taps + 4 * i, l.rowE + r.first[i], 4 * sizeof(btScalar));
  const V4 mean = hn::Set(d, btScalar(job.meanLevel_m));
  for (std::size_t i = 0; i < nu; i += lanes) {
    V4 x[4];
    hn::LoadInterleaved4(d, taps + 4 * i, x[0], x[1], x[2], x[3]);
    const V4 w[4] = {hn::LoadU(d, r.w[0] + i), hn::LoadU(d, r.w[1] + i), hn::LoadU(d, r.w[2] + i),
                     hn::LoadU(d, r.w[3] + i)};
    const std::size_t node = j * nu + i;
    storeLanes<D4>(hn::Add(mean, tapSum(d, w, x[0], x[1], x[2], x[3])), std::min(lanes, nu - i), nu * job.nodesV - node,
                   l.spill, job.heights_m + node);
  }
}

/// One node's velocities at every depth from its `count` bands' (`bands`, 3 a band:
/// east, north, up), a vector of east, north and up a depth: the sums of
/// depthsAcrossNodes, a node at a time (few depths, vectors of 4 lanes).
HWY_INLINE void nodeDepths(const SpectralGridJob& job, const Layout& l, std::size_t count, const btScalar* bands,
                           std::size_t node) {
  const D4 d;
  const std::size_t padded = spectralGridPadded(job.depths), end = 3 * job.nodesU * job.nodesV * job.depths;
  for (std::size_t m = 0; m < job.depths; ++m) {
    V4 sum = hn::Zero(d);
    for (std::size_t b = 0; b < count; ++b)
      sum = hn::Add(sum, hn::Mul(hn::Set(d, job.decay[b * padded + m]), hn::LoadU(d, bands + 3 * b)));
    const std::size_t at = 3 * (node * job.depths + m);  // the lane past the up is the next velocity's, or spills
    storeLanes<D4>(sum, 3, end - at, l.spill, job.velocities_mps + at);
  }
}

/// A small grid row's velocities at its window's nodes: the block rows'
/// sums (weights `w`, from block row r0) at the window's columns alone,
/// then each node's fields from its 4 taps, then its depths.
HWY_INLINE void smallRowVelocities(const SpectralGridJob& job, const Layout& l, const SmallRow& r, std::size_t j,
                                   const double* w, std::size_t r0) {
  const DS ds;
  const std::size_t from = job.velocityColumn0, to = std::min(r.nodes, from + job.velocityColumns);
  if (from >= to) return;
  const std::size_t lanes = hn::Lanes(ds), fields = 3 * r.bands, first = r.first[from];
  const std::size_t count = (r.first[to - 1] + 4 - first) * fields;
  fourTaps(w, l.blockV + r0 * l.strideV + first * fields, l.strideV, (count + lanes - 1) / lanes * lanes, l.rowV);
  // A node's depths in lanes of 4 (east, north, up), or nodes in the
  // lanes of l.lanes (vectors too narrow for a velocity, or many depths).
  const bool byNode = hn::Lanes(D4()) >= 3 && 2 * job.depths < lanes;
  btScalar sums[3 * std::size_t(kMaxVelocityBands) + kSpectralGridLanes];
  hn::StoreU(hn::Zero(ds), ds, sums + fields);  // nodeDepths reads the lane past the last band's up
  for (std::size_t i = from; i < to; ++i) {
    // Past the last field the lanes read on into the next column's (a
    // vector past the sums at most, in the scratch): never used.
    const btScalar* x = l.rowV + (r.first[i] - first) * fields;
    const VS tw[4] = {hn::Set(ds, r.w[0][i]), hn::Set(ds, r.w[1][i]), hn::Set(ds, r.w[2][i]), hn::Set(ds, r.w[3][i])};
    for (std::size_t f = 0; f < fields; f += lanes)
      hn::StoreU(tapSum(ds, tw, hn::LoadU(ds, x + f), hn::LoadU(ds, x + fields + f), hn::LoadU(ds, x + 2 * fields + f),
                        hn::LoadU(ds, x + 3 * fields + f)),
                 ds, sums + f);
    if (byNode) {
      nodeDepths(job, l, r.bands, sums, j * r.nodes + i);
      continue;
    }
    const std::size_t lane = (i - from) % lanes;
    for (std::size_t f = 0; f < fields; ++f) l.lanes[f * kSpectralGridLanes + lane] = sums[f];
    if (lane + 1 < lanes && i + 1 < to) continue;  // the vector of nodes is not yet full
    const std::size_t node = j * r.nodes + i - lane;
    if (2 * job.depths >= lanes)
      depthsOfEachNodeCall(job, l, lane + 1, node);
    else
      depthsAcrossNodes(job, l, lane + 1, node);
  }
}

/// The rows of a grid of `nodes` (at most kSpectralSmallRow) a row and
/// `bands` velocity bands (the job's).
HWY_INLINE void smallGrid(const SpectralGridJob& job, const Layout& l, std::size_t nodes, std::size_t bands) {
  const SmallRow r = smallRow(job, nodes, bands);
  btScalar taps[4 * kSpectralSmallRow] = {};  // past the row's nodes, lanes never stored
  for (std::size_t j = 0; j < job.nodesV; ++j) {
    const double* w = job.rows[j].w.data();
    const auto r0 = std::size_t(job.rows[j].first - job.y0);
    if (job.heights_m != nullptr) {
      fourTaps(w, l.blockE + r0 * l.strideE, l.strideE, l.paddedE, l.rowE);
      smallRowHeights(job, l, r, taps, j);
    }
    if (bands > 0 && job.velocities_mps != nullptr && j - job.velocityRow0 < job.velocityRows)
      smallRowVelocities(job, l, r, j, w, r0);
  }
}
