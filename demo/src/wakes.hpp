#pragma once
/// @file wakes.hpp
/// The boats' waves in the harbour: a keel::WakeField over the harbour's sea
/// (docs/wakes.md) that the boats and the debris float on and every boat
/// makes waves in, switched on and off live; and the Bullet world that says
/// how far its next step will go, which the field's update needs first.

#include <keel/wake_field.hpp>
#include <keel/water_action.hpp>

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <memory>

namespace demo {

struct Basin;

/// A btDiscreteDynamicsWorld that tells, before stepSimulation, the time its
/// substeps will reach: the water that reacts to the boats (the wake field)
/// is advanced over that time before the step, as docs/wakes.md asks.
class HarbourWorld final : public btDiscreteDynamicsWorld {
 public:
  using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
  /// The substeps `stepSimulation(frame_s, maxSubsteps, substep_s)` will take:
  /// Bullet's own accumulator arithmetic (btDiscreteDynamicsWorld::stepSimulation),
  /// in its own precision, on the time it has left over.
  [[nodiscard]] int substepsOf(btScalar frame_s, int maxSubsteps, btScalar substep_s) const;
};

/// What the HUD and the summary show about the field.
struct WakeStats {
  bool on = false;
  double size_m = 0, cell_m = 0;
  int nodes = 0;           ///< per side
  std::size_t boats = 0;   ///< registered and alive
  double energy_J = 0;     ///< the field's wave energy now
  double updateMs = 0;     ///< wall time of the last update() [ms]
  bool following = false;  ///< the window follows the selected boat (smaller than the basin)
};

/// The harbour's wake field. World x is the water's east, z its north.
class HarbourWakes {
 public:
  /// A window of `size_m` at `cell_m` cells [m]; `on` whether boats float on it.
  HarbourWakes(bool on, double size_m, double cell_m, const Basin& basin);

  /// A still field over `sea` (when on): call when the sea itself is new,
  /// then add() the boats again.
  void reset(std::shared_ptr<const keel::WaterSurface> sea);
  /// Switches the field on (a still one over the sea) or off. The caller
  /// then floats every boat and piece on water() and add()s the boats.
  void setOn(bool on);
  [[nodiscard]] bool on() const { return field_ != nullptr; }

  /// The water the boats and the debris float on: the field over the sea
  /// when on, the sea alone when off.
  [[nodiscard]] const std::shared_ptr<const keel::WaterSurface>& water() const { return water_; }
  /// The sea under the field.
  [[nodiscard]] const std::shared_ptr<const keel::WaterSurface>& sea() const { return sea_; }
  [[nodiscard]] const keel::WakeField* field() const { return field_.get(); }

  /// `boat` makes waves in the field from its next substep (nothing when off).
  void add(keel::WaterAction& boat);
  /// Advances the field over a step of the world from `from_s` to `to_s`
  /// [s], before it (nothing for an empty step); a window smaller than the basin first moves to centre
  /// on world (x, z) [m] (the selected boat).
  void update(double from_s, double to_s, double focusX_m, double focusZ_m);

  /// The field's state for the HUD and the summary (its energy sums every mode).
  [[nodiscard]] WakeStats stats() const;
  /// Wall time of the last update() [ms]: 0 when it had nothing to do.
  [[nodiscard]] double lastUpdate_ms() const { return updateMs_; }

 private:
  [[nodiscard]] keel::WakeFieldSettings settings() const;

  bool wantOn_ = true;
  double size_m_ = 128, cell_m_ = 0.5;
  double basinX_m_ = 0, basinZ_m_ = 0;  ///< the basin's centre [m]
  bool follows_ = false;                ///< smaller than the basin: follows the focus
  double centreX_m_ = 0, centreZ_m_ = 0;
  double updateMs_ = 0;
  std::shared_ptr<const keel::WaterSurface> sea_;
  std::shared_ptr<keel::WakeField> field_;
  std::shared_ptr<const keel::WaterSurface> water_;  ///< field_ when on, else sea_
};

}  // namespace demo
