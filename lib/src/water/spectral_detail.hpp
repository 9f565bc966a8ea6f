#pragma once
// Internal to Keel: keel::SpectralOcean's wave amplitudes and the tiles
// synthesised from them by inverse FFTs (spectral_tile.cpp), read by the
// queries (spectral_ocean.cpp). docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "internals.hpp"

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
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

/// One fixed-point tile node: the elevation of the surface particle above
/// the node's fixed world point [m] and its time derivative at that fixed
/// point [m/s] (the Eulerian rate, for the Hermite interpolation in time).
struct FixedNode {
  float elevation_m, elevation_mps;
};

/// The tiles at one time. The rest-position (Lagrangian) tiles come from the
/// FFTs; the fixed-point (Eulerian) ones resample them at the nodes' world
/// points (SpectralQuery::FixedPointTiles only, spectral_fixed.cpp).
struct SpectralLevel {
  double time_s = 0;
  std::vector<SurfaceNode> surface;  ///< N * N, row-major (row = north index)
  /// Per node, per band: velocity east, north, up [m/s] at the surface.
  /// Empty in fixed-point levels (the synthesis scratch holds it).
  std::vector<float> velocity_mps;
  /// Per node, per band: acceleration east, north, up [m/s^2] at the surface.
  /// Empty in fixed-point levels.
  std::vector<float> acceleration_mps2;
  /// Per node, per band: the band's waves' elevation [m] (their sum is the
  /// node's elevation), for the pressure. Empty in fixed-point levels.
  std::vector<float> bandElevation_m;
  /// The resampling's scratch (SpectralOceanState::scratch) holds the three
  /// above here instead, a node's together: every band's velocity, then
  /// acceleration, then elevation, bandStride() floats a node (whole cache
  /// lines), so that a stencil tap reads one run. Empty elsewhere.
  std::vector<float> bands;
  std::vector<FixedNode> fixed;  ///< M * M (M = N refinement): the particle above each node's world point
  /// Per node, per band: the velocity [m/s] and the acceleration [m/s^2] of
  /// the particle above the node, east, north, up.
  std::vector<float> fixedVelocity_mps, fixedAcceleration_mps2;
  /// Per node, per band: the velocity's rate of change at the node's fixed
  /// point [m/s^2], `a - u_h . grad_x v` (the acceleration less the
  /// advection), the velocities' slope in the Hermite blend in time.
  std::vector<float> fixedVelocityRate_mps2;
  /// Per node, per band: the band's elevation at the particle above the node [m].
  std::vector<float> fixedBandElevation_m;
};

/// SpectralOceanSettings::velocityBands at most (the settings are checked
/// against it, and the synthesis sizes its per-row tables by it).
inline constexpr int kMaxVelocityBands = 8;

/// The tile's waves: one per grid wavevector, `c e^{i(k.x - omega t)}` with
/// c = a e^{i phi}; zero where the spectrum or the cut-offs leave none.
struct SpectralWaves {
  int nodes = 0;                                      ///< N per side
  double tile_m = 0;                                  ///< L
  double choppiness = 1;                              ///< lambda
  std::vector<std::complex<double>> amplitude_m;      ///< c per grid index (n * N + m), m the east index mod N
  std::vector<double> angularFrequency_radps;         ///< omega per grid index
  std::vector<std::uint8_t> band;                     ///< velocity band per grid index
  std::vector<double> bandWavenumber_radpm;           ///< mean wavenumber of each band (velocity-weighted)
  std::vector<double> bandElevationWavenumber_radpm;  ///< the same weighted by elevation variance (pressure)
  /// Per band, its waves' mean omega^2 weighted by their acceleration
  /// variance a^2 omega^4: the accelerations' curvature in time [rad^2/s^2].
  std::vector<double> bandAccelerationFrequency2_rad2ps2;
  double expectedVariance_m2 = 0;  ///< sum of F dk^2: E[sum a^2 / 2]
  double variance_m2 = 0;          ///< sum a^2 / 2 of the draw
};

/// The tiles' memory a SpectralOcean may take at most [bytes]: settings
/// that need more are refused (docs/waves.md, "Bounds").
inline constexpr double kMaxSpectralMemory_bytes = 4e9;
/// An update window's Hermite error bound, at its significant value, at
/// most this fraction of Hs (docs/waves.md, "Bounds").
inline constexpr double kMaxWindowError = 0.01;

/// The settings with the tile size filled in, or std::invalid_argument
/// naming the bad field, its value and its bound (spectral_settings.cpp).
[[nodiscard]] SpectralOceanSettings checkedSpectralSettings(const WaveSpectrum& spectrum,
                                                            SpectralOceanSettings settings);
/// Fixed-point tile nodes per side M: N times the refinement, even.
[[nodiscard]] int fixedNodesOf(const SpectralOceanSettings& settings);
/// The memory an ocean of these (checked) settings takes [bytes].
[[nodiscard]] double spectralMemory_bytes(const SpectralOceanSettings& settings);

/// Draws the tile's waves (validated settings, tile size filled in).
[[nodiscard]] SpectralWaves drawSpectralWaves(const WaveSpectrum& spectrum, const SpectralOceanSettings& settings);

/// Refuses waves that leave the tile empty (naming the setting that does)
/// or would overflow its float tiles.
void checkSpectralWaves(const SpectralWaves& waves, const WaveSpectrum& spectrum,
                        const SpectralOceanSettings& settings);
/// The longest update window whose Hermite error stays within
/// kMaxWindowError of the waves' Hs [s].
[[nodiscard]] double maxSpectralWindow_s(const SpectralWaves& waves);

/// Turns SpectralWaves into tiles at given times: the FFTs' plan and buffers
/// made once, so that synthesis allocates nothing.
class SpectralSynthesis {
 public:
  explicit SpectralSynthesis(const SpectralWaves& waves);
  ~SpectralSynthesis();
  SpectralSynthesis(const SpectralSynthesis&) = delete;
  SpectralSynthesis& operator=(const SpectralSynthesis&) = delete;

  /// A level sized for these waves: the rest-position tiles (`lagrangian`:
  /// all; otherwise the surface only) and the fixed-point ones (`fixed`,
  /// `fixedNodes` per side).
  [[nodiscard]] SpectralLevel makeLevel(bool lagrangian, bool fixed, int fixedNodes = 0) const;
  /// Fills `level` with the tiles at `time_s`: every stage in turn.
  void synthesize(double time_s, SpectralLevel& level);
  /// The synthesis in stages, so that a tile can be computed a few stages
  /// an update (SpectralOceanState::workAhead): the waves turned to the
  /// time, the phasors by blocks of rows, one inverse FFT per pair of
  /// fields, then the tiles into `level` by blocks of nodes. The stages keep
  /// their state in the synthesis's buffers between calls.
  [[nodiscard]] int stageCount() const;
  /// A stage's share of the synthesis's CPU time (relative units: about a
  /// resampled fixed-point node each).
  [[nodiscard]] double stageWeight(int stage) const;
  /// Runs stage `stage` of the tiles at `time_s` (every earlier stage run
  /// for that time before it).
  void runStage(int stage, double time_s, SpectralLevel& level);

 private:
  struct Plan;
  void turnWaves(double time_s);
  void fillSpectra(int firstRow, int lastRow);
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

/// Tile levels a SpectralOcean may hold: up to kMaxTilesInUse published,
/// as many prepared, and one computed ahead. Steady play at a frame rate
/// above the lattice's uses four; the rest are made when first needed.
inline constexpr std::size_t kTileLevels = 6;
/// Lattice tiles a window may span at most: a window no longer than the
/// tile period spans two lattice cells at most. A longer window takes its
/// tiles at its ends instead (spectral_ocean.cpp).
inline constexpr std::size_t kMaxTilesInUse = 3;

/// The levels of the tiles queries read (or will read once published), in
/// order of time.
struct TileSet {
  std::array<int, kMaxTilesInUse> level{};
  std::size_t count = 1;
  [[nodiscard]] bool holds(int l) const {
    for (std::size_t i = 0; i < count; ++i)
      if (level[i] == l) return true;
    return false;
  }
};

/// The lattice tile computed ahead, a few steps an update: its level (-1
/// none), its time and the next step to run.
struct TileWork {
  int level = -1;
  double time_s = 0;
  int step = 0;
};

/// The published tiles blended in time whole, shared by the threads that
/// query one time (blended_tile.cpp).
struct SharedBlends;
/// A new ocean's shared blended planes, none blended yet.
[[nodiscard]] std::shared_ptr<SharedBlends> makeSharedBlends();

/// A number no other publication of any ocean in the process had.
[[nodiscard]] std::uint64_t nextPublication();

/// Everything a SpectralOcean holds: the waves, the synthesis, and the tile
/// levels of which `front` are published and `back` prepared.
struct SpectralOceanState {
  SpectralOceanSettings settings;
  SpectralWaves waves;
  SpectralSynthesis synthesis;
  std::array<SpectralLevel, kTileLevels> levels;  ///< sized when first used (level())
  SpectralLevel scratch;  ///< the FFTs' rest-position tiles before resampling (fixed-point tiles)
  TileSet front, back;
  TileWork ahead;
  bool prepared = false;
  /// Which publication of which ocean `front` is (nextPublication()): the
  /// published tiles change only with it, so what a query derives from
  /// them may be kept under it (blended_tile.cpp).
  std::uint64_t publication = nextPublication();
  /// The tiles blended in time at the times many grids ask, shared by
  /// every thread that queries (blended_tile.hpp, BlendedTile).
  std::shared_ptr<SharedBlends> blends = makeSharedBlends();
  double inverseCell_pm;       ///< N / L [1/m]
  int fixedNodes;              ///< fixed-point tile nodes per side M: N times the refinement, even
  double inverseFixedCell_pm;  ///< M / L [1/m]
  int rowsPerStep;             ///< fixed-point rows a tile step resamples: a vector's lanes (resampleLanes())
  /// A published tile this close in time to a requested one is reused
  /// (spectral_ocean.cpp, tileTimeTolerance) [s].
  double tileTimeTolerance_s;
  double maxWindow_s;   ///< the longest update window (maxSpectralWindow_s) [s]
  double tilePeriod_s;  ///< W: the lattice tiles lie at whole multiples of it [s]
  /// Cumulative CPU weight of a tile's steps (stepCount() + 1 entries, from 0).
  std::vector<double> stepWeights;

  SpectralOceanState(const WaveSpectrum& spectrum, const SpectralOceanSettings& checkedSettings);
  /// The bicubic (`cubic`) or bilinear stencil of the point at rest
  /// position (x, y) [m].
  [[nodiscard]] Stencil stencilAt(double x_m, double y_m, bool cubic) const {
    return stencilOn(x_m, y_m, cubic, settings.nodesPerSide, inverseCell_pm);
  }
  /// The same on the fixed-point tiles' grid.
  [[nodiscard]] Stencil fixedStencilAt(double x_m, double y_m, bool cubic) const {
    return stencilOn(x_m, y_m, cubic, fixedNodes, inverseFixedCell_pm);
  }
  /// The stencil on a periodic grid of n nodes per side, `inverseCell_pm`
  /// nodes a metre.
  [[nodiscard]] static Stencil stencilOn(double x_m, double y_m, bool cubic, int n, double inverseCell_pm);
  /// True when queries read fixed-point tiles (no Newton solve).
  [[nodiscard]] bool fixedPoints() const { return settings.query == SpectralQuery::FixedPointTiles; }
  /// Level `l`, sized on first use.
  SpectralLevel& level(int l);
  /// The tiles at `time_s` into level `l`, every step at once: the FFTs,
  /// then for fixed-point tiles the resampling. Drops the tile computed
  /// ahead (the steps share the synthesis's buffers).
  void computeLevel(double time_s, int l);
  /// A tile's steps: the synthesis's stages, then for fixed-point tiles the
  /// resampling `rowsPerStep` rows a step and a last step that completes
  /// the level.
  /// Each step's results are its own, so a tile is the same bits whatever
  /// steps run in which update.
  [[nodiscard]] int stepCount() const { return int(stepWeights.size()) - 1; }
  /// Runs steps [first, last) of the tile at `time_s` into `level`.
  void runSteps(int first, int last, double time_s, SpectralLevel& level);
  /// Computes the tile `ahead` steps on to `fraction` (0 to 1) of its CPU
  /// weight (all of it at 1).
  void workAhead(double fraction);
};

/// Weights of the two tiles at a query time: cubic Hermite for values whose
/// time derivative is tiled (h00, h01 on values; h10, h11 times the span on
/// derivatives), linear for the rest.
struct TimeWeights {
  float value0 = 1, value1 = 0, slope0 = 0, slope1 = 0;
  float linear0 = 1, linear1 = 0;
  /// A tiled value and its derivative at the two times, blended (in float,
  /// as every query does, so that all give the same bits).
  [[nodiscard]] float hermite(float v0, float v1, float d0, float d1) const {
    return value0 * v0 + value1 * v1 + slope0 * d0 + slope1 * d1;
  }
};

[[nodiscard]] TimeWeights timeWeights(double t0, double t1, double t);

/// The query-side view of the published tiles at one time: the two that
/// bracket it.
struct Snapshot {
  const SpectralOceanState* state;
  const SpectralLevel* level0;
  const SpectralLevel* level1;
  TimeWeights weights;
  std::size_t bands;
  bool single = false;  ///< level0 only, at its own time (the resampling): no blend
};

[[nodiscard]] Snapshot snapshotAt(const SpectralOceanState& s, double t_s);

/// The displacement tiles interpolated at rest position (x0, y0): residual
/// F = x0 + D(x0) - x and its Jacobian `I + grad D`.
struct Sums {
  Stencil stencil;
  double fx, fy, jxx, jxy, jyx, jyy;
  [[nodiscard]] double residual2() const { return fx * fx + fy * fy; }
};

/// Newton's method with step halving on the `cubic` or bilinear
/// rest-position tile from (x0, y0) until |F| <= tolerance; (x0, y0) ends
/// at the solution.
Sums solveRestPosition(const Snapshot& s, bool cubic, double x, double y, double tolerance_m, double& x0, double& y0);

/// Fills rows [firstRow, lastRow) of `level`'s fixed-point tiles from the
/// rest-position tiles of `lagrangian` at the same time (spectral_fixed.cpp).
void resampleToFixedPoints(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int lastRow,
                           SpectralLevel& level);
/// Rows [firstRow, firstRow + rows) of them, rows at most resampleLanes(), on
/// the CPU's best instruction set (spectral_fixed_simd.cpp).
void resampleRows(const SpectralOceanState& state, const SpectralLevel& lagrangian, int firstRow, int rows,
                  SpectralLevel& level);
/// The rows resampleRows takes at once: a vector's lanes.
[[nodiscard]] std::size_t resampleLanes();
/// The floats of a node in SpectralLevel::bands: 7 a band, rounded up to
/// whole 64-byte lines.
[[nodiscard]] constexpr std::size_t bandStride(std::size_t bands) { return (7 * bands + 15) / 16 * 16; }

}  // namespace keel::KEEL_ABI::detail

namespace keel::KEEL_ABI {

/// SpectralOcean's opaque state (lib/src/internals.hpp): the SpectralOceanState itself.
struct SpectralOcean::State final : detail::SpectralOceanState {
  using SpectralOceanState::SpectralOceanState;
};

inline auto* Internals::state(const SpectralOcean& ocean) { return ocean.state_.get(); }

}  // namespace keel::KEEL_ABI

namespace keel::KEEL_ABI::detail {

/// The cumulative CPU weights of a tile's steps (SpectralOceanState::stepWeights).
[[nodiscard]] std::vector<double> tileStepWeights(const SpectralOceanState& state);

/// The ocean's state, for the library and the tests; std::logic_error
/// naming `caller` when the ocean was moved from (it has none).
[[nodiscard]] inline SpectralOceanState& oceanState(const SpectralOcean& ocean, const char* caller = "a query") {
  SpectralOceanState* state = Internals::state(ocean);
  if (!state) throw std::logic_error(std::string("keel::SpectralOcean::") + caller + ": the ocean was moved from");
  return *state;
}

/// The published tile of elevations above the mean level at its first time,
/// at the rest positions of the grid nodes ((i, j) at (i, j) L / N, row j),
/// N * N floats [m]: a copy, whose bits the determinism test hashes.
[[nodiscard]] std::vector<float> elevationTile_m(const SpectralOcean& ocean);

}  // namespace keel::KEEL_ABI::detail
