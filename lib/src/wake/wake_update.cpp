// WakeField::update's work: the boats' sources spread on the grid and
// transformed, each mode advanced exactly over the frame, the tiles
// synthesised, and the absorbing band applied (docs/wakes.md, "The model").
#include "hull/hull_access.hpp"
#include "math/det_math.hpp"
#include "math/parallel.hpp"
#include "wake/wake_data.hpp"
#include "wake/wake_exp.hpp"

#include <algorithm>
#include <cmath>

namespace keel::KEEL_ABI::detail {
namespace {

constexpr FftComplex kZero{0, 0};

/// Where a source spreads this update, and its rate into each band: the
/// source's place halfway through the update (the sources held over it act
/// as the midpoint rule's, docs/wakes.md "Time", not half a frame behind the
/// hull) and `Q e^{-k_b d} / cell^2` [m/s]; nowhere when outside the window
/// or not finite.
void placeSource(const WakeFieldData& d, const WakeWindow& window, double dt_s, const WakeSource& s, NodeWeights& place,
                 double* rate) {
  const double east = s.east_m + double(s.eastVelocity_mps) * (dt_s / 2);
  const double north = s.north_m + double(s.northVelocity_mps) * (dt_s / 2);
  place = NodeWeights{};
  if (s.rate_m3ps == 0 || !window.contains(east, north) || !std::isfinite(double(s.rate_m3ps)) ||
      !std::isfinite(double(s.depth_m)))
    return;
  place = bilinearNodes(d, d.westEdge_m, d.southEdge_m, east, north);
  const double perArea = 1.0 / (d.cell_m * d.cell_m);
  for (int b = 0; b < d.bands; ++b) rate[b] = double(s.rate_m3ps) * perArea * rate[b];
}

/// Each live boat's link, and each of its sources' place and band rates
/// (`d.sourcePlace`, `d.sourceRate`), the boats in parallel (each source's
/// are a function of the source alone).
void placeSources(WakeFieldData& d, double dt_s) {
  std::erase_if(d.boats, [](const std::weak_ptr<WakeLink>& w) { return w.expired(); });
  d.live.clear();
  d.firstSource.clear();
  std::size_t count = 0;
  for (const std::weak_ptr<WakeLink>& weak : d.boats) {
    d.live.push_back(weak.lock());
    d.firstSource.push_back(count);
    count += d.live.back()->sources.count;
  }
  const std::size_t bands = std::size_t(d.bands);
  if (d.sourceRate.size() < count * bands) d.sourceRate.resize(count * bands);
  if (d.sourcePlace.size() < count) d.sourcePlace.resize(count);
  const WakeWindow window = d.window();
  parallelFor(std::size_t(0), d.live.size(), [&](std::size_t boat) {
    WakeLink& link = *d.live[boat];
    link.window = window;
    double* rates = d.sourceRate.data() + d.firstSource[boat] * bands;
    double* exponent = rates;
    const btScalar* depths = link.sources.planes[kPieceDepth].data();
    for (std::size_t i = 0; i < link.sources.count; ++i) {
      const double depth = std::max(0.0, double(depths[i]));
      for (std::size_t b = 0; b < bands; ++b) *exponent++ = -d.bandK_radpm[b] * depth;
    }
    expInPlace(rates, std::size_t(exponent - rates));  // e^{-k_b d}
    NodeWeights* place = d.sourcePlace.data() + d.firstSource[boat];
    const WakeSources& s = link.sources;
    // The whole triangles' centroids and area vectors are the hull's, the
    // cut pieces' their own planes'.
    const HullSoA& hull = soaOf(*link.hull);
    const btScalar *gx = hull.gx.data(), *gy = hull.gy.data(), *gz = hull.gz.data();
    const btScalar *sx = hull.sx.data(), *sy = hull.sy.data(), *sz = hull.sz.data();
    const std::uint32_t* triangle = s.triangle.data();
    for (std::size_t i = 0; i < s.triangles; ++i, rates += bands) {
      const std::size_t t = triangle[i];
      placeSource(d, window, dt_s, sourceAt(s, {gx[t], gy[t], gz[t]}, {sx[t], sy[t], sz[t]}, depths[i]), *place++,
                  rates);
    }
    const btScalar *px = s.planes[kPieceX].data(), *py = s.planes[kPieceY].data(), *pz = s.planes[kPieceZ].data();
    const btScalar *ax = s.planes[kAreaX].data(), *ay = s.planes[kAreaY].data(), *az = s.planes[kAreaZ].data();
    for (std::size_t i = s.triangles; i < s.count; ++i, rates += bands)
      placeSource(d, window, dt_s, sourceAt(s, {px[i], py[i], pz[i]}, {ax[i], ay[i], az[i]}, depths[i]), *place++,
                  rates);
  });
}

/// Spreads each registered boat's sources on the nodes around them
/// (bilinear: the transpose of the queries' interpolation, so that what a
/// source puts in and what a point at its place feels pair exactly), one
/// real field per depth band: field 2p in the real parts of buffer p,
/// 2p + 1 in the imaginary parts [m/s], source by source in the boats'
/// order. Marks the rows of nodes that hold a source in `d.rowUsed`.
void spreadSources(WakeFieldData& d, double dt_s) {
  const std::size_t pairs = std::size_t(d.bands + 1) / 2;
  for (std::size_t p = 0; p < pairs; ++p) std::fill(d.work[p].begin(), d.work[p].end(), kZero);
  std::fill(d.rowUsed.begin(), d.rowUsed.end(), std::uint8_t(0));
  placeSources(d, dt_s);
  const std::size_t count = d.live.empty() ? 0 : d.firstSource.back() + d.live.back()->sources.count;
  const double* rate = d.sourceRate.data();
  for (std::size_t i = 0; i < count; ++i, rate += d.bands) {
    const NodeWeights& p = d.sourcePlace[i];
    if (!p.inside) continue;
    d.rowUsed[p.at[0] / std::size_t(d.n)] = d.rowUsed[p.at[2] / std::size_t(d.n)] = 1;
    for (int b = 0; b < d.bands; ++b) {
      std::vector<FftComplex>& field = d.work[std::size_t(b / 2)];
      for (int c = 0; c < 4; ++c) {
        float& slot = (b % 2 == 0) ? field[p.at[c]].r : field[p.at[c]].i;
        slot += float(rate[b] * p.w[c]);
      }
    }
  }
  d.live.clear();  // the boats' lifetimes stay theirs
}

/// The real field packed in the real (even) or imaginary (odd) part of
/// `c`, at the mode: `(C(k) + conj C(-k)) / 2`, or `(C(k) - conj C(-k)) / 2i`.
FftComplex unpack(const std::vector<FftComplex>& c, const WakeMode& m, bool odd) {
  const FftComplex a = c[m.index], b = c[m.mirror];
  if (!odd) return {(a.r + b.r) / 2, (a.i - b.i) / 2};
  return {(a.i + b.i) / 2, -(a.r - b.r) / 2};
}

/// The sources' rate per mode, `d.forcing` [m/s] (Fourier-series
/// coefficients, zero outside the modes held).
void transformSources(WakeFieldData& d) {
  const std::size_t pairs = std::size_t(d.bands + 1) / 2;
  parallelFor(std::size_t(0), pairs,
              [&](std::size_t p) { d.fft.forward(d.work[p].data(), d.scratch[p], d.rowUsed.data()); });
  const float scale = 1.0F / float(d.nodes());
  for (const WakeMode& m : d.modes) {
    const FftComplex s = unpack(d.work[m.band / 2U], m, m.band % 2U == 1);
    d.forcing[m.index] = {s.r * scale, s.i * scale};
  }
}

void cacheStep(WakeFieldData& d, double dt_s) {
  if (dt_s == d.dtCached_s) return;
  for (std::size_t q = 0; q < d.modes.size(); ++q) {
    const det::SinCos sc = det::sinCos(double(d.modes[q].omega_radps) * dt_s);
    d.cosStep[q] = float(sc.cosine);
    d.sinStep[q] = float(sc.sine);
  }
  d.dtCached_s = dt_s;
}

/// Each mode advanced by `dt_s` [s] exactly, with the sources' rate S held:
/// `eta' = k phi + S`, `phi' = -g eta` rotate about (0, -S / k) at omega.
void evolve(WakeFieldData& d, double dt_s, bool forced) {
  if (dt_s <= 0) return;
  cacheStep(d, dt_s);
  const float g = float(d.settings.gravity_mps2);
  for (std::size_t q = 0; q < d.modes.size(); ++q) {
    const WakeMode& m = d.modes[q];
    const float c = d.cosStep[q], s = d.sinStep[q];
    const float kOverW = m.k_radpm / m.omega_radps, gOverW = g / m.omega_radps;
    FftComplex& eta = d.eta[m.index];
    FftComplex& phi = d.phi[m.index];
    const FftComplex rest = forced ? FftComplex{-d.forcing[m.index].r / m.k_radpm, -d.forcing[m.index].i / m.k_radpm}
                                   : kZero;
    const FftComplex dphi{phi.r - rest.r, phi.i - rest.i};
    const FftComplex e0 = eta;
    eta = {c * e0.r + kOverW * s * dphi.r, c * e0.i + kOverW * s * dphi.i};
    phi = {rest.r + c * dphi.r - gOverW * s * e0.r, rest.i + c * dphi.i - gOverW * s * e0.i};
  }
}

/// Each band's elevation and potential in space, into `t` (not yet absorbed).
void synthesise(WakeFieldData& d, WakeTiles& t) {
  const std::size_t nodes = d.nodes();
  parallelFor(0, d.bands, [&](int b) {
    std::vector<FftComplex>& buf = d.work[std::size_t(b)];
    std::fill(buf.begin(), buf.end(), kZero);
    for (const WakeMode& m : d.modes) {
      if (int(m.band) != b) continue;
      const FftComplex e = d.eta[m.index], p = d.phi[m.index];
      buf[m.index] = {e.r - p.i, e.i + p.r};  // eta + i phi: two real fields in one transform
    }
    d.fft.inverse(buf.data(), d.scratch[std::size_t(b)]);
    float* h = t.bandHeight_m.data() + std::size_t(b) * nodes;
    float* f = t.bandPotential_m2ps.data() + std::size_t(b) * nodes;
    for (std::size_t i = 0; i < nodes; ++i) {
      h[i] = buf[i].r;
      f[i] = buf[i].i;
    }
  });
}

/// The absorbing band: every node's elevation and potential times
/// `e^{-sigma dt}`, sigma rising as the square of the depth into the band
/// (a sponge layer: Israeli & Orszag, J. Comput. Phys. 41, 1981); the
/// state becomes the absorbed field's transform, and `t` holds it in space.
void absorb(WakeFieldData& d, double dt_s, WakeTiles& t) {
  const std::size_t n = std::size_t(d.n), nodes = d.nodes();
  std::vector<double>& keep = d.spongeKeep;
  for (std::size_t i = 0; i < n; ++i) keep[i] = det::exp(-d.spongeRate_ps[i] * dt_s);
  std::vector<FftComplex>& sum = d.work[std::size_t(d.bands)];
  // Rows in parallel: each node its own.
  parallelFor(
      std::size_t(0), n,
      [&](std::size_t j) {
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t node = j * n + i;
          const float m = float(keep[i] * keep[j]);
          float height = 0, potential = 0;
          for (int b = 0; b < d.bands; ++b) {
            float& h = t.bandHeight_m[std::size_t(b) * nodes + node];
            float& f = t.bandPotential_m2ps[std::size_t(b) * nodes + node];
            h *= m;
            f *= m;
            height += h;
            potential += f;
          }
          t.height_m[node] = height;
          sum[node] = {height, potential};
        }
      },
      16);
  d.fft.forward(sum.data(), d.scratch[std::size_t(d.bands)]);
  const float scale = 1.0F / float(nodes);
  for (const WakeMode& m : d.modes) {
    const FftComplex e = unpack(sum, m, false), p = unpack(sum, m, true);
    d.eta[m.index] = {e.r * scale, e.i * scale};
    d.phi[m.index] = {p.r * scale, p.i * scale};
  }
}

/// The state re-expressed about the window's new corner (a whole number of
/// cells away): each mode times `e^{i k . shift}`.
void moveWindow(WakeFieldData& d) {
  const long long si = std::llround((d.wantedWest_m - d.westEdge_m) / d.cell_m);
  const long long sj = std::llround((d.wantedSouth_m - d.southEdge_m) / d.cell_m);
  if (si == 0 && sj == 0) return;
  const long long n = d.n;
  for (const WakeMode& m : d.modes) {
    const long long i = d.fft.signedIndex(int(m.index % std::uint32_t(n)));
    const long long j = d.fft.signedIndex(int(m.index / std::uint32_t(n)));
    const std::size_t p = std::size_t((((i * si + j * sj) % n) + n) % n);
    const float c = float(d.twiddleCos[p]), s = float(d.twiddleSin[p]);
    for (FftComplex* z : {&d.eta[m.index], &d.phi[m.index]}) *z = {c * z->r - s * z->i, s * z->r + c * z->i};
  }
  d.westEdge_m += double(si) * d.cell_m;
  d.southEdge_m += double(sj) * d.cell_m;
}

/// The tiles at the state's time and window, absorbed by nothing (the state
/// already is): for a field that ran free to a later `from`.
void tilesOfState(WakeFieldData& d, WakeTiles& t) {
  synthesise(d, t);
  const std::size_t nodes = d.nodes();
  for (std::size_t i = 0; i < nodes; ++i) {
    float h = 0;
    for (int b = 0; b < d.bands; ++b) h += t.bandHeight_m[std::size_t(b) * nodes + i];
    t.height_m[i] = h;
  }
  t.time_s = d.time_s;
  t.westEdge_m = d.westEdge_m;
  t.southEdge_m = d.southEdge_m;
}

}  // namespace

double WakeFieldData::energy_J() const {
  const double g = settings.gravity_mps2;
  double sum = 0;
  for (const WakeMode& m : modes) {
    const FftComplex e = eta[m.index], p = phi[m.index];
    sum += g * (double(e.r) * e.r + double(e.i) * e.i) + double(m.k_radpm) * (double(p.r) * p.r + double(p.i) * p.i);
  }
  const double size = double(n) * cell_m;
  return 0.5 * settings.waterDensity_kgpm3 * size * size * sum;
}

void advanceField(WakeFieldData& d, double from_s, double to_s) {
  if (!d.started) {
    d.started = true;
    d.time_s = from_s;
    for (WakeTiles& t : d.tiles) t.time_s = from_s;
  }
  moveWindow(d);
  if (d.to().time_s != from_s || d.time_s != from_s) {  // the field ran free since its last update
    evolve(d, from_s - d.time_s, false);
    d.time_s = from_s;
    tilesOfState(d, d.tiles[std::size_t(d.published)]);
  }
  spreadSources(d, to_s - from_s);
  transformSources(d);
  const double before = d.energy_J();
  evolve(d, to_s - from_s, true);
  const double evolved = d.energy_J();
  d.sourceWork_J += evolved - before;
  WakeTiles& next = d.tiles[std::size_t(1 - d.published)];
  synthesise(d, next);
  absorb(d, to_s - from_s, next);
  d.absorbed_J += evolved - d.energy_J();
  next.time_s = to_s;
  next.westEdge_m = d.westEdge_m;
  next.southEdge_m = d.southEdge_m;
  d.published = 1 - d.published;
  d.time_s = to_s;
}

}  // namespace keel::KEEL_ABI::detail
