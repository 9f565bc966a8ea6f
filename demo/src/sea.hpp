#pragma once
/// @file sea.hpp
/// The harbour's water: a sea state turned into a keel::WaterSurface, and a
/// surface that changes sea state live without a jump.

#include <keel/water_surface.hpp>

#include <cstdint>
#include <memory>

namespace demo {

/// The surface for sea state 0 (glassy) .. 6 (very rough) with wave phases
/// from `seed`.
std::shared_ptr<const keel::WaterSurface> makeSeaSurface(int seaState, std::uint32_t seed);

/// Significant wave height [m] the demo uses for a sea state (for the HUD).
double significantWaveHeight_m(int seaState);

/// A surface whose sea state can be changed between physics steps: the new
/// sea fades in over `fade_s` while the old one fades out, so boats see no
/// jump in the water. One instance is shared by every boat and the renderer:
/// what is drawn is what the boats float on.
class SwitchableSea final : public keel::WaterSurface {
 public:
  explicit SwitchableSea(std::shared_ptr<const keel::WaterSurface> initial);

  /// Starts fading to `next` at water time `now_s` [s]. Not thread-safe:
  /// call between steps, never during one.
  void change(std::shared_ptr<const keel::WaterSurface> next, double now_s, double fade_s = 4.0);

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, btScalar t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, btScalar t_s,
               btScalar* out_m) const override;
  [[nodiscard]] keel::WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, btScalar t_s) const override;

 private:
  /// Weight of the new sea at time t [s]: 0 before the change, 1 once faded in.
  [[nodiscard]] btScalar weight(btScalar t_s) const;

  std::shared_ptr<const keel::WaterSurface> current_;
  std::shared_ptr<const keel::WaterSurface> previous_;
  double changeStart_s_ = 0;
  double fade_s_ = 1;
};

}  // namespace demo
