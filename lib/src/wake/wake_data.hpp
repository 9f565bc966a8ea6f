#pragma once
// keel::WakeField's state: the spectral field, its tiles in space at the
// two times queries interpolate between, and the boats that force it.
// docs/wakes.md says what each step computes and why.

#include <keel/wake_field.hpp>

#include "math/fft2d.hpp"
#include "wake/wake_link.hpp"

#include <algorithm>
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

/// A point's four nodes in a grid of the field's and their bilinear
/// weights; `inside` false (no field) outside the window.
struct NodeWeights {
  std::size_t at[4] = {0, 0, 0, 0};  ///< nodes (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1), periodic
  double w[4] = {0, 0, 0, 0};
  double fx = 0, fy = 0;  ///< the point's place in its cell, 0 to 1
  bool inside = false;
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
  std::vector<FftComplex> eta, phi;
  double time_s = 0;
  bool started = false;
  double westEdge_m = 0, southEdge_m = 0;      ///< the state's window corner
  double wantedWest_m = 0, wantedSouth_m = 0;  ///< setCentre's, taken at the next update

  std::array<WakeTiles, 2> tiles;  ///< tiles[published]: at the update's end; the other at its start
  int published = 0;

  double absorbed_J = 0, sourceWork_J = 0;
  std::vector<std::weak_ptr<WakeLink>> boats;

  // Working memory, kept between updates.
  std::vector<std::vector<FftComplex>> work;    ///< one N^2 buffer per transform in flight
  std::vector<FftScratch> scratch;              ///< one per transform in flight
  std::vector<FftComplex> forcing;              ///< per mode place: the sources' rate [m/s]
  std::vector<std::uint8_t> rowUsed;            ///< per row of nodes: 1 when a source reaches it
  std::vector<std::shared_ptr<WakeLink>> live;  ///< the boats of the update in hand
  std::vector<std::size_t> firstSource;         ///< per live boat: its first source's place in sourcePlace
  std::vector<NodeWeights> sourcePlace;         ///< per source: its nodes, halfway through the update
  std::vector<double> sourceRate;               ///< per source and band: its rate into the band [m/s]

  [[nodiscard]] std::size_t nodes() const { return std::size_t(n) * std::size_t(n); }
  [[nodiscard]] const WakeTiles& to() const { return tiles[std::size_t(published)]; }
  [[nodiscard]] const WakeTiles& from() const { return tiles[std::size_t(1 - published)]; }
  [[nodiscard]] WakeWindow window() const { return {westEdge_m, southEdge_m, double(n) * cell_m}; }
  /// The field's energy [J] (wake_field.hpp, energy_J).
  [[nodiscard]] double energy_J() const;
};

/// The nodes around (east, north) [m] of the field's grid whose node (0, 0)
/// lies at (westEdge, southEdge) [m]: the queries' interpolation, and the
/// sources' spreading, its transpose (one home for both).
[[nodiscard]] inline NodeWeights bilinearNodes(const WakeFieldData& d, double westEdge_m, double southEdge_m,
                                               double east_m, double north_m) {
  NodeWeights r;
  const double x = (east_m - westEdge_m) / d.cell_m, y = (north_m - southEdge_m) / d.cell_m;
  if (!(x >= 0 && x < d.n && y >= 0 && y < d.n)) return r;  // NaN too
  const int i0 = std::min(int(x), d.n - 1), j0 = std::min(int(y), d.n - 1);
  const int i1 = (i0 + 1) % d.n, j1 = (j0 + 1) % d.n;
  r.fx = x - i0;
  r.fy = y - j0;
  const std::size_t n = std::size_t(d.n);
  r.at[0] = std::size_t(j0) * n + std::size_t(i0);
  r.at[1] = std::size_t(j0) * n + std::size_t(i1);
  r.at[2] = std::size_t(j1) * n + std::size_t(i0);
  r.at[3] = std::size_t(j1) * n + std::size_t(i1);
  r.w[0] = (1 - r.fx) * (1 - r.fy);
  r.w[1] = r.fx * (1 - r.fy);
  r.w[2] = (1 - r.fx) * r.fy;
  r.w[3] = r.fx * r.fy;
  r.inside = true;
  return r;
}

/// The settings as the field uses them (cell size from a whole, even node
/// count; the sponge's width), or std::invalid_argument naming the bad one.
[[nodiscard]] WakeFieldSettings checkedSettings(const WakeFieldSettings& settings);

/// update()'s work (wake_update.cpp): the field from its time to `to_s`,
/// forced by the boats' sources, and the tiles at `to_s`.
void advanceField(WakeFieldData& d, double from_s, double to_s);

}  // namespace keel::KEEL_ABI::detail

namespace keel::KEEL_ABI {

/// WakeField's opaque data: the WakeFieldData itself.
struct WakeField::Data final : detail::WakeFieldData {
  using WakeFieldData::WakeFieldData;
};

}  // namespace keel::KEEL_ABI
