#pragma once
// Internal to Keel: keel::SpectralOcean's wave amplitudes and the tiles
// synthesised from them by inverse FFTs (spectral_tile.cpp), read by the
// queries (spectral_ocean.cpp). docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// One tile node's surface values: the horizontal displacement and elevation
/// of the surface particle resting at the node [m], and their time
/// derivatives [m/s] (the surface velocity, for the Hermite interpolation
/// in time).
struct SurfaceNode {
  float east_m, north_m, elevation_m;
  float east_mps, north_mps, elevation_mps;
};

/// The tiles at one time.
struct SpectralLevel {
  double time_s = 0;
  std::vector<SurfaceNode> surface;  ///< N * N, row-major (row = north index)
  /// Per node, per band: velocity east, north, up [m/s] at the surface.
  std::vector<float> velocity_mps;
  /// Per node, per band: acceleration east, north, up [m/s^2] at the surface.
  std::vector<float> acceleration_mps2;
};

/// The tile's waves: one per grid wavevector, `c e^{i(k.x - omega t)}` with
/// c = a e^{i phi}; zero where the spectrum or the cut-offs leave none.
struct SpectralWaves {
  int nodes = 0;                                  ///< N per side
  double tile_m = 0;                              ///< L
  double choppiness = 1;                          ///< lambda
  std::vector<std::complex<double>> amplitude_m;  ///< c per grid index (n * N + m), m the east index mod N
  std::vector<double> angularFrequency_radps;     ///< omega per grid index
  std::vector<std::uint8_t> band;                 ///< velocity band per grid index
  std::vector<double> bandWavenumber_radpm;       ///< mean wavenumber of each band
  double expectedVariance_m2 = 0;                 ///< sum of F dk^2: E[sum a^2 / 2]
  double variance_m2 = 0;                         ///< sum a^2 / 2 of the draw
};

/// Draws the tile's waves (validated settings, tile size filled in).
[[nodiscard]] SpectralWaves drawSpectralWaves(const WaveSpectrum& spectrum, const SpectralOceanSettings& settings);

/// Turns SpectralWaves into tiles at given times: kissfft plans and buffers
/// made once, so that synthesis allocates nothing.
class SpectralSynthesis {
 public:
  explicit SpectralSynthesis(const SpectralWaves& waves);
  ~SpectralSynthesis();
  SpectralSynthesis(const SpectralSynthesis&) = delete;
  SpectralSynthesis& operator=(const SpectralSynthesis&) = delete;

  /// A level sized for these waves.
  [[nodiscard]] SpectralLevel makeLevel() const;
  /// Fills `level` with the tiles at `time_s`.
  void synthesize(double time_s, SpectralLevel& level);

 private:
  struct Plan;
  const SpectralWaves& waves_;
  std::unique_ptr<Plan> plan_;
};

/// A point's interpolation stencil in the tile: the columns and rows of its
/// 4 x 4 nodes (periodic), their weights and the weights' derivatives along
/// east and north [1/m]. Bilinear stencils use taps 1 and 2 only.
struct Stencil {
  std::array<std::size_t, 4> column;  ///< node column indices
  std::array<std::size_t, 4> row;     ///< row offsets (row index * N)
  std::array<double, 4> wx, wy;       ///< weights along east and north
  std::array<double, 4> dx, dy;       ///< their derivatives [1/m]
  int first, last;                    ///< taps [first, last) used
};

/// Everything a SpectralOcean holds: the waves, the synthesis, and four tile
/// levels of which `front` are published and `back` prepared.
struct SpectralOceanState {
  SpectralOceanSettings settings;
  SpectralWaves waves;
  SpectralSynthesis synthesis;
  std::array<SpectralLevel, 4> levels;
  std::array<int, 2> front{0, 0};
  std::array<int, 2> back{0, 0};
  bool prepared = false;
  double inverseCell_pm;

  SpectralOceanState(const WaveSpectrum& spectrum, const SpectralOceanSettings& checkedSettings);
  /// The bicubic (`cubic`) or bilinear stencil of the point at rest
  /// position (x, y) [m].
  [[nodiscard]] Stencil stencilAt(double x_m, double y_m, bool cubic) const;
};

}  // namespace keel::KEEL_ABI::detail
