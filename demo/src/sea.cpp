#include "sea.hpp"

#include <keel/waves.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace demo {
namespace {

/// Significant wave height [m] and peak period [s] per sea state: the WMO sea
/// state code's heights, scaled down for a sheltered harbour so that a
/// rowboat lives through state 6.
struct SeaStateRow {
  double hs_m;
  double peakPeriod_s;
};
constexpr std::array<SeaStateRow, 7> kSeaStates = {
    {{0.0, 3.0}, {0.08, 2.2}, {0.25, 3.0}, {0.6, 4.2}, {1.0, 5.0}, {1.6, 6.0}, {2.4, 7.0}}};

/// Waves travel towards the quay (north, -z in the world; the water frame's
/// north axis is world +z), a little from the west: they enter through the
/// harbour mouth [rad, counter-clockwise from east towards the frame's north].
constexpr double kMeanDirection_rad = -1.25;
/// Few components keep the rendered grid and the per-piece water velocities
/// cheap (every Gerstner query solves for its rest point); enough to look
/// irregular.
constexpr std::size_t kComponents = 8;

}  // namespace

double significantWaveHeight_m(int seaState) { return kSeaStates[std::size_t(std::clamp(seaState, 0, 6))].hs_m; }

std::shared_ptr<const keel::WaterSurface> makeSeaSurface(int seaState, std::uint32_t seed) {
  const SeaStateRow row = kSeaStates[std::size_t(std::clamp(seaState, 0, 6))];
  if (row.hs_m <= 0) return std::make_shared<keel::FlatSurface>(0.0);
  keel::SeaStateSettings settings;
  settings.meanDirection_rad = kMeanDirection_rad;
  settings.spreadingExponent = 4;
  settings.componentCount = kComponents;
  settings.seed = seed;
  auto components = keel::sampleSeaState(keel::WaveSpectrum::jonswap(row.hs_m, row.peakPeriod_s), settings);
  keel::GerstnerSettings gerstner;
  // Sharp crests, but well clear of the fold-over limit.
  gerstner.steepness = std::min(0.8, 0.7 * keel::gerstnerSteepnessLimit(components));
  return std::make_shared<keel::GerstnerSurface>(std::move(components), gerstner);
}

SwitchableSea::SwitchableSea(std::shared_ptr<const keel::WaterSurface> initial) : current_(std::move(initial)) {}

void SwitchableSea::change(std::shared_ptr<const keel::WaterSurface> next, double now_s, double fade_s) {
  previous_ = current_;
  current_ = std::move(next);
  changeStart_s_ = now_s;
  fade_s_ = std::max(fade_s, 1e-3);
}

btScalar SwitchableSea::weight(btScalar t_s) const {
  if (!previous_) return 1;
  const double x = std::clamp((double(t_s) - changeStart_s_) / fade_s_, 0.0, 1.0);
  return btScalar(x * x * (3 - 2 * x));  // smoothstep: no kink in the heave
}

btScalar SwitchableSea::height(btScalar u_m, btScalar v_m, btScalar t_s) const {
  const btScalar a = weight(t_s);
  const btScalar now = current_->height(u_m, v_m, t_s);
  return a >= 1 ? now : a * now + (1 - a) * previous_->height(u_m, v_m, t_s);
}

void SwitchableSea::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
                            btScalar* out_m) const {
  const btScalar a = weight(t_s);
  current_->heights(u_m, v_m, count, t_s, out_m);
  if (a >= 1) return;
  for (std::size_t i = 0; i < count; ++i) out_m[i] = a * out_m[i] + (1 - a) * previous_->height(u_m[i], v_m[i], t_s);
}

keel::WaterVelocity SwitchableSea::velocity(btScalar u_m, btScalar v_m, btScalar w_m, btScalar t_s) const {
  const btScalar a = weight(t_s);
  keel::WaterVelocity now = current_->velocity(u_m, v_m, w_m, t_s);
  if (a >= 1) return now;
  const keel::WaterVelocity before = previous_->velocity(u_m, v_m, w_m, t_s);
  return {a * now.east_mps + (1 - a) * before.east_mps, a * now.north_mps + (1 - a) * before.north_mps,
          a * now.up_mps + (1 - a) * before.up_mps};
}

}  // namespace demo
