#pragma once
/// @file waves.hpp
/// The water surfaces shipped with Keel: flat water, a tilted plane, sums of
/// linear (Airy) waves, Gerstner (trochoidal) waves, and random seas sampled
/// from a standard wave spectrum. A user's own HeightFunction or WaterSurface
/// works just as well: these are conveniences, not a requirement.
/// Formulas and sources: docs/waves.md.
///
/// Wave parameters are `double`, whatever btScalar is: a phase `k x` of a 10 m
/// wave 10 km from the origin needs more than float's 7 digits. The query
/// methods take and return btScalar like every WaterSurface, take the time
/// in double, and compute in double inside (docs/waves.md, "Coordinates and
/// units").
///
/// Coordinates are those of WaterSurface: (u, v) horizontal along
/// WaterFrame::east and WaterFrame::north [m], heights along up [m], time [s].

#include <keel/config.hpp>
#include <keel/constants.hpp>
#include <keel/water_surface.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// A current that is the same everywhere and always: horizontal, in the water
/// frame [m/s].
struct UniformCurrent {
  double east_mps = 0;   ///< along WaterFrame::east [m/s]
  double north_mps = 0;  ///< along WaterFrame::north [m/s]
};

// ---------------------------------------------------------------------------
// Planes
// ---------------------------------------------------------------------------

/// Still, level water at a fixed height, optionally flowing with a uniform
/// current.
class FlatSurface final : public WaterSurface {
 public:
  /// Water at `height_m` [m] along up. Throws std::invalid_argument when a
  /// value is not finite.
  explicit FlatSurface(double height_m = 0, UniformCurrent current = {});

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// The current, at every point.
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// True: the current is the same everywhere.
  [[nodiscard]] bool velocityIsUniform() const override { return true; }
  /// True: level water, the same height everywhere.
  [[nodiscard]] bool heightIsUniform() const override { return true; }

 private:
  double height_m_;
  UniformCurrent current_;
};

/// A plane surface `eta = h0 + slopeEast u + slopeNorth v` [m] that does not
/// move. For checks against an analytic answer: a body of volume V [m^3]
/// under it feels the force `rho g V (-slope, 1)` (docs/model.md §5, "The
/// analytic tests").
///
/// The current flows along the plane: its horizontal part is `current`, its
/// vertical part `slopeEast east_mps + slopeNorth north_mps`, so water at the
/// surface stays at the surface (the kinematic condition of a steady surface).
class TiltedPlaneSurface final : public WaterSurface {
 public:
  /// Height `height_m` [m] at u = v = 0; slopes are dimensionless (m of rise
  /// per m along east / north). Throws std::invalid_argument when a value is
  /// not finite.
  TiltedPlaneSurface(double height_m, double slopeEast, double slopeNorth, UniformCurrent current = {});

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// The current, tangent to the plane, at every point.
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// True: the current is the same everywhere.
  [[nodiscard]] bool velocityIsUniform() const override { return true; }

 private:
  double height_m_;
  double slopeEast_;
  double slopeNorth_;
  WaterVelocity velocity_;
};

// ---------------------------------------------------------------------------
// Wave components and dispersion
// ---------------------------------------------------------------------------

/// One regular wave travelling over deep water. Its phase at horizontal point
/// x [m] and time t [s] is `theta = k d.x - omega t + phi` (d the unit
/// direction, in the frame that moves with the surface's current).
struct WaveComponent {
  double amplitude_m = 0;             ///< a: half the crest-to-trough height [m], >= 0
  double wavenumber_radpm = 0;        ///< k = 2 pi / wavelength [rad/m], > 0
  double angularFrequency_radps = 0;  ///< omega, relative to the current [rad/s], >= 0
  double directionEast = 1;           ///< direction of travel, east part (normalised by the surfaces)
  double directionNorth = 0;          ///< direction of travel, north part
  double phase_rad = 0;               ///< phi [rad]
};

/// Deep-water dispersion `omega^2 = g k` (Airy 1845; e.g. Dean & Dalrymple,
/// Water Wave Mechanics for Engineers and Scientists, 1991, ch. 3): angular
/// frequency [rad/s] of a wave of wavenumber `wavenumber_radpm` [rad/m].
[[nodiscard]] double deepWaterAngularFrequency_radps(double wavenumber_radpm,
                                                     double gravity_mps2 = kStandardGravity_mps2);

/// The inverse, `k = omega^2 / g`: wavenumber [rad/m] of a deep-water wave of
/// angular frequency `angularFrequency_radps` [rad/s].
[[nodiscard]] double deepWaterWavenumber_radpm(double angularFrequency_radps,
                                               double gravity_mps2 = kStandardGravity_mps2);

/// A deep-water wave of amplitude `amplitude_m` [m] and wavelength
/// `wavelength_m` [m] travelling towards `direction_rad` [rad] (counter-clockwise
/// from east towards north), with phase `phase_rad` [rad]; its frequency
/// follows from deepWaterAngularFrequency_radps.
[[nodiscard]] WaveComponent deepWaterWave(double amplitude_m, double wavelength_m, double direction_rad,
                                          double phase_rad = 0, double gravity_mps2 = kStandardGravity_mps2);

/// Significant wave height [m] of a set of components, `4 sqrt(sum a^2 / 2)`:
/// four times the standard deviation of the elevation (`H_m0`).
[[nodiscard]] double significantWaveHeight_m(std::span<const WaveComponent> components);

/// The same waves moved by (`east_m`, `north_m`) [m]: their sum at
/// `x + (east_m, north_m)` is the original sum at `x`, at every time, for a
/// SineSumSurface and a GerstnerSurface alike (each phase becomes
/// `phi - k d.offset`, reduced to [-pi, pi], in double). For a floating
/// origin: when the game moves its world by an offset, the waves moved by
/// that offset stay under the boats (docs/integration.md, "Large worlds").
/// Throws std::invalid_argument for a non-finite offset, or a wave a
/// SineSumSurface would refuse (a value not finite, no direction, ...).
[[nodiscard]] std::vector<WaveComponent> shiftedWaves(std::span<const WaveComponent> components, double east_m,
                                                      double north_m);

// ---------------------------------------------------------------------------
// Sums of linear waves
// ---------------------------------------------------------------------------

/// What a wave field floats on, shared by SineSumSurface and GerstnerSurface.
struct WaveFieldSettings {
  double meanLevel_m = 0;  ///< still-water level along up [m]
  /// A uniform current. It carries the waves with it: the whole field drifts
  /// at the current's velocity (the Doppler shift `omega + k d.current`), and
  /// the current adds to the orbital velocity.
  UniformCurrent current{};
};

/// Linear (Airy) waves: `eta = h0 + sum a cos(theta)`, with theta the phase
/// of WaveComponent at `x - current t`.
///
/// Velocity (linear deep-water theory): each component adds
/// `a omega e^{k z} cos(theta)` along its direction and
/// `a omega e^{k z} sin(theta)` up, plus the current. `z` is the depth below
/// the instantaneous surface, `w - eta` (Wheeler 1970 stretching), clamped to
/// 0 above it; so at the surface the vertical velocity is exactly the linear
/// kinematic `d eta/dt`, and half a wavelength down the orbits are
/// e^-pi = 4% of the surface's.
class SineSumSurface final : public WaterSurface {
 public:
  /// Throws std::invalid_argument when a value is not finite, an amplitude or
  /// a frequency is negative, a wavenumber is not positive, or a direction is
  /// zero. Directions are normalised.
  explicit SineSumSurface(std::vector<WaveComponent> components, WaveFieldSettings settings = {});

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  /// Vectorised across points (Highway, the widest SIMD instruction set the
  /// CPU has, in double): the same operations as height() but for the sin
  /// and cos, within a few ulps of libm's. A point's result does not depend
  /// on where it sits in the batch nor on the batch's size. docs/waves.md.
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// Each component's phasor e^{i theta} at a node is the product of one per
  /// column and one per row, which follow along the grid by one complex
  /// multiplication each: a node costs a complex multiply-add per component
  /// instead of a cosine. Within about 1e-15 Hs * nodes per side of
  /// heights() at the nodes' coordinates in double (docs/waves.md, "Grids").
  bool gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const override;
  /// The same, and from the same phasors the orbital velocity at each depth
  /// below the node's surface: three multiply-adds per node, depth and
  /// component.
  bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                btScalar* heights_out_m) const override;
  [[nodiscard]] QueryCost queryCost() const override;
  /// True: the waves are fixed, every time's answer with them.
  [[nodiscard]] bool settledBetween(double /*from_s*/, double /*to_s*/) const override { return true; }
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  /// Vectorised across points, as heights().
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// Heights and velocities of the same points from the same phases: the
  /// velocity needs each point's elevation for Wheeler stretching and the
  /// phases' cos for it, so one pass gives both, for about the cost of
  /// velocities() alone. The results are the bits heights() and velocities()
  /// give (same vector code; the points they hand to height() and velocity()
  /// are handed to both here), wherever a point sits in the batch.
  void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                            double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const override;
  /// Linear (Airy) pressure head [m]: `sum a e^{k z} cos(theta) - (w - h0)`,
  /// the decay stretched to the surface (z = w - eta, Wheeler 1970), that is
  /// the static head `eta - w` plus `sum a (e^{k z} - 1) cos(theta)`; 0 at
  /// the surface. Vectorised across points, as heights(). docs/waves.md,
  /// "Pressure below the surface".
  void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     btScalar* out_m) const override;

  /// The components as given, directions normalised.
  [[nodiscard]] std::span<const WaveComponent> components() const { return components_; }
  [[nodiscard]] const WaveFieldSettings& settings() const { return settings_; }  ///< as given

 private:
  std::vector<WaveComponent> components_;
  WaveFieldSettings settings_;
};

// ---------------------------------------------------------------------------
// Gerstner waves
// ---------------------------------------------------------------------------

/// Settings of a GerstnerSurface.
struct GerstnerSettings {
  double meanLevel_m = 0;    ///< still-water level along up [m]
  UniformCurrent current{};  ///< as in WaveFieldSettings: carries the waves
  /// Q in [0, 1]: horizontal displacement of each particle as a fraction of
  /// its vertical one. 1 is Gerstner's trochoid (circular orbits, sharp
  /// crests), 0 gives back the sine sum's surface.
  double steepness = 1;
};

/// Gerstner (trochoidal) waves (Gerstner 1802; Tessendorf, Simulating Ocean
/// Water, 2001, §3). The surface particle at rest at x0 (in the frame drifting
/// with the current) is at
///
///     x = x0 - sum d Q a sin(theta(x0)),   eta = h0 + sum a cos(theta(x0))
///
/// so crests are sharper and troughs flatter than a sine's. The height at a
/// fixed horizontal point x needs the rest position x0 with x(x0) = x: found
/// by Newton's method to 1e-9 m, so heights match the parametric surface to
/// the precision of btScalar.
///
/// The map x0 -> x is one-to-one, and the height well defined, when
/// `Q sum k a < 1` (its Jacobian `I - Q sum k a cos(theta) d d^T` is then
/// positive definite); the constructor enforces it.
///
/// Velocity: the surface particle's, `dx/dt = sum d Q a omega cos(theta)`,
/// `deta/dt = sum a omega sin(theta)`, plus the current, at the rest position
/// x0 of the surface particle above the point; below the surface each
/// component decays as `e^{k z}` with z the depth below the surface (as
/// SineSumSurface: the interior flow of a Gerstner sea of several components
/// is no solution of the flow equations anyway, so Keel does not invert the
/// 3D particle map for it).
class GerstnerSurface final : public WaterSurface {
 public:
  /// Throws std::invalid_argument for the reasons of SineSumSurface, a
  /// steepness outside [0, 1], or `steepness * sum k a >= 1` (a surface that
  /// folds over itself: see gerstnerSteepnessLimit).
  explicit GerstnerSurface(std::vector<WaveComponent> components, GerstnerSettings settings = {});

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  /// Vectorised across points (Highway, the widest SIMD instruction set the
  /// CPU has, in double): each point runs height()'s Newton iteration, with
  /// its tolerance and caps, in a lane of its own, and agrees with height()
  /// within that tolerance. A point's result does not depend on where it sits
  /// in the batch nor on the batch's size. docs/waves.md.
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  /// Vectorised across points, as heights().
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// Heights and velocities of the same points from one Newton solve per
  /// point: height() and velocity() both need the rest point of the surface
  /// particle above it, and the solve's last sin and cos of each phase serve
  /// the velocity. About the cost of velocities() alone. The results are the
  /// bits heights() and velocities() give (same Newton iteration per lane; a
  /// point handed to the scalar code gets exactly height() and velocity()),
  /// wherever a point sits in the batch.
  /// A Newton solve per point, on patches too (fewer iterations there:
  /// the nodes come in rows, neighbours in a vector converge together).
  [[nodiscard]] QueryCost queryCost() const override;
  void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                            double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const override;
  /// Pressure head [m] below the surface particle above each point: the
  /// static head `eta - w` plus `sum a (e^{k z} - 1) cos(theta)` with the
  /// phases at the particle's rest point and z = w - eta (as the velocity,
  /// the linear pressure's decay under a Gerstner sea); 0 at the surface.
  /// One Newton solve per point, vectorised as heights(). docs/waves.md.
  void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                     btScalar* out_m) const override;
  /// Heights at a patch's nodes and velocities at each depth below the
  /// surface there (none: heights only), from one Newton solve per node:
  /// each depth adds only the velocity's sums (a few products per
  /// component), no solve. Without a history the heights are the bits
  /// heights() gives at the nodes' coordinates. With one
  /// (GridVelocities::history), each node's solve starts from its last
  /// solution, the phases' sin and cos carried on to this time by the
  /// angle-addition identity: about a third of the cost, within the solve's
  /// tolerance of the same answers; afresh when the grid moved, more than
  /// 0.5 rad of phase passed, or every 256th sample (docs/waves.md,
  /// "Grids").
  bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                btScalar* heights_out_m) const override;

  /// The components as given, directions normalised.
  [[nodiscard]] std::span<const WaveComponent> components() const { return components_; }
  [[nodiscard]] const GerstnerSettings& settings() const { return settings_; }  ///< as given

 private:
  std::vector<WaveComponent> components_;
  GerstnerSettings settings_;
};

/// The Gerstner steepness below which `components` cannot fold:
/// `1 / sum k a` (infinity when every amplitude is 0). GerstnerSurface
/// accepts any steepness strictly below it (and at most 1).
[[nodiscard]] double gerstnerSteepnessLimit(std::span<const WaveComponent> components);

// ---------------------------------------------------------------------------
// Random seas from a spectrum
// ---------------------------------------------------------------------------

/// A wave energy spectrum S(omega) [m^2 s/rad] in the JONSWAP form of
/// DNV-RP-C205 (2010, §3.5):
///
///     S_PM(w) = 5/16 Hs^2 wp^4 w^-5 exp(-5/4 (w/wp)^-4)
///     S(w)    = (1 - 0.287 ln gamma) S_PM(w) gamma^exp(-(w - wp)^2 / (2 sigma^2 wp^2))
///
/// with wp = 2 pi / Tp, sigma = 0.07 for w <= wp and 0.09 above. gamma = 1 is
/// the Pierson-Moskowitz spectrum (Pierson & Moskowitz 1964), gamma = 3.3 the
/// mean JONSWAP one (Hasselmann et al. 1973). The factor `1 - 0.287 ln gamma`
/// keeps the spectrum's Hs within 1% of `significantWaveHeight_m` for gamma
/// in [1, 7], the range sampleSeaState accepts.
struct WaveSpectrum {
  double significantWaveHeight_m = 0;  ///< Hs = 4 sqrt(m0) [m], > 0
  double peakPeriod_s = 0;             ///< Tp, period of the spectral peak [s], > 0
  double peakEnhancement = 1;          ///< gamma in [1, 7] (1: Pierson-Moskowitz)

  /// Pierson-Moskowitz spectrum of significant height `hs_m` [m] and peak
  /// period `tp_s` [s].
  [[nodiscard]] static WaveSpectrum piersonMoskowitz(double hs_m, double tp_s);
  /// JONSWAP spectrum of significant height `hs_m` [m], peak period `tp_s`
  /// [s] and peak enhancement `gamma` (3.3 by default).
  [[nodiscard]] static WaveSpectrum jonswap(double hs_m, double tp_s, double gamma = 3.3);
  /// The fully developed sea raised by a steady wind of `windSpeed10m_mps`
  /// [m/s] at 10 m (Pierson & Moskowitz 1964, as given by Stewart,
  /// Introduction to Physical Oceanography, 2008, eqs. 16.29-16.33):
  /// `U19.5 = 1.026 U10`, `Hs = 2 sqrt(alpha/beta) U19.5^2 / g` (~0.21 U19.5^2/g),
  /// `omega_p = (4 beta / 5)^(1/4) g / U19.5` (~0.877 g/U19.5), with
  /// alpha = 8.1e-3, beta = 0.74.
  [[nodiscard]] static WaveSpectrum fullyDevelopedSea(double windSpeed10m_mps,
                                                      double gravity_mps2 = kStandardGravity_mps2);

  /// Angular frequency of the peak, 2 pi / Tp [rad/s].
  [[nodiscard]] double peakAngularFrequency_radps() const;
  /// Spectral density S(omega) [m^2 s/rad] at angular frequency
  /// `angularFrequency_radps` [rad/s] (0 for omega <= 0).
  [[nodiscard]] double density_m2sprad(double angularFrequency_radps) const;
};

/// How sampleSeaState turns a spectrum into wave components.
struct SeaStateSettings {
  /// Direction the wind blows towards and the waves mainly travel, counter-
  /// clockwise from east (+u) towards north (+v) [rad].
  double meanDirection_rad = 0;
  /// Directional spreading exponent n of DNV-RP-C205 (§3.5):
  /// `D(theta) ~ cos^n(theta - mean)` for |theta - mean| <= pi/2, n >= 0
  /// (2 to 4 for a wind sea). Infinity gives long-crested waves, all
  /// travelling towards the mean direction.
  double spreadingExponent = 2;
  std::size_t componentCount = 64;  ///< number of waves, >= 1
  std::uint32_t seed = 1;           ///< seed of the std::mt19937 that draws them
  /// Highest frequency sampled, as a multiple of the peak's (> 1). The energy
  /// above it is left out: short waves move a boat little and fold Gerstner
  /// surfaces. At 3 a Pierson-Moskowitz sea keeps 98.5% of its energy.
  double maxFrequencyRatio = 3;
  double gravity_mps2 = kStandardGravity_mps2;  ///< for k = omega^2 / g [m/s^2]
};

/// Deep-water wave components sampled from `spectrum`: deterministic for a
/// given seed (on any platform: the random stream is mt19937's, which the
/// C++ standard fixes, turned into numbers by Keel's own code).
///
/// Each component carries an equal share of the energy between
/// 0.4 omega_p and `maxFrequencyRatio` omega_p, so all have the same amplitude
/// `sqrt(2 m0 / N)` and the components crowd where the spectrum is high.
/// Component i's frequency is drawn inside the i-th of N equal-energy bands,
/// its direction inside a randomly assigned one of N equal-probability
/// sectors of the spreading function, its phase uniformly: stratified
/// sampling that reproduces the spectrum's moments closely with few waves.
///
/// Throws std::invalid_argument for a spectrum or settings out of range.
[[nodiscard]] std::vector<WaveComponent> sampleSeaState(const WaveSpectrum& spectrum,
                                                        const SeaStateSettings& settings = {});

}  // namespace keel::KEEL_ABI
