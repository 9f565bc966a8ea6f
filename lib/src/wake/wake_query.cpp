// keel::WakeField's queries: the ambient surface's answers plus the
// field's, interpolated bilinearly in space (the transpose of how the
// sources are spread, wake_update.cpp) and linearly in time between the
// tiles at the update's start and end (docs/wakes.md, "Queries").
#include <keel/surface_authoring.hpp>

#include "grow.hpp"
#include "math/det_math.hpp"
#include "wake/wake_data.hpp"
#include "wake/wake_exp.hpp"
#include "wake/wake_query.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace detail {
namespace {

NodeWeights nodesOf(const WakeFieldData& d, const WakeTiles& t, double east_m, double north_m) {
  return bilinearNodes(d, t.westEdge_m, t.southEdge_m, east_m, north_m);
}

double interpolate(const NodeWeights& p, const float* tile) {
  return p.w[0] * tile[p.at[0]] + p.w[1] * tile[p.at[1]] + p.w[2] * tile[p.at[2]] + p.w[3] * tile[p.at[3]];
}

/// The tiles' nodes around a point: those of the update's start and end
/// tiles, the same unless the window moved between them.
struct PointNodes {
  NodeWeights from, to;
};

PointNodes pointNodes(const WakeFieldData& d, double east_m, double north_m) {
  PointNodes p;
  p.to = nodesOf(d, d.to(), east_m, north_m);
  const bool same = d.from().westEdge_m == d.to().westEdge_m && d.from().southEdge_m == d.to().southEdge_m;
  p.from = same ? p.to : nodesOf(d, d.from(), east_m, north_m);
  return p;
}

double wakeHeight(const WakeFieldData& d, double east_m, double north_m, double alpha) {
  const PointNodes p = pointNodes(d, east_m, north_m);
  double h = 0;
  if (alpha < 1 && p.from.inside) h += (1 - alpha) * interpolate(p.from, d.from().height_m.data());
  if (alpha > 0 && p.to.inside) h += alpha * interpolate(p.to, d.to().height_m.data());
  return h;
}

/// Per band at a point: the elevation, the potential's gradient and the
/// elevation's rate, blended in time.
struct BandWater {
  double height = 0, east = 0, north = 0, up = 0;
};

void addBands(const WakeFieldData& d, const WakeTiles& t, const NodeWeights& p, double weight, double rateSign,
              double rateScale, BandWater* out) {
  if (!p.inside) return;
  const std::size_t nodes = d.nodes();
  for (int b = 0; b < d.bands; ++b) {
    const float* h = t.bandHeight_m.data() + std::size_t(b) * nodes;
    const float* f = t.bandPotential_m2ps.data() + std::size_t(b) * nodes;
    const double height = interpolate(p, h);
    const double dEast = ((1 - p.fy) * (f[p.at[1]] - f[p.at[0]]) + p.fy * (f[p.at[3]] - f[p.at[2]])) / d.cell_m;
    const double dNorth = ((1 - p.fx) * (f[p.at[2]] - f[p.at[0]]) + p.fx * (f[p.at[3]] - f[p.at[1]])) / d.cell_m;
    BandWater& o = out[b];
    o.height += weight * height;
    o.east += weight * dEast;
    o.north += weight * dNorth;
    o.up += rateSign * rateScale * height;
  }
}

/// The field's bands at a point and time.
void bandsAt(const WakeFieldData& d, double east_m, double north_m, double t_s, BandWater* out) {
  for (int b = 0; b < d.bands; ++b) out[b] = {};
  const double alpha = endWeight(d, t_s), span = d.to().time_s - d.from().time_s;
  const double rate = span > 0 ? 1 / span : 0;
  const PointNodes p = pointNodes(d, east_m, north_m);
  addBands(d, d.from(), p.from, 1 - alpha, -1, rate, out);
  addBands(d, d.to(), p.to, alpha, 1, rate, out);
}

/// The field's elevation [m]: its bands' summed.
double summedHeight(const WakeFieldData& d, const BandWater* bands) {
  double wake = 0;
  for (int b = 0; b < d.bands; ++b) wake += bands[b].height;
  return wake;
}

/// The field's velocity [m/s] and its linear pressure head [m] from the
/// bands at a point, each band decayed by `decay` (bandDecays()).
void fieldWater(const WakeFieldData& d, const BandWater* bands, const double* decay, WaterVelocity* velocity,
                double* head) {
  double e = 0, n = 0, u = 0, p = 0;
  for (int b = 0; b < d.bands; ++b) {
    e += decay[b] * bands[b].east;
    n += decay[b] * bands[b].north;
    u += decay[b] * bands[b].up;
    p += decay[b] * bands[b].height;
  }
  if (velocity != nullptr) {
    velocity->east_mps += btScalar(e);
    velocity->north_mps += btScalar(n);
    velocity->up_mps += btScalar(u);
  }
  if (head != nullptr) *head += p;
}

/// The field's bands at `count` points and their decays at each point's
/// depth, kChunk points at a time so that the decays' exponentials run
/// several at once: `depthOf(i, wake)` gives point i's height z [m] above
/// the surface from the field's elevation there [m], `use(i, bands,
/// decay)` takes the point's bands and decays (bandDecays()'s values).
template <class DepthOf, class Use>
void fieldAtPoints(const WakeFieldData& d, const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                   DepthOf depthOf, Use use) {
  constexpr std::size_t kChunk = 64;
  std::array<std::array<BandWater, kMaxDepthBands>, kChunk> bands;
  std::array<double, kChunk * kMaxDepthBands> decay;
  const std::size_t perPoint = std::size_t(d.bands);
  for (std::size_t first = 0; first < count; first += kChunk) {
    const std::size_t chunk = std::min(kChunk, count - first);
    for (std::size_t k = 0; k < chunk; ++k) {
      bandsAt(d, u_m[first + k], v_m[first + k], t_s, bands[k].data());
      const double z = std::min(depthOf(first + k, summedHeight(d, bands[k].data())), 0.0);
      for (std::size_t b = 0; b < perPoint; ++b) decay[k * perPoint + b] = d.bandK_radpm[b] * z;
    }
    expInPlace(decay.data(), chunk * perPoint);
    for (std::size_t k = 0; k < chunk; ++k) use(first + k, bands[k].data(), decay.data() + k * perPoint);
  }
}

/// Grow-only scratch of this thread, for the ambient heights the depth needs.
std::vector<btScalar>& threadHeights(std::size_t count) {
  thread_local std::vector<btScalar> heights;
  if (heights.size() < count) heights.resize(count);
  return heights;
}

}  // namespace

double endWeight(const WakeFieldData& d, double t_s) {
  const double t0 = d.from().time_s, t1 = d.to().time_s;
  if (!(t1 > t0)) return 1;
  return std::clamp((t_s - t0) / (t1 - t0), 0.0, 1.0);
}

void requireFiniteTime(double t_s) {
  if (!std::isfinite(t_s)) throw std::invalid_argument("keel::WakeField: the query time must be finite");
}

void bandDecays(const WakeFieldData& d, double z_m, double* out) {
  for (int b = 0; b < d.bands; ++b) out[b] = det::exp(d.bandK_radpm[std::size_t(b)] * std::min(z_m, 0.0));
}

void DepthDecays::update(const WakeFieldData& d, std::span<const double> depthsAsked_m, std::size_t bandCount,
                         std::size_t padded) {
  const std::size_t levels = depthsAsked_m.size();
  if (bands == bandCount && std::equal(d.bandK_radpm.begin(), d.bandK_radpm.end(), k_radpm.begin()) &&
      std::equal(depthsAsked_m.begin(), depthsAsked_m.end(), depths_m.begin(), depths_m.end()))
    return;
  bands = bandCount;
  k_radpm = d.bandK_radpm;
  depths_m.assign(depthsAsked_m.begin(), depthsAsked_m.end());  // grows to the most depths asked, then stays
  growTo(table, bands * padded);
  std::array<double, kMaxDepthBands> decay{};
  for (std::size_t m = 0; m < padded; ++m) {
    if (m < levels) bandDecays(d, -depthsAsked_m[m], decay.data());
    for (std::size_t b = 0; b < bands; ++b) table[b * padded + m] = m < levels ? btScalar(decay[b]) : btScalar(0);
  }
}

}  // namespace detail

btScalar WakeField::wakeHeight_m(btScalar east_m, btScalar north_m, double t_s) const {
  detail::requireFiniteTime(t_s);
  return btScalar(detail::wakeHeight(*data_, east_m, north_m, detail::endWeight(*data_, t_s)));
}

btScalar WakeField::height(btScalar u_m, btScalar v_m, double t_s) const {
  return data_->ambient->height(u_m, v_m, t_s) + wakeHeight_m(u_m, v_m, t_s);
}

void WakeField::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                        btScalar* out_m) const {
  detail::requireFiniteTime(t_s);
  data_->ambient->heights(u_m, v_m, count, t_s, out_m);
  const double alpha = detail::endWeight(*data_, t_s);
  for (std::size_t i = 0; i < count; ++i) out_m[i] += btScalar(detail::wakeHeight(*data_, u_m[i], v_m[i], alpha));
}

WaterVelocity WakeField::velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  btScalar height = 0;
  WaterVelocity v;
  heightsAndVelocities(&u_m, &v_m, &w_m, 1, t_s, &height, &v);
  return v;
}

void WakeField::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                           WaterVelocity* out) const {
  heightsAndVelocities(u_m, v_m, w_m, count, t_s, detail::threadHeights(count).data(), out);
}

void WakeField::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                     double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const {
  detail::requireFiniteTime(t_s);
  const detail::WakeFieldData& d = *data_;
  d.ambient->heightsAndVelocities(u_m, v_m, w_m, count, t_s, height_out_m, velocity_out);
  detail::fieldAtPoints(
      d, u_m, v_m, count, t_s,
      [&](std::size_t i, double wake) {
        height_out_m[i] += btScalar(wake);
        return double(w_m[i]) - double(height_out_m[i]);
      },
      [&](std::size_t i, const detail::BandWater* bands, const double* decay) {
        detail::fieldWater(d, bands, decay, velocity_out + i, nullptr);
      });
}

void WakeField::pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                              double t_s, btScalar* out_m) const {
  detail::requireFiniteTime(t_s);
  const detail::WakeFieldData& d = *data_;
  d.ambient->pressureHeads(u_m, v_m, w_m, count, t_s, out_m);
  std::vector<btScalar>& ambientHeights = detail::threadHeights(count);
  d.ambient->heights(u_m, v_m, count, t_s, ambientHeights.data());
  detail::fieldAtPoints(
      d, u_m, v_m, count, t_s,
      [&](std::size_t i, double wake) { return double(w_m[i]) - double(ambientHeights[i]) - wake; },
      [&](std::size_t i, const detail::BandWater* bands, const double* decay) {
        double head = 0;
        detail::fieldWater(d, bands, decay, nullptr, &head);
        out_m[i] += btScalar(head);
      });
}

}  // namespace keel::KEEL_ABI
