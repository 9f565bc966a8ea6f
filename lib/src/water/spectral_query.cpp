// keel::SpectralOcean's queries: the fixed-point tiles interpolated directly,
// or the surface particle above a fixed point found by Newton's method on the
// interpolated displacement tile (as GerstnerSurface solves its sums); the
// tiles interpolated in space (bilinear or Catmull-Rom) and in time (cubic
// Hermite). docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "math/det_math.hpp"
#include "water/spectral_detail.hpp"
#include "water/spectral_solve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace detail {

Stencil SpectralOceanState::stencilOn(double x_m, double y_m, bool cubic, int n, double inverseCell_pm) {
  Stencil s{};
  s.first = cubic ? 0 : 1;
  s.last = cubic ? 4 : 3;
  // One axis: the node at or below the point, its fraction a, the 4 nodes
  // around it (periodic) and their weights: linear, or Catmull-Rom's cubic
  // convolution (Keys, IEEE Trans. ASSP 29(6), 1981) and their derivatives.
  const auto axis = [&](double f, std::array<std::size_t, 4>& index, std::array<double, 4>& w, std::array<double, 4>& d,
                        std::size_t stride) {
    // Inside the tile (most calls: the resampling's nodes), f itself: the
    // same value, f / n < 1 there, without the division.
    const double wrapped = f >= 0 && f < double(n) ? f : f - double(n) * std::floor(f / double(n));
    const double clamped = std::isnan(wrapped) ? 0.0 : std::clamp(wrapped, 0.0, double(n));
    const int i = std::min(int(clamped), n - 1);
    const double a = std::isnan(wrapped) ? wrapped : std::min(clamped - double(i), 1.0);
    for (int k = 0; k < 4; ++k) {
      const int wrappedIndex = i + k - 1 < 0 ? i + k - 1 + n : (i + k - 1 >= n ? i + k - 1 - n : i + k - 1);
      index[std::size_t(k)] = std::size_t(wrappedIndex) * stride;
    }
    const double g = inverseCell_pm;
    if (!cubic) {
      w = {0, 1 - a, a, 0};
      d = {0, -g, g, 0};
      return;
    }
    const double a2 = a * a, a3 = a2 * a;
    w = {0.5 * (-a3 + 2 * a2 - a), 0.5 * (3 * a3 - 5 * a2 + 2), 0.5 * (-3 * a3 + 4 * a2 + a), 0.5 * (a3 - a2)};
    d = {g * 0.5 * (-3 * a2 + 4 * a - 1), g * 0.5 * (9 * a2 - 10 * a), g * 0.5 * (-9 * a2 + 8 * a + 1),
         g * 0.5 * (3 * a2 - 2 * a)};
  };
  axis(x_m * inverseCell_pm, s.column, s.wx, s.dx, 1);
  axis(y_m * inverseCell_pm, s.row, s.wy, s.dy, std::size_t(n));
  return s;
}

}  // namespace detail

namespace {

using detail::snapshotAt;

// Newton stops when |x(x0) - x| is below this [m]: the height then errs by
// the surface's slope times it, far below the interpolation's error.
constexpr double kResidualTolerance_m = 1e-6;

using detail::Snapshot;
using detail::Stencil;
using detail::Sums;
using detail::TimeWeights;

Sums evaluate(const Snapshot& s, bool cubic, double x0, double y0, double x, double y) {
  const Stencil st = s.state->stencilAt(x0, y0, cubic);
  const TimeWeights& t = s.weights;
  const auto& n0 = s.level0->surface;
  const auto& n1 = s.level1->surface;
  double v[2] = {0, 0}, ddx[2] = {0, 0}, ddy[2] = {0, 0};
  for (int j = st.first; j < st.last; ++j) {
    for (int i = st.first; i < st.last; ++i) {
      const std::size_t k = st.row[std::size_t(j)] + st.column[std::size_t(i)];
      const detail::SurfaceNode& p = n0[k];
      const detail::SurfaceNode& q = n1[k];
      const double node[2] = {
          s.single ? double(p.east_m)
                   : double(t.value0 * p.east_m + t.value1 * q.east_m + t.slope0 * p.east_mps + t.slope1 * q.east_mps),
          s.single
              ? double(p.north_m)
              : double(t.value0 * p.north_m + t.value1 * q.north_m + t.slope0 * p.north_mps + t.slope1 * q.north_mps)};
      const double w = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double wdx = st.dx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double wdy = st.wx[std::size_t(i)] * st.dy[std::size_t(j)];
      for (int f = 0; f < 2; ++f) {
        v[f] += w * node[f];
        ddx[f] += wdx * node[f];
        ddy[f] += wdy * node[f];
      }
    }
  }
  return {st, x0 + v[0] - x, y0 + v[1] - y, 1 + ddx[0], ddy[0], ddx[1], 1 + ddy[1]};
}

/// An elevation tile (a level's `surface` or `fixed` nodes, each with
/// elevation_m and its time derivative elevation_mps) interpolated with
/// stencil `st`, the two levels blended in time by the Hermite weights [m].
template <class Node>
double elevationAt(const Snapshot& s, const Stencil& st, const std::vector<Node>& tile0,
                   const std::vector<Node>& tile1) {
  const TimeWeights& t = s.weights;
  double sum = 0;
  for (int j = st.first; j < st.last; ++j)
    for (int i = st.first; i < st.last; ++i) {
      const std::size_t k = st.row[std::size_t(j)] + st.column[std::size_t(i)];
      sum += st.wx[std::size_t(i)] * st.wy[std::size_t(j)] *
             double(
                 t.hermite(tile0[k].elevation_m, tile1[k].elevation_m, tile0[k].elevation_mps, tile1[k].elevation_mps));
    }
  return sum;
}

/// The surface particle above a fixed point: its stencil and its elevation
/// above the mean level [m].
struct Particle {
  Stencil stencil;
  double elevation_m;
};

/// Fixed-point tiles: the stencil of the point itself. Otherwise solves
/// x0 + D(x0) = x from x0 = x on the rest-position tiles' interpolant.
/// (Solving on the bilinear interpolant first, then finishing on the bicubic
/// one, costs more instructions than the bicubic solve alone: callgrind over
/// keel_bench_waves' spectralHeights/mode:2.)
Particle particleAbove(const Snapshot& s, double x, double y) {
  const bool cubic = s.state->settings.interpolation == SpectralInterpolation::Bicubic;
  if (s.state->fixedPoints()) {
    const Stencil st = s.state->fixedStencilAt(x, y, cubic);
    return {st, elevationAt(s, st, s.level0->fixed, s.level1->fixed)};
  }
  double x0 = x, y0 = y;
  const Sums sums = detail::solveRestPosition(s, cubic, x, y, kResidualTolerance_m, x0, y0);
  return {sums.stencil, elevationAt(s, sums.stencil, s.level0->surface, s.level1->surface)};
}

Particle particleAt(const Snapshot& s, btScalar u_m, btScalar v_m) {
  return particleAbove(s, double(u_m), double(v_m));
}

btScalar heightOf(const Snapshot& s, const Particle& p) {
  return btScalar(s.state->settings.meanLevel_m + p.elevation_m);
}

/// Sum over bands of `e^{k_b z}` times the band's interpolated vector, each
/// node's value blended in time by `blend(index)`, and each band's sum
/// scaled by `scale[b]` (none when null).
template <class Blend>
std::array<double, 3> bandSum(const Snapshot& s, const Stencil& st, double depth_m, Blend blend,
                              const double* scale = nullptr) {
  std::array<double, 3> sum{0, 0, 0};
  const std::vector<double>& k = s.state->waves.bandWavenumber_radpm;
  if (s.state->fixedPoints()) {
    // One pass over the stencil for every band's contiguous values (the
    // same sum in another order; the particle solve keeps its own bits).
    const std::size_t fields = 3 * s.bands;  // at most 24
    double band[24] = {};
    for (int j = st.first; j < st.last; ++j)
      for (int i = st.first; i < st.last; ++i) {
        const std::size_t node = (st.row[std::size_t(j)] + st.column[std::size_t(i)]) * fields;
        const double w = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
        for (std::size_t f = 0; f < fields; ++f) band[f] += w * blend(node + f);
      }
    for (std::size_t b = 0; b < s.bands; ++b) {
      const double decay = detail::det::exp(k[b] * depth_m) * (scale != nullptr ? scale[b] : 1.0);
      for (std::size_t axis = 0; axis < 3; ++axis) sum[axis] += decay * band[3 * b + axis];
    }
    return sum;
  }
  for (std::size_t b = 0; b < s.bands; ++b) {
    const double decay = detail::det::exp(k[b] * depth_m) * (scale != nullptr ? scale[b] : 1.0);
    double band[3] = {0, 0, 0};
    for (int j = st.first; j < st.last; ++j)
      for (int i = st.first; i < st.last; ++i) {
        const std::size_t node = st.row[std::size_t(j)] + st.column[std::size_t(i)];
        const double w = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
        for (std::size_t axis = 0; axis < 3; ++axis) band[axis] += w * blend((node * s.bands + b) * 3 + axis);
      }
    for (std::size_t axis = 0; axis < 3; ++axis) sum[axis] += decay * band[axis];
  }
  return sum;
}

double depthBelowSurface(const Snapshot& s, const Particle& p, double w_m) {
  return std::min(w_m - (s.state->settings.meanLevel_m + p.elevation_m), 0.0);
}

/// A level's band tiles, at rest positions or at fixed points. The
/// velocities' rate is their time derivative where the tiles are read: the
/// particle's acceleration at rest positions, less the advection at fixed
/// points (spectral_fixed_simd.cpp).
struct BandTiles {
  const std::vector<float>& velocity_mps;
  const std::vector<float>& acceleration_mps2;
  const std::vector<float>& elevation_m;
  const std::vector<float>& velocityRate_mps2;
};

BandTiles bandTiles(const Snapshot& s, const detail::SpectralLevel& l) {
  if (s.state->fixedPoints())
    return {l.fixedVelocity_mps, l.fixedAcceleration_mps2, l.fixedBandElevation_m, l.fixedVelocityRate_mps2};
  return {l.velocity_mps, l.acceleration_mps2, l.bandElevation_m, l.acceleration_mps2};
}

WaterVelocity velocityAt(const Snapshot& s, const Particle& p, double w_m) {
  const TimeWeights& t = s.weights;
  // The velocity tiles and their time derivatives.
  const BandTiles l0 = bandTiles(s, *s.level0), l1 = bandTiles(s, *s.level1);
  const std::vector<float>&v0 = l0.velocity_mps, &v1 = l1.velocity_mps;
  const std::vector<float>&a0 = l0.velocityRate_mps2, &a1 = l1.velocityRate_mps2;
  const auto v = bandSum(s, p.stencil, depthBelowSurface(s, p, w_m), [&](std::size_t i) {
    return double(t.value0 * v0[i] + t.value1 * v1[i] + t.slope0 * a0[i] + t.slope1 * a1[i]);
  });
  return {btScalar(v[0]), btScalar(v[1]), btScalar(v[2])};
}

/// The accelerations are blended linearly in time, which cuts each wave's
/// arc by its chord: `a - lerp = -(W^2 / 2) s (1 - s) a''` to second order
/// in the span W (the linear interpolant's error; Burden & Faires, Numerical
/// Analysis, 9th ed., 2011, Theorem 3.3), and a deep-water wave's
/// `a'' = -omega^2 a`. So each band's
/// blend is scaled by `1 + omega_b^2 W^2 s (1 - s) / 2`, omega_b^2 its
/// waves' mean omega^2 weighted by their acceleration variance: the arc's
/// error left is the band's spread of omega^2 about it and the third order
/// (docs/waves.md, "Queries").
WaterAcceleration accelerationAt(const Snapshot& s, const Particle& p, double w_m) {
  const TimeWeights& t = s.weights;
  const std::vector<float>&a0 = bandTiles(s, *s.level0).acceleration_mps2,
        &a1 = bandTiles(s, *s.level1).acceleration_mps2;
  const double span_s = s.level1->time_s - s.level0->time_s, sag = 0.5 * span_s * span_s * t.linear0 * t.linear1;
  const std::vector<double>& omega2 = s.state->waves.bandAccelerationFrequency2_rad2ps2;
  double scale[detail::kMaxVelocityBands];
  for (std::size_t b = 0; b < s.bands; ++b) scale[b] = 1 + omega2[b] * sag;
  const auto a = bandSum(
      s, p.stencil, depthBelowSurface(s, p, w_m),
      [&](std::size_t i) { return double(t.linear0 * a0[i] + t.linear1 * a1[i]); }, scale);
  return {btScalar(a[0]), btScalar(a[1]), btScalar(a[2])};
}

/// The linear (Airy) pressure head [m] at height w_m below the particle p:
/// the static head plus, per band, its share of the elevation eta_b times
/// `e^{k_b z'} - 1`, z' = min(w - eta, 0) (Wheeler stretching), k_b the
/// band's mean wavenumber weighted by its waves' elevation variance, as
/// SineSumSurface per wave (docs/waves.md, "Pressure below the surface").
/// The bands' elevations are blended in time with their vertical velocity as
/// the slope.
double pressureHeadAt(const Snapshot& s, const Particle& p, double w_m) {
  const TimeWeights& t = s.weights;
  const BandTiles l0 = bandTiles(s, *s.level0), l1 = bandTiles(s, *s.level1);
  const std::vector<float>&e0 = l0.elevation_m, &e1 = l1.elevation_m;
  const std::vector<float>&v0 = l0.velocity_mps, &v1 = l1.velocity_mps;
  const Stencil& st = p.stencil;
  double band[8] = {};
  for (int j = st.first; j < st.last; ++j)
    for (int i = st.first; i < st.last; ++i) {
      const std::size_t node = (st.row[std::size_t(j)] + st.column[std::size_t(i)]) * s.bands;
      const double w = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
      for (std::size_t b = 0; b < s.bands; ++b) {
        const std::size_t up = (node + b) * 3 + 2;
        band[b] += w * double(t.hermite(e0[node + b], e1[node + b], v0[up], v1[up]));
      }
    }
  const double surface = s.state->settings.meanLevel_m + p.elevation_m;
  const double z = std::min(w_m - surface, 0.0);
  double head = surface - w_m;
  const std::vector<double>& k = s.state->waves.bandElevationWavenumber_radpm;
  for (std::size_t b = 0; b < s.bands; ++b) head += detail::det::expm1(k[b] * z) * band[b];
  return head;
}

}  // namespace

namespace detail {

TimeWeights timeWeights(double t0, double t1, double t) {
  const double span = t1 - t0;
  if (!(span > 0)) return {};
  const double s = std::clamp((t - t0) / span, 0.0, 1.0);  // NaN stays NaN
  const double s2 = s * s, s3 = s2 * s;
  return {float(2 * s3 - 3 * s2 + 1), float(3 * s2 - 2 * s3), float((s3 - 2 * s2 + s) * span),
          float((s3 - s2) * span),    float(1 - s),           float(s)};
}

Snapshot snapshotAt(const SpectralOceanState& s, double t_s) {
  // A NaN time would blend the tiles with NaN weights: once per call.
  if (!std::isfinite(t_s))
    throw std::invalid_argument("keel::SpectralOcean: the query time t_s is " + std::to_string(t_s) +
                                " s: it must be finite");
  // The published tiles are in time order: the pair whose interval holds
  // t, clamped to their span. On the lattice the pair is t's cell, a
  // function of t alone.
  const auto at = [&](std::size_t i) -> const SpectralLevel& { return s.levels[std::size_t(s.front.level[i])]; };
  std::size_t i = 0;
  while (i + 2 < s.front.count && !(t_s < at(i + 1).time_s)) ++i;
  const SpectralLevel& l0 = at(i);
  const SpectralLevel& l1 = at(std::min(i + 1, s.front.count - 1));
  return {&s, &l0, &l1, timeWeights(l0.time_s, l1.time_s, t_s), s.waves.bandWavenumber_radpm.size()};
}

Sums solveRestPosition(const Snapshot& s, bool cubic, double x, double y, double tolerance_m, double& x0, double& y0) {
  return newtonSolve([&](double u0, double v0) { return evaluate(s, cubic, u0, v0, x, y); }, tolerance_m, x0, y0);
}

}  // namespace detail

btScalar SpectralOcean::height(btScalar u_m, btScalar v_m, double t_s) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "height"), t_s);
  return heightOf(s, particleAt(s, u_m, v_m));
}

void SpectralOcean::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                            btScalar* out_m) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "heights"), t_s);
  for (std::size_t i = 0; i < count; ++i) out_m[i] = heightOf(s, particleAt(s, u_m[i], v_m[i]));
}

WaterVelocity SpectralOcean::velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "velocity"), t_s);
  return velocityAt(s, particleAt(s, u_m, v_m), double(w_m));
}

void SpectralOcean::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                               double t_s, WaterVelocity* out) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "velocities"), t_s);
  for (std::size_t i = 0; i < count; ++i) out[i] = velocityAt(s, particleAt(s, u_m[i], v_m[i]), double(w_m[i]));
}

void SpectralOcean::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                                         std::size_t count, double t_s, btScalar* height_out_m,
                                         WaterVelocity* velocity_out) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "heightsAndVelocities"), t_s);
  for (std::size_t i = 0; i < count; ++i) {
    const Particle p = particleAt(s, u_m[i], v_m[i]);
    height_out_m[i] = heightOf(s, p);
    velocity_out[i] = velocityAt(s, p, double(w_m[i]));
  }
}

void SpectralOcean::pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                  double t_s, btScalar* out_m) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "pressureHeads"), t_s);
  for (std::size_t i = 0; i < count; ++i)
    out_m[i] = btScalar(pressureHeadAt(s, particleAt(s, u_m[i], v_m[i]), double(w_m[i])));
}

WaterAcceleration SpectralOcean::acceleration(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "acceleration"), t_s);
  return accelerationAt(s, particleAt(s, u_m, v_m), double(w_m));
}

void SpectralOcean::accelerations(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                  double t_s, WaterAcceleration* out) const {
  const Snapshot s = snapshotAt(detail::oceanState(*this, "accelerations"), t_s);
  for (std::size_t i = 0; i < count; ++i) out[i] = accelerationAt(s, particleAt(s, u_m[i], v_m[i]), double(w_m[i]));
}

}  // namespace keel::KEEL_ABI
