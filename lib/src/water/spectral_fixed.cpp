// keel::SpectralOcean's fixed-point tiles: each tile time's rest-position
// tiles (from the FFTs) resampled once at the nodes' fixed world points, so
// that queries interpolate them directly instead of solving for the surface
// particle above every point. docs/waves.md, "Spectral ocean".

#include "math/parallel.hpp"
#include "water/spectral_detail.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

// The height errs by the slope times it, under 1e-4 m: a fortieth of the
// resampling's own interpolation error (docs/waves.md, "Queries"). The
// per-point solve (spectral_query.cpp) asks 1e-6 m; this one is met at the
// start of most nodes' solves, which then cost one evaluation of the tiles.
constexpr double kResidualTolerance_m = 1e-4;
// Where the surface folds (det(I + grad D) <= 0, steep crests in a storm)
// the fixed point has no unique particle; the rates' inverse Jacobian is
// bounded by taking the determinant at least this.
constexpr double kMinJacobian = 0.05;

/// The resampled values at the node `node` from the particle found at
/// `sums` on the rest-position tiles of `lag`.
///
/// The fixed point x is where the particle resting at x0 is, x = x0 + D(x0).
/// The elevation at x changes at the rate `d eta/dt|_x = w - u_h . grad_x eta`
/// (w and u_h the particle's vertical and horizontal velocity); with
/// `grad_x eta = J^-T grad_x0 eta`, J = I + grad D the Jacobian of x0 -> x,
/// that is `w - (J^-1 u_h) . grad_x0 eta`. The velocity bands keep the
/// particle's acceleration as their time derivative, as the rest-position
/// tiles do: at a fixed point it lacks the advection `u_h . grad v`, which
/// the Hermite interpolation in time turns into an error of at most
/// `(4/27) dt |u_h . grad v|` (docs/waves.md, "Queries").
///
/// The band count is a template constant: the per-band sums are then loops
/// of fixed length, which the compiler unrolls and vectorises (each sum
/// still in the same order, so the same bits).
template <std::size_t Bands>
void fixedNode(const SpectralLevel& lag, const Sums& sums, std::size_t node, SpectralLevel& level) {
  const Stencil& st = sums.stencil;
  constexpr std::size_t bands = Bands, fields = 3 * Bands;  // at most 24
  // Float sums of 16 products: rounding 1e-7 of the values, the tiles' own.
  float v[fields] = {}, a[fields] = {}, e[bands] = {};
  double eta = 0, etaX = 0, etaY = 0, ue = 0, un = 0, w = 0;
  for (int j = st.first; j < st.last; ++j)
    for (int i = st.first; i < st.last; ++i) {
      const std::size_t k = st.row[std::size_t(j)] + st.column[std::size_t(i)];
      const double c = st.wx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double cx = st.dx[std::size_t(i)] * st.wy[std::size_t(j)];
      const double cy = st.wx[std::size_t(i)] * st.dy[std::size_t(j)];
      const SurfaceNode& p = lag.surface[k];
      eta += c * double(p.elevation_m), etaX += cx * double(p.elevation_m), etaY += cy * double(p.elevation_m);
      ue += c * double(p.east_mps), un += c * double(p.north_mps), w += c * double(p.elevation_mps);
      const float* velocity = &lag.velocity_mps[k * fields];
      const float* acceleration = &lag.acceleration_mps2[k * fields];
      const float* elevation = &lag.bandElevation_m[k * bands];
      const auto cf = float(c);
      for (std::size_t f = 0; f < fields; ++f) {
        v[f] += cf * velocity[f];
        a[f] += cf * acceleration[f];
      }
      for (std::size_t b = 0; b < bands; ++b) e[b] += cf * elevation[b];
    }
  const double det = std::max(sums.jxx * sums.jyy - sums.jxy * sums.jyx, kMinJacobian);
  // s = J^-1 u_h: the rest position's drift past the fixed point, negated.
  const double sx = (sums.jyy * ue - sums.jxy * un) / det;
  const double sy = (sums.jxx * un - sums.jyx * ue) / det;
  level.fixed[node] = {float(eta), float(w - (sx * etaX + sy * etaY))};
  std::copy(v, v + fields, &level.fixedVelocity_mps[node * fields]);
  std::copy(a, a + fields, &level.fixedAcceleration_mps2[node * fields]);
  std::copy(e, e + bands, &level.fixedBandElevation_m[node * bands]);
}

/// fixedNode for `bands` bands (1 to 8).
using FixedNodeFunction = void (*)(const SpectralLevel&, const Sums&, std::size_t, SpectralLevel&);
template <std::size_t... B>
constexpr std::array<FixedNodeFunction, sizeof...(B)> fixedNodeTable(std::index_sequence<B...>) {
  return {&fixedNode<B + 1>...};
}
constexpr auto kFixedNode = fixedNodeTable(std::make_index_sequence<8>());

}  // namespace

void resampleToFixedPoints(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int lastRow,
                           SpectralLevel& level) {
  const int n = state.fixedNodes;
  const double cell_m = state.settings.tileSize_m / n;
  const bool cubic = state.settings.interpolation == SpectralInterpolation::Bicubic;
  // The rest-position tiles at one time: both "times" the same level.
  const Snapshot lag{&state, &lagrangian, &lagrangian, TimeWeights{}, state.waves.bandWavenumber_radpm.size(), true};
  const FixedNodeFunction fixedNode = kFixedNode.at(lag.bands - 1);
  // Rows in parallel. Each node's solve starts from its west neighbours'
  // solutions extrapolated (quadratically from the third node on; before, by
  // Newton's own step J^-1 (cell, 0)): mostly within the tolerance at once,
  // one evaluation of the tiles a node. A row's chain is fixed, so the tiles
  // are the same bits however TBB splits the rows, or the steps the rows.
  parallelFor(firstRow, lastRow, [&](int j) {
    const double y = j * cell_m;
    double x0 = 0, y0 = y;
    std::array<double, 3> px{}, py{};  // the last three solutions, newest first
    for (int i = 0; i < n; ++i) {
      const Sums sums = solveRestPosition(lag, cubic, i * cell_m, y, kResidualTolerance_m, x0, y0);
      fixedNode(lagrangian, sums, std::size_t(j) * std::size_t(n) + std::size_t(i), level);
      px = {x0, px[0], px[1]};
      py = {y0, py[0], py[1]};
      const double det = sums.jxx * sums.jyy - sums.jxy * sums.jyx;
      if (i >= 2) {
        x0 = 3 * (px[0] - px[1]) + px[2];
        y0 = 3 * (py[0] - py[1]) + py[2];
      } else if (det > kMinJacobian) {
        x0 += cell_m * sums.jyy / det;
        y0 -= cell_m * sums.jyx / det;
      } else {
        x0 += cell_m;
      }
    }
  });
}

SpectralLevel& SpectralOceanState::level(int l) {
  SpectralLevel& out = levels.at(std::size_t(l));
  if (out.surface.empty()) out = synthesis.makeLevel(!fixedPoints(), fixedPoints(), fixedNodes);
  return out;
}

std::vector<double> tileStepWeights(const SpectralOceanState& s) {
  std::vector<double> cumulative{0.0};
  const auto add = [&](double w) { cumulative.push_back(cumulative.back() + w); };
  for (int stage = 0; stage < s.synthesis.stageCount(); ++stage) add(s.synthesis.stageWeight(stage));
  if (s.fixedPoints()) {
    for (int row = 0; row < s.fixedNodes; ++row) add(s.fixedNodes);
    add(0.01 * double(s.settings.nodesPerSide) * s.settings.nodesPerSide);  // the surface's copy
  }
  return cumulative;
}

void SpectralOceanState::runSteps(int first, int last, double time_s, SpectralLevel& out) {
  const int stages = synthesis.stageCount();
  for (int step = first; step < last; ++step) {
    if (!fixedPoints() || step < stages) {
      synthesis.runStage(step, time_s, fixedPoints() ? scratch : out);
    } else if (const int row = step - stages; row < fixedNodes) {
      // The steps' rows in one parallel loop: fewer hand-offs to the threads.
      const int rows = std::min(last - step, fixedNodes - row);
      resampleToFixedPoints(*this, scratch, row, row + rows, out);
      step += rows - 1;
    } else {
      // The level keeps the rest-position surface (detail::elevationTile_m).
      std::copy(scratch.surface.begin(), scratch.surface.end(), out.surface.begin());
      out.time_s = time_s;
    }
  }
}

void SpectralOceanState::computeLevel(double time_s, int l) {
  ahead = {};
  runSteps(0, stepCount(), time_s, level(l));
}

void SpectralOceanState::workAhead(double fraction) {
  if (ahead.level < 0) return;
  // A step runs when its middle falls before the target: the updates'
  // shares then stray from it by half a step either way, not a whole one.
  const double target2 = 2 * fraction * stepWeights.back();
  const auto middle2 = [&](int step) { return stepWeights[std::size_t(step)] + stepWeights[std::size_t(step) + 1]; };
  int end = ahead.step;
  while (end < stepCount() && (fraction >= 1 || middle2(end) <= target2)) ++end;
  runSteps(ahead.step, end, ahead.time_s, level(ahead.level));
  ahead.step = end;
}

}  // namespace keel::KEEL_ABI::detail
