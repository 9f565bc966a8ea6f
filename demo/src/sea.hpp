#pragma once
/// @file sea.hpp
/// The harbour's water: a sea state turned into a keel::WaterSurface, and a
/// surface that changes sea state live without a jump.

#include <keel/spectral_ocean.hpp>
#include <keel/water_surface.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace demo {

/// The highest sea state: 0 glassy .. 6 very rough, 7 high, 8 storm.
inline constexpr int kMaxSeaState = 8;

/// Which of Keel's wave models makes the sea.
enum class SeaModel {
  Spectral,  ///< keel::SpectralOcean: thousands of waves by FFT, updated every frame
  Gerstner,  ///< keel::GerstnerSurface of 8 components
};

/// The model named `name` ("spectral" or "gerstner"); false for another name.
bool parseSeaModel(const std::string& name, SeaModel& model);

/// A sea: the surface, and the spectral ocean behind it when there is one
/// (it needs SpectralOcean::update() every frame).
struct SeaSurface {
  std::shared_ptr<const keel::WaterSurface> surface;
  std::shared_ptr<keel::SpectralOcean> spectral;  ///< null for Gerstner and flat seas
};

/// The surface for sea state 0 .. kMaxSeaState of `model`, with waves drawn
/// from `seed`.
SeaSurface makeSeaSurface(int seaState, std::uint32_t seed, SeaModel model);

/// Significant wave height [m] the demo uses for a sea state (for the HUD).
double significantWaveHeight_m(int seaState);

/// A surface whose sea state can be changed between physics steps: the new
/// sea fades in over `fade_s` while the old one fades out, so boats see no
/// jump in the water. One instance is shared by every boat and the renderer:
/// what is drawn is what the boats float on.
class SwitchableSea final : public keel::WaterSurface {
 public:
  explicit SwitchableSea(SeaSurface initial);

  /// Starts fading to `next` at water time `now_s` [s]. Not thread-safe:
  /// call between steps, never during one.
  void change(SeaSurface next, double now_s, double fade_s = 4.0);

  /// Makes the spectral tiles cover water times [from_s, to_s] [s], in
  /// windows of 0.1 s (a new tile only when a step leaves the window): call
  /// before each physics step (not during one), for the time it will cover.
  void advance(double from_s, double to_s);

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  [[nodiscard]] keel::WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  /// The current sea's batch once faded in (one displacement solve a point
  /// for a spectral or Gerstner sea), the blend of velocity() before.
  void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                            double t_s, btScalar* height_out_m, keel::WaterVelocity* velocity_out) const override;

 private:
  /// Weight of the new sea at time t [s]: 0 before the change, 1 once faded in.
  [[nodiscard]] btScalar weight(double t_s) const;

  SeaSurface current_;
  SeaSurface previous_;
  double changeStart_s_ = 0;
  double fade_s_ = 1;
};

}  // namespace demo
