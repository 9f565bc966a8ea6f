// keel::SpectralOcean's fixed-point tiles vectorised with Highway: rows of
// fixed nodes, each node's particle found by Newton's method on the
// rest-position tiles and its values resampled there. The solves run across
// rows, one lane a row's chain (the scalar solve's operations lane by lane,
// masked where a lane has stopped); a node's band sums run across its
// values, each sum still taken tap after tap in the scalar formula's order.
// No fused multiply-add: the same bits on every instruction set.
// docs/waves.md, "Queries".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/spectral_fixed_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "water/spectral_detail.hpp"
#include "water/spectral_solve.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DD = hn::CappedTag<double, 8>;  // one lane a row: the solves
using VD = hn::Vec<DD>;
constexpr std::size_t kLanesD = hn::MaxLanes(DD());
using D4 = hn::CappedTag<double, 4>;  // the particle's elevation and rates
constexpr std::size_t kChunks4 = 4 / hn::MaxLanes(D4());
using DF = hn::CappedTag<float, 16>;  // the bands' values
using VF = hn::Vec<DF>;
constexpr std::size_t kLanesF = hn::MaxLanes(DF());
static_assert(kLanesF <= 16, "a node's band values are whole vectors (bandStride)");

// The height errs by the slope times it, under 1e-4 m: a fortieth of the
// resampling's own interpolation error (docs/waves.md, "Queries"). The
// per-point solve (spectral_query.cpp) asks 1e-6 m; this one is met at the
// start of most nodes' solves, which then cost one evaluation of the tiles.
constexpr double kResidualTolerance_m = 1e-4;
// Where the surface folds (det(I + grad D) <= 0, steep crests in a storm)
// the fixed point has no unique particle; the rates' inverse Jacobian is
// bounded by taking the determinant at least this.
constexpr double kMinJacobian = 0.05;

using DI = hn::Rebind<std::int32_t, DD>;  // tile indices, one per lane
using VI = hn::Vec<DI>;
using DH = hn::Rebind<float, DD>;  // the tiles' floats, one per lane

/// A lane's solve, each lane a row's node: the rest position and the
/// residual and Jacobian there (Sums without the stencil).
struct Solve {
  VD x0, y0, fx, fy, jxx, jxy, jyx, jyy;
  [[nodiscard]] VD residual2() const { return hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)); }
};

/// One axis of each lane's stencil: SpectralOceanState::stencilOn's axis,
/// operation for operation.
struct Axis {
  VI index[4];
  VD w[4], d[4];
};

Axis axisOf(VD f, bool cubic, int n, double inverseCell_pm, int stride) {
  const DD d;
  const DI di;
  const VD zero = hn::Zero(d), count = hn::Set(d, double(n)), one = hn::Set(d, 1.0);
  const auto inside = hn::And(hn::Ge(f, zero), hn::Lt(f, count));
  const VD wrapped = hn::IfThenElse(inside, f, hn::Sub(f, hn::Mul(count, hn::Floor(hn::Div(f, count)))));
  const auto nan = hn::IsNaN(wrapped);
  // std::clamp(wrapped, 0, n), then 0 for NaN.
  const VD clamped = hn::IfThenZeroElse(
      nan, hn::IfThenElse(hn::Lt(wrapped, zero), zero, hn::IfThenElse(hn::Lt(count, wrapped), count, wrapped)));
  const VI i = hn::Min(hn::DemoteTo(di, clamped), hn::Set(di, n - 1));
  const VD fraction = hn::Sub(clamped, hn::PromoteTo(d, i));
  const VD a = hn::IfThenElse(nan, wrapped, hn::IfThenElse(hn::Lt(one, fraction), one, fraction));
  Axis out;
  const VI last = hn::Set(di, n), zeroI = hn::Zero(di);
  for (int k = 0; k < 4; ++k) {
    const VI t = hn::Add(i, hn::Set(di, k - 1));
    const VI wrappedIndex = hn::IfThenElse(hn::Lt(t, zeroI), hn::Add(t, last),
                                           hn::IfThenElse(hn::Lt(t, last), t, hn::Sub(t, last)));
    out.index[k] = hn::Mul(wrappedIndex, hn::Set(di, stride));
  }
  const VD g = hn::Set(d, inverseCell_pm);
  if (!cubic) {
    out.w[1] = hn::Sub(one, a);
    out.w[2] = a;
    out.d[1] = hn::Neg(g);
    out.d[2] = g;
    return out;
  }
  const auto k = [&](double value) { return hn::Set(d, value); };
  const VD half = k(0.5), halfG = hn::Mul(g, half);
  const VD a2 = hn::Mul(a, a), a3 = hn::Mul(a2, a);
  out.w[0] = hn::Mul(half, hn::Sub(hn::Add(hn::Neg(a3), hn::Mul(k(2), a2)), a));
  out.w[1] = hn::Mul(half, hn::Add(hn::Sub(hn::Mul(k(3), a3), hn::Mul(k(5), a2)), k(2)));
  out.w[2] = hn::Mul(half, hn::Add(hn::Add(hn::Mul(k(-3), a3), hn::Mul(k(4), a2)), a));
  out.w[3] = hn::Mul(half, hn::Sub(a3, a2));
  out.d[0] = hn::Mul(halfG, hn::Sub(hn::Add(hn::Mul(k(-3), a2), hn::Mul(k(4), a)), one));
  out.d[1] = hn::Mul(halfG, hn::Sub(hn::Mul(k(9), a2), hn::Mul(k(10), a)));
  out.d[2] = hn::Mul(halfG, hn::Add(hn::Add(hn::Mul(k(-9), a2), hn::Mul(k(8), a)), one));
  out.d[3] = hn::Mul(halfG, hn::Sub(hn::Mul(k(3), a2), hn::Mul(k(2), a)));
  return out;
}

/// spectral_query.cpp's evaluate() on a single level, a node of each lane's
/// row: the residual `x0 + D(x0) - x` and the Jacobian `I + grad D` at rest
/// positions (x0, y0), every sum in the scalar order.
Solve evaluate(const SpectralOceanState& s, const SurfaceNode* nodes, bool cubic, VD x0, VD y0, VD x, VD y) {
  const DD d;
  const DH dh;
  const int n = s.settings.nodesPerSide;
  const VD inverseCell = hn::Set(d, s.inverseCell_pm);
  const Axis ax = axisOf(hn::Mul(x0, inverseCell), cubic, n, s.inverseCell_pm, 1);
  const Axis ay = axisOf(hn::Mul(y0, inverseCell), cubic, n, s.inverseCell_pm, n);
  const int first = cubic ? 0 : 1, last = cubic ? 4 : 3;
  const auto* east = &nodes->east_m;
  const auto* north = &nodes->north_m;
  const VI floats = hn::Set(DI(), int(sizeof(SurfaceNode) / sizeof(float)));
  VD v0 = hn::Zero(d), v1 = v0, dx0 = v0, dx1 = v0, dy0 = v0, dy1 = v0;
  for (int j = first; j < last; ++j)
    for (int i = first; i < last; ++i) {
      const VI k = hn::Mul(hn::Add(ay.index[j], ax.index[i]), floats);
      const VD e = hn::PromoteTo(d, hn::GatherIndex(dh, east, k));
      const VD m = hn::PromoteTo(d, hn::GatherIndex(dh, north, k));
      const VD w = hn::Mul(ax.w[i], ay.w[j]), wdx = hn::Mul(ax.d[i], ay.w[j]), wdy = hn::Mul(ax.w[i], ay.d[j]);
      v0 = hn::Add(v0, hn::Mul(w, e));
      v1 = hn::Add(v1, hn::Mul(w, m));
      dx0 = hn::Add(dx0, hn::Mul(wdx, e));
      dx1 = hn::Add(dx1, hn::Mul(wdx, m));
      dy0 = hn::Add(dy0, hn::Mul(wdy, e));
      dy1 = hn::Add(dy1, hn::Mul(wdy, m));
    }
  const VD one = hn::Set(d, 1.0);
  return {
      x0, y0, hn::Sub(hn::Add(x0, v0), x), hn::Sub(hn::Add(y0, v1), y), hn::Add(one, dx0), dy0, dx1, hn::Add(one, dy1)};
}

/// Each lane's stencil at rest position (x0, y0) into its Sums: what
/// SpectralOceanState::stencilAt gives, from the vectors' axes.
void stencils(const SpectralOceanState& s, bool cubic, VD x0, VD y0, Sums* out) {
  const DD d;
  const DI di;
  const int n = s.settings.nodesPerSide;
  const VD inverseCell = hn::Set(d, s.inverseCell_pm);
  const Axis axes[2] = {axisOf(hn::Mul(x0, inverseCell), cubic, n, s.inverseCell_pm, 1),
                        axisOf(hn::Mul(y0, inverseCell), cubic, n, s.inverseCell_pm, n)};
  alignas(64) std::int32_t index[2][4][kLanesD];
  alignas(64) double w[2][4][kLanesD], dw[2][4][kLanesD];
  const int first = cubic ? 0 : 1, last = cubic ? 4 : 3;
  for (std::size_t a = 0; a < 2; ++a)
    for (int k = first; k < last; ++k) {
      hn::Store(axes[a].index[k], di, index[a][k]);
      hn::Store(axes[a].w[k], d, w[a][k]);
      hn::Store(axes[a].d[k], d, dw[a][k]);
    }
  for (std::size_t l = 0; l < kLanesD; ++l) {
    Stencil& st = out[l].stencil;
    st.first = first;
    st.last = last;
    for (int k = 0; k < 4; ++k) {
      const bool used = k >= first && k < last;
      st.column[std::size_t(k)] = used ? std::size_t(index[0][k][l]) : 0;
      st.row[std::size_t(k)] = used ? std::size_t(index[1][k][l]) : 0;
      st.wx[std::size_t(k)] = used ? w[0][k][l] : 0;
      st.wy[std::size_t(k)] = used ? w[1][k][l] : 0;
      st.dx[std::size_t(k)] = used ? dw[0][k][l] : 0;
      st.dy[std::size_t(k)] = used ? dw[1][k][l] : 0;
    }
  }
}

/// newtonSolve (spectral_solve.hpp) in every lane: a lane that has converged,
/// or found no better point, stops updating, so each takes exactly the steps
/// it would take alone.
Solve solve(const SpectralOceanState& s, const SurfaceNode* nodes, bool cubic, VD x0, VD y0, VD x, VD y) {
  const DD d;
  Solve sums = evaluate(s, nodes, cubic, x0, y0, x, y);
  const VD tolerance2 = hn::Set(d, kResidualTolerance_m * kResidualTolerance_m);
  auto active = hn::Not(hn::Le(sums.residual2(), tolerance2));
  for (int iteration = 0; iteration < kMaxNewtonIterations && !hn::AllFalse(d, active); ++iteration) {
    const VD det = hn::Sub(hn::Mul(sums.jxx, sums.jyy), hn::Mul(sums.jxy, sums.jyx));
    const VD sx = hn::Div(hn::Neg(hn::Sub(hn::Mul(sums.jyy, sums.fx), hn::Mul(sums.jxy, sums.fy))), det);
    const VD sy = hn::Div(hn::Neg(hn::Sub(hn::Mul(sums.jxx, sums.fy), hn::Mul(sums.jyx, sums.fx))), det);
    auto searching = active;
    double fraction = 1;
    for (int halving = 0; halving < kMaxStepHalvings && !hn::AllFalse(d, searching); ++halving, fraction /= 2) {
      const VD f = hn::Set(d, fraction);
      const Solve candidate = evaluate(s, nodes, cubic, hn::Add(sums.x0, hn::Mul(f, sx)),
                                       hn::Add(sums.y0, hn::Mul(f, sy)), x, y);
      const auto better = hn::And(searching, hn::Lt(candidate.residual2(), sums.residual2()));
      const auto pick = [&](VD Solve::*field) { sums.*field = hn::IfThenElse(better, candidate.*field, sums.*field); };
      for (VD Solve::*field :
           {&Solve::x0, &Solve::y0, &Solve::fx, &Solve::fy, &Solve::jxx, &Solve::jxy, &Solve::jyx, &Solve::jyy})
        pick(field);
      searching = hn::AndNot(better, searching);
    }
    // A lane still searching found no better point: it stops there.
    active = hn::AndNot(searching, active);
    active = hn::And(active, hn::Not(hn::Le(sums.residual2(), tolerance2)));
  }
  return sums;
}

/// The resampled values at the node `node` from the particle found at
/// `sums` on the rest-position tiles of `lag`.
///
/// The fixed point x is where the particle resting at x0 is, x = x0 + D(x0).
/// The elevation at x changes at the rate `d eta/dt|_x = w - u_h . grad_x eta`
/// (w and u_h the particle's vertical and horizontal velocity); with
/// `grad_x eta = J^-T grad_x0 eta`, J = I + grad D the Jacobian of x0 -> x,
/// that is `w - (J^-1 u_h) . grad_x0 eta`. The velocity bands' rate at the
/// fixed point is likewise the particle's acceleration less the advection,
/// `a - (J^-1 u_h) . grad_x0 v` (the material derivative `Dv/Dt = dv/dt +
/// u . grad v`; Lamb, Hydrodynamics, 6th ed., 1932, ch. I): the slope the
/// Hermite interpolation in time needs at a fixed point, where the
/// particle's acceleration alone errs by up to `(4/27) W |u_h . grad v|`
/// (docs/waves.md, "Queries").
///
/// The band count is a template constant: the vectors of the band sums are
/// then a fixed count. The last vector may read past a node's values into
/// its padding (bandStride): those lanes' sums are never stored.
template <std::size_t Bands>
void fixedNode(const SpectralLevel& lag, const Sums& sums, std::size_t node, SpectralLevel& level) {
  const Stencil& st = sums.stencil;
  const DF df;
  const D4 d4;
  const hn::Rebind<float, D4> df4;
  constexpr std::size_t bands = Bands, fields = 3 * Bands, stride = bandStride(Bands);
  constexpr std::size_t chunks = (7 * bands + kLanesF - 1) / kLanesF;
  constexpr std::size_t velocityChunks = (fields + kLanesF - 1) / kLanesF;
  static_assert(chunks * kLanesF <= stride);
  // Float sums of 16 products: rounding 1e-7 of the values, the tiles' own;
  // and the velocities' gradient along east and north at rest position.
  VF sum[chunks], gradX[velocityChunks], gradY[velocityChunks];
  for (auto& v : sum) v = hn::Zero(df);
  for (std::size_t q = 0; q < velocityChunks; ++q) gradX[q] = gradY[q] = hn::Zero(df);
  // eta, and the particle's velocity east, north, up: c times the node's
  // elevation_m, east_mps, north_mps, elevation_mps (consecutive floats).
  hn::Vec<D4> rates[kChunks4];
  for (auto& r : rates) r = hn::Zero(d4);
  double etaX = 0, etaY = 0;
  for (int j = st.first; j < st.last; ++j)
    for (int i = st.first; i < st.last; ++i) {
      const std::size_t k = st.row[std::size_t(j)] + st.column[std::size_t(i)];
      const double c = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double cx = st.dx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double cy = st.wx[std::size_t(i)] * st.dy[std::size_t(j)];
      const SurfaceNode& p = lag.surface[k];
      etaX += cx * double(p.elevation_m), etaY += cy * double(p.elevation_m);
      const auto weight = hn::Set(d4, c);
      for (std::size_t q = 0; q < kChunks4; ++q) {
        const auto values = hn::PromoteTo(d4, hn::LoadU(df4, &p.elevation_m + q * hn::MaxLanes(d4)));
        rates[q] = hn::Add(rates[q], hn::Mul(weight, values));
      }
      const float* values = &lag.bands[k * stride];
      const auto cf = hn::Set(df, float(c));
      for (std::size_t q = 0; q < chunks; ++q)
        sum[q] = hn::Add(sum[q], hn::Mul(cf, hn::LoadU(df, values + q * kLanesF)));
      const auto cxf = hn::Set(df, float(cx)), cyf = hn::Set(df, float(cy));
      for (std::size_t q = 0; q < velocityChunks; ++q) {
        const VF v = hn::LoadU(df, values + q * kLanesF);
        gradX[q] = hn::Add(gradX[q], hn::Mul(cxf, v));
        gradY[q] = hn::Add(gradY[q], hn::Mul(cyf, v));
      }
    }
  alignas(64) double r[4];
  for (std::size_t q = 0; q < kChunks4; ++q) hn::Store(rates[q], d4, r + q * hn::MaxLanes(d4));
  const double eta = r[0], ue = r[1], un = r[2], w = r[3];
  const double det = std::max(sums.jxx * sums.jyy - sums.jxy * sums.jyx, kMinJacobian);
  // s = J^-1 u_h: the rest position's drift past the fixed point, negated.
  const double sx = (sums.jyy * ue - sums.jxy * un) / det;
  const double sy = (sums.jxx * un - sums.jyx * ue) / det;
  level.fixed[node] = {float(eta), float(w - (sx * etaX + sy * etaY))};
  alignas(64) float out[chunks * kLanesF];
  for (std::size_t q = 0; q < chunks; ++q) hn::Store(sum[q], df, out + q * kLanesF);
  std::copy_n(out, fields, &level.fixedVelocity_mps[node * fields]);
  std::copy_n(out + fields, fields, &level.fixedAcceleration_mps2[node * fields]);
  std::copy_n(out + 2 * fields, bands, &level.fixedBandElevation_m[node * bands]);
  alignas(64) float gx[velocityChunks * kLanesF], gy[velocityChunks * kLanesF];
  for (std::size_t q = 0; q < velocityChunks; ++q) {
    hn::Store(gradX[q], df, gx + q * kLanesF);
    hn::Store(gradY[q], df, gy + q * kLanesF);
  }
  float* rate = &level.fixedVelocityRate_mps2[node * fields];
  for (std::size_t f = 0; f < fields; ++f)
    rate[f] = float(double(out[fields + f]) - (sx * double(gx[f]) + sy * double(gy[f])));
}

/// fixedNode for `bands` bands (1 to 8).
using FixedNodeFunction = void (*)(const SpectralLevel&, const Sums&, std::size_t, SpectralLevel&);
template <std::size_t... B>
constexpr std::array<FixedNodeFunction, sizeof...(B)> fixedNodeTable(std::index_sequence<B...>) {
  return {&fixedNode<B + 1>...};
}
constexpr auto kFixedNode = fixedNodeTable(std::make_index_sequence<kMaxVelocityBands>());

}  // namespace

std::size_t ResampleLanesKernel() { return kLanesD; }

// Each node's solve starts from its west neighbours' solutions extrapolated
// (quadratically from the third node on; before, by Newton's own step
// J^-1 (cell, 0)): mostly within the tolerance at once, one evaluation of
// the tiles a node. A row's chain is fixed and its lane's arithmetic the
// scalar's, so the tiles are the same bits however the rows are grouped
// into lanes, threads or steps.
void ResampleRowsKernel(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int rows,
                        SpectralLevel& level) {
  const DD d;
  const int n = state.fixedNodes;
  const double cell_m = state.settings.tileSize_m / n;
  const bool cubic = state.settings.interpolation == SpectralInterpolation::Bicubic;
  const FixedNodeFunction fixedNode = kFixedNode.at(state.waves.bandWavenumber_radpm.size() - 1);
  const SurfaceNode* nodes = lagrangian.surface.data();
  // Lane r is row firstRow + r; lanes past `rows` repeat the last row, unstored.
  alignas(64) double laneRow[kLanesD];
  for (std::size_t r = 0; r < kLanesD; ++r) laneRow[r] = double(firstRow + std::min(int(r), rows - 1));
  const VD y = hn::Mul(hn::Load(d, laneRow), hn::Set(d, cell_m));
  const VD three = hn::Set(d, 3.0), cell = hn::Set(d, cell_m), minJacobian = hn::Set(d, kMinJacobian);
  VD x0 = hn::Zero(d), y0 = y;
  VD px[3] = {x0, x0, x0}, py[3] = {x0, x0, x0};  // the last three solutions, newest first
  alignas(64) double out[6][kLanesD];
  for (int i = 0; i < n; ++i) {
    const Solve sums = solve(state, nodes, cubic, x0, y0, hn::Set(d, i * cell_m), y);
    const VD* fields[6] = {&sums.fx, &sums.fy, &sums.jxx, &sums.jxy, &sums.jyx, &sums.jyy};
    for (std::size_t f = 0; f < 6; ++f) hn::Store(*fields[f], d, out[f]);
    Sums node[kLanesD];
    stencils(state, cubic, sums.x0, sums.y0, node);
    for (int r = 0; r < rows; ++r) {
      const auto l = std::size_t(r);
      Sums& lane = node[l];
      std::tie(lane.fx, lane.fy, lane.jxx, lane.jxy, lane.jyx, lane.jyy) = std::tie(out[0][l], out[1][l], out[2][l],
                                                                                    out[3][l], out[4][l], out[5][l]);
      fixedNode(lagrangian, lane, std::size_t(firstRow + r) * std::size_t(n) + std::size_t(i), level);
    }
    x0 = sums.x0;
    y0 = sums.y0;
    px[2] = px[1], px[1] = px[0], px[0] = x0;
    py[2] = py[1], py[1] = py[0], py[0] = y0;
    if (i >= 2) {
      x0 = hn::Add(hn::Mul(three, hn::Sub(px[0], px[1])), px[2]);
      y0 = hn::Add(hn::Mul(three, hn::Sub(py[0], py[1])), py[2]);
    } else {
      const VD det = hn::Sub(hn::Mul(sums.jxx, sums.jyy), hn::Mul(sums.jxy, sums.jyx));
      const auto regular = hn::Gt(det, minJacobian);
      x0 = hn::IfThenElse(regular, hn::Add(x0, hn::Div(hn::Mul(cell, sums.jyy), det)), hn::Add(x0, cell));
      y0 = hn::IfThenElse(regular, hn::Sub(y0, hn::Div(hn::Mul(cell, sums.jyx), det)), y0);
    }
  }
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(ResampleRowsKernel);
HWY_EXPORT(ResampleLanesKernel);

std::size_t resampleLanes() { return HWY_DYNAMIC_DISPATCH(ResampleLanesKernel)(); }

void resampleRows(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int rows,
                  SpectralLevel& level) {
  HWY_DYNAMIC_DISPATCH(ResampleRowsKernel)(state, lagrangian, firstRow, rows, level);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
