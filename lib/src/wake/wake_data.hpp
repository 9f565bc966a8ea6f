#pragma once
// keel::WakeField's state: the spectral field, its tiles in space at the
// two times queries interpolate between, and the boats that force it.
// docs/wakes.md says what each step computes and why.

#include <keel/wake_field.hpp>

#include "math/fft2d.hpp"
#include "wake/wake_link.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI::detail {

inline constexpr int kMaxDepthBands = 4;

/// The field in space at one time: each band's elevation and surface
/// potential, and the elevation summed over the bands (node-major,
/// `[j N + i]`, node (i, j) at (westEdge + i cell, southEdge + j cell)).
struct WakeTiles {
  double time_s = 0;
  double westEdge_m = 0, southEdge_m = 0;
  std::vector<float> height_m;            ///< N^2: the bands' elevations summed [m]
  std::vector<float> bandHeight_m;        ///< B N^2: band b's elevation at [b N^2 + node] [m]
  std::vector<float> bandPotential_m2ps;  ///< B N^2: band b's surface velocity potential [m^2/s]
};

/// One Fourier mode's constants (the modes the field holds).
struct WakeMode {
  std::uint32_t index = 0;   ///< its place in the N x N spectrum
  std::uint32_t mirror = 0;  ///< the place of -k
  float k_radpm = 0;         ///< |k| [rad/m]
  float omega_radps = 0;     ///< sqrt(g |k|) [rad/s]
  std::uint8_t band = 0;     ///< its depth band
};

struct WakeFieldData {
  WakeFieldData(std::shared_ptr<const WaterSurface> ambient, const WakeFieldSettings& settings);

  std::shared_ptr<const WaterSurface> ambient;
  WakeFieldSettings settings;  ///< with the cell size and sponge width as used
  int n = 0;                   ///< nodes per side
  int bands = 0;               ///< depth bands
  double cell_m = 0;           ///< node spacing [m]
  Fft2d fft;
  std::array<double, kMaxDepthBands> bandK_radpm{};  ///< each band's mean wavenumber [rad/m]

  std::vector<WakeMode> modes;          ///< the modes held (|k| <= pi / (2 cell), k != 0), index order
  std::vector<float> cosStep, sinStep;  ///< per mode: cos, sin of omega dt for dtCached
  double dtCached_s = -1;
  std::vector<double> spongeRate_ps;           ///< per node index along an axis: the absorbing rate [1/s]
  std::vector<double> spongeKeep;              ///< per node index: e^{-rate dt} of the update in hand
  std::vector<double> twiddleCos, twiddleSin;  ///< cos, sin of 2 pi p / N: whole-cell shifts

  // The spectral state: Fourier-series coefficients of the elevation [m]
  // and the surface potential [m^2/s], relative to the window's corner;
  // zero outside the modes held.
  std::vector<kiss_fft_cpx> eta, phi;
  double time_s = 0;
  bool started = false;
  double westEdge_m = 0, southEdge_m = 0;      ///< the state's window corner
  double wantedWest_m = 0, wantedSouth_m = 0;  ///< setCentre's, taken at the next update

  std::array<WakeTiles, 2> tiles;  ///< tiles[published]: at the update's end; the other at its start
  int published = 0;

  double absorbed_J = 0, sourceWork_J = 0;
  std::vector<std::weak_ptr<WakeLink>> boats;

  // Working memory, kept between updates.
  std::vector<std::vector<kiss_fft_cpx>> work;  ///< one N^2 buffer per transform in flight
  std::vector<FftScratch> scratch;              ///< one per transform in flight
  std::vector<kiss_fft_cpx> forcing;            ///< per mode place: the sources' rate [m/s]
  std::vector<std::uint8_t> rowUsed;            ///< per row of nodes: 1 when a source reaches it
  std::vector<std::shared_ptr<WakeLink>> live;  ///< the boats of the update in hand
  std::vector<std::size_t> firstSource;         ///< per live boat: its first source's place in sourceDecay
  std::vector<double> sourceDecay;              ///< per source and band: e^{-k_b d}

  [[nodiscard]] std::size_t nodes() const { return std::size_t(n) * std::size_t(n); }
  [[nodiscard]] const WakeTiles& to() const { return tiles[std::size_t(published)]; }
  [[nodiscard]] const WakeTiles& from() const { return tiles[std::size_t(1 - published)]; }
  [[nodiscard]] WakeWindow window() const { return {westEdge_m, southEdge_m, double(n) * cell_m}; }
  /// The field's energy [J] (wake_field.hpp, energy_J).
  [[nodiscard]] double energy_J() const;
};

/// The settings as the field uses them (cell size from a whole, even node
/// count; the sponge's width), or std::invalid_argument naming the bad one.
[[nodiscard]] WakeFieldSettings checkedSettings(const WakeFieldSettings& settings);

/// update()'s work (wake_update.cpp): the field from its time to `to_s`,
/// forced by the boats' sources, and the tiles at `to_s`.
void advanceField(WakeFieldData& d, double from_s, double to_s);

}  // namespace keel::KEEL_ABI::detail
