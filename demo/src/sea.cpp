#include "sea.hpp"

#include <keel/waves.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace demo {
namespace {

/// Significant wave height [m] and peak period [s] per sea state: the WMO sea
/// state code's heights, scaled down for a sheltered harbour so that a
/// rowboat lives through state 6; 7 and 8 are the storm outside.
struct SeaStateRow {
  double hs_m;
  double peakPeriod_s;
};
constexpr std::array<SeaStateRow, kMaxSeaState + 1> kSeaStates = {
    {{0.0, 3.0}, {0.08, 2.2}, {0.25, 3.0}, {0.6, 4.2}, {1.0, 5.0}, {1.6, 6.0}, {2.4, 7.0}, {3.5, 8.5}, {5.0, 10.0}}};

/// Waves travel towards the quay (north, -z in the world; the water frame's
/// north axis is world +z), a little from the west: they enter through the
/// harbour mouth [rad, counter-clockwise from east towards the frame's north].
constexpr double kMeanDirection_rad = -1.25;
/// Few components keep the rendered grid and the per-piece water velocities
/// cheap (every Gerstner query solves for its rest point); enough to look
/// irregular.
constexpr std::size_t kComponents = 8;
/// The spectral tiles span windows of this long [s]: one new tile every six
/// 60 Hz frames. Their cubic Hermite interpolation in time keeps heights and
/// velocities as exact over 0.1 s as over a frame (docs/waves.md, "Spectral
/// ocean": the error table's 0.1 s row).
constexpr double kTileWindow_s = 0.1;
/// The spectral ocean's directional spreading, as the Gerstner sea's.
constexpr double kSpreadingExponent = 4;

SeaStateRow rowOf(int seaState) { return kSeaStates[std::size_t(std::clamp(seaState, 0, kMaxSeaState))]; }

/// A spectral ocean of 128 x 128 nodes on a tile of 6 peak wavelengths:
/// 1636 waves, one new tile a frame.
SeaSurface spectralSea(const SeaStateRow& row, std::uint32_t seed) {
  keel::SpectralOceanSettings settings;
  settings.meanDirection_rad = kMeanDirection_rad;
  settings.spreadingExponent = kSpreadingExponent;
  settings.seed = seed;
  auto ocean = std::make_shared<keel::SpectralOcean>(keel::WaveSpectrum::jonswap(row.hs_m, row.peakPeriod_s), settings);
  return {ocean, ocean};
}

}  // namespace

bool parseSeaModel(const std::string& name, SeaModel& model) {
  if (name == "spectral")
    model = SeaModel::Spectral;
  else if (name == "gerstner")
    model = SeaModel::Gerstner;
  else
    return false;
  return true;
}

double significantWaveHeight_m(int seaState) { return rowOf(seaState).hs_m; }

SeaSurface makeSeaSurface(int seaState, std::uint32_t seed, SeaModel model) {
  const SeaStateRow row = rowOf(seaState);
  if (row.hs_m <= 0) return {std::make_shared<keel::FlatSurface>(0.0), nullptr};
  if (model == SeaModel::Spectral) return spectralSea(row, seed);
  keel::SeaStateSettings settings;
  settings.meanDirection_rad = kMeanDirection_rad;
  settings.spreadingExponent = kSpreadingExponent;
  settings.componentCount = kComponents;
  settings.seed = seed;
  auto components = keel::sampleSeaState(keel::WaveSpectrum::jonswap(row.hs_m, row.peakPeriod_s), settings);
  keel::GerstnerSettings gerstner;
  // Sharp crests, but well clear of the fold-over limit.
  gerstner.steepness = std::min(0.8, 0.7 * keel::gerstnerSteepnessLimit(components));
  return {std::make_shared<keel::GerstnerSurface>(std::move(components), gerstner), nullptr};
}

SwitchableSea::SwitchableSea(SeaSurface initial) : current_(std::move(initial)) {}

void SwitchableSea::change(SeaSurface next, double now_s, double fade_s) {
  previous_ = current_;
  current_ = std::move(next);
  changeStart_s_ = now_s;
  fade_s_ = std::max(fade_s, 1e-3);
}

void SwitchableSea::advance(double from_s, double to_s) {
  // Once faded out, the previous sea is never asked again.
  if (previous_.surface && from_s >= changeStart_s_ + fade_s_) previous_ = {};
  // Whole windows of kTileWindow_s: a window's end is the next one's start,
  // the same double (both a whole multiple), so update() reuses that tile
  // and computes one new tile a window; within a window it computes none.
  const double first = std::floor(from_s / kTileWindow_s);
  const double count = std::max(1.0, std::ceil((to_s - first * kTileWindow_s) / kTileWindow_s));
  for (const SeaSurface* sea : {&current_, &previous_})
    if (sea->spectral) sea->spectral->update(first * kTileWindow_s, (first + count) * kTileWindow_s);
}

btScalar SwitchableSea::weight(double t_s) const {
  if (!previous_.surface) return 1;
  const double x = std::clamp((t_s - changeStart_s_) / fade_s_, 0.0, 1.0);
  return btScalar(x * x * (3 - 2 * x));  // smoothstep: no kink in the heave
}

btScalar SwitchableSea::height(btScalar u_m, btScalar v_m, double t_s) const {
  const btScalar a = weight(t_s);
  const btScalar now = current_.surface->height(u_m, v_m, t_s);
  return a >= 1 ? now : a * now + (1 - a) * previous_.surface->height(u_m, v_m, t_s);
}

void SwitchableSea::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                            btScalar* out_m) const {
  const btScalar a = weight(t_s);
  current_.surface->heights(u_m, v_m, count, t_s, out_m);
  if (a >= 1) return;
  for (std::size_t i = 0; i < count; ++i)
    out_m[i] = a * out_m[i] + (1 - a) * previous_.surface->height(u_m[i], v_m[i], t_s);
}

keel::WaterVelocity SwitchableSea::velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  const btScalar a = weight(t_s);
  keel::WaterVelocity now = current_.surface->velocity(u_m, v_m, w_m, t_s);
  if (a >= 1) return now;
  const keel::WaterVelocity before = previous_.surface->velocity(u_m, v_m, w_m, t_s);
  return {a * now.east_mps + (1 - a) * before.east_mps, a * now.north_mps + (1 - a) * before.north_mps,
          a * now.up_mps + (1 - a) * before.up_mps};
}

void SwitchableSea::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                                         std::size_t count, double t_s, btScalar* height_out_m,
                                         keel::WaterVelocity* velocity_out) const {
  if (weight(t_s) >= 1) {
    current_.surface->heightsAndVelocities(u_m, v_m, w_m, count, t_s, height_out_m, velocity_out);
    return;
  }
  heights(u_m, v_m, count, t_s, height_out_m);
  for (std::size_t i = 0; i < count; ++i) velocity_out[i] = velocity(u_m[i], v_m[i], w_m[i], t_s);
}

}  // namespace demo
