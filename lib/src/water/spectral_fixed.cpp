// keel::SpectralOcean's fixed-point tiles: each tile time's rest-position
// tiles (from the FFTs) resampled once at the nodes' fixed world points, so
// that queries interpolate them directly instead of solving for the surface
// particle above every point. docs/waves.md, "Spectral ocean".

#include "math/parallel.hpp"
#include "water/spectral_detail.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {

void resampleToFixedPoints(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int lastRow,
                           SpectralLevel& level) {
  // Rows in parallel by vectors of rows, each row its own chain of solves
  // (spectral_fixed_simd.cpp).
  const int lanes = int(resampleLanes()), blocks = (lastRow - firstRow + lanes - 1) / lanes;
  parallelFor(0, blocks, [&](int b) {
    const int first = firstRow + b * lanes;
    resampleRows(state, lagrangian, first, std::min(lanes, lastRow - first), level);
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
    for (int row = 0; row < s.fixedNodes; row += s.rowsPerStep)
      add(double(std::min(s.rowsPerStep, s.fixedNodes - row)) * s.fixedNodes);
    add(0.008 * double(s.settings.nodesPerSide) * s.settings.nodesPerSide);  // the surface's copy
  }
  return cumulative;
}

void SpectralOceanState::runSteps(int first, int last, double time_s, SpectralLevel& out) {
  const int stages = synthesis.stageCount();
  for (int step = first; step < last; ++step) {
    if (!fixedPoints() || step < stages) {
      synthesis.runStage(step, time_s, fixedPoints() ? scratch : out);
    } else if (const int row = (step - stages) * rowsPerStep; row < fixedNodes) {
      // The steps' rows in one parallel loop: fewer hand-offs to the threads.
      const int steps = std::min(last - step, (fixedNodes - row + rowsPerStep - 1) / rowsPerStep);
      resampleToFixedPoints(*this, scratch, row, std::min(fixedNodes, row + steps * rowsPerStep), out);
      step += steps - 1;
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
