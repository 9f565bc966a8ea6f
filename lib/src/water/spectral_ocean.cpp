// keel::SpectralOcean: its settings, the double-buffered tiles and what
// describes them (the queries: spectral_query.cpp). docs/waves.md,
// "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "math/det_math.hpp"
#include "water/spectral_detail.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace {

constexpr double kPi = std::numbers::pi;

/// The fastest wave's angular frequency [rad/s]; 0 when the tile holds no wave.
double fastestFrequency_radps(const detail::SpectralWaves& waves) {
  double fastest_radps = 0;
  for (std::size_t q = 0; q < waves.amplitude_m.size(); ++q)
    if (waves.amplitude_m[q] != std::complex<double>{})
      fastest_radps = std::max(fastest_radps, waves.angularFrequency_radps[q]);
  return fastest_radps;
}

/// The time [s] within which a published tile stands for a requested one:
/// it moves each wave's phase by at most 2^-24 rad, so each wave's term by
/// at most 2^-24 of its amplitude, what rounding the amplitude to float (the
/// FFTs' input) does anyway. 0 when the tile holds no wave.
double tileTimeTolerance(const detail::SpectralWaves& waves) {
  const double fastest_radps = fastestFrequency_radps(waves);
  return fastest_radps > 0 ? std::ldexp(1.0, -24) / fastest_radps : 0.0;
}

/// The fastest wave turns by at most this phase between two lattice tiles
/// [rad]: the cubic Hermite blend then errs on each wave by at most
/// `(w W)^4 / 384`, 1.0e-5, of its amplitude, the accelerations' linear
/// blend, scaled by its band's curvature, by at most `(w W)^2 / 8`, 0.8% of
/// the wave's, and far less near the band's mean (docs/waves.md, "Queries").
constexpr double kTilePhaseStep_rad = 0.25;

/// The lattice's period W [s]: kTilePhaseStep_rad of the fastest wave, and
/// at most half the longest window.
double tilePeriod(const detail::SpectralWaves& waves, double maxWindow_s) {
  const double fastest_radps = fastestFrequency_radps(waves);
  return fastest_radps > 0 ? std::min(kTilePhaseStep_rad / fastest_radps, 0.5 * maxWindow_s) : 0.5 * maxWindow_s;
}

/// A level that neither the published tiles, nor the first `chosen` of
/// `back`, nor the tile computed ahead holds; failing that, the tile
/// computed ahead's, which is dropped.
int freeLevel(detail::SpectralOceanState& s, const detail::TileSet& back, std::size_t chosen) {
  const auto taken = [&](int l) {
    for (std::size_t i = 0; i < chosen; ++i)
      if (back.level[i] == l) return true;
    return s.front.holds(l);
  };
  for (int l = 0; l < int(detail::kTileLevels); ++l)
    if (!taken(l) && l != s.ahead.level) return l;
  const int l = s.ahead.level;
  s.ahead = {};
  return l;
}

/// The lattice tiles `first` to `last` (times `k W`) into the back set:
/// published ones reused (a lattice time is the same double every time),
/// the one computed ahead finished, the others computed. Then the next
/// lattice tile is computed ahead as far as the clock, `to_s`, has come
/// through the last cell, so that it is whole when the clock leaves it.
void prepareLattice(detail::SpectralOceanState& s, double first, double last, double to_s) {
  const double w = s.tilePeriod_s;
  detail::TileSet chosen;
  chosen.count = std::size_t(last - first) + 1;
  for (std::size_t i = 0; i < chosen.count; ++i) {
    const double t_s = (first + double(i)) * w;
    int l = -1;
    for (std::size_t f = 0; f < s.front.count && l < 0; ++f)
      if (s.levels[std::size_t(s.front.level[f])].time_s == t_s) l = s.front.level[f];
    if (l < 0 && s.ahead.level >= 0 && s.ahead.time_s == t_s) {
      s.workAhead(1);
      l = s.ahead.level;
      s.ahead = {};
    }
    if (l < 0) {
      l = freeLevel(s, chosen, i);
      s.computeLevel(t_s, l);
    }
    chosen.level[i] = l;
  }
  s.back = chosen;
  const double next_s = (last + 1) * w;
  if (s.ahead.level < 0 || s.ahead.time_s != next_s) s.ahead = {freeLevel(s, chosen, chosen.count), next_s, 0};
  s.workAhead(std::clamp((to_s - (last - 1) * w) / w, 0.0, 1.0));
}

/// Tiles at the window's ends, for a window longer than the lattice cells
/// kMaxTilesInUse tiles span: a published tile within the tolerance of a
/// time stands for it (queries only read it). A WaterAction's clock, a sum
/// of float substeps, ends a frame about 2^-24 of a frame away from where
/// the window of the frame before ended (docs/waves.md, "Update and
/// threads").
void prepareEnds(detail::SpectralOceanState& s, double from_s, double to_s) {
  const double tolerance_s = s.tileTimeTolerance_s;
  const auto published = [&](double t_s, int other) {
    for (std::size_t f = 0; f < s.front.count; ++f) {
      const int l = s.front.level[f];
      if (l != other && std::abs(s.levels[std::size_t(l)].time_s - t_s) <= tolerance_s) return l;
    }
    return -1;
  };
  detail::TileSet chosen;
  chosen.level[0] = published(from_s, -1);
  if (chosen.level[0] < 0) s.computeLevel(from_s, chosen.level[0] = freeLevel(s, chosen, 0));
  // Two times within twice the tolerance could match one tile: a still
  // picture then. Further apart, the tiles' own times keep their order.
  if (to_s - from_s > 2 * tolerance_s) {
    chosen.count = 2;
    chosen.level[1] = published(to_s, chosen.level[0]);
    if (chosen.level[1] < 0) s.computeLevel(to_s, chosen.level[1] = freeLevel(s, chosen, 1));
  }
  s.back = chosen;
}

/// The drawn waves, once checkSpectralWaves has passed them.
detail::SpectralWaves checkedWaves(detail::SpectralWaves waves, const WaveSpectrum& spectrum,
                                   const SpectralOceanSettings& settings) {
  detail::checkSpectralWaves(waves, spectrum, settings);
  return waves;
}

}  // namespace

namespace detail {

std::uint64_t nextPublication() {
  static std::atomic<std::uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) + 1;
}

SpectralOceanState::SpectralOceanState(const WaveSpectrum& spectrum, const SpectralOceanSettings& s)
    : settings(checkedSpectralSettings(spectrum, s)),
      waves(checkedWaves(drawSpectralWaves(spectrum, settings), spectrum, settings)),
      synthesis(waves),
      inverseCell_pm(settings.nodesPerSide / settings.tileSize_m),
      fixedNodes(fixedNodesOf(settings)),
      inverseFixedCell_pm(fixedNodes / settings.tileSize_m),
      rowsPerStep(int(resampleLanes())),
      tileTimeTolerance_s(tileTimeTolerance(waves)),
      maxWindow_s(maxSpectralWindow_s(waves)),
      tilePeriod_s(tilePeriod(waves, maxWindow_s)) {
  if (fixedPoints()) {
    scratch = synthesis.makeLevel(false, false);
    scratch.bands.assign(scratch.surface.size() * bandStride(waves.bandWavenumber_radpm.size()), 0.0f);
  }
  stepWeights = tileStepWeights(*this);
  front.level[0] = 0;
  computeLevel(0.0, 0);
}

}  // namespace detail

SpectralOcean::SpectralOcean(const WaveSpectrum& spectrum, const SpectralOceanSettings& settings)
    : state_(std::make_unique<State>(spectrum, settings)) {}

SpectralOcean::~SpectralOcean() = default;
SpectralOcean::SpectralOcean(SpectralOcean&&) noexcept = default;
SpectralOcean& SpectralOcean::operator=(SpectralOcean&&) noexcept = default;

void SpectralOcean::prepare(double from_s, double to_s) {
  detail::SpectralOceanState& s = detail::oceanState(*this, "prepare");
  if (!(std::isfinite(from_s) && std::isfinite(to_s) && from_s <= to_s)) {
    std::ostringstream m;
    m << "keel::SpectralOcean::prepare: from_s is " << from_s << " s and to_s " << to_s
      << " s: they must be finite with from_s <= to_s";
    throw std::invalid_argument(m.str());
  }
  // The Hermite blend's error grows as the window's fourth power
  // (docs/waves.md, "Bounds").
  if (!(to_s - from_s <= s.maxWindow_s)) {
    std::ostringstream m;
    m << "keel::SpectralOcean::prepare: the window from_s = " << from_s << " s to to_s = " << to_s << " s spans "
      << to_s - from_s << " s, longer than this sea's bound of " << s.maxWindow_s
      << " s, within which interpolating the tiles in time errs by at most " << 100 * detail::kMaxWindowError
      << "% of Hs (docs/waves.md, \"Bounds\")";
    throw std::invalid_argument(m.str());
  }
  // The lattice cells the window spans; a clock within the tolerance past
  // a lattice time is on it.
  const double first = std::floor((from_s + s.tileTimeTolerance_s) / s.tilePeriod_s);
  const double last = std::max(first, std::ceil((to_s - s.tileTimeTolerance_s) / s.tilePeriod_s));
  if (last - first < double(detail::kMaxTilesInUse))
    prepareLattice(s, first, last, to_s);
  else
    prepareEnds(s, from_s, to_s);
  s.prepared = true;
}

void SpectralOcean::publish() {
  detail::SpectralOceanState& s = detail::oceanState(*this, "publish");
  if (!s.prepared) return;
  s.front = s.back;
  s.publication = detail::nextPublication();
  s.prepared = false;
}

void SpectralOcean::update(double from_s, double to_s) {
  prepare(from_s, to_s);
  publish();
}

std::vector<WaveComponent> SpectralOcean::components() const {
  const detail::SpectralWaves& w = detail::oceanState(*this, "components").waves;
  const int n = w.nodes;
  const double dk = 2 * kPi / w.tile_m;
  std::vector<WaveComponent> out;
  for (int iy = 0; iy < n; ++iy)
    for (int ix = 0; ix < n; ++ix) {
      const std::size_t q = std::size_t(iy) * std::size_t(n) + std::size_t(ix);
      if (w.amplitude_m[q] == std::complex<double>{}) continue;
      const double kx = dk * (ix < n / 2 ? ix : ix - n), ky = dk * (iy < n / 2 ? iy : iy - n);
      const double k = detail::det::hypot(kx, ky);
      // |c| and arg c with Keel's own functions: a sea built from these
      // components is the same bits on every machine.
      const std::complex<double> c = w.amplitude_m[q];
      out.push_back({detail::det::hypot(c.real(), c.imag()), k, w.angularFrequency_radps[q], kx / k, ky / k,
                     detail::det::atan2(c.imag(), c.real())});
    }
  return out;
}

double SpectralOcean::significantWaveHeight_m() const {
  return 4 * std::sqrt(detail::oceanState(*this, "significantWaveHeight_m").waves.variance_m2);
}

double SpectralOcean::expectedSignificantWaveHeight_m() const {
  return 4 * std::sqrt(detail::oceanState(*this, "expectedSignificantWaveHeight_m").waves.expectedVariance_m2);
}

std::vector<double> SpectralOcean::bandWavenumbers_radpm() const {
  return detail::oceanState(*this, "bandWavenumbers_radpm").waves.bandWavenumber_radpm;
}

double SpectralOcean::tileSize_m() const { return detail::oceanState(*this, "tileSize_m").settings.tileSize_m; }

double SpectralOcean::tilePeriod_s() const { return detail::oceanState(*this, "tilePeriod_s").tilePeriod_s; }

double SpectralOcean::longestUpdateWindow_s() const {
  return detail::oceanState(*this, "longestUpdateWindow_s").maxWindow_s;
}

int SpectralOcean::nodesPerSide() const { return detail::oceanState(*this, "nodesPerSide").settings.nodesPerSide; }

std::array<double, 2> SpectralOcean::publishedTimes_s() const {
  const detail::SpectralOceanState& s = detail::oceanState(*this, "publishedTimes_s");
  return {s.levels[std::size_t(s.front.level[0])].time_s,
          s.levels[std::size_t(s.front.level[s.front.count - 1])].time_s};
}

bool SpectralOcean::settledBetween(double from_s, double to_s) const {
  const detail::SpectralOceanState& s = detail::oceanState(*this, "settledBetween");
  const double w = s.tilePeriod_s;
  for (std::size_t i = 0; i < s.front.count; ++i) {
    const double t = s.levels[std::size_t(s.front.level[i])].time_s;
    if (t != std::round(t / w) * w) return false;  // a long window's ends, not the lattice (prepareEnds)
  }
  const std::array<double, 2> span = publishedTimes_s();
  return from_s >= span[0] && to_s <= span[1];
}

std::vector<float> detail::elevationTile_m(const SpectralOcean& ocean) {
  const SpectralOceanState& state = detail::oceanState(ocean);
  const SpectralLevel& l = state.levels[std::size_t(state.front.level[0])];
  std::vector<float> out(l.surface.size());
  std::transform(l.surface.begin(), l.surface.end(), out.begin(),
                 [](const detail::SurfaceNode& n) { return n.elevation_m; });
  return out;
}

const SpectralOceanSettings& SpectralOcean::settings() const { return detail::oceanState(*this, "settings").settings; }

}  // namespace keel::KEEL_ABI
