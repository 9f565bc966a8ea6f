// The spectral grid kernel's velocities at depths: a node's velocity at each
// depth is a sum over the bands of the band's interpolated velocity (in
// Layout::lanes) times its decay there, stored as the output holds them. A
// part of spectral_grid_simd.cpp, which includes it once per instruction set
// inside its own namespaces, after the helpers it uses (Layout, DS, VS): no
// include guard, and nothing to include alone. docs/waves.md, "Spectral ocean".

/// The velocities of `count` nodes from `node` at every depth, from their
/// bands' (l.lanes): east, north, up each a sum over the bands of decay
/// times the band's. Nodes in lanes (few depths: a node's few velocities
/// would fill few lanes): interleaved into l.spill by depth, then copied
/// out node by node.
void depthsAcrossNodes(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  const DS ds;
  const std::size_t padded = spectralGridPadded(job.depths), vector = 3 * kSpectralGridLanes;
  for (std::size_t m = 0; m < job.depths; ++m) {
    VS sum[3] = {hn::Zero(ds), hn::Zero(ds), hn::Zero(ds)};
    for (std::size_t b = 0; b < job.bands; ++b) {
      const VS decay = hn::Set(ds, job.decay[b * padded + m]);
      const btScalar* band = l.lanes + 3 * b * kSpectralGridLanes;
      for (std::size_t axis = 0; axis < 3; ++axis)
        sum[axis] = hn::Add(sum[axis], hn::Mul(decay, hn::LoadU(ds, band + axis * kSpectralGridLanes)));
    }
    hn::StoreInterleaved3(sum[0], sum[1], sum[2], ds, l.spill + m * vector);
  }
  for (std::size_t k = 0; k < count; ++k) {
    btScalar* out = job.velocities_mps + 3 * (node + k) * job.depths;
    for (std::size_t m = 0; m < job.depths; ++m)
      std::memcpy(out + 3 * m, l.spill + m * vector + 3 * k, 3 * sizeof(btScalar));
  }
}

/// A vector of velocities' three axes, interleaved as the output holds
/// them, from the output's velocity `at` on: in place, or where the vector
/// would pass the output's end, through l.spill and its lanes up to the end
/// copied. (The output's velocities after the vector's are written later.)
HWY_INLINE void storeVelocities(const SpectralGridJob& job, const Layout& l, const VS (&sum)[3], std::size_t at) {
  const DS ds;
  const std::size_t end = job.nodesU * job.nodesV * job.depths;  // the output's WaterVelocity count
  btScalar* out = at + hn::Lanes(ds) <= end ? job.velocities_mps + 3 * at : l.spill;
  hn::StoreInterleaved3(sum[0], sum[1], sum[2], ds, out);
  if (out == l.spill) std::copy_n(l.spill, 3 * (end - at), job.velocities_mps + 3 * at);
}

/// The same with depths in lanes, node by node, each vector of depths
/// stored interleaved in place: a vector past the node's depths runs on
/// into the next nodes' (written after it); past the output's end it
/// spills (storeVelocities).
template <std::size_t Bands>
struct EachNode {
  static HWY_INLINE void run(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node);
};

template <std::size_t Bands>
HWY_INLINE void EachNode<Bands>::run(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds), padded = spectralGridPadded(job.depths);
  for (std::size_t k = 0; k < count; ++k) {
    const btScalar* band = l.lanes + k;
    for (std::size_t m = 0; m < job.depths; m += lanes) {
      VS sum[3] = {hn::Zero(ds), hn::Zero(ds), hn::Zero(ds)};
      for (std::size_t b = 0; b < Bands; ++b) {
        const VS decay = hn::LoadU(ds, job.decay + b * padded + m);
        for (std::size_t axis = 0; axis < 3; ++axis)
          sum[axis] = hn::Add(sum[axis], hn::Mul(decay, hn::Set(ds, band[(3 * b + axis) * kSpectralGridLanes])));
      }
      storeVelocities(job, l, sum, (node + k) * job.depths + m);
    }
  }
}

/// `sums(job, l, count, node)` for `job.bands` bands, the band count a
/// constant of `Sums` (the sums unrolled).
template <template <std::size_t> class Sums>
HWY_INLINE void withBands(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  switch (job.bands) {
    case 1: return Sums<1>::run(job, l, count, node);
    case 2: return Sums<2>::run(job, l, count, node);
    case 3: return Sums<3>::run(job, l, count, node);
    case 4: return Sums<4>::run(job, l, count, node);
    case 5: return Sums<5>::run(job, l, count, node);
    case 6: return Sums<6>::run(job, l, count, node);
    case 7: return Sums<7>::run(job, l, count, node);
    default: return Sums<8>::run(job, l, count, node);  // SpectralOceanSettings: 1 to 8
  }
}

/// depthsOfEachNode for any band count.
HWY_INLINE void depthsOfEachNode(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  withBands<EachNode>(job, l, count, node);
}

/// depthsOfEachNode, called rather than inlined: the small grids' rows
/// (spectral_small_grid-inl.hpp) take it only for many depths, which a far
/// boat never asks.
HWY_NOINLINE void depthsOfEachNodeCall(const SpectralGridJob& job, const Layout& l, std::size_t count,
                                       std::size_t node) {
  depthsOfEachNode(job, l, count, node);
}

using DI = hn::RebindToSigned<DS>;  // the lanes' indices, as wide as btScalar

/// The nodes of depthRuns' lanes (job.depths at most a vector's lanes):
/// lane k of vector v from node `(v lanes + k) / depths` of the run, into
/// l.runNode as integers' bits, once a job. Small whole numbers, the
/// floor of their quotient exact.
void layRunNodes(const SpectralGridJob& job, const Layout& l) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds);
  const VS depths = hn::Set(ds, btScalar(job.depths));
  for (std::size_t v = 0; v < job.depths; ++v) {
    const VS node = hn::Floor(hn::Div(hn::Iota(ds, btScalar(v * lanes)), depths));
    hn::StoreU(hn::BitCast(ds, hn::ConvertTo(DI(), node)), ds, l.runNode + v * lanes);
  }
}

/// The velocities of `count` nodes from `node` at every depth (at most a
/// vector's lanes of them), from their bands' (l.lanes), as the output
/// holds them: the nodes' velocities follow one another, a node's depths
/// in a row, so lane k of the output's vector from velocity p is node
/// `(p + k) / depths`'s (layRunNodes) at depth `(p + k) % depths`: its
/// bands' values moved into the lane, times the depth's decays
/// (job.runDecay). Each sum is depthsOfEachNode's (from zero, the bands in
/// order): the same bits, with no lane left empty where a node's depths
/// fill less than a vector. A vector past the nodes' velocities runs on
/// into the next nodes' (written after it; its lanes there the last
/// node's sums); past the output's end it spills (storeVelocities).
template <std::size_t Bands>
struct Runs {
  static HWY_INLINE void run(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node);
};

template <std::size_t Bands>
HWY_INLINE void Runs<Bands>::run(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  const DS ds;
  const std::size_t lanes = hn::Lanes(ds), total = count * job.depths, run = kSpectralGridLanes * (job.depths + 1);
  const std::size_t first = node * job.depths;
  const auto last = hn::Set(DI(), hn::TFromD<DI>(count - 1));
  for (std::size_t p = 0; p < total; p += lanes) {
    const auto lane = hn::IndicesFromVec(ds, hn::Min(hn::BitCast(DI(), hn::LoadU(ds, l.runNode + p)), last));
    VS sum[3] = {hn::Zero(ds), hn::Zero(ds), hn::Zero(ds)};
    for (std::size_t b = 0; b < Bands; ++b) {
      const VS decay = hn::LoadU(ds, job.runDecay + b * run + p);
      for (std::size_t axis = 0; axis < 3; ++axis) {
        const VS band = hn::TableLookupLanes(hn::LoadU(ds, l.lanes + (3 * b + axis) * kSpectralGridLanes), lane);
        sum[axis] = hn::Add(sum[axis], hn::Mul(decay, band));
      }
    }
    storeVelocities(job, l, sum, first + p);
  }
}

/// depthRuns for any band count.
HWY_INLINE void depthRuns(const SpectralGridJob& job, const Layout& l, std::size_t count, std::size_t node) {
  withBands<Runs>(job, l, count, node);
}
