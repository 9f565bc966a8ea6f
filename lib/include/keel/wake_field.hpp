#pragma once
/// @file wake_field.hpp
/// keel::WakeField: the waves that boats make, which every boat feels. A
/// window of linear deep-water waves laid over any ambient WaterSurface,
/// forced each frame by the hulls that make waves in it. Model, limits,
/// validation and cost: docs/wakes.md.

#include <keel/config.hpp>
#include <keel/constants.hpp>
#include <keel/water_surface.hpp>

#include <cstddef>
#include <memory>
#include <span>

namespace keel::KEEL_ABI {

class WaterAction;
class WaterFleet;

/// The window a WakeField's waves live in, and how they are resolved.
struct WakeFieldSettings {
  /// Side of the square window [m], finite and > 0. Waves leave through its
  /// edges (an absorbing band inside each, spongeWidth_m wide).
  double size_m = 128;
  /// Spacing of the field's nodes [m], finite, > 0 and at most size_m / 16.
  /// `size_m / cellSize_m` is rounded to an even node count per side, 16 to
  /// 2048 (the cell then becomes size_m over it). The field holds waves of
  /// 4 cells and longer (wavenumbers up to `pi / (2 cellSize_m)`).
  double cellSize_m = 0.5;
  double centreEast_m = 0;   ///< centre of the window along WaterFrame::east [m]
  double centreNorth_m = 0;  ///< centre of the window along WaterFrame::north [m]
  /// Width of the absorbing band inside each edge [m]: 0 picks `size_m / 8`;
  /// else at least 4 cells and at most a quarter of size_m.
  double spongeWidth_m = 0;
  /// Wavenumber bands of the depth decay, 1 to 4: a source at depth d
  /// excites, and a point at depth d feels, each band as `e^{-k_b d}` of
  /// its own mean wavenumber k_b (docs/wakes.md, "Depth"). Each band costs
  /// one inverse FFT a frame and half a forward one.
  int depthBands = 2;
  double gravity_mps2 = kStandardGravity_mps2;         ///< for omega^2 = g k [m/s^2]
  double waterDensity_kgpm3 = kSeaWaterDensity_kgpm3;  ///< for the energies [kg/m^3]
};

/// A WakeField's saved state (WakeField::saveState): its waves, the tiles
/// queries read, its time, its window and its energies. Not the boats:
/// each boat's WaterActionState holds the sources its last substep left.
/// A value: copy it, keep many in a ring buffer; copying into a state of
/// the same field reuses its memory.
class WakeFieldState {
 public:
  WakeFieldState();
  ~WakeFieldState();
  WakeFieldState(const WakeFieldState& other);
  WakeFieldState& operator=(const WakeFieldState& other);
  WakeFieldState(WakeFieldState&& other) noexcept;
  WakeFieldState& operator=(WakeFieldState&& other) noexcept;
  /// True for a default-constructed (or moved-from) state: nothing saved.
  [[nodiscard]] bool empty() const { return saved_ == nullptr; }
  /// The field's time saved [s] (0 when empty()).
  [[nodiscard]] double time_s() const;

 private:
  /// What is saved (lib/src): opaque here.
  struct Saved;
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  std::unique_ptr<Saved> saved_;
};

/// Waves that boats make, over an ambient sea: itself a WaterSurface.
///
/// Each Fourier mode of the window is a linear deep-water wave, `omega^2 =
/// g |k|`, advanced exactly over each update. The hulls registered with
/// add() force it: every wet piece of a hull pushes the water aside at the
/// rate its velocity relative to the ambient water moves its face, a source
/// that excites the wavenumber k with weight `e^{-k d}` at depth d
/// (Michell's thin-ship sources, generalised to any hull and motion). A
/// boat at rest makes nothing (it feels no depression of its own); a boat
/// that moves pays for the waves it makes and is damped by those it
/// radiates. Heights, velocities (decaying with depth) and pressure heads
/// are the ambient surface's plus the field's, so boats feel other boats'
/// waves through the paths they feel any sea.
///
/// Time: update(from, to) advances the field to `to` with the sources the
/// boats left at their last substep, and keeps the field at `from` and at
/// `to`; queries between them interpolate linearly. Threads: queries are
/// const and safe from many threads; update(), add(), remove(),
/// setCentre() and restoreState() must not run while a query runs
/// (between frames, before stepSimulation).
class WakeField final : public WaterSurface {
 public:
  /// A still field over `ambient`. Throws std::invalid_argument for a null
  /// ambient surface or a bad setting (naming it, its value and its bound).
  WakeField(std::shared_ptr<const WaterSurface> ambient, const WakeFieldSettings& settings = {});
  ~WakeField() override;
  WakeField(const WakeField&) = delete;
  WakeField& operator=(const WakeField&) = delete;

  /// `boat` makes waves in this field from its next substep on (it feels
  /// them when it floats on this field). Adding a boat twice changes
  /// nothing. The boat may be destroyed while registered: it is then
  /// forgotten. Throws std::invalid_argument for a boat that makes waves
  /// in another WakeField.
  void add(WaterAction& boat);
  /// add() for every boat the fleet holds now (boats added to it later are
  /// added one by one).
  void add(WaterFleet& fleet);
  /// `boat` stops making waves here (those it made travel on). False when
  /// it was not registered.
  bool remove(WaterAction& boat);
  /// Boats registered and alive.
  [[nodiscard]] std::size_t boatCount() const;

  /// Advances the field from its time to `to_s` [s], forced by the sources
  /// each registered boat left at its last substep, and keeps the field at
  /// `from_s` and at `to_s` for the queries. Call it each frame after the
  /// ambient sea's own update and before stepSimulation, with the frame's
  /// times (from_s <= to_s, finite). A `from_s` later than the field's time
  /// lets the field run free up to it; an earlier one (by more than
  /// rounding: 1e-12 of the time) is refused
  /// (std::invalid_argument): roll back with restoreState().
  void update(double from_s, double to_s);
  /// Moves the window's centre [m] from the next update() on, so that it
  /// follows a point (a camera, a player's boat): the waves stay where they
  /// are in the world; those that the window leaves behind are lost.
  void setCentre(double east_m, double north_m);

  /// The boats' waves alone [m] at (east, north) [m], time t [s]: 0 outside
  /// the window.
  [[nodiscard]] btScalar wakeHeight_m(btScalar east_m, btScalar north_m, double t_s) const;
  /// True when (east, north) [m] lies inside the window as it was last updated.
  [[nodiscard]] bool contains(double east_m, double north_m) const;

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// The ambient water's velocity plus the field's orbital velocity, each
  /// band decaying as `e^{k_b z}` below the surface (z <= 0).
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                            double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const override;
  /// The ambient surface's pressure heads plus the field's linear (Airy)
  /// pressure: each band's elevation times `e^{k_b z}`, z the depth below
  /// the surface (the total surface, ambient and field).
  void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     btScalar* out_m) const override;
  /// The ambient surface's grid heights plus the field's at the nodes;
  /// false, writing nothing, when the ambient surface has no grid of
  /// heights (gridHeightsAndVelocities() then answers, passing the patch's
  /// history on to it).
  bool gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const override;
  /// The ambient surface's grid heights and velocities plus the field's
  /// (each band decaying as `e^{-k_b depth}`), over any ambient surface:
  /// its grid query, or else its heights at the nodes and its velocities
  /// at their depths (its one velocity where it is uniform). Always true.
  bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                btScalar* heights_out_m) const override;
  [[nodiscard]] QueryCost queryCost() const override;

  /// The field's wave energy now [J]: `rho/2 sum (g |eta_k|^2 + |k| |phi_k|^2)`
  /// over its modes times the window's area.
  [[nodiscard]] double energy_J() const;
  /// The energy the absorbing edges took out since construction [J].
  [[nodiscard]] double absorbedEnergy_J() const;
  /// The work the boats' sources did on the field since construction [J].
  [[nodiscard]] double sourceWork_J() const;
  /// The field's time [s]: the `to_s` of the last update().
  [[nodiscard]] double time_s() const;
  /// The settings, with the cell size and sponge width as used.
  [[nodiscard]] const WakeFieldSettings& settings() const;
  /// Nodes per side of the field's grid.
  [[nodiscard]] int nodesPerSide() const;
  /// Each depth band's mean wavenumber k_b [rad/m], longest waves first.
  [[nodiscard]] std::span<const double> bandWavenumbers_radpm() const;
  [[nodiscard]] const std::shared_ptr<const WaterSurface>& ambient() const;

  /// Everything the field carries from one update to the next, for
  /// rollback: after restoreState() of it (and of the boats' and bodies'
  /// states saved with it) the next updates compute the same bits.
  [[nodiscard]] WakeFieldState saveState() const;
  /// saveState() into `into`, reusing its memory: no allocation once `into`
  /// holds a state of this field.
  void saveState(WakeFieldState& into) const;
  /// Puts back a state this field saved (between frames). Throws
  /// std::invalid_argument, changing nothing, for an empty state or one
  /// saved by another field.
  void restoreState(const WakeFieldState& state);

 private:
  /// The field's waves, tiles and sources (lib/src): opaque here.
  struct Data;
  std::unique_ptr<Data> data_;
};

}  // namespace keel::KEEL_ABI
