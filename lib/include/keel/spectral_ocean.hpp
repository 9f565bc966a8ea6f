#pragma once
/// @file spectral_ocean.hpp
/// keel::SpectralOcean: a random sea on a periodic tile, synthesised by
/// inverse FFTs from a wave spectrum (Tessendorf, Simulating Ocean Water,
/// 2001), with choppy (Gerstner-like) horizontal displacement, velocities and
/// accelerations. Queries interpolate in the tile: O(1) per point whatever
/// the number of waves. Formulas, errors and the update contract:
/// docs/waves.md, "Spectral ocean".

#include <keel/config.hpp>
#include <keel/water_surface.hpp>
#include <keel/waves.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI {

/// Fluid acceleration in the water frame [m/s^2], along WaterFrame::east,
/// north and up.
struct WaterAcceleration {
  btScalar east_mps2 = 0;   ///< along WaterFrame::east [m/s^2]
  btScalar north_mps2 = 0;  ///< along WaterFrame::north [m/s^2]
  btScalar up_mps2 = 0;     ///< along WaterFrame::up [m/s^2]
};

/// How SpectralOcean interpolates its tiles in space.
enum class SpectralInterpolation {
  Bilinear,  ///< 4 nodes: cheapest; errs by up to 30% on the shortest waves (4 cells long)
  Bicubic,   ///< 16 nodes, Catmull-Rom (Keys 1981): 3 to 5 times smaller errors (docs/waves.md)
};

/// How SpectralOcean finds the height at a fixed point.
enum class SpectralQuery {
  /// Each tile is resampled once, when computed, at its nodes' fixed world
  /// points (the particle above each node found there); queries and grid
  /// queries interpolate those tiles directly: O(1), no solve per point.
  FixedPointTiles,
  /// Each query solves for the surface particle above the point by Newton's
  /// method on the interpolated rest-position tiles: no fixed-point tiles to
  /// resample or hold (less than half the memory, docs/waves.md, "Spectral
  /// ocean"), for a sea queried at few points; each query 5 to 10 times
  /// dearer, no grid query. The reference the fixed-point tiles are checked
  /// against.
  ParticleSolve,
};

/// Settings of a SpectralOcean. The sea-state fields mean what they mean in
/// SeaStateSettings.
struct SpectralOceanSettings {
  /// Side L of the square periodic tile [m]. 0 picks 6 peak wavelengths
  /// (`6 * 2 pi g / omega_p^2`).
  double tileSize_m = 0;
  /// Grid nodes per side N: even, 16 to 1024. The FFTs are fastest for
  /// powers of two. The tile holds waves up to half the grid's Nyquist
  /// wavenumber, `pi N / (2 L)`: the shortest is 4 cells long. Memory:
  /// about `(16 (6 + 2.25 (2 + 10 B)) + 24 + 4 S + 145) N^2` bytes with B
  /// velocity bands (S = 7 B rounded up to a multiple of 16) and the
  /// default fixed-point tiles (25 MB at 128 nodes and 3 bands), up to half
  /// as many tile bytes again after a jump in time (docs/waves.md, "Update
  /// and threads").
  int nodesPerSide = 128;
  /// Horizontal displacement lambda in [0, 1] as a fraction of linear
  /// theory's particle orbits (GerstnerSettings::steepness): 1 moves the
  /// surface particles on circles, 0 gives the linear (sine-sum) surface.
  double choppiness = 1;
  /// Wavenumber bands of the velocities and accelerations below the surface,
  /// 1 to 8: each band decays with depth as `e^{k z}` of its own mean
  /// wavenumber (docs/waves.md). Each band costs 3.5 inverse FFTs per tile.
  int velocityBands = 3;
  /// Interpolation of the tiles in space (docs/waves.md measures both).
  SpectralInterpolation interpolation = SpectralInterpolation::Bicubic;
  /// How queries find the surface above a point (docs/waves.md, "Queries").
  SpectralQuery query = SpectralQuery::FixedPointTiles;
  /// Fixed-point tiles have this many nodes per FFT node along each side, 1
  /// to 4 (rounded to an even count). The surface at fixed points is sharper
  /// than the particles' (choppy crests hold the shortest waves' second
  /// harmonics, at the FFT grid's Nyquist wavenumber): 1.5 brings a storm's
  /// errors back to those of the particle solve, 1 errs 3.5 times more on
  /// its surface velocities (docs/waves.md, "Accuracy"). Memory and
  /// resampling time grow as its square.
  double fixedPointRefinement = 1.5;
  double meanLevel_m = 0;                       ///< still-water level along up [m]
  double meanDirection_rad = 0;                 ///< mean direction of travel, ccw from east [rad]
  double spreadingExponent = 2;                 ///< n of `cos^n` spreading, finite and >= 0
  double maxFrequencyRatio = 3;                 ///< waves above this multiple of omega_p are left out (> 1)
  std::uint64_t seed = 1;                       ///< seed of the tile's own random numbers
  double gravity_mps2 = kStandardGravity_mps2;  ///< for omega^2 = g k [m/s^2]
};

/// A deep-water random sea from a WaveSpectrum, on a periodic tile.
///
/// Each grid wavevector k of the tile is one linear wave
/// `a cos(k.x0 - omega t + phi)`, `omega^2 = g |k|`, its complex amplitude
/// drawn from a Gaussian of variance `2 F(k) dk^2` (F the directional
/// spectrum), so the tile is a sum of waves just like a GerstnerSurface with
/// steepness `choppiness` (components() lists them). Tiles of the height, the
/// horizontal displacement, and per velocity band the velocity and the
/// acceleration, are inverse FFTs of the same amplitudes (float).
///
/// Heights at fixed points: each tile is resampled once, when computed, at
/// fixed world points (SpectralQuery::FixedPointTiles), so a query or a
/// patch's grid query interpolates without solving for the surface particle
/// above the point.
///
/// Time: the tiles lie on a lattice, at whole multiples of the tile period
/// W (tilePeriod_s()). `update(from_s, to_s)`, usually over the coming
/// frame, publishes the lattice tiles around that window and computes a
/// slice of the next one; a query at time t interpolates the two tiles
/// around t with cubic Hermite polynomials (the velocity and acceleration
/// tiles are the time derivatives they need), so substeps see their own
/// exact time, and the answer depends on t alone, not on the windows.
/// Outside the published tiles' span, t is clamped to it.
///
/// Queries take a finite time (std::invalid_argument otherwise); a NaN
/// coordinate answers NaN.
///
/// Threads: queries are const and safe from many threads. update() and
/// publish() must not run while a query runs (between frames, before
/// stepSimulation); prepare() may run while other threads query the tiles
/// published before.
class SpectralOcean final : public WaterSurface {
 public:
  /// Computes the tiles at t = 0 (a still picture until update()). Throws
  /// std::invalid_argument naming the bad setting, its value and its bound:
  /// among them a tile that holds no wave of the spectrum, waves whose sums
  /// the float tiles cannot hold, and settings whose tiles need more than
  /// 4 GB (docs/waves.md, "Bounds").
  explicit SpectralOcean(const WaveSpectrum& spectrum, const SpectralOceanSettings& settings = {});
  ~SpectralOcean() override;
  SpectralOcean(const SpectralOcean&) = delete;
  SpectralOcean& operator=(const SpectralOcean&) = delete;
  /// The tiles move with it. The source is left empty: every call on it
  /// but assignment throws std::logic_error saying so.
  SpectralOcean(SpectralOcean&&) noexcept;
  SpectralOcean& operator=(SpectralOcean&&) noexcept;  ///< as the move constructor

  /// prepare() then publish(): the lattice tiles around the window from
  /// `from_s` to `to_s` [s] (from_s <= to_s, finite): the two of its cell,
  /// three when it crosses a lattice time, each reused when published or
  /// computed ahead; then a share of the next lattice tile, as far as the
  /// window has come through its last cell, so that a steady game computes
  /// one tile per period spread over its frames. A window longer than two
  /// cells takes tiles at its ends instead (a published one within 2^-24
  /// rad of the fastest wave's phase reused). A window over which
  /// interpolating in time would err by more than 1% of Hs is refused, as
  /// prepare() says (longestUpdateWindow_s(); docs/waves.md, "Update and
  /// threads").
  void update(double from_s, double to_s);
  /// Computes the tiles of the window from `from_s` to `to_s` [s] (as
  /// update() says) into the back buffer, and the share of the next
  /// lattice tile into a buffer of its own. Safe
  /// while other threads query (they read the published tiles only); not
  /// safe together with another prepare() or publish(). Throws
  /// std::invalid_argument for non-finite or decreasing times, and for a
  /// window whose Hermite error bound, `4 sqrt(sum (a w^4)^2 / 2) dt^4 / 384`
  /// over the tile's waves, exceeds 1% of their Hs (docs/waves.md,
  /// "Bounds"; a 60 Hz frame, or 0.1 s on a sea of Tp 3 s or more, is far
  /// within it).
  void prepare(double from_s, double to_s);
  /// Makes the prepared tiles the ones queries read. Must not run while a
  /// query runs.
  void publish();

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// The velocity of the surface particle above (u, v), each band decaying
  /// as `e^{k_band z}` with z the depth below the surface (0 above it).
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// One stencil (or displacement inversion) per point for both.
  void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                            double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const override;
  /// Linear (Airy) pressure heads [m] below the surface
  /// (WaterSurface::pressureHeads): the static head `eta - w` plus, per
  /// velocity band, its share of the elevation at the surface particle above
  /// the point times `e^{k_band z} - 1`, z = min(w - eta, 0): 0 at the
  /// surface, the still water's head deep down (docs/waves.md, "Pressure
  /// below the surface").
  void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     btScalar* out_m) const override;
  /// Heights of a world-snapped grid: each grid column's and row's stencil
  /// computed once, and the tile nodes the grid covers blended in time once
  /// (fixed-point tiles; false with SpectralQuery::ParticleSolve); a grid
  /// whose cell spans 8 tile cells or more, node by node. Throws
  /// std::invalid_argument for a grid it cannot read (docs/waves.md, "Grids").
  bool gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const override;
  /// gridHeights() and the velocities at the given depths, as gridHeights().
  bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                btScalar* heights_out_m) const override;
  /// Sampling::Auto's cost model, as keel_bench_query_cost measures it
  /// (docs/performance.md, "Choosing the sampling"): independent of the
  /// number of waves.
  [[nodiscard]] QueryCost queryCost() const override;
  /// The fluid acceleration [m/s^2] at the point, the time derivative of
  /// velocity() at the surface particle, decaying with depth as it does.
  /// Interpolated linearly in time.
  [[nodiscard]] WaterAcceleration acceleration(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const;
  /// Batch accelerations: `out[i] = acceleration(u_m[i], v_m[i], w_m[i], t_s)`.
  void accelerations(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     WaterAcceleration* out) const;

  /// The tile's waves, in the convention of GerstnerSurface with steepness
  /// `choppiness`: a direct sum of them is the surface the tiles sample.
  [[nodiscard]] std::vector<WaveComponent> components() const;
  /// Significant wave height of the tile's waves, `4 sqrt(sum a^2 / 2)` [m].
  [[nodiscard]] double significantWaveHeight_m() const;
  /// Its expected value, `4 sqrt(m0)` of the spectrum over the tile's
  /// wavevectors [m].
  [[nodiscard]] double expectedSignificantWaveHeight_m() const;
  /// The mean wavenumber of each velocity band [rad/m], deepest-reaching first.
  [[nodiscard]] std::vector<double> bandWavenumbers_radpm() const;
  [[nodiscard]] double tileSize_m() const;  ///< L [m]
  [[nodiscard]] int nodesPerSide() const;   ///< N
  /// The first and the last published tile's times [s]: the span queries
  /// are clamped to.
  [[nodiscard]] std::array<double, 2> publishedTimes_s() const;
  /// True when the times from `from_s` to `to_s` [s] lie within
  /// publishedTimes_s() and the published tiles are lattice tiles (not a
  /// long window's ends): each such time's answer is then that of its
  /// lattice cell, the same bits after any later update.
  [[nodiscard]] bool settledBetween(double from_s, double to_s) const override;
  /// The period W of the tile lattice [s]: update() computes tiles at whole
  /// multiples of it, whatever its windows, the fastest wave turning by a
  /// quarter radian from one to the next (docs/waves.md, "Update and
  /// threads").
  [[nodiscard]] double tilePeriod_s() const;
  /// The longest window update() and prepare() accept for this sea [s]
  /// (docs/waves.md, "Bounds"). A game whose frame can run longer (a
  /// hitch, a pause) updates over the frame's last this-many seconds, or
  /// in several windows, instead of catching the refusal.
  [[nodiscard]] double longestUpdateWindow_s() const;
  [[nodiscard]] const SpectralOceanSettings& settings() const;  ///< with the tile size filled in

 private:
  /// The waves and their tiles (lib/src): opaque here.
  struct State;
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  std::unique_ptr<State> state_;
};

}  // namespace keel::KEEL_ABI
